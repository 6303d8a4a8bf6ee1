"""The one error type of :mod:`sac_core.engine.summaries`, and the one check of a JSON object both
of its file formats share (summary JSONL lines, prompt files)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


class SummaryError(ValueError):
    """Summaries cannot be made or read; the message names the file, line, field or document."""


def json_object(raw: str, where: str, fields: Sequence[str], *, line: int | None = None) -> dict[str, Any]:
    """``raw`` parsed as one JSON object that has every one of ``fields``; else a
    :class:`SummaryError` naming ``where`` (a file) and what is wrong. ``line``: ``raw`` is this
    line of a JSONL file (named in the message; the JSON position is then its column)."""
    place = where if line is None else f"{where}, line {line}"
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        at = f"line {e.lineno}, column {e.colno}" if line is None else f"column {e.colno}"
        raise SummaryError(f"{place}: invalid JSON at {at}: {e.msg}") from None
    if not isinstance(data, dict):
        raise SummaryError(f"{place}: expected a JSON object with fields {', '.join(fields)}")
    missing = [f for f in fields if f not in data]
    if missing:
        raise SummaryError(f"{place}: missing field(s) {', '.join(missing)}")
    return data
