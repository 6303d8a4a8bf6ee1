"""sac_core.engine.data.heldout: a benchmark folder of queries on documents no protocol used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.data import BenchmarkError, load_benchmark, write_heldout


def test_heldout_keeps_whole_queries_on_sampled_documents_and_links_the_corpus(demo_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "heldout"
    kept = write_heldout(demo_dir, out, ["demo_nda"], exclude=(), max_docs=2, seed=1)
    queries, documents = kept["demo_nda"]
    assert documents <= 2 and queries >= 1
    assert (out / "corpus" / "demo_nda").is_symlink()  # nothing copied
    bench = load_benchmark(out, "all", "full")
    assert len(bench.queries) == queries and len(bench.documents) == documents
    original = json.loads((demo_dir / "benchmarks" / "demo_nda.json").read_text(encoding="utf-8"))["tests"]
    written = json.loads((out / "benchmarks" / "demo_nda.json").read_text(encoding="utf-8"))["tests"]
    assert all(t in original for t in written)  # the query objects, unchanged


def test_heldout_leaves_out_the_documents_of_the_excluded_protocols(demo_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="no query outside the documents of full"):
        write_heldout(demo_dir, tmp_path / "h", ["demo_nda"], exclude=("full",))
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x")
    with pytest.raises(BenchmarkError, match="not empty"):
        write_heldout(demo_dir, tmp_path / "busy", ["demo_nda"], exclude=())
