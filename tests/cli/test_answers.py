"""``sac answers`` on the demo corpus: the extractive answerer offline, and the real ``openai``
client against a scripted local server (a second run sends no request, the key is never written)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sac_core.cli import main

DATA = ["--protocol", "full", "--datasets", "demo_nda", "--quiet"]
KEY = "sk-test-DO-NOT-LEAK-answers-0123456789"


def test_extractive_answers_cite_labelled_chunks_and_are_scored(demo_dir, embed_cache, tmp_path, capsys) -> None:
    out, table = tmp_path / "answers.jsonl", tmp_path / "table.csv"
    argv = ["answers", "--data", str(demo_dir), *DATA, "--cache-dir", str(embed_cache), "--k", "3"]
    assert main([*argv, "--method", "baseline,doc-aware", "--out", str(out), "--table-out", str(table)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["method"] for r in rows} == {"baseline", "doc-aware"} and len(rows) % 2 == 0
    for row in rows:
        for c in row["citations"]:
            assert c["label"] in {"#1", "#2", "#3"} and f"[{c['label']}]" in row["answer"]
            assert isinstance(c["gold_document"], bool) and len(c["span"]) == 2
        assert row["cites_only_gold"] == (bool(row["citations"]) and all(c["gold_document"] for c in row["citations"]))
    overall = pd.read_csv(table).query("dataset == 'ALL'").set_index("method")
    assert 0 <= overall.loc["baseline", "token_f1"] <= 1 and overall.loc["doc-aware", "answers"] == len(rows) // 2
    printed = capsys.readouterr().out
    assert printed.startswith("answers from the top 3 chunks, extractive answerer")


def test_openai_answers_are_cached_and_a_bad_method_is_one_line(
    demo_dir, embed_cache, chat_server, tmp_path, capsys, monkeypatch
) -> None:
    server = chat_server(lambda body: {"content": "The agreement says so [#1]."})
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    cache = tmp_path / "cache"
    argv = ["answers", "--data", str(demo_dir), *DATA, "--cache-dir", str(cache), "--method", "baseline"]
    argv += ["--answerer", "openai", "--llm-model", "test-model", "--base-url", server.url, "--k", "2"]
    assert main([*argv, "--estimate-only", "--out", str(tmp_path / "none.jsonl")]) == 0
    assert not server.requests and not (tmp_path / "none.jsonl").exists()  # an estimate asks nothing
    assert "answers not cached: at most" in capsys.readouterr().err
    assert main([*argv, "--out", str(tmp_path / "a.jsonl")]) == 0
    sent = len(server.requests)
    rows = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sent == len(rows) > 0 and all(r["citations"][0]["label"] == "#1" for r in rows)
    assert main([*argv, "--out", str(tmp_path / "b.jsonl")]) == 0
    assert len(server.requests) == sent  # the second run sends no request
    assert "0 requests sent" in capsys.readouterr().err
    written = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert KEY.encode() not in written
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--method", "nope", "--out", str(tmp_path / "c.jsonl")])
    assert exit_.value.code == 2 and "unknown method nope; offered: baseline" in capsys.readouterr().err
