"""The Tune page's logic: a setting answered at once from results computed before, otherwise built in
the background, always on the same pooled corpus as Compare and the sweeps.

A setting (chunk size, summary provider and length, semantic weight) has two variants, the baseline
and SAC (the generic prompt for LLM summaries; extractive summaries have no prompt). Each variant is
a sweep cell: every query of the pooled benchmark (all chosen datasets, one index) retrieved and
scored. A cell is **instant** when its per-query metrics exist already: in a committed sweep folder
(``results/lbr-mini-grid`` covers chunk 200–1000 × baseline / SAC generic 150 / 300 × 4 weights
on lbr-mini) or in this cache's sweep cells (settings built here before). Answering from them
needs no embedding and no model. A dataset filter only chooses whose queries' means are shown.

Cells are looked up by their id (:func:`~sac_core.experiments.sweep.cell_id`: the configuration
and the exact queries and documents), for the default embedding backend first and then the other:
the committed grid ran chunk 500 through torch, and ``results/backend-check`` shows torch and ONNX
give identical metrics there for every query and k.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import diskcache
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from ..engine.data import Benchmark
from ..engine.embedding import BACKENDS
from ..engine.metrics import DEFAULT_KS, METRICS, mean_by_dataset
from ..experiments import RunConfig
from ..experiments.methods import BASELINE, SAC_METHOD
from ..experiments.significance import LOWER_IS_BETTER
from ..experiments.sweep import CELLS, bench_digest, cached_cell, cell_id, open_cell_cache
from .builds import BuildJob
from .builds import index_saved as index_saved  # re-exported for the page
from .curves import METRIC_LABELS, PALETTE

log = logging.getLogger(__name__)

CHUNK_SIZES: tuple[int, ...] = tuple(range(100, 1501, 50))  # slider stops, characters
WEIGHTS: tuple[float, ...] = tuple(round(w / 20, 2) for w in range(21))  # 0, 0.05, …, 1
KS: tuple[int, ...] = DEFAULT_KS  # the sweeps' k values: other k would be other cells


@dataclass(frozen=True)
class TuneSetting:
    """What the Tune sliders set. ``chars``: target summary length in characters."""

    chunk_size: int = 500
    provider: str = "file"
    chars: int = 150
    semantic_weight: float = 1.0

    def variants(self, base: RunConfig) -> dict[str, RunConfig]:
        """The two cells of this setting: baseline and SAC, on ``base``'s pooled corpus, overlap 0."""
        common = base.with_(chunk_size=self.chunk_size, chunk_overlap=0, semantic_weight=self.semantic_weight, ks=KS)
        summary = replace(base.summary, provider=self.provider, prompt="generic", chars=self.chars)
        name = "SAC extractive" if self.provider == "extractive" else "SAC generic"
        return {
            BASELINE.title: common.with_(method=BASELINE.name, summary=base.summary),
            name: common.with_(method=SAC_METHOD.name, summary=summary),
        }

    @property
    def label(self) -> str:
        summaries = f"{self.provider} summaries {self.chars} chars"
        return f"chunk {self.chunk_size}, {summaries}, weight {self.semantic_weight:g}"


# --------------------------------------------------------------------------- looking cells up


def read_published(folders: Iterable[Path]) -> dict[str, pd.DataFrame]:
    """Per-query metrics by cell id, from the ``per_query.csv.gz`` of sweep folders."""
    out: dict[str, pd.DataFrame] = {}
    for folder in folders:
        path = Path(folder) / "per_query.csv.gz"
        if not path.is_file():
            continue
        try:
            table = pd.read_csv(path, usecols=["cell", "query_id", "dataset", "k", *METRICS])
        except (OSError, ValueError, EOFError) as e:  # one bad folder must not take Tune down: skipped, said once
            log.warning("%s: not a per-query results table, skipped (%s)", path, str(e).splitlines()[0][:200])
            continue
        for cid, rows in table.groupby("cell", sort=False):
            out.setdefault(str(cid), rows.drop(columns="cell").reset_index(drop=True))
    return out


