"""sac_core.dashboard.demo_picks: typical / biggest gain / biggest loss computed from per-query results."""

from __future__ import annotations

import pandas as pd
import pytest

from sac_core.dashboard import compare, curves, demo_picks
from sac_core.dashboard.selection import Selection
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig


@pytest.fixture(scope="module")
def bench(demo_bench):
    return demo_bench


def _columns(bench):
    base = RunConfig(protocol="full", datasets=tuple(bench.datasets), summary=SummaryConfig(provider="file"))
    return compare.compare_columns(base)[:2]  # Baseline, SAC generic


def _write_sweep(folder, bench, columns, drm):
    """A sweep folder whose two cells ran ``columns`` on ``bench``; ``drm(column index, query index)``."""
    folder.mkdir(parents=True)
    results, per_query = [], []
    for i, col in enumerate(columns):
        row = {**col.config.columns(), "cell": f"cell{i}", "dataset": "ALL", "k": 4, "drm": 0.5, "precision": 0.1}
        row.update(recall=0.2, n_queries=len(bench.queries), n_documents=len(bench.documents))
        results.append(row)
        for n, q in enumerate(bench.queries):
            for k in (1, 4):
                per_query.append({"cell": f"cell{i}", "query_id": q.query_id, "k": k, "drm": drm(i, n), "recall": 0.5})
    pd.DataFrame(results).to_csv(folder / "results.csv", index=False)
    pd.DataFrame(per_query).to_csv(folder / "per_query.csv.gz", index=False)
    return curves.SweepFolder(folder.name, folder, (folder / "results.csv",))


def test_sac_losing_on_average_gives_a_typical_loss(tmp_path, bench):
    columns = _columns(bench)
    n = len(bench.queries)
    # SAC's DRM is the baseline's plus 0.25 for most queries, one query gains 0.5, one loses 0.75
    folder = _write_sweep(
        tmp_path / "lossy", bench, columns, lambda i, q: 0.25 if i == 0 else (0.0 if q == 3 else 1.0 if q == 5 else 0.5)
    )
    cells = demo_picks.find_cells([folder], columns[0], columns, bench)
    assert cells is not None and cells.sweep == "lossy" and set(cells.methods) == {columns[1].name}
    found = {(p.kind, p.metric): p for p in demo_picks.picks(cells, k=4)}
    typical = found["typical", "drm"]
    assert typical.change == pytest.approx(0.25) and typical.k == 4  # a loss: SAC's DRM rises
    assert typical.label() == (
        f"typical query for {columns[1].name}: chunks from a wrong document in the top 4, 25 % → 50 % (the median change)"
    )
    assert found["gain", "drm"].query_id == bench.queries[3].query_id
    assert found["gain", "drm"].change == pytest.approx(-0.25)
    assert found["loss", "drm"].query_id == bench.queries[5].query_id
    assert found["loss", "drm"].change == pytest.approx(0.75)
    # recall is the same everywhere: the typical query is unchanged, no gain and no loss to show
    assert found["typical", "recall"].change == 0 and ("gain", "recall") not in found
    assert demo_picks.default_pick(list(found.values())) == typical
    assert n > 6


def test_sac_gaining_moves_the_typical_query(tmp_path, bench):
    columns = _columns(bench)
    folder = _write_sweep(tmp_path / "gainy", bench, columns, lambda i, q: 0.75 if i == 0 else (0.25 if q % 4 else 1.0))
    cells = demo_picks.find_cells([folder], columns[0], columns, bench)
    assert cells is not None
    typical = demo_picks.default_pick(demo_picks.picks(cells, k=3))  # no k = 3: the nearest the sweep has, 4
    assert typical is not None and typical.change == pytest.approx(-0.5) and typical.k == 4
    assert "chunks from a wrong document in the top 4, 75 % → 25 % (the median change)" in typical.label()


def test_no_matching_cell_gives_no_picks(tmp_path, bench):
    columns = _columns(bench)
    other = [c.__class__(c.name, c.config.with_(chunk_size=300)) for c in columns]
    folder = _write_sweep(tmp_path / "other", bench, other, lambda i, q: 0.5)
    assert demo_picks.find_cells([folder], columns[0], columns, bench) is None
    assert demo_picks.find_cells([], columns[0], columns, bench) is None
    # the right setting but other data (fewer queries than the benchmark in use): no picks either
    folder = _write_sweep(tmp_path / "elsewhere", bench, columns, lambda i, q: 0.5)
    table = pd.read_csv(folder.results)
    table.assign(n_queries=len(bench.queries) - 1).to_csv(folder.results, index=False)
    assert demo_picks.find_cells([folder], columns[0], columns, bench) is None


