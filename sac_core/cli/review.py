"""``sac review``: the review sessions of the dashboard's Review page: list, report, export
(CSV/JSONL), import (JSONL), and a session's links (its owner's, a reviewer's). The work needs the review database (SQLAlchemy), loaded only after the
arguments are checked (:mod:`.review_work`)."""

from __future__ import annotations

from typing import Any

import click

from .options import CACHE, PATH, deferred

ACTIONS = ("list", "report", "export", "import", "link")
_work = deferred("sac_core.cli.review_work:review")


@click.command("review")
@click.argument("action", type=click.Choice(ACTIONS))
@click.argument("file", required=False, type=PATH)
@click.option("--session", help="the session's name (report, export, link)")
@click.option("--reviewer", help="for link: the reviewer's link (added to the session if new); without it, the owner's")
@click.option(
    "--url", "base_url", help="for link: the dashboard's address (default: $SAC_PUBLIC_URL, else http://localhost:8501)"
)
@click.option("--out", type=PATH, help="for export: a .csv or .jsonl file")
@click.option("--db", help="database URL (default: $SAC_REVIEW_DB, else <cache>/review.sqlite)")
@CACHE
def review_command(**params: Any) -> int:
    """Review sessions: list, report, export (CSV/JSONL), import (JSONL), link.

    FILE: for import, a JSONL export. link prints a new link (the old one of that person stops
    working): the owner's, or with --reviewer a reviewer's; sessions made before links get theirs so.
    """
    action = params["action"]
    if action in ("report", "export", "link") and not params["session"]:
        raise click.UsageError(f"{action} needs --session NAME")
    if action == "export" and not params["out"]:
        raise click.UsageError("export needs --out FILE (.csv or .jsonl)")
    if action == "import" and not params["file"]:
        raise click.UsageError("import needs FILE (a JSONL export)")
    return int(_work(**params))


COMMANDS = (review_command,)
