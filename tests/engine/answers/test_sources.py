"""sac_core.engine.answers.sources on the demo corpus: named documents, quoted documents, empty quotes."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.answers import (
    Citation,
    DocumentNames,
    Excerpt,
    ExtractiveAnswerer,
    file_words,
    has_content,
    sources,
)
from sac_core.engine.answers.types import Answer
from sac_core.engine.data import available_datasets, load_benchmark


@pytest.fixture(scope="module")
def bench(demo_bench):
    return demo_bench


@pytest.fixture(scope="module")
def names(bench):
    return DocumentNames.of({p: d.text for p, d in bench.documents.items()})


def test_a_quote_of_names_capitals_and_stop_words_has_no_content():
    assert not has_content("VITAMIN SHOPPE INDUSTRIES INC. EXCITE, INC.")
    assert not has_content("Acme Robotics Inc. and Borealis Capital LLC")
    assert not has_content("MUTUAL NON-DISCLOSURE AGREEMENT") and not has_content("1. Term.") and not has_content("")
    assert has_content("This Agreement lasts two years.") and has_content("Notice is required")


def test_every_demo_query_names_its_gold_document(bench, names):
    for query in bench.queries:
        assert names.named(query.text) == tuple(sorted(query.gold_files)), query.text


def test_free_text_names_a_document_or_none(bench, names):
    assert names.named("Consider the NDA between Acme Robotics and Borealis Capital; how long does it last?") == (
        "demo_nda/01_Acme.txt",
    )
    assert names.named("Which law governs the agreement?") == ()  # names no document
    assert names.named("Consider the NDA between Nobody Known and Someone Else; which law governs it?") == ()
    assert file_words("contractnli/12032018_NDA_The%20Munt_EN.txt") == "12032018 NDA The Munt EN"


def test_a_tie_is_told_apart_by_the_file_name_the_ceii_case():
    """Issue 45: "⚠ The question names VELCO NDA rev0 Dec 14 2015; ceii and nda" for a question that
    names only CEII: both documents mention CEII and NDA; the file name says which is meant."""
    filler = {f"other/{i}.txt": f"Agreement of Party{i} Inc. with Firm{i} LLC" for i in range(8)}
    names = DocumentNames.of({
        **filler,
        "contractnli/ceii-and-nda.txt": "NON-DISCLOSURE AGREEMENT for Critical Energy Infrastructure (CEII)",
        "contractnli/VELCO%20NDA%20rev0%20Dec%2014%202015.txt": "VELCO CEII non-disclosure terms",
    })  # fmt: skip
    question = "Consider the Non-Disclosure Agreement between CEII and NDA; must the Receiving Party return it?"
    assert names.named(question) == ("contractnli/ceii-and-nda.txt",)
    assert names.named("Consider the VELCO NDA; which law governs it?") == (
        "contractnli/VELCO%20NDA%20rev0%20Dec%2014%202015.txt",
    )


def test_every_lbr_mini_query_names_only_its_gold_document(real_data):
    """On the real data, 24 of lbr-mini's 776 questions once named two documents."""
    bench = load_benchmark(real_data, available_datasets(real_data), "lbr-mini")
    names = DocumentNames.of({p: d.text for p, d in bench.documents.items()})
    wrong = [q.query_id for q in bench.queries if names.named(q.text) != tuple(sorted(q.gold_files))]
    assert wrong == []


def _answer(*paths: str) -> Answer:
    cites = tuple(Citation(f"#{i}", p, 0, 10) for i, p in enumerate(paths, start=1))
    return Answer("“x” [#1]", cites, "extractive")


def test_several_documents_and_a_document_not_named(bench, names):
    named = names.named(bench.queries[0].text)  # the Acme NDA
    one = sources(_answer("demo_nda/01_Acme.txt", "demo_nda/01_Acme.txt"), named)
    assert one.quoted == ("demo_nda/01_Acme.txt",) and not one.several and one.not_named == ()
    mixed = sources(_answer("demo_nda/01_Acme.txt", "demo_nda/02_Cobalt.txt"), named)
    assert mixed.several and mixed.not_named == ("demo_nda/02_Cobalt.txt",)
    other = sources(_answer("demo_nda/02_Cobalt.txt"), named)
    assert not other.several and other.not_named == ("demo_nda/02_Cobalt.txt",)
    unnamed = sources(_answer("demo_nda/02_Cobalt.txt", "demo_nda/03_Evergreen.txt"), ())
    assert unnamed.several and unnamed.not_named == ()  # the question names none: nothing to miss


class CapitalsFirst:
    """Ranks sentences in capitals (headings, parties' names) above everything else."""

    def encode(self, texts, progress=True, desc="", on_progress=None, cache=True):
        return np.array([[1.0, 0.0]] + [[1.0, 0.0] if t.isupper() else [0.6, 0.8] for t in texts[1:]], np.float32)


def test_the_extractive_answerer_drops_quotes_without_content(bench):
    doc = bench.documents["demo_nda/01_Acme.txt"]
    text = "ACME ROBOTICS INC. BOREALIS CAPITAL LLC.\n" + doc.text[:400]
    excerpt = Excerpt("#1", doc.file_path, 0, len(text), text)
    answer = ExtractiveAnswerer(CapitalsFirst(), sentences=2).answer("How long?", [excerpt])  # type: ignore[arg-type]
    assert "ACME ROBOTICS INC. BOREALIS" not in answer.text  # ranked first, but only the parties' names
    assert answer.text.count("” [#1]") == 2  # two quotes that say something, all from the excerpt
    assert all(has_content(answer.text[a + 1 : b - 1]) for a, b in answer.quote_spans)
