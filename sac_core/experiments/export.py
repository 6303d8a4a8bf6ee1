"""Exports for tools outside the project: TREC runs and qrels, per-query metrics, a BEIR folder.

For one run (a sweep cell, an imported run, any run file) :func:`export_run` writes

- ``run.jsonl``: the run in the format ``sac runs import`` reads (query id and text, ranked snippets);
- ``run.trec`` and ``qrels.trec``: **chunk level**, doc ids ``file_path#start-end`` (path
  percent-encoded), the gold spans as relevant "documents". Spans rarely coincide exactly with gold,
  so trec_eval on this pair counts exact span matches only; the project's own metrics count
  overlapping characters (``per_query.csv``);
- ``run.doc.trec`` and ``qrels.doc.trec``: **document level**, the distinct documents of the top
  ``doc_k`` chunks (each at the rank of its best chunk; binary gains): trec_eval, ranx or
  ir_measures on this pair give the project's Hit/MRR/nDCG at ``doc_k`` exactly;
- ``per_query.csv`` and ``per_query.parquet``: every metric per query and k.

:func:`export_beir` writes the benchmark as a BEIR folder: ``corpus.jsonl`` (one document per
file, ``_id`` = its path), ``queries.jsonl`` (with the dataset and gold spans as metadata) and
``qrels/test.tsv`` (document level).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from ..engine.data import (
    Benchmark,
    Snippet,
    decode,
    doc_id,
    load_benchmark,
    parse_run,
    read_table,
    run_check,
    write_csv,
    write_jsonl,
    write_trec,
)
from ..engine.data import Span as Span
from ..engine.metrics import DEFAULT_KS, score_run
from ..engine.metrics.ranking import document_run
from .cells import SweepFolder
from .run_store import load_run

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd


@dataclass(frozen=True)
class RunSource:
    """A run to export or compare, on the benchmark it was made for: ``name`` (a TREC tag:
    no spaces), the benchmark settings, ``ks``, and its ranked snippets per query id."""

    name: str
    protocol: str
    datasets: tuple[str, ...]
    seed: int | None
    ks: tuple[int, ...]
    run: dict[str, tuple[Snippet, ...]]


def tag_of(name: str) -> str:
    return "".join(ch if not ch.isspace() else "_" for ch in name) or "run"


def from_file(
    path: Path, data_dir: Path, protocol: str, datasets: tuple[str, ...], seed: int | None = None,
    ks: tuple[int, ...] = DEFAULT_KS, name: str | None = None,
) -> tuple[RunSource, Benchmark]:  # fmt: skip
    """A run file (JSONL of either shape, TREC, gzip or not) validated against its benchmark."""
    bench = load_benchmark(data_dir, datasets, protocol, seed)
    parsed = parse_run(decode(path.read_bytes(), str(path)), str(path), run_check(data_dir, bench, datasets))
    label = name or path.name.split(".")[0]
    return RunSource(tag_of(label), protocol, datasets, seed, ks, parsed.queries), bench


def from_stored(
    name: str, data_dir: Path, cache_dir: Path, ks: tuple[int, ...] = DEFAULT_KS
) -> tuple[RunSource, Benchmark]:
    """An imported run (``sac runs import``), on the benchmark it was imported for."""
    stored, run = load_run(cache_dir, name)
    bench = load_benchmark(data_dir, stored.datasets, stored.protocol, stored.seed)
    problem = stored.fits(bench)
    if problem is not None:
        raise ValueError(problem)
    return RunSource(tag_of(name), stored.protocol, stored.datasets, stored.seed, ks, run), bench


def sweep_cells(folder: Path) -> pd.DataFrame:
    """One row per cell of a published sweep folder (its settings, from ``results.csv``)."""
    path = SweepFolder(folder).results
    if not path.is_file():
        raise ValueError(f"{folder}: not a sweep folder (no results.csv)")

    table = read_table(path)
    return table.drop_duplicates("cell").reset_index(drop=True)


def pick_cell(
    folder: Path, cell: str | None = None, variant: str | None = None, where: Mapping[str, str] = {}
) -> pd.Series:
    """The one cell of sweep ``folder`` given by its id, or by ``variant`` and setting values
    (``where``: column → value as text); ValueError lists the candidates when not exactly one."""
    cells = sweep_cells(folder)
    chosen = cells
    if cell is not None:
        chosen = chosen[chosen["cell"] == cell]
    if variant is not None:
        chosen = chosen[chosen["variant"] == variant]
    for column, value in where.items():
        if column not in chosen.columns:
            raise ValueError(f"{folder}: no setting {column!r}")
        chosen = chosen[chosen[column].astype(str).isin([value, value + ".0"])]
    if len(chosen) != 1:
        shown = "; ".join(f"{r['cell']} {r['variant']} chunk {r['chunk_size']} weight {r['semantic_weight']}"
                          for _, r in (chosen if len(chosen) else cells).head(12).iterrows())  # fmt: skip
        raise ValueError(
            f"{folder}: {len(chosen)} cells match (need one; --cell ID or --variant with --where): {shown}"
        )
    return chosen.iloc[0]


def from_cell(folder: Path, row: pd.Series, data_dir: Path) -> tuple[RunSource, Benchmark]:
    """A sweep cell's committed run (``runs/<cell>.jsonl.gz``), validated against its benchmark."""
    import pandas as pd

    seed = None if pd.isna(row.get("seed")) else int(row["seed"])
    datasets = tuple(str(row["datasets"]).split(","))
    ks = tuple(sorted(int(k) for k in read_table(SweepFolder(folder).results).query("cell == @row.cell")["k"].unique()))
    path = SweepFolder(folder).run_path(str(row["cell"]))
    source, bench = from_file(path, data_dir, str(row["protocol"]), datasets, seed, ks, name=str(row["variant"]))
    return source, bench


