"""Old spellings of settings, still read, each with a one-line deprecation notice: the only module
that knows them.

- ``signals.<field>`` (sweep files) and ``--signals key=value,…`` (command line): the document-aware
  settings are the options of the stage ``doc`` since 2026-11: ``"doc.<field>"`` in sweep files,
  ``--option doc.<field>=<value>`` on the command line, ``option_doc_<field>`` in result tables
  (``signals_<field>`` before).
"""

from __future__ import annotations

from .config import DOC, OptionValue, parse_option

LEGACY_PREFIX = "signals."
LEGACY_COLUMN = "signals_"


def modern_key(key: str) -> tuple[str, str | None]:
    """A sweep file's setting key as it is spelled now, and a notice when it was an old spelling."""
    if key.startswith(LEGACY_PREFIX):
        new = DOC + "." + key[len(LEGACY_PREFIX) :]
        return new, f"{key!r} is deprecated: write {new!r} (the document-aware stage's option)"
    return key, None


def signals_option(text: str) -> tuple[list[tuple[str, OptionValue]], str]:
    """``--signals key=value,…`` as ``doc.<key>`` options, and the notice to print."""
    items = [part.strip() for part in text.split(",") if part.strip()]
    options = [parse_option(f"{DOC}.{item}") for item in items]
    spelled = " ".join(f"--option {DOC}.{item}" for item in items)
    return options, f"--signals is deprecated: write {spelled or '--option doc.<field>=<value>'}"


def modern_column(column: str) -> str:
    """A result-table column as it is named now (``signals_<field>`` → ``option_doc_<field>``)."""
    if column.startswith(LEGACY_COLUMN):
        return f"option_{DOC}_" + column[len(LEGACY_COLUMN) :]
    return column