@dataclass(frozen=True)
class Found:
    """A cell's per-query metrics and where they come from (``committed`` or ``computed here``)."""

    per_query: pd.DataFrame
    source: str
    backend: str


class Lookup:
    """Answers cells from committed per-query tables, then from the sweep-cell cache."""

    def __init__(self, published: Mapping[str, pd.DataFrame], cache_dir: Path) -> None:
        self.published = published
        self.cache_dir = Path(cache_dir)
        self._digests: dict[int, tuple[Benchmark, str]] = {}  # id → (the benchmark, its digest)
        self._cache: diskcache.Cache | None = None

    def _candidates(self, config: RunConfig, bench: Benchmark) -> list[tuple[str, str]]:
        held = self._digests.get(id(bench))
        if held is None or held[0] is not bench:
            held = (bench, bench_digest(bench))
            self._digests = {id(bench): held}
        backends = [config.backend, *[b for b in BACKENDS if b != config.backend]]
        return [(cell_id(config.with_(backend=b), bench, held[1]), b) for b in backends]

    def find(self, config: RunConfig, bench: Benchmark) -> Found | None:
        candidates = self._candidates(config, bench)
        for cid, backend in candidates:
            if cid in self.published:
                return Found(self.published[cid], "committed", backend)
        cells = self._cells()
        if cells is None:
            return None
        for cid, backend in candidates:
            hit = cached_cell(cells, cid)
            if hit is not None:
                return Found(hit["per_query"], "computed here", backend)
        return None

    def _cells(self) -> diskcache.Cache | None:
        """The sweep-cell cache, opened once (diskcache objects may be shared between threads)."""
        if self._cache is None:
            if not (self.cache_dir / CELLS / "cache.db").exists():
                return None
            self._cache = open_cell_cache(self.cache_dir)
        return self._cache

    def available(self, config: RunConfig, bench: Benchmark) -> bool:
        return self.find(config, bench) is not None


def instant_stops(
    lookup: Lookup, bench: Benchmark, base: RunConfig, setting: TuneSetting, field: str, values: Sequence
) -> set:
    """The values of one slider (``chunk_size``, ``chars`` or ``semantic_weight``) that answer at
    once, the other sliders staying as in ``setting``."""
    out = set()
    for value in values:
        variants = replace(setting, **{field: value}).variants(base)
        if all(lookup.available(cfg, bench) for cfg in variants.values()):
            out.add(value)
    return out


