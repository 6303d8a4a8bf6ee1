"""``sac answers``: every query of a benchmark answered from each method's top-k chunks (offline
extractive, or an OpenAI-compatible LLM), the citations checked against the gold documents, the
answers scored against the gold text (token F1, ROUGE-L)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

import click

from ..engine.answers import Answerer, ExtractiveAnswerer, LLMAnswerer, answer_cost, excerpts_of
from ..engine.answers.llm import render_prompt
from ..engine.data import load_benchmark, write_csv
from ..engine.embedding import Embedders
from ..engine.progress import progress_bar
from ..engine.retrieval import Hit
from ..experiments import OpenContext, RunConfig, catalogue
from ..experiments.answers import answer_queries, answer_table, top_chunks, write_answers
from .options import DATA, INDEX, SUMMARIES, SUMMARY, cache_dir_of, data_dir_of, run_config, say
from .params import OUT_FILE

ANSWERERS = ("extractive", "openai")


@click.command("answers")
@DATA
@click.option(
    "--method",
    "methods",
    default="baseline,sac-generic,doc-aware",
    show_default=True,
    help="catalogue keys (as Compare's columns), comma-separated",
)
@click.option("--answerer", type=click.Choice(ANSWERERS), default="extractive", show_default=True)
@click.option("--k", type=int, default=4, show_default=True, help="chunks the answer may cite (#1 … #k)")
@INDEX
@SUMMARIES
@click.option("--estimate-only", is_flag=True, help="openai: print what the uncached requests would cost, ask nothing")
@click.option("--out", type=OUT_FILE, required=True, help="answers, one JSON line per (query, method)")
@click.option("--table-out", type=OUT_FILE, help="the per-method table (CSV)")
def answers_command(**params: Any) -> int:
    """Answer every query from each method's top-k chunks; check citations; score F1 and ROUGE-L.

    The openai answerer reads OPENAI_API_KEY (never stored) and --base-url / $OPENAI_BASE_URL;
    its answers are cached by (model, prompt, chunk texts): a rerun sends no request."""
    data_dir, cache_dir = data_dir_of(params), cache_dir_of(params)
    base = run_config(params, data_dir)
    entries = catalogue(base)
    keys = [k.strip() for k in params["methods"].split(",") if k.strip()]
    unknown = [k for k in keys if k not in entries]
    if unknown:
        raise click.UsageError(f"unknown method {', '.join(unknown)}; offered: {', '.join(entries)}")
    bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
    say(f"{base.protocol}: {len(bench.queries)} queries; {len(keys)} method(s); answerer {params['answerer']}")
    embedders = Embedders(cache_dir)
    ctx = OpenContext(bench, data_dir, cache_dir, embedders, progress=not params["quiet"], notes=say)
    answerer = _answerer(params, base, ctx)
    ranked = {key: top_chunks(entries[key].config, ctx, params["k"]) for key in keys}  # once per method
    if isinstance(answerer, LLMAnswerer) and _estimate(answerer, ranked, ctx, params):
        return 0
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for key in keys:
        config = entries[key].config
        bar = progress_bar(total=len(bench.queries), desc=f"answers {key}", unit="q", disable=params["quiet"])
        rows += answer_queries(key, config, ctx, answerer, k=params["k"], hits=ranked[key], on_answer=_ticker(bar))
        bar.close()
    write_answers(params["out"], rows)
    table = answer_table(rows)
    if params["table_out"]:
        params["table_out"].parent.mkdir(parents=True, exist_ok=True)
        write_csv(table, params["table_out"])
    shown = table[table["dataset"] == "ALL"].drop(columns="dataset").set_index("method")
    print(f"answers from the top {params['k']} chunks, {params['answerer']} answerer (shares and scores in %):")
    shares = (shown[["cites_only_gold", "cites_other_document", "token_f1", "rouge_l"]] * 100).round(1)
    print(shares.assign(answers=shown["answers"], problems=shown["problems"]).to_string())
    sent = f"; {answerer.requests} requests sent" if isinstance(answerer, LLMAnswerer) else ""
    say(f"{len(rows)} answers → {params['out']} in {time.perf_counter() - start:.0f}s{sent}")
    return 0


def _ticker(bar: Any) -> Any:
    """``on_answer`` for ``bar``: one step per answer."""
    return lambda done, total: bar.update(1)


def _answerer(params: dict[str, Any], base: RunConfig, ctx: OpenContext) -> Answerer:
    if params["answerer"] == "extractive":
        return ExtractiveAnswerer(ctx.embedders.get(base.model, base.backend))
    return LLMAnswerer(
        ctx.cache_dir,
        model=params["llm_model"] or SUMMARY.model,
        api_key=os.environ.get("OPENAI_API_KEY"),
        base_url=params["base_url"] or os.environ.get("OPENAI_BASE_URL"),
    )


def _estimate(
    answerer: LLMAnswerer, ranked: dict[str, list[Sequence[Hit]]], ctx: OpenContext, params: dict[str, Any]
) -> bool:
    """Print what the uncached requests cost at most; True when only the estimate was asked for."""
    prompts = []
    for hits in ranked.values():
        for query, top in zip(ctx.bench.queries, hits):
            excerpts = excerpts_of(top)
            if answerer.cached(query.text, excerpts) is None:
                prompts.append(render_prompt(query.text, excerpts))
    cost = answer_cost(prompts, model=answerer.model)
    say(
        f"{cost.answers} answers not cached: at most {cost.input_tokens:,} input + {cost.output_tokens:,} output "
        f"tokens, about ${cost.usd:.2f} at gpt-4o-mini prices"
    )
    return bool(params["estimate_only"])


COMMANDS = (answers_command,)
