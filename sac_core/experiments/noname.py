"""A no-name copy of a benchmark folder: every query without the opening that names its document.

LegalBench-RAG's queries open with the document they mean ("Consider the Non-Disclosure Agreement
between X and Y; Does the document …?"); a user typing a free question into Compare usually does
not. :func:`write_noname` writes a new benchmark folder whose files hold the same tests in the
same order, each query replaced by its question part (:func:`~sac_core.engine.retrieval.split_query`;
a query without an opening is kept whole), so every protocol selects the same queries with the
same ids and gold spans. The corpus (and ``summaries/``, which the document prior reads) are
symbolic links to the source's folders: nothing of the data is copied. Each file carries
``"transform": "no-name"``, so a sweep cell on the copy never shares an id with the original's.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..engine.data import BenchmarkError, available_datasets, check_outside_project
from ..engine.retrieval import split_query

TRANSFORM = "no-name"


def strip_opening(query: str) -> str:
    """``query`` without its opening document reference (the whole query when it has none)."""
    return split_query(query).question


def write_noname(data_dir: Path, out_dir: Path) -> dict[str, tuple[int, int]]:
    """Write the copy; returns ``dataset → (queries, queries whose opening was removed)``. Raises
    :class:`BenchmarkError` when ``out_dir`` lies inside the project or exists and is not empty, or
    a benchmark file cannot be read."""
    data_dir, out_dir = Path(data_dir), Path(out_dir)
    check_outside_project(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        raise BenchmarkError(f"{out_dir}: not empty; choose a new folder for the no-name benchmark")
    datasets = available_datasets(data_dir)
    if not datasets:
        raise BenchmarkError(f"{data_dir / 'benchmarks'}: no benchmark files")
    (out_dir / "benchmarks").mkdir(parents=True, exist_ok=True)
    counts: dict[str, tuple[int, int]] = {}
    for ds in datasets:
        path = data_dir / "benchmarks" / f"{ds}.json"
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise BenchmarkError(f"{path}: cannot read ({type(e).__name__}: {e})") from None
        tests = raw.get("tests") if isinstance(raw, dict) else None
        if not isinstance(tests, list):
            raise BenchmarkError(f"{path}: expected an object with a list field 'tests'")
        out_tests, changed = [], 0
        for i, test in enumerate(tests):
            if not isinstance(test, dict) or not isinstance(test.get("query"), str):
                raise BenchmarkError(f"{path}: query {ds}/{i}: missing string field 'query'")
            question = strip_opening(test["query"])
            changed += question != test["query"]
            out_tests.append({**test, "query": question})
        text = json.dumps({**raw, "tests": out_tests, "transform": TRANSFORM}, ensure_ascii=False, indent=1)
        (out_dir / "benchmarks" / f"{ds}.json").write_text(text, encoding="utf-8")
        counts[ds] = (len(tests), changed)
    for folder in ("corpus", "summaries"):
        if (data_dir / folder).is_dir():
            (out_dir / folder).symlink_to((data_dir / folder).resolve(), target_is_directory=True)
    return counts
