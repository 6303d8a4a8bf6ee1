"""Review sessions for legal experts: blind labelling of the methods' top-k, stored in SQLite or a
shared PostgreSQL database, with agreement and export (:mod:`.db`, :mod:`.sessions`,
:mod:`.results`, :mod:`.transfer`)."""

from .db import DB_ENV, LABEL_NAMES, LABELS, TIE, ReviewDB, ReviewError, default_url, safe_url
from .results import agreement, by_method, label_table, preference_table, win_rates
from .sessions import (
    LETTERS,
    ItemView,
    Progress,
    SessionError,
    blind_order,
    create_session,
    document_text,
    flipped_sample,
    item_view,
    method_of,
    progress,
    sample_queries,
    session_by_name,
    set_label,
    set_preference,
)
from .transfer import export, export_bytes, import_jsonl

__all__ = [
    "DB_ENV",
    "LABELS",
    "LABEL_NAMES",
    "LETTERS",
    "TIE",
    "ItemView",
    "Progress",
    "ReviewDB",
    "ReviewError",
    "SessionError",
    "agreement",
    "blind_order",
    "by_method",
    "create_session",
    "default_url",
    "document_text",
    "export",
    "export_bytes",
    "flipped_sample",
    "import_jsonl",
    "item_view",
    "label_table",
    "method_of",
    "preference_table",
    "progress",
    "safe_url",
    "sample_queries",
    "session_by_name",
    "set_label",
    "set_preference",
    "win_rates",
]
