"""The query adapter on hand-made vectors (sac_core.engine.retrieval.adapter and its term in
within-document ranking): folds, training groups, what training learns, leave-document-out."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Benchmark, Document, Query, Span
from sac_core.engine.retrieval.adapter import (
    AdapterSettings,
    BankChunks,
    QueryAdapter,
    chunk_groups,
    fold_of,
    groups_of,
)
from sac_core.engine.retrieval.exemplars import Exemplar, ExemplarBank, ExemplarSettings, exemplars_of
from sac_core.engine.retrieval.within_document import WithinDocumentSettings, within_document_scores

FEES, PARTIES = "when are the fees paid?", "who are the parties?"
# Both questions are equally far from both answers (cosine 0): only training can tell them apart.
VECTORS = {
    FEES: [1.0, 0.0, 0.0, 0.0],
    PARTIES: [0.0, 0.0, 0.0, 1.0],
    "how often are fees due?": [0.8, 0.0, 0.0, 0.6],  # a paraphrase of FEES
    "fee answer": [0.0, 0.0, 1.0, 0.0],
    "party answer": [0.0, 1.0, 0.0, 0.0],
}


class FakeEmbedder:
    def encode(self, texts, progress=False, desc="", on_progress=None, cache=True):
        return np.array([VECTORS.get(t, [0.5, 0.5, 0.5, 0.5]) for t in texts], dtype=np.float32)


def bank(documents: list[str], *, lonely: str = "") -> ExemplarBank:
    """Each document answers both questions; ``lonely`` answers only FEES (nothing to tell apart)."""
    pieces = [Exemplar(q, d, a) for d in documents for q, a in ((FEES, "fee answer"), (PARTIES, "party answer"))]
    pieces += [Exemplar(FEES, lonely, "fee answer")] if lonely else []
    return ExemplarBank(
        pieces,
        FakeEmbedder(),  # type: ignore[arg-type]
        ExemplarSettings(),
        paraphrases={FEES: ["how often are fees due?"]},
    )


def test_a_documents_fold_comes_from_the_sha256_of_its_key() -> None:
    # sha256("a") starts with ca978112: 0xca978112 = 3,398,926,610, which is 0 mod 5 and 2 mod 4
    assert fold_of("a", 5) == 0
    assert fold_of("a", 4) == 2


def test_groups_hold_every_wording_of_a_question_with_its_own_pieces_and_skip_a_document_with_one_question() -> None:
    groups = groups_of(bank(["d1"], lonely="d2"))
    assert [g.document for g in groups] == ["d1"]  # d2 answers one question: nothing to tell apart
    (g,) = groups
    b = bank(["d1"], lonely="d2")
    wordings = [b.questions[b.phrase_family[w]] for w in g.wordings]
    assert sorted(wordings) == [FEES, FEES, PARTIES]  # FEES and its paraphrase, PARTIES
    pieces = [b.question_of[p] for p in g.candidates]
    for w, row in zip(g.wordings, g.targets):
        own = [float(b.phrase_family[w] == q) for q in pieces]
        assert row == pytest.approx(np.array(own) / sum(own))


@pytest.mark.slow  # trains with torch
def test_training_turns_each_question_toward_its_own_answers_for_every_fold() -> None:
    documents = [f"d{i}" for i in range(8)]
    adapter = QueryAdapter.train(bank(documents), AdapterSettings(folds=2, epochs=20, learning_rate=0.05))
    fee, party = np.array(VECTORS["fee answer"]), np.array(VECTORS["party answer"])
    for d in documents:
        q = adapter.adapt(np.array(VECTORS[FEES], dtype=np.float32), d)
        assert np.linalg.norm(q) == pytest.approx(1.0)
        assert q @ fee > q @ party + 0.1  # before training both cosines are 0
        p = adapter.adapt(np.array(VECTORS[PARTIES], dtype=np.float32), d)
        assert p @ party > p @ fee + 0.1


@pytest.mark.slow  # trains with torch
def test_a_document_never_trains_the_map_that_scores_it() -> None:
    """Only d-docs of one fold teach anything: the map of that fold stays the identity."""
    teacher = next(d for d in (f"d{i}" for i in range(50)) if fold_of(d, 2) == 0)
    adapter = QueryAdapter.train(bank([teacher]), AdapterSettings(folds=2, epochs=5, learning_rate=0.05))
    assert np.array_equal(adapter.maps[0], np.eye(4, dtype=np.float32))  # fold 0: nothing outside it to learn from
    assert not np.allclose(adapter.maps[1], np.eye(4))  # fold 1 learned from the teacher
    q = np.array(VECTORS[FEES], dtype=np.float32)
    assert adapter.adapt(q, teacher) == pytest.approx(q)  # the teacher itself is scored untaught


@pytest.mark.slow  # trains with torch
def test_training_is_deterministic_and_counts_its_steps_over_all_folds() -> None:
    documents = [f"d{i}" for i in range(6)]
    settings = AdapterSettings(folds=2, epochs=3, learning_rate=0.05)
    seen: list[tuple[int, int]] = []
    first = QueryAdapter.train(bank(documents), settings, on_progress=lambda done, total: seen.append((done, total)))
    second = QueryAdapter.train(bank(documents), settings)
    assert np.array_equal(first.maps, second.maps)
    # each map trains on the documents outside its fold: 6 documents over 2 folds, each seen by one map
    assert seen[-1] == (3 * 6, 3 * 6) and len(seen) == 3 * 6


def test_settings_refuse_a_fold_that_would_train_on_itself() -> None:
    with pytest.raises(ValueError, match="folds >= 2"):
        AdapterSettings(folds=1)


# Target "chunks": one 40-character document in four chunks of 10; FEES's gold is [5, 15) (half in
# chunk 0, half in chunk 1), PARTIES's [32, 40) (all in chunk 3). Chunks 0 and 1 look like the fee
# answer, chunks 2 and 3 like the party answer: chunk 2 is the distractor training must rank below.
CHUNK_VECTORS = np.array([[0, 0, 1, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 1, 0, 0]], dtype=np.float32)


def chunked(paths: list[str]) -> tuple[ExemplarBank, BankChunks]:
    docs = {p: Document(p, (p + "#" * 40)[:40]) for p in paths}  # each its own text
    queries = tuple(
        query
        for n, p in enumerate(paths)
        for query in (
            Query(f"cuad/{2 * n}", "cuad", FEES, (Span(p, 5, 15),)),
            Query(f"cuad/{2 * n + 1}", "cuad", PARTIES, (Span(p, 32, 40),)),
        )
    )
    bench = Benchmark(queries, docs)
    chunks = [Chunk(p, s, s + 10, docs[p].text[s : s + 10]) for p in paths for s in (0, 10, 20, 30)]
    documents = {p: d.sha256 for p, d in docs.items()}
    b = ExemplarBank(
        exemplars_of(bench, 500),
        FakeEmbedder(),  # type: ignore[arg-type]
        ExemplarSettings(),
        paraphrases={FEES: ["how often are fees due?"]},
        documents=documents,
    )
    return b, BankChunks(bench, chunks, np.tile(CHUNK_VECTORS, (len(paths), 1)))


def test_chunk_groups_weigh_each_chunk_by_the_gold_characters_it_holds() -> None:
    b, chunks = chunked(["cuad/d1.txt"])
    (g,) = chunk_groups(b, chunks)
    assert g.document == chunks.bench.documents["cuad/d1.txt"].sha256  # keyed like the bank's pieces
    assert list(g.candidates) == [0, 1, 2, 3]
    rows = {(b.questions[b.phrase_family[w]], tuple(t)) for w, t in zip(g.wordings, g.targets)}
    # FEES (and its paraphrase): 5 characters in chunk 0, 5 in chunk 1; PARTIES: 8 in chunk 3
    assert rows == {(FEES, (0.5, 0.5, 0.0, 0.0)), (PARTIES, (0.0, 0.0, 0.0, 1.0))}
    assert len(g.wordings) == 3


def test_target_chunks_needs_the_chunks_and_an_unknown_target_is_refused() -> None:
    with pytest.raises(ValueError, match="target must be one of"):
        AdapterSettings(target="sentences")
    b, _ = chunked(["cuad/d1.txt"])
    with pytest.raises(ValueError, match="needs the bank documents' chunks"):
        QueryAdapter.train(b, AdapterSettings(target="chunks"))


@pytest.mark.slow  # trains with torch
def test_training_against_chunks_ranks_the_answer_above_the_rest_of_the_document() -> None:
    b, chunks = chunked([f"cuad/d{i}.txt" for i in range(6)])
    settings = AdapterSettings(folds=2, epochs=20, learning_rate=0.05, target="chunks")
    adapter = QueryAdapter.train(b, settings, chunks=chunks)
    fee, party = CHUNK_VECTORS[0], CHUNK_VECTORS[2]
    for document in ("x", "y"):  # a new document of either fold
        q = adapter.adapt(np.array(VECTORS[FEES], dtype=np.float32), document)
        assert q @ fee > q @ party + 0.1  # before training both cosines are 0


def test_the_adapted_cosine_is_one_more_z_scored_term() -> None:
    # dense [1, 0, -1] → z = [1.2247, 0, -1.2247]; adapted [0, 0, 3] → z = [-0.7071, -0.7071, 1.4142]
    weights = WithinDocumentSettings(bm25=0.0, adapter=2.0)
    score = within_document_scores(np.array([1.0, 0.0, -1.0]), np.zeros(3), weights, adapted=np.array([0.0, 0.0, 3.0]))
    assert score == pytest.approx([1.2247 - 1.4142, -1.4142, -1.2247 + 2.8284], abs=1e-4)
    assert within_document_scores(np.array([1.0, 0.0, -1.0]), np.zeros(3), weights) == pytest.approx(
        [1.2247, 0, -1.2247], abs=1e-4
    )  # no adapted cosines: the term is left out
