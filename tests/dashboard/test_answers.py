"""Compare's answer box: a quote shows the document's characters exactly, and only the answerer's own
citation marks become links (random documents with brackets, ``#``, Markdown and HTML through the
extractive answerer and the renderer; an LLM's quotation; a real CUAD contract when SAC_DATA_DIR is set)."""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sac_core.dashboard import answers
from sac_core.dashboard.text import WORD_JOINER, ZERO_WIDTH_SPACE
from sac_core.engine.answers import Excerpt, ExtractiveAnswerer, has_content
from sac_core.engine.answers.types import cite
from sac_core.engine.retrieval.sentences import sentence_spans

LINK = re.compile(r'<a class="sac-cite[^"]*"(?: href="#([^"]+)")?[^>]*>(.*?)</a>')


class Ranked:
    """An embedder whose sentences rank in the order given, every one above the answerer's floor:
    the question is (1, 0), the i-th sentence a unit vector at a growing angle (cosine 1 … 0.27)."""

    def encode(self, texts, progress=True, desc="", on_progress=None, cache=True):
        angles = [0.0] + [min(1.3, 0.01 * (i + 1)) for i in range(len(texts) - 1)]
        return np.array([[math.cos(a), math.sin(a)] for a in angles], dtype=np.float32)


def shown_text(box: str) -> tuple[str, list[tuple[str | None, str]]]:
    """The answer text as a reader sees it (each citation link as ``[LINK]``) and the links (target, text)."""
    body = box.split('<div class="sac-answer-text">', 1)[1].split("</div>", 1)[0]  # escaped text has no tag
    links = [(m.group(1), html.unescape(m.group(2))) for m in LINK.finditer(body)]
    plain = LINK.sub("[LINK]", body).replace("<br>", "\n")
    assert "<" not in plain and ">" not in plain  # no markup of the document's own survives escaping
    return html.unescape(plain).replace(WORD_JOINER, "").replace(ZERO_WIDTH_SPACE, ""), links  # invisible: break marks


def _excerpts(text: str) -> tuple[Excerpt, ...]:
    half = len(text) // 2
    return (
        Excerpt("#1", "cuad/a.txt", 0, half, text[:half]),
        Excerpt("#2", "cuad/b.txt", half, len(text), text[half:]),
    )


def _check(excerpts: tuple[Excerpt, ...], sentences: int = 3) -> None:
    """The extractive answer over ``excerpts`` quotes their first sentences with content exactly; the box shows
    exactly those characters and links only the labels the answerer wrote."""
    answer = ExtractiveAnswerer(Ranked(), sentences=sentences).answer("what is agreed?", excerpts)  # type: ignore[arg-type]
    pieces = [(e.label, e.text[a:b]) for e in excerpts for a, b in sentence_spans(e.text)]
    pieces = [(label, s) for label, s in pieces if has_content(s)][:sentences]  # a quote says something
    if not pieces:
        assert answer.text == "Not in the excerpts." and answer.citations == ()
        return
    box = answers.answer_html(answer.checked({"cuad/a.txt"}), "Baseline")
    text, links = shown_text(box)
    invisible = str.maketrans("", "", WORD_JOINER + ZERO_WIDTH_SPACE)  # break marks: a document's own are alike
    assert text == "\n".join(f"“{s.translate(invisible)}” [LINK]" for _, s in pieces)  # the document's characters
    assert [target for target, _ in links] == [answers.anchor("Baseline", int(label[1:])) for label, _ in pieces]
    assert "Malformed answer" not in box and answer.problem is None
    assert [c.label for c in answer.citations] == list(dict.fromkeys(label for label, _ in pieces))
    assert [answer.text[a + 1 : b - 1] for a, b in answer.quote_spans] == [s for _, s in pieces]


TOKENS = ["\n", "\n\n", ". ", "[", "]", "#", "[2]", "[#1, #3]", "[#9]", "[31,369]", "*", "_", "`", "<b>", "</div>",
          "<script>", "&amp;", "](http://x.y)", "www.a.b", "“", "”", '"', "|", "> ", "$", ":red[", "\t", "Inc. ",
          "Section 2.1(a) ", "a", "Z", " ", "0"]  # fmt: skip
