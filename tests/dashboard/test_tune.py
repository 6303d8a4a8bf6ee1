"""sac_core.dashboard.tune: settings answered from saved per-query results, instant stops, the diff."""

from __future__ import annotations

import gzip
import math

import pandas as pd
import pytest

from sac_core.dashboard import tune
from sac_core.engine.data import load_benchmark
from sac_core.engine.metrics import METRICS
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, Sweep, run_sweep

DEMO = ("demo_nda", "demo_privacy")
BASE = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file"))


def _results(rows: dict[str, dict[str, float]], k: int = 4) -> pd.DataFrame:
    return pd.DataFrame([{"index": i, "k": k, **{m: v.get(m, 0.0) for m in METRICS}} for i, v in rows.items()])


def test_a_setting_is_a_baseline_and_a_sac_cell_on_the_pooled_corpus():
    variants = tune.TuneSetting(300, "extractive", 220, 0.25).variants(BASE.with_(chunk_overlap=10))
    assert list(variants) == ["Baseline", "SAC extractive"]
    for cfg in variants.values():
        assert (cfg.chunk_size, cfg.chunk_overlap, cfg.semantic_weight, cfg.ks) == (300, 0, 0.25, tune.KS)
        assert cfg.datasets == DEMO  # every dataset: one pool, as Compare and the sweeps
    assert (variants["SAC extractive"].summary.provider, variants["SAC extractive"].summary.chars) == (
        "extractive",
        220,
    )
    assert list(tune.TuneSetting().variants(BASE)) == ["Baseline", "SAC generic"]
    assert "chunk 300" in tune.TuneSetting(300).label


@pytest.fixture(scope="module")
def published(demo_dir, embed_cache, tmp_path_factory):
    """A committed-looking sweep folder: baseline and SAC generic-150 at chunk 500, weights 1 and 0.5."""
    cells = tuple(cfg for w in (1.0, 0.5) for cfg in tune.TuneSetting(500, "file", 150, w).variants(BASE).values())
    out = tmp_path_factory.mktemp("published") / "grid"
    run_sweep(Sweep("grid", cells), demo_dir, embed_cache, out, progress=False)
    return out


def test_committed_cells_answer_without_a_model_and_other_stops_do_not(published, demo_dir, tmp_path, monkeypatch):
    def no_model(*args, **kwargs):
        raise AssertionError("an embedder was created")

    monkeypatch.setattr("sac_core.engine.embedding.embedder.Embedder.__init__", no_model)
    bench = load_benchmark(demo_dir, DEMO, "full")
    lookup = tune.Lookup(tune.read_published([published]), tmp_path / "empty-cache")
    setting = tune.TuneSetting(500, "file", 150, 1.0)
    found = {name: lookup.find(cfg, bench) for name, cfg in setting.variants(BASE).items()}
    assert all(f is not None and f.source == "committed" for f in found.values())
    table = tune.results(found)
    assert set(table["index"]) == {"Baseline", "SAC generic"} and sorted(set(table["k"])) == list(tune.KS)
    sac8 = table[(table["index"] == "SAC generic") & (table["k"] == 8)].iloc[0]
    per_query = found["SAC generic"].per_query
    at8 = per_query[per_query["k"] == 8]
    assert sac8["drm"] == pytest.approx(at8.groupby("dataset")["drm"].mean().mean())  # macro over datasets
    only_nda = tune.results(found, ["demo_nda"])
    assert only_nda[only_nda["index"] == "SAC generic"].set_index("k").loc[8, "drm"] == pytest.approx(
        at8[at8["dataset"] == "demo_nda"]["drm"].mean()
    )
    assert tune.instant_stops(lookup, bench, BASE, setting, "chunk_size", tune.CHUNK_SIZES) == {500}
    assert tune.instant_stops(lookup, bench, BASE, setting, "semantic_weight", tune.WEIGHTS) == {0.5, 1.0}
    assert lookup.find(tune.TuneSetting(300).variants(BASE)["Baseline"], bench) is None


