"""Curves and Tune under AppTest, as a researcher uses them (issue 45, points 8 to 11; issue 42): a
sweep without paired tests, two configurations of one variant id, opening a query of another
protocol on Compare, Tune's stops and its method list, which protocol the numbers are on."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import tune
from sac_core.dashboard.curves import demo_sweep
from sac_core.dashboard.state import ensure_demo_corpus
from sac_core.engine.data import available_datasets, write_csv
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import METHODS, Method, OpenContext, Opened, Preset, RunConfig, Sweep, option, run_sweep
from sac_core.experiments.cells import SweepFolder
from sac_core.experiments.sweep import load_sweep, significance

TIMEOUT = 240
ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def _app(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _unmd(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _texts(at: AppTest) -> str:
    return "\n".join(_unmd(e.value) for e in [*at.caption, *at.warning, *at.info, *at.error, *at.main.markdown])


def _plotly(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def _sweep(cells: tuple[RunConfig, ...], name: str, demo: Path, cache: Path, root: Path) -> Path:
    run_sweep(Sweep(name, cells), demo, cache, root / name, progress=False)
    return root / name


# --------------------------------------------------------------------------- Curves


def test_curves_goes_on_past_a_sweep_without_paired_tests(env, results_dir, tmp_path, monkeypatch):
    """Point 8: a committed folder whose significance.csv is one byte (written before the fix)."""
    shutil.copytree(results_dir / "demo", tmp_path / "results" / "demo")
    (tmp_path / "results" / "demo" / "significance.csv").write_text("\n", encoding="utf-8")
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "results"))
    at = _app("app_pages/curves.py")
    assert not at.error, [e.value for e in at.error]  # was: "demo/significance.csv: empty, not a CSV table"
    assert any("No paired tests in this sweep" in c.value for c in at.caption)
    flips = at.dataframe[-1].value
    assert {"query", "change"} <= set(flips.columns) and len(flips) > 0  # the page went on


NAME = "same-id"


@dataclass(frozen=True)
class SameIdOptions:
    depth: int = option(default=1, help="how deep it looks")


class SameId(Method[RunConfig]):
    """A plug-in whose variant id names none of its options: two depths, one id (as in
    tests/dashboard/test_curve_entries.py, whose tables these are)."""

    name = NAME
    title = "Same id (test)"
    Options = SameIdOptions

    def variant(self, config: RunConfig) -> str:
        return self.name

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        raise NotImplementedError

    def presets(self, base: RunConfig) -> dict[str, Preset[RunConfig]]:
        return {self.name: Preset(self.title, base.with_(method=self.name, options=()))}


def sweep_tables(configs: list[RunConfig]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Results (ALL, demo_nda; k 1 and 8) and per-query rows of ``configs`` with hand-made metrics."""
    results, per_query = [], []
    for i, config in enumerate(configs):
        for k in (1, 8):
            for dataset in ("ALL", "demo_nda"):
                metrics = {"drm": 0.1 * i + 0.01 * k, "precision": 0.2 + 0.1 * i, "recall": 0.3 + 0.01 * k}
                results.append({"cell": f"cell{i}", **config.columns(), "dataset": dataset, "k": k, **metrics})
            per_query += [{"cell": f"cell{i}", "query_id": f"demo_nda/{q}", "dataset": "demo_nda", "k": k,
                           "drm": float((q + i) % 3 == 0), "precision": 0.1 * ((q * i) % 4), "recall": 0.5}
                          for q in range(12)]  # fmt: skip
    return pd.DataFrame(results), pd.DataFrame(per_query)


@pytest.fixture
def same_id() -> Iterator[SameId]:
    method = METHODS.register(SameId())
    yield method
    METHODS.unregister(NAME)


def test_curves_keys_two_cells_of_one_variant_id_apart(env, same_id, tmp_path, monkeypatch):
    """Issue 42: two cells of one plug-in, the same variant id, another option: two entries everywhere."""
    base = RunConfig(protocol="full", datasets=("demo_nda",))
    results, per_query = sweep_tables(
        [base, base.with_(method=NAME), base.with_(method=NAME, options={f"{NAME}.depth": 3})]
    )
    folder = SweepFolder(tmp_path / "results" / "options")
    folder.path.mkdir(parents=True)
    write_csv(results, folder.results)
    write_csv(per_query, folder.per_query)
    folder.write_significance(significance(results, per_query))
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "results"))
    at = _app("app_pages/curves.py")
    methods = next(m for m in at.multiselect if m.label == "Methods")
    depth1, depth3 = "Same id (test), same-id.depth 1 (default)", "Same id (test), same-id.depth 3"
    assert sorted(methods.options) == sorted(["Baseline", depth1, depth3])  # was two: "Baseline", "Same id (test)"
    assert len(methods.value) == 3
    legend = {t["name"] for t in _plotly(at)[0]["data"] if t.get("mode") == "lines+markers"}
    assert legend == {"Baseline", depth1, depth3}
    means = next(d.value for d in at.dataframe if "source" in d.value.columns)
    assert sorted(s for s in means["source"] if not s.startswith("paper")) == sorted(["Baseline", depth1, depth3])
    tests = next(d.value for d in at.dataframe if "method a" in d.value.columns)
    assert (depth1, depth3) in set(zip(tests["method a"], tests["method b"]))


