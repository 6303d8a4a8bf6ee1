"""Plug-ins from outside the repository: the modules that register methods and stages, imported
before a configuration names them.

A plug-in is any importable module that registers :class:`~.plugins.Method` or
:class:`~.plugins.Stage` instances when imported (``METHODS.register(...)`` at module level). Three
ways name one, all loaded by :func:`load_plugins`:

- an installed package declares it in the entry-point group ``sac_core.plugins`` (its
  ``pyproject.toml``: ``[project.entry-points."sac_core.plugins"] toy = "toy_plugin"``): found in
  every process (``sac``, the dashboard, its build workers) with nothing to configure;
- ``$SAC_PLUGINS=module,module`` (the dashboard reads it at start, ``sac`` on every command);
- ``sac --plugin module`` (repeatable).

A module that cannot be imported raises :class:`PluginError`, one line naming it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from functools import partial
from importlib.metadata import EntryPoint, entry_points

ENV = "SAC_PLUGINS"  # module,module,… : plug-in modules to import
GROUP = "sac_core.plugins"  # the entry-point group of installed plug-ins


class PluginError(ValueError):
    """A plug-in module or entry point that cannot be loaded (the message names it, in one line)."""


def env_modules(raw: str | None = None) -> tuple[str, ...]:
    """The modules ``$SAC_PLUGINS`` (or ``raw``) names, comma-separated, in order."""
    text = os.environ.get(ENV, "") if raw is None else raw
    return tuple(dict.fromkeys(m.strip() for m in text.split(",") if m.strip()))


def _why(e: BaseException) -> str:
    first = str(e).strip().splitlines()
    return f"{type(e).__name__}: {first[0]}" if first else type(e).__name__


def import_plugin(module: str, *, where: str = "") -> None:
    """Import ``module`` (it registers its plug-ins); a :class:`PluginError` naming it when it cannot
    be imported, or fails while importing (``where``: how it was named, e.g. ``$SAC_PLUGINS``)."""
    try:
        importlib.import_module(module)
    except Exception as e:  # anything the module raises on import: it did not load
        named = f" ({where})" if where else ""
        raise PluginError(f"plug-in module {module!r}{named} cannot be imported: {_why(e)}") from None


def _load_entry_point(ep: EntryPoint) -> None:
    try:
        ep.load()
    except Exception as e:
        package = f" of {ep.dist.name}" if ep.dist is not None else ""
        raise PluginError(f"plug-in entry point {ep.name} = {ep.value}{package} cannot be loaded: {_why(e)}") from None


def load_plugins(
    modules: Iterable[str] = (),
    *,
    installed: bool = True,
    environment: bool = True,
    failed: list[PluginError] | None = None,
) -> tuple[str, ...]:
    """Import every plug-in: the installed packages' ``sac_core.plugins`` entry points
    (``installed``), the modules of ``$SAC_PLUGINS`` (``environment``), then ``modules`` (``sac
    --plugin``). Importing twice is free (Python keeps a module once), so every entry point may call
    this. The first that cannot be loaded raises :class:`PluginError`; with ``failed`` (a list) each
    such error is added there instead and the others still load (the dashboard). Returns the names
    loaded, in order."""
    steps: list[tuple[str, Callable[[], None]]] = []
    if installed:
        steps += [(ep.value, partial(_load_entry_point, ep)) for ep in entry_points(group=GROUP)]
    named = [(m, f"${ENV}") for m in (env_modules() if environment else ())] + [(m, "--plugin") for m in modules]
    steps += [(module, partial(import_plugin, module, where=where)) for module, where in named]
    loaded = []
    for name, load in steps:
        try:
            load()
        except PluginError as e:
            if failed is None:
                raise
            failed.append(e)
            continue
        loaded.append(name)
    return tuple(dict.fromkeys(loaded))
