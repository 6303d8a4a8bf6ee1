"""The engine, one subpackage per pipeline step; it knows nothing of experiments or the dashboard.

data → chunking → summaries → retrieval.pool (the text each method indexes)
     → embedding → indexes (dense, BM25, fusion) → retrieval.Retriever → metrics
"""

from .chunking import CHUNKERS, Chunk, chunk_document
from .data import Benchmark, BenchmarkError, Document, Query, Span, load_benchmark
from .embedding import DEFAULT_MODEL, Embedder
from .metrics import DEFAULT_KS, mean_by_dataset, score_query, score_run
from .retrieval import Hit, Pool, Retriever, build_pool
from .summaries import SummaryConfig, SummaryError, summarize_documents

__all__ = [
    "CHUNKERS",
    "DEFAULT_KS",
    "DEFAULT_MODEL",
    "Benchmark",
    "BenchmarkError",
    "Chunk",
    "Document",
    "Embedder",
    "Hit",
    "Pool",
    "Query",
    "Retriever",
    "Span",
    "SummaryConfig",
    "SummaryError",
    "build_pool",
    "chunk_document",
    "load_benchmark",
    "mean_by_dataset",
    "score_query",
    "score_run",
    "summarize_documents",
]
