"""A transformed copy of a benchmark folder: the same tests, each query rewritten, nothing else.

``sac noname`` and ``sac reword`` derive benchmark folders by rewriting queries only.
:func:`write_transformed` writes ``benchmarks/<dataset>.json`` for every benchmark file of the
source, with the same tests in the same order and every other field as written there, so every
protocol selects the same queries with the same ids and gold spans. Each file's ``"transform"``
names what was done (after the source's own, joined with ``+``: a copy of a copy says both), so a
sweep cell on the copy never shares an id with the original's. ``corpus/`` and ``summaries/`` are
symbolic links to the source's folders: nothing of the data is copied. The copy is written into a
sibling folder and renamed at the end (:func:`~sac_core.engine.data.staged`), so a bad file or an
interrupted run leaves no half-written folder behind, and the next run starts afresh.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..engine.data import BenchmarkError, available_datasets, read_benchmark_file, staged

LINKED = ("corpus", "summaries")  # folders of the source the copy links to


def write_transformed(
    data_dir: Path, out_dir: Path, rewrite: Callable[[str], str], *, transform: str, what: str
) -> dict[str, tuple[int, int]]:
    """Write the copy of ``data_dir`` to ``out_dir`` with every query replaced by ``rewrite(query)``;
    returns ``dataset → (queries, queries rewrite changed)``. ``what`` names the copy in errors.

    Raises :class:`BenchmarkError` when ``out_dir`` lies inside the project, exists and is not an
    empty folder or cannot be written, when ``data_dir`` has no benchmark file, or naming the file
    (and query) that cannot be read."""
    data_dir = Path(data_dir)
    with staged(Path(out_dir), what) as work:
        datasets = copy_datasets(data_dir)
        files = {ds: _rewritten(data_dir / "benchmarks" / f"{ds}.json", ds, rewrite, transform) for ds in datasets}
        write_benchmarks(work, {ds: raw for ds, (raw, _) in files.items()})
        for folder in LINKED:
            if (data_dir / folder).is_dir():
                (work / folder).symlink_to((data_dir / folder).resolve(), target_is_directory=True)
    return {ds: (len(raw["tests"]), changed) for ds, (raw, changed) in files.items()}


def copy_datasets(data_dir: Path) -> tuple[str, ...]:
    """The datasets of ``data_dir`` a copy will hold. Raises :class:`BenchmarkError` when it has no
    benchmark file."""
    datasets = available_datasets(data_dir)
    if not datasets:
        raise BenchmarkError(f"{data_dir / 'benchmarks'}: no benchmark files")
    return datasets


def write_benchmarks(out_dir: Path, files: dict[str, dict[str, Any]]) -> None:
    """Write ``benchmarks/<dataset>.json`` of the copy, one per rewritten file object."""
    (out_dir / "benchmarks").mkdir(parents=True, exist_ok=True)
    for ds, raw in files.items():
        text = json.dumps(raw, ensure_ascii=False, indent=1)
        (out_dir / "benchmarks" / f"{ds}.json").write_text(text, encoding="utf-8")


def with_transform(raw: dict[str, Any], tests: list[dict[str, Any]], transform: str) -> dict[str, Any]:
    """The file object with ``tests`` and ``transform`` appended to the source's own (``a+b``)."""
    before = raw.get("transform", "")
    return {**raw, "tests": tests, "transform": f"{before}+{transform}" if before else transform}


def _rewritten(path: Path, dataset: str, rewrite: Callable[[str], str], transform: str) -> tuple[dict[str, Any], int]:
    """The file's object with its queries rewritten and its transform set; how many changed."""
    raw = read_benchmark_file(path)
    tests, changed = [], 0
    for i, test in enumerate(raw["tests"]):
        if not isinstance(test, dict) or not isinstance(test.get("query"), str):
            raise BenchmarkError(f"{path}: query {dataset}/{i}: missing string field 'query'")
        query = rewrite(test["query"])
        changed += query != test["query"]
        tests.append({**test, "query": query})
    return with_transform(raw, tests, transform), changed
