"""The one CSV writer of the project: every table it writes as CSV goes through :func:`csv_bytes` or
:func:`write_csv`, which neutralise cells a spreadsheet would run as a formula.

OWASP's rule (CSV injection): a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return gets a single quote in front (``'=HYPERLINK(…)``), so Excel, LibreOffice and Google Sheets show
it as text. Only *text* cells are touched: a number (``-0.5`` of a metric, stored as a float or an
integer) is written as pandas writes it and stays a number, and so is a text cell that is a plain
decimal number (``-0.5``, ``+3``, ``1e-5``): a spreadsheet reads it as that number, never as a
formula. Column names follow the same rule. A carriage return inside a text cell becomes a line
feed: Python 3.11's CSV writer leaves a field with a carriage return but no line feed unquoted, and
a spreadsheet would end the row there (a field with a line feed is quoted). Anything else (quoting, float format) is
pandas' own ``to_csv`` with ``index=False``; a ``.gz`` path is gzip with the time stamp 0, so the
same table gives the same bytes.

``tests/test_architecture.py`` checks that no other module calls ``to_csv`` or ``csv.writer``.
:func:`read_table` reads a CSV table back with one error line naming the file (not UTF-8, with the
offset of the first bad byte; not gzip; not CSV; empty; missing).
"""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is heavy: imported by the functions that use it
    import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # OWASP: the characters a formula cell may start with
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def neutral(cell: str) -> str:
    """``cell`` as a spreadsheet shows it as text: a single quote before a formula's first character,
    unless the cell is a plain decimal number (which a spreadsheet reads as a number)."""
    if cell.startswith(FORMULA_START) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def _text(cell: str) -> str:
    """A text cell as written: :func:`neutral`, its line ends as line feeds (see the module docstring)."""
    return neutral(cell).replace("\r\n", "\n").replace("\r", "\n")


def neutralised(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with every text cell and column name passed through :func:`neutral`, carriage returns
    as line feeds (a copy; numeric, boolean and date columns, and non-text values in text columns,
    unchanged)."""
    import pandas as pd

    out = table.rename(columns=lambda c: _text(c) if isinstance(c, str) else c)
    for place in range(out.shape[1]):
        column = out.iloc[:, place]
        if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_datetime64_any_dtype(column):
            continue  # numbers stay numbers (bool is numeric too)
        if pd.api.types.is_string_dtype(column) and not pd.api.types.is_object_dtype(column):
            hits = column.str.startswith(FORMULA_START, na=False) | column.str.contains("\r", regex=False, na=False)
        else:  # the vectorised test above takes ~0.1 s for 600,000 cells; this one is for object columns
            hits = column.map(lambda v: isinstance(v, str) and (v.startswith(FORMULA_START) or "\r" in v)).astype(bool)
        if hits.any():
            values = column.astype(object)
            values[hits] = values[hits].map(_text)
            out.isetitem(place, values)
    return out


def csv_bytes(table: pd.DataFrame, *, header: bool = True) -> bytes:
    """``table`` as UTF-8 CSV bytes (no index), formula cells neutralised (a download, an export;
    without ``header``: rows to append to a table that has one)."""
    return neutralised(table).to_csv(index=False, header=header).encode("utf-8")


def write_csv(table: pd.DataFrame, path: str | Path) -> Path:
    """Write ``table`` to ``path`` as CSV (no index; gzip when it ends in ``.gz``), formula cells
    neutralised; returns the path."""
    path = Path(path)
    compression: dict[str, object] | str = {"method": "gzip", "mtime": 0} if path.suffix == ".gz" else "infer"
    neutralised(table).to_csv(path, index=False, compression=compression)
    return path


def read_table(path: str | Path, *, name: str | None = None, **options: object) -> pd.DataFrame:
    """The CSV table at ``path`` (``.gz`` unpacked; ``options`` go to ``pandas.read_csv``). A file that
    is missing, not gzip, not UTF-8 or not CSV is a ValueError in one line naming it as ``name``
    (default: ``path`` as given; the dashboard passes one relative to its results folder)."""
    import pandas as pd

    shown = str(path) if name is None else name
    try:
        return pd.read_csv(path, **options)
    except UnicodeDecodeError:
        raise ValueError(f"{shown}: not UTF-8 ({_first_bad_byte(Path(path))})") from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"{shown}: empty, not a CSV table") from None
    except (pd.errors.ParserError, EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise ValueError(f"{shown}: not a CSV table ({' '.join(str(e).split())})") from None
    except OSError as e:  # its message would hold the full path: only the reason
        raise ValueError(f"{shown}: cannot be read ({e.strerror or type(e).__name__})") from None


def _first_bad_byte(path: Path) -> str:
    """Where ``path`` (unpacked when ``.gz``) stops being UTF-8: pandas decodes in blocks, so the offset
    its error gives counts from the start of a block, not of the file."""
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"{e.reason} at byte {e.start:,}"
    return "a byte that is not UTF-8"
