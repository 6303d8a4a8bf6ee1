"""sac_core.dashboard.tune: settings answered from saved per-query results, instant stops, the diff."""

from __future__ import annotations

import gzip
import math
from dataclasses import replace

import pandas as pd
import pytest

from sac_core.dashboard import rates, tune, tune_stops
from sac_core.engine.data import load_benchmark
from sac_core.engine.metrics import METRICS
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, Sweep, run_sweep

DEMO = ("demo_nda", "demo_privacy")
BASE = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file"))


def _results(rows: dict[str, dict[str, float]], k: int = 4, half: float = 0.005) -> pd.DataFrame:
    """Tune's table: each metric with a 95 % interval of ``half`` either side."""
    return pd.DataFrame(
        [
            {"index": i, "k": k, **{m: v.get(m, 0.0) for m in METRICS},
             **{m + s: v.get(m, 0.0) + d for m in METRICS for s, d in (("_low", -half), ("_high", half))}}
            for i, v in rows.items()
        ]
    )  # fmt: skip


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
    lookup = tune.Lookup(tune.read_published([published]), tmp_path / "empty-cache", demo_dir)
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
    lookup = tune.Lookup({}, cache, demo_dir)
    assert not all(lookup.available(c, bench) for c in setting.variants(BASE).values())
    run_sweep(Sweep("here", tuple(setting.variants(BASE).values())), demo_dir, cache, tmp_path / "o", progress=False)
    found = [tune.Lookup({}, cache, demo_dir).find(c, bench) for c in setting.variants(BASE).values()]
    assert all(f is not None and f.source == "computed here" for f in found)


def test_a_setting_whose_summaries_were_not_made_is_asked_again_once_they_are(demo_dir, tmp_path):
    """A new extractive length has no summaries until a build makes them: no cell id then, and the
    lookup does not remember that, so the setting is found once the build has made them."""
    from sac_core.engine.summaries import summarize_documents

    bench = load_benchmark(demo_dir, DEMO, "full")
    sac = tune.TuneSetting(300, "extractive", 173, 1.0).variants(BASE)["SAC extractive"]
    lookup = tune.Lookup({}, tmp_path, demo_dir)
    assert lookup.cell_id(sac, bench) is None
    texts = {p: d.text for p, d in bench.documents.items()}
    summarize_documents(texts, sac.summary, tmp_path, progress=False)  # what the build does first
    assert lookup.cell_id(sac, bench) is not None


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
    assert view.loc[view["method"] == "SAC generic", "verdict"].tolist() == ["✓ better", "no change", "✗ worse"]
    assert view.loc[view["method"] == "SAC generic", "new"].tolist() == ["20.0% ± 0.5", "20.0% ± 0.5", "45.0% ± 0.5"]
    assert view.loc[view["method"] == "SAC generic", "change"].tolist() == ["-10.0 pts", "±0.0 pts", "-5.0 pts"]
    assert view.loc[view["method"] == "SAC expert", "previous"].tolist() == ["—"] * 3  # never "None" or "nan"


def test_an_unchanged_value_is_never_better_even_with_a_zero_width_interval():
    """Issue 36: Tune called +0.00 "✓ better" when every query scored the same (an interval of width 0)
    and the previous value differed in the last bits of a float."""
    old = _results({"Baseline": {"drm": 0.5 + 1e-12, "recall": 0.4}})
    new = _results({"Baseline": {"drm": 0.5, "recall": 0.4002}}, half=0.0)
    diff = tune.diff_table(new, old, 4).set_index(["index", "metric"])
    assert diff.loc[("Baseline", "drm"), "better"] is None and diff.loc[("Baseline", "recall"), "better"] is None
    view = tune.diff_view(tune.diff_table(new, old, 4), True).set_index("metric")
    assert view.loc["DRM", "verdict"] == "no change" and view.loc["DRM", "change"] == "±0.0 pts"


def test_a_change_within_the_new_values_interval_is_not_called_better_or_worse():
    old = _results({"Baseline": {"drm": 0.50, "recall": 0.40}})
    new = _results({"Baseline": {"drm": 0.5002, "recall": 0.43}}, half=0.02)  # DRM +0.02 pts, recall +3 pts
    diff = tune.diff_table(new, old, 4).set_index(["index", "metric"])
    assert diff.loc[("Baseline", "drm"), "better"] is None  # 0.50 lies inside [0.4802, 0.5202]
    assert diff.loc[("Baseline", "recall"), "better"] is True  # 0.40 lies below [0.41, 0.45]
    assert "previous" not in tune.diff_view(tune.diff_table(new, None, 4), False).columns
    view = tune.diff_view(tune.diff_table(new, old, 4), True).set_index("metric")
    assert view.loc["DRM", "verdict"] == "no change" and view.loc["recall", "verdict"] == "✓ better"


def test_the_full_table_reads_in_percent_with_intervals():
    view = tune.full_view(_results({"Baseline": {"drm": 0.5, "precision": 0.1, "recall": 0.4}}))
    assert list(view.columns)[:5] == ["method", "k", "DRM", "precision", "recall"]
    assert view.iloc[0].tolist()[:5] == ["Baseline", 4, "50.0% ± 0.5", "10.0% ± 0.5", "40.0% ± 0.5"]


