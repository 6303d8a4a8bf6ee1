"""Queries no reader of the texts can place (sac_core.experiments.routing_floor), on a hand-made folder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from sac_core.cli import main
from sac_core.engine.data import load_benchmark
from sac_core.experiments.routing_floor import (
    checked_per_query,
    distinctive_words,
    misplaced,
    share_by_dataset,
    twins,
    unplaceable,
)

DOCS = {
    "contractnli/Alpha-NDA.txt": "MUTUAL NON-DISCLOSURE AGREEMENT between Alpha Inc. and Beta LLC. Secrets stay secret.",
    "contractnli/Zeta-NDA.txt": "NON-DISCLOSURE AGREEMENT. The Recipient keeps the information confidential.",
}
QUERIES = [  # (query, gold file): the second names its document by a word only its file name has
    ("Consider the Non-Disclosure Agreement between Alpha and Beta; does it survive?", "contractnli/Alpha-NDA.txt"),
    ("Consider Zeta's Non-Disclosure Agreement; is oral information covered?", "contractnli/Zeta-NDA.txt"),
    ("Does the policy share my location?", "contractnli/Zeta-NDA.txt"),  # no opening reference
]


def _folder(root: Path, docs: dict[str, str] = DOCS, queries: list[tuple[str, list[str]]] | None = None) -> Path:
    """A benchmark folder of ``docs`` and ``queries`` (query, gold files; default: :data:`QUERIES`)."""
    for path, text in docs.items():
        (root / "corpus" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "corpus" / path).write_text(text, encoding="utf-8")
    asked = queries if queries is not None else [(q, [f]) for q, f in QUERIES]
    tests = [{"query": q, "snippets": [{"file_path": f, "span": [0, 10], "answer": docs[f][:10]} for f in files]}
             for q, files in asked]  # fmt: skip
    (root / "benchmarks").mkdir()
    (root / "benchmarks" / "contractnli.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    return root


def test_distinctive_words_drop_what_every_contract_of_the_kind_says():
    assert distinctive_words("Consider the Mutual Non-Disclosure Agreement between IPTK and CO") == ("iptk",)
    assert distinctive_words("Consider Street Stream's Non-Disclosure Agreement") == ("street", "stream")


def test_only_the_query_whose_reference_is_in_no_text_but_its_file_name_is_unplaceable(tmp_path):
    bench = load_benchmark(_folder(tmp_path), "all", "full")
    found = unplaceable(bench)
    assert [(u.query_id, u.words, u.in_file_name) for u in found] == [("contractnli/1", ("zeta",), True)]
    assert list(share_by_dataset(bench, found).items()) == [("contractnli", (1, 3)), ("ALL", (1, 3))]
    per_query = pd.DataFrame(
        {"variant": ["v"] * 4, "k": [1, 1, 1, 2], "query_id": ["contractnli/0", "contractnli/1", "contractnli/2", "x"],
         "drm": [1.0, 1.0, 0.0, 1.0]}
    )  # fmt: skip
    row = misplaced(per_query, found).iloc[0]
    assert (row["misplaced"], row["unplaceable"], row["queries"]) == (2, 1, 3)


def test_each_cell_of_a_variant_is_counted_on_its_own(tmp_path):
    """Issue 41: a sweep runs a variant at several settings; adding its cells up gave "5252 of 776"."""
    found = unplaceable(load_benchmark(_folder(tmp_path), "all", "full"))
    ids = ["contractnli/0", "contractnli/1", "contractnli/2"]
    per_query = pd.DataFrame(
        {"cell": ["c300"] * 3 + ["c500"] * 3 + ["s"] * 3, "variant": ["baseline"] * 6 + ["sac"] * 3,
         "chunk_size": [300] * 3 + [500] * 3 + [300] * 3, "summary_chars": [None] * 6 + [150.0] * 3,
         "query_id": ids * 3, "k": 1, "drm": [1.0, 1.0, 0.0, 0.0, 1.0, float("nan"), 0.0, 0.0, 0.0]}
    )  # fmt: skip
    table = misplaced(per_query, found)
    rows = [(r.label, r.misplaced, r.unplaceable, r.queries) for r in table.itertuples()]
    assert rows == [("baseline (chunk 300)", 2, 1, 3), ("baseline (chunk 500)", 1, 1, 3), ("sac", 0, 0, 3)]


@pytest.mark.parametrize(
    ("table", "said"),
    [
        (pd.DataFrame({"variant": ["v"], "query_id": ["q"], "drm": [1.0]}), "no column k"),
        (pd.DataFrame({"variant": ["v"], "query_id": ["q"], "k": [1], "drm": ["lots"]}), "column drm holds 'lots'"),
        (
            pd.DataFrame({"variant": ["v"], "query_id": ["q"], "k": [4], "drm": [1.0]}),
            "no rows at k = 1 (it has k = 4)",
        ),
    ],
)
def test_a_per_query_table_it_cannot_read_is_one_error_naming_the_file(table, said):
    with pytest.raises(ValueError, match=re.escape(f"x/per_query.csv.gz: {said}")):
        checked_per_query(table, "x/per_query.csv.gz")


def test_floor_results_errors_are_one_line(tmp_path, capsys):
    data = _folder(tmp_path / "data")
    (tmp_path / "plain").write_text("a file", encoding="utf-8")
    (tmp_path / "badgz").mkdir()
    (tmp_path / "badgz" / "per_query.csv.gz").write_bytes(b"not gzip")
    cases = {
        tmp_path / "missing": f"--results {tmp_path / 'missing'}: not a sweep folder (no per_query.csv.gz in it)",
        tmp_path / "plain": f"--results {tmp_path / 'plain'}: not a sweep folder (no per_query.csv.gz in it)",
        tmp_path / "badgz": f"{tmp_path / 'badgz' / 'per_query.csv.gz'}: not a CSV table (Not a gzipped file (b'no'))",
    }
    for folder, said in cases.items():
        assert main(["floor", "--data", str(data), "--protocol", "full", "--results", str(folder)]) == 2
        assert capsys.readouterr().err.splitlines() == [f"sac: error: {said}"]


def test_floor_counts_each_cell_of_a_sweep_on_its_own(tmp_path, capsys):
    data = _folder(tmp_path / "data")
    (tmp_path / "sweep").mkdir()
    rows = [{"cell": c, "variant": "baseline", "chunk_size": size, "query_id": f"contractnli/{q}", "k": 1,
             "drm": 1.0 if q < 2 else 0.0} for c, size in (("a", 300), ("b", 500)) for q in range(3)]  # fmt: skip
    pd.DataFrame(rows).to_csv(tmp_path / "sweep" / "per_query.csv.gz", index=False)
    assert main(["floor", "--data", str(data), "--protocol", "full", "--results", str(tmp_path / "sweep")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == [
        f"baseline (chunk {size}): 2 of 3 queries misplaced at k = 1, 1 of them cannot be placed by reading the texts"
        for size in (300, 500)
    ]


def test_a_query_whose_document_has_a_twin_outside_its_gold_is_unplaceable_whatever_its_words(tmp_path, capsys):
    form = "DEPARTMENT OF HOMELAND SECURITY NON-DISCLOSURE AGREEMENT. I, ____, consent."
    docs_twins = {**DOCS, "contractnli/dhs-1.txt": form, "contractnli/dhs-2.txt": form}
    queries = [  # the reference's words are in both texts: only the twin makes it unplaceable
        ("Consider the Homeland Security NDA; is oral information covered?", ["contractnli/dhs-1.txt"]),
        ("Consider the Homeland Security NDA; does it survive?", ["contractnli/dhs-1.txt", "contractnli/dhs-2.txt"]),
        (
            "Consider the Non-Disclosure Agreement between Alpha and Beta; does it survive?",
            ["contractnli/Alpha-NDA.txt"],
        ),
    ]
    root = _folder(tmp_path / "data", docs_twins, queries)
    bench = load_benchmark(root, "all", "full")
    assert twins(bench) == {
        "contractnli/dhs-1.txt": ("contractnli/dhs-2.txt",),
        "contractnli/dhs-2.txt": ("contractnli/dhs-1.txt",),
    }
    # the second query cites both twins: a reader taking either is right, so it stays placeable
    assert [(u.query_id, u.twin) for u in unplaceable(bench)] == [("contractnli/0", "contractnli/dhs-2.txt")]
    assert main(["floor", "--data", str(root), "--protocol", "full", "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "contractnli: 1 of 3 queries (33.33 %) cannot be placed by reading the texts",
        "ALL: 1 of 3 queries (33.33 %) cannot be placed by reading the texts",
        "of these, 0 name their document by no word of its text (0 by a word of its file name) and 1 cite a document "
        "whose text another document has too",
        "  contractnli/0: Consider the Homeland Security NDA (same text as contractnli/dhs-2.txt)",
    ]
