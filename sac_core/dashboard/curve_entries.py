"""The configurations the Curves page draws, each keyed apart: a cell of a sweep is one configuration,
and two cells of one variant id that differ in a setting (a plug-in option a variant id does not
name, a summary setting, the data) are two entries with two names, never one averaged line.

The settings that tell configurations apart come from the results table's settings columns
(:func:`sac_core.experiments.report.setting_key`, as ``sac report``'s rows), never from a parse of
the variant id; the names from :func:`.wording.method_names` plus the settings that differ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path

import pandas as pd

from ..experiments import METHODS, STAGES
from ..experiments.cells import read_significance
from ..experiments.config import column_defaults
from ..experiments.report import setting_key
from ..experiments.settings import OPTION_PREFIX, SUMMARY_PREFIX, option_column
from .curves import ENTRY, matches, shown_path
from .wording import method_names, words

SHOWN_PAIR_COLUMNS = ("variant_a", "variant_b", "metric", "k", "mean_a", "mean_b", "p_value", "wins", "ties", "losses")


@dataclass(frozen=True)
class Entry:
    """One configuration of a chosen setting: ``key`` (its id on the page: the variant, then the
    settings that tell it apart as ``[column=value, …]``), its ``variant`` id, and ``apart``, the
    (column, value) pairs that differ from another cell of the same variant (empty when none does)."""

    key: str
    variant: str
    apart: tuple[tuple[str, object], ...] = ()


def _text(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "—"
    return f"{value:g}" if isinstance(value, float) else str(value)


def entries(rows: pd.DataFrame) -> dict[str, Entry]:
    """``cell id → Entry`` for the rows of one chosen setting (a results table's rows): cells of one
    variant that differ in a setting column of :func:`setting_key` are apart by those columns; cells
    that agree on every setting (two loose tables of one run) are apart by their cell."""
    cells = rows.drop_duplicates("cell")
    if cells.empty:
        return {}
    key = [c for c in setting_key(cells) if c != "variant"]
    out: dict[str, Entry] = {}
    for variant, group in cells.groupby("variant", sort=False):
        differ = [c for c in key if group[c].nunique(dropna=False) > 1]
        for _, row in group.iterrows():
            apart = tuple((c, row[c]) for c in differ)
            shown = f"{variant} [{', '.join(f'{c}={_text(v)}' for c, v in apart)}]" if apart else str(variant)
            out[str(row["cell"])] = Entry(shown, str(variant), apart)
    taken: dict[str, int] = {}
    for entry in out.values():
        taken[entry.key] = taken.get(entry.key, 0) + 1
    return {
        cell: (Entry(f"{e.key} [{cell}]", e.variant, (*e.apart, ("cell", cell))) if taken[e.key] > 1 else e)
        for cell, e in out.items()
    }


def with_entries(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` (one chosen setting) with the :data:`~.curves.ENTRY` column: each row's configuration."""
    found = entries(rows)
    return rows.assign(**{ENTRY: [found[str(c)].key for c in rows["cell"]]})


def pick(rows: pd.DataFrame, chosen: Sequence[str], datasets: Sequence[str]) -> pd.DataFrame:
    """The rows (keyed by :func:`with_entries`) of the chosen entries and datasets."""
    return rows[rows[ENTRY].isin(list(chosen)) & rows["dataset"].isin(list(datasets))]


def _option_keys() -> dict[str, str]:
    """``option_<plug-in>_<field>`` → ``<plug-in>.<field>`` for every registered plug-in's options."""
    out = {}
    for plugin in [*METHODS, *STAGES]:
        if plugin.Options is not None and is_dataclass(plugin.Options):
            out.update(
                {option_column(f"{plugin.name}.{f.name}"): f"{plugin.name}.{f.name}" for f in fields(plugin.Options)}
            )
    return out


def setting_words(column: str, value: object, defaults: Mapping[str, object] | None = None) -> str:
    """A setting that tells configurations apart, for people: a plug-in option as its name on the command
    line (``word-overlap.min_length 3``; unset: its default, said as such), a summary setting as
    ``summary chars 300``, any other column in words."""
    defaults = column_defaults() if defaults is None else defaults
    if column.startswith(OPTION_PREFIX):
        name = _option_keys().get(column, words(column[len(OPTION_PREFIX) :]))
        unset = value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA
        shown = f"{_text(defaults[column])} (default)" if unset and column in defaults else _text(value)
        return f"{name} {shown}"
    if column.startswith(SUMMARY_PREFIX):
        return f"summary {words(column[len(SUMMARY_PREFIX) :])} {_text(value)}"
    return f"{words(column)} {_text(value)}"


def _unreadable(cells: pd.DataFrame) -> set[str]:
    """Variants of cells that set a plug-in option no registered plug-in has (results written before an
    option was renamed, or by a plug-in not loaded here): their configuration cannot be read back."""
    known = _option_keys()
    unknown = [c for c in cells.columns if c.startswith(OPTION_PREFIX) and c not in known]
    if not unknown:
        return set()
    return set(cells.loc[cells[unknown].notna().any(axis=1), "variant"].astype(str))


def entry_names(rows: pd.DataFrame) -> dict[str, str]:
    """Each entry of ``rows`` (one chosen setting) by the name the page shows: its method's name
    (:func:`.wording.method_names`, read from the settings columns; the variant id where a setting
    cannot be read back, rather than a wrong name) and, for an entry apart from other cells of its
    variant, the settings that differ (``Word overlap (toy), word-overlap.min_length 3``)."""
    found = entries(rows)
    first = rows.drop_duplicates("cell")
    unreadable = _unreadable(first)
    names = method_names(first[~first["variant"].astype(str).isin(unreadable)].to_dict("records"))
    defaults = column_defaults()
    out: dict[str, str] = {}
    for entry in found.values():
        apart = [f"cell {v}" if c == "cell" else setting_words(c, v, defaults) for c, v in entry.apart]
        out[entry.key] = ", ".join([names.get(entry.variant, entry.variant), *apart])
    return out


def load_significance(path: Path) -> pd.DataFrame:
    """A sweep's ``significance.csv``; empty (its columns only) for a sweep without pairs, also one
    written before such a file kept its header. ValueError names a file that is no table."""
    return read_significance(path, name=shown_path(path))


def significance_view(sig: pd.DataFrame, choices: Mapping[str, object], rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of a significance table between the entries of ``rows`` (one chosen setting, keyed by
    :func:`with_entries`), the methods as entries. A table that names the compared cells (``a``,
    ``b``) is matched by them; an older one by variant (where a variant is one entry) and setting."""
    cols = [c for c in SHOWN_PAIR_COLUMNS if c in sig.columns]
    if sig.empty or rows.empty:
        return pd.DataFrame(columns=cols)
    if {"a", "b"} <= set(sig.columns):
        of = {str(c): e for c, e in zip(rows["cell"], rows[ENTRY])}
        a, b = sig["a"].astype(str).map(of), sig["b"].astype(str).map(of)
        keep = a.notna() & b.notna()
    else:
        one = rows.drop_duplicates(ENTRY).groupby("variant")[ENTRY].agg(list)
        of = {str(v): e[0] for v, e in one.items() if len(e) == 1}
        a, b = sig["variant_a"].astype(str).map(of), sig["variant_b"].astype(str).map(of)
        keep = a.notna() & b.notna()
        for col, value in choices.items():
            if col in sig.columns and value is not None and not col.startswith(SUMMARY_PREFIX):
                keep &= matches(sig[col], value).fillna(value=False).astype(bool)
    out = sig.loc[keep, cols].assign(variant_a=a[keep], variant_b=b[keep])
    return out.reset_index(drop=True)
