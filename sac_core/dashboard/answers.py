"""Compare's answer row: under each column, an answer written from that column's top-k chunks,
its citations linked to the chunks they cite and checked against the gold documents.

Two answerers behind one interface (:mod:`sac_core.engine.answers`): ``extractive`` (offline: the
sentences closest to the question of the best-ranked chunk that has one and of its document, by the
page's own embedding model) and ``openai`` (any
OpenAI-compatible endpoint, streamed, cached by model, prompt and chunk texts; the key comes from
the session or the server's environment and is never stored). The HTML here is built from
escaped text only: an answer is untrusted text (a model wrote it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..engine.answers import (
    Answer,
    Answerer,
    DocumentNames,
    ExtractiveAnswerer,
    LLMAnswerer,
    Sources,
    answer_cost,
    excerpts_of,
    file_words,
    sources,
)
from ..engine.answers import AnswerError as AnswerError
from ..engine.answers.citations import split_citations
from ..engine.answers.llm import Cost, render_prompt
from ..engine.embedding import Embedder
from ..engine.retrieval import Hit
from .text import esc, esc_attr

ANSWERERS: dict[str, str] = {
    "off": "no answer",
    "extractive": "extractive (offline)",
    "openai": "LLM (OpenAI-compatible)",
}
DEFAULT_ANSWERER = "extractive"
PARAM = "answer"  # URL parameter: the answerer (absent: the default)
DEFAULT_LLM_MODEL = "gpt-4o-mini"


def answerer_label(k: int, *, gold: bool) -> str:
    """The answer row's label: the ✓/✗ legend only where gold exists (a free-text question has none)."""
    legend = "; ✓ = a chunk of a gold document, ✗ = a chunk of another document" if gold else ""
    return f"Answer from each column's top {k} (citations link to the chunks and name their documents{legend})"


def answerer_from_url(value: str | None) -> str:
    """The answerer a URL names (``?answer=openai``), the default when it names none or no known one."""
    return value if value in ANSWERERS else DEFAULT_ANSWERER


@dataclass(frozen=True)
class LLMSettings:
    """Where the ``openai`` answerer asks: ``api_key`` (this session's, or the server's
    ``OPENAI_API_KEY``), ``base_url`` (None: api.openai.com), ``model``."""

    api_key: str | None
    base_url: str | None
    model: str = DEFAULT_LLM_MODEL

    def usable(self) -> bool:
        return bool(self.api_key or self.base_url)


def make_answerer(kind: str, embedder: Embedder, cache_dir: Path, llm: LLMSettings | None = None) -> Answerer:
    """The answerer ``kind`` names (see :data:`ANSWERERS`; not ``off``); raises AnswerError when the
    ``openai`` one has neither a key nor a server URL."""
    if kind == "extractive":  # quotes the best-ranked chunk it can support, and only its document
        return ExtractiveAnswerer(embedder, ranked=True)
    if kind == "openai":
        settings = llm or LLMSettings(None, None)
        return LLMAnswerer(cache_dir, model=settings.model, api_key=settings.api_key, base_url=settings.base_url)
    raise ValueError(f"unknown answerer {kind!r}; choose from {', '.join(ANSWERERS)}")


def answer_column(
    answerer: Answerer,
    question: str,
    hits: Sequence[Hit],
    gold_files: Collection[str] | None,
    on_text: Callable[[str], None] | None = None,
) -> Answer:
    """``answerer``'s answer from ``hits`` (labelled ``#1`` … in rank order), every citation checked
    against ``gold_files`` (None: a free-text question, nothing to check)."""
    return answerer.answer(question, excerpts_of(hits), on_text=on_text).checked(gold_files)


def cached_answer(
    answerer: Answerer, question: str, hits: Sequence[Hit], gold_files: Collection[str] | None
) -> Answer | None:
    """The ``openai`` answerer's cached answer (nothing is sent), or None."""
    if not isinstance(answerer, LLMAnswerer):
        return None
    hit = answerer.cached(question, excerpts_of(hits))
    return None if hit is None else hit.checked(gold_files)


def anchor(column: str, rank: int) -> str:
    """The HTML id of a column's ``rank``-th chunk card: what a citation ``[#rank]`` links to."""
    slug = re.sub(r"[^a-z0-9]+", "-", column.lower()).strip("-") or "column"
    return f"sac-{slug}-{rank}"


NAME_CHARS = 32  # characters of a document's name shown beside a citation


def document_name(file_path: str, max_chars: int = NAME_CHARS) -> str:
    """A document's file name for people: words, no folder or extension, cut at a word with "…"
    (``cuad/ACME_CORP-EX-10.1-Supply Agreement.txt`` → ``ACME CORP EX 10 1 Supply Agreement``)."""
    name = file_words(file_path) or file_path
    if len(name) <= max_chars:
        return name
    cut = name[: max_chars - 1].rsplit(" ", 1)[0] or name[: max_chars - 1]
    return cut.rstrip() + "…"


def named_documents(names: DocumentNames, question: str) -> tuple[str, ...]:
    """The documents ``question`` names (see :meth:`DocumentNames.named`)."""
    return names.named(question)


def document_names(documents: Mapping[str, str]) -> DocumentNames:
    """What :func:`named_documents` matches questions against, from ``path → text``."""
    return DocumentNames.of(documents)


