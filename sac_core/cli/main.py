"""``sac``: the command line (click). One module per group of commands; this one puts them together
and turns errors into one line each.

- Bad arguments: ``sac evaluate: error: …`` and a one-line hint, never the whole usage block;
  nothing heavy is imported before the arguments are checked (see :mod:`.options`).
- Bad input found while running (a missing folder, a malformed file, an unknown setting): the
  project's error message in one line, exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from ..engine.answers import AnswerError
from ..engine.data import BenchmarkError, RunFileError
from ..engine.embedding import ModelError
from ..engine.retrieval import ExternalError
from ..engine.summaries import SummaryError
from ..experiments import load_plugins
from ..experiments.loading import ENV as PLUGINS_ENV
from ..experiments.run_store import RunStoreError
from ..tooling.browser import ScreenshotError
from . import answers, data, docs, interop, results, review, run, separation, summaries, sweeps, tools

ERRORS = (
    AnswerError,
    BenchmarkError,
    SummaryError,
    ScreenshotError,
    RunFileError,
    RunStoreError,
    ExternalError,
    ModelError,
    ValueError,
    KeyError,
)  # one line, exit status 2


class Commands(click.Group):
    """A group that lists its commands in the order they were added (the most used first)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


@click.group(
    cls=Commands,
    context_settings={"help_option_names": ["-h", "--help"], "terminal_width": 100, "max_content_width": 100},
)
@click.option(
    "--plugin",
    "plugins",
    metavar="MODULE",
    multiple=True,
    help=f"import a module that registers methods or stages (repeatable); also ${PLUGINS_ENV} and "
    "installed packages' 'sac_core.plugins' entry points",
)
def sac(plugins: tuple[str, ...]) -> None:
    """Summary-Augmented Chunking on LegalBench-RAG: evaluate, sweep and report retrieval methods,
    build the dashboard's indexes, summarise, review. `sac COMMAND --help` lists every flag."""
    load_plugins(plugins)  # before the command's options are read: --method may name a plug-in


for module in (run, summaries, answers, sweeps, results, interop, data, separation, review, tools, docs):
    for command in module.COMMANDS:
        sac.add_command(command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``sac`` with ``argv`` (default: the process's arguments); the exit status.

    Argument errors raise ``SystemExit(2)`` after their one-line message, as argparse did."""
    try:
        return int(
            sac.main(args=list(argv) if argv is not None else None, prog_name=sac.name, standalone_mode=False) or 0
        )
    except click.exceptions.NoArgsIsHelpError as e:  # `sac` alone: the list of commands, exit status 2
        click.echo(e.ctx.get_help() if e.ctx else e.format_message())
        return 2
    except click.UsageError as e:
        where = e.ctx.command_path if e.ctx else sac.name
        print(f"{where}: error: {e.format_message()}\n(see {where} --help)", file=sys.stderr)
        raise SystemExit(2) from None
    except click.ClickException as e:
        print(f"{sac.name}: error: {e.format_message()}", file=sys.stderr)
        return e.exit_code
    except ERRORS as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"{sac.name}: error: {message}", file=sys.stderr)
        return 2
    except click.Abort:
        print(f"{sac.name}: interrupted; finished work is cached, rerun to resume", file=sys.stderr)
        return 130
