"""``sac review``: the review sessions of the dashboard's Review page: list, report, export
(CSV/JSONL), import (JSONL). The work needs the review database (SQLAlchemy), loaded only after the
arguments are checked (:mod:`.review_work`)."""

from __future__ import annotations

from typing import Any

import click

from .options import CACHE, PATH, deferred

ACTIONS = ("list", "report", "export", "import")
_work = deferred("sac_core.cli.review_work:review")


@click.command("review")
@click.argument("action", type=click.Choice(ACTIONS))
@click.argument("file", required=False, type=PATH)
@click.option("--session", help="the session's name (report, export)")
@click.option("--out", type=PATH, help="for export: a .csv or .jsonl file")
@click.option("--db", help="database URL (default: $SAC_REVIEW_DB, else <cache>/review.sqlite)")
@CACHE
def review_command(**params: Any) -> int:
    """Review sessions: list, report, export (CSV/JSONL), import (JSONL).

    FILE: for import, a JSONL export.
    """
    action = params["action"]
    if action in ("report", "export") and not params["session"]:
        raise click.UsageError(f"{action} needs --session NAME")
    if action == "export" and not params["out"]:
        raise click.UsageError("export needs --out FILE (.csv or .jsonl)")
    if action == "import" and not params["file"]:
        raise click.UsageError("import needs FILE (a JSONL export)")
    return int(_work(**params))


COMMANDS = (review_command,)
