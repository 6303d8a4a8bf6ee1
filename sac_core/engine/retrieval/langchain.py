"""A LangChain retriever as a snippet retriever, and a ready example over the benchmark's documents.

:class:`LangChainRetriever` wraps any ``langchain_core`` ``BaseRetriever`` whose documents carry
``source`` (the document's path relative to ``corpus/``, or a path ending in
``corpus/<dataset>/<file>``) and ``start_index`` (its first character in that document) metadata:
what LangChain's text splitters write with ``add_start_index=True``. The span is
``[start_index, start_index + len(page_content))`` and the snippet carries ``page_content``, so
the ranker checks that the offsets are exact (a splitter that changed the text, e.g. a
whitespace-normalising loader, fails with the query and snippet named instead of being scored
at the wrong characters).

:func:`example_retriever` is a real LangChain pipeline needing no model hub: documents split by
``RecursiveCharacterTextSplitter(add_start_index=True)``, embedded by the project's packaged
MiniLM (:class:`ProjectEmbeddings`, disk-cached) into an ``InMemoryVectorStore``, ``.as_retriever()``.
Use it as ``--retriever sac_core.engine.retrieval.langchain:example_retriever``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter

from ..chunking import RCTS_SEPARATORS
from ..data import Snippet
from ..embedding import DEFAULT_MODEL, Embedder, default_backend


class LangChainRetriever:
    """``retrieve(query, k)`` over a LangChain ``BaseRetriever`` (see the module docstring)."""

    def __init__(self, retriever: BaseRetriever) -> None:
        self.retriever = retriever

    def retrieve(self, query: str, k: int) -> list[Snippet]:
        # A vector-store retriever takes k per call (it merges call kwargs into search_kwargs);
        # any other retriever returns what it was built to return, cut to k.
        store = getattr(self.retriever, "vectorstore", None)
        if store is not None and getattr(self.retriever, "search_type", None) == "similarity":
            kwargs = {key: v for key, v in getattr(self.retriever, "search_kwargs", {}).items() if key != "k"}
            scored = store.similarity_search_with_score(query, k=k, **kwargs)  # the same search, with its scores
            return [snippet_of(doc, i, score) for i, (doc, score) in enumerate(scored[:k])]
        if hasattr(self.retriever, "search_kwargs"):
            docs = self.retriever.invoke(query, k=k)
        else:
            docs = self.retriever.invoke(query)
        return [snippet_of(doc, i) for i, doc in enumerate(docs[:k])]


def source_path(source: object) -> str:
    """A document's ``source`` metadata as a path relative to ``corpus/``: kept as it is when
    relative, else the part after the last ``corpus`` folder of an absolute path."""
    if not isinstance(source, str) or not source:
        raise ValueError(f"metadata 'source' must be the document's path, got {source!r}")
    path = Path(source)
    if not path.is_absolute():
        return path.as_posix()
    parts = path.parts
    if "corpus" in parts:
        last = len(parts) - 1 - parts[::-1].index("corpus")
        return Path(*parts[last + 1 :]).as_posix()
    raise ValueError(f"metadata 'source' {source!r} is absolute and has no corpus/ folder to be relative to")


def snippet_of(doc: Document, rank: int = 0, score: float | None = None) -> Snippet:
    """The snippet a LangChain document stands for (``source`` and ``start_index`` metadata;
    ``score``: the store's similarity, else a ``score`` metadata value)."""
    meta = doc.metadata or {}
    start = meta.get("start_index")
    if not isinstance(start, int) or isinstance(start, bool) or start < 0:
        raise ValueError(
            f"document {rank}: metadata 'start_index' missing or not a non-negative integer ({start!r}); "
            "split with add_start_index=True"
        )
    if score is None:
        score = meta.get("score")
    return Snippet(
        source_path(meta.get("source")),
        start,
        start + len(doc.page_content),
        float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None,
        doc.page_content,
    )


class ProjectEmbeddings(Embeddings):
    """LangChain ``Embeddings`` over the project's :class:`~sac_core.engine.embedding.Embedder`
    (the packaged MiniLM by default; vectors cached on disk, unit length)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embedder.encode(list(texts), progress=False).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embedder.encode([text], progress=False)[0].tolist()


def split_documents(documents: Mapping[str, str], chunk_size: int = 500, chunk_overlap: int = 0) -> list[Document]:
    """LangChain documents of ``file_path → text``: ``RecursiveCharacterTextSplitter`` with the
    project's separators and ``add_start_index=True``, ``source`` = the file path."""
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size, chunk_overlap=chunk_overlap, separators=RCTS_SEPARATORS, add_start_index=True
    )
    paths = sorted(documents)
    return splitter.create_documents([documents[p] for p in paths], metadatas=[{"source": p} for p in paths])


def example_retriever(
    documents: Mapping[str, str], cache_dir: Path, chunk_size: int = 500, model: str = DEFAULT_MODEL
) -> LangChainRetriever:
    """A LangChain retriever over ``documents`` (see the module docstring); ``chunk_size`` in characters."""
    embeddings = ProjectEmbeddings(Embedder(model, Path(cache_dir), backend=default_backend()))
    store = InMemoryVectorStore(embedding=embeddings)
    docs: Sequence[Any] = split_documents(documents, chunk_size)
    store.add_documents(list(docs))
    return LangChainRetriever(store.as_retriever(search_kwargs={"k": 4}))
