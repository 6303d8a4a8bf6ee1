"""A copy of a benchmark folder whose documents are named by ids: names that say nothing.

LegalBench-RAG's file names say what a document is ("BT_NDA.txt"), and its queries' openings were
written from them. Real corpora are often scans or exports named ``00417.pdf``. A method that
reads file names (``doc_names.weight``) is therefore also reported on this copy, where every
document ``<dataset>/<name>`` becomes ``<dataset>/doc-<first 10 hex digits of SHA-256 of the
path>.txt``: the same texts (symbolic links, nothing copied), the same queries, ids and gold spans
with their ``file_path`` renamed, and ``summaries/llm.jsonl`` (when the source has one) with its
paths renamed alike. Each benchmark file carries ``"transform": "id-names"`` after the source's.

The ``paper`` and ``full`` protocols select the same queries as on the source; ``lbr-mini`` does
not (upstream's rule sorts queries by a draw seeded with the file path).
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

from ..engine import store
from ..engine.data import BenchmarkError, read_benchmark_file, staged
from .transformed import copy_datasets, with_transform, write_benchmarks

TRANSFORM = "id-names"
SUMMARIES = Path("summaries") / "llm.jsonl"


def id_name(file_path: str) -> str:
    """``cuad/BT_NDA.txt`` → ``cuad/doc-<10 hex digits>.txt`` (stable: the same path, the same id)."""
    folder = PurePosixPath(file_path).parent
    digest = store.sha256(file_path)[:10]
    return str(folder / f"doc-{digest}.txt")


def write_idnames(data_dir: Path, out_dir: Path) -> dict[str, tuple[int, int]]:
    """Write the copy; returns ``dataset → (queries, documents renamed)``. Raises
    :class:`BenchmarkError` when ``out_dir`` lies inside the project, exists and is not empty or
    cannot be written, or naming the benchmark file (and query) that cannot be read. The copy is
    written beside ``out_dir`` and renamed at the end: an interrupted run leaves no ``out_dir``."""
    data_dir = Path(data_dir)
    with staged(Path(out_dir), "copy with id names") as work:
        files = {ds: _renamed(data_dir / "benchmarks" / f"{ds}.json", ds) for ds in copy_datasets(data_dir)}
        renamed = {old: id_name(old) for _, paths in files.values() for old in paths}
        summaries = _summary_lines(data_dir / SUMMARIES, renamed)
        write_benchmarks(work, {ds: raw for ds, (raw, _) in files.items()})
        for old, new in renamed.items():
            (work / "corpus" / new).parent.mkdir(parents=True, exist_ok=True)
            (work / "corpus" / new).symlink_to((data_dir / "corpus" / old).resolve())
        if summaries is not None:
            (work / SUMMARIES).parent.mkdir(parents=True, exist_ok=True)
            (work / SUMMARIES).write_text(summaries, encoding="utf-8")
    return {ds: (len(raw["tests"]), len(paths)) for ds, (raw, paths) in files.items()}


def _renamed(path: Path, dataset: str) -> tuple[dict[str, Any], set[str]]:
    """The file's object with every snippet's ``file_path`` renamed and its transform set; the
    document paths it cites."""
    raw = read_benchmark_file(path)
    tests: list[dict[str, Any]] = []
    cited: set[str] = set()
    for i, test in enumerate(raw["tests"]):
        snippets = test.get("snippets") if isinstance(test, dict) else None
        if not isinstance(snippets, list) or not all(
            isinstance(s, dict) and isinstance(s.get("file_path"), str) for s in snippets
        ):
            raise BenchmarkError(f"{path}: query {dataset}/{i}: 'snippets' must be objects with a string 'file_path'")
        cited.update(s["file_path"] for s in snippets)
        tests.append({**test, "snippets": [{**s, "file_path": id_name(s["file_path"])} for s in snippets]})
    return with_transform(raw, tests, TRANSFORM), cited


def _summary_lines(path: Path, renamed: dict[str, str]) -> str | None:
    """The summary file's lines for the renamed documents, their paths renamed (None: no file)."""
    if not path.is_file():
        return None
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise BenchmarkError(f"{path}, line {n}: not JSON ({e.msg})") from None
        except (ValueError, RecursionError):  # past 4,300 digits, or nested too deep
            raise BenchmarkError(f"{path}, line {n}: not a summary line (a huge number or deep nesting)") from None
        if isinstance(row, dict) and row.get("file_path") in renamed:
            out.append(json.dumps({**row, "file_path": renamed[row["file_path"]]}, ensure_ascii=False))
    return "\n".join(out) + "\n"