def test_marks_and_the_figure():
    assert tune.instant_caption((300, 500, 800), {800, 500}) == "⚡ instant: 500, 800"  # slider order
    assert tune.instant_caption((0.25, 0.5, 1.0), {1.0, 0.5}) == "⚡ instant: 0.5, 1"
    assert tune.instant_caption((300,), set()) == "⚡ instant: none at the other sliders' values"
    fig = tune.curves_figure(pd.concat([_results({"Baseline": {"drm": 0.5}}, k=k) for k in (1, 4)]))
    assert len(fig.data) == 6  # per metric panel: one line and its interval band for one index
    assert sum(1 for t in fig.data if t.fill == "toself") == 3


def test_a_folder_with_a_bad_per_query_table_is_skipped_not_fatal(tmp_path, caplog):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "per_query.csv.gz").write_bytes(gzip.compress(b"cell,query_id\nx,q\n"))
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "per_query.csv.gz").write_bytes(b"not gzip at all")
    assert tune.read_published([tmp_path / "bad", tmp_path / "broken"]) == {}
    assert "per_query.csv.gz: not a per-query results table, skipped" in caplog.text


@pytest.mark.parametrize(
    "setting",
    [tune.TuneSetting(), tune.TuneSetting(300, "extractive", 220, 0.25), tune.TuneSetting(800, "file", 300, 0.5)],
)
def test_the_baseline_and_sac_cells_are_those_tune_always_made(setting):
    """Every method with presets can be shown now; baseline and SAC stay exactly the cells they were
    (the committed grid answers them by id)."""
    base = BASE.with_(chunk_overlap=10)
    common = base.with_(
        chunk_size=setting.chunk_size, chunk_overlap=0, semantic_weight=setting.semantic_weight, ks=tune.KS
    )
    summary = replace(base.summary, provider=setting.provider, prompt="generic", chars=setting.chars)
    sac = "SAC extractive" if setting.provider == "extractive" else "SAC generic"
    before = {
        "Baseline": common.with_(method="baseline", summary=base.summary),
        sac: common.with_(method="sac", summary=summary),
    }
    assert setting.variants(base) == before
    presets = tune.method_presets(base, setting.provider, tune.default_methods(base))
    assert setting.variants(base, presets) == before


def test_every_catalogue_entry_is_offered_recommended_among_them(monkeypatch):
    """Issue 45: Tune's method list is Compare's catalogue (Recommended is a stage's preset, which the
    list of methods with presets left out: "No results" when typing it)."""
    monkeypatch.delenv("SAC_RETRIEVERS", raising=False)
    offered = tune.tune_methods(BASE)
    assert list(offered)[:3] == ["baseline", "sac-generic", "recommended"]  # Compare's default columns first
    assert "sac-expert" in offered and tune.default_methods(BASE) == ["baseline", "sac-generic"]
    assert offered["recommended"].startswith("Recommended") and "doc-aware" in offered
    assert "hybrid" not in offered  # the baseline at weight 0.5: the weight slider makes it
    assert "retriever" not in offered  # no operator retrievers listed: no presets, nothing to vary
    presets = tune.method_presets(BASE, "file", ["sac-generic", "baseline", "recommended"])
    assert [p.title for p in presets.values()] == ["SAC generic", "Baseline", offered["recommended"]]  # as chosen
    hybrid = tune.TuneSetting(400, "file", 300, 0.5).variants(BASE, presets)
    assert hybrid["SAC generic"].summary.chars == 300 and hybrid["Baseline"].semantic_weight == 0.5
    recommended = hybrid[offered["recommended"]]
    assert (recommended.chunk_size, recommended.semantic_weight) == (400, 0.5) and recommended.stages
    assert tune.method_presets(BASE, "extractive", ["sac-expert"]) == {}  # no prompt: no expert entry


def test_the_sliders_stop_at_computed_settings_and_any_other_has_its_cost(published, demo_dir, tmp_path):
    """Issue 45, point 10: the weight slider's first step (0.95) was never computed; one arrow step from
    chunk 500 landed on 450. The stops are the settings that answer at once, plus the current one."""
    bench = load_benchmark(demo_dir, DEMO, "full")
    lookup = tune.Lookup(tune.read_published([published]), tmp_path / "empty-cache", demo_dir)
    found = tune_stops.published_stops([published, tmp_path / "no-such-folder"])
    assert found == {"chunk_size": (500,), "chars": (150,), "semantic_weight": (0.5, 1.0)}
    setting, presets = (
        tune.TuneSetting(500, "file", 150, 1.0),
        tune.method_presets(BASE, "file", ["baseline", "sac-generic"]),
    )
    weights = tune_stops.candidates(tune.WEIGHTS, found["semantic_weight"])
    instant = tune.instant_stops(lookup, bench, BASE, setting, "semantic_weight", weights, presets)
    assert tune_stops.stops(instant, 1.0) == [0.5, 1.0]  # no 0.95
    chunks = tune.instant_stops(lookup, bench, BASE, setting, "chunk_size", tune.CHUNK_SIZES, presets)
    assert tune_stops.stops(chunks, 500) == [500] and tune_stops.stops(chunks, 450) == [450, 500]  # asked: kept
    missing = tune.TuneSetting(450, "file", 150, 1.0).variants(BASE, presets)
    cost = tune_stops.build_cost(missing, bench, tmp_path / "empty-cache")
    assert (cost.cells, cost.indexes, cost.chunks) == (2, 2, tune.estimated_chunks(bench, 450))
    assert cost.texts == 2 * cost.chunks and cost.seconds == pytest.approx(
        cost.texts / rates.DEFAULT_EMBED_RATE
    )  # nothing measured there
    assert cost.describe().startswith(f"about {cost.chunks:,} chunks to embed for each of 2 indexes, then every query")
