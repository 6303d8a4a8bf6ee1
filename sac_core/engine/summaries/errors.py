"""The one error type of :mod:`sac_core.engine.summaries`."""

from __future__ import annotations


class SummaryError(ValueError):
    """Summaries cannot be made or read; the message names the file, line, field or document."""
