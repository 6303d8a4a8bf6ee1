"""The shared writer of transformed benchmark copies (``sac noname``, ``sac reword``): what it
refuses, and that a bad source file names itself and leaves nothing half-written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.data import BenchmarkError, project_root
from sac_core.experiments.transformed import write_transformed


def _copy(data: Path, out: Path) -> dict[str, tuple[int, int]]:
    return write_transformed(data, out, str.upper, transform="upper", what="upper-case benchmark")


def _source(root: Path, files: dict[str, str]) -> Path:
    (root / "benchmarks").mkdir(parents=True)
    for name, text in files.items():
        (root / "benchmarks" / name).write_text(text, encoding="utf-8")
    return root


def test_queries_are_rewritten_and_every_other_field_kept(tmp_path: Path) -> None:
    tests = [{"query": "q one", "snippets": [{"file_path": "a/x.txt", "span": [0, 1], "answer": "x"}], "n": 1}]
    data = _source(tmp_path / "src", {"a.json": json.dumps({"tests": tests, "transform": "no-name", "v": 2})})
    assert _copy(data, tmp_path / "out") == {"a": (1, 1)}
    raw = json.loads((tmp_path / "out" / "benchmarks" / "a.json").read_text(encoding="utf-8"))
    assert raw == {"tests": [{**tests[0], "query": "Q ONE"}], "transform": "no-name+upper", "v": 2}
    assert not (tmp_path / "out" / "corpus").exists()  # nothing to link


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.json": "[1, 2]"}, r"a\.json: expected an object with a list field 'tests'"),
        ({"a.json": '{"tests": [], "transform": 3}'}, r"a\.json: field 'transform' must be a string"),
        ({"a.json": '{"tests": [{"query": 1}]}'}, r"a\.json: query a/0: missing string field 'query'"),
        ({"a.json": '{"tests": []}', "b.json": "{"}, r"b\.json: invalid JSON at line 1, column 2"),
    ],
)
def test_a_bad_file_is_named_and_nothing_is_written(tmp_path: Path, files: dict[str, str], message: str) -> None:
    data = _source(tmp_path / "src", files)
    with pytest.raises(BenchmarkError, match=message):
        _copy(data, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    data = _source(tmp_path / "src", {})
    (data / "benchmarks" / "a.json").mkdir()  # a folder where the file should be
    with pytest.raises(BenchmarkError, match=r"a\.json: cannot read"):
        _copy(data, tmp_path / "out")
    (data / "benchmarks" / "a.json").rmdir()
    (data / "benchmarks" / "a.json").write_bytes(b'{"tests": ["\xff"]}')
    with pytest.raises(BenchmarkError, match=r"a\.json: not UTF-8"):
        _copy(data, tmp_path / "out")


def test_the_project_a_busy_folder_a_file_and_an_empty_source_are_refused(tmp_path: Path) -> None:
    data = _source(tmp_path / "src", {"a.json": '{"tests": []}'})
    with pytest.raises(BenchmarkError, match="inside the project"):
        _copy(data, project_root() / "copy")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x", encoding="utf-8")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for taken in ("busy", "file"):
        with pytest.raises(BenchmarkError, match="not empty; choose a new folder for the upper-case benchmark"):
            _copy(data, tmp_path / taken)
    with pytest.raises(BenchmarkError, match="no benchmark files"):
        _copy(_source(tmp_path / "empty", {}), tmp_path / "out")
    (tmp_path / "out").mkdir()
    assert _copy(data, tmp_path / "out") == {"a": (0, 0)}  # an existing empty folder is fine
