"""CONTRIBUTING's recipe for a retrieval method, followed step by step with a package outside the
repository: its two blocks (the module, the ``pyproject.toml``) are written into a temporary
folder, and the method then runs in ``sac evaluate`` (named by ``--plugin``, by ``$SAC_PLUGINS``,
or found through the entry point of the installed package), in ``sac sweep``, as a Compare column,
in a Review session and in Tune (answered from the sweep's cells, and built in the background)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import review as rv
from sac_core.dashboard import state
from sac_core.experiments import METHODS

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
NAME, TITLE, MODULE = "word-overlap", "Word overlap (toy)", "toy_plugin"


def recipe_block(first_line: str) -> str:
    """The fenced block of CONTRIBUTING.md whose first line is ``first_line``: the recipe as written."""
    blocks = re.findall(r"^```\w+\n(.*?)^```", (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"), re.M | re.S)
    (block,) = [b for b in blocks if b.startswith(first_line + "\n")]
    return block


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    """Steps 1 and 2: the module of the recipe, in a folder of its own outside the repository."""
    root = tmp_path_factory.mktemp("word-overlap-package")
    (root / f"{MODULE}.py").write_text(recipe_block(f"# {MODULE}.py"), encoding="utf-8")
    (root / "pyproject.toml").write_text(recipe_block("# pyproject.toml"), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def installed(package, tmp_path_factory) -> Path:
    """Step 3's entry point: the package installed by pip (into a folder of its own rather than the
    shared venv: a ``.dist-info`` with its ``entry_points.txt``, which is what an installed package is)."""
    site = tmp_path_factory.mktemp("site-packages")
    args = ["install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "--target", str(site)]
    subprocess.run([sys.executable, "-m", "pip", *args, str(package)], check=True, capture_output=True)
    assert list(site.glob("sac_word_overlap-*.dist-info/entry_points.txt"))
    return site


def sac(*args: str, path: Path | None = None, plugins: str = "", cache: Path | None = None):
    """``sac …`` in a fresh process, which knows the method only through the plug-in mechanisms."""
    env = {k: v for k, v in os.environ.items() if k not in ("SAC_DATA_DIR", "OPENAI_API_KEY", "SAC_PLUGINS")}
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (path, ROOT) if p is not None)
    env.update(SAC_PLUGINS=plugins, HF_HUB_OFFLINE="1")
    if cache is not None:
        env["SAC_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-m", "sac_core.cli", *args], env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo") / "lbr"
    done = sac("demo", str(folder))
    assert done.returncode == 0, done.stderr
    return folder


@contextmanager
def loaded_here(path: Path) -> Iterator[None]:
    """The plug-in importable in this process (as ``PYTHONPATH`` makes it), forgotten afterwards."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(path))
        try:
            yield
        finally:
            METHODS.unregister(NAME)
            sys.modules.pop(MODULE, None)


def evaluate_args(demo: Path, out: Path) -> list[str]:
    return ["evaluate", "--data", str(demo), "--protocol", "full", "--method", NAME, "--k", "1,4", "--out", str(out)]


def test_step_3_sac_plugin_or_sac_plugins_runs_it_in_sac_evaluate(package, demo, tmp_path):
    unknown = sac(*evaluate_args(demo, tmp_path / "no.csv"), cache=tmp_path / "cache")
    assert unknown.returncode == 2 and f"'{NAME}' is not one of" in unknown.stderr  # not built in
    out = tmp_path / "toy.csv"
    done = sac("--plugin", MODULE, *evaluate_args(demo, out), "--quiet", path=package, cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(out)
    assert set(table["variant"]) == {NAME} and set(table["method"]) == {NAME}
    assert set(table["k"]) == {1, 4} and "ALL" in set(table["dataset"])
    assert table["recall"].between(0, 1).all() and (table[table["k"] == 4]["recall"] > 0).any()
    assert not list((tmp_path / "cache").glob("embeddings/*.db"))  # no model ran, nothing embedded
    again = sac(*evaluate_args(demo, tmp_path / "env.csv"), "--quiet", path=package, plugins=MODULE)
    assert again.returncode == 0, again.stderr
    scores = ["dataset", "k", "drm", "precision", "recall"]
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "env.csv")[scores], table[scores])
    index = sac("index", "--data", str(demo), "--protocol", "full", "--method", NAME, path=package, plugins=MODULE)
    assert index.returncode == 0 and f"method '{NAME}' has no index to build" in index.stdout


