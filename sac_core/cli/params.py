"""The value types of the command line that click has not: ``--k`` cut-offs, ``--option`` plug-in
options, and a choice among the names of a registry (read when parsing, so plug-ins count)."""

from __future__ import annotations

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
