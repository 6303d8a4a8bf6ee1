"""Reworded copies of a benchmark folder: LegalBench-RAG's fixed questions as lawyers word them.

LegalBench-RAG asks 71 fixed question templates, one per annotated category: CUAD 35 (its 41
categories less Document Name, Parties, Agreement Date, Effective Date, Source Code Escrow and
Liquidated Damages), MAUD 19, ContractNLI 17 (its hypotheses). A query is "<opening naming the
document>; <template>". A method that only works when the question matches a template word for
word is caught by asking the same questions in other words.

``rewordings.json`` (package data beside this module) holds two rewordings of every template,
keyed by dataset and by the template exactly as the benchmark files spell it (typos included).
They were written by hand, one template at a time, by Claude (an AI assistant working as the
project's engineer with a legal background), as a practising lawyer would type them into a search
box, and are not yet reviewed by a practising lawyer. The rules: the same legal question with the
same scope (what a gold passage answers, the rewording asks); the words a lawyer would use instead
of the template's key terms ("choice of law", "MAC", "break fee", "poaching"); varied sentence
shapes, never a mechanical synonym swap; an ambiguous template follows its dataset's category
definition. **Variant 1** is for tuning; **variant 2** was written independently of variant 1 (not
a paraphrase of it) and is held out: report on it, never tune on it. PrivacyQA is left as is: its
194 queries are app users' own questions, not templates. The file's top-level fields say the same.

:func:`write_reworded` writes a copy of a benchmark folder (:func:`.transformed.write_transformed`:
same tests in the same order, same ids and gold spans, corpus and summaries linked) in which every
query whose question part is a known template has that part replaced by the chosen rewording; the
opening, its separator and spacing are kept. Any other query (PrivacyQA, a folder of one's own, the
demo) is kept unchanged and counted. Each file carries ``"transform": "reword-<variant>"``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path

from ..engine.retrieval import split_query
from .transformed import write_transformed

REWORDINGS_FILE = "rewordings.json"
VARIANTS = (1, 2)
TUNING_VARIANT, HELD_OUT_VARIANT = 1, 2


def rewordings() -> dict[str, dict[str, tuple[str, str]]]:
    """``dataset → template → (variant 1, variant 2)``, read from the package data."""
    raw = json.loads(resources.files(__package__).joinpath(REWORDINGS_FILE).read_text(encoding="utf-8"))
    return {
        dataset: {template: (by["1"], by["2"]) for template, by in templates.items()}
        for dataset, templates in raw["templates"].items()
    }


PARAPHRASES_FILE = "paraphrases.json"  # three more wordings per template, written apart from the rewordings


def paraphrases() -> dict[str, tuple[str, ...]]:
    """``template → wordings``: three paraphrases of each template, written by another hand than
    the rewordings and without seeing them (package data, its ``how`` says how). They are bank data:
    more wordings of a question family for the exemplar stage to recognise a reworded question;
    rewording 1 (tuning) and 2 (held out) never enter a bank."""
    raw = json.loads(resources.files(__package__).joinpath(PARAPHRASES_FILE).read_text(encoding="utf-8"))
    return {template: tuple(words) for templates in raw["templates"].values() for template, words in templates.items()}


def variant_table(variant: int) -> dict[str, str]:
    """``template → rewording`` of one variant, over every dataset (no template is in two).
    Raises ValueError for a variant other than 1 or 2."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant}: choose one of {', '.join(map(str, VARIANTS))}")
    return {t: pair[variant - 1] for templates in rewordings().values() for t, pair in templates.items()}


def reword(query: str, table: Mapping[str, str]) -> str:
    """``query`` with its question part (:func:`~sac_core.engine.retrieval.split_query`; the whole
    query when it has no opening) replaced by ``table[question]``, everything before and after it
    kept character for character; ``query`` itself when the question is not in ``table``."""
    question = split_query(query).question.strip()
    new = table.get(question)
    if new is None:
        return query
    body = query.rstrip()  # the question ends it: split_query's question is the stripped tail
    return body[: len(body) - len(question)] + new + query[len(body) :]


def write_reworded(data_dir: Path, out_dir: Path, variant: int) -> dict[str, tuple[int, int]]:
    """Write the reworded copy; returns ``dataset → (queries, queries reworded)`` (the rest are
    kept). Raises ValueError for an unknown variant and :class:`BenchmarkError` when ``out_dir``
    lies inside the project or is not empty, or naming a benchmark file that cannot be read."""
    table = variant_table(variant)
    rewrite: Callable[[str], str] = lambda query: reword(query, table)
    return write_transformed(data_dir, out_dir, rewrite, transform=f"reword-{variant}", what="reworded benchmark")