def test_step_3_an_installed_package_is_found_by_its_entry_point(installed, demo, tmp_path):
    out = tmp_path / "installed.csv"
    done = sac(*evaluate_args(demo, out), "--quiet", path=installed, cache=tmp_path / "cache")  # nothing named
    assert done.returncode == 0, done.stderr
    assert set(pd.read_csv(out)["variant"]) == {NAME}
    with loaded_here(installed):  # the dashboard's loader at start: the entry points, then $SAC_PLUGINS
        assert state.load_plugins() == () and NAME in METHODS
    assert NAME not in METHODS


@pytest.fixture(scope="module")
def swept(package, demo, tmp_path_factory) -> Path:
    """Step 4: a sweep file names the method; its cells land in this cache (where Tune finds them)."""
    root = tmp_path_factory.mktemp("swept")
    config = root / "toy.toml"
    config.write_text(
        f'name = "toy"\n[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\n'
        f'[[grid]]\nmethod = ["{NAME}"]\nchunk_size = [500]\n',
        "utf-8",
    )
    done = sac("sweep", "--config", str(config), "--data", str(demo), "--out", str(root / "out"), "--quiet",
               path=package, plugins=MODULE, cache=root / "cache")  # fmt: skip
    assert done.returncode == 0, done.stderr
    return root


def test_step_4_sac_sweep_runs_a_sweep_file_that_names_it(swept):
    results = pd.read_csv(swept / "out" / "results.csv")
    assert set(results["variant"]) == {NAME} and set(results["chunk_size"]) == {500}
    assert (results["recall"] > 0).any()


@pytest.fixture(scope="module")
def dashboard(package, tmp_path_factory) -> Iterator[Path]:
    """The dashboard started with ``$SAC_PLUGINS`` naming the module (on the path, as for ``sac``);
    the server loads it once, when its first page runs."""
    folder = tmp_path_factory.mktemp("dashboard")
    with pytest.MonkeyPatch.context() as mp:
        for name in ("SAC_DATA_DIR", "OPENAI_API_KEY", "SAC_RETRIEVERS"):
            mp.delenv(name, raising=False)
        mp.setenv("SAC_PLUGINS", MODULE)
        mp.setenv("SAC_RESULTS_DIR", str(folder / "no-results"))
        mp.setenv("SAC_REVIEW_DB", f"sqlite:///{folder / 'review.sqlite'}")
        mp.setenv("HF_HUB_OFFLINE", "1")
        assert NAME not in METHODS  # the test process has not imported it: the app's start will
        with loaded_here(package):
            yield folder


def test_step_4_compare_shows_it_as_a_column_and_review_reviews_it(dashboard, prebuilt, embed_cache, monkeypatch):
    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))  # the demo with Compare's indexes saved
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params["cols"] = f"baseline,{NAME}"
    at.query_params["k"] = "3"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [m.value for m in at.main.markdown if m.value.startswith("####")]
    assert headings == ["#### Baseline", "#### Word overlap \\(toy\\)"]
    html = "".join(m.value for m in at.main.markdown)
    assert html.count('<div class="sac-hit ') == 2 * 3  # both columns, k = 3
    assert len(at.metric) == 2 * 3  # DRM, precision, recall against gold for the toy column too

    at.switch_page("app_pages/review.py")
    at.run()
    # no link: the page offers a new session
    methods = at.multiselect(key="rv_new_methods")
    assert {"Baseline", TITLE} <= set(methods.options) and list(methods.value) == ["baseline", "word-overlap"]
    at.text_input(key="rv_new_name").input("toy review").run()
    at.text_input(key="rv_new_owner").input("alice").run()
    at.number_input(key="rv_new_size").set_value(2).run()
    at.slider(key="rv_new_k").set_value(2).run()
    next(b for b in at.button if b.key == "rv_create").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (session,) = rv.ReviewDB(os.environ["SAC_REVIEW_DB"]).sessions()
    assert [m["name"] for m in session.methods] == ["Baseline", TITLE]
    assert [m["config"]["method"] for m in session.methods] == ["baseline", NAME]


