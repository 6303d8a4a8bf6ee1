"""An imported run as a method: ``method = "run"``, option ``run.name`` (``sac runs import`` or the
dashboard's "Import a run" stored it, :mod:`sac_core.experiments.run_store`).

It answers each benchmark query with the run's snippets (the metrics count their spans as they
are) and a question it never saw with nothing. It opens only on the benchmark it was imported
for; the catalogue offers one entry per imported run whose protocol and datasets match, and
leaves it out on any other benchmark (:meth:`ImportedRun.fits`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...engine.data import Benchmark, BenchmarkError, default_cache_dir, read_document
from ...engine.retrieval import RunRanker
from ..config import METHODS, RunConfig
from ..plugins import Method, OpenContext, Opened, Preset
from ..run_store import NAME as NAME_PATTERN
from ..run_store import RunStoreError, list_runs, load_run, stored_run

NAME = "run"


@dataclass(frozen=True)
class RunOptions:
    name: str = ""  # the imported run's name

    def __post_init__(self) -> None:
        if self.name and not NAME_PATTERN.match(self.name):
            raise ValueError(f"run.name {self.name!r}: not a run name (letters, digits, '.', '_', '-')")


def documents(ctx: OpenContext) -> Callable[[str], str | None]:
    """``file_path → text``: the benchmark's pool first, else the data folder's corpus (None: no such file)."""

    def read(file_path: str) -> str | None:
        if file_path in ctx.bench.documents:
            return ctx.bench.documents[file_path].text
        try:
            return read_document(ctx.data_dir, file_path).text
        except BenchmarkError:
            return None

    return read


class ImportedRun(Method[RunConfig]):
    name = NAME
    title = "Imported run"
    Options = RunOptions

    def _options(self, config: RunConfig) -> RunOptions:
        options = config.plugin_options(NAME, RunOptions)
        if not options.name:
            raise ValueError("method 'run' needs the option run.name (the name an imported run was given)")
        return options

    def variant(self, config: RunConfig) -> str:
        return f"run-{config.plugin_options(NAME, RunOptions).name}"

    def inputs(self, config: RunConfig, ctx: OpenContext) -> Mapping[str, str]:
        """The imported run's content (the SHA-256 of its normalised file)."""
        return {"run": stored_run(ctx.cache_dir, self._options(config).name).sha256}

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        stored, run = load_run(ctx.cache_dir, self._options(config).name)
        problem = stored.fits(ctx.bench)
        if problem is not None:
            raise RunStoreError(problem)
        ctx.say(f"imported run {stored.name}: {stored.queries} queries from {stored.source} ({stored.format})")
        return Opened(RunRanker(run, ctx.bench.queries, documents(ctx)))

    def fits(self, config: RunConfig, bench: Benchmark) -> str | None:
        try:
            stored, _ = load_run(default_cache_dir(), self._options(config).name)
        except (RunStoreError, ValueError) as e:
            return str(e)
        return stored.fits(bench)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        """One entry per run imported (into ``$SAC_CACHE_DIR``) for this protocol and these datasets."""
        out = {}
        for stored in list_runs(default_cache_dir()):
            if (stored.protocol, stored.datasets, stored.seed) != (base.protocol, base.datasets, base.seed):
                continue
            config = base.with_(method=NAME, options={f"{NAME}.name": stored.name})
            out[f"run:{stored.name}"] = Preset(f"Run {stored.name}", config)
        return out


IMPORTED_RUN = METHODS.register(ImportedRun())