def export_run(
    out_dir: Path, source: RunSource, bench: Benchmark, *, doc_k: int | None = None, mode: str = "merged"
) -> list[Path]:
    """The files of the module docstring for ``source`` in ``out_dir``; ``doc_k`` (default: the
    largest k) cuts the chunks the document-level run is made of. Returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    queries = {q.query_id: q for q in bench.queries}
    cut = doc_k or max(source.ks)
    files = {
        "run.jsonl": write_jsonl(queries, source.run),
        "run.trec": write_trec(source.run, source.name),
        "qrels.trec": "".join(
            f"{q.query_id} 0 {doc_id(Snippet(g.file_path, g.start, g.end))} 1\n" for q in bench.queries for g in q.gold
        ),
        "run.doc.trec": "".join(
            f"{qid} Q0 {document_id(doc)} {rank} {score!r} {source.name}\n"
            for qid, snippets in source.run.items()
            for rank, (doc, score) in enumerate(document_run([s.file_path for s in snippets], cut).items(), start=1)
        ),
        "qrels.doc.trec": "".join(
            f"{q.query_id} 0 {document_id(fp)} 1\n" for q in bench.queries for fp in sorted(q.gold_files)
        ),
    }
    written = []
    for name, text in files.items():
        (out_dir / name).write_text(text, encoding="utf-8")
        written.append(out_dir / name)
    per_query = score_metrics(source, bench, mode)
    per_query.insert(0, "run", source.name)
    write_csv(per_query, out_dir / "per_query.csv")
    per_query.to_parquet(out_dir / "per_query.parquet", index=False)
    written += [out_dir / "per_query.csv", out_dir / "per_query.parquet"]
    return written


def score_metrics(source: RunSource, bench: Benchmark, mode: str = "merged") -> pd.DataFrame:
    """Every metric per query and k of ``source`` (the project's definitions)."""
    spans = {qid: [Span(s.file_path, s.start, s.end) for s in snippets] for qid, snippets in source.run.items()}
    return score_run(bench.queries, spans, source.ks, mode)


def export_beir(out_dir: Path, bench: Benchmark) -> list[Path]:
    """The benchmark as a BEIR folder (see the module docstring)."""
    (out_dir / "qrels").mkdir(parents=True, exist_ok=True)
    with (out_dir / "corpus.jsonl").open("w", encoding="utf-8") as f:
        for fp in sorted(bench.documents):
            f.write(
                json.dumps({"_id": fp, "title": Path(fp).stem, "text": bench.documents[fp].text}, ensure_ascii=False)
                + "\n"
            )
    with (out_dir / "queries.jsonl").open("w", encoding="utf-8") as f:
        for q in bench.queries:
            gold = [{"file_path": g.file_path, "span": [g.start, g.end]} for g in q.gold]
            f.write(json.dumps({"_id": q.query_id, "text": q.text, "metadata": {"dataset": q.dataset, "gold": gold}},
                               ensure_ascii=False) + "\n")  # fmt: skip
    with (out_dir / "qrels" / "test.tsv").open("w", encoding="utf-8") as f:
        f.write("query-id\tcorpus-id\tscore\n")
        for q in bench.queries:
            for fp in sorted(q.gold_files):
                f.write(f"{q.query_id}\t{fp}\t1\n")
    return [out_dir / "corpus.jsonl", out_dir / "queries.jsonl", out_dir / "qrels" / "test.tsv"]


def document_id(file_path: str) -> str:
    """A document's TREC id: its path, percent-encoded like the path part of :func:`doc_id`."""
    return quote(file_path, safe="/")