def test_choose_direction_and_ties():
    change = pd.Series([0.0, 0.0, 0.5, -0.5], index=["a", "b", "c", "d"])
    assert demo_picks.choose(change, "drm") == {"typical": ("a", 0.0), "gain": ("d", -0.5), "loss": ("c", 0.5)}
    assert demo_picks.choose(change, "recall") == {"typical": ("a", 0.0), "gain": ("c", 0.5), "loss": ("d", -0.5)}
    assert demo_picks.choose(pd.Series(dtype=float), "drm") == {}
    assert demo_picks.nearest_k([1, 2, 4, 8], 3) == 2 and demo_picks.nearest_k([1, 4], 64) == 4


def test_a_first_visit_opens_on_the_typical_query_unless_the_url_says():
    typical = demo_picks.Pick("typical", "SAC generic", "drm", 4, "d/7", 0.1)
    found = [demo_picks.Pick("gain", "SAC generic", "drm", 4, "d/2", -1.0), typical]
    assert demo_picks.opening(Selection(), found).query_id == "d/7"
    assert demo_picks.opening(Selection(query_id="d/1"), found).query_id == "d/1"
    assert demo_picks.opening(Selection(text="my question"), found).query_id is None
    assert demo_picks.opening(Selection(), []) == Selection()  # no per-query results: the usual default
    assert demo_picks.describe("d/7", found) == ["typical query for SAC generic (DRM@4 +10.0 points)"]
    assert demo_picks.describe(None, found) == [] and demo_picks.describe("d/3", found) == []


def test_methods_with_the_same_picks_are_named_together_and_mixed_kinds_name_their_metric():
    """The demo's caption once repeated eight labels for two methods that picked the same query."""
    same = [
        demo_picks.Pick(kind, method, metric, 2, "q", change)
        for method in ("SAC generic", "SAC expert")
        for metric, change in (("drm", -0.5), ("recall", 1.0))
        for kind in ("typical", "gain")
    ]
    assert demo_picks.describe("q", same) == [
        "typical query and biggest gain for SAC generic and SAC expert (DRM@2 −50.0 points, recall@2 +100.0 points)"
    ]
    mixed = [
        demo_picks.Pick("typical", "Hybrid", "drm", 4, "q", 0.0),
        demo_picks.Pick("loss", "Hybrid", "recall", 4, "q", -0.25),
    ]
    assert demo_picks.describe("q", mixed) == [
        "typical query by DRM@4 ±0.0 points and biggest loss by recall@4 −25.0 points for Hybrid"
    ]


def test_sweep_cells_prefers_the_preferred_sweeps_and_needs_a_baseline(tmp_path, bench):
    columns = _columns(bench)
    _write_sweep(tmp_path / "aaa", bench, columns, lambda i, q: 0.5)
    _write_sweep(tmp_path / "demo-grid", bench, columns, lambda i, q: 0.5)
    found = demo_picks.sweep_cells([tmp_path], columns, bench)
    assert found is not None and found.sweep == "demo-grid"
    assert demo_picks.sweep_cells([tmp_path], columns[1:], bench) is None  # no baseline column


def _spoil(folder, **change):
    """Rewrite the per-query table of ``folder`` with ``change`` applied (a column dropped or replaced)."""
    table = pd.read_csv(folder.per_query)
    for column, value in change.items():
        table = table.drop(columns=column) if value is None else table.assign(**{column: value})
    table.to_csv(folder.per_query, index=False)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"k": None}, "bad/per_query.csv.gz: no column k"),
        ({"drm": "lots"}, "bad/per_query.csv.gz: column drm holds 'lots', not a number"),
        ({"k": "four"}, "bad/per_query.csv.gz: column k holds 'four', not a whole number"),
    ],
)
def test_a_per_query_table_that_does_not_parse_is_named_and_skipped(tmp_path, bench, change, said):
    """Issue 41: a per_query.csv.gz without k, or with text in drm, left only "Something went wrong"."""
    columns = _columns(bench)
    bad = _write_sweep(tmp_path / "bad", bench, columns, lambda i, q: 0.5)
    _spoil(bad, **change)
    good = _write_sweep(tmp_path / "good", bench, columns, lambda i, q: 0.25 * i)
    found = demo_picks.find([bad, good], columns[0], columns, bench)
    assert found.skipped == (f"{said} — the results folder bad is skipped",)
    assert found.cells is not None and found.cells.sweep == "good"  # the next folder is used
    assert str(tmp_path) not in found.skipped[0]
    alone = demo_picks.find([bad], columns[0], columns, bench)
    assert alone.cells is None and len(alone.skipped) == 1


