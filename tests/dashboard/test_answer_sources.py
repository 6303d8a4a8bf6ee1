"""Compare's answers say where they come from, on the demo corpus: each quote names its document, a
warning when an answer quotes several documents or not the one its question names, the ✓/✗ legend
only where gold exists."""

from __future__ import annotations

import html

import numpy as np
import pytest

from sac_core.dashboard import answers
from sac_core.engine.answers import Excerpt, ExtractiveAnswerer
from sac_core.engine.retrieval.sentences import sentence_spans

ACME, COBALT = "demo_nda/01_Acme.txt", "demo_nda/02_Cobalt.txt"


class Even:
    """Every sentence equally close to the question (cosine 0.6): quoted in the excerpts' order."""

    def encode(self, texts, progress=True, desc="", on_progress=None, cache=True):
        return np.array([[1.0, 0.0]] + [[0.6, 0.8]] * (len(texts) - 1), dtype=np.float32)


@pytest.fixture(scope="module")
def bench(demo_bench):
    return demo_bench


@pytest.fixture(scope="module")
def names(bench):
    return answers.document_names({p: d.text for p, d in bench.documents.items()})


def _excerpt(bench, label: str, path: str) -> Excerpt:
    """The document's first clause (past its title and parties), one sentence."""
    text = bench.documents[path].text
    at = text.index("1. ")
    start, end = sentence_spans(text[at:])[0]
    return Excerpt(label, path, at + start, at + end, text[at + start : at + end])


def _answer(bench, question: str, *paths: str):
    """The extractive answer quoting one sentence of each of ``paths`` (excerpts #1, #2, … in order)."""
    excerpts = [_excerpt(bench, f"#{i}", p) for i, p in enumerate(paths, start=1)]
    return ExtractiveAnswerer(Even(), sentences=len(paths)).answer(question, excerpts)


def test_each_quote_names_its_document(bench, names):
    question = bench.queries[0].text  # the Acme NDA
    answer = _answer(bench, question, ACME, ACME)
    box = html.unescape(answers.answer_html(answer.checked({ACME}), "Baseline", names.named(question)))
    assert box.count('<span class="sac-cite-doc">01 Acme</span>') == len(answer.citations) > 0
    assert "⚠" not in box  # one document, the one the question names


def test_several_documents_are_a_warning(bench, names):
    question = "Which law governs the agreement?"  # free text naming no document
    assert names.named(question) == ()
    answer = _answer(bench, question, ACME, COBALT).checked(None)
    box = html.unescape(answers.answer_html(answer, "SAC", names.named(question)))
    assert "⚠ Quotes 2 documents: 01 Acme; 02 Cobalt." in box
    assert "The question names" not in box  # it names none: nothing to miss
    assert "✗" not in box and "✓" not in box  # no gold: no marks


def test_a_document_other_than_the_named_one_is_a_warning(bench, names):
    question = "Consider the NDA between Acme Robotics and Borealis Capital; which law governs it?"
    named = names.named(question)
    assert named == (ACME,)
    only_other = html.unescape(answers.answer_html(_answer(bench, question, COBALT).checked(None), "SAC", named))
    assert "⚠ The question names 01 Acme; this answer quotes 02 Cobalt." in only_other
    assert "Quotes 2 documents" not in only_other
    mixed = html.unescape(answers.answer_html(_answer(bench, question, ACME, COBALT).checked(None), "SAC", named))
    assert "this answer also quotes 02 Cobalt." in mixed and "⚠ Quotes 2 documents" in mixed


def test_the_legend_explains_marks_only_where_gold_exists():
    assert "✗ = a chunk of another document" in answers.answerer_label(4, gold=True)
    free = answers.answerer_label(4, gold=False)
    assert "✗" not in free and "✓" not in free and "top 4" in free


def test_document_names_are_shortened_for_people():
    assert answers.document_name("contractnli/12032018_NDA_The%20Munt_EN.txt") == "12032018 NDA The Munt EN"
    long = answers.document_name("cuad/ACME_CORP-EX-10.1-Supply and Distribution Agreement of the Year.txt")
    assert long.endswith("…") and len(long) <= answers.NAME_CHARS and long.startswith("ACME CORP EX 10 1")
