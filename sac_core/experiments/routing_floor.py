"""Queries no router can place without file names: the floor of document-level mismatch (DRM).

A LegalBench-RAG query opens with a reference to its document ("Consider BT's Non-Disclosure
Agreement; …"). A router that reads documents (their summaries, chunks or full text) can only find
the document by the reference's *distinctive words*: those left after the words any contract of its
kind uses ("the", "agreement", "non-disclosure", "inc", …). When none of them occurs in the gold
document's text, the reference points at the document through its file name only (e.g. ``BT`` in
``contractnli/BT-NDA.txt``): no name-free router can do better than a guess among look-alikes, so
the share of such queries is a floor under DRM@k for small k. A query without an opening reference
(PrivacyQA, a no-name copy) names nothing and is not counted here.

A query is unplaceable too when its gold document has a **twin**: another document of the pool with
the same text, character for character (ContractNLI holds the same Department of Homeland Security
form twice). Whatever its reference says, no reader of texts can tell the two apart, and the oracle's
floor (which knows the gold file) does not count it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.data import Benchmark
from ..engine.retrieval import split_query

if TYPE_CHECKING:
    import pandas as pd

# Words of a reference that name no particular document (lower case).
GENERIC = frozenset(
    "consider the a an of and or between by for to in on with s non disclosure nondisclosure agreement "
    "agreements nda mutual confidentiality confidential merger plan privacy policy terms service services "
    "inc llc ltd corp corporation company co plc limited l p lp group holdings contract".split()
)
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Unplaceable:
    """A query whose reference's distinctive ``words`` occur nowhere in its gold document's text, or
    whose gold document has a ``twin`` (another document with the same text; "" when it has none);
    ``in_file_name``: some of the words occur in the gold document's file path."""

    query_id: str
    reference: str
    words: tuple[str, ...]
    in_file_name: bool
    twin: str = ""


def distinctive_words(reference: str) -> tuple[str, ...]:
    """The words of a document reference that could pick out one document (lower case, in order)."""
    return tuple(dict.fromkeys(w for w in _WORD.findall(reference.lower()) if w not in GENERIC))


def twins(bench: Benchmark) -> dict[str, tuple[str, ...]]:
    """Each document of ``bench`` whose text other documents have too → their paths (sorted)."""
    by_text: dict[str, list[str]] = {}
    for path in sorted(bench.documents):
        by_text.setdefault(bench.documents[path].text, []).append(path)
    return {p: tuple(o for o in same if o != p) for same in by_text.values() if len(same) > 1 for p in same}


def unplaceable(bench: Benchmark) -> list[Unplaceable]:
    """The queries of ``bench`` whose opening reference no gold document's text contains a word of,
    or whose every gold document has a twin outside the gold (:func:`twins`)."""
    found = []
    twin_of = twins(bench)
    words_of: dict[str, frozenset[str]] = {}
    for query in bench.queries:
        parts = split_query(query.text)
        if parts.document == query.text:  # no opening reference
            continue
        words = distinctive_words(parts.document)
        gold = {g.file_path for g in query.gold}
        for path in gold - words_of.keys():  # each gold document's words, read once however many queries cite it
            words_of[path] = frozenset(_WORD.findall(bench.documents[path].text.lower()))
        texts = [words_of[path] for path in gold]
        outside = [[o for o in twin_of.get(path, ()) if o not in gold] for path in sorted(gold)]
        twin = outside[0][0] if all(outside) else ""  # every gold document has a twin a reader could take
        if not twin and (not words or any(w in text for w in words for text in texts)):
            continue
        names = set(_WORD.findall(" ".join(gold).lower()))
        found.append(Unplaceable(query.query_id, parts.document, words, any(w in names for w in words), twin))
    return found


def share_by_dataset(bench: Benchmark, found: Iterable[Unplaceable]) -> dict[str, tuple[int, int]]:
    """``dataset → (unplaceable queries, queries)``, and ``ALL``."""
    hit = {u.query_id for u in found}
    out: dict[str, tuple[int, int]] = {}
    for query in bench.queries:
        for key in (query.dataset, "ALL"):
            n, total = out.get(key, (0, 0))
            out[key] = (n + (query.query_id in hit), total + 1)
    return {key: out[key] for key in sorted(out, key=lambda k: (k == "ALL", k))}


# Settings that tell apart the cells of one variant in a sweep's per-query table, as a line names them.
SETTING_WORDS = {"chunk_size": "chunk", "summary_chars": "summary", "semantic_weight": "weight", "model": "model"}
NEEDED = ("variant", "query_id", "k", "drm")


def misplaced(per_query: pd.DataFrame, found: Iterable[Unplaceable], k: int = 1) -> pd.DataFrame:
    """Per cell of a sweep's per-query table (per variant when it has no ``cell`` column): the queries
    whose top ``k`` chunks all come from other documents (DRM@k = 1), how many of them are
    :func:`unplaceable` ones, and its queries; ``label``, the variant, with the settings that tell
    its cells apart when a sweep ran it at several (``baseline (chunk 300)``)."""
    import pandas as pd

    hit = {u.query_id for u in found}
    rows = per_query[per_query["k"] == k]
    key = "cell" if "cell" in rows.columns else "variant"
    out = []
    for _, own in rows.groupby(key, sort=False):
        queries = own.drop_duplicates("query_id")
        wrong = queries.loc[queries["drm"] >= 1.0, "query_id"]
        out.append({"variant": str(own["variant"].iloc[0]), "misplaced": len(wrong),
                    "unplaceable": sum(q in hit for q in wrong), "queries": len(queries),
                    **{c: own[c].iloc[0] for c in SETTING_WORDS if c in own.columns}})  # fmt: skip
    table = pd.DataFrame(out, columns=["variant", "misplaced", "unplaceable", "queries", *SETTING_WORDS])
    table.insert(0, "label", _labels(table))
    return table.drop(columns=[c for c in SETTING_WORDS if table[c].isna().all()])


def _labels(table: pd.DataFrame) -> list[str]:
    """Each row's variant, with the settings that differ among that variant's rows."""
    labels = []
    for _, row in table.iterrows():
        same = table[table["variant"] == row["variant"]]
        varying = [c for c in SETTING_WORDS if same[c].astype(str).nunique() > 1]
        parts = [f"{SETTING_WORDS[c]} {_value(row[c])}" for c in varying]
        labels.append(f"{row['variant']} ({', '.join(parts)})" if parts else str(row["variant"]))
    return labels


def _value(value: object) -> str:
    if isinstance(value, float):
        return "none" if value != value else f"{value:g}"  # NaN: the baseline has no summary
    return str(value)


def checked_per_query(table: pd.DataFrame, name: str, k: int = 1) -> pd.DataFrame:
    """``table`` when :func:`misplaced` can read it: the columns of :data:`NEEDED`, numbers in ``k``
    and ``drm``, rows at ``k``; else a ValueError naming ``name`` (the file) and what is wrong."""
    import pandas as pd

    if missing := [c for c in NEEDED if c not in table.columns]:
        raise ValueError(f"{name}: no column {', '.join(missing)} (not a per-query table of a sweep)")
    for column in ("k", "drm"):
        values = pd.to_numeric(table[column], errors="coerce")
        if (values.isna() & table[column].notna()).any():
            bad = table.loc[values.isna() & table[column].notna(), column].iloc[0]
            raise ValueError(f"{name}: column {column} holds {bad!r}, not a number")
        table = table.assign(**{column: values})
    if not (table["k"] == k).any():
        raise ValueError(f"{name}: no rows at k = {k} (it has k = {', '.join(map(str, sorted(table['k'].unique())))})")
    return table
