"""The browser tooling's checks that need no browser (the end-to-end walks are tests/app/test_browser.py),
and the warm start of a served dashboard."""

from __future__ import annotations

from sac_core.dashboard.timing import TIMING_ENV
from sac_core.tooling.browser import absolute_paths, free_port, serve
from sac_core.tooling.timing import read_timing_log
from sac_core.tooling.warm import warm


def test_absolute_paths_finds_machine_paths_also_inside_urls():
    text = "saved in sqlite:////tmp/tmpab/review.sqlite; data /work/shared/x; cache/tmp/y; https://a.org/home/z"
    assert absolute_paths(text) == ["/tmp/tmpab/review.sqlite;", "/work/shared/x;"]
    assert absolute_paths("sqlite:///cache/tmpab/review.sqlite and ../../tmp/x") == []


def test_warm_says_unreachable_when_no_server_answers():
    assert warm(f"http://127.0.0.1:{free_port()}", timeout=1) == "unreachable"


def test_a_warmed_server_has_run_the_app_once_before_anyone_opens_it(demo_dir, embed_cache, tmp_path):
    """`make app` (and `sac bench`'s fresh servers) call the readiness probe as the server starts:
    the Compare page has run once, so the first visitor finds the benchmark and indexes open."""
    log = tmp_path / "timing.tsv"
    env = {"SAC_DATA_DIR": str(demo_dir), "SAC_CACHE_DIR": str(embed_cache), TIMING_ENV: str(log)}
    with serve(env, tmp_path / "streamlit.log", warmed=True) as server:
        assert len(read_timing_log(log, "Compare")) == 1  # no browser has connected yet
        assert warm(server.url) == "ok"  # the probe answers again (and runs the page again)
        assert len(read_timing_log(log, "Compare")) == 2
