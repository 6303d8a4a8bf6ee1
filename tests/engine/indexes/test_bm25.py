"""BM25 over lower-cased word runs."""

from sac_core.engine.indexes import BM25Index, tokenize


def test_tokenize_lowercases_word_runs():
    assert tokenize("Governing-Law: NEW York, 2021.") == ["governing", "law", "new", "york", "2021"]


def test_bm25_ranks_the_matching_text_first():
    texts = ["the law of delaware", "return within ten days", "governing law new york", "nothing here"]
    index = BM25Index(texts)
    ranked = index.search("Which law governs? New York", 2)
    assert ranked.ids.tolist() == [2, 0]
    assert index.search("zebra", 2).scores.tolist() == [0.0, 0.0]


def test_document_frequency_counts_texts_not_occurrences():
    index = BM25Index(["rent rent due", "rent paid", "notice"])
    assert [index.document_frequency(t) for t in ("rent", "due", "notice", "absent")] == [2, 1, 1, 0]
