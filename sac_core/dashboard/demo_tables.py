"""The per-query tables the demo picks read, checked: a column missing or text where a number belongs
is one line naming the file and the column; a value that is not a fraction in [0, 1] is never picked."""

from __future__ import annotations

import numpy as np
import pandas as pd

PICK_METRICS: dict[str, str] = {"drm": "DRM", "recall": "recall"}
NEEDED = ("cell", "query_id", "k")  # a per-query table without one of these is skipped (and named)


def checked(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """A per-query table as the picks read it: ``cell`` and ``query_id`` as text, ``k`` whole numbers,
    each metric of :data:`PICK_METRICS` a number, a value outside [0, 1] (``-inf``, ``1e300``) as
    NaN, never picked. A ValueError naming ``name`` (the file, relative to the results folder) and
    the column when a column is missing or holds text."""
    missing = [c for c in NEEDED if c not in table.columns]
    if missing or not any(m in table.columns for m in PICK_METRICS):
        gone = missing or [" or ".join(PICK_METRICS)]
        raise ValueError(f"{name}: no column {', '.join(gone)}")
    out = table.assign(cell=table["cell"].astype(str), query_id=table["query_id"].astype(str))
    k = pd.to_numeric(table["k"], errors="coerce")
    if k.isna().any() or (k % 1 != 0).any():
        raise ValueError(f"{name}: column k holds {_first_bad(table['k'], k)!r}, not a whole number")
    out["k"] = k.astype(int)
    for metric in (m for m in PICK_METRICS if m in table.columns):
        values = pd.to_numeric(table[metric], errors="coerce")
        if (values.isna() & table[metric].notna()).any():
            raise ValueError(f"{name}: column {metric} holds {_first_bad(table[metric], values)!r}, not a number")
        out[metric] = values.where(np.isfinite(values) & values.between(0, 1))
    return out


def _first_bad(raw: pd.Series, parsed: pd.Series) -> object:
    """The first raw value that did not parse as a (whole) number."""
    bad = parsed.isna() | (parsed % 1 != 0) if raw.name == "k" else parsed.isna() & raw.notna()
    return raw[bad].iloc[0]