def test_curves_says_which_protocol_its_numbers_are_on(env):
    """Point 11: the README's headline is on the paper protocol, the pages open on another."""
    at = _app("app_pages/curves.py")
    (line,) = [_unmd(c.value) for c in at.caption if c.value.startswith("These numbers are on protocol")]
    assert line.startswith("These numbers are on protocol full (every query of each dataset): datasets demo_nda, ")
    assert "The README's headline table is on protocol paper" in line


@pytest.fixture(scope="module")
def lbr_mini_sweep(embed_cache, tmp_path_factory) -> Path:
    """A sweep of the demo on protocol lbr-mini: the same queries as its full protocol (fewer than 194
    per dataset), whose Compare indexes are not built (the sidebar's protocol on the demo is full)."""
    demo = ensure_demo_corpus(embed_cache)
    cells = tuple(
        c.with_(protocol="lbr-mini") for c in demo_sweep(available_datasets(demo), (500,), ("generic",)).cells
    )
    root = tmp_path_factory.mktemp("lbr-mini-results")
    _sweep(cells, "demo-lbr-mini", demo, embed_cache, root)
    return root


def _without_indexes_of(cache: Path, protocol: str, to: Path, seed_model: Callable[[Path], Path]) -> Path:
    """A copy of ``cache`` (the model's export hard-linked) without its indexes of ``protocol``: another
    test of this worker's session may have saved them there (``sac evaluate`` saves the indexes it
    builds, and its default protocol is lbr-mini), and this test needs them missing."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        if Path(folder) == cache:
            return {"onnx", "builds"} & set(names)
        if Path(folder).name != "indexes":
            return set()
        manifests = {n: Path(folder, n, "manifest.json") for n in names}
        return {
            n
            for n, m in manifests.items()
            if m.is_file() and json.loads(m.read_text())["settings"].get("protocol") == protocol
        }

    shutil.copytree(cache, to, ignore=ignore)
    return seed_model(to)


def test_open_in_compare_asks_first_says_the_total_and_offers_the_smaller_protocol(
    env, lbr_mini_sweep, monkeypatch, tmp_path, seed_model
):
    """Point 9: opening a query of another protocol's sweep switched the sidebar and built at once."""
    env = _without_indexes_of(env, "lbr-mini", tmp_path / "cache", seed_model)
    monkeypatch.setenv("SAC_CACHE_DIR", str(env))
    monkeypatch.setenv("SAC_RESULTS_DIR", str(lbr_mini_sweep))
    at = _app("app_pages/curves.py")
    query = at.dataframe[-1].value["query"].iloc[0]
    next(b for b in at.button if b.key == "curves_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(t.value.startswith("Curves") for t in at.title)  # still here: nothing switched, nothing built
    (asked,) = [_unmd(w.value) for w in at.warning if "Opening" in w.value]
    assert f"Opening {query} on Compare switches the sidebar's protocol from full to lbr-mini" in asked
    assert re.search(
        r"builds \d index(es)? first \(for Baseline, SAC generic, Recommended.*?\): about [\d,]+ texts", asked
    )
    assert re.search(r"about \d+ (s|min) in all", asked)
    labels = {b.key: b.label for b in at.button}
    assert labels["curves_open_build"].startswith("Build and open on lbr-mini (about ")
    assert labels["curves_open_smaller"] == "Open on full instead (ready)"
    assert not (env / "builds").is_dir() or not any(
        "lbr-mini" in f.read_text() for f in (env / "builds").glob("*.json")
    )  # no build of lbr-mini started
    next(b for b in at.button if b.key == "curves_open_smaller").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=f"cmp_query::{query.split('/')[0]}").value == query
    assert "".join(m.value for m in at.main.markdown).count('<div class="sac-hit ') == 3 * 8  # on full, at once


