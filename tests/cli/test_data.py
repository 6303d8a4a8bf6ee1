"""``sac reword``: per-dataset counts on a hand-made benchmark of real templates, and bad input in
one line naming the file or the flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.cli import main


def test_reword_prints_what_it_reworded_and_kept(template_data: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "reword2"
    assert main(["reword", "--data", str(template_data), "--out", str(out), "--variant", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["contractnli: 1 queries, 1 reworded, 0 kept", "cuad: 5 queries, 4 reworded, 1 kept"]
    assert "held out: report on it, never tune on it" in lines[2] and str(out) in lines[2]
    assert json.loads((out / "benchmarks" / "cuad.json").read_text(encoding="utf-8"))["transform"] == "reword-2"


def test_reword_errors_are_one_line(template_data: Path, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["reword", "--data", str(template_data), "--out", str(tmp_path / "x"), "--variant", "3"])
    assert (
        exit_.value.code == 2 and "Invalid value for '--variant': '3' is not one of '1', '2'" in capsys.readouterr().err
    )
    bad = tmp_path / "bad"
    (bad / "benchmarks").mkdir(parents=True)
    (bad / "benchmarks" / "maud.json").write_text('{"tests": {}}', encoding="utf-8")
    assert main(["reword", "--data", str(bad), "--out", str(tmp_path / "out"), "--variant", "1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"sac: error: {bad / 'benchmarks' / 'maud.json'}: expected an object with a list field 'tests'"]
    assert not (tmp_path / "out").exists()