def test_step_4_tune_offers_it_answers_from_the_sweep_and_builds_other_stops(dashboard, swept, monkeypatch):
    cache = swept / "cache"  # the sweep's cells (on `sac demo`'s copy of the demo: the same cells anywhere)
    monkeypatch.setenv("SAC_CACHE_DIR", str(cache))
    at = AppTest.from_file(APP, default_timeout=240)
    at.switch_page("app_pages/tune.py")  # straight to Tune (Compare would build its indexes in this cache)
    at.run()
    methods = at.multiselect(key="tune_methods")
    assert TITLE in methods.options and list(methods.value) == ["baseline", "sac-generic"]  # as before, unless chosen
    methods.set_value([NAME]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert set(at.dataframe[0].value["method"]) == {TITLE}
    assert any("computed here" in c.value for c in at.caption)  # the sweep's cell, no computing

    assert at.select_slider(key="tune_chunk").options == ["500"]  # the sweep's cell: the one stop
    at.number_input(key="tune_other_chunk").set_value(300).run()  # a setting nothing computed: asked for
    assert any("chunk 300" in c.value and "no index to build" in c.value for c in at.caption)  # cheap
    next(b for b in at.button if b.label == "Compute this setting in the background").click().run()
    deadline = time.monotonic() + 300  # a worker process imports the plug-in's module and evaluates the cell
    while not at.dataframe and time.monotonic() < deadline:
        time.sleep(1)
        at.run()
    assert not at.exception and at.dataframe, [f.read_text() for f in (cache / "builds").glob("*.json")]
    assert set(at.dataframe[0].value["method"]) == {TITLE} and "At k = 8" in [s.value for s in at.subheader]


@pytest.fixture(scope="module")
def with_new_option(tmp_path_factory) -> Path:
    """The recipe's module with one more setting, added as CONTRIBUTING says: one line in its Options."""
    root = tmp_path_factory.mktemp("word-overlap-new-option")
    module = recipe_block(f"# {MODULE}.py")
    anchor = '    min_length: int = option(default=1, help="query words shorter than this many characters are not counted")\n'
    assert anchor in module
    added = '    case_sensitive: bool = option(default=False, help="words matched as written, not lower-cased")\n'
    (root / f"{MODULE}.py").write_text(module.replace(anchor, anchor + added), encoding="utf-8")
    return root


def test_a_setting_added_to_the_recipe_is_in_the_help_the_id_the_results_and_its_own_report_row(
    with_new_option, demo, tmp_path
):
    helped = sac("--plugin", MODULE, "evaluate", "--help", path=with_new_option)
    assert helped.returncode == 0, helped.stderr
    assert "word-overlap.case_sensitive" in helped.stdout and "words matched as written" in helped.stdout
    config = tmp_path / "options.toml"
    config.write_text(
        f'name = "options"\n[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\n[[grid]]\nmethod = "{NAME}"\n'
        f'"{NAME}.case_sensitive" = [false, true]\n',
        "utf-8",
    )
    out = tmp_path / "out"
    done = sac("sweep", "--config", str(config), "--data", str(demo), "--out", str(out), "--quiet",
               path=with_new_option, plugins=MODULE, cache=tmp_path / "cache")  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = pd.read_csv(out / "results.csv")
    cells = results.drop_duplicates("cell")
    assert len(cells) == 2  # two cells: their ids differ in that setting alone
    column = f"option_{NAME}_case_sensitive"
    assert column in results.columns and list(cells[column].fillna(False)) == [False, True]
    assert set(cells["variant"]) == {NAME, f"{NAME}(case_sensitive=True)"}
    report = sac("report", str(out / "results.csv"), path=with_new_option, plugins=MODULE)
    assert report.returncode == 0, report.stderr
    rows = [line for line in report.stdout.splitlines() if line.lstrip().startswith(NAME)]
    assert len(rows) >= 2 and len({row.split()[0] for row in rows}) == 2, report.stdout  # two rows, never one mean
