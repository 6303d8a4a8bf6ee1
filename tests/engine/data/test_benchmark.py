import json
import random
import shutil
from pathlib import Path

import pytest

from sac_core.engine.data import BenchmarkError, load_benchmark, read_queries, resolve_data_dir, select


def copy_demo(demo_dir: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(demo_dir, dest)
    return dest


def edit_first_snippet(data: Path, **changes) -> None:
    path = data / "benchmarks" / "demo_nda.json"
    raw = json.loads(path.read_text())
    raw["tests"][0]["snippets"][0].update(changes)
    path.write_text(json.dumps(raw))


def test_query_ids_are_dataset_and_index(demo_dir):
    queries = read_queries(demo_dir, "demo_nda")
    assert [q.query_id for q in queries[:3]] == ["demo_nda/0", "demo_nda/1", "demo_nda/2"]
    assert len({q.query_id for q in queries}) == len(queries)


def test_full_protocol_pools_cited_documents(demo_dir):
    bench = load_benchmark(demo_dir, "all", "full")
    assert bench.datasets == ("demo_nda", "demo_privacy")
    assert len(bench.queries) == 12 * 4 + 6 * 3
    assert set(bench.documents) == {s.file_path for q in bench.queries for s in q.gold}


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"file_path": "demo_nda/missing.txt"}, "document not found"),
        ({"file_path": "../outside.txt"}, "escapes the corpus root"),
        ({"file_path": "/etc/passwd"}, "escapes the corpus root"),
        ({"span": [0, 10**7]}, "lies outside"),
        ({"span": [5, 5]}, "empty or negative"),
        ({"span": [1, "x"]}, "'span' must be"),
        ({"answer": "not the text"}, "'answer' differs"),
    ],
)
def test_bad_snippets_name_file_and_query(demo_dir, tmp_path, changes, message):
    data = copy_demo(demo_dir, tmp_path)
    edit_first_snippet(data, **changes)
    with pytest.raises(BenchmarkError, match=message) as err:
        load_benchmark(data, "demo_nda", "full")
    text = str(err.value)
    if "document not found" not in text:
        assert "demo_nda.json" in text and "demo_nda/0" in text
    else:
        assert "missing.txt" in text


def test_invalid_json_names_file_and_line(demo_dir, tmp_path):
    data = copy_demo(demo_dir, tmp_path)
    (data / "benchmarks" / "demo_nda.json").write_text('{"tests": [\n  {"query": "q",\n  oops}\n]}')
    with pytest.raises(BenchmarkError, match=r"demo_nda\.json: invalid JSON at line 3"):
        load_benchmark(data, "demo_nda", "full")


def test_non_utf8_document_is_reported(demo_dir, tmp_path):
    data = copy_demo(demo_dir, tmp_path)
    doc = data / "corpus" / "demo_nda" / "01_Acme.txt"
    doc.write_bytes(doc.read_bytes() + b"\xff\xfe")
    with pytest.raises(BenchmarkError, match=r"01_Acme\.txt: not UTF-8"):
        load_benchmark(data, "demo_nda", "full")


def test_missing_tests_field_and_unknown_dataset(demo_dir, tmp_path):
    data = copy_demo(demo_dir, tmp_path)
    (data / "benchmarks" / "demo_nda.json").write_text('{"queries": []}')
    with pytest.raises(BenchmarkError, match="list field 'tests'"):
        load_benchmark(data, "demo_nda", "full")
    with pytest.raises(BenchmarkError, match="unknown dataset 'nope'"):
        load_benchmark(data, "nope", "full")


def test_data_dir_resolution(tmp_path, monkeypatch):
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    with pytest.raises(BenchmarkError, match="--data"):
        resolve_data_dir(None)
    with pytest.raises(BenchmarkError, match="no benchmarks/ folder"):
        resolve_data_dir(tmp_path)


def test_lbr_mini_matches_upstream_global_random(demo_dir):
    queries = read_queries(demo_dir, "demo_nda")

    def upstream_key(q):  # upstream's exact rule, with the global generator
        random.seed(q.gold[0].file_path)
        return random.random()

    expected = sorted(queries, key=upstream_key)[:194]
    assert select(queries, "lbr-mini", "demo_nda") == expected


def test_paper_protocol_shuffle_and_seed(demo_dir):
    queries = read_queries(demo_dir, "demo_nda")
    expected = list(queries)
    random.seed("demo_nda194")
    random.shuffle(expected)
    assert select(queries, "paper", "demo_nda") == expected[:194]
    assert select(queries, "paper", "demo_nda", seed=7) != select(queries, "paper", "demo_nda")


def test_real_benchmark_counts(real_data):
    counts = {ds: len(read_queries(real_data, ds)) for ds in ("contractnli", "cuad", "maud", "privacy_qa")}
    assert counts == {"contractnli": 977, "cuad": 4042, "maud": 1676, "privacy_qa": 194}
    mini = load_benchmark(real_data, "all", "lbr-mini")
    paper = load_benchmark(real_data, "all", "paper")
    assert (len(mini.queries), len(mini.documents)) == (776, 72)
    assert (len(paper.queries), len(paper.documents)) == (776, 362)