def results(found: Mapping[str, Found], datasets: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per (index, k): ``index, k`` and every metric, the macro mean over the datasets of
    the shown queries (all when ``datasets`` is None), as the sweeps' ``ALL`` rows."""
    frames = []
    for name, hit in found.items():
        pq = hit.per_query if datasets is None else hit.per_query[hit.per_query["dataset"].isin(list(datasets))]
        if pq.empty:
            continue
        means = mean_by_dataset(pq)
        means = means[means["dataset"] == "ALL"].drop(columns="dataset")
        means.insert(0, "index", name)
        frames.append(means)
    columns = ["index", "k", *METRICS]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def cell_jobs(missing: Mapping[str, RunConfig], data_dir: Path, cache_dir: Path) -> list[BuildJob]:
    """Background builds that evaluate the missing cells (then they are instant)."""
    return [
        BuildJob("cell", Path(data_dir), Path(cache_dir), cfg, f"{name}, chunk {cfg.chunk_size}")
        for name, cfg in missing.items()
    ]


def shown_datasets(saved: Sequence[str] | None, offered: Sequence[str]) -> list[str]:
    """The datasets whose queries Tune shows: the saved choice while it fits the benchmark, else
    all of them (a new data folder or dataset choice in the sidebar must not empty the filter)."""
    if saved is None or not set(saved) <= set(offered):
        return list(offered)
    return list(saved)


def estimated_chunks(bench: Benchmark, chunk_size: int) -> int:
    """About how many chunks one variant embeds: the pool's characters over the chunk size."""
    return sum(len(d.text) for d in bench.documents.values()) // max(1, chunk_size)


# --------------------------------------------------------------------------- tables


def at_k(table: pd.DataFrame, k: int, metrics: tuple[str, ...] = METRICS) -> pd.DataFrame:
    """One row per index at ``k`` (index name as the row label), the metrics as columns."""
    rows = table[table["k"] == k].set_index("index")
    return rows[list(metrics)]


def diff_table(
    new: pd.DataFrame, old: pd.DataFrame | None, k: int, metrics: tuple[str, ...] = ("drm", "precision", "recall")
) -> pd.DataFrame:
    """New against previous at ``k``: one row per (index, metric) with ``previous``, ``new``,
    ``change`` (new − previous) and ``better`` (True / False / None when unchanged or unknown;
    lower is better for DRM). Indexes only in ``new`` get an empty ``previous``."""
    now = at_k(new, k, metrics)
    before = at_k(old, k, metrics) if old is not None and (old["k"] == k).any() else None
    rows = []
    for index in now.index:
        for m in metrics:
            value = float(now.at[index, m])
            prev = float(before.at[index, m]) if before is not None and index in before.index else float("nan")
            change = value - prev
            if change != change or abs(change) < 1e-12:  # NaN or no change
                better = None
            else:
                better = change < 0 if m in LOWER_IS_BETTER else change > 0
            rows.append(
                {"index": index, "metric": m, "previous": prev, "new": value, "change": change, "better": better}
            )
    return pd.DataFrame(rows, columns=["index", "metric", "previous", "new", "change", "better"])


def diff_view(diff: pd.DataFrame, with_previous: bool) -> pd.DataFrame:
    """The diff table for people: metric names, percent, ✓ better / ✗ worse."""
    view = diff.assign(
        metric=diff["metric"].map(lambda m: METRIC_LABELS.get(m, m)),
        previous=(diff["previous"] * 100).round(2),
        new=(diff["new"] * 100).round(2),
        change=(diff["change"] * 100).round(2),
        better=diff["better"].map(lambda b: "" if b is None else ("✓ better" if b else "✗ worse")),
    )
    return view if with_previous else view.drop(columns=["previous", "change", "better"])


def curves_figure(table: pd.DataFrame) -> go.Figure:
    """DRM, precision and recall against k (log axis), one line per index, in percent."""
    long = table.melt(id_vars=["index", "k"], value_vars=["drm", "precision", "recall"], var_name="metric")
    long["value"] *= 100
    long["metric"] = long["metric"].map(lambda m: METRIC_LABELS.get(m, m))
    names = list(dict.fromkeys(long["index"]))
    fig = px.line(
        long, x="k", y="value", color="index", facet_col="metric", markers=True, log_x=True,
        labels={"value": "%", "index": "index"}, template="plotly_white", height=320,
        color_discrete_map={n: PALETTE[i % len(PALETTE)] for i, n in enumerate(names)},
    )  # fmt: skip
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
    ks = sorted(long["k"].unique().tolist())
    fig.update_xaxes(tickvals=ks, ticktext=[str(x) for x in ks])
    fig.update_yaxes(matches=None, rangemode="tozero", showticklabels=True)
    return fig


def instant_caption(values: Sequence, instant: set) -> str:
    """The line under a slider naming its stops that answer at once (⚡), in slider order.

    Shown under the slider rather than in its stop labels: Streamlit resets a slider whose labels
    change between reruns, and the instant stops of one slider change as the others move."""
    stops = [f"{v:g}" if isinstance(v, float) else str(v) for v in values if v in instant]
    return "⚡ instant: " + (", ".join(stops) if stops else "none at the other sliders' values")
