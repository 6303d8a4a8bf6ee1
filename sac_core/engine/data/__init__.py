"""Data: the LegalBench-RAG layout, query-selection protocols and the generated demo benchmark."""

from .benchmark import (
    available_datasets,
    load_benchmark,
    parse_datasets,
    read_benchmark_file,
    read_document,
    read_queries,
)
from .csvfile import csv_bytes, read_table, write_csv
from .demo import write_demo_corpus
from .digests import file_sha256, folder_stamp, source_key
from .heldout import write_heldout
from .ingest import ExtractionError, IngestReport, extract, ingest_folder
from .paths import (
    CACHE_ENV,
    DATA_ENV,
    DATA_ROOT_ENV,
    check_outside_project,
    confined,
    data_roots,
    default_cache_dir,
    project_root,
    resolve_data_dir,
)
from .protocols import PROTOCOLS, QUERIES_PER_DATASET, select
from .runfiles import (
    FORMATS as RUN_FORMATS,
)
from .runfiles import (
    ParsedRun,
    RunCheck,
    RunFileError,
    Snippet,
    decode,
    named_queries,
    parse_doc_id,
    parse_run,
    run_check,
)
from .runwrite import doc_id, write_jsonl, write_trec
from .staging import partial_folder, staged
from .types import DATASETS, Benchmark, BenchmarkError, Document, Query, Span

__all__ = [
    "CACHE_ENV",
    "DATASETS",
    "DATA_ENV",
    "DATA_ROOT_ENV",
    "PROTOCOLS",
    "QUERIES_PER_DATASET",
    "RUN_FORMATS",
    "Benchmark",
    "BenchmarkError",
    "Document",
    "ExtractionError",
    "IngestReport",
    "ParsedRun",
    "Query",
    "RunCheck",
    "RunFileError",
    "Snippet",
    "Span",
    "available_datasets",
    "check_outside_project",
    "confined",
    "csv_bytes",
    "data_roots",
    "decode",
    "default_cache_dir",
    "doc_id",
    "extract",
    "file_sha256",
    "folder_stamp",
    "ingest_folder",
    "load_benchmark",
    "named_queries",
    "parse_datasets",
    "parse_doc_id",
    "parse_run",
    "partial_folder",
    "project_root",
    "read_benchmark_file",
    "read_document",
    "read_queries",
    "read_table",
    "resolve_data_dir",
    "run_check",
    "select",
    "source_key",
    "staged",
    "write_csv",
    "write_demo_corpus",
    "write_heldout",
    "write_jsonl",
    "write_trec",
]
