"""The dashboard's non-UI state: where the data is, the shareable URL selection, shared resources.

Nothing here imports Streamlit. The pages call these functions and only draw the results.

- :func:`resolve_data_source`: the data directory a user gave, or the embedded demo corpus
  (written once under the cache directory) when none is given or it is unusable.
- :class:`Selection`: the Compare page's dataset, query, free text and k, to and from URL
  query parameters (never anything else: no data path, no API key).
- :class:`Registry`: objects built once per key and shared by every session (indexes, models),
  with a lock per key so two sessions never build the same thing twice.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

from .benchmark import DATA_ENV, Benchmark, BenchmarkError, Query, Span, available_datasets, resolve_data_dir
from .compare import Column, default_columns
from .config import RunConfig
from .demo import write_demo_corpus
from .summaries import PROVIDERS, CostEstimate, SummaryConfig, estimate_cost, summarize_documents

CACHE_ENV = "SAC_CACHE_DIR"
DEMO_FOLDER = "demo"  # under the cache directory
_DEMO_MARKER = ".complete"
LBR_REPO = "https://github.com/zeroentropy-ai/legalbenchrag"
FILE_SUMMARY_LENGTHS: tuple[int, ...] = (150, 300)  # what summaries/llm.jsonl holds


def default_cache_dir() -> Path:
    """``$SAC_CACHE_DIR`` or ``./cache`` (as the CLI)."""
    return Path(os.environ.get(CACHE_ENV, "cache"))


def default_data_field() -> str:
    """What the data-directory field shows at first: ``$SAC_DATA_DIR`` or empty (= demo)."""
    return os.environ.get(DATA_ENV, "")


# --------------------------------------------------------------------------- data source


@dataclass(frozen=True)
class DataSource:
    """The benchmark directory in use; ``demo`` when it is the generated demo corpus.

    ``problem`` says why a directory the user gave was not used (then the demo is).
    """

    data_dir: Path
    demo: bool
    datasets: tuple[str, ...]
    problem: str | None = None

    @property
    def has_summary_file(self) -> bool:
        return (self.data_dir / "summaries" / "llm.jsonl").is_file()

    @property
    def default_protocol(self) -> str:
        return "full" if self.demo else "lbr-mini"

    @property
    def providers(self) -> tuple[str, ...]:
        """Summary providers that can work here, the best first (``file`` needs the JSONL)."""
        first = ("file",) if self.has_summary_file else ()
        return first + tuple(p for p in PROVIDERS if p != "file")


def ensure_demo_corpus(cache_dir: Path) -> Path:
    """The demo corpus under ``<cache_dir>/demo``, written once (atomically: a half-written
    folder is never used, and concurrent sessions cannot collide)."""
    dest = Path(cache_dir) / DEMO_FOLDER
    if (dest / _DEMO_MARKER).is_file():
        return dest
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".demo-", dir=cache_dir))
    try:
        write_demo_corpus(tmp)
        (tmp / _DEMO_MARKER).write_text("written by sac_core.app_state.ensure_demo_corpus\n", encoding="utf-8")
        if dest.exists() and not (dest / _DEMO_MARKER).is_file():
            shutil.rmtree(dest)  # an old incomplete copy
        try:
            tmp.rename(dest)
        except OSError:  # another session finished first
            if not (dest / _DEMO_MARKER).is_file():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


def resolve_data_source(field: str | None, cache_dir: Path) -> DataSource:
    """The directory in ``field`` (empty: the demo corpus); an unusable one falls back to the demo
    with ``problem`` set, so the dashboard always has something to show."""
    raw = (field or "").strip()
    problem = None
    if raw:
        try:
            path = resolve_data_dir(raw)
            datasets = available_datasets(path)
            if not datasets:
                raise BenchmarkError(f"{path}: no benchmarks/*.json files")
            return DataSource(path, False, datasets)
        except BenchmarkError as e:
            problem = str(e)
    demo = ensure_demo_corpus(cache_dir)
    return DataSource(demo, True, available_datasets(demo), problem)


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class Settings:
    """The sidebar's global choices. Deliberately without the API key (kept by the session only)."""

    source: DataSource
    cache_dir: Path
    protocol: str
    datasets: tuple[str, ...]
    provider: str
    chars: int

    def base_config(self, **changes: object) -> RunConfig:
        """The RunConfig the pages start from (SAC summaries per the sidebar)."""
        summary = SummaryConfig(provider=self.provider, chars=self.chars)
        return RunConfig(protocol=self.protocol, datasets=self.datasets, summary=summary).with_(**changes)


def summary_lengths(provider: str) -> tuple[int, ...] | None:
    """Lengths a provider can make: the file's fixed set, or ``None`` for any length."""
    return FILE_SUMMARY_LENGTHS if provider == "file" else None


def compare_columns(base: RunConfig) -> tuple[Column, ...]:
    """The indexes shown side by side. The extractive provider ignores the prompt, so it gets one
    SAC column instead of two identical ones."""
    if base.summary.provider == "extractive":
        return (
            Column("Baseline", base.with_(method="baseline")),
            Column("SAC extractive", base.with_(method="sac", summary=replace(base.summary, prompt="generic"))),
        )
    return default_columns(base)


def summary_prompts(provider: str) -> tuple[str, ...]:
    """Prompts worth showing for a provider: the extractive one reads no prompt, so just one."""
    return ("generic",) if provider == "extractive" else ("generic", "expert")


