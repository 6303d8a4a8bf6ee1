"""The one CSV writer: a text cell a spreadsheet would run as a formula is written as text (OWASP),
numbers stay numbers, and everything else is pandas' CSV byte for byte."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

import pandas as pd
import pytest

from sac_core.engine.data import csv_bytes, write_csv
from sac_core.engine.data.csvfile import neutral

ROOT = Path(__file__).resolve().parents[3]


def _cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"))))


@pytest.mark.parametrize(
    "cell", ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\r=1", "-inf", "-"]
)
def test_a_formula_cell_gets_a_single_quote(cell):
    table = pd.DataFrame({"reviewer": [cell], "note": ["fine"]})
    assert _cells(csv_bytes(table))[1] == ["'" + cell.replace("\r", "\n"), "fine"]  # a CR: a line feed, quoted


def test_numbers_stay_numbers_and_plain_text_stays_as_it_is():
    table = pd.DataFrame(
        {
            "drm": [-0.5, 0.25],
            "k": [-1, 8],
            "hit": [True, False],
            "start": pd.array([None, -3], dtype="Int64"),
            "text": ["-0.5", "a = b"],
            "mixed": [-2.5, "=x"],
        }
    )
    rows = _cells(csv_bytes(table))
    assert rows[1] == ["-0.5", "-1", "True", "", "-0.5", "-2.5"]  # a negative metric is still a number
    assert rows[2] == ["0.25", "8", "False", "-3", "a = b", "'=x"]
    assert pd.read_csv(io.BytesIO(csv_bytes(table)))["drm"].tolist() == [-0.5, 0.25]


def test_column_names_follow_the_rule_and_the_table_is_not_changed():
    table = pd.DataFrame({"=cmd": ["@x"]})
    assert _cells(csv_bytes(table)) == [["'=cmd"], ["'@x"]]
    assert table.columns.tolist() == ["=cmd"] and table.iloc[0, 0] == "@x"  # a copy was neutralised


def test_neutral_leaves_decimal_numbers_alone():
    assert [neutral(v) for v in ("-0.5", "+3", "1e-5", "-.5e+3", "-1-1", "=1")] == [
        "-0.5", "+3", "1e-5", "-.5e+3", "'-1-1", "'=1"]  # fmt: skip


def test_a_gz_path_is_gzip_without_a_time_stamp_and_a_plain_one_is_pandas_csv(tmp_path):
    table = pd.DataFrame({"variant": ["baseline", "sac"], "drm": [0.1, -0.2]})
    write_csv(table, tmp_path / "a.csv.gz")
    raw = (tmp_path / "a.csv.gz").read_bytes()
    assert raw[4:8] == b"\0\0\0\0"  # gzip MTIME 0: the same table gives the same bytes
    assert gzip.decompress(raw) == table.to_csv(index=False).encode()
    write_csv(table, tmp_path / "a.csv")
    assert (tmp_path / "a.csv").read_bytes() == table.to_csv(index=False).encode()


def test_the_committed_results_are_written_back_byte_for_byte(tmp_path):
    source = ROOT / "results" / "demo-grid" / "significance.csv"
    table = pd.read_csv(source, keep_default_na=False, dtype=str)
    write_csv(table, tmp_path / "significance.csv")
    assert (tmp_path / "significance.csv").read_bytes() == source.read_bytes()


def test_a_carriage_return_inside_a_note_keeps_its_row_whole():
    table = pd.DataFrame({"note": ["first\rsecond", "a\r\nb"], "k": [1, 2]})
    assert _cells(csv_bytes(table)) == [["note", "k"], ["first\nsecond", "1"], ["a\nb", "2"]]
