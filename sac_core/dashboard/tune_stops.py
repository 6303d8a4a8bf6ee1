"""Where Tune's sliders stop, and what any other setting costs.

A slider moves between the values whose cells answer at once (committed sweeps' cells, or cells built
here before): one arrow step never lands on a setting that would start a build. The values offered are
those of Tune's grids (:data:`.tune.CHUNK_SIZES`, :data:`.tune.WEIGHTS`, the summary lengths) and of
the committed sweeps' cells (:func:`published_stops`), kept when they answer at once for every method
shown; the current value always stays a stop. Any other setting is asked for explicitly, with its cost
(:func:`build_cost`): chunks to embed and about how long.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..engine.data import Benchmark, read_table
from ..experiments import RunConfig
from ..experiments.cells import SweepFolder
from ..experiments.index_store import index_folder, index_key
from .builds import fmt_duration
from .rates import embed_rate
from .tune import estimated_chunks

# A slider of Tune → the results column of its setting.
COLUMNS: dict[str, str] = {"chunk_size": "chunk_size", "chars": "summary_chars", "semantic_weight": "semantic_weight"}


def _number(value: object, field: str) -> int | float:
    return float(value) if field == "semantic_weight" else int(value)  # type: ignore[call-overload, arg-type]


def published_stops(folders: Iterable[Path]) -> dict[str, tuple]:
    """Per slider (``chunk_size``, ``chars``, ``semantic_weight``), the values the committed sweeps'
    cells hold (their ``results.csv``; a folder whose table cannot be read is left out)."""
    found: dict[str, set] = {field: set() for field in COLUMNS}
    for folder in folders:
        path = SweepFolder(Path(folder)).results
        if not path.is_file():
            continue
        try:
            table = read_table(path, usecols=lambda c: c in COLUMNS.values())
        except ValueError:
            continue  # Tune's lookup says why it skips a folder
        for field, column in COLUMNS.items():
            if column in table.columns:
                found[field] |= {_number(v, field) for v in pd.to_numeric(table[column], errors="coerce").dropna()}
    return {field: tuple(sorted(values)) for field, values in found.items()}


def candidates(grid: Sequence, published: Sequence) -> list:
    """The values a slider may stop at: its grid and the committed cells' values, in order."""
    return sorted({*grid, *published})


def stops(instant: Iterable, current: object) -> list:
    """A slider's stops: the values that answer at once for every method shown, and the current one."""
    return sorted({*instant, current})


@dataclass(frozen=True)
class BuildCost:
    """What building a setting's missing cells takes: ``indexes`` to build (each about ``chunks``
    chunks to embed; a cell whose index is saved only retrieves), ``cells`` to evaluate, at ``rate``
    texts per second (:func:`.rates.embed_rate`)."""

    cells: int
    indexes: int
    chunks: int
    rate: float

    @property
    def texts(self) -> int:
        return self.indexes * self.chunks

    @property
    def seconds(self) -> float:
        return self.texts / self.rate

    def describe(self) -> str:
        """``about 19,293 chunks to embed for each of 2 indexes: about 13 min at about 50 texts/s``."""
        if not self.indexes:
            return (
                f"{self.cells} cell{'s' if self.cells != 1 else ''} to evaluate, no index to build: seconds to minutes"
            )
        return (
            f"about {self.chunks:,} chunks to embed for each of {self.indexes} index{'es' if self.indexes > 1 else ''}, "
            f"then every query retrieved: about {fmt_duration(self.seconds)} at about {self.rate:.0f} texts/s "
            "(less when the embedding cache holds some)"
        )


def build_cost(configs: Mapping[str, RunConfig], bench: Benchmark, cache_dir: Path) -> BuildCost:
    """:class:`BuildCost` of evaluating ``configs`` (the missing cells): their distinct indexes not saved
    in ``cache_dir`` (stages share their method's index), each about the pool's characters over the
    chunk size in chunks."""
    unsaved = {
        index_key(c): c
        for c in configs.values()
        if c.method_plugin.indexer() is not None and not (index_folder(cache_dir, c) / "manifest.json").is_file()
    }
    size = next(iter(configs.values())).chunk_size if configs else 1
    return BuildCost(len(configs), len(unsaved), estimated_chunks(bench, size), embed_rate(cache_dir))
