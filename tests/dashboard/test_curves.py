"""sac_core.dashboard.curves and sac_core.experiments.paper: sweep results → filtered curves, means, paper references."""

from __future__ import annotations

import pandas as pd
import pytest

from sac_core.dashboard import curve_entries, curve_views, curves
from sac_core.dashboard.demo_sweep import demo_sweep, run_with_progress
from sac_core.engine.data import available_datasets
from sac_core.experiments import paper

NAN = float("nan")


@pytest.fixture(scope="module")
def sweep_dir(demo_dir, embed_cache, tmp_path_factory):
    """A real (tiny) sweep on the demo corpus: baseline and SAC generic at chunk 500."""
    out = tmp_path_factory.mktemp("results") / "demo"
    calls = []
    sweep = demo_sweep(available_datasets(demo_dir), chunk_sizes=(500,), prompts=("generic",), ks=(1, 2, 4))
    run_with_progress(sweep, demo_dir, embed_cache, out, lambda f, m: calls.append((f, m)))
    return out, calls


def _table(rows):
    base = {
        "cell": "c0",
        "dataset": "ALL",
        "variant": "baseline",
        "k": 1,
        "drm": 0.5,
        "precision": 0.1,
        "recall": 0.2,
        "chunk_size": 500,
        "summary_chars": None,
        "semantic_weight": 1.0,
        "model": "m",
    }
    df = pd.DataFrame([{**base, **r} for r in rows])
    df["summary_chars"] = df["summary_chars"].astype("Int64")
    return df


# --------------------------------------------------------------------------- real sweep output


def test_demo_sweep_writes_what_the_page_reads(sweep_dir):
    out, calls = sweep_dir
    assert (out / "results.csv").is_file() and (out / "per_query.csv.gz").is_file()
    assert (out / "significance.csv").is_file()
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    df = curves.load_results(out / "results.csv")
    assert set(df["variant"]) == {"baseline", "sac-file-generic-150"}
    assert set(df["dataset"]) == {"demo_nda", "demo_privacy", "ALL"}
    assert set(df["k"]) == {1, 2, 4}
    assert str(df["summary_chars"].dtype) == "Int64"
    assert df.loc[df["variant"] == "baseline", "summary_chars"].isna().all()


def test_list_sweeps_finds_folders_and_a_root_that_is_one(sweep_dir, tmp_path):
    out, _ = sweep_dir
    found = curves.list_sweeps([out.parent, out, tmp_path / "missing"])
    assert [(s.name, s.path.resolve()) for s in found] == [("demo", out.resolve())]  # listed once
    assert found[0].tables == (out / "results.csv",)
    assert found[0].per_query.is_file() and found[0].significance.is_file()
    assert curves.list_sweeps([tmp_path]) == []


def test_loose_evaluation_tables_form_a_folder_with_a_cell_per_file(sweep_dir, tmp_path):
    out, _ = sweep_dir
    df = curves.load_results(out / "results.csv").drop(columns=["cell"])
    loose = tmp_path / "lbr-mini"
    loose.mkdir()
    for variant, rows in df.groupby("variant"):
        rows.to_csv(loose / f"{variant}.csv", index=False)
    (loose / "notes.csv").write_text("a,b\n1,2\n")  # not a results table: ignored
    (found,) = curves.list_sweeps([tmp_path])
    assert found.name == "lbr-mini" and [p.name for p in found.tables] == ["baseline.csv", "sac-file-generic-150.csv"]
    table = curves.load_folder(found)
    assert set(table["cell"]) == {"baseline", "sac-file-generic-150"}
    assert len(table) == len(df)
    assert not found.per_query.is_file()


def test_load_results_rejects_other_tables(tmp_path):
    path = tmp_path / "results.csv"
    pd.DataFrame({"a": [1]}).to_csv(path, index=False)
    with pytest.raises(ValueError, match="not a sweep results table"):
        curves.load_results(path)


