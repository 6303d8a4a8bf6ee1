"""The catalogue of named methods: what the Compare page, Review and ``sac index`` offer.

Every registered method and stage contributes its presets (:meth:`~.plugins.Method.presets`), the
default columns first, then in the order they were registered; every entry is a :class:`RunConfig` derived from one base config
(its chunking, model and summary settings), so a key always means the same method at any setting.
The default Compare columns are the presets marked ``default``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.data import Benchmark
from .config import METHODS, STAGES, RunConfig
from .plugins import Preset


@dataclass(frozen=True)
class Column:
    """One column of a side-by-side comparison: a display name and what it runs."""

    name: str
    config: RunConfig


def baseline_column(columns: Sequence[Column]) -> Column | None:
    """The column the others are measured against: the first that runs the plain default method
    (the baseline) without stages, or None when none is shown."""
    plain = RunConfig().variant
    return next((c for c in columns if c.config.variant == plain), None)


def catalogue(base: RunConfig, bench: Benchmark | None = None) -> dict[str, Preset[RunConfig]]:
    """``key → preset`` of every registered method and stage: the default columns first, then the
    others, each in registration order; with ``bench``, only presets whose method fits it
    (:meth:`~.plugins.Method.fits`: an imported run only on the benchmark it was made for)."""
    out: dict[str, Preset[RunConfig]] = {}
    for plugin in [*METHODS, *STAGES]:
        out.update(plugin.presets(base))
    if bench is not None:
        out = {key: p for key, p in out.items() if p.config.method_plugin.fits(p.config, bench) is None}
    return dict(sorted(out.items(), key=lambda item: not item[1].default))  # a stable sort


def preset_config(base: RunConfig, key: str) -> RunConfig:
    """The configuration catalogue entry ``key`` runs on ``base`` (ValueError names the keys there are)."""
    entries = catalogue(base)
    if key not in entries:
        raise ValueError(f"unknown preset {key!r}; known: {', '.join(entries)} (sac presets lists them)")
    return entries[key].config


def has_questions(bench: Benchmark | None) -> bool:
    """Whether ``bench`` has labelled questions, so that methods learning from them can run (an
    ingested corpus has none; ``None``, data not read yet: assumed, as on a benchmark)."""
    return bench is None or bool(bench.queries)


def default_keys(base: RunConfig, bench: Benchmark | None = None) -> tuple[str, ...]:
    """The catalogue keys of the default comparison (baseline, SAC generic, recommended when offered);
    for a ``bench`` without labelled questions (:func:`has_questions`), none that learns from them."""
    questions = has_questions(bench)
    entries = catalogue(base).items()
    return tuple(key for key, preset in entries if preset.default and (questions or not preset.needs_questions))


def catalogue_columns(
    base: RunConfig, keys: Sequence[str] | None = None, bench: Benchmark | None = None
) -> tuple[Column, ...]:
    """Columns for catalogue ``keys`` (unknown keys dropped), by default :func:`default_keys` for ``bench``."""
    entries = catalogue(base)
    chosen = default_keys(base, bench) if keys is None else keys
    return tuple(Column(entries[k].title, entries[k].config) for k in chosen if k in entries)
