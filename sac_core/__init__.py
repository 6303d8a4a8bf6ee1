"""sac_core: Summary-Augmented Chunking (SAC) on LegalBench-RAG, as a library.

The folders draw the architecture; dependencies point one way (cli → dashboard → experiments →
engine), and nothing in the engine imports from experiments or the dashboard::

    sac_core/
      engine/              the pipeline, one subpackage per step
        data/              benchmark layout and loading, query protocols, the demo benchmark
        chunking.py        rcts and naive chunkers with exact [start, end) spans
        summaries/         SAC summaries: prompts, length control, providers, cache
        embedding/         one Encoder interface (torch, ONNX) and the cached Embedder
        indexes/           dense (FAISS), BM25, rank fusion
        retrieval/         the pool of indexed texts, one module per method, the Retriever
        metrics/           DRM, character precision/recall, Hit/MRR/nDCG
      experiments/         RunConfig, evaluate, sweep, significance, report, bench, run files, paper
      dashboard/           the dashboard's UI-free logic: one module per page, shared state, HTML views
      cli.py               ``sac ...``

A run: ``load_benchmark → build_pool (chunk_document + summaries) → Retriever (Embedder, FAISS/BM25)
→ score_run → mean_by_dataset``; :func:`evaluate` does all of it for one :class:`RunConfig`.
"""

from .engine import (
    DEFAULT_KS,
    DEFAULT_MODEL,
    Benchmark,
    BenchmarkError,
    Chunk,
    Document,
    Embedder,
    Hit,
    Pool,
    Query,
    Retriever,
    Span,
    SummaryConfig,
    SummaryError,
    build_pool,
    chunk_document,
    load_benchmark,
    mean_by_dataset,
    score_query,
    score_run,
    summarize_documents,
)
from .experiments import Column, ColumnResult, Evaluation, RunConfig, Workspace, default_columns, evaluate

__all__ = [
    "DEFAULT_KS",
    "DEFAULT_MODEL",
    "Benchmark",
    "BenchmarkError",
    "Chunk",
    "Column",
    "ColumnResult",
    "Document",
    "Embedder",
    "Evaluation",
    "Hit",
    "Pool",
    "Query",
    "Retriever",
    "RunConfig",
    "Span",
    "SummaryConfig",
    "SummaryError",
    "Workspace",
    "build_pool",
    "chunk_document",
    "default_columns",
    "evaluate",
    "load_benchmark",
    "mean_by_dataset",
    "score_query",
    "score_run",
    "summarize_documents",
]