def test_a_table_that_is_not_utf8_is_an_error_naming_it(tmp_path):
    path = tmp_path / "old" / "results.csv"
    path.parent.mkdir()
    path.write_bytes("dataset,variant,k,drm,precision,recall\nCUAD é,baseline,1,0.5,0.1,0.2\n".encode("latin-1"))
    (folder,) = curves.list_sweeps([tmp_path])
    with pytest.raises(ValueError) as err:
        curves.load_folder(folder)
    head = "dataset,variant,k,drm,precision,recall\nCUAD "
    assert str(err.value) == f"old/results.csv: not UTF-8 (invalid continuation byte at byte {len(head)})"  # issue 41
    with pytest.raises(ValueError, match=r"significance\.csv: not UTF-8"):
        curves.read_table(_latin1(tmp_path / "significance.csv"))


def _latin1(path):
    path.write_bytes("variant_a,variant_b\né,b\n".encode("latin-1"))
    return path


def test_sweep_labels_name_the_folder_never_a_server_path(sweep_dir, tmp_path):
    out, _ = sweep_dir
    made_here = out.parent  # <cache>/results: the demo sweep and imported runs
    (found,) = [f for f in curves.list_sweeps([made_here]) if f.path == out]
    assert curves.sweep_label(found, made_here) == "demo (made in the dashboard)"
    assert curves.sweep_label(found, tmp_path) == "demo"  # a committed one
    loose = tmp_path / "mine"
    loose.mkdir()
    pd.read_csv(out / "results.csv").to_csv(loose / "baseline.csv", index=False)
    (mine,) = curves.list_sweeps([tmp_path])
    assert curves.sweep_label(mine, made_here) == "mine (loose tables)"
    assert "/" not in curves.sweep_label(found, made_here) + curves.sweep_label(mine, tmp_path)


def test_flipped_on_the_real_sweep_matches_a_hand_join(sweep_dir):
    out, _ = sweep_dir
    results = curve_entries.with_entries(curves.load_results(out / "results.csv"))  # one cell per variant here
    pq = pd.read_csv(out / "per_query.csv.gz")
    table = curves.flipped(pq, results, "baseline", "sac-file-generic-150", "recall", 4)
    base = pq[(pq["variant"] == "baseline") & (pq["k"] == 4)].set_index("query_id")["recall"]
    sac = pq[(pq["variant"] == "sac-file-generic-150") & (pq["k"] == 4)].set_index("query_id")["recall"]
    changed = ((sac - base).abs() > 1e-12).sum()
    assert len(table) == changed > 0
    assert list(table.columns) == ["query_id", "dataset", "baseline", "sac-file-generic-150", "change"]
    row = table.iloc[0]
    assert row["change"] == pytest.approx(sac[row["query_id"]] - base[row["query_id"]])
    assert abs(table["change"]).is_monotonic_decreasing


# --------------------------------------------------------------------------- filtering


def test_selector_options_and_defaults_prefer_the_papers_main_setting():
    df = _table(
        [
            {"chunk_size": 200},
            {"chunk_size": 500},
            {"variant": "sac", "summary_chars": 300},
            {"variant": "sac", "summary_chars": 150},
            {"semantic_weight": 0.5},
        ]
    )
    opts = curves.selector_options(df)
    assert opts["chunk_size"] == [200, 500]
    assert opts["summary_chars"] == [150, 300]
    assert opts["semantic_weight"] == [0.5, 1.0]
    assert opts["model"] == ["m"]
    assert "protocol" not in opts  # not in the table
    assert curves.default_choices(opts) == {
        "chunk_size": 500,
        "summary_chars": 150,
        "semantic_weight": 1.0,
        "model": "m",
    }
    assert curves.default_choices({"chunk_size": [200, 800]}) == {"chunk_size": 200}


