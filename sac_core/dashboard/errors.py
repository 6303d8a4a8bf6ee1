"""What a user sees when a page fails unexpectedly, and what the server log holds.

A failure: a short reference on the page, never a traceback.

The page shows :attr:`Incident.message` (a one-line apology with the reference); the full
traceback goes to the server's log under the same reference, so a user can report ``ref 3f9a2c1d``
and an operator finds it with ``grep``. Nothing of the exception (paths, values, keys) reaches the
page.
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass

log = logging.getLogger("sac_core.dashboard")
QUIET_LOGGERS = ("uvicorn.access",)  # a line per static file the browser loads: nothing to act on


def quiet_logs() -> None:
    """Keep the server log to what needs attention (idempotent; called on every run): no access
    lines, no model-loading progress bars (here and in build workers, which inherit the setting)."""
    for name in QUIET_LOGGERS:
        logging.getLogger(name).disabled = True
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


@dataclass(frozen=True)
class Incident:
    """One unexpected failure: its reference (8 hex digits) and what the page says about it."""

    ref: str
    page: str

    @property
    def message(self) -> str:
        return (
            f"Something went wrong on the {self.page} page (reference {self.ref}). The rest of the dashboard "
            "still works; reload the page to try again, and quote the reference when you report it."
        )


def report(error: BaseException, page: str) -> Incident:
    """Log ``error`` with its traceback under a new reference; the :class:`Incident` to show."""
    incident = Incident(secrets.token_hex(4), page)
    log.error("unexpected error on the %s page, reference %s", page, incident.ref, exc_info=error)
    return incident
