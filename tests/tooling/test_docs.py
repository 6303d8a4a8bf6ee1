"""`sac docs`: every results table of the README and docs/ comes from results/, a changed results file
makes `--check` fail naming the block, every CLI command and every registered plug-in has its
generated page, and the built site's home shows the dashboard and the headline result at 1280 px."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import click
import pandas as pd
import pytest

from sac_core.cli.main import main, sac
from sac_core.engine.retrieval.within_document import WithinDocumentSettings
from sac_core.experiments import METHODS, STAGES
from sac_core.tooling.browser import CHROMIUM, PROJECT
from sac_core.tooling.docs.commands import page
from sac_core.tooling.docs.plugins import field_comments, options_table, plugins
from sac_core.tooling.docs.regions import fill, regions

DOCS = PROJECT / "docs"


def test_regions_are_rewritten_and_nothing_else():
    text = "# Title\n\nprose\n<!-- generated: a -->\nold\n<!-- /generated -->\nmore prose\n"
    assert regions("x.md", text) == {"a": "old\n"}
    new = fill("x.md", text, lambda name: f"| {name} |")
    assert new == "# Title\n\nprose\n<!-- generated: a -->\n| a |\n<!-- /generated -->\nmore prose\n"
    yaml = "site_name: x\n# generated: nav\nnav: []\n# /generated\n"
    assert fill("mkdocs.yml", yaml, lambda name: "nav:\n  - index.md") == (
        "site_name: x\n# generated: nav\nnav:\n  - index.md\n# /generated\n"
    )


def test_an_options_table_reads_each_field_its_default_and_its_comment():
    comments = field_comments(WithinDocumentSettings)
    assert comments["bm25"] == "weight of z(BM25 of the question over the document's chunks)"
    within = next(p for p in plugins() if p.name == "within_doc")
    rows = [line for line in options_table(within) if line.startswith("| `within_doc.")]
    assert len(rows) == len(fields(WithinDocumentSettings))
    assert "| `within_doc.bm25` | `float` | `0.25` | weight of z(BM25 of the question" in "\n".join(rows)


def test_every_cli_command_and_every_registered_plugin_has_its_generated_page():
    ctx = click.Context(sac)
    commands = sac.list_commands(ctx)
    cli_pages = sorted(p.name for p in (DOCS / "cli").glob("sac-*.md"))
    assert cli_pages == sorted(Path(page(name)).name for name in commands)  # one page per command, no other
    for name in commands:
        text = (DOCS / page(name)).read_text(encoding="utf-8")
        assert text.startswith(f"# sac {name}\n")
        for param in sac.get_command(ctx, name).params:  # every option of the command is on its page
            if isinstance(param, click.Option) and not param.hidden:
                assert f"`{param.opts[0]}`" in text, (name, param.opts)
    names = [*METHODS.names(), *STAGES.names()]
    assert [p.name for p in plugins()] == names  # baseline, sac, run, retriever; ten signals; three passage stages
    method_pages = sorted(p.name for p in (DOCS / "methods").glob("*.md") if p.stem != "index")
    assert method_pages == sorted({Path(p.page).name for p in plugins()})  # one page per plug-in, the signals share one
    assert {p.page for p in plugins() if p.name in ("split", "prior", "gate", "rerank")} == {"methods/signals.md"}
    for plugin in plugins():
        text = (DOCS / plugin.page).read_text(encoding="utf-8")
        assert f"<!-- generated: options:{plugin.name} -->" in text
    nav = (PROJECT / "mkdocs.yml").read_text(encoding="utf-8")
    assert all(p.page in nav for p in plugins()) and all(page(c) in nav for c in commands)


def _copy_results(to: Path) -> Path:
    """The committed results without their runs (the generator reads none), to change one value in."""
    shutil.copytree(PROJECT / "results", to, ignore=shutil.ignore_patterns("runs", "answers.jsonl.gz"))
    return to


def test_a_changed_results_value_makes_the_check_fail_naming_the_block(tmp_path, capsys):
    results = _copy_results(tmp_path / "results")
    table = results / "wording-paper" / "results.csv"
    frame = pd.read_csv(table, dtype=str, keep_default_na=False)
    row = frame.index[(frame["variant"] == "baseline") & (frame["dataset"] == "ALL") & (frame["k"] == "1")][0]
    frame.loc[row, "precision"] = str(float(frame.loc[row, "precision"]) + 0.05)  # baseline's mean over k +0.71 pts
    frame.to_csv(table, index=False)

    assert main(["docs", "--check", "--results", str(results)]) == 1
    out = capsys.readouterr().out
    assert "stale: README.md: headline" in out
    assert "stale: docs/index.md: headline" in out
    assert "stale: docs/results/wording-paper.md (differs)" in out
    assert "run `sac docs`" in out


@pytest.mark.slow  # mkdocs build, then Chromium
def test_the_built_site_home_shows_the_dashboard_and_the_headline_above_the_fold(tmp_path):
    """Built offline and strictly, its home page at 1280 px: the Compare screenshot and the headline
    table on the first screen, and not one request to another site."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} not found although CI should have installed it", pytrace=False)
        pytest.skip(f"{CHROMIUM} not found: run `bash scripts/install_browser.sh`")
    from sac_core.tooling.docs.home import shoot_home

    site = tmp_path / "site"
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)]
    done = subprocess.run(
        build, cwd=PROJECT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shot = shoot_home(site, tmp_path / "home.png")
    assert shot.outside == []
    assert shot.above_fold == {".hero-frame": True, ".home-grid table": True}
    assert shot.path.stat().st_size > 50_000


def test_every_picture_and_file_the_readme_links_to_is_in_the_repository():
    """GitHub shows the README outside the docs site, so its relative links are checked here (the
    site's own links are checked by `mkdocs build --strict`); a link a checkout cannot follow (a
    symlink stored as a file, a moved picture) fails."""
    import re

    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    targets = {m for m in re.findall(r"\]\(([^)#\s]+)", readme) if "://" not in m}
    assert targets, "the README links to no file at all"
    missing = sorted(t for t in targets if not (PROJECT / t).is_file() and not (PROJECT / t).is_dir())
    assert missing == []
    assert any(t.endswith(".png") for t in targets)
