"""What a page says when the indexes its columns open are not built (issue 45, point 12): how long
building all of them takes in total (not only the one running), the one command that prepares
everything ahead (``sac index``), and that the demo corpus works meanwhile.

The total is an estimate: the texts each distinct index still embeds (a running build's own count,
else the documents' characters over the chunk size) over this machine's embedding rate
(:func:`.rates.embed_rate`: the running builds', else the last one measured). A column that works
on another column's index (the recommended method on the baseline's) adds no index of its own.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..engine.data import Benchmark
from ..experiments.index_store import index_key
from .builds import BuildJob, BuildStatus, fmt_duration
from .rates import embed_rate


@dataclass(frozen=True)
class Plan:
    """Building ``columns``: ``indexes`` distinct indexes, about ``texts`` texts still to embed and
    ``seconds`` in all (:func:`command_line` prepares every default column ahead)."""

    columns: tuple[str, ...]
    indexes: int
    texts: int
    seconds: float

    def describe(self) -> str:
        """E.g. "3 columns wait for 2 indexes: about 59,000 texts to embed, about 12 min in all on this machine.\""""
        n = len(self.columns)
        what = f"{n} column{'s' if n > 1 else ''} wait{'' if n > 1 else 's'}"
        indexes = f"{self.indexes} index{'es' if self.indexes != 1 else ''}"
        return (
            f"{what} for {indexes}: about {self.texts:,} texts to embed, about {fmt_duration(self.seconds)} in all "
            "on this machine (the first build's time left counts only its own part)."
        )


def _texts(bench: Benchmark, job: BuildJob, status: BuildStatus | None) -> int:
    """What one build still embeds: its own count once it counts texts, else an estimate."""
    if status is not None and status.state == "done":
        return 0
    if status is not None and status.active and status.unit == "texts" and status.total:
        return max(0, status.total - status.done)
    characters = sum(len(d.text) for d in bench.documents.values())
    return characters // max(1, job.config.chunk_size)


def plan(
    bench: Benchmark, jobs: Sequence[BuildJob], statuses: Mapping[str, BuildStatus | None], *, cache_dir: Path
) -> Plan:
    """The total of building ``jobs`` (one per column waiting; ``statuses`` by job key, None: not
    asked yet; ``cache_dir`` holds them), at the rate this machine embeds (:func:`.rates.embed_rate`)."""
    per_index: dict[str, int] = {}
    built: set[str] = set()  # an index a finished build saved: a column on it only opens it
    for job in jobs:
        key, status = index_key(job.config), statuses.get(job.key)
        built |= {key} if status is not None and status.state == "done" else set()
        per_index[key] = max(per_index.get(key, 0), _texts(bench, job, status))
    per_index = {key: 0 if key in built else texts for key, texts in per_index.items()}
    rate = embed_rate(cache_dir, [s.embedding for s in statuses.values() if s is not None])
    texts = sum(per_index.values())
    return Plan(tuple(job.label for job in jobs), len([t for t in per_index.values() if t]), texts, texts / rate)


def command_line(data_dir: Path, protocol: str, datasets: Sequence[str], offered: Sequence[str]) -> str:
    """The ``sac index`` command that prepares every default column for the data folder, protocol and
    datasets in use (``offered``: every dataset of the folder: then ``all``)."""
    chosen = "all" if set(datasets) >= set(offered) else ",".join(datasets)
    return shlex.join(["sac", "index", "--data", str(data_dir), "--protocol", protocol, "--datasets", chosen])
