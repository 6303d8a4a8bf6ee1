"""sac reword: the rewordings of LegalBench-RAG's 71 question templates (package data) and the
reworded copy of a benchmark folder (a hand-made benchmark of real templates, the demo benchmark,
a held-out folder, and the real data when SAC_DATA_DIR is set)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from sac_core.engine.data import PROTOCOLS, BenchmarkError, load_benchmark, write_heldout
from sac_core.engine.retrieval import split_query
from sac_core.experiments.noname import write_noname
from sac_core.experiments.reword import REWORDINGS_FILE, reword, rewordings, variant_table, write_reworded

TEMPLATES_PER_DATASET = {"cuad": 35, "maud": 19, "contractnli": 17}
GOVERNING_LAW = "What is the governing law for this contract?"


def test_every_template_has_two_different_rewordings_of_its_own() -> None:
    table = rewordings()
    assert {ds: len(templates) for ds, templates in table.items()} == TEMPLATES_PER_DATASET
    every = [t for templates in table.values() for t in templates]
    assert len(set(every)) == len(every) == 71  # no template in two datasets
    written = [w for templates in table.values() for pair in templates.values() for w in pair]
    assert len(set(written)) == len(written) == 142  # none shared by two templates or two variants
    for templates in table.values():
        for template, pair in templates.items():
            assert len(pair) == 2 and all(w.strip() == w and len(w) >= 10 for w in pair), template
            assert template not in pair and pair[0] != pair[1], template
            assert not set(pair) & set(every), template  # no rewording is another template


def test_a_reworded_question_splits_off_the_same_opening_and_never_looks_like_one() -> None:
    opening = 'Consider the Acquisition Agreement between Parent "A, Inc." and Target "B Corp."'
    for variant in (1, 2):
        for template, new in variant_table(variant).items():
            parts = split_query(reword(f"{opening}; {template}", {template: new}))
            assert (parts.document, parts.question) == (opening, new)
            assert not split_query(new).split, new  # a no-name reworded query names no document


def test_the_data_file_says_how_it_was_written() -> None:
    raw = json.loads(resources.files("sac_core.experiments").joinpath(REWORDINGS_FILE).read_text(encoding="utf-8"))
    assert {"about", "written_by", "rules", "variants", "privacy_qa", "templates"} <= set(raw)
    assert "never tune" in raw["variants"]["2"] and "194" in raw["privacy_qa"]


def test_reword_replaces_only_the_question() -> None:
    table = {GOVERNING_LAW: "Which law applies?"}
    assert reword(f"Consider the NDA between A and B; {GOVERNING_LAW}", table) == (
        "Consider the NDA between A and B; Which law applies?"
    )
    assert reword(f"Consider X;   {GOVERNING_LAW}  ", table) == "Consider X;   Which law applies?  "
    assert reword(GOVERNING_LAW, table) == "Which law applies?"  # no opening: the whole query is the question
    for kept in ("Consider X; What is the term?", "What is the term?", f"{GOVERNING_LAW} Really?"):
        assert reword(kept, table) == kept
    with pytest.raises(ValueError, match="variant 3"):
        variant_table(3)


@pytest.mark.parametrize("variant", [1, 2])
def test_the_copy_changes_exactly_the_template_questions(template_data: Path, tmp_path: Path, variant: int) -> None:
    out = tmp_path / "reworded"
    assert write_reworded(template_data, out, variant) == {"contractnli": (1, 1), "cuad": (5, 4)}
    assert (out / "corpus").resolve() == (template_data / "corpus").resolve() and (out / "corpus").is_symlink()
    table = variant_table(variant)
    for ds in ("cuad", "contractnli"):
        before = json.loads((template_data / "benchmarks" / f"{ds}.json").read_text(encoding="utf-8"))
        after = json.loads((out / "benchmarks" / f"{ds}.json").read_text(encoding="utf-8"))
        assert after.pop("transform") == f"reword-{variant}" and after["version"] == before["version"]
        assert len(after["tests"]) == len(before["tests"])
        for old, new in zip(before["tests"], after["tests"]):
            assert {**new, "query": old["query"]} == old  # snippets, spans, answers, other fields: as written
            question = split_query(old["query"]).question
            if question in table:
                head = old["query"][: old["query"].index(question)]
                tail = old["query"][old["query"].index(question) + len(question) :]
                assert new["query"] == head + table[question] + tail
            else:
                assert new["query"] == old["query"]
    spaced = json.loads((out / "benchmarks" / "cuad.json").read_text(encoding="utf-8"))["tests"][4]["query"]
    assert spaced.startswith("Consider the Master Services Agreement between Alpha Inc. and Beta LLC;   ")


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_every_protocol_loads_the_copy_with_the_same_ids_and_gold(
    template_data: Path, demo_dir: Path, tmp_path: Path, protocol: str
) -> None:
    for name, source in (("templates", template_data), ("demo", demo_dir)):
        out = tmp_path / name
        write_reworded(source, out, 2)
        normal, reworded = load_benchmark(source, "all", protocol), load_benchmark(out, "all", protocol)
        assert [q.query_id for q in reworded.queries] == [q.query_id for q in normal.queries]
        assert [q.gold for q in reworded.queries] == [q.gold for q in normal.queries]
        assert reworded.documents.keys() == normal.documents.keys()
        assert reworded.transform == "reword-2" and normal.transform == ""
        changed = sum(a.text != b.text for a, b in zip(normal.queries, reworded.queries))
        assert changed == (0 if name == "demo" else len(normal.queries) - 1)  # one hand-made query is no template


def test_the_demo_copy_keeps_every_query(demo_dir: Path, tmp_path: Path) -> None:
    assert write_reworded(demo_dir, tmp_path / "demo", 1) == {"demo_nda": (48, 0), "demo_privacy": (18, 0)}
    assert (tmp_path / "demo" / "summaries").is_symlink()


def test_a_held_out_folder_and_a_no_name_copy_are_reworded_too(template_data: Path, tmp_path: Path) -> None:
    heldout = tmp_path / "heldout"
    write_heldout(template_data, heldout, ("cuad", "contractnli"), exclude=(), max_docs=5)
    assert write_reworded(heldout, tmp_path / "heldout-reworded", 1) == {"contractnli": (1, 1), "cuad": (5, 4)}
    load_benchmark(tmp_path / "heldout-reworded", "all", "full")  # its corpus links resolve
    noname = tmp_path / "noname"
    write_noname(template_data, noname)
    assert write_reworded(noname, tmp_path / "noname-reworded", 1) == {"contractnli": (1, 1), "cuad": (5, 4)}
    raw = json.loads((tmp_path / "noname-reworded" / "benchmarks" / "cuad.json").read_text(encoding="utf-8"))
    assert raw["transform"] == "no-name+reword-1" and raw["tests"][0]["query"] == variant_table(1)[GOVERNING_LAW]


def test_bad_input_is_refused_naming_the_file(template_data: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="variant 0"):
        write_reworded(template_data, tmp_path / "out", 0)
    broken = tmp_path / "broken"
    (broken / "benchmarks").mkdir(parents=True)
    (broken / "benchmarks" / "cuad.json").write_text('{"tests": [', encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"broken/benchmarks/cuad\.json: invalid JSON at line 1"):
        write_reworded(broken, tmp_path / "out", 1)
    assert not (tmp_path / "out").exists()


def test_on_legalbench_rag_every_template_is_covered_and_only_privacy_qa_is_kept(
    real_data: Path, tmp_path: Path
) -> None:
    table = rewordings()
    for ds in TEMPLATES_PER_DATASET:
        tests = json.loads((real_data / "benchmarks" / f"{ds}.json").read_text(encoding="utf-8"))["tests"]
        assert {split_query(t["query"]).question for t in tests} == set(table[ds]), ds
    for variant in (1, 2):
        out = tmp_path / f"reword{variant}"
        counts = write_reworded(real_data, out, variant)
        assert counts == {"contractnli": (977, 977), "cuad": (4042, 4042), "maud": (1676, 1676), "privacy_qa": (194, 0)}
        for protocol in PROTOCOLS:
            normal, reworded = load_benchmark(real_data, "all", protocol), load_benchmark(out, "all", protocol)
            assert [q.query_id for q in reworded.queries] == [q.query_id for q in normal.queries]
            assert [q.gold for q in reworded.queries] == [q.gold for q in normal.queries]
            for a, b in zip(normal.queries, reworded.queries):
                assert split_query(a.text).document == split_query(b.text).document
                assert (a.text == b.text) == (a.dataset == "privacy_qa")
