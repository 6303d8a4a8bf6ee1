"""The browser tooling's checks that need no browser (the end-to-end walks are tests/app/test_browser.py)."""

from __future__ import annotations

from sac_core.tooling.browser import absolute_paths


def test_absolute_paths_finds_machine_paths_also_inside_urls():
    text = "saved in sqlite:////tmp/tmpab/review.sqlite; data /work/shared/x; cache/tmp/y; https://a.org/home/z"
    assert absolute_paths(text) == ["/tmp/tmpab/review.sqlite;", "/work/shared/x;"]
    assert absolute_paths("sqlite:///cache/tmpab/review.sqlite and ../../tmp/x") == []
