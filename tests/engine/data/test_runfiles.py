"""Run files (JSONL and TREC): read, validated line by line, written back; malformed files name the line."""

from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sac_core.engine.data import (
    Query,
    RunCheck,
    RunFileError,
    Snippet,
    decode,
    doc_id,
    named_queries,
    parse_doc_id,
    parse_run,
    write_jsonl,
    write_trec,
)

DOCS = {"nda/a b.txt": "Alpha party agrees. " * 5, "nda/c#1%.txt": "Gamma terms apply here. " * 4}
QUERIES = {
    "nda/0": Query("nda/0", "nda", "What does Alpha agree?", (Snippet("nda/a b.txt", 0, 19),)),  # type: ignore[arg-type]
    "nda/1": Query("nda/1", "nda", "Which terms apply?", ()),
    "nda/2": Query("nda/2", "nda", "Same text", ()),
    "nda/3": Query("nda/3", "nda", "Same text", ()),
}


def check(selected: tuple[str, ...] = ("nda/0", "nda/1")) -> RunCheck:
    return RunCheck(QUERIES, frozenset(selected), DOCS.get)


def jsonl(*rows: object) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def test_jsonl_by_text_and_by_id_in_benchmark_order() -> None:
    text = jsonl(
        {"query_id": "nda/1", "snippets": []},
        {"query": "What does Alpha agree?", "snippets": [
            {"file_path": "nda/a b.txt", "span": [0, 19], "score": 2.0, "answer": "Alpha party agrees."},
            {"file_path": "nda/a b.txt", "span": [10, 30], "score": 2.0},  # overlaps: allowed
        ]},
        {"query": "Same text", "query_id": "nda/2", "snippets": []},  # outside the benchmark: skipped
    )  # fmt: skip
    run = parse_run(text, "r.jsonl", check())
    assert run.format == "jsonl" and list(run.queries) == ["nda/0", "nda/1"] and run.skipped == 1
    assert run.queries["nda/0"] == (Snippet("nda/a b.txt", 0, 19, 2.0), Snippet("nda/a b.txt", 10, 30, 2.0))
    assert run.queries["nda/0"][0].text == "Alpha party agrees."


