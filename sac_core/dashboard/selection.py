"""The Compare page's selection (dataset, query, free text, k) to and from shareable URL parameters.

Never anything else in the URL: no data path, no API key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

K_MIN, K_MAX, K_DEFAULT = 1, 64, 4
MAX_TEXT = 500  # characters of free text kept in a URL
PARAM_DATASET, PARAM_QUERY, PARAM_TEXT, PARAM_K = "dataset", "q", "text", "k"


@dataclass(frozen=True)
class Selection:
    """What the Compare page shows: a benchmark query (``query_id``) or free ``text``, and ``k``."""

    dataset: str | None = None
    query_id: str | None = None
    text: str = ""
    k: int = K_DEFAULT


def _first(value: str | Sequence[str] | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return value[0] if len(value) else None


def parse_selection(params: Mapping[str, str | Sequence[str]]) -> Selection:
    """A Selection from URL query parameters; anything malformed falls back to the default."""
    raw_k = _first(params.get(PARAM_K))
    try:
        k = min(K_MAX, max(K_MIN, int(raw_k))) if raw_k is not None else K_DEFAULT
    except ValueError:
        k = K_DEFAULT
    dataset = (_first(params.get(PARAM_DATASET)) or "").strip() or None
    query_id = (_first(params.get(PARAM_QUERY)) or "").strip() or None
    text = (_first(params.get(PARAM_TEXT)) or "")[:MAX_TEXT]
    return Selection(dataset, query_id, text, k)


def selection_params(selection: Selection) -> dict[str, str]:
    """URL query parameters for a Selection (empty values left out)."""
    out = {
        PARAM_DATASET: selection.dataset or "",
        PARAM_QUERY: selection.query_id or "",
        PARAM_TEXT: selection.text[:MAX_TEXT],
        PARAM_K: str(selection.k),
    }
    return {key: value for key, value in out.items() if value}


def reconcile(selection: Selection, queries: Mapping[str, Sequence[str]]) -> Selection:
    """Make a (URL) selection valid for the loaded benchmark: ``queries`` maps dataset → query ids.

    A known query id wins (its dataset follows from it); else a known dataset keeps its first
    query; else the first dataset and query.
    """
    if not queries:
        return replace(selection, dataset=None, query_id=None)
    owner = {qid: ds for ds, ids in queries.items() for qid in ids}
    if selection.query_id is not None and selection.query_id in owner:
        return replace(selection, dataset=owner[selection.query_id])
    dataset = (
        selection.dataset if selection.dataset is not None and selection.dataset in queries else next(iter(queries))
    )
    ids = queries[dataset]
    return replace(selection, dataset=dataset, query_id=ids[0] if ids else None)
