"""The Tune page's logic: a setting answered at once from results computed before, otherwise built in
the background, always on the same pooled corpus as Compare and the sweeps.

A setting (chunk size, summary provider and length, semantic weight) has one variant per method
shown: the baseline and SAC (the generic prompt for LLM summaries; extractive summaries have no
prompt) unless others are chosen, any entry of Compare's catalogue (every method's and stage's
presets, Recommended among them), with the setting's chunk size, weight and, when it reads
summaries, their provider and length. Each variant is
a sweep cell: every query of the pooled benchmark (all chosen datasets, one index) retrieved and
scored. A cell is **instant** when its per-query metrics exist already: in a committed sweep folder
(``results/lbr-mini-grid`` covers chunk 200–1000 × baseline / SAC generic 150 / 300 × 4 weights
on lbr-mini) or in this cache's sweep cells (settings built here before). Answering from them
needs no embedding and no model. A dataset filter only chooses whose queries' means are shown.
The sliders stop only at instant settings; any other is computed on request (:mod:`.tune_stops`).

Cells are looked up by their id (:mod:`~sac_core.experiments.identity`: every input, from the
configuration and the embedding backend to the exact texts of the queries, documents and
summaries), so a result is reused only when everything that made it is the same: a reworded
question or an edited document is computed anew.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from ..engine.data import Benchmark
from ..engine.metrics import DEFAULT_KS, HIGH, LOW, METRICS, mean_by_dataset
from ..engine.summaries import SummaryError
from ..experiments import OpenContext, Preset, RunConfig, catalogue
from ..experiments.catalogue import default_keys
from ..experiments.cells import CellCache, SweepFolder
from ..experiments.identity import cell_inputs
from ..experiments.significance import LOWER_IS_BETTER
from .builds import BuildJob
from .curve_data import HEADLINE_PROTOCOL, PROTOCOL_WORDS
from .curves import METRIC_LABELS, PALETTE
from .wording import missing, pct, pct_pm, pts

log = logging.getLogger(__name__)

CHUNK_SIZES: tuple[int, ...] = tuple(range(100, 1501, 50))  # slider stops, characters
WEIGHTS: tuple[float, ...] = tuple(round(w / 20, 2) for w in range(21))  # 0, 0.05, …, 1
KS: tuple[int, ...] = DEFAULT_KS  # the sweeps' k values: other k would be other cells
MIN_CHANGE = 0.0005  # a change of a fraction below this (0.05 points) shows as ±0.0: never better nor worse


def default_methods(base: RunConfig) -> list[str]:
    """What Tune shows unless others are chosen: the first two default Compare columns (Baseline, SAC generic)."""
    return list(default_keys(base)[:2])


def tune_methods(base: RunConfig) -> dict[str, str]:
    """``key → title`` of every catalogue entry Tune can vary (:func:`~sac_core.experiments.catalogue`:
    every registered method's and stage's presets, Recommended among them), one per configuration the
    sliders make: an entry that differs from an earlier one only in what the sliders set (the hybrid
    preset: the baseline at weight 0.5) is left out."""
    out: dict[str, str] = {}
    seen: set[RunConfig] = set()
    for key, preset in catalogue(base).items():
        made = next(iter(TuneSetting(provider=base.summary.provider).variants(base, {key: preset}).values()))
        if made not in seen:
            seen.add(made)
            out[key] = preset.title
    return out


def method_presets(base: RunConfig, provider: str, methods: Sequence[str]) -> dict[str, Preset]:
    """The catalogue entries ``methods`` (keys of :func:`tune_methods`) offered for summaries of
    ``provider`` (one that reads none keeps ``base``'s summary settings); keys not offered there are
    left out (SAC expert with extractive summaries)."""
    at = base.with_(summary=replace(base.summary, provider=provider))
    entries = catalogue(at)
    out = {}
    for key in methods:
        if key not in entries:
            continue
        preset = entries[key]
        config = preset.config if preset.config.summaries_read() else preset.config.with_(summary=base.summary)
        out[key] = replace(preset, config=config)
    return out


@dataclass(frozen=True)
class TuneSetting:
    """What the Tune sliders set. ``chars``: target summary length in characters."""

    chunk_size: int = 500
    provider: str = "file"
    chars: int = 150
    semantic_weight: float = 1.0

    def variants(self, base: RunConfig, presets: Mapping[str, Preset] | None = None) -> dict[str, RunConfig]:
        """The cells of this setting by title, one per preset (:func:`method_presets`; default: the
        baseline and SAC generic), on ``base``'s pooled corpus, overlap 0."""
        presets = method_presets(base, self.provider, default_methods(base)) if presets is None else presets
        out = {}
        for preset in presets.values():
            config = preset.config.with_(
                chunk_size=self.chunk_size, chunk_overlap=0, semantic_weight=self.semantic_weight, ks=KS
            )
            if config.summaries_read():
                config = config.with_(summary=replace(config.summary, provider=self.provider, chars=self.chars))
            out[preset.title] = config
        return out

    @property
    def label(self) -> str:
        summaries = f"{self.provider} summaries {self.chars} chars"
        return f"chunk {self.chunk_size}, {summaries}, weight {self.semantic_weight:g}"


# --------------------------------------------------------------------------- looking cells up


def read_published(folders: Iterable[Path]) -> dict[str, pd.DataFrame]:
    """Per-query metrics by cell id, from the ``per_query.csv.gz`` of sweep folders."""
    out: dict[str, pd.DataFrame] = {}
    for folder in folders:
        path = SweepFolder(Path(folder)).per_query
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
    """Answers cells from committed per-query tables, then from the sweep-cell cache, by their id
    (every input; computed without requesting anything: a summary not made yet means no answer)."""

    def __init__(self, published: Mapping[str, pd.DataFrame], cache_dir: Path, data_dir: Path) -> None:
        self.published = published
        self.cache_dir, self.data_dir = Path(cache_dir), Path(data_dir)
        self._ctx: OpenContext | None = None  # of the last benchmark asked about
        self._ids: dict[RunConfig, str] = {}  # of that benchmark
        self._cache: CellCache | None = None

    def cell_id(self, config: RunConfig, bench: Benchmark) -> str | None:
        """``config``'s cell id on ``bench`` (remembered), None when a summary it reads is not made yet."""
        if self._ctx is None or self._ctx.bench is not bench:
            self._ctx, self._ids = OpenContext.new(bench, self.data_dir, self.cache_dir), {}
        if config not in self._ids:
            try:
                self._ids[config] = cell_inputs(config, self._ctx, cached_only=True).id
            except SummaryError:
                return None  # not made yet: asked again next time, once a build may have made it
        return self._ids[config]

    def find(self, config: RunConfig, bench: Benchmark) -> Found | None:
        cid = self.cell_id(config, bench)
        if cid is None:
            return None
        if cid in self.published:
            return Found(self.published[cid], "committed", config.backend)
        cells = self._cells()
        hit = cells.get(cid) if cells is not None else None
        return None if hit is None else Found(hit.per_query, "computed here", config.backend)

    def _cells(self) -> CellCache | None:
        """The sweep-cell cache, opened once (diskcache objects may be shared between threads)."""
        if self._cache is None:
            if not CellCache.exists(self.cache_dir):
                return None
            self._cache = CellCache(self.cache_dir)
        return self._cache

    def available(self, config: RunConfig, bench: Benchmark) -> bool:
        return self.find(config, bench) is not None


def instant_stops(
    lookup: Lookup,
    bench: Benchmark,
    base: RunConfig,
    setting: TuneSetting,
    field: str,
    values: Sequence,
    presets: Mapping[str, Preset] | None = None,
) -> set:
    """The values of one slider (``chunk_size``, ``chars`` or ``semantic_weight``) that answer at
    once for every method shown (``presets``, as :meth:`TuneSetting.variants`), the other sliders
    staying as in ``setting``."""
    presets = method_presets(base, setting.provider, default_methods(base)) if presets is None else presets
    out = set()
    for value in values:
        variants = replace(setting, **{field: value}).variants(base, presets)
        if all(lookup.available(cfg, bench) for cfg in variants.values()):
            out.add(value)
    return out


def results(found: Mapping[str, Found], datasets: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per (index, k): ``index, k`` and every metric with its 95 % interval (``<metric>_low``,
    ``<metric>_high``), the macro mean over the datasets of the shown queries (all when ``datasets``
    is None), as the sweeps' ``ALL`` rows."""
    frames = []
    for name, hit in found.items():
        pq = hit.per_query if datasets is None else hit.per_query[hit.per_query["dataset"].isin(list(datasets))]
        if pq.empty:
            continue
        means = mean_by_dataset(pq)
        means = means[means["dataset"] == "ALL"].drop(columns="dataset")
        means.insert(0, "index", name)
        frames.append(means)
    columns = ["index", "k", *METRICS, *(m + suffix for m in METRICS for suffix in (LOW, HIGH))]
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


def protocol_line(protocol: str, bench: Benchmark) -> str:
    """Which queries Tune's numbers are on, in words, and that the README's headline is on another protocol."""
    words = PROTOCOL_WORDS.get(protocol, "a protocol this version does not describe")
    line = f"On protocol {protocol} ({words}): {len(bench.queries):,} queries, {len(bench.documents):,} documents."
    if protocol != HEADLINE_PROTOCOL:
        line += f" The README's headline table is on protocol {HEADLINE_PROTOCOL}: other queries, other numbers."
    return line


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
    """New against previous at ``k``: one row per (index, metric) with ``previous``, ``new`` and its
    95 % interval (``low``, ``high``), ``change`` (new − previous) and ``better``: True / False when
    the previous value lies outside the new one's interval (lower is better for DRM) and the change
    shows at one decimal (:data:`MIN_CHANGE`), None when it lies inside (a difference the queries
    cannot tell from noise), is smaller or is unknown. Indexes only in ``new`` get an empty ``previous``."""
    now = at_k(new, k, (*metrics, *(m + s for m in metrics for s in (LOW, HIGH))))
    before = at_k(old, k, metrics) if old is not None and (old["k"] == k).any() else None
    rows = []
    for index in now.index:
        for m in metrics:
            value, low, high = (float(now.at[index, c]) for c in (m, m + LOW, m + HIGH))
            prev = float(before.at[index, m]) if before is not None and index in before.index else float("nan")
            change = value - prev
            if change != change or low <= prev <= high or abs(change) < MIN_CHANGE:  # not a difference
                better = None
            else:
                better = change < 0 if m in LOWER_IS_BETTER else change > 0
            rows.append(
                {"index": index, "metric": m, "previous": prev, "new": value, "low": low, "high": high,
                 "change": change, "better": better}
            )  # fmt: skip
    return pd.DataFrame(rows, columns=["index", "metric", "previous", "new", "low", "high", "change", "better"])


def verdict(better: bool | None, previous: float, change: float) -> str:
    """A change in words: ``✓ better`` / ``✗ worse`` only beyond the new value's interval (and
    :data:`MIN_CHANGE`); ``no change``, ``within the interval``, or nothing without a previous value."""
    if missing(previous):
        return ""
    if better is None:
        return "no change" if abs(change) < MIN_CHANGE else "within the interval"
    return "✓ better" if better else "✗ worse"


def diff_view(diff: pd.DataFrame, with_previous: bool) -> pd.DataFrame:
    """The diff table for people: methods and metrics by name, percent with one decimal, the new value
    ± half its 95 % interval, the change in points, a verdict (:func:`verdict`)."""
    view = pd.DataFrame(
        {
            "method": diff["index"],
            "metric": diff["metric"].map(lambda m: METRIC_LABELS.get(m, m)),
            "previous": [pct(v) for v in diff["previous"]],
            "new": [pct_pm(v, lo, hi) for v, lo, hi in zip(diff["new"], diff["low"], diff["high"])],
            "change": [pts(c) for c in diff["change"]],
            "verdict": [verdict(b, p, c) for b, p, c in zip(diff["better"], diff["previous"], diff["change"])],
        }
    )
    return view if with_previous else view.drop(columns=["previous", "change", "verdict"])


def full_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`results` for people: one row per method and k, each metric in percent ± half its 95 %
    interval, metric names as words."""
    out = pd.DataFrame({"method": table["index"], "k": table["k"]})
    for m in METRICS:
        out[METRIC_LABELS.get(m, m)] = [
            pct_pm(v, lo, hi) for v, lo, hi in zip(table[m], table[m + LOW], table[m + HIGH])
        ]
    return out


def curves_figure(table: pd.DataFrame) -> go.Figure:
    """DRM, precision and recall against k (log axis), one line per index with its 95 % interval
    shaded, in percent."""
    long = table.melt(id_vars=["index", "k"], value_vars=["drm", "precision", "recall"], var_name="metric")
    long["value"] *= 100
    long["metric"] = long["metric"].map(lambda m: METRIC_LABELS.get(m, m))
    names = list(dict.fromkeys(long["index"]))
    fig = px.line(
        long, x="k", y="value", color="index", facet_col="metric", markers=True, log_x=True,
        labels={"value": "%", "index": "method", "metric": "metric"}, template="plotly_white", height=320,
        color_discrete_map={n: PALETTE[i % len(PALETTE)] for i, n in enumerate(names)},
    )  # fmt: skip
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
    for col, metric in enumerate(["drm", "precision", "recall"], start=1):
        for i, name in enumerate(names):
            rows = table[table["index"] == name].sort_values("k")
            if metric + LOW not in rows.columns or rows.empty:
                continue
            fig.add_trace(
                go.Scatter(
                    x=[*rows["k"], *rows["k"][::-1]],
                    y=[*(rows[metric + HIGH] * 100), *(rows[metric + LOW] * 100)[::-1]],
                    fill="toself", fillcolor=PALETTE[i % len(PALETTE)], opacity=0.15, line={"width": 0},
                    hoverinfo="skip", showlegend=False, legendgroup=name,
                ),
                row=1, col=col,
            )  # fmt: skip
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
