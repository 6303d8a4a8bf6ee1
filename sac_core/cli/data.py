"""Data folders: ``sac demo`` (the generated demo benchmark), ``sac ingest`` (your own documents)
and ``sac heldout`` (queries on documents no protocol used)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import ingest_folder, write_demo_corpus, write_heldout
from ..engine.progress import progress_bar
from ..experiments.noname import write_noname
from .options import DATA, PATH, QUIET, data_dir_of, say


@click.command("demo")
@click.argument("dest", type=PATH)
def demo_command(dest: Path) -> int:
    """Write the generated demo benchmark to a folder."""
    written = write_demo_corpus(dest)
    print(f"demo benchmark written to {written}; try: sac evaluate --data {written} --protocol full")
    return 0


@click.command(
    "ingest", epilog="Exit status 1 when some files could not be read (they are listed; the rest are written)."
)
@click.argument("folder", type=PATH)
@click.option("--out", type=PATH, required=True, help="data directory to write (corpus/, benchmarks/)")
@click.option("--name", help="dataset name (default: the folder's name)")
@click.option("--gold", type=PATH, help="a benchmark JSON of questions with gold spans in the written texts")
@QUIET
def ingest_command(**params: Any) -> int:
    """Turn a folder of PDF, DOCX, text, Markdown and HTML files into a data directory.

    FOLDER: the documents (searched recursively).
    """
    folder, out = params["folder"], params["out"]
    name = params["name"] or folder.resolve().name
    start = time.perf_counter()
    bar = progress_bar(desc=f"ingesting {folder}", unit="file", disable=params["quiet"])
    report = ingest_folder(folder, out, name, params["gold"], on_file=lambda _: bar.update())
    bar.close()
    for problem in report.failed:
        say(f"sac: {folder / problem.source}: {problem.reason}")
    for problem in report.skipped:
        say(f"sac: {folder / problem.source}: skipped, {problem.reason}")
    chars = sum(r.characters for r in report.written)
    print(
        f"{len(report.written)} written ({chars:,} characters), {len(report.unchanged)} unchanged, "
        f"{len(report.failed)} failed, {len(report.skipped)} skipped → {out / 'corpus' / name}; "
        f"{time.perf_counter() - start:.1f}s"
    )
    print(f"next: sac index --data {out} --protocol corpus   (then SAC_DATA_DIR={out} make app)")
    return 1 if report.failed else 0


@click.command("heldout")
@DATA
@click.option("--out", type=PATH, required=True, help="new folder (outside the project): benchmarks/ + corpus symlinks")
@click.option("--exclude", default="lbr-mini,paper", show_default=True, help="protocols whose documents are left out")
@click.option("--max-docs", type=int, default=40, show_default=True, help="documents per dataset at most (sampled)")
def heldout_command(**params: Any) -> int:
    """Write a benchmark folder of queries whose documents no protocol tuned or reported on."""
    data_dir = data_dir_of(params)
    datasets = "cuad,maud" if params["datasets"] == "all" else params["datasets"]
    exclude = params["exclude"]
    kept = write_heldout(
        data_dir, params["out"], datasets.split(","), exclude.split(","), params["max_docs"], params["seed"] or 0
    )
    for ds, (queries, docs) in kept.items():
        print(f"{ds}: {queries} queries over {docs} documents outside {exclude}")
    print(f"wrote {params['out']}; run it with --data {params['out']} --protocol full")
    return 0


@click.command("noname")
@click.option("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
@click.option("--out", type=PATH, required=True, help="new folder (outside the project): benchmarks/ + corpus symlink")
def noname_command(**params: Any) -> int:
    """Write a copy of a benchmark folder whose queries do not name their document."""
    data_dir = data_dir_of(params)
    for ds, (queries, changed) in write_noname(data_dir, params["out"]).items():
        print(f"{ds}: {queries} queries, {changed} without their opening document reference")
    print(f"wrote {params['out']}; run it as {data_dir} (same protocols, query ids and gold): --data {params['out']}")
    return 0


COMMANDS = (demo_command, ingest_command, heldout_command, noname_command)