def doubt_sentence(doubt: tuple[str, str] | None) -> str:
    """A ranker's doubt about which document a question means, in plain words ("" without one):
    both documents by name, and which of them the column went on with."""
    if doubt is None:
        return ""
    first, second = (document_name(path) for path in doubt)
    return (
        f"The question could mean either “{first}” or “{second}”: both fit it about equally well, "
        f"and this column went on with “{first}”."
    )


def sources_html(found: Sources) -> str:
    """Warnings about where an answer comes from: several documents quoted, or others than the one
    the question names (empty when neither)."""
    lines = []
    if found.several:
        lines.append(f"⚠ Quotes {len(found.quoted)} documents: {'; '.join(map(document_name, found.quoted))}.")
    if found.not_named:
        named = "; ".join(map(document_name, found.named))
        other = "; ".join(map(document_name, found.not_named))
        verb = "also quotes" if len(found.not_named) < len(found.quoted) else "quotes"
        lines.append(f"⚠ The question names {named}; this answer {verb} {other}.")
    return "".join(f'<div class="sac-answer-problem sources">{esc(line)}</div>' for line in lines)


def answer_html(
    answer: Answer, column: str, named: Sequence[str] = (), *, verdicts: bool = True, doubt: str = ""
) -> str:
    """The answer box: a badge (cites another document / only gold documents), the text with each
    citation a link to its chunk marked ✓ or ✗ and naming its document, a warning when it quotes
    several documents or others than the ``named`` ones, the ranker's ``doubt`` about which document
    the question means (:func:`doubt_sentence`), and what is wrong with it when something is.
    ``verdicts`` False (a blind review): the text and its citations only, no badge, warning or flag."""
    marks = {c.label: c.gold_document for c in answer.citations}
    files = {c.label: c.file_path for c in answer.citations}
    parts = []
    for piece in split_citations(answer.text, answer.quote_spans):  # a quotation's "[1]" is the document's
        if isinstance(piece, str):
            parts.append(esc(piece))
            continue
        links = [_citation_link(label, marks, column, files.get(label)) for label in piece]
        parts.append(" ".join(links))
    head = (
        f'<div class="sac-head">{_badge(answer)}<b>Answer</b> <span class="muted">{esc(_source(answer))}</span></div>'
    )
    if not verdicts:
        head = f'<div class="sac-head"><b>Answer</b> <span class="muted">{esc(_source(answer))}</span></div>'
        return f'<div class="sac-answer">{head}<div class="sac-answer-text">{"".join(parts)}</div></div>'
    problem = ""
    if answer.problem:
        problem = (
            f'<div class="sac-answer-problem">⚠ Malformed answer: {esc(answer.problem)}. '
            "Shown as received; its citations cannot all be checked.</div>"
        )
    flagged = " flagged" if answer.cites_other_document else ""
    warnings = sources_html(sources(answer, named))
    if doubt:
        warnings += f'<div class="sac-answer-problem doubt">⚠ {esc(doubt)}</div>'
    return f'<div class="sac-answer{flagged}">{head}<div class="sac-answer-text">{"".join(parts)}</div>{warnings}{problem}</div>'


def streaming_html(text: str) -> str:
    """The answer box while the model is still writing (no checks yet)."""
    return f'<div class="sac-answer"><div class="sac-head"><b>Answer</b> <span class="muted">writing …</span></div><div class="sac-answer-text">{esc(text)}</div></div>'


def error_html(message: str) -> str:
    """The answer box when no answer could be had (the request failed: the message says why)."""
    return f'<div class="sac-answer"><div class="sac-answer-problem">⚠ No answer: {esc(message)}</div></div>'


_MARKS = {
    True: ("ok", " ✓", "a chunk of a gold document"),
    False: ("bad", " ✗", "a chunk of another document"),
    None: ("free", "", "no gold to check against"),
}


def _citation_link(label: str, marks: dict[str, bool | None], column: str, file_path: str | None) -> str:
    """``[#n ✓ document]`` linking to the column's n-th chunk; ``[#n ?]`` (no link) when no chunk has that label."""
    rank = int(label[1:])
    if label not in marks or file_path is None:
        return f'<a class="sac-cite missing" title="no chunk has this label">[#{rank} ?]</a>'
    kind, sign, title = _MARKS[marks[label]]
    doc = f'<span class="sac-cite-doc">{esc(document_name(file_path))}</span>'
    return (
        f'<a class="sac-cite {kind}" href="#{anchor(column, rank)}" title="{esc_attr(title)}: {esc_attr(file_path)}">'
        f"[#{rank}{sign} {doc}]</a>"
    )


def _badge(answer: Answer) -> str:
    if answer.cites_other_document:
        return '<span class="sac-badge bad">✗ answer cites another document</span>'
    if answer.cites_only_gold:
        return '<span class="sac-badge ok">✓ cites only gold documents</span>'
    if not answer.citations:
        return '<span class="sac-badge free">no citation</span>'
    return ""


def _source(answer: Answer) -> str:
    source = ANSWERERS.get(answer.answerer, answer.answerer)
    return f"{source}, cached" if answer.cached else source


def llm_estimate(question: str, columns_hits: Sequence[Sequence[Hit]], model: str) -> Cost:
    """What asking the LLM for these columns' answers costs at most (tokens, USD at gpt-4o-mini prices)."""
    return answer_cost([render_prompt(question, excerpts_of(hits)) for hits in columns_hits], model=model)