def test_the_page_opens_on_the_headline_sweep_else_the_full_grid(tmp_path):
    """Issue 45, point 4: Curves opens on headline-lbr-mini (the four methods together) when it is there."""
    names = ("backend-check", "headline-lbr-mini", "lbr-mini", "lbr-mini-grid")
    folders = [curves.SweepFolder(n, tmp_path / n) for n in names]
    assert curves.default_sweep(folders) == 1
    without = [f for f in folders if f.name != "headline-lbr-mini"]  # not computed yet: the grid, as before
    assert curves.default_sweep(without) == 2
    assert curves.default_sweep(without[:2]) == 0
    assert curves.default_sweep([]) == 0


def test_other_selectors_are_offered_only_when_they_vary_within_the_chosen_setting():
    # chunk 500 ran through torch, chunk 800 through ONNX; chunk 800 also ran with two seeds
    df = _table(
        [
            {"chunk_size": 500, "backend": "torch", "seed": 1},
            {"chunk_size": 800, "backend": "onnx", "seed": 1},
            {"chunk_size": 800, "backend": "onnx", "seed": 2},
        ]
    )
    main = curves.selector_options(df)
    assert "backend" not in main and "seed" not in main
    choices = curves.default_choices(main)
    assert curves.selector_options(df, choices) == {}  # backend never hides chunk 500's rows
    assert len(curves.select(df, choices)) == 1
    assert curves.selector_options(df, {**choices, "chunk_size": 800}) == {"seed": [1, 2]}


def test_select_keeps_the_baseline_for_any_summary_length():
    df = _table(
        [
            {"cell": "b", "variant": "baseline"},
            {"cell": "s150", "variant": "sac-150", "summary_chars": 150},
            {"cell": "s300", "variant": "sac-300", "summary_chars": 300},
            {"cell": "b200", "variant": "baseline", "chunk_size": 200},
            {"cell": "bw", "variant": "baseline", "semantic_weight": 0.25},
        ]
    )
    got = curves.select(df, {"chunk_size": 500, "summary_chars": 300, "semantic_weight": 1.0})
    assert list(got["cell"]) == ["b", "s300"]
    got = curves.select(df, {"semantic_weight": 0.25})
    assert list(got["cell"]) == ["bw"]
    got = curves.select(df, {"chunk_size": 500}, variants=["sac-150"], datasets=["ALL"])
    assert list(got["cell"]) == ["s150"]


def test_orders_and_colors():
    assert curves.variant_order(["sac-b", "baseline", "sac-a", "sac-b"]) == ["baseline", "sac-a", "sac-b"]
    assert curves.dataset_order(["maud", "ALL", "cuad"]) == ["ALL", "cuad", "maud"]
    assert curves.colors(["sac-a", "baseline"])["baseline"] == curves.PALETTE[0]


def test_mean_over_k_is_the_plain_mean_skipping_nan():
    df = _table(
        [
            {"k": 1, "drm": 0.2, "precision": 0.3},
            {"k": 2, "drm": 0.4, "precision": 0.1},
            {"k": 4, "drm": NAN, "precision": 0.2},
        ]
    )
    means = curves.mean_over_k(df.assign(entry=df["variant"]))
    assert len(means) == 1
    assert means.loc[0, "drm"] == pytest.approx(0.3)  # (0.2 + 0.4) / 2, NaN skipped
    assert means.loc[0, "precision"] == pytest.approx(0.2)
    assert means.loc[0, "ks"] == "1,2,4"


