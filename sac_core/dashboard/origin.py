"""Which code and data made a sweep's cells, in one plain sentence for the Curves page.

``sac report`` lists every distinct origin on a line of its own; a page says it once: a sweep whose
cells were computed at three commits is one sentence naming the three, and a working tree whose
state was not recorded is said once, not after every commit (issue 45).
"""

from __future__ import annotations

import pandas as pd

from ..experiments.cells import DATA_DIGEST
from ..experiments.provenance import COLUMNS

UNIDENTIFIED = (
    "computed before results carried their code, data digest and full identity (cell ids of version 1): "
    "not checked against the data in use; `sac sweep` recomputes it with today's ids"
)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def provenance(results: pd.DataFrame) -> list[str]:
    """One sentence: the code (versions, commits) and data (digests) that made the table's cells and
    how many; :data:`UNIDENTIFIED` for a table written before results said so."""
    present = [c for c in (*COLUMNS, DATA_DIGEST) if c in results.columns]
    if not present:
        return [f"{UNIDENTIFIED[:1].upper()}{UNIDENTIFIED[1:]}."]
    cells = results.drop_duplicates("cell") if "cell" in results.columns else results.head(1)
    text = cells.reindex(columns=[*COLUMNS, DATA_DIGEST]).astype("string").fillna("")

    def distinct(column: str, width: int | None = None) -> list[str]:
        return list(dict.fromkeys(v[:width] for v in text[column] if v))

    versions, commits, digests = distinct("sac_version"), distinct("git_commit", 12), distinct(DATA_DIGEST)
    n = len(cells)
    code = f"sac-dashboard {_listed(versions) if versions else 'of an unknown version'}"
    if commits:
        code += f", commit{'s' if len(commits) > 1 else ''} {_listed(commits)}"
    data = f"data {_listed(digests)}" if digests else "data not recorded"
    dirty = set(text["git_dirty"][text["git_commit"] != ""])
    state = ""
    if "yes" in dirty:
        state = "; some with uncommitted changes"
    elif commits and dirty != {"no"}:
        state = "; whether the code had uncommitted changes was not recorded"
    return [f"Computed by {code} on {data} ({n} cell{'s' if n > 1 else ''}){state}."]
