"""``sac answers``: every query of a benchmark answered from a method's top-k chunks, each answer's
citations checked against the query's gold documents, and the answers scored against the gold text.

One JSON line per (query, method)::

    {"query_id": "cuad/12", "method": "doc-aware", "variant": "baseline+split+…", "answer": "… [#2]",
     "citations": [{"label": "#2", "file_path": "cuad/x.txt", "span": [s, e], "gold_document": true}],
     "quotes": [[0, 52]], "problem": null, "token_f1": 0.31, "rouge_l": 0.22}

(``quotes``: the answer's quotations, ``[start, end)`` in its characters: document text, not citations)

and per method: the share of answers citing only gold documents, the share citing another
document, how many had a problem, and the mean token F1 and ROUGE-L (:func:`answer_table`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.answers import Answerer, excerpts_of, score_answer
from ..engine.data import Query
from ..engine.retrieval import Hit
from .config import RunConfig
from .evaluate import open_method
from .plugins import OpenContext

if TYPE_CHECKING:  # imported where used (`sac --help` stays instant)
    import pandas as pd


def gold_texts(query: Query, ctx: OpenContext) -> list[str]:
    """The text of every gold span of ``query`` ([start, end) characters of its document)."""
    return [ctx.bench.documents[g.file_path].text[g.start : g.end] for g in query.gold]


def top_chunks(config: RunConfig, ctx: OpenContext, k: int) -> list[Sequence[Hit]]:
    """``config``'s top ``k`` chunks for every benchmark query, in the benchmark's order."""
    ranker = open_method(config, ctx).ranker
    return list(ranker.search([q.text for q in ctx.bench.queries], k, progress=ctx.progress))


def answer_queries(
    name: str,
    config: RunConfig,
    ctx: OpenContext,
    answerer: Answerer,
    *,
    k: int,
    hits: Sequence[Sequence[Hit]] | None = None,
    on_answer: Callable[[int, int], None] | None = None,
) -> Iterator[dict]:
    """One row per benchmark query (see the module docstring): ``config``'s top ``k`` chunks
    (``hits``, when the caller has ranked them already: :func:`top_chunks`) answered by
    ``answerer``; ``name`` names the method in the rows; ``on_answer(done, total)`` after each."""
    queries = list(ctx.bench.queries)
    if hits is None:
        hits = top_chunks(config, ctx, k)
    for done, (query, top) in enumerate(zip(queries, hits), start=1):
        answer = answerer.answer(query.text, excerpts_of(top)).checked(query.gold_files)
        scores = score_answer(answer.text, gold_texts(query, ctx), answer.quote_spans)
        yield {
            "query_id": query.query_id,
            "dataset": query.dataset,
            "method": name,
            "variant": config.variant,
            "answerer": answer.answerer,
            "k": k,
            "answer": answer.text,
            "citations": [
                {"label": c.label, "file_path": c.file_path, "span": [c.start, c.end], "gold_document": c.gold_document}
                for c in answer.citations
            ],
            "quotes": [list(q) for q in answer.quote_spans],
            "problem": answer.problem,
            "cites_only_gold": answer.cites_only_gold,
            "cites_other_document": answer.cites_other_document,
            "token_f1": scores.token_f1,
            "rouge_l": scores.rouge_l,
            "cached": answer.cached,
        }
        if on_answer is not None:
            on_answer(done, len(queries))


def write_answers(path: Path, rows: Sequence[dict]) -> None:
    """The rows as JSON lines (UTF-8), written to a temporary file and renamed: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(path)


def answer_table(rows: Sequence[dict]) -> pd.DataFrame:
    """Per method (and dataset, with ``ALL`` the macro mean over datasets): answers, the share citing
    only gold documents, the share citing another document, answers with a problem, token F1, ROUGE-L."""
    import pandas as pd

    table = pd.DataFrame(rows)
    if table.empty:
        return table
    metrics = ["cites_only_gold", "cites_other_document", "token_f1", "rouge_l"]
    table["has_problem"] = table["problem"].notna()
    by_dataset = table.groupby(["method", "dataset"], as_index=False).agg(
        answers=("query_id", "size"), problems=("has_problem", "sum"), **{m: (m, "mean") for m in metrics}
    )
    overall = by_dataset.groupby("method", as_index=False).agg(
        answers=("answers", "sum"), problems=("problems", "sum"), **{m: (m, "mean") for m in metrics}
    )
    overall.insert(1, "dataset", "ALL")
    order = list(dict.fromkeys(table["method"]))
    out = pd.concat([by_dataset, overall], ignore_index=True)
    out["method"] = pd.Categorical(out["method"], categories=order, ordered=True)
    return out.sort_values(["method", "dataset"], key=lambda c: c if c.name == "method" else c.eq("ALL")).reset_index(
        drop=True
    )
