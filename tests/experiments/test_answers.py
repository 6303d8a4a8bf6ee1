"""``sac answers`` on the demo corpus: every query answered offline from a method's top-k, the
citations checked against gold documents, scored, and summed up per method."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.answers import ExtractiveAnswerer
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig
from sac_core.experiments.answers import answer_queries, answer_table, write_answers

DEMO = ("demo_nda",)


@pytest.fixture(scope="module")
def rows(demo_dir: Path, embed_cache: Path) -> list[dict]:
    bench = load_benchmark(demo_dir, DEMO, "full")
    ctx = OpenContext.new(bench, demo_dir, embed_cache)
    answerer = ExtractiveAnswerer(ctx.embedders.get(RunConfig().model, RunConfig().backend))
    base = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file"))
    out = []
    for name, config in (("baseline", base), ("sac", base.with_(method="sac"))):
        out.extend(answer_queries(name, config, ctx, answerer, k=3))
    return out


def test_every_query_gets_a_checked_scored_answer_per_method(rows: list[dict], demo_dir: Path):
    queries = load_benchmark(demo_dir, DEMO, "full").queries
    assert len(rows) == 2 * len(queries)
    for row in rows:
        assert row["k"] == 3 and 0 <= row["token_f1"] <= 1 and 0 <= row["rouge_l"] <= 1
        for c in row["citations"]:
            assert c["label"] in row["answer"] and c["gold_document"] in (True, False)
        gold = {g.file_path for q in queries if q.query_id == row["query_id"] for g in q.gold}
        assert row["cites_only_gold"] == (
            bool(row["citations"]) and all(c["file_path"] in gold for c in row["citations"])
        )


def test_the_table_sums_up_each_method_and_sac_cites_the_wrong_nda_less(rows: list[dict], tmp_path: Path):
    table = answer_table(rows).set_index(["method", "dataset"])
    assert table.loc[("baseline", "ALL"), "answers"] == len(rows) // 2
    assert table.loc[("sac", "ALL"), "cites_other_document"] < table.loc[("baseline", "ALL"), "cites_other_document"]
    out = tmp_path / "answers.jsonl"
    write_answers(out, rows)
    back = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert back == rows and not list(tmp_path.glob(".*.tmp"))