def test_curves_opens_on_the_headline_sweep_with_its_four_methods_together(env, demo_dir, tmp_path, monkeypatch):
    """Point 4: the committed sweep file's cells (sweeps/headline-lbr-mini.toml, on the demo's datasets,
    metrics made up) beside the full grid: the page opens on the headline, its four methods on one chart."""
    sweep = load_sweep(ROOT / "sweeps" / "headline-lbr-mini.toml")
    configs = [c.with_(datasets=("demo_nda",)) for c in sweep.cells]
    results, per_query = sweep_tables(configs)
    folder = SweepFolder(tmp_path / "results" / sweep.name)
    folder.path.mkdir(parents=True)
    write_csv(results, folder.results)
    write_csv(per_query, folder.per_query)
    (tmp_path / "results" / "lbr-mini-grid").symlink_to(ROOT / "results" / "lbr-mini-grid")
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.setenv("SAC_DATA_DIR", str(demo_dir))  # a data folder: the committed sweeps first, not the demo's
    at = _app("app_pages/curves.py")
    assert at.selectbox(key="curves_sweep").value.name == "headline-lbr-mini"  # was lbr-mini-grid
    methods = next(m for m in at.multiselect if m.label == "Methods")
    four = ["Baseline", "SAC generic", "SAC expert", tune.tune_methods(RunConfig())["recommended"]]
    assert four[-1].startswith("Recommended") and sorted(methods.options) == sorted(four) and len(methods.value) == 4
    legend = {t["name"] for t in _plotly(at)[0]["data"] if t.get("mode") == "lines+markers"}
    assert legend == set(four)  # one chart, the four together

    shutil.rmtree(folder.path)  # not computed yet: the page opens on the full grid, as before
    at = _app("app_pages/curves.py")
    assert at.selectbox(key="curves_sweep").value.name == "lbr-mini-grid"


# --------------------------------------------------------------------------- Tune


def test_tune_sliders_stop_only_where_a_setting_answers_at_once(env, tmp_path, monkeypatch):
    """Point 10: the demo sweep has chunk 500 at weight 1 only: an arrow step cannot start a build."""
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))  # the committed cells only, none built by other tests
    at = _app("app_pages/tune.py")
    assert at.select_slider(key="tune_chunk").options == ["500"]  # was 100, 150, …, 1500
    assert at.select_slider(key="tune_weight").options == ["1.0"]  # was 0, 0.05, …, 1 (0.95 never computed)
    assert "At k = 8" in [s.value for s in at.subheader]
    at.number_input(key="tune_other_chunk").set_value(450).run()
    assert not at.exception, [e.value for e in at.exception]
    (cost,) = [_unmd(c.value) for c in at.caption if "chunk 450" in _unmd(c.value)]
    assert re.search(r"for Baseline, SAC generic: about [\d,]+ chunks to embed for each of 2 indexes", cost)
    assert re.search(r"about \d+ (s|min) at about 50 texts/s", cost)
    assert any(b.label == "Compute this setting in the background" for b in at.button)
    assert at.select_slider(key="tune_chunk").value == 500  # nothing moved, nothing built unasked


def test_tune_says_which_protocol_its_numbers_are_on(env):
    at = _app("app_pages/tune.py")
    (line,) = [_unmd(c.value) for c in at.caption if c.value.startswith("On protocol")]
    assert line.startswith("On protocol full (every query of each dataset): 66 queries, 18 documents.")
    assert "The README's headline table is on protocol paper" in line


@pytest.fixture(scope="module")
def with_recommended(embed_cache, tmp_path_factory) -> Path:
    """A committed-looking sweep of the demo: the baseline and Recommended at Tune's default setting."""
    demo = ensure_demo_corpus(embed_cache)
    base = RunConfig(protocol="full", datasets=tuple(available_datasets(demo)), summary=SummaryConfig(provider="file"))
    presets = tune.method_presets(base, "file", ["baseline", "recommended"])
    cells = tuple(tune.TuneSetting(500, "file", 150, 1.0).variants(base, presets).values())
    root = tmp_path_factory.mktemp("recommended-results")
    _sweep(cells, "recommended", demo, embed_cache, root)
    return root


def test_tune_adds_recommended_and_answers_it_from_the_committed_cells(env, with_recommended, tmp_path, monkeypatch):
    """Point 10: Recommended (a stage's preset) was not in Tune's list ("No results")."""
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))  # nothing computed here: committed cells only
    monkeypatch.setenv("SAC_RESULTS_DIR", str(with_recommended))
    at = _app("app_pages/tune.py")
    methods = at.multiselect(key="tune_methods")
    title = tune.tune_methods(RunConfig())["recommended"]
    assert title.startswith("Recommended") and title in methods.options  # was "No results"
    methods.set_value(["baseline", "recommended"]).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = set(at.dataframe[0].value["method"])
    assert shown == {"Baseline", title}
    (sources,) = [c.value for c in at.caption if c.value.startswith("Answered from saved per-query results")]
    assert sources.count("committed") == 2 and "computed here" not in sources
    assert pd.notna(at.dataframe[0].value["new"]).all()