def test_a_cell_computed_here_becomes_instant(published, demo_dir, tmp_path):
    cache = tmp_path / "cache"  # not the session cache: the Tune page tests expect chunk 300 not computed
    bench = load_benchmark(demo_dir, DEMO, "full")
    setting = tune.TuneSetting(300, "file", 150, 1.0)
    lookup = tune.Lookup({}, cache)
    assert not all(lookup.available(c, bench) for c in setting.variants(BASE).values())
    run_sweep(Sweep("here", tuple(setting.variants(BASE).values())), demo_dir, cache, tmp_path / "o", progress=False)
    found = [tune.Lookup({}, cache).find(c, bench) for c in setting.variants(BASE).values()]
    assert all(f is not None and f.source == "computed here" for f in found)


def test_cell_jobs_and_the_chunk_estimate(demo_dir, tmp_path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    jobs = tune.cell_jobs(tune.TuneSetting(300).variants(BASE), demo_dir, tmp_path)
    assert [j.kind for j in jobs] == ["cell", "cell"] and jobs[0].key != jobs[1].key
    chars = sum(len(d.text) for d in bench.documents.values())
    assert tune.estimated_chunks(bench, 300) == chars // 300


def test_at_k_rows_per_index():
    df = pd.concat([_results({"Baseline": {"drm": 0.5}}, k=1), _results({"Baseline": {"drm": 0.25}}, k=4)])
    assert tune.at_k(df, 4).loc["Baseline", "drm"] == 0.25
    assert list(tune.at_k(df, 1).columns) == list(METRICS)


def test_diff_table_hand_computed():
    old = _results({"Baseline": {"drm": 0.50, "precision": 0.10, "recall": 0.40},
                    "SAC generic": {"drm": 0.30, "precision": 0.20, "recall": 0.50}})  # fmt: skip
    new = _results({"Baseline": {"drm": 0.50, "precision": 0.08, "recall": 0.60},
                    "SAC generic": {"drm": 0.20, "precision": 0.20, "recall": 0.45},
                    "SAC expert": {"drm": 0.10, "precision": 0.30, "recall": 0.70}})  # fmt: skip
    diff = tune.diff_table(new, old, 4).set_index(["index", "metric"])
    assert diff.loc[("Baseline", "drm"), "change"] == 0.0
    assert diff.loc[("Baseline", "drm"), "better"] is None  # unchanged
    assert diff.loc[("Baseline", "precision"), "change"] == pytest.approx(-0.02)
    assert diff.loc[("Baseline", "precision"), "better"] is False
    assert diff.loc[("SAC generic", "drm"), "better"] is True  # lower DRM is better
    assert diff.loc[("SAC generic", "recall"), "better"] is False
    assert math.isnan(diff.loc[("SAC expert", "drm"), "previous"])
    assert diff.loc[("SAC expert", "drm"), "better"] is None
    view = tune.diff_view(tune.diff_table(new, old, 4), True)
    assert view.loc[view["index"] == "SAC generic", "better"].tolist() == ["✓ better", "", "✗ worse"]
    assert "previous" not in tune.diff_view(tune.diff_table(new, None, 4), False).columns


def test_marks_and_the_figure():
    assert tune.instant_caption((300, 500, 800), {800, 500}) == "⚡ instant: 500, 800"  # slider order
    assert tune.instant_caption((0.25, 0.5, 1.0), {1.0, 0.5}) == "⚡ instant: 0.5, 1"
    assert tune.instant_caption((300,), set()) == "⚡ instant: none at the other sliders' values"
    fig = tune.curves_figure(pd.concat([_results({"Baseline": {"drm": 0.5}}, k=k) for k in (1, 4)]))
    assert len(fig.data) == 3  # one line per metric panel for one index


def test_a_folder_with_a_bad_per_query_table_is_skipped_not_fatal(tmp_path, caplog):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "per_query.csv.gz").write_bytes(gzip.compress(b"cell,query_id\nx,q\n"))
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "per_query.csv.gz").write_bytes(b"not gzip at all")
    assert tune.read_published([tmp_path / "bad", tmp_path / "broken"]) == {}
    assert "per_query.csv.gz: not a per-query results table, skipped" in caplog.text