# Any character but CR and NUL, which the page shows as a line break and U+FFFD (dashboard.text.esc).
CHARACTER = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00")
DOCUMENT = st.lists(st.one_of(st.sampled_from(TOKENS), CHARACTER), min_size=1, max_size=150).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT)
def test_random_documents_are_quoted_exactly_and_only_real_citations_link(text):
    _check(_excerpts(text))


def test_the_brackets_of_the_issue_stay_document_text():
    text = (
        "The variety was released pursuant to SCHEDULE [1] to the CA. Payment [#1, #3] follows [#9]. "
        "The fee is USD [31,369].\nSee <b>Annex</b> and **bold** [x](javascript:alert(1))."
    )
    _check(_excerpts(text), sentences=5)


def test_an_llm_quotation_is_not_a_citation():
    excerpts = _excerpts("The term is two years. SCHEDULE [1] lists the fees.")
    answer = cite("The contract says “SCHEDULE [1] lists the fees” [#2]; see also [#1].", excerpts, "openai")
    assert answer.problem is None and [c.label for c in answer.citations] == ["#2", "#1"]
    text, links = shown_text(answers.answer_html(answer, "SAC"))
    assert text == "The contract says “SCHEDULE [1] lists the fees” [LINK]; see also [LINK]."
    assert [t for t, _ in links] == ["sac-sac-2", "sac-sac-1"]


def test_a_real_cuad_contract_with_brackets_is_quoted_exactly(real_data: Path):
    """SCHEDULE [1] in CERES's collaboration agreement (one of 9 CUAD documents with such brackets)."""
    name = "cuad/CERES,INC_01_25_2012-EX-10.20-Collaboration Agreement.txt"
    document = (real_data / "corpus" / name).read_text(encoding="utf-8")
    at = document.index("SCHEDULE [1]")
    start = max(0, at - 600)
    chunk = document[start : at + 600]
    excerpts = (Excerpt("#1", name, start, start + len(chunk), chunk),)
    _check(excerpts, sentences=len(sentence_spans(chunk)))  # every sentence of the chunk, "[1]" included


def test_a_doubt_names_both_documents_in_plain_words():
    assert answers.doubt_sentence(None) == ""
    line = answers.doubt_sentence(("contractnli/BT_NDA.txt", "contractnli/JBF_NDA.txt"))
    assert line == (
        "The question could mean either “BT NDA” or “JBF NDA”: both fit it about equally well, "
        "and this column went on with “BT NDA”."
    )


def test_the_answer_box_says_the_doubt_as_text():
    excerpts = _excerpts("The term is two years. The fee is due.")
    answer = cite("The term is two years [#1].", excerpts, "openai")
    doubt = answers.doubt_sentence(("cuad/A<script>.txt", "cuad/B.txt"))
    box = answers.answer_html(answer, "SAC", doubt=doubt)
    assert '<div class="sac-answer-problem doubt">⚠ ' in box and f"⚠ {doubt}</div>" in html.unescape(box)
    assert "<script>" not in box  # a document's name is shown as text
    assert "doubt" not in answers.answer_html(answer, "SAC")  # no doubt: no line


CLOSER = {
    "how long?": [1.0, 0.0],
    "The Recipient keeps it secret for five years.": [0.6, 0.8],
    "Each party keeps it secret for three years.": [0.95, 0.312],
}


class Closer:
    """The question (1, 0); the gold chunk's sentence at cosine 0.6, the other contract's at 0.95."""

    def encode(self, texts, progress=True, desc="", on_progress=None, cache=True):
        return np.array([CLOSER[t] for t in texts], dtype=np.float32)


def test_the_page_answers_from_the_best_ranked_chunk_it_can_support(tmp_path):
    """Issue 45: the answer row quotes the best-ranked chunk with a sentence on the question (and only
    its document), not a closer-sounding sentence of a lower-ranked chunk of another contract."""
    answerer = answers.make_answerer("extractive", Closer(), tmp_path)  # type: ignore[arg-type]
    gold = Excerpt("#1", "nda/gold.txt", 0, 45, "The Recipient keeps it secret for five years.")
    other = Excerpt("#4", "nda/other.txt", 0, 43, "Each party keeps it secret for three years.")
    answer = answerer.answer("how long?", [gold, other])
    assert answer.checked({"nda/gold.txt"}).cites_only_gold and "[#4]" not in answer.text
