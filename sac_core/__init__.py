"""sac_core: Summary-Augmented Chunking (SAC) on LegalBench-RAG, as a library.

The pipeline, one module per step::

    load_benchmark → build_pool (chunk_document + summaries) → Retriever (Embedder, FAISS/BM25)
                   → score_run (DRM, precision, recall, Hit, MRR, nDCG) → mean_by_dataset

``evaluate`` runs all of it for one :class:`RunConfig`; :class:`Workspace` keeps several
indexes in memory to compare one query across them (the dashboard's engine).
"""

from .benchmark import Benchmark, BenchmarkError, Document, Query, Span, load_benchmark
from .chunking import Chunk, chunk_document
from .compare import Column, ColumnResult, Workspace, default_columns
from .config import RunConfig
from .embedding import DEFAULT_MODEL, Embedder
from .evaluate import Evaluation, evaluate
from .metrics import DEFAULT_KS, mean_by_dataset, score_query, score_run
from .pool import Pool, build_pool
from .retrieval import Hit, Retriever
from .summaries import SummaryConfig, SummaryError, summarize_documents

__all__ = [
    "DEFAULT_KS", "DEFAULT_MODEL", "Benchmark", "BenchmarkError", "Chunk", "Column", "ColumnResult", "Document",
    "Embedder", "Evaluation", "Hit", "Pool", "Query", "Retriever", "RunConfig", "Span", "SummaryConfig",
    "SummaryError", "Workspace", "build_pool", "chunk_document", "default_columns", "evaluate", "load_benchmark",
    "mean_by_dataset", "score_query", "score_run", "summarize_documents",
]
