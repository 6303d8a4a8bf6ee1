"""The pool: chunks in document order, indexed under the text each method gives them."""

from __future__ import annotations

import pytest

from sac_core.engine.data import Document
from sac_core.engine.retrieval import SAC_TEMPLATE, augment, build_pool, summary_augmented

DOCS = {
    "b/two.txt": Document("b/two.txt", "Gamma delta. Epsilon."),
    "a/one.txt": Document("a/one.txt", "Alpha beta."),
}


def test_baseline_indexes_each_chunk_under_its_own_text_in_path_order():
    pool = build_pool(DOCS, chunker="naive", chunk_size=12, chunk_overlap=0)
    assert [(c.file_path, c.start, c.end) for c in pool.chunks] == [
        ("a/one.txt", 0, 11),
        ("b/two.txt", 0, 12),
        ("b/two.txt", 12, 21),
    ]
    assert pool.indexed == ("Alpha beta.", "Gamma delta.", " Epsilon.")


def test_sac_prepends_the_documents_summary_and_keeps_the_span():
    pool = build_pool(
        DOCS,
        chunker="naive",
        chunk_size=12,
        chunk_overlap=0,
        index_text=summary_augmented({"a/one.txt": "A.", "b/two.txt": "B."}),
    )
    assert pool.indexed[0] == "[document summary] A.\n[content] Alpha beta."
    assert pool.indexed[2] == augment(" Epsilon.", "B.") == SAC_TEMPLATE.format(summary="B.", chunk=" Epsilon.")
    assert (pool.chunks[2].start, pool.chunks[2].end) == (12, 21)  # the span counts document characters only


def test_a_missing_summary_names_the_document():
    with pytest.raises(KeyError, match=r"b/two\.txt"):
        build_pool(
            DOCS, chunker="naive", chunk_size=12, chunk_overlap=0, index_text=summary_augmented({"a/one.txt": "A."})
        )
