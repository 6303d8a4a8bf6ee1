"""How fast this machine embeds, for every estimate a page shows (the total of Compare's builds,
Tune's cost of a setting, the cost of opening a Curves query): one owner, measured when it can be.

A background build (:mod:`.builds`) writes the rate it measures while it embeds into
``<cache>/builds/`` (:data:`RATE_FILE`); estimates read it, or the running builds' own rates.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..engine import store

# Texts embedded per second on a 2-core laptop, for estimates until a build here measures its own:
# `sac bench` (j), the cold build of Compare's three lbr-mini indexes, 51 texts/s (results/bench-lbr-mini.txt).
DEFAULT_EMBED_RATE = 50.0
# In the builds folder, beside the builds' status files (<key>.json): one number, the texts per second
# an embedding build last measured with this cache.
RATE_FILE = "embed-rate.txt"
MEASURE_AFTER = 10.0  # seconds of an embedding stage before its rate stands for the machine's


def embed_rate(cache_dir: Path, running: Iterable[float] = ()) -> float:
    """Texts per second: the ``running`` builds' rates summed (parallel builds share the cores), else
    the last rate a build measured with this cache (:data:`RATE_FILE`), else :data:`DEFAULT_EMBED_RATE`."""
    if (now := sum(running)) > 0:
        return now
    try:
        measured = float((store.folder(cache_dir, "builds") / RATE_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return DEFAULT_EMBED_RATE
    return measured if measured > 0 else DEFAULT_EMBED_RATE
