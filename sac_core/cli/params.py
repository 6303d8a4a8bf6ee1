"""The value types of the command line that click has not: ``--k`` cut-offs, ``--option`` plug-in
options, a choice among the names of a registry (read when parsing, so plug-ins count), and output
paths checked for writing before any work (:class:`Output`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import click

from ..experiments.config import parse_option
from ..experiments.plugins import Registry


class Ks(click.ParamType):
    """``--k 1,2,4``: the cut-offs, sorted and unique (a tuple given as default passes as is)."""

    name = "K,K,…"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, ...]:
        if isinstance(value, tuple):
            return value
        try:
            ks = tuple(sorted({int(x) for x in str(value).split(",")}))
        except ValueError:
            self.fail(f"takes comma-separated integers, got {value!r}", param, ctx)
        if not ks or min(ks) < 1:
            self.fail("values must be >= 1", param, ctx)
        return ks


class OptionType(click.ParamType):
    """``--option <plug-in>.<field>=<value>`` → a typed plug-in option (the value read as the
    field's type); an unknown plug-in or field fails with the names it knows."""

    name = "PLUGIN.FIELD=VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, Any]:
        if isinstance(value, tuple):
            return value
        try:
            return parse_option(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)


class Registered(click.Choice):
    """A name of a registry, read when the command line is parsed: a plug-in registered after this
    module was loaded is a valid choice too."""

    def __init__(self, registry: Registry[Any]) -> None:
        self.registry = registry
        super().__init__(registry.names())

    @property
    def choices(self) -> tuple[str, ...]:
        return self.registry.names()

    @choices.setter
    def choices(self, value: object) -> None:  # click.Choice.__init__ sets it: the registry decides
        pass


class Output(click.ParamType):
    """An output path (``folder``: a folder the command writes into; else a file), checked when the
    command line is parsed, before any work: its folder is made and a file created in it and removed.
    A path that cannot be written (a read-only folder, a file where a folder should be, a folder
    where the file should be) stops the command in one line naming the flag and the path (a
    ValueError, which ``sac`` prints as ``sac: error: …``)."""

    def __init__(self, *, folder: bool = False) -> None:
        self.folder = folder
        self.name = "directory" if folder else "file"  # as click names its own path types

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        path = Path(value)
        flag = f"{param.opts[0]} " if param is not None and param.opts else ""
        if path.exists() and path.is_dir() != self.folder:
            raise ValueError(f"{flag}{path}: {'a file, not a folder' if self.folder else 'a folder, not a file'}")
        where = path if self.folder else path.parent
        above = next(p for p in (where, *where.parents) if p.exists() or p == p.parent)
        if above.exists() and not above.is_dir():
            raise ValueError(f"{flag}{path}: {above} is a file, not a folder")
        try:
            where.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=where):
                pass
        except OSError as e:
            raise ValueError(f"{flag}{path}: cannot be written ({e.strerror or type(e).__name__})") from None
        return path


OUT_FILE = Output()
OUT_FOLDER = Output(folder=True)
