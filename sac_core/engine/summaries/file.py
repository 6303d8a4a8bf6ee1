"""Summaries imported from JSONL, one object per line:

    {"file_path": "cuad/x.txt", "prompt": "generic", "chars": 150, "summary": "..."}

(the format of ``legalbench-rag/summaries/llm.jsonl``). Lines for other prompts or lengths are
ignored; a malformed line is an error naming the file and line number. Imported summaries are
used as they are (no length control, no cache). A server confined to ``$SAC_DATA_ROOT`` reads the
file only when it resolves inside a root.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..data import BenchmarkError, confined
from .errors import SummaryError, json_object
from .prompts import Prompt
from .provider import SummaryResult

SummaryFileError = SummaryError  # former name, kept for callers
_FIELDS = ("file_path", "prompt", "chars", "summary")


def read_summary_file(path: Path, prompt: str, chars: int) -> dict[str, str]:
    """``file_path → summary`` for one (prompt, target length) from a JSONL file."""
    out: dict[str, str] = {}
    try:
        lines = confined(path).read_text(encoding="utf-8").splitlines()
    except BenchmarkError as e:  # outside the folders a server may read ($SAC_DATA_ROOT)
        raise SummaryError(str(e)) from None
    except FileNotFoundError:
        raise SummaryError(f"{path}: summary file not found") from None
    except IsADirectoryError:
        raise SummaryError(f"{path}: is a directory, not a JSONL summary file") from None
    except UnicodeDecodeError as e:
        raise SummaryError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        row = json_object(line, str(path), _FIELDS, line=n)
        if row["prompt"] == prompt and row["chars"] == chars:
            if not isinstance(row["summary"], str):
                raise SummaryError(f"{path}, line {n}: field 'summary' is not a string")
            if not isinstance(row["file_path"], str):
                raise SummaryError(f"{path}, line {n}: field 'file_path' is not a string")
            out[row["file_path"]] = row["summary"]
    return out


def check_coverage(summaries: dict[str, str], file_paths: Iterable[str], path: Path, prompt: str, chars: int) -> None:
    """Raise :class:`SummaryError` naming the file and the documents it has no summary for."""
    wanted = list(file_paths)
    missing = [fp for fp in wanted if fp not in summaries]
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise SummaryError(
            f"{path}: no summary for {len(missing)} of {len(wanted)} documents "
            f"(prompt {prompt!r}, chars {chars}): {shown}"
        )


class FileProvider:
    """Summaries looked up in a JSONL file for one (prompt, target length)."""

    name = "file"

    def __init__(self, path: Path, prompt: str, chars: int) -> None:
        self.path = Path(path)
        self.prompt = prompt
        self.chars = chars
        self.model = self.path.name
        self.summaries = read_summary_file(self.path, prompt, chars)

    def summarize(self, file_path: str, text: str, prompt: Prompt, char_length: int) -> SummaryResult:
        if char_length != self.chars:
            raise SummaryError(f"{self.path}: loaded for chars {self.chars}, asked for {char_length}")
        if file_path not in self.summaries:
            raise SummaryError(
                f"{self.path}: no summary for document {file_path} (prompt {self.prompt!r}, chars {self.chars})"
            )
        return SummaryResult(self.summaries[file_path])
