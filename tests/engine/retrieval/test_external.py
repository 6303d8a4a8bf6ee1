"""Imported runs and live retrievers as rankers: every snippet checked; a real LangChain retriever's offsets exact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from sac_core.engine.data import Query, Snippet, load_benchmark
from sac_core.engine.retrieval import ExternalError, RetrieverRanker, RunRanker, make_retriever
from sac_core.engine.retrieval.langchain import LangChainRetriever, snippet_of, source_path, split_documents

DOCS = {"d/a.txt": "0123456789" * 3, "d/b.txt": "abcdefghij"}
Q = [Query("d/0", "d", "same", ()), Query("d/1", "d", "same", ()), Query("d/2", "d", "other", ())]


def test_a_run_answers_benchmark_queries_by_id_and_free_text_with_nothing() -> None:
    run = {"d/0": (Snippet("d/a.txt", 2, 5, 1.0), Snippet("d/b.txt", 0, 3)), "d/1": (Snippet("d/b.txt", 1, 2),)}
    ranker = RunRanker(run, Q, DOCS.get)
    by_id = ranker.search_queries(Q, 1)
    assert [[h.chunk.text for h in hits] for hits in by_id] == [["234"], ["b"], []]
    assert [h.chunk.text for h in ranker.search(["same"], 5)[0]] == ["234", "abc"]  # the first query with the text
    assert ranker.search(["never asked"], 5) == [[]]


class Fixed:
    def __init__(self, *snippets: object) -> None:
        self.snippets = snippets

    def retrieve(self, query: str, k: int) -> list[object]:
        return list(self.snippets)


def test_a_live_retriever_accepts_snippets_dicts_and_cuts_to_k() -> None:
    ranker = RetrieverRanker(
        Fixed(Snippet("d/a.txt", 0, 3), {"file_path": "d/b.txt", "span": [2, 4], "score": 0.5}), DOCS.get, "t"
    )
    hits = ranker.search(["q"], 5)[0]
    assert [(h.chunk.file_path, h.chunk.text) for h in hits] == [("d/a.txt", "012"), ("d/b.txt", "cd")]
    assert hits[1].score == 0.5 and len(ranker.search(["q"], 1)[0]) == 1


@pytest.mark.parametrize(
    ("snippet", "message"),
    [
        (Snippet("d/x.txt", 0, 3), "no document 'd/x.txt'"),
        (Snippet("d/a.txt", 0, 99), "lies outside d/a.txt (30 characters)"),
        (Snippet("d/a.txt", 4, 4), "is empty or negative"),
        (Snippet("d/a.txt", 0, 3, text="abc"), "not exact character offsets"),
        ({"file_path": "d/a.txt"}, "not a snippet"),
    ],
)
def test_a_bad_snippet_names_the_retriever_query_and_snippet(snippet: object, message: str) -> None:
    ranker = RetrieverRanker(Fixed(Snippet("d/a.txt", 0, 3), snippet), DOCS.get, "mine")
    with pytest.raises(ExternalError, match=rf"retriever mine, query 'q', snippet 1: .*{re.escape(message)}"):
        ranker.search(["q"], 5)


def test_factories_get_the_arguments_they_take(tmp_path: Path) -> None:
    retriever = make_retriever(
        "tests.engine.retrieval.test_external:factory", {"documents": DOCS, "cache_dir": tmp_path}
    )
    assert retriever.retrieve("q", 1) == [Snippet("d/b.txt", 0, 10)]
    for spec, message in (("nope", "not module:factory"), ("no_such_module:f", "cannot import"),
                          ("tests.engine.retrieval.test_external:missing", "has no missing")):  # fmt: skip
        with pytest.raises(ExternalError, match=message):
            make_retriever(spec, {})


def factory(documents: dict[str, str]) -> Fixed:
    return Fixed(Snippet("d/b.txt", 0, len(documents["d/b.txt"])))


def test_source_paths() -> None:
    assert source_path("cuad/x y.txt") == "cuad/x y.txt"
    assert source_path("/srv/data/corpus/cuad/x.txt") == "cuad/x.txt"
    with pytest.raises(ValueError, match="no corpus/ folder"):
        source_path("/tmp/x.txt")
    with pytest.raises(ValueError, match="add_start_index=True"):
        snippet_of(Document("text", metadata={"source": "d/a.txt"}))


class Listed(BaseRetriever):
    """A real LangChain retriever (not a vector store): returns its documents as they are."""

    docs: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: object) -> list[Document]:
        return self.docs


def test_langchain_splitter_offsets_are_exact_on_the_demo_corpus(demo_dir: Path) -> None:
    bench = load_benchmark(demo_dir, "all", "full")
    texts = {fp: d.text for fp, d in bench.documents.items()}
    docs = split_documents(texts, chunk_size=300)
    assert len(docs) > len(texts)
    ranker = RetrieverRanker(LangChainRetriever(Listed(docs=docs)), texts.get, "lc")
    hits = ranker.search(["anything"], len(docs))[0]
    assert len(hits) == len(docs)  # every span checked: text[start:end] == page_content
    assert all(texts[h.chunk.file_path][h.chunk.start : h.chunk.end] == d.page_content for h, d in zip(hits, docs))
    shifted = [
        Document(d.page_content, metadata={**d.metadata, "start_index": d.metadata["start_index"] + 1}) for d in docs
    ]
    with pytest.raises(ExternalError, match="not exact character offsets"):
        RetrieverRanker(LangChainRetriever(Listed(docs=shifted)), texts.get, "lc").search(["q"], 3)