def test_a_value_that_is_not_a_fraction_is_never_picked(tmp_path, bench):
    """Issue 41: -inf and 1e300 in drm gave picks such as "DRM@4 −inf points"."""
    columns = _columns(bench)
    odd = {3: float("-inf"), 5: 1e300, 7: float("inf"), 8: float("nan"), 9: -0.5}
    folder = _write_sweep(tmp_path / "odd", bench, columns, lambda i, q: odd.get(q, 0.5) if i else 0.5 - 0.01 * q)
    cells = demo_picks.find_cells([folder], columns[0], columns, bench)
    assert cells is not None
    found = demo_picks.picks(cells, k=4)
    assert found and all(abs(p.change) <= 1 for p in found), [p.label() for p in found]
    odd_ids = {bench.queries[q].query_id for q in odd}
    assert not [p for p in found if p.metric == "drm" and p.query_id in odd_ids]
    assert "inf" not in " ".join(p.label() for p in found)


def test_a_loss_reads_as_a_rise_of_wrong_document_chunks_never_as_plus_points_of_a_loss(tmp_path, bench):
    """Issue 45: "biggest loss … DRM@4 +100.0 points" read backwards; the values say what happened."""
    columns = _columns(bench)
    folder = _write_sweep(tmp_path / "mixed", bench, columns, lambda i, q: 0.0 if i == 0 else (1.0 if q == 2 else 0.0))
    found = {
        (p.kind, p.metric): p for p in demo_picks.picks(demo_picks.find_cells([folder], columns[0], columns, bench), 4)
    }
    loss = found["loss", "drm"]
    assert loss.label() == f"biggest loss for {columns[1].name}: chunks from a wrong document in the top 4, 0 % → 100 %"
    assert "+" not in loss.label() and "points" not in loss.label()


def test_picks_for_every_column_from_two_sweeps_and_the_page_opens_on_the_method_that_fixes_drm(tmp_path, bench):
    """Issue 45: SAC's cells in one sweep (with the baseline), the recommended method's in another
    (without one): every column has picks, each measured against the baseline of the same data, and
    the opening query is the typical gain of the method that gains most (not SAC's first typical)."""
    base = RunConfig(protocol="full", datasets=tuple(bench.datasets), summary=SummaryConfig(provider="file"))
    columns = compare.compare_columns(base)  # Baseline, SAC generic, Recommended
    assert [c.name.split(":")[0] for c in columns] == ["Baseline", "SAC generic", "Recommended"]
    n = len(bench.queries)
    _write_sweep(tmp_path / "aaa-sac", bench, columns[:2], lambda i, q: 0.75 if i == 0 else (0.5 if q % 2 else 1.0))
    _write_sweep(
        tmp_path / "bbb-recommended", bench, columns[2:], lambda i, q: 0.75 if q == 4 else 0.0 if q % 3 else 0.25
    )
    lookup = demo_picks.look_up([tmp_path], columns, bench)
    cells = lookup.cells
    assert cells is not None and cells.sweep == "aaa-sac and bbb-recommended"
    assert set(cells.methods) == {columns[1].name, columns[2].name}
    found = demo_picks.picks(cells, 4)
    assert {p.method for p in found} == {columns[1].name, columns[2].name}
    opening = demo_picks.default_pick(found)
    assert opening is not None and opening.method == columns[2].name and opening.kind == "typical"
    assert (opening.before, opening.after) == (0.75, 0.0)  # the clearest typical gain: the method right
    # the tie at the median change: a query where SAC generic does not lose is preferred
    sac = demo_picks.changes(
        cells.per_query, cells.baseline_of(columns[1].name), cells.methods[columns[1].name], "drm", 4
    )
    assert sac[opening.query_id] <= 0
    assert n > 6


