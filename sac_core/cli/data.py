"""Data folders: ``sac demo`` (the generated demo benchmark), ``sac ingest`` (your own documents),
``sac heldout`` (queries on documents no protocol used) and copies of a benchmark folder with other
queries: ``sac noname`` (without their opening document reference), ``sac reword`` (the fixed
questions as lawyers word them), ``sac describe`` (documents named as lawyers name them); ``sac floor`` (queries no reader of the texts can place)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import PROTOCOLS, ingest_folder, load_benchmark, read_table, write_demo_corpus, write_heldout
from ..engine.progress import progress_bar
from ..experiments.cells import SweepFolder
from ..experiments.describe import write_described
from ..experiments.idnames import write_idnames
from ..experiments.noname import write_noname
from ..experiments.reword import HELD_OUT_VARIANT, VARIANTS, write_reworded
from ..experiments.routing_floor import checked_per_query, misplaced, share_by_dataset, unplaceable
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


@click.command("idnames", epilog="Report a method that reads file names (doc_names.weight) on this copy too.")
@click.option("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
@click.option("--out", type=PATH, required=True, help="new folder (outside the project): benchmarks/ + corpus links")
def idnames_command(**params: Any) -> int:
    """Write a copy of a benchmark folder whose documents are named by ids, as scans or exports are."""
    data_dir = data_dir_of(params)
    for ds, (queries, documents) in write_idnames(data_dir, params["out"]).items():
        print(f"{ds}: {queries} queries, {documents} documents renamed")
    print(f"wrote {params['out']}; protocols paper and full select the same queries: --data {params['out']}")
    return 0


@click.command(
    "describe", epilog="A test set: tune nothing on it. With sac heldout and sac idnames it looks like a firm's corpus."
)
@click.option("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
@click.option("--out", type=PATH, required=True, help="new folder (outside the project): benchmarks/ + corpus symlink")
def describe_command(**params: Any) -> int:
    """Write a copy of a benchmark folder whose queries name their document as a lawyer would.

    Each query's opening reference is rewritten from its gold document's own first page: its type
    ("NDA", "merger agreement"), its parties (short names, no legal suffix, sometimes initials or one
    party), sometimes its year; a form with no party by its letterhead. The question is kept.
    """
    data_dir = data_dir_of(params)
    for ds, (queries, changed) in write_described(data_dir, params["out"]).items():
        print(f"{ds}: {queries} queries, {changed} with their document reference rewritten")
    print(f"wrote {params['out']}; same protocols, query ids and gold: --data {params['out']}")
    return 0


@click.command("reword", epilog="Variant 1 is for tuning; variant 2 is held out: report on it, never tune on it.")
@click.option("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
@click.option("--out", type=PATH, required=True, help="new folder (outside the project): benchmarks/ + corpus symlink")
@click.option("--variant", type=click.Choice([str(v) for v in VARIANTS]), required=True, help="which rewording")
def reword_command(**params: Any) -> int:
    """Write a copy of a benchmark folder whose template questions are reworded as lawyers ask them.

    Only the question after the opening document reference changes; queries that are not one of
    LegalBench-RAG's 71 templates (PrivacyQA, your own) are kept as they are.
    """
    data_dir, out, variant = data_dir_of(params), params["out"], int(params["variant"])
    for ds, (queries, changed) in write_reworded(data_dir, out, variant).items():
        print(f"{ds}: {queries} queries, {changed} reworded, {queries - changed} kept")
    use = "held out: report on it, never tune on it" if variant == HELD_OUT_VARIANT else "for tuning"
    print(f"wrote {out}, variant {variant} ({use}); same protocols, query ids and gold: --data {out}")
    return 0


@click.command("floor")
@click.option("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
@click.option("--protocol", type=click.Choice(PROTOCOLS), default="paper", show_default=True, help="which queries")
@click.option("--list", "listed", is_flag=True, help="also list each query, its reference and its words")
@click.option(
    "--results",
    type=PATH,
    help="a sweep folder of this protocol: each cell's misplaced queries at k = 1 (a variant per setting)",
)
def floor_command(**params: Any) -> int:
    """Count the queries no reader of the texts can place: their reference has no word of its
    document's text (it was written from the file name), or the document's text is another's too.

    No router that reads documents rather than file names can place them: their share is the floor
    under DRM@k at small k for name-free methods (see sac_core/experiments/routing_floor.py).
    """
    file = SweepFolder(params["results"]).per_query if params["results"] else None
    if file is not None and not file.is_file():  # before the benchmark is read
        raise ValueError(f"--results {params['results']}: not a sweep folder (no {file.name} in it)")
    bench = load_benchmark(data_dir_of(params), "all", params["protocol"])
    found = unplaceable(bench)
    for ds, (n, total) in share_by_dataset(bench, found).items():
        print(f"{ds}: {n} of {total} queries ({100 * n / total:.2f} %) cannot be placed by reading the texts")
    twinned = sum(bool(u.twin) for u in found)
    named = sum(u.in_file_name for u in found)
    print(
        f"of these, {len(found) - twinned} name their document by no word of its text ({named} by a word of its "
        f"file name) and {twinned} cite a document whose text another document has too"
    )
    for u in found if params["listed"] else ():
        why = f"same text as {u.twin}" if u.twin else ", ".join(u.words)
        print(f"  {u.query_id}: {u.reference} ({why})")
    if file is not None:
        per_query = checked_per_query(read_table(file), str(file))
        for row in misplaced(per_query, found).itertuples():
            print(
                f"{row.label}: {row.misplaced} of {row.queries} queries misplaced at k = 1, "
                f"{row.unplaceable} of them cannot be placed by reading the texts"
            )
    return 0


COMMANDS = (
    demo_command,
    ingest_command,
    heldout_command,
    noname_command,
    idnames_command,
    describe_command,
    reword_command,
    floor_command,
)
