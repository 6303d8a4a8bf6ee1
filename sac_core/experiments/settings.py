"""What a setting is: its scope, its help, whether an id leaves it out at its default. Defined once.

Every field of :class:`~.config.RunConfig` carries a :class:`Setting` in its dataclass metadata
(:func:`setting`), and so can a field of a plug-in's ``Options`` (its scope is then its plug-in's).
Everything that lists settings derives from them, never from a list of its own: the result columns
(``RunConfig.columns``), a cell's identity (``identity.config_settings``), an index's key
(``index_store.index_settings``), the rows of ``sac report`` and the pairs of a sweep's significance
table, the command line's options (``cli/options.py``) and their help.

Scopes, in the order a run meets them:

- ``data``: which queries and documents (protocol, datasets, seed);
- ``index``: what an index holds (method, chunking, model, backend, ANN settings, summaries);
- ``ranking``: how a built index ranks (hybrid weight, fusion depth, ``ef_search``, every stage's
  options): settings of this scope share one index;
- ``scoring``: how a ranking is scored (the cut-offs k, the metric mode).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any

DATA, INDEX, RANKING, SCORING = "data", "index", "ranking", "scoring"
SCOPES: tuple[str, ...] = (DATA, INDEX, RANKING, SCORING)
# Result columns that describe a run but decide nothing (derived from the settings): never in an id.
DERIVED: tuple[str, ...] = ("variant", "stages")
OPTION_PREFIX = "option_"  # a plug-in option's result column: option_<plug-in>_<field>
SUMMARY_PREFIX = "summary_"  # a summary setting's result column: summary_<field>


@dataclass(frozen=True)
class Setting:
    """How a field is read, shown and identified.

    ``scope``: see the module docstring. ``help``: one line for ``--help`` and the docs, units
    included. ``choices``: the values it may take (a callable is asked when the command line is
    read, so plug-ins and installed backends count). ``omit_default``: left out of result columns
    and ids while it has its default — for settings added after results were published with the
    behaviour of that default, which keep their ids. ``cli``: offered as ``--<name>`` on the
    command line (False where a command reads it in its own way)."""

    scope: str
    help: str = ""
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    omit_default: bool = False
    cli: bool = True

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise ValueError(f"setting scope {self.scope!r}: not one of {', '.join(SCOPES)}")

    def allowed(self) -> tuple[str, ...]:
        return self.choices() if callable(self.choices) else self.choices


def setting(
    default: Any = MISSING,
    scope: str = RANKING,
    help: str = "",
    *,
    factory: Callable[[], Any] | None = None,
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = (),
    omit_default: bool = False,
    cli: bool = True,
) -> Any:
    """A dataclass field with its :class:`Setting`: ``x: int = setting(500, INDEX, "characters per chunk")``."""
    meta = {"setting": Setting(scope, help, choices, omit_default, cli)}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def option(*, default: Any, help: str) -> Any:
    """A field of a plug-in's ``Options`` with its help (listed by ``sac evaluate --help`` and the docs)."""
    return field(default=default, metadata={"help": help})


def setting_of(f: Field[Any]) -> Setting | None:
    """The :class:`Setting` of a dataclass field, or None (a field that is no setting)."""
    found = f.metadata.get("setting")
    return found if isinstance(found, Setting) else None


def settings_of(cls: type) -> Iterator[tuple[Field[Any], Setting]]:
    """Every field of dataclass ``cls`` that is a setting, in declaration order."""
    for f in fields(cls):
        found = setting_of(f)
        if found is not None:
            yield f, found


def default_of(f: Field[Any]) -> Any:
    """A field's default value (made by its factory when it has one)."""
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise ValueError(f"setting {f.name!r} has no default")


def help_of(f: Field[Any]) -> str:
    """A plug-in option's help: its :class:`Setting`'s, else its ``help`` metadata, else nothing."""
    found = setting_of(f)
    return found.help if found is not None else str(f.metadata.get("help", ""))


def option_column(key: str) -> str:
    """The result column of plug-in option ``"<plug-in>.<field>"``."""
    return OPTION_PREFIX + key.replace(".", "_")


def is_setting_column(column: str, config_columns: tuple[str, ...]) -> bool:
    """Whether a result column holds a setting (a RunConfig field's, a summary's or a plug-in
    option's), given the RunConfig field columns; the derived columns are not settings."""
    if column in DERIVED:
        return False
    return column in config_columns or column.startswith((OPTION_PREFIX, SUMMARY_PREFIX))
