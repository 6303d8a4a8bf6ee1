"""``sac runs``, ``sac export``, ``sac compare`` and ``sac report --html/--latex`` end to end on
the demo corpus, with two hand-made runs: one returns each query's gold spans (perfect), the other
the first 500 characters of a document of another dataset (every chunk from a wrong document)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sac_core.cli import main
from sac_core.engine.data import Snippet, load_benchmark
from sac_core.engine.data.runwrite import write_jsonl, write_trec

DATA = ["--protocol", "full", "--datasets", "demo_nda,demo_privacy"]


@pytest.fixture(scope="module")
def runs(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    bench = load_benchmark(demo_dir, ("demo_nda", "demo_privacy"), "full")
    queries = {q.query_id: q for q in bench.queries}
    perfect = {q.query_id: [Snippet(s.file_path, s.start, s.end) for s in q.gold] for q in bench.queries}
    other = {
        q.query_id: [Snippet(next(d for d in bench.documents if d not in q.gold_files), 0, 500)] for q in bench.queries
    }
    folder = tmp_path_factory.mktemp("runs")
    (folder / "perfect.jsonl").write_text(write_jsonl(queries, perfect), encoding="utf-8")
    (folder / "wrong.trec").write_text(write_trec(other, "wrong"), encoding="utf-8")
    return folder / "perfect.jsonl", folder / "wrong.trec"


def test_import_scores_the_run_like_evaluate_then_list_and_remove(runs, demo_dir, tmp_path, capsys) -> None:
    cache, out = tmp_path / "cache", tmp_path / "perfect.csv"
    argv = ["runs", "import", str(runs[0]), "--data", str(demo_dir), *DATA, "--cache-dir", str(cache)]
    assert main([*argv, "--name", "perfect", "--k", "1,4", "--out", str(out)]) == 0
    table = pd.read_csv(out).set_index(["dataset", "k"])
    assert table.loc[("ALL", 1), "drm"] == 0 and table.loc[("ALL", 1), "precision"] == 1  # gold spans first
    capsys.readouterr()
    assert main(["runs", "list", "--cache-dir", str(cache)]) == 0
    assert capsys.readouterr().out.startswith("perfect\tfull\tdemo_nda,demo_privacy\t")
    assert main([*argv, "--name", "perfect"]) == 0  # the same run again: nothing changes
    other = ["runs", "import", str(runs[1]), "--data", str(demo_dir), *DATA, "--cache-dir", str(cache)]
    assert main([*other, "--name", "perfect"]) == 2  # another run under a taken name: refused
    assert "a different run is already imported as 'perfect'" in capsys.readouterr().err
    assert main(["runs", "remove", "perfect", "--cache-dir", str(cache)]) == 0
    assert main(["runs", "list", "--cache-dir", str(cache)]) == 0
    assert "perfect" not in capsys.readouterr().out.replace("removed run perfect", "")


def test_import_scores_every_line_on_the_protocol_the_run_fits(many_queries, tmp_path, capsys) -> None:
    """Issue 31: a run of all 250 queries of a folder that is not LegalBench-RAG, imported without
    --protocol, is scored whole (lbr-mini would keep 194 of them)."""
    out = tmp_path / "all.csv"
    argv = ["runs", "import", str(many_queries / "run.jsonl"), "--data", str(many_queries), "--name", "all",
            "--cache-dir", str(tmp_path / "cache"), "--k", "1", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    table = pd.read_csv(out).set_index("dataset")
    assert table.loc["ALL", "n_queries"] == 250 and table.loc["ALL", "protocol"] == "full"
    assert table.loc["ALL", "precision"] == 1  # every query's gold span, first
    err = capsys.readouterr().err
    assert "250 queries of protocol full (the smallest protocol holding every query of the run)" in err


def test_a_bad_run_file_is_one_line_naming_file_and_line(demo_dir, tmp_path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"query_id": "nope", "snippets": []}\n', encoding="utf-8")
    argv = ["runs", "import", str(bad), "--data", str(demo_dir), *DATA, "--cache-dir", str(tmp_path / "c")]
    assert main([*argv, "--name", "bad"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.jsonl" in err[0] and "line 1" in err[0], err


def test_export_and_compare_two_run_files(runs, demo_dir, tmp_path, capsys) -> None:
    out = tmp_path / "export"
    common = ["--data", str(demo_dir), *DATA, "--k", "1,4", "--cache-dir", str(tmp_path / "cache")]
    assert main(["export", str(runs[1]), *common, "--beir", "--out", str(out)]) == 0
    assert {"run.trec", "qrels.trec", "run.doc.trec", "qrels.doc.trec"} <= {p.name for p in out.iterdir()}
    assert (out / "beir" / "corpus.jsonl").is_file()
    capsys.readouterr()
    table_out = tmp_path / "compare.csv"
    assert main(["compare", str(runs[0]), str(runs[1]), *common, "--at-k", "1", "--out", str(table_out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("each run against perfect; Fisher's randomisation test")
    table = pd.read_csv(table_out).set_index(["metric", "k"])
    assert table.loc[("drm", 1), "mean_a"] == 0 and table.loc[("drm", 1), "mean_b"] == 1
    drm = table.loc[("drm", 1)]
    assert drm["p_value"] < 0.05 and drm["wins"] == drm["ties"] == 0  # worse on every query


def test_report_writes_latex_and_a_self_contained_html(runs, demo_dir, tmp_path, capsys) -> None:
    cache = tmp_path / "cache"
    results = []
    for path, name in ((runs[0], "perfect"), (runs[1], "wrong")):
        out = tmp_path / f"{name}.csv"
        argv = ["runs", "import", str(path), "--data", str(demo_dir), *DATA, "--cache-dir", str(cache)]
        assert main([*argv, "--name", name, "--k", "1,64", "--out", str(out)]) == 0
        results.append(str(out))
    capsys.readouterr()
    html, latex = tmp_path / "report.html", tmp_path / "tables.tex"
    assert main(["report", *results, "--k", "1", "--html", str(html), "--latex", str(latex)]) == 0
    printed = capsys.readouterr().out
    assert "precision@1 and recall@64 per dataset" in printed
    page = html.read_text(encoding="utf-8")
    assert "<script src=" not in page and len(page) > 1_000_000  # plotly inlined: one file that opens offline
    assert "\\begin{tabular}" in latex.read_text(encoding="utf-8")
