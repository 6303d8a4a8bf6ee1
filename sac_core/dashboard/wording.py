"""One naming and one number format for every page (issue 36): what a lawyer reads, never an id.

- Methods by the catalogue's titles (``SAC expert``, not ``sac-file-expert-150``): :func:`method_names`
  maps the variant ids of result tables to them; pages keep the id in a tooltip and exports keep
  the id itself.
- Fractions as percentages with one decimal (``53.6%``), changes in points (``+4.2 pts``), a 95 %
  interval as ``± half its width`` (``53.6% ± 2.1``), a missing value as ``—`` (never ``None``).
- Metrics and table columns as words (``precision``, ``DRM``, ``judged relevant``): :func:`words`.
- Questions first: a benchmark query "Consider the NDA between X and Y; <question>" is shown as its
  question, the document it names shortened behind it (:func:`question_first`).

Plain functions on strings and numbers (no Streamlit), so that every page says it the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..engine.retrieval.query import split_query
from ..engine.summaries import PROVIDERS, SummaryError
from ..experiments import RunConfig
from ..experiments.catalogue import catalogue
from ..experiments.settings import OPTION_PREFIX, SUMMARY_PREFIX

DASH = "—"  # a value that does not exist or is not known
METRIC_NAMES: dict[str, str] = {
    "drm": "DRM",
    "precision": "precision",
    "recall": "recall",
    "hit": "Hit",
    "mrr": "MRR",
    "ndcg": "nDCG",
}
# Column ids whose plain reading ("_" as a space) would not say what they mean.
COLUMN_WORDS: dict[str, str] = {
    "query_id": "query",
    "p_value": "p-value",
    "p_holm": "p-value (Holm)",
    "ci_low": "95 % interval from",
    "ci_high": "95 % interval to",
    "cant_tell": "can't tell",
    "agreement_of": "answers labelled twice or more",
    "relevant_not_gold": "relevant but not gold",
    "gold_precision": "gold precision",
    "judged_relevant": "judged relevant",
    "mean_a": "mean of a",
    "mean_b": "mean of b",
    "variant_a": "method a",
    "variant_b": "method b",
}


def missing(value: object) -> bool:
    """None, NaN or pandas' NA: a value to show as :data:`DASH`."""
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, and pandas.NA (whose comparison raises in bool())
    except TypeError:
        return True


def pct(value: float | None, *, digits: int = 1) -> str:
    """A fraction as a percentage with one decimal (``0.5363`` → ``53.6%``), :data:`DASH` when missing."""
    return DASH if missing(value) else f"{float(value) * 100:.{digits}f}%"  # type: ignore[arg-type]


def pts(change: float | None) -> str:
    """A change of a fraction in percentage points (``+4.2 pts``), ``±0.0 pts`` below 0.05 points."""
    if missing(change):
        return DASH
    points = float(change) * 100  # type: ignore[arg-type]
    return "±0.0 pts" if abs(points) < 0.05 else f"{points:+.1f} pts"


def pct_pm(value: float | None, low: float | None = None, high: float | None = None) -> str:
    """A fraction in percent with ``± half`` its 95 % interval ``[low, high]`` (fractions) when known:
    ``53.6% ± 2.1``; just ``53.6%`` without an interval."""
    if missing(value):
        return DASH
    if missing(low) or missing(high):
        return pct(value)
    return f"{pct(value)} ± {(float(high) - float(low)) * 50:.1f}"  # type: ignore[arg-type]


def words(column: str) -> str:
    """A metric or column id as words: ``drm`` → ``DRM``, ``judged_relevant`` → ``judged relevant``,
    ``correct_share`` → ``correct (share)``; anything else with its underscores as spaces."""
    if column in METRIC_NAMES:
        return METRIC_NAMES[column]
    if column in COLUMN_WORDS:
        return COLUMN_WORDS[column]
    if column.endswith("_share"):
        return f"{words(column[: -len('_share')])} (share)"
    return column.replace("_", " ")


# --------------------------------------------------------------------------- methods


Naming = tuple[tuple[str, str], ...]


def _naming(config: RunConfig) -> Naming:
    """What a method's name depends on: the method, the plug-in options set (machine paths aside)
    and the summaries when anything reads them — not the data, the chunking or the scoring."""
    paths = config.path_columns()
    kept = [
        (k, str(v))
        for k, v in config.columns().items()
        if k not in paths and (k == "method" or k.startswith(OPTION_PREFIX) or k.startswith(SUMMARY_PREFIX))
    ]
    return tuple(sorted(kept))


