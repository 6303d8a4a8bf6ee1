"""A held-out benchmark folder: queries whose documents no tuning or reporting protocol touches.

Methods are tuned on LegalBench-RAG-mini and reported on the paper protocol; to show a method
also holds on documents it has never seen, :func:`write_heldout` writes a new benchmark folder
with only the queries whose every gold document lies outside the documents of the ``exclude``
protocols, from at most ``max_docs`` documents per dataset (sampled with ``seed``). The folder
holds ``benchmarks/<dataset>.json`` (the original query objects, unchanged) and symlinks to the
source's corpus folders: nothing of the data is copied. It is written beside ``out_dir`` and renamed
at the end (:func:`.staging.staged`): an interrupted run leaves no half-written folder.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from .benchmark import load_benchmark, parse_datasets, read_benchmark_file
from .staging import staged
from .types import BenchmarkError


def write_heldout(
    data_dir: Path,
    out_dir: Path,
    datasets: Sequence[str] | str = ("cuad", "maud"),
    exclude: Sequence[str] = ("lbr-mini", "paper"),
    max_docs: int = 40,
    seed: int = 0,
) -> dict[str, tuple[int, int]]:
    """Write the folder; returns ``dataset → (queries, documents)`` kept. Raises BenchmarkError
    when ``out_dir`` lies inside the project, exists and is not empty or cannot be written, or a
    dataset keeps no query."""
    with staged(Path(out_dir), "held-out benchmark") as work:
        names = parse_datasets(tuple(datasets) if not isinstance(datasets, str) else datasets, data_dir)
        used: set[str] = set()
        for protocol in exclude:
            used |= set(load_benchmark(data_dir, "all", protocol).documents)
        return _write(data_dir, work, names, used, max_docs, seed, exclude)


def _write(
    data_dir: Path,
    out_dir: Path,
    names: Sequence[str],
    used: set[str],
    max_docs: int,
    seed: int,
    exclude: Sequence[str],
) -> dict[str, tuple[int, int]]:
    """The held-out folder written into ``out_dir``: each dataset's queries on unused documents."""
    (out_dir / "benchmarks").mkdir(parents=True, exist_ok=True)
    (out_dir / "corpus").mkdir(exist_ok=True)
    kept: dict[str, tuple[int, int]] = {}
    for ds in names:
        tests = read_benchmark_file(data_dir / "benchmarks" / f"{ds}.json")["tests"]
        unseen = [t for t in tests if not {s["file_path"] for s in t["snippets"]} & used]
        documents = sorted({s["file_path"] for t in unseen for s in t["snippets"]})
        chosen = set(random.Random(f"{seed}:{ds}").sample(documents, min(max_docs, len(documents))))
        picked = [t for t in unseen if {s["file_path"] for s in t["snippets"]} <= chosen]
        if not picked:
            raise BenchmarkError(f"{ds}: no query outside the documents of {', '.join(exclude)}")
        text = json.dumps({"tests": picked}, ensure_ascii=False, indent=1)
        (out_dir / "benchmarks" / f"{ds}.json").write_text(text, encoding="utf-8")
        (out_dir / "corpus" / ds).symlink_to((data_dir / "corpus" / ds).resolve(), target_is_directory=True)
        kept[ds] = (len(picked), len({s["file_path"] for t in picked for s in t["snippets"]}))
    return kept
