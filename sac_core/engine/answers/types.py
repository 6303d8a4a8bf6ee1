"""What an answer is: its text, the excerpts it cites, and whether each comes from a gold document."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from .citations import cited_labels, quotations, unknown_labels
from .excerpts import Excerpt


@dataclass(frozen=True)
class Citation:
    """One cited excerpt: its label (``#2``), its document and span ``[start, end)`` in characters,
    and whether that document is a gold document of the query (None for a free-text question)."""

    label: str
    file_path: str
    start: int
    end: int
    gold_document: bool | None = None


@dataclass(frozen=True)
class Answer:
    """An answer with its citations. ``problem`` says what is wrong with it when something is (a
    citation to no excerpt, an empty reply), in a sentence for people; ``cached``: no request was
    sent. ``input_tokens``/``output_tokens``: what the API reported (0 offline or cached).
    ``quotes``: the quotations in ``text`` as ``[start, end)`` character spans (marks included):
    document text shown as it is, never read for citations; None: not known, found in the text
    (:attr:`quote_spans`)."""

    text: str
    citations: tuple[Citation, ...]
    answerer: str
    problem: str | None = None
    cached: bool = False
    input_tokens: int = 0
    output_tokens: int = 0
    quotes: tuple[tuple[int, int], ...] | None = None

    @property
    def quote_spans(self) -> tuple[tuple[int, int], ...]:
        """:attr:`quotes`, or when not known the quotations :func:`~.citations.quotations` finds."""
        return quotations(self.text) if self.quotes is None else self.quotes

    @property
    def cites_other_document(self) -> bool:
        """Does any citation point to a chunk of a document that is not a gold document?"""
        return any(c.gold_document is False for c in self.citations)

    @property
    def cites_only_gold(self) -> bool:
        """Every citation is checked and from a gold document (and there is at least one)."""
        return bool(self.citations) and all(c.gold_document is True for c in self.citations)

    def checked(self, gold_files: Collection[str] | None) -> Answer:
        """The same answer with every citation marked gold or not (``None``: no gold, free text)."""
        marks = tuple(
            replace(c, gold_document=None if gold_files is None else c.file_path in gold_files) for c in self.citations
        )
        return replace(self, citations=marks)


def cite(
    text: str,
    excerpts: Sequence[Excerpt],
    answerer: str,
    *,
    cached: bool = False,
    input_tokens: int = 0,
    output_tokens: int = 0,
    quotes: tuple[tuple[int, int], ...] | None = None,
) -> Answer:
    """An :class:`Answer` for ``text``: its citations (outside ``quotes``; None: the quotations
    :func:`~.citations.quotations` finds) resolved against ``excerpts``; a citation of a label no
    excerpt has makes ``problem``."""
    quotes = quotations(text) if quotes is None else tuple(quotes)
    by_label = {e.label: e for e in excerpts}
    labels = cited_labels(text, quotes)
    citations = tuple(
        Citation(label, by_label[label].file_path, by_label[label].start, by_label[label].end)
        for label in labels
        if label in by_label
    )
    missing = unknown_labels(text, by_label, quotes)
    problem = None
    if not text.strip():
        problem = "the answer is empty"
    elif missing:
        shown = ", ".join(f"[{label}]" for label in missing)
        problem = f"the answer cites {shown}, which no excerpt has (excerpts {excerpts[0].label}–{excerpts[-1].label})"
    return Answer(text, citations, answerer, problem, cached, input_tokens, output_tokens, quotes)


class Answerer(Protocol):
    """Writes an answer to ``question`` from ``excerpts``, citing their labels; ``on_text`` receives
    the text so far while it is being written (streaming), once at least."""

    name: str

    def answer(
        self, question: str, excerpts: Sequence[Excerpt], *, on_text: Callable[[str], None] | None = None
    ) -> Answer: ...
