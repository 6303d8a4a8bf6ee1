"""Opening a flipped query of a Curves sweep on the Compare page, asked first when it costs time.

Compare shows a query on the sidebar's protocol and datasets, through indexes saved in the cache. A
sweep made on another protocol (``paper``: many more documents than ``lbr-mini``) needs its own
indexes: opening it there switches the sidebar and starts their builds, which can take hours on a
laptop. :func:`open_plan` says what opening would do (switch, which indexes to build, about how many
texts to embed, about how long) so the page asks before doing it, and offers the sidebar's smaller
protocol when it holds the same query.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine.data import Benchmark
from .builds import fmt_duration as fmt_duration  # re-exported for the page
from .builds import index_saved
from .compare import compare_columns
from .state import Settings
from .tune_stops import build_cost

SMALLER = "lbr-mini"  # the protocol with the fewest documents: the dashboard's own


@dataclass(frozen=True)
class OpenPlan:
    """What opening a query on Compare at ``protocol`` would do: ``switch`` the sidebar (its protocol
    or datasets differ), build ``indexes`` indexes for the ``missing`` columns first (``texts`` chunks
    to embed: an upper bound, the embedding cache may hold some) at ``rate`` texts per second."""

    protocol: str
    datasets: tuple[str, ...]
    switch: bool
    missing: tuple[str, ...]
    indexes: int
    texts: int
    rate: float

    @property
    def ready(self) -> bool:
        """Opens at once: the sidebar stays as it is and every index is saved."""
        return not self.switch and not self.missing

    @property
    def seconds(self) -> float:
        return self.texts / self.rate

    def describe(self, sidebar: str) -> str:
        """The plan in one sentence (Markdown-free text), e.g. "switches the sidebar's protocol from …"."""
        parts = []
        if self.switch and sidebar != self.protocol:
            parts.append(f"switches the sidebar's protocol from {sidebar} to {self.protocol}")
        elif self.switch:
            parts.append(f"switches the sidebar's datasets to {', '.join(self.datasets)}")
        if self.missing:
            parts.append(
                f"builds {self.indexes} index{'es' if self.indexes != 1 else ''} first (for "
                f"{', '.join(self.missing)}): about {self.texts:,} texts to embed, about "
                f"{fmt_duration(self.seconds)} in all at about {self.rate:.0f} texts/s (fewer when the embedding "
                f"cache holds some; the command sac index --protocol {self.protocol} prepares them ahead)"
            )
        return " and ".join(parts) if parts else "opens at once"


def open_plan(
    s: Settings, protocol: str, datasets: Sequence[str], bench: Benchmark, methods: Sequence[str] | None = None
) -> OpenPlan:
    """What opening a query of ``bench`` (loaded with ``protocol`` and ``datasets``) on Compare does,
    with Compare's ``methods`` (catalogue keys; default: its default columns)."""
    at = replace(s, protocol=protocol, datasets=tuple(datasets))
    columns = compare_columns(at.base_config(), methods)
    missing = [
        c for c in columns if c.config.method_plugin.indexer() is not None and not index_saved([c.config], s.cache_dir)
    ]
    cost = build_cost({c.name: c.config for c in missing}, bench, s.cache_dir)
    switch = (protocol, tuple(datasets)) != (s.protocol, tuple(s.datasets))
    return OpenPlan(
        protocol, tuple(datasets), switch, tuple(c.name for c in missing), cost.indexes, cost.texts, cost.rate
    )


def alternative(s: Settings, protocol: str) -> str | None:
    """The protocol to offer instead of opening a sweep's ``protocol``: the sidebar's when it is another
    one, else :data:`SMALLER` (None when that is the sweep's)."""
    for other in (s.protocol, SMALLER):
        if other != protocol:
            return other
    return None


def holds(bench: Benchmark, query_id: str) -> bool:
    """Whether ``bench`` (another protocol's) has the query: query ids name one query of a data
    folder, whatever the protocol that selects it."""
    return any(q.query_id == query_id for q in bench.queries)