def test_the_baseline_and_the_recommended_method_from_two_sweeps_neither_holding_both(tmp_path, bench):
    """Issue 45: Compare with Baseline and Recommended had no picks: the baseline's cells are in one sweep
    (lbr-mini-grid), the recommended method's in another without a baseline (family-lbr-mini)."""
    base = RunConfig(protocol="full", datasets=tuple(bench.datasets), summary=SummaryConfig(provider="file"))
    baseline, _, recommended = compare.compare_columns(base)
    _write_sweep(tmp_path / "aaa-grid", bench, [baseline], lambda i, q: 0.5)
    _write_sweep(tmp_path / "bbb-family", bench, [recommended], lambda i, q: 0.0 if q % 2 else 0.25)
    cells = demo_picks.look_up([tmp_path], [baseline, recommended], bench).cells
    assert cells is not None and cells.sweep == "aaa-grid and bbb-family" and set(cells.methods) == {recommended.name}
    opening = demo_picks.default_pick(demo_picks.picks(cells, 4))
    assert opening is not None and (opening.method, opening.before, opening.after) == (recommended.name, 0.5, 0.0)


def test_the_opening_prefers_a_query_whose_baseline_ranks_a_wrong_document_first(tmp_path, bench):
    """Issue 45: on the opening query the baseline's answer (from its first chunk) cites the wrong document."""
    base = RunConfig(protocol="full", datasets=tuple(bench.datasets), summary=SummaryConfig(provider="file"))
    baseline, _, recommended = compare.compare_columns(base)
    folder = _write_sweep(tmp_path / "one", bench, [baseline, recommended], lambda i, q: 0.5 if i == 0 else 0.0)
    table = pd.read_csv(folder.per_query)
    wrong_first = bench.queries[5].query_id  # only here is the baseline's first chunk from a wrong document
    table.loc[(table["k"] == 1) & (table["cell"] == "cell0"), "drm"] = 0.0
    table.loc[(table["k"] == 1) & (table["cell"] == "cell0") & (table["query_id"] == wrong_first), "drm"] = 1.0
    table.to_csv(folder.per_query, index=False)
    cells = demo_picks.find_cells([folder], baseline, [baseline, recommended], bench)
    assert demo_picks.default_pick(demo_picks.picks(cells, 4)).query_id == wrong_first


def test_the_opening_avoids_a_query_where_the_method_loses_the_gold_text(tmp_path, bench):
    """Issue 45 (seen on real lbr-mini): the opening query had Recommended at 0 % wrong-document chunks
    but recall@4 0 % where the baseline found gold text: right document, no answer. Among queries of
    the same DRM change, one where the method keeps the baseline's recall is the example."""
    base = RunConfig(protocol="full", datasets=tuple(bench.datasets), summary=SummaryConfig(provider="file"))
    baseline, _, recommended = compare.compare_columns(base)
    folder = _write_sweep(tmp_path / "one", bench, [baseline, recommended], lambda i, q: 0.5 if i == 0 else 0.0)
    table = pd.read_csv(folder.per_query)
    method = table["cell"] == "cell1"
    table.loc[method, "recall"] = 0.0  # the method misses the gold text everywhere ...
    keeps = bench.queries[7].query_id
    table.loc[method & (table["query_id"] == keeps), "recall"] = 0.5  # ... but here (as the baseline)
    table.to_csv(folder.per_query, index=False)
    cells = demo_picks.find_cells([folder], baseline, [baseline, recommended], bench)
    assert demo_picks.default_pick(demo_picks.picks(cells, 4)).query_id == keeps


def test_picks_are_computed_once_per_lookup(tmp_path, bench, monkeypatch):
    """A new session asks twice (its opening query and the picker); the server keeps one lookup."""
    columns = _columns(bench)
    folder = _write_sweep(tmp_path / "one", bench, columns, lambda i, q: 0.5 if i == 0 else float(q % 2) / 2)
    cells = demo_picks.find_cells([folder], columns[0], columns, bench)
    first = demo_picks.picks(cells, 4)
    monkeypatch.setattr(demo_picks, "changes", lambda *a, **k: pytest.fail("computed again"))
    assert demo_picks.picks(cells, 4) is first
