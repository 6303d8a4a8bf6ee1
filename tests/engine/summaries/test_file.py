"""The file provider: summaries imported from JSONL, with errors naming file, line and documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.summaries import SummaryConfig, SummaryError, read_summary_file, summarize_documents
from sac_core.engine.summaries.file import SummaryFileError

DOCS = {"cuad/a.txt": "text a", "cuad/b.txt": "text b"}


def jsonl(tmp_path: Path, rows: list[object]) -> Path:
    path = tmp_path / "summaries.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def row(fp: str, prompt: str = "generic", chars: int = 150, summary: str = "s") -> dict:
    return {"file_path": fp, "prompt": prompt, "chars": chars, "summary": summary}


def test_reads_one_prompt_and_length(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path,
        [
            row("cuad/a.txt", summary="A150"),
            row("cuad/a.txt", chars=300, summary="A300"),
            row("cuad/a.txt", prompt="expert", summary="Aexp"),
            "",
            row("cuad/b.txt", summary="B150"),
        ],
    )
    assert read_summary_file(path, "generic", 150) == {"cuad/a.txt": "A150", "cuad/b.txt": "B150"}
    assert read_summary_file(path, "expert", 150) == {"cuad/a.txt": "Aexp"}


def test_summarize_documents_with_file_provider(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [row("cuad/a.txt", summary="A"), row("cuad/b.txt", summary="B")])
    config = SummaryConfig(provider="file", summary_file=path)
    records = summarize_documents(DOCS, config, tmp_path / "cache", progress=False)
    assert {fp: r.summary for fp, r in records.items()} == {"cuad/a.txt": "A", "cuad/b.txt": "B"}
    assert records["cuad/a.txt"].provider == "file" and records["cuad/a.txt"].model == "summaries.jsonl"
    assert not (tmp_path / "cache").exists()  # imported summaries are not cached again


def test_missing_documents_are_named_and_counted(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [row("cuad/a.txt")])
    docs = {**DOCS, **{f"maud/{i}.txt": "t" for i in range(7)}}
    config = SummaryConfig(provider="file", summary_file=path)
    with pytest.raises(
        SummaryError,
        match=r"summaries\.jsonl: no summary for 8 of 9 documents \(prompt 'generic', chars 150\): "
        r"cuad/b\.txt, maud/0\.txt, .* and 3 more",
    ):
        summarize_documents(docs, config, tmp_path, progress=False)
    with pytest.raises(SummaryError, match="chars 300"):
        summarize_documents(
            {"cuad/a.txt": "t"}, SummaryConfig(provider="file", summary_file=path, chars=300), tmp_path, progress=False
        )


def test_bad_lines_name_the_line_number(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [row("cuad/a.txt"), '{"file_path": "cuad/b.txt", "prompt": ', row("cuad/c.txt")])
    with pytest.raises(SummaryError, match=r"summaries\.jsonl, line 2: invalid JSON"):
        read_summary_file(path, "generic", 150)
    path = jsonl(tmp_path, [row("cuad/a.txt"), {"file_path": "cuad/b.txt", "summary": "s"}])
    with pytest.raises(SummaryError, match=r"line 2: missing field\(s\) prompt, chars"):
        read_summary_file(path, "generic", 150)
    path = jsonl(tmp_path, ["[1, 2]"])
    with pytest.raises(SummaryError, match=r"line 1: expected a JSON object"):
        read_summary_file(path, "generic", 150)
    path = jsonl(tmp_path, [row("cuad/a.txt", summary=None)])  # type: ignore[arg-type]
    with pytest.raises(SummaryFileError, match=r"line 1: field 'summary' is not a string"):
        read_summary_file(path, "generic", 150)


def test_missing_file_and_missing_setting(tmp_path: Path) -> None:
    with pytest.raises(SummaryError, match=r"nope\.jsonl: summary file not found"):
        summarize_documents(
            DOCS, SummaryConfig(provider="file", summary_file=tmp_path / "nope.jsonl"), tmp_path, progress=False
        )
    with pytest.raises(SummaryError, match="provider 'file' needs summary_file"):
        summarize_documents(DOCS, SummaryConfig(provider="file"), tmp_path, progress=False)
    resolved = SummaryConfig(provider="file").resolved(tmp_path)
    assert resolved.summary_file == tmp_path / "summaries" / "llm.jsonl"


def test_summaries_too_long_are_logged_once_not_at_every_read(tmp_path: Path, caplog) -> None:
    path = jsonl(tmp_path, [row("cuad/a.txt", summary="A" * 400), row("cuad/b.txt", summary="B")])
    config = SummaryConfig(provider="file", summary_file=path)
    with caplog.at_level("WARNING", logger="sac_core.engine.summaries.summarize"):
        for _ in range(6):  # what three Compare columns, Tune and Map did on one server
            summarize_documents(DOCS, config, tmp_path / "cache", progress=False)
    said = [r.getMessage() for r in caplog.records if "exceed" in r.getMessage()]
    assert said == [f"{path}: 1 generic summaries exceed 170 characters (kept as they are)"]
