import pandas as pd
import pytest

from sac_core.experiments.report import at_k, cell_means, lbr_table, mean_over_k, to_latex


def table():
    rows = []
    for variant, drm in (("baseline", 0.6), ("sac", 0.2)):
        for k in (1, 2):
            for ds in ("a", "b", "ALL"):
                rows.append(
                    {
                        "dataset": ds,
                        "variant": variant,
                        "k": k,
                        "chunk_size": 500,
                        "semantic_weight": 1.0,
                        "drm": drm + 0.1 * k,
                        "precision": 0.1 * k,
                        "recall": 0.2 * k,
                    }
                )
    return pd.DataFrame(rows)


def test_mean_over_k_in_percent():
    m = mean_over_k(table()).reset_index().set_index("variant")
    assert m.loc["baseline", "drm"] == pytest.approx(75.0)  # (0.7 + 0.8) / 2
    assert m.loc["sac", "precision"] == pytest.approx(15.0)


def test_at_k_per_dataset_with_all_last():
    t = at_k(table(), k=2)
    assert list(t.columns) == ["a", "b", "ALL"]
    assert t.loc["sac", "a"] == pytest.approx(40.0)  # constant settings are not index levels


def test_varying_settings_become_index_levels():
    t = table()
    t.loc[t["variant"] == "sac", "chunk_size"] = 800
    assert mean_over_k(t).index.names == ["variant", "chunk_size"]


def test_backend_changes_compares_each_cell_with_its_twin_query_by_query():
    from sac_core.experiments import RunConfig
    from sac_core.experiments.report import backend_changes

    base = RunConfig().columns()
    cells = {"bt": ("baseline", "torch"), "bi": ("baseline", "onnx-int8")}
    results = pd.DataFrame([{**base, "cell": c, "variant": v, "backend": b, "dataset": "ALL", "k": 1}
                            for c, (v, b) in cells.items()])  # fmt: skip
    drm = {"bt": [0.0, 1.0, 1.0, 0.0], "bi": [0.0, 1.0, 0.0, 0.0]}  # one query of four changed
    per_query = pd.DataFrame([{"cell": c, "query_id": f"q{i}", "dataset": "d", "k": 1, "drm": d, "precision": 0.1,
                               "recall": 0.5} for c, values in drm.items() for i, d in enumerate(values)])  # fmt: skip
    changes = backend_changes(results, per_query, "torch", "onnx-int8").set_index("metric")
    assert changes.loc["drm", "changed"] == 0.25 and changes.loc["precision", "changed"] == 0.0
    assert changes.loc["drm", "mean_a"] == 0.5 and changes.loc["drm", "mean_b"] == 0.25
    assert changes.loc["drm", "wins"] == 1  # lower DRM is better: int8 wins that query


def test_without_queries_recomputes_each_dataset_and_the_macro_mean():
    from sac_core.experiments.report import without_queries

    per_query = pd.DataFrame([
        {"cell": "c", "query_id": "a/0", "dataset": "a", "k": 1, "drm": 1.0, "precision": 0.0, "recall": 0.0},
        {"cell": "c", "query_id": "a/1", "dataset": "a", "k": 1, "drm": 0.0, "precision": 0.5, "recall": 1.0},
        {"cell": "c", "query_id": "b/0", "dataset": "b", "k": 1, "drm": 0.0, "precision": 0.1, "recall": 0.2},
        {"cell": "c", "query_id": "b/1", "dataset": "b", "k": 1, "drm": 1.0, "precision": 0.3, "recall": 0.4},
    ])  # fmt: skip
    results = pd.DataFrame([{"cell": "c", "variant": "sac", "chunk_size": 500, "dataset": "ALL", "k": 1,
                             "drm": 0.5, "precision": 0.225, "recall": 0.4, "n_queries": 4,
                             "drm_low": 0.1, "drm_high": 0.9}])  # fmt: skip
    table = without_queries(results, per_query, {"a/0", "b/1"}).set_index("dataset")
    assert table.loc["a", "drm"] == 0.0 and table.loc["b", "precision"] == 0.1
    # intervals of the queries left (one per dataset: no spread), not the full table's
    assert (table.loc["a", "drm_low"], table.loc["a", "drm_high"]) == (0.0, 0.0)
    assert (table.loc["b", "precision_low"], table.loc["b", "precision_high"]) == pytest.approx((0.1, 0.1))
    assert table.loc["ALL", "recall"] == pytest.approx(0.6)  # (1.0 + 0.2) / 2 over the datasets
    assert table.loc["ALL", "variant"] == "sac" and table.loc["ALL", "chunk_size"] == 500
    only_b = without_queries(results, per_query, {"a/0", "a/1"}).set_index("dataset")
    assert "a" not in only_b.index and only_b.loc["ALL", "drm"] == 0.5  # a dataset left empty drops out


