"""Run files written, in the formats :mod:`.runfiles` reads back: JSONL (query id and text, ranked
snippets) and TREC (doc ids ``file_path#start-end``, the path percent-encoded)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from urllib.parse import quote

from .runfiles import Snippet
from .types import Query


def doc_id(snippet: Snippet) -> str:
    """``file_path#start-end``, the path percent-encoded (``/`` kept): a TREC doc id without spaces."""
    return f"{quote(snippet.file_path, safe='/')}#{snippet.start}-{snippet.end}"


def write_jsonl(queries: Mapping[str, Query], run: Mapping[str, Iterable[Snippet]]) -> str:
    """A run as JSONL in the format :func:`~.runfiles.parse_run` reads (query id and text, ranked snippets;
    a snippet's score only when it has one)."""
    lines = []
    for qid, snippets in run.items():
        row: dict[str, object] = {"query_id": qid}
        if qid in queries:
            row["query"] = queries[qid].text
        row["snippets"] = [
            {"file_path": s.file_path, "span": [s.start, s.end], **({} if s.score is None else {"score": s.score})}
            for s in snippets
        ]
        lines.append(json.dumps(row, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def write_trec(run: Mapping[str, Iterable[Snippet]], tag: str) -> str:
    """A run in TREC format: ``qid Q0 file_path#start-end rank score tag``; a snippet without a
    score gets ``1/rank`` (the order is what counts)."""
    if not tag or any(ch.isspace() for ch in tag):
        raise ValueError(f"a TREC run tag needs no spaces, got {tag!r}")
    out = []
    for qid, snippets in run.items():
        for rank, s in enumerate(snippets, start=1):
            score = s.score if s.score is not None else 1.0 / rank
            out.append(f"{qid} Q0 {doc_id(s)} {rank} {score!r} {tag}\n")
    return "".join(out)
