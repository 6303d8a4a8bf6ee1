"""``sac docs``: regenerate the README's and the documentation's generated blocks from ``results/``
(:mod:`sac_core.tooling.docs`), or check that they are up to date (``--check``, run by ``make test``)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..tooling.browser import PROJECT
from ..tooling.docs import generate, stale, write
from .options import PATH


@click.command("docs", epilog="Exit status 1 with --check when a generated block or page is stale.")
@click.option("--check", is_flag=True, help="write nothing; list every stale block and page (exit status 1 if any)")
@click.option("--project", type=PATH, help="the checkout (default: the one sac runs from)")
@click.option("--results", type=PATH, help="results folder to read (default: <project>/results)")
def docs_command(*, check: bool, project: Path | None, results: Path | None) -> int:
    """Regenerate every results table and figure of the README and docs/, the plug-in, sweep and
    command pages, and the site's navigation, from results/, the registries and the commands."""
    start = time.perf_counter()
    root = click.get_current_context().find_root().command
    if not isinstance(root, click.Group):
        raise click.UsageError("sac docs runs as a command of sac")
    if project is not None and not (project / "mkdocs.yml").is_file():  # never a new folder of 32 files
        raise ValueError(f"--project {project}: not a checkout of sac-dashboard (no mkdocs.yml in it)")
    if results is not None and not results.is_dir():
        raise ValueError(f"--results {results}: no such folder")
    project = project or PROJECT
    site = generate(project, root, results)
    if check:
        found = stale(project, site)
        for entry in found:
            print(f"stale: {entry}")
        advice = "; run `sac docs` (or `make docs`) and commit" if found else ""
        print(f"{len(found)} stale of {len(site.files)} generated files ({time.perf_counter() - start:.1f}s){advice}")
        return 1 if found else 0
    for path in write(project, site):
        print(f"wrote {path}")
    print(f"{len(site.files)} generated files up to date ({time.perf_counter() - start:.1f}s)")
    return 0


COMMANDS = (docs_command,)