def test_trec_ordered_by_rank_and_empty_queries() -> None:
    text = "nda/0 Q0 nda/a%20b.txt#20-39 2 1.5 x\nnda/0 Q0 nda/c%231%25.txt#0-5 1 3 x\n"
    run = parse_run(text, "r.trec", check())
    assert run.format == "trec"
    assert run.queries["nda/0"] == (Snippet("nda/c#1%.txt", 0, 5, 3.0), Snippet("nda/a b.txt", 20, 39, 1.5))
    assert run.queries["nda/1"] == ()  # no line: nothing retrieved


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{nope\n", "r, line 1: not JSON"),
        ('[1, 2]\n', "line 1: expected a JSON object"),
        (jsonl({"snippets": []}), "line 1: needs field 'query'"),
        (jsonl({"query_id": "nda/9", "snippets": []}), "line 1: field 'query_id': unknown query 'nda/9'"),
        (jsonl({"query": "Who?", "snippets": []}), "line 1: field 'query': no query of the benchmark has the text"),
        (jsonl({"query": "Same text", "snippets": []}), "line 1: field 'query': 2 queries (nda/2, nda/3)"),
        (jsonl({"query_id": "nda/0", "query": "other", "snippets": []}), "line 1: field 'query': the text differs"),
        (jsonl({"query_id": "nda/0", "snippets": {}}), "line 1: field 'snippets' must be a list"),
        (jsonl({"query_id": "nda/0", "snippets": [{"span": [0, 1]}]}), "line 1: snippets[0].file_path: missing"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/x.txt", "span": [0, 1]}]}),
         "line 1: snippets[0].file_path: no document 'nda/x.txt'"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "../etc/passwd", "span": [0, 1]}]}),
         "snippets[0].file_path: no document"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0]}]}),
         "line 1: snippets[0].span: must be [start, end] integers"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [5, 5]}]}),
         "snippets[0].span: [5, 5] is empty or negative"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0, 999]}]}),
         "line 1: snippets[0].span: [0, 999) lies outside nda/a b.txt (100 characters)"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0, 5], "text": "Beta!"}]}),
         "snippets[0].text: differs from the characters"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0, 5], "score": "high"}]}),
         "snippets[0].score: must be a finite number"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0, 5], "score": 1},
                                                   {"file_path": "nda/a b.txt", "span": [5, 9], "score": 2}]}),
         "snippets[1].score: 2 is above the score before it (1)"),
        (jsonl({"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0, 5]}] * 2}),
         "snippets[1]: the same snippet twice"),
        (jsonl({"query_id": "nda/1", "snippets": []}, {"query_id": "nda/1", "snippets": []}),
         "line 2: query nda/1 again (first on line 1)"),
        (jsonl({"query_id": "nda/1", "snippets": []}), "no line for 1 of the 2 benchmark queries (nda/0)"),
        ("nda/0 Q0 nda/a%20b.txt#0-5 1\n", "line 1: expected 6 columns"),
        ("nda/7 Q0 nda/a%20b.txt#0-5 1 1.0 x\n", "line 1: column 1 (qid): unknown query 'nda/7'"),
        ("nda/0 Q0 nda/a%20b.txt 1 1.0 x\n", "line 1: column 3 (docid): not file_path#start-end"),
        ("nda/0 Q0 nda/a%20b.txt#0-5 one 1.0 x\n", "line 1: column 4 (rank): not an integer"),
        ("nda/0 Q0 nda/a%20b.txt#0-5 1 nan x\n", "line 1: column 5 (score): must be finite"),
        ("nda/0 Q0 nda/a%20b.txt#0-5 1 1.0 x\nnda/0 Q0 nda/a%20b.txt#5-9 1 0.5 x\n",
         "line 2: column 4 (rank): rank 1 of query nda/0 again (first on line 1)"),
        ("nda/0 Q0 nda/a%20b.txt#0-5 1 1.0 x\nnda/0 Q0 nda/a%20b.txt#0-5 2 0.5 x\n",
         "line 2: column 3 (docid): nda/a%20b.txt#0-5 twice"),
        ("nda/0 Q0 nda/a%20b.txt#0-5 1 1.0 x\nnda/0 Q0 nda/a%20b.txt#5-9 2 3.0 x\n",
         "line 2: column 5 (score): 3 at rank 2 is above 1 at rank 1"),
        ("nda/0 Q0 nda/a%20b.txt#0-500 1 1.0 x\n", "line 1: column 3 (docid).span: [0, 500) lies outside"),
        ("", "r: the file is empty"),  # not a run of queries that retrieved nothing
        (" \n\n", "r: the file is empty"),
        ("nda/2 Q0 nda/a%20b.txt#0-5 1 1.0 x\n", "r: no line names a query of this benchmark (2 queries; 1 lines"),
        ('{"query_id": "nda/0", "snippets": [{"file_path": "nda/a b.txt", "span": [0, 1' + "0" * 5000 + "]}]}\n",
         "r, line 1: a number with more than 4,300 digits"),
        ("[" * 100_000 + "]" * 100_000 + "\n", "r, line 1: brackets nested too deep"),
        ("nda/0 Q0 nda/a%20b.txt#0-" + "9" * 5000 + " 1 1.0 x\n", "line 1: column 3 (docid): not file_path#start-end"),
    ],
)  # fmt: skip
def test_malformed_run_files_name_the_line_and_field(text: str, expected: str) -> None:
    with pytest.raises(RunFileError) as err:
        parse_run(text, "r", check())
    assert expected in str(err.value) and str(err.value).startswith("r")


