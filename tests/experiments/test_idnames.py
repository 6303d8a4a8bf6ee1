"""sac idnames: a copy of a benchmark whose documents are named by ids (demo benchmark), and the
file-name term of the document score on it: it finds nothing there, so it changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sac_core.engine.data import BenchmarkError, load_benchmark, project_root
from sac_core.engine.retrieval.documents import DocumentScorer
from sac_core.experiments.idnames import id_name, write_idnames

DEMO = ("demo_nda", "demo_privacy")


def test_id_name_keeps_the_dataset_and_says_nothing_else() -> None:
    name = id_name("contractnli/BT_NDA.txt")
    assert name.startswith("contractnli/doc-") and name.endswith(".txt") and len(name) == len("contractnli/") + 18
    assert "BT" not in name and id_name("contractnli/BT_NDA.txt") == name  # stable
    assert id_name("contractnli/JBF_NDA.txt") != name


def test_the_copy_keeps_texts_queries_and_gold_under_new_names(demo_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "ids"
    counts = write_idnames(demo_dir, out)
    normal, ids = load_benchmark(demo_dir, DEMO, "full"), load_benchmark(out, DEMO, "full")
    assert counts == {ds: (sum(q.dataset == ds for q in normal.queries), _docs(normal, ds)) for ds in DEMO}
    assert [q.query_id for q in ids.queries] == [q.query_id for q in normal.queries]
    assert [q.text for q in ids.queries] == [q.text for q in normal.queries]
    assert [[(id_name(s.file_path), s.start, s.end) for s in q.gold] for q in normal.queries] == [
        [(s.file_path, s.start, s.end) for s in q.gold] for q in ids.queries
    ]
    assert {id_name(p): d.text for p, d in normal.documents.items()} == {p: d.text for p, d in ids.documents.items()}
    assert all((out / "corpus" / p).is_symlink() for p in ids.documents)  # nothing of the data copied
    assert json.loads((out / "benchmarks" / "demo_nda.json").read_text(encoding="utf-8"))["transform"] == "id-names"
    assert ids.digest != normal.digest  # a cell on the copy never reuses the original's
    lines = [json.loads(line) for line in (out / "summaries" / "llm.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines and {row["file_path"] for row in lines} == set(ids.documents)


def test_on_id_names_the_file_name_term_adds_nothing(demo_dir: Path, tmp_path: Path) -> None:
    write_idnames(demo_dir, tmp_path / "ids")
    ids = load_benchmark(tmp_path / "ids", DEMO, "full")
    paths = sorted(ids.documents)
    vectors = np.eye(len(paths), 4, dtype=np.float32)
    texts = [ids.documents[p].text for p in paths]
    named = DocumentScorer(paths, vectors, texts, bm25_weight=0.5, names_weight=4.0)
    plain = DocumentScorer(paths, vectors, texts, bm25_weight=0.5)
    for query in ids.queries[:10]:
        vector = np.ones(4, np.float32)
        assert named.scores(query.text, vector).tolist() == plain.scores(query.text, vector).tolist()


def test_idnames_refuses_the_project_and_a_busy_folder(demo_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="inside the project"):
        write_idnames(demo_dir, project_root() / "ids-copy")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x", encoding="utf-8")
    with pytest.raises(BenchmarkError, match="not empty"):
        write_idnames(demo_dir, busy)


def test_a_snippet_without_a_file_path_is_named(tmp_path: Path) -> None:
    (tmp_path / "src" / "benchmarks").mkdir(parents=True)
    bad = {"tests": [{"query": "q", "snippets": [{"span": [0, 1]}]}]}
    (tmp_path / "src" / "benchmarks" / "x.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"x\.json: query x/0: 'snippets'"):
        write_idnames(tmp_path / "src", tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half-written


def _docs(bench, dataset: str) -> int:
    return len({s.file_path for q in bench.queries if q.dataset == dataset for s in q.gold})
