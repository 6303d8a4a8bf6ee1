"""What ``sac sweep``, ``sac presets`` and ``sac report`` write and print (issue 45, points 8 and 11)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sac_core.cli import main


def test_a_sweep_without_pairs_writes_its_significance_table_with_a_header(demo_dir, embed_cache, tmp_path, capsys):
    """Point 8: one method per setting has no pairs; its significance.csv was one byte, which Curves
    could not read ("No columns to parse from file")."""
    config = tmp_path / "one.toml"
    config.write_text(
        'name = "one"\n[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\n'
        '[[grid]]\nmethod = ["baseline"]\nchunk_size = [500]\n',
        encoding="utf-8",
    )
    out = tmp_path / "one"
    argv = ["sweep", "--config", str(config), "--data", str(demo_dir), "--out", str(out), "--cache-dir",
            str(embed_cache), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    header = (out / "significance.csv").read_text(encoding="utf-8").splitlines()
    assert len(header) == 1 and header[0].startswith("variant_a,variant_b,a,b,metric,k,mean_a,mean_b,")
    assert header[0].endswith(",p_holm") and "chunk_size" in header[0].split(",")  # the setting columns too


def test_presets_say_what_tells_two_presets_of_one_variant_id_apart(demo_dir, capsys):
    """Point 11: ``hybrid`` printed ``baseline`` as what it runs, as ``baseline`` does."""
    assert main(["presets", "--data", str(demo_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    runs = {lines[i].split()[0]: lines[i + 1].strip() for i in range(0, len(lines), 2)}
    assert runs["baseline"] == "baseline"
    assert runs["hybrid"] == "baseline · semantic_weight 0.5"
    assert len(set(runs.values())) == len(runs)  # every preset says what it runs, each its own


def test_presets_without_a_data_folder_name_them_as_on_legalbench_rag(monkeypatch, capsys):
    """Point 11: without a data folder, ``sac-generic`` was called "SAC extractive"."""
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    assert main(["presets"]) == 0
    captured = capsys.readouterr()
    titles = dict(re.findall(r"^(\S+)\s+(.+)$", captured.out, flags=re.MULTILINE))
    assert titles["sac-generic"] == "SAC generic (a default Compare column)"
    assert titles["sac-expert"] == "SAC expert" and titles["recommended"].endswith("(a default Compare column)")
    assert "sac-file-generic-150" in captured.out
    assert "No data folder" in captured.err and "SAC extractive" in captured.err  # and what it is elsewhere


@pytest.fixture(scope="module")
def evaluated(demo_dir: Path, embed_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("evaluated")
    argv = ["evaluate", "--data", str(demo_dir), "--protocol", "full", "--method", "baseline", "--cache-dir",
            str(embed_cache), "--out", str(out / "run.csv"), "--per-query-out", str(out / "run-queries.csv"),
            "--quiet"]  # fmt: skip
    assert main(argv) == 0
    return out


def _means(report: str) -> list[str]:
    """The header of the means over k and the table under it, up to the blank line."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("precision / recall / DRM"))
    end = lines.index("", start)
    return lines[start:end]


def test_report_on_an_evaluate_csv_promises_no_interval_it_does_not_print(evaluated, capsys):
    """Point 11: the header said "± half the 95 % bootstrap interval" above means without one."""
    assert main(["report", str(evaluated / "run.csv")]) == 0
    header, *rows = _means(capsys.readouterr().out)
    assert "±" not in "".join(rows)  # no per-query table beside an evaluate CSV: no interval
    assert "±" not in header.split(";")[0] and "--per-query" in header
    assert main(["report", str(evaluated / "run.csv"), "--per-query", str(evaluated / "run-queries.csv")]) == 0
    header, *rows = _means(capsys.readouterr().out)
    assert "± half the 95 % bootstrap interval" in header
    assert re.search(r"^baseline\s+[\d.]+ ± [\d.]+\s+[\d.]+ ± [\d.]+\s+[\d.]+ ± [\d.]+$", rows[-1])


def test_report_names_a_per_query_table_per_results_file(evaluated, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["report", str(evaluated / "run.csv"), str(evaluated / "run.csv"), "--per-query",
              str(evaluated / "run-queries.csv")])  # fmt: skip
    assert stop.value.code == 2
    assert "1 given for 2 RESULTS file(s): one per-query table each, in order" in capsys.readouterr().err