def test_mean_over_k_intervals_are_each_cells_own_bootstrap_at_the_k_shown():
    """One bootstrap for the cells that share their queries (a whole-benchmark sweep in a second, not
    one per cell) gives each cell exactly the interval of its own bootstrap over its own k values."""
    import numpy as np

    from sac_core.engine.metrics import means_with_intervals, over_k

    rng = np.random.default_rng(5)
    per_query = pd.DataFrame([
        {"cell": c, "query_id": f"{ds}/{i}", "dataset": ds, "k": k, "drm": rng.random(), "precision": rng.random(),
         "recall": rng.random()}
        for c in ("c1", "c2") for ds in ("a", "b") for i in range(30) for k in (1, 2, 4)
    ])  # fmt: skip
    shown = [{"cell": c, "variant": c, "dataset": ds, "k": k} for c in ("c1", "c2") for ds in ("a", "b", "ALL")
             for k in ((1, 2, 4) if c == "c1" else (1, 2))]  # c2 shown without its k = 4  # fmt: skip
    means = curves.mean_over_k(curve_entries.with_entries(_table(shown)), per_query=per_query).set_index(
        ["cell", "dataset"]
    )
    for cell, ks in (("c1", (1, 2, 4)), ("c2", (1, 2))):
        rows = per_query[(per_query["cell"] == cell) & per_query["k"].isin(ks)]
        alone = means_with_intervals(over_k(rows, curves.METRICS), curves.METRICS).set_index("dataset")
        for ds in ("a", "b", "ALL"):
            for column in ("drm_low", "drm_high", "precision_low", "recall_high"):
                assert means.loc[(cell, ds), column] == pytest.approx(alone.loc[ds, column], abs=1e-12)
    assert means.loc[("c1", "a"), "drm_low"] != means.loc[("c2", "a"), "drm_low"]


# --------------------------------------------------------------------------- figures and tables


def test_curves_figure_one_line_per_metric_dataset_variant_and_paper_marks():
    rows = [
        {"dataset": d, "variant": v, "cell": v, "k": k}
        for d in ("ALL", "cuad")
        for v in ("baseline", "sac")
        for k in (1, 2, 4, 8)
    ]
    df = _table(rows).assign(entry=lambda t: t["variant"])
    refs = paper.matching(500, 150, 1.0, k=8)  # the per-dataset DRM points, one of them cuad
    fig = curve_views.curves_figure(df, curves.METRICS, refs)
    lines = [t for t in fig.data if t.mode == "lines+markers"]
    marks = [t for t in fig.data if t.mode == "markers+text"]
    assert len(lines) == 3 * 2 * 2
    assert len(marks) == 1 and marks[0].x == (8,) and marks[0].y == (pytest.approx(10.0),)
    assert sum(t.showlegend for t in fig.data) == 3  # baseline, sac, paper once each
    assert fig.layout.xaxis.type == "log"
    assert list(fig.layout.xaxis.tickvals) == [1, 2, 4, 8]
    first = lines[0]
    assert list(first.y) == pytest.approx([50.0] * 4)  # percent


def test_means_figure_and_table_put_ours_beside_the_paper():
    means = pd.DataFrame(
        {
            "dataset": "ALL",
            "variant": ["baseline", "sac"],
            "entry": ["baseline", "sac"],
            "cell": ["b", "s"],
            "drm": [0.6, 0.2],
            "precision": [0.05, 0.1],
            "recall": [0.3, 0.4],
            "ks": "1,2",
        }
    )
    refs = paper.matching(500, 150, 1.0)
    fig = curve_views.means_figure(means, refs)
    names = [t.name for t in fig.data]
    assert names[:2] == ["baseline", "sac"]
    assert "paper SAC, mean over k (Table 1)" in names
    assert "paper baseline, mean over k (Text, approx.)" in names
    table = curve_views.comparison_table(means, refs)
    assert list(table.columns) == ["source", "DRM", "precision", "recall"]
    assert table.set_index("source").loc["sac"].tolist() == ["20.0%", "10.0%", "40.0%"]  # percent, one decimal
    assert table.set_index("source").loc["paper SAC"].tolist() == ["19.3%", "11.0%", "41.8%"]
    base = table.set_index("source").loc["paper baseline ≈"]
    assert base["DRM"] == "67.0%" and pd.isna(base["precision"])
    named = curve_views.comparison_table(means, refs, names={"baseline": "Baseline", "sac": "SAC generic"})
    assert list(named["source"])[:2] == ["Baseline", "SAC generic"]  # issue 36: names, not ids
    named_bars = [t.name for t in curve_views.means_figure(means, refs, names={"sac": "SAC generic"}).data]
    assert named_bars[:2] == ["baseline", "SAC generic"]
    with_intervals = means.assign(
        drm_low=[0.55, 0.15], drm_high=[0.65, 0.27], precision_low=[0.04, 0.09], precision_high=[0.06, 0.11],
        recall_low=[0.25, 0.35], recall_high=[0.35, 0.45],
    )  # fmt: skip
    shown = curve_views.comparison_table(with_intervals, refs).set_index("source")
    assert shown.loc["sac", "DRM"] == "20.0% ± 6.0" and shown.loc["baseline", "DRM"] == "60.0% ± 5.0"
    bars = curve_views.means_figure(with_intervals, refs).data[1]
    assert bars.error_y.array[0] == pytest.approx(7.0) and bars.error_y.arrayminus[0] == pytest.approx(5.0)