def _presets(lengths: Iterable[int]) -> list[tuple[str, RunConfig]]:
    """(title, configuration) of every catalogue preset, for every summary provider at each summary
    length given (and 150), default presets first."""
    base, out, every = RunConfig(), [], sorted({150, *lengths})
    for provider in PROVIDERS:
        for chars in every:
            try:
                entries = catalogue(base.with_(summary=replace(base.summary, provider=provider, chars=chars)))
            except (ValueError, SummaryError):
                continue
            out += [(preset.title, preset.config) for preset in entries.values()]
    return out


def _name(config: RunConfig, presets: list[tuple[str, RunConfig]]) -> str | None:
    """The title of the preset that runs ``config``, else of the preset with the most settings that
    ``config`` extends (the same method and summaries, its options a part of ``config``'s), "with"
    the labels of the stages it sets otherwise, "plus" those it adds; None when no preset is close."""
    wanted = _naming(config)
    for title, preset in presets:
        if _naming(preset) == wanted:
            return title
    mine = set(wanted)
    close = [
        (title, preset) for title, preset in presets if preset.method == config.method and set(_naming(preset)) <= mine
    ]
    if not close:
        return None
    title, preset = max(close, key=lambda found: len(_naming(found[1])))
    theirs = {stage.name: stage.label(preset) for stage in preset.stages}
    added = [s.label(config).lstrip("+") for s in config.stages if s.name not in theirs]
    changed = [
        s.label(config).lstrip("+") for s in config.stages if theirs.get(s.name, s.label(config)) != s.label(config)
    ]
    parts = [f"with {', '.join(changed)}"] * bool(changed) + [f"plus {', '.join(added)}"] * bool(added)
    return ", ".join([title, *parts])


def method_names(rows: Iterable[Mapping[str, object]]) -> dict[str, str]:
    """Each variant of a result table's rows (``sac-file-expert-150``, ``baseline+split+…``) by the
    name pages show: the catalogue preset's title that runs its configuration (``SAC expert``),
    else the preset it extends, plus what it adds, else the variant itself. The configuration is
    read from the row's settings columns (:meth:`RunConfig.from_columns`), never parsed out of the
    variant. Two variants never share a name: a summary length, then a number, tells them apart
    (``SAC generic, 300-character summaries``)."""
    configs: dict[str, RunConfig | None] = {}
    for row in rows:
        variant = str(row["variant"])
        if variant not in configs:
            try:
                configs[variant] = RunConfig.from_columns(row)
            except (ValueError, TypeError, KeyError, SummaryError):
                configs[variant] = None  # settings of a plug-in not loaded here, say: shown by its id
    known = {v: c for v, c in configs.items() if c is not None}
    presets = _presets(c.summary.chars for c in known.values() if c.summaries_read())
    names = {v: (_name(c, presets) if c is not None else None) or v for v, c in configs.items()}
    for name in set(names.values()):
        same = [v for v in configs if names[v] == name]
        if len(same) < 2:
            continue
        for n, v in enumerate(same, start=1):
            config = configs[v]
            read = config is not None and config.summaries_read()
            names[v] = f"{name}, {config.summary.chars}-character summaries" if read and config else f"{name} ({n})"
        if len(set(names[v] for v in same)) < len(same):
            names.update({v: f"{name} ({n})" for n, v in enumerate(same, start=1)})
    return names


# --------------------------------------------------------------------------- questions

_CONSIDER = re.compile(r"^\s*(?:consider|in|under|regarding|for|according to|within)\s+(?:the\s+)?", re.IGNORECASE)


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut at a word to at most ``width`` characters with ``…``."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    cut = flat[: max(1, width - 1)]
    if " " in cut[width // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


def question_first(text: str, *, document_chars: int = 48) -> str:
    """A benchmark query with its question first: "Consider the Non-Disclosure Agreement between X and
    Y; Does …?" → "Does …? (Non-Disclosure Agreement between X …)"; a query without such an opening
    is returned on one line as it is."""
    parts = split_query(text)
    if not parts.split:
        return " ".join(text.split())
    document = _CONSIDER.sub("", parts.document, count=1)
    return f"{' '.join(parts.question.split())} ({shorten(document, document_chars)})"


def query_option(query_id: str, text: str, *, width: int = 200) -> str:
    """A query in a select box: its id, then its question first (:func:`question_first`), cut to ``width``."""
    return f"{query_id} · {shorten(question_first(text), width)}"
