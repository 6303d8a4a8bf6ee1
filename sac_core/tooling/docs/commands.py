"""The CLI reference: one page per ``sac`` command (``docs/cli/<command>.md``), written from the
click commands themselves (usage, help, every option with its type and default), so it can never
disagree with ``sac <command> --help``."""

from __future__ import annotations

import click

from .blocks import table
from .plugins import markdown_of

UNSET_NAMES = {"Sentinel.UNSET", "UNSET"}


def command_pages(root: click.Group) -> dict[str, str]:
    """``cli/<name>.md`` → its page, for every command of ``root`` (a group's subcommands on its page)."""
    return {page(name): "\n".join(_page(root, name, command)) + "\n" for name, command in _commands(root)}


def page(name: str) -> str:
    """The page of command ``name`` (under ``docs/``)."""
    return f"cli/sac-{name}.md"


def _commands(root: click.Group) -> list[tuple[str, click.Command]]:
    ctx = click.Context(root, info_name=root.name)
    found = [(name, root.get_command(ctx, name)) for name in root.list_commands(ctx)]
    return [(name, command) for name, command in found if command is not None and not command.hidden]


def commands_table(root: click.Group) -> list[str]:
    """Every command with its first help line and a link to its page: the CLI index."""
    rows = [
        [f"[`sac {name}`]({page(name).removeprefix('cli/')})", _first_line(command)]
        for name, command in _commands(root)
    ]
    return table(["command", "what it does"], rows)


def _first_line(command: click.Command) -> str:
    return markdown_of(command.get_short_help_str(limit=200))


def _page(root: click.Group, name: str, command: click.Command) -> list[str]:
    parent = click.Context(root, info_name=root.name)
    lines = [
        f"# sac {name}",
        "",
        "<!-- generated from the click command by `sac docs`: edit its help, not this page -->",
    ]
    lines += _section(command, click.Context(command, info_name=name, parent=parent), level=0)
    if isinstance(command, click.Group):  # a group's subcommands, each a section of the same page
        ctx = click.Context(command, info_name=name, parent=parent)
        for sub in command.list_commands(ctx):
            found = command.get_command(ctx, sub)
            if found is not None and not found.hidden:
                lines += ["", f"## sac {name} {sub}"]
                lines += _section(found, click.Context(found, info_name=sub, parent=ctx), level=1)
    return lines


def _section(command: click.Command, ctx: click.Context, level: int) -> list[str]:
    lines = ["", "```text", command.get_usage(ctx).removeprefix("Usage: "), "```", ""]
    if command.help:
        lines += [markdown_of(click.unstyle(command.help)).strip(), ""]
    rows = [row for row in (_option(p, ctx) for p in command.get_params(ctx)) if row]
    if rows:
        lines += table(["option", "type", "default", "meaning"], rows)
    if command.epilog:
        lines += ["", markdown_of(command.epilog)]
    return lines


def _option(param: click.Parameter, ctx: click.Context) -> list[str]:
    if isinstance(param, click.Argument):
        return [
            f"`{param.human_readable_name}` (argument)",
            param.type.get_metavar(param, ctx) or param.type.name,
            "",
            "",
        ]
    if not isinstance(param, click.Option) or param.hidden or "--help" in param.opts:
        return []
    names = " / ".join(f"`{n}`" for n in [*param.opts, *param.secondary_opts])
    kind = "flag" if param.is_flag else (param.type.get_metavar(param, ctx) or param.type.name)
    default = param.get_default(ctx, call=False)
    hidden = default is None or str(default) in UNSET_NAMES or callable(default) or (param.is_flag and not default)
    return [names, kind, "" if hidden else f"`{_value(default)}`", markdown_of(param.help or "")]


def _value(default: object) -> str:
    if isinstance(default, (tuple, list)):
        return ",".join(str(v) for v in default)
    return str(default)
