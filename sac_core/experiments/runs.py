"""Run files: JSONL, one line per query, its ranked retrieval up to the largest k::

    {"query_id": "contractnli/12", "retrieved": [{"file_path": "contractnli/x.txt", "span": [s, e]}, ...]}

so anyone can rescore a run with their own code.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..engine.data import Span


def write_run(path: Path, run: dict[str, list[Span]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for qid, spans in run.items():
            retrieved = [{"file_path": s.file_path, "span": [s.start, s.end]} for s in spans]
            f.write(json.dumps({"query_id": qid, "retrieved": retrieved}, ensure_ascii=False) + "\n")


def read_run(path: Path) -> dict[str, list[Span]]:
    return read_run_text(path.read_text(encoding="utf-8"), path)


def read_run_text(text: str, path: Path) -> dict[str, list[Span]]:
    """A run from the text of a run file (``path`` names it in errors)."""
    run: dict[str, list[Span]] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            run[row["query_id"]] = [Span(r["file_path"], r["span"][0], r["span"][1]) for r in row["retrieved"]]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError) as e:
            raise ValueError(f"{path}, line {n}: not a run line ({type(e).__name__}: {e})") from None
    return run