def test_the_queries_a_run_names_without_checking_its_snippets() -> None:
    text = jsonl({"query_id": "nda/1", "snippets": [{"file_path": "gone.txt", "span": [0, 1]}]},
                 {"query": "What does Alpha agree?", "snippets": []})  # fmt: skip
    assert named_queries(text, "r", QUERIES) == {"nda/0", "nda/1"}
    assert named_queries("nda/3 Q0 x#0-1 1 1 t\nnda/3 Q0 x#1-2 2 0.5 t\n", "r", QUERIES) == {"nda/3"}
    with pytest.raises(RunFileError, match="r, line 1: field 'query_id': unknown query"):
        named_queries(jsonl({"query_id": "nda/9", "snippets": []}), "r", QUERIES)


def test_decode_checks_size_encoding_and_unpacks_gzip() -> None:
    with pytest.raises(RunFileError, match=r"r, line 2: not UTF-8"):
        decode(b'{"a": 1}\n\xff\n', "r")
    with pytest.raises(RunFileError, match="more than the 10 accepted"):
        decode(b"x" * 11, "r", max_bytes=10)
    with pytest.raises(RunFileError, match="more than 30 bytes once unpacked"):
        decode(gzip.compress(b"x" * 1000), "r", max_bytes=30)
    assert decode(gzip.compress("\ufeffé".encode()), "r") == "é"


def test_doc_ids_round_trip_any_path() -> None:
    for path in ("a/b c.txt", "x/#1 %20.txt", "ü/ä.txt"):
        s = Snippet(path, 3, 9)
        assert " " not in doc_id(s) and parse_doc_id(doc_id(s)) == (path, 3, 9)


# --------------------------------------------------------------------------- Hypothesis


@st.composite
def runs(draw: st.DrawFn) -> dict[str, list[Snippet]]:
    out = {}
    for qid in ("nda/0", "nda/1"):
        spans = draw(st.lists(st.tuples(st.sampled_from(sorted(DOCS)), st.integers(0, 80), st.integers(1, 20)),
                              max_size=6, unique_by=lambda t: t))  # fmt: skip
        scores = sorted(draw(st.lists(st.floats(-5, 5), min_size=len(spans), max_size=len(spans))), reverse=True)
        snippets = {(fp, s, min(s + n, len(DOCS[fp]))): sc for (fp, s, n), sc in zip(spans, scores)}
        out[qid] = [Snippet(fp, s, e, sc) for (fp, s, e), sc in snippets.items() if s < e]
    return out


@settings(max_examples=60, deadline=None)
@given(runs())
def test_written_runs_read_back_identically(run: dict[str, list[Snippet]]) -> None:
    as_jsonl = parse_run(write_jsonl(QUERIES, run), "r", check())
    assert as_jsonl.queries == {qid: tuple(run[qid]) for qid in ("nda/0", "nda/1")}
    if not any(run.values()):  # TREC writes no line: an empty file, refused rather than read as a run
        with pytest.raises(RunFileError, match="the file is empty"):
            parse_run(write_trec(run, "tag"), "r", check())
        return
    assert parse_run(write_trec(run, "tag"), "r", check()).queries == as_jsonl.queries


@settings(max_examples=80, deadline=None)
@given(runs(), st.data())
def test_a_corrupted_line_is_named(run: dict[str, list[Snippet]], data: st.DataObject) -> None:
    lines = write_jsonl(QUERIES, run).splitlines()
    n = data.draw(st.integers(0, len(lines) - 1))
    row = json.loads(lines[n])
    how = data.draw(st.sampled_from(["json", "query", "file", "span", "drop-field"]))
    if how == "json":
        lines[n] = lines[n][:-1]
    elif how == "query":
        row["query_id"], row["query"] = "nda/99", None
        lines[n] = json.dumps({k: v for k, v in row.items() if v is not None})
    elif how == "drop-field":
        lines[n] = json.dumps({"query_id": row["query_id"]})
    else:
        row["snippets"] = [{"file_path": "nda/none.txt" if how == "file" else "nda/a b.txt",
                            "span": [0, 10**6] if how == "span" else [0, 5]}]  # fmt: skip
        lines[n] = json.dumps(row)
    with pytest.raises(RunFileError, match=rf"^r, line {n + 1}: "):
        parse_run("\n".join(lines) + "\n", "r", check())
