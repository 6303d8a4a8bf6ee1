"""Queries placeable only by file name (sac_core.experiments.routing_floor), on a hand-made folder."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from sac_core.engine.data import load_benchmark
from sac_core.experiments.routing_floor import distinctive_words, misplaced, share_by_dataset, unplaceable

DOCS = {
    "contractnli/Alpha-NDA.txt": "MUTUAL NON-DISCLOSURE AGREEMENT between Alpha Inc. and Beta LLC. Secrets stay secret.",
    "contractnli/Zeta-NDA.txt": "NON-DISCLOSURE AGREEMENT. The Recipient keeps the information confidential.",
}
QUERIES = [  # (query, gold file): the second names its document by a word only its file name has
    ("Consider the Non-Disclosure Agreement between Alpha and Beta; does it survive?", "contractnli/Alpha-NDA.txt"),
    ("Consider Zeta's Non-Disclosure Agreement; is oral information covered?", "contractnli/Zeta-NDA.txt"),
    ("Does the policy share my location?", "contractnli/Zeta-NDA.txt"),  # no opening reference
]


def _folder(root: Path) -> Path:
    for path, text in DOCS.items():
        (root / "corpus" / path).parent.mkdir(parents=True, exist_ok=True)
        (root / "corpus" / path).write_text(text, encoding="utf-8")
    tests = [{"query": q, "snippets": [{"file_path": f, "span": [0, 10], "answer": DOCS[f][:10]}]} for q, f in QUERIES]
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