def test_significance_view_filters_setting_and_variants():
    sig = pd.DataFrame(
        {
            "variant_a": ["baseline", "baseline", "x"],
            "variant_b": ["sac", "sac", "sac"],
            "metric": "drm",
            "k": 1,
            "mean_a": 0.5,
            "mean_b": 0.2,
            "p_value": 0.01,
            "wins": 3,
            "ties": 0,
            "losses": 1,
            "chunk_size": [500, 200, 500],
        }
    )
    rows = pd.DataFrame({"cell": ["b", "s"], "variant": ["baseline", "sac"], "entry": ["baseline", "sac"]})
    got = curve_entries.significance_view(sig, {"chunk_size": 500, "summary_chars": 150}, rows)
    assert len(got) == 1 and got.loc[0, "variant_a"] == "baseline"
    assert "chunk_size" not in got.columns


def test_flipped_by_cell_with_hand_values():
    results = _table([{"cell": "A", "variant": "baseline"}, {"cell": "B", "variant": "sac"}]).assign(
        entry=lambda t: t["variant"]
    )
    pq = pd.DataFrame(
        {
            "cell": ["A", "A", "A", "B", "B", "B"],
            "query_id": ["q1", "q2", "q3"] * 2,
            "dataset": "d",
            "k": 4,
            "drm": [0.5, 0.25, 1.0, 0.0, 0.25, 0.75],
        }
    )
    got = curves.flipped(pq, results, "baseline", "sac", "drm", 4)
    assert got["query_id"].tolist() == ["q1", "q3"]
    assert got["change"].tolist() == pytest.approx([-0.5, -0.25])
    assert curves.flipped(pq, results, "baseline", "missing", "drm", 4).empty


def test_fmt_value_and_csv_bytes():
    assert curves.fmt_value("semantic_weight", 1.0) == "1 (dense)"
    assert curves.fmt_value("semantic_weight", 0.0) == "0 (BM25)"
    assert curves.fmt_value("semantic_weight", 0.75) == "0.75 (hybrid)"
    assert curves.fmt_value("chunk_size", 500) == "500"
    assert curves.fmt_value("summary_chars", NAN) == "—"
    assert curves.to_csv_bytes(pd.DataFrame({"a": [1]})) == b"a\n1\n"


def test_results_root_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(curves.RESULTS_ENV, str(tmp_path))
    assert curves.results_root() == tmp_path
    monkeypatch.delenv(curves.RESULTS_ENV)
    assert str(curves.results_root()) == "results"


def test_demo_sweep_grid():
    sweep = demo_sweep(("demo_nda",), chunk_sizes=(300, 500), prompts=("generic", "expert"))
    assert len(sweep.cells) == 2 * 3
    assert [c.variant for c in sweep.cells[:3]] == ["baseline", "sac-file-generic-150", "sac-file-expert-150"]
    assert all(c.protocol == "full" for c in sweep.cells)


# --------------------------------------------------------------------------- paper


