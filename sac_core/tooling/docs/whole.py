"""The blocks of the whole benchmark's page (issue 43), beside the kinds of :mod:`.blocks`:

- ``datasets``: each row's precision, recall and DRM as means over k per dataset and ``ALL``, ±
  half the 95 % bootstrap interval over queries (the SAC paper's table, per dataset);
- ``pairs``: each row against the first one (the baseline), the paired tests the sweep wrote
  (``significance.csv``) at the block's ``(metric, k)``: means, the difference with its interval,
  the Holm-corrected p-value, the queries better and worse;
- ``shift`` / ``shift-text``: what changes from a subset protocol (the block's ``against`` rows) to
  the whole pool, per dataset: DRM on the subset, on the subset's own queries in the whole pool,
  and on every query; as a table and sentences, or the sentences alone. Every number of a sentence
  is computed here from the per-query rows: no text is written by hand around them;
- ``published``: the first row's precision@1 / recall@64 beside LegalBench-RAG's published ones
  (:data:`sac_core.experiments.paper.LBR_PUBLISHED`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...engine.data import read_table
from ...experiments.cells import SIGNIFICANCE
from ...experiments.paper import LBR_PUBLISHED, LbrPoint
from ...experiments.report import SHOWN, lbr_table, plus_minus
from .blocks import HEADERS, INTERVAL_NOTE, MEANS_NOTE, Block, Picked, pick, table
from .results import DocsError, Results, Sweep

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

SHORT = {"drm": "DRM", "precision": "P", "recall": "R"}
LBR = ("P@1", "R@64")
NBSP = "\u00a0"


def datasets_in(values: Sequence[str]) -> list[str]:
    """The datasets of ``values``, sorted, ``ALL`` last (as LegalBench-RAG's table orders them)."""
    found = set(values)
    return sorted(found - {"ALL"}) + (["ALL"] if "ALL" in found else [])


def render_datasets(block: Block, results: Results) -> list[str]:
    """Means over k per dataset, one group of rows per dataset (its name on the group's first row)."""
    picked = pick(block, results)
    frames = {p.sweep.name: plus_minus(results.dataset_means(p.sweep.name)) for p in picked}
    names = datasets_in([d for p in picked for d in frames[p.sweep.name].loc[p.cell].index])
    rows = []
    for dataset in names:
        for i, p in enumerate(picked):
            text = frames[p.sweep.name].loc[(p.cell, dataset)]
            shown = "ALL (macro)" if dataset == "ALL" else dataset
            rows.append([shown if i == 0 else "", p.label, *(str(text[m]).replace(" ", NBSP) for m in SHOWN)])
    header = ["dataset", block.caption or "method", *(HEADERS[m] for m in SHOWN)]
    intervals = INTERVAL_NOTE if all(p.sweep.intervals for p in picked) else ""
    means = MEANS_NOTE.replace(", macro over datasets", "")
    note = (f"<small>{means[0].upper()}{means[1:]}{intervals}; ALL is the macro mean over datasets. "
            f"From {_sources(picked)}.</small>")  # fmt: skip
    return [*table(header, rows, "llrrr"), "", note]


def render_pairs(block: Block, results: Results) -> list[str]:
    """Every row after the first against the first, at each ``(metric, k)`` of ``block.at``."""
    picked = pick(block, results)
    if len(picked) < 2 or not block.at:
        raise DocsError(f"block {block.name!r}: a pairs block needs two rows or more and its (metric, k)")
    reference = picked[0]
    tests = read_table(results.file(f"{block.folder}/{SIGNIFICANCE}"))
    rows = []
    for p in picked[1:]:
        for metric, k in block.at:
            pair = paired_row(tests, reference.cell, p.cell, metric, k)
            if pair is None:
                raise DocsError(f"results/{block.folder}/{SIGNIFICANCE}: no test of {p.label!r} against "
                                f"{reference.label!r} for {metric}@{k}")  # fmt: skip
            p_value = pair.get("p_holm", pair["p_value"])
            rows.append([
                p.label, f"{SHORT[metric]}@{k}", f"{pair['mean_a'] * 100:.2f}", f"{pair['mean_b'] * 100:.2f}",
                f"{pair['diff'] * 100:+.2f} [{pair['diff_low'] * 100:+.2f},{NBSP}{pair['diff_high'] * 100:+.2f}]",
                f"{p_value:.4f}", f"{int(pair['wins'])} / {int(pair['losses'])}",
            ])  # fmt: skip
    header = [block.caption or "method", "metric", f"{reference.label} (%)", "method (%)", "difference (pts) [95 %]",
              "p (Holm)", "queries better / worse"]  # fmt: skip
    note = (f"<small>Paired sign-flip permutation tests over the same queries (10,000 flips, two-sided), "
            f"p-values Holm-corrected over the sweep's tests at each metric and k; lower DRM is better. The "
            f"means here are over all queries (each query weighs the same), the tables' over datasets. "
            f"From `results/{block.folder}/{SIGNIFICANCE}`.</small>")  # fmt: skip
    return [*table(header, rows, "llrrrrr"), "", note]


def paired_row(tests: pd.DataFrame, a: str, b: str, metric: str, k: int) -> dict[str, float] | None:
    """The test of cell ``b`` against cell ``a`` at ``metric@k``: the row as written, or the row of
    ``a`` against ``b`` turned round (means swapped, difference and interval negated, better and
    worse swapped); None when the sweep has neither."""
    at = tests[(tests["metric"] == metric) & (tests["k"].astype(int) == k)]
    found = at[(at["a"] == a) & (at["b"] == b)]
    if len(found):
        return {c: found.iloc[0][c] for c in found.columns if c not in ("a", "b", "metric")}
    found = at[(at["a"] == b) & (at["b"] == a)]
    if not len(found):
        return None
    row = found.iloc[0]
    out = {c: row[c] for c in found.columns if c not in ("a", "b", "metric")}
    out.update(mean_a=row["mean_b"], mean_b=row["mean_a"], diff=-row["diff"], diff_low=-row["diff_high"],
               diff_high=-row["diff_low"], wins=row["losses"], losses=row["wins"])  # fmt: skip
    return out


def drm_shift(rows: Sequence[tuple[str, pd.DataFrame, pd.DataFrame]]) -> pd.DataFrame:
    """DRM (%, mean over k) per row and dataset on the subset, on the subset's own queries in the
    whole pool (``same``: the larger pool alone), and on every query of the whole pool (``whole``).

    ``rows``: (label, the subset cell's per-query rows, the whole cell's per-query rows), each with
    ``dataset``, ``query_id``, ``k`` and ``drm``. A dataset's mean over k is the mean over its k of
    the mean over its queries (as ``results.csv``); ``ALL`` is the macro mean over datasets."""
    import pandas as pd

    out = []
    for label, subset, whole in rows:
        same = whole[whole["query_id"].isin(set(subset["query_id"]))]
        found = {name: _drm_over_k(frame) for name, frame in (("subset", subset), ("same", same), ("whole", whole))}
        merged = pd.DataFrame(found)
        out.append(merged.rename_axis("dataset").reset_index().assign(label=label))
    frame = pd.concat(out, ignore_index=True)
    return frame[["label", "dataset", "subset", "same", "whole"]]


def _drm_over_k(per_query: pd.DataFrame) -> pd.Series:
    by_dataset = per_query.groupby(["dataset", "k"])["drm"].mean().groupby("dataset").mean() * 100
    by_dataset = by_dataset.reindex(datasets_in(list(by_dataset.index)))
    by_dataset.loc["ALL"] = by_dataset.mean()
    return by_dataset


def shift_sentences(shift: pd.DataFrame, subset: str, whole: str) -> list[str]:
    """What changes from ``subset`` to ``whole`` in words, every number from ``shift``
    (:func:`drm_shift`; its first label is the baseline): how the baseline's DRM moves per dataset,
    then for each other row how much more or less of it that row removes."""
    labels = list(dict.fromkeys(shift["label"]))
    frames = {label: shift[shift["label"] == label].set_index("dataset") for label in labels}
    base = frames[labels[0]]
    total = base.loc["ALL"]
    change = (base["whole"] - base["subset"]).drop("ALL")
    out = [
        f"From the {subset} to the {whole}, the baseline's DRM (mean over k, all datasets) goes from "
        f"{total['subset']:.2f} % to {total['whole']:.2f} % ({_pts(total['whole'] - total['subset'])}; "
        f"{_pts(total['same'] - total['subset'])} on the subset's own queries, the larger pool alone): "
        f"{_moves(change, 'it grows', 'it falls', 'it does not move')}."
    ]
    for label in labels[1:]:
        removed = base[["subset", "same", "whole"]] - frames[label][["subset", "same", "whole"]]
        gained = (removed["whole"] - removed["subset"]).drop("ALL")
        out.append(
            f"{label} removes {removed.loc['ALL', 'subset']:.2f} pts of it on the subset and "
            f"{removed.loc['ALL', 'whole']:.2f} pts on the whole pool: "
            f"{_moves(gained, 'more', 'less', 'as much')}."
        )
    return out


def _pts(value: float) -> str:
    return f"{value:+.2f} pts"


def _moves(change: pd.Series, up: str, down: str, flat: str) -> str:
    """``up`` on the datasets whose (rounded) change is positive, largest first, then ``down`` and
    ``flat``, each dataset with its change: ``it grows on maud (+9.10 pts), cuad (+1.00 pts)``."""
    rounded = change.round(2).sort_values(ascending=False, kind="stable")
    parts = []
    for words, chosen in ((up, rounded[rounded > 0]), (down, rounded[rounded < 0]), (flat, rounded[rounded == 0])):
        if len(chosen):
            parts.append(f"{words} on " + ", ".join(f"{d} ({_pts(v)})" for d, v in chosen.items()))
    return "; ".join(parts)


def _shift(block: Block, results: Results) -> tuple[pd.DataFrame, str, str]:
    whole = pick(block, results)
    subset = pick(Block(block.name, block.folder, rows=block.against), results)
    if len(whole) != len(subset) or len(whole) < 1:
        raise DocsError(f"block {block.name!r}: `against` must name the same methods as its rows, in order")
    rows = []
    for w, s in zip(whole, subset):
        rows.append((w.label, _cell_rows(results, s), _cell_rows(results, w)))
    return drm_shift(rows), describe(subset[0].sweep), describe(whole[0].sweep)


def _cell_rows(results: Results, p: Picked) -> pd.DataFrame:
    per_query = results.per_query(p.sweep.name)
    if per_query is None:
        raise DocsError(f"{p.sweep.path}: no per-query rows (per_query.csv.gz), needed for a shift block")
    return per_query[per_query["cell"] == p.cell]


def describe(sweep: Sweep) -> str:
    """A sweep's protocol in words: ``paper protocol (776 queries, 362 documents)``."""
    first = sweep.table[sweep.table["dataset"] == "ALL"].iloc[0]
    protocol = str(first.get("protocol", "?"))
    name = "whole benchmark" if protocol == "full" else f"{protocol} protocol"
    counts = [f"{int(first[c]):,} {w}" for c, w in (("n_queries", "queries"), ("n_documents", "documents"))
              if c in first and first[c] == first[c]]  # fmt: skip
    return f"{name} ({', '.join(counts)})" if counts else name


def render_shift(block: Block, results: Results) -> list[str]:
    """The sentences, then the table they come from (DRM per dataset and method, three settings)."""
    shift, subset, whole = _shift(block, results)
    rows = []
    for dataset in datasets_in(list(shift["dataset"])):
        for i, (_, r) in enumerate(shift[shift["dataset"] == dataset].iterrows()):
            change = f"{r['whole'] - r['subset']:+.2f}"
            shown = "ALL (macro)" if dataset == "ALL" else dataset
            rows.append([shown if i == 0 else "", r["label"], *(f"{r[c]:.2f}" for c in ("subset", "same", "whole")),
                         change])  # fmt: skip
    header = ["dataset", block.caption or "method", f"DRM, {subset}", "same queries, whole pool", f"DRM, {whole}",
              "change (pts)"]  # fmt: skip
    note = f"<small>DRM in %, means over k. From {_sources(pick(block, results))} and the subset's folders.</small>"
    return [*shift_sentences(shift, subset, whole), "", *table(header, rows, "llrrrr"), "", note]


def render_shift_text(block: Block, results: Results) -> list[str]:
    shift, subset, whole = _shift(block, results)
    return [" ".join(shift_sentences(shift, subset, whole))]


def render_published(block: Block, results: Results, published: Sequence[LbrPoint] = LBR_PUBLISHED) -> list[str]:
    """Each row's P@1 / R@64 per dataset (± half the 95 % interval) beside LegalBench-RAG's, then
    each row's difference from theirs (ours − theirs, points)."""
    picked = pick(block, results)
    cells = [p.sweep.table[p.sweep.table["cell"] == p.cell] for p in picked]
    ours = [lbr_table(cell, text=True).iloc[0] for cell in cells]
    means = [lbr_table(cell).iloc[0] for cell in cells]
    names = datasets_in(list(dict.fromkeys(d for d, _ in ours[0].index)))
    theirs = {(q.dataset, q.metric): q.value for q in published}
    rows = [
        *([f"{p.label}, this project", *(" / ".join(_cell(o[(d, m)]) for m in LBR) for d in names)]
          for p, o in zip(picked, ours)),
        ["LegalBench-RAG as published", *(" / ".join(_number(theirs.get((d, m))) for m in LBR) for d in names)],
        *([f"difference, {p.label} (pts)", *(" / ".join(_diff(mean[(d, m)], theirs.get((d, m))) for m in LBR)
                                              for d in names)]
          for p, mean in zip(picked, means)),
    ]  # fmt: skip
    header = [block.caption or "precision@1 / recall@64 (%)", *(d if d != "ALL" else "ALL (macro)" for d in names)]
    if published:
        sources = "; ".join(dict.fromkeys(q.source for q in published))
        note = f"Theirs: {sources}; ours from {_sources(picked)}."
    else:
        note = ("LegalBench-RAG's own numbers are not in this project's sources yet: add them to `LBR_PUBLISHED` in "
                "`sac_core/experiments/paper.py` from the paper's results table, then run `sac docs`.")  # fmt: skip
    return [*table(header, rows, "l" + "r" * len(names)), "", f"<small>{note}</small>"]


def _cell(value: object) -> str:
    return str(value).replace(" ", NBSP) if isinstance(value, str) else _number(value)  # type: ignore[arg-type]


def _number(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.2f}"


def _diff(ours: float, theirs: float | None) -> str:
    return "–" if theirs is None or ours != ours else f"{ours - theirs:+.2f}"


def _sources(picked: Sequence[Picked]) -> str:
    return ", ".join(f"`{f}`" for f in dict.fromkeys(p.sweep.path for p in picked))