def test_legalbench_rag_table_gives_precision_at_1_and_recall_at_64_per_dataset():
    rows = [
        {"dataset": ds, "variant": "m", "k": k, "precision": p, "recall": r, "drm": 0.0}
        for ds, k, p, r in (
            ("a", 1, 0.5, 0.1),
            ("a", 64, 0.01, 0.9),
            ("b", 1, 0.25, 0.2),
            ("b", 64, 0.02, 0.7),
            ("ALL", 1, 0.375, 0.15),
            ("ALL", 64, 0.015, 0.8),
        )
    ]
    t = lbr_table(pd.DataFrame(rows))
    assert list(t.columns) == [
        ("a", "P@1"),
        ("a", "R@64"),
        ("b", "P@1"),
        ("b", "R@64"),
        ("ALL", "P@1"),
        ("ALL", "R@64"),
    ]
    assert t.loc["m"].tolist() == [50.0, 90.0, 25.0, 70.0, 37.5, 80.0]
    latex = to_latex(t)
    assert "\\toprule" in latex and "P@1" in latex and "50.00" in latex


def test_latex_escapes_names():
    frame = pd.DataFrame({"precision": [1.234]}, index=pd.Index(["a_b & 100%"], name="variant_name"))
    latex = to_latex(frame)
    assert "a\\_b \\& 100\\%" in latex and "variant\\_name" in latex and "1.23" in latex


def _sweep(seed: int = 3) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Three cells (one with its queries in another order) over two datasets: results and per-query rows."""
    import numpy as np

    rng = np.random.default_rng(seed)
    per_query, results = [], []
    for cell in ("c1", "c2", "c3"):
        queries = [(ds, f"{ds}/{i}") for ds in ("a", "b") for i in range(12)]
        if cell == "c3":
            queries = queries[::-1]
        for ds, qid in queries:
            for k in (1, 2, 4):
                values = dict(zip(("drm", "precision", "recall"), rng.random(3)))
                per_query.append({"cell": cell, "query_id": qid, "dataset": ds, "k": k, **values})
    pq = pd.DataFrame(per_query)
    for (cell, ds, k), group in pq.groupby(["cell", "dataset", "k"], sort=False):
        results.append(
            {"cell": cell, "dataset": ds, "k": k, "variant": cell, **group[["drm", "precision", "recall"]].mean()}
        )
    res = pd.DataFrame(results)
    macro = res.groupby(["cell", "k", "variant"], as_index=False)[["drm", "precision", "recall"]].mean()
    return pd.concat([res, macro.assign(dataset="ALL")], ignore_index=True), pq


def test_cell_means_are_mean_over_k_of_each_cell_with_the_same_intervals():
    results, pq = _sweep()
    by_cell = cell_means(results, pq)
    assert list(by_cell.index) == ["c1", "c2", "c3"]
    for cell in by_cell.index:
        one = mean_over_k(results[results["cell"] == cell], per_query=pq).iloc[0]
        assert by_cell.loc[cell].to_dict() == one[by_cell.columns].to_dict()
    assert {"precision_low", "precision_high", "drm_low", "recall_high"} <= set(by_cell.columns)
    assert list(cell_means(results).columns) == ["precision", "recall", "drm"]  # no per-query rows: no intervals


def test_dataset_means_gives_every_dataset_and_all_with_the_same_numbers_as_cell_means():
    from sac_core.experiments.report import dataset_means

    per_query = pd.DataFrame([
        {"cell": c, "query_id": f"{ds}/{i}", "dataset": ds, "k": k, "drm": d, "precision": 0.1 * k, "recall": 0.5}
        for c, shift in (("c1", 0.0), ("c2", 0.5))
        for ds, values in (("a", (0.0, 1.0)), ("b", (0.5, 0.5)))
        for i, d0 in enumerate(values)
        for k, d in ((1, d0 * (1 - shift)), (2, d0))
    ])  # fmt: skip
    by_ds = per_query.groupby(["cell", "dataset", "k"], as_index=False)[["drm", "precision", "recall"]].mean()
    macro = by_ds.groupby(["cell", "k"], as_index=False)[["drm", "precision", "recall"]].mean().assign(dataset="ALL")
    table = pd.concat([by_ds, macro], ignore_index=True).assign(variant=lambda t: t["cell"])
    found = dataset_means(table, per_query)
    # c2 on a: k=1 (0 + 0.5)/2 = 0.25, k=2 (0 + 1)/2 = 0.5 → 37.5 %; on b: k=1 0.25, k=2 0.5 → 37.5
    assert found.loc[("c2", "a"), "drm"] == 37.5 and found.loc[("c1", "b"), "drm"] == 50.0
    assert found.loc[("c2", "ALL"), "precision"] == pytest.approx(15.0)
    assert {"drm_low", "drm_high"} <= set(found.columns)
    assert found.loc[("c1", "b"), "drm_low"] == found.loc[("c1", "b"), "drm_high"] == 50.0  # no spread: one value
    all_rows = cell_means(table, per_query)
    for cell in ("c1", "c2"):
        assert found.loc[(cell, "ALL")].to_dict() == all_rows.loc[cell].to_dict()
