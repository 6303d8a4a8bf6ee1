"""sac_core: Summary-Augmented Chunking (SAC) on LegalBench-RAG, as a library.

The folders draw the architecture; dependencies point one way (cli → dashboard → experiments →
engine; tooling beside cli), and nothing in the engine imports from experiments or the dashboard::

    sac_core/
      engine/              the pipeline, one subpackage per step
        data/              benchmark layout and loading, protocols, demo benchmark, ingest, held-out folders
        chunking.py        rcts, naive and paragraph chunkers with exact [start, end) spans
        summaries/         SAC summaries: prompts, length control, providers, cache
        entities/          legal entities of a document (rules + eyecite)
        embedding/         one Encoder interface (torch, ONNX, int8) and the cached Embedder
        indexes/           dense (FAISS flat / HNSW), BM25, rank fusion, persisted indexes
        retrieval/         pool, one module per method (baseline, sac), the Retriever, and the
                           document-aware signals (query split, documents, entities, sections,
                           expansion, rerank) behind DocumentAwareRetriever
        metrics/           DRM, character precision/recall, Hit/MRR/nDCG, separation
        progress.py        progress bars (tqdm on a terminal, plain lines in a log)
      experiments/         RunConfig and the METHODS / STAGES registries, the plug-in interface, the
                           built-in methods, the Compare catalogue, evaluate, index store, workspace,
                           sweep, significance, report, separation, executors (local / Ray), runs, paper
      dashboard/           the dashboard's UI-free logic: one module per page (compare, curves, tune,
                           maps, documents, review/), shared state, builds, HTML views
      cli/                 ``sac ...`` (click), one module per group of commands
      tooling/             measurement beside the cli: bench, timing, browser, screenshots

A run: ``load_benchmark → the method of RunConfig.method (e.g. build_pool + Retriever: Embedder,
FAISS/BM25) → its stages → score_run → mean_by_dataset``; :func:`evaluate` does all of it for one
:class:`RunConfig` in an :class:`OpenContext`. Methods and stages are plug-ins: :data:`METHODS`, :data:`STAGES`.
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
from .experiments import (
    METHODS,
    STAGES,
    Column,
    ColumnResult,
    Evaluation,
    Method,
    OpenContext,
    RunConfig,
    Stage,
    Workspace,
    catalogue_columns,
    evaluate,
)

__all__ = [
    "DEFAULT_KS",
    "DEFAULT_MODEL",
    "METHODS",
    "STAGES",
    "Benchmark",
    "BenchmarkError",
    "Chunk",
    "Column",
    "ColumnResult",
    "Document",
    "Embedder",
    "Evaluation",
    "Hit",
    "Method",
    "OpenContext",
    "Pool",
    "Query",
    "Retriever",
    "RunConfig",
    "Span",
    "Stage",
    "SummaryConfig",
    "SummaryError",
    "Workspace",
    "build_pool",
    "catalogue_columns",
    "chunk_document",
    "evaluate",
    "load_benchmark",
    "mean_by_dataset",
    "score_query",
    "score_run",
    "summarize_documents",
]
