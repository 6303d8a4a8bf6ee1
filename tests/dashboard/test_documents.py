"""sac_core.dashboard.documents: a document's summaries and the gold spans in it."""

from __future__ import annotations

import json

from sac_core.dashboard import documents as state
from sac_core.engine.data import load_benchmark

DEMO = ("demo_nda", "demo_privacy")


def test_queries_citing_lists_every_gold_span_of_a_document_in_order(demo_dir):
    bench = load_benchmark(demo_dir, DEMO, "full")
    pairs = state.queries_citing(bench, "demo_nda/01_Acme.txt")
    assert len(pairs) == 4  # four clauses are asked about per NDA
    assert [s.start for _, s in pairs] == sorted(s.start for _, s in pairs)
    assert all(s.file_path == "demo_nda/01_Acme.txt" and s in q.gold for q, s in pairs)


def test_gold_by_document_covers_every_document_once(demo_dir):
    bench = load_benchmark(demo_dir, DEMO, "full")
    by_doc = state.gold_by_document(bench)
    assert set(by_doc) == set(bench.documents)
    assert sum(len(v) for v in by_doc.values()) == sum(len(q.gold) for q in bench.queries)
    assert by_doc["demo_nda/01_Acme.txt"] == state.queries_citing(bench, "demo_nda/01_Acme.txt")
    assert state.queries_citing(bench, "nope.txt") == []


def test_document_summaries_for_reads_the_summary_file(demo_dir, tmp_path):
    rows = [json.loads(line) for line in (demo_dir / "summaries" / "llm.jsonl").read_text().splitlines()]
    want = {r["prompt"]: r["summary"] for r in rows if r["file_path"] == "demo_nda/01_Acme.txt" and r["chars"] == 300}
    text = (demo_dir / "corpus" / "demo_nda" / "01_Acme.txt").read_text()
    got = state.document_summaries_for("demo_nda/01_Acme.txt", text, "file", 300, demo_dir, tmp_path)
    assert got == want


def test_summary_prompts():
    assert state.summary_prompts("extractive") == ("generic",)
    assert state.summary_prompts("openai") == ("generic", "expert")


def test_entity_and_section_rows_for_the_documents_page():
    text = (
        "MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Agreement is made between Kestrel Aerospace Inc. (\"Kestrel\") and "
        "Lumen Optics LLC (\"Lumen\").\n\n" + "Recitals. " * 50 + "\n1. Confidentiality\n" + "Secret. " * 80
        + "\nThis Agreement shall be governed by the laws of the State of Delaware.\n"
    )  # fmt: skip
    entities = state.entity_rows(text)
    kinds = {row["entity"] for row in entities}
    assert {"title", "party", "governing law"} <= kinds
    assert {"entity": "governing law", "value": "Delaware"} in entities
    sections = state.section_rows(text)
    assert sections[0]["start"] == 0 and sections[-1]["end"] == len(text)
    assert any(row["heading"] == "1. Confidentiality" for row in sections)
