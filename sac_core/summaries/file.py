"""Summaries imported from JSONL, one object per line:

    {"file_path": "cuad/x.txt", "prompt": "generic", "chars": 150, "summary": "..."}

(the format of ``legalbench-rag/summaries/llm.jsonl``). Lines for other prompts or lengths are
ignored; a malformed line is an error naming the file and line number.
"""

from __future__ import annotations

import json
from pathlib import Path


class SummaryFileError(ValueError):
    pass


def read_summary_file(path: Path, prompt: str, chars: int) -> dict[str, str]:
    """``file_path → summary`` for one (prompt, target length) from a JSONL file."""
    out: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise SummaryFileError(f"{path}: summary file not found") from None
    except UnicodeDecodeError as e:
        raise SummaryFileError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise SummaryFileError(f"{path}, line {n}: invalid JSON: {e.msg}") from None
        missing = [f for f in ("file_path", "prompt", "chars", "summary") if f not in row]
        if not isinstance(row, dict) or missing:
            raise SummaryFileError(f"{path}, line {n}: missing field(s) {', '.join(missing) or 'all'}")
        if row["prompt"] == prompt and row["chars"] == chars:
            if not isinstance(row["summary"], str):
                raise SummaryFileError(f"{path}, line {n}: field 'summary' is not a string")
            out[row["file_path"]] = row["summary"]
    return out
