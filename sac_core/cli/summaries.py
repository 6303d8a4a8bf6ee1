"""``sac summarize``: one SAC summary per document (made, or imported), cached and resumable, with
the cost estimate before and the tokens spent after."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import load_benchmark, parse_datasets
from ..engine.summaries import SummaryConfig, SummaryRecord, estimate_cost, run_cost, summarize_documents
from ..experiments.executors import prefill_summaries
from .options import DATA, EXECUTION, LLM, SUMMARIES, cache_dir_of, data_dir_of, executor_of, say, summary_config
from .params import OUT_FILE


@click.command("summarize")
@DATA
@SUMMARIES
@LLM
@click.option("--estimate-only", is_flag=True, help="print the cost estimate and stop")
@click.option("--out", type=OUT_FILE, help="also write the summaries as JSONL")
@EXECUTION
def summarize_command(**params: Any) -> int:
    """Make (or import) one SAC summary per document, cached and resumable."""
    data_dir, cache_dir = data_dir_of(params), cache_dir_of(params)
    config = summary_config(params, data_dir)
    datasets = parse_datasets(params["datasets"], data_dir)
    bench = load_benchmark(data_dir, datasets, params["protocol"], params["seed"])
    texts = {fp: d.text for fp, d in bench.documents.items()}
    before = estimate_cost(texts, config, cache_dir)
    say(
        f"{len(texts)} documents, {len(texts) - before.documents} already cached; "
        f"provider {config.provider}, prompt {config.prompt_name}, {config.chars} characters"
    )
    if config.provider == "openai":
        say(
            f"estimate for the {before.documents} to request: ~{before.input_tokens:,} input + "
            f"~{before.output_tokens:,} output tokens ≈ ${before.usd:.2f}"
        )
    if params["estimate_only"]:
        return 0
    start = time.perf_counter()
    if params["executor"] != "local":
        prefill_summaries(texts, config, cache_dir, executor_of(params))
    records = summarize_documents(texts, config, cache_dir, progress=not params["quiet"])  # key: $OPENAI_API_KEY
    wall = time.perf_counter() - start
    after = run_cost(records, config)
    retried = sum(len(r.attempts) > 1 for r in records.values())
    lengths = [len(r.summary) for r in records.values()]
    print(
        f"{len(records)} summaries ({sum(r.cached for r in records.values())} from cache, {retried} needed "
        f"length retries); length min/mean/max {min(lengths)}/{sum(lengths) / len(lengths):.0f}/{max(lengths)} "
        f"characters; {wall:.1f}s"
    )
    if config.provider == "openai":
        print(f"this run: {after.input_tokens:,} input + {after.output_tokens:,} output tokens ≈ ${after.usd:.4f}")
    if params["out"]:
        _write_jsonl(params["out"], records, config)
        print(f"written to {params['out']} (the format --provider file reads)")
    return 0


def _write_jsonl(path: Path, records: dict[str, SummaryRecord], config: SummaryConfig) -> None:
    """The summaries as ``--provider file`` reads them, one JSON object a line, by file path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for r in sorted(records.values(), key=lambda r: r.file_path):
            row = {
                "file_path": r.file_path,
                "prompt": config.prompt_name,
                "chars": r.chars,
                "summary": r.summary,
                "provider": r.provider,
                "model": r.model,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


COMMANDS = (summarize_command,)