def document_summaries_for(
    file_path: str, text: str, provider: str, chars: int, data_dir: Path, cache_dir: Path,
    api_key: str | None = None,
) -> dict[str, str]:
    """``prompt → summary`` of one document (from the caches or the summary file when there)."""
    out = {}
    for prompt in summary_prompts(provider):
        config = SummaryConfig(provider=provider, prompt=prompt, chars=chars).resolved(data_dir)
        records = summarize_documents({file_path: text}, config, cache_dir, api_key=api_key, progress=False)
        out[prompt] = records[file_path].summary
    return out


def pending_cost(bench: Benchmark, columns: Sequence[Column], data_dir: Path, cache_dir: Path) -> CostEstimate:
    """What building ``columns`` would still request from the ``openai`` provider (cached: free)."""
    texts = {fp: d.text for fp, d in bench.documents.items()}
    docs = tokens_in = tokens_out = 0
    usd = 0.0
    for col in columns:
        cfg = col.config
        if cfg.method != "sac" or cfg.summary.provider != "openai":
            continue
        est = estimate_cost(texts, cfg.summary.resolved(data_dir), cache_dir)
        docs, tokens_in, tokens_out, usd = (docs + est.documents, tokens_in + est.input_tokens,
                                            tokens_out + est.output_tokens, usd + est.usd)
    return CostEstimate(docs, tokens_in, tokens_out, usd, estimated=True)


def gold_by_document(bench: Benchmark) -> dict[str, list[tuple[Query, Span]]]:
    """For every document of the benchmark: its (query, gold span) pairs in span order (one pass)."""
    out: dict[str, list[tuple[Query, Span]]] = {fp: [] for fp in bench.documents}
    for q in bench.queries:
        for s in q.gold:
            out.setdefault(s.file_path, []).append((q, s))
    for pairs in out.values():
        pairs.sort(key=lambda p: (p[1].start, p[1].end, p[0].query_id))
    return out


def queries_citing(bench: Benchmark, file_path: str) -> list[tuple[Query, Span]]:
    """Every (query, gold span) of the benchmark that lies in document ``file_path``, in span order."""
    return gold_by_document(bench).get(file_path, [])


def resource_key(*parts: object) -> tuple[str, ...]:
    """A registry key from paths and frozen configs (their ``repr`` lists every field)."""
    return tuple(str(Path(p).resolve()) if isinstance(p, Path) else repr(p) for p in parts)


# --------------------------------------------------------------------------- URL selection

K_MIN, K_MAX, K_DEFAULT = 1, 64, 4
MAX_TEXT = 500  # characters of free text kept in a URL
PARAM_DATASET, PARAM_QUERY, PARAM_TEXT, PARAM_K = "dataset", "q", "text", "k"


@dataclass(frozen=True)
class Selection:
    """What the Compare page shows: a benchmark query (``query_id``) or free ``text``, and ``k``."""

    dataset: str | None = None
    query_id: str | None = None
    text: str = ""
    k: int = K_DEFAULT


def _first(value: str | Sequence[str] | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return value[0] if len(value) else None


def parse_selection(params: Mapping[str, str | Sequence[str]]) -> Selection:
    """A Selection from URL query parameters; anything malformed falls back to the default."""
    raw_k = _first(params.get(PARAM_K))
    try:
        k = min(K_MAX, max(K_MIN, int(raw_k))) if raw_k is not None else K_DEFAULT
    except ValueError:
        k = K_DEFAULT
    dataset = (_first(params.get(PARAM_DATASET)) or "").strip() or None
    query_id = (_first(params.get(PARAM_QUERY)) or "").strip() or None
    text = (_first(params.get(PARAM_TEXT)) or "")[:MAX_TEXT]
    return Selection(dataset, query_id, text, k)


def selection_params(selection: Selection) -> dict[str, str]:
    """URL query parameters for a Selection (empty values left out)."""
    out = {PARAM_DATASET: selection.dataset or "", PARAM_QUERY: selection.query_id or "",
           PARAM_TEXT: selection.text[:MAX_TEXT], PARAM_K: str(selection.k)}
    return {key: value for key, value in out.items() if value}


def reconcile(selection: Selection, queries: Mapping[str, Sequence[str]]) -> Selection:
    """Make a (URL) selection valid for the loaded benchmark: ``queries`` maps dataset → query ids.

    A known query id wins (its dataset follows from it); else a known dataset keeps its first
    query; else the first dataset and query.
    """
    if not queries:
        return replace(selection, dataset=None, query_id=None)
    owner = {qid: ds for ds, ids in queries.items() for qid in ids}
    if selection.query_id in owner:
        return replace(selection, dataset=owner[selection.query_id])
    dataset = selection.dataset if selection.dataset in queries else next(iter(queries))
    ids = queries[dataset]
    return replace(selection, dataset=dataset, query_id=ids[0] if ids else None)


# --------------------------------------------------------------------------- shared resources

T = TypeVar("T")


class Registry(Generic[T]):
    """Objects built once per key and shared by all sessions; at most ``size`` kept (LRU).

    ``get`` builds under a per-key lock: a second caller waits for the first build instead of
    repeating it. A failed build stores nothing.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            key_lock = self._building.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._items:
                    return self._items[key]
            value = build()
            with self._lock:
                self._items[key] = value
                self._items.move_to_end(key)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
                self._building.pop(key, None)
            return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
