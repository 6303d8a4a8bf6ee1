"""The dashboard's run import: every line scored or a clear refusal; the button names the file."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sac_core.dashboard import runs, state
from sac_core.engine.data import RunFileError
from sac_core.experiments.run_store import list_runs


def _settings(data: Path, cache: Path, protocol: str) -> state.Settings:
    return state.Settings(state.resolve_data_source(str(data), cache), cache, protocol, ("gen",), "file", 150)


def test_a_run_with_queries_outside_the_sidebar_protocol_is_refused_naming_the_one_it_fits(many_queries, tmp_path):
    data = (many_queries / "run.jsonl").read_bytes()
    with pytest.raises(RunFileError, match=r"run.jsonl: 56 of its queries lie outside protocol lbr-mini .* the "
                       r"run fits protocol full: import it there to score every line"):  # fmt: skip
        runs.import_upload(data, "run.jsonl", "all", _settings(many_queries, tmp_path, "lbr-mini"))
    assert list_runs(tmp_path) == []  # nothing kept
    done = runs.import_upload(data, "run.jsonl", "all", _settings(many_queries, tmp_path, "full"))
    assert (done.run.protocol, done.run.queries) == ("full", 250)
    table = pd.read_csv(done.results)
    assert set(table.loc[table["dataset"] == "ALL", "n_queries"]) == {250}  # the Curves line counts every query


def test_an_empty_upload_is_refused(many_queries, tmp_path):
    with pytest.raises(RunFileError, match=r"empty\.jsonl: the file is empty"):
        runs.import_upload(b"", "empty.jsonl", "empty", _settings(many_queries, tmp_path, "full"))
    assert list_runs(tmp_path) == [] and not (tmp_path / "results").exists()  # no Curves line


def test_the_button_names_the_file_and_its_size():
    assert runs.file_label("/x/my run.jsonl", 16_300) == "my run.jsonl (15.9 KB)"
    assert runs.file_label("big.jsonl", 70 * 1024 * 1024) == "big.jsonl (70.0 MB)"
