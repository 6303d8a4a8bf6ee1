"""The dashboard's shared, UI-free state: where the data is, and the sidebar's global settings.

Nothing here imports Streamlit. The pages call these functions and only draw the results.

- :func:`resolve_data_source`: the data directory a user gave, or the embedded demo corpus
  (written once under the cache directory) when none is given or it is unusable.
- :class:`Settings`: the sidebar's choices, and the :class:`RunConfig` the pages start from.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import store
from ..engine.data import (
    DATA_ENV,
    Benchmark,
    BenchmarkError,
    available_datasets,
    confined,
    data_roots,
    folder_stamp,
    load_benchmark,
    resolve_data_dir,
    source_key,
    write_demo_corpus,
)
from ..engine.data import PROTOCOLS as PROTOCOLS  # the sidebar's choices
from ..engine.data import default_cache_dir as default_cache_dir  # the sidebar's cache folder
from ..engine.summaries import PROVIDERS, SummaryConfig, SummaryError
from ..experiments import PluginError, RunConfig
from ..experiments import load_plugins as load_all

# What loading a benchmark, opening an index or reading summaries raises for bad data or settings:
# a page says it in one line (anything else: a reference, :mod:`.errors`).
LOAD_ERRORS = (BenchmarkError, SummaryError, KeyError, OSError, RuntimeError, ValueError)
_DEMO_MARKER = ".complete"
LBR_REPO = "https://github.com/zeroentropy-ai/legalbenchrag"
FILE_SUMMARY_LENGTHS: tuple[int, ...] = (150, 300)  # what summaries/llm.jsonl holds
SUMMARY_FILE = Path("summaries") / "llm.jsonl"  # under the data folder


def load_plugins() -> tuple[str, ...]:
    """Import the plug-ins of installed packages (``sac_core.plugins`` entry points) and of
    ``$SAC_PLUGINS`` before a page reads the registries; the one-line error of each that could not
    be loaded (the others are loaded)."""
    failed: list[PluginError] = []
    load_all(failed=failed)
    return tuple(str(e) for e in failed)


def default_data_field() -> str:
    """What the data-directory field shows at first: ``$SAC_DATA_DIR`` or empty (= demo)."""
    return os.environ.get(DATA_ENV, "")


@dataclass(frozen=True)
class DataSource:
    """The benchmark directory in use; ``demo`` when it is the generated demo corpus.

    ``problem`` says why a directory the user gave was not used (then the demo is).
    """

    data_dir: Path
    demo: bool
    datasets: tuple[str, ...]
    problem: str | None = None
    # The stamp, once per instance: the sidebar makes one per script run, and a run asks for it
    # several times (a stat of every file of the folder, ~0.1 s on LegalBench-RAG, each time).
    _stamp: dict[str, str] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def has_summary_file(self) -> bool:
        """``summaries/llm.jsonl`` is there and may be read (inside ``$SAC_DATA_ROOT`` when set)."""
        path = self.data_dir / SUMMARY_FILE
        try:
            return confined(path).is_file()
        except BenchmarkError:
            return False

    @property
    def summary_file_problem(self) -> str | None:
        """Why ``summaries/llm.jsonl`` is there but not read (a link out of ``$SAC_DATA_ROOT``), in one
        line naming it relative to the data folder (the sidebar says it: the provider "file" is then
        not offered); None when it is readable or absent."""
        path = self.data_dir / SUMMARY_FILE
        try:
            confined(path)
        except BenchmarkError as e:
            reason = str(e).removeprefix(f"{path}: ")
            return f"{SUMMARY_FILE.as_posix()}: {reason}; the summary provider file is not offered"
        return None

    def stamp(self) -> str:
        """A digest of the (path, size, mtime, inode) of every file of the folder a page may read
        (:func:`folder_stamp`; SHA-256 hex, a short key however many files): a new stamp, a file
        changed (the benchmark is loaded anew, what was computed on it is not reused)."""
        if "stamp" not in self._stamp:
            self._stamp["stamp"] = store.sha256(folder_stamp(self.data_dir))
        return self._stamp["stamp"]

    @property
    def default_protocol(self) -> str:
        """``full`` for the demo, ``corpus`` for documents brought in with ``sac ingest``, else ``lbr-mini``."""
        if self.demo:
            return "full"
        return "corpus" if (self.data_dir / "ingest").is_dir() else "lbr-mini"

    @property
    def providers(self) -> tuple[str, ...]:
        """Summary providers that can work here, the best first (``file`` needs the JSONL)."""
        first = ("file",) if self.has_summary_file else ()
        return first + tuple(p for p in PROVIDERS if p != "file")


def ensure_demo_corpus(cache_dir: Path) -> Path:
    """The demo corpus under ``<cache_dir>/demo``, written once (atomically: a half-written
    folder is never used, and concurrent sessions cannot collide)."""
    dest = store.folder(cache_dir, "demo")  # an input made here, not a computed result
    if (dest / _DEMO_MARKER).is_file():
        return dest
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".demo-", dir=cache_dir))
    try:
        write_demo_corpus(tmp)
        (tmp / _DEMO_MARKER).write_text("written by sac_core.dashboard.state.ensure_demo_corpus\n", encoding="utf-8")
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


def sourced_benchmark(data_dir: Path, datasets: Sequence[str], protocol: str, stamp: str) -> tuple[Benchmark, str]:
    """The benchmark of ``datasets`` under ``protocol`` and its source key: what a result computed on
    it is kept under (its content digest and ``stamp``, :meth:`DataSource.stamp`)."""
    bench = load_benchmark(Path(data_dir), tuple(datasets), protocol)
    return bench, source_key(bench.digest, stamp)


def resolve_data_source(field: str | None, cache_dir: Path, roots: Sequence[Path] | None = None) -> DataSource:
    """The directory in ``field`` (empty: the demo corpus); an unusable one, or one outside
    ``roots`` (default: ``$SAC_DATA_ROOT``'s, none when unset), falls back to the demo with
    ``problem`` set, so the dashboard always has something to show."""
    roots = data_roots() if roots is None else roots
    raw = (field or "").strip()
    problem = None
    if raw:
        try:
            path = resolve_data_dir(raw, roots)
            datasets = available_datasets(path)
            if not datasets:
                raise BenchmarkError(f"{path}: no benchmarks/*.json files")
            return DataSource(path, demo=False, datasets=datasets)
        except BenchmarkError as e:
            problem = str(e)
    demo = ensure_demo_corpus(cache_dir)
    return DataSource(demo, demo=True, datasets=available_datasets(demo), problem=problem)


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