def test_paper_tables_hold_the_published_values():
    t1 = {(p.chunk_size, p.summary_chars, p.metric): p.value for p in paper.TABLE_1}
    assert len(t1) == 18
    assert t1[(200, 150, "precision")] == pytest.approx(0.1064)
    assert t1[(200, 300, "drm")] == pytest.approx(0.2349)
    assert t1[(800, 300, "recall")] == pytest.approx(0.4390)
    t2 = {(p.semantic_weight, p.metric): p.value for p in paper.TABLE_2}
    assert t2[(0.25, "recall")] == pytest.approx(0.3656)
    assert t2[(0.75, "drm")] == pytest.approx(0.1911)
    assert {p.dataset: p.value for p in paper.DRM_AT_8} == {
        "cuad": 0.10,
        "maud": 0.15,
        "contractnli": 0.42,
        "privacy_qa": 0.28,
    }
    assert all(p.approx for p in paper.DRM_AT_8 + paper.BASELINE_DRM)
    assert len(paper.table()) == 18 + 9 + 4 + 1


def test_paper_matching():
    main = paper.matching(500, 150, 1.0)
    assert {(p.method, p.metric) for p in main} == {
        ("sac", "precision"),
        ("sac", "recall"),
        ("sac", "drm"),
        ("baseline", "drm"),
    }
    hybrid = paper.matching(500, 150, 0.5)
    assert {p.metric: p.value for p in hybrid} == {"precision": 0.0954, "recall": 0.4147, "drm": 0.1845}
    assert {p.method for p in paper.matching(200, 300, 1.0)} == {"sac"}  # the baseline number is at 500
    assert paper.matching(300, 150, 1.0) == []
    assert len(paper.matching(500, 150, 1.0, k=8)) == 4
    assert "mean over k" in main[0].label and "k=8" in paper.DRM_AT_8[0].label


def test_significance_and_flips_read_in_words_and_percent():
    sig = pd.DataFrame({"variant_a": ["baseline"], "variant_b": ["sac-file-generic-150"], "metric": ["drm"],
                        "k": [8], "mean_a": [0.5], "mean_b": [0.25], "p_value": [0.01]})  # fmt: skip
    names = {"baseline": "Baseline", "sac-file-generic-150": "SAC generic"}
    shown = curve_views.significance_shown(sig, names)
    assert list(shown.columns) == ["method a", "method b", "metric", "k", "mean of a", "mean of b", "p-value"]
    assert shown.iloc[0].tolist()[:5] == ["Baseline", "SAC generic", "DRM", 8, 50.0]
    flips = pd.DataFrame({"query_id": ["q/1"], "dataset": ["q"], "baseline": [0.5], "sac-file-generic-150": [1.0],
                          "change": [0.5]})  # fmt: skip
    shown = curve_views.flips_shown(flips, "baseline", "sac-file-generic-150", names)
    assert list(shown.columns) == ["query", "dataset", "Baseline", "SAC generic", "change"]
    assert shown.iloc[0].tolist() == ["q/1", "q", 50.0, 100.0, 50.0]


def test_the_paper_table_reads_in_words_and_percent():
    table = curve_views.paper_table()
    assert {"chunk size", "summary length", "semantic weight", "metric", "value"} <= set(table.columns)
    assert not [c for c in table.columns if "_" in c]
    assert set(table["method"]) == {"Baseline", "SAC"} and set(table["metric"]) <= {"DRM", "precision", "recall"}
    assert all(v.endswith("%") and len(v.split(".")[-1]) == 2 for v in table["value"])  # one decimal, then "%"


def test_a_table_without_provenance_says_it_was_never_checked_against_the_data():
    old = pd.DataFrame({"cell": ["a"], "variant": ["baseline"], "precision": [0.1]})
    assert curves.provenance(old) == [curves.UNIDENTIFIED[:1].upper() + curves.UNIDENTIFIED[1:] + "."]
    new = old.assign(sac_version="0.1.0", git_commit="1a2b3c4d5e6f7a8b", git_dirty="no", data_digest="abc")
    assert curves.provenance(new) == ["Computed by sac-dashboard 0.1.0, commit 1a2b3c4d5e6f on data abc (1 cell)."]
