"""A review session's results for people (issue 36): words, percent with one decimal, ± intervals,
``—`` for what cannot be computed; the reviewer's name cleaned; the card the keys label."""

from __future__ import annotations

import math

import pandas as pd

from sac_core.dashboard import review as rv


def test_by_method_in_words_and_percent():
    table = pd.DataFrame({"method": ["Baseline", "SAC"], "labels": [7, 0], "judged_relevant": [4 / 7, math.nan],
                          "gold_precision": [0.5, math.nan], "relevant_not_gold": [1, 0]})  # fmt: skip
    shown = rv.by_method_shown(table)
    assert list(shown.columns) == ["method", "labelled chunks", "judged relevant", "gold precision",
                                   "relevant but not gold"]  # fmt: skip
    assert shown.iloc[0].tolist() == ["Baseline", 7, "57.1%", "50.0%", 1]
    assert shown.iloc[1].tolist() == ["SAC", 0, "—", "—", 0]  # never "None" nor "nan"


def test_win_rates_with_the_wilson_interval_as_a_range():
    table = pd.DataFrame({"choice": ["Baseline", rv.TIE], "wins": [3, 1], "of": [4, 4], "share": [0.75, 0.25],
                          "ci_low": [0.30, 0.05], "ci_high": [0.95, 0.70]})  # fmt: skip
    shown = rv.win_rates_shown(table)
    assert list(shown.columns) == ["preferred", "on", "share (95 % confidence)"]
    assert shown.iloc[0].tolist() == ["Baseline", "3 of 4 queries", "75 % (30–95 %)"]
    assert shown.iloc[1, 0] == "a tie"


def test_answers_by_method_in_words():
    table = pd.DataFrame({"method": ["M"], "labels": [3], "correct": [1], "wrong_document": [1], "unsupported": [0],
                          "cant_tell": [1], "correct_share": [0.5], "wrong_document_share": [0.5],
                          "unsupported_share": [0.0], "agreement": [math.nan], "agreement_of": [0],
                          "kappa": [math.nan]})  # fmt: skip
    shown = rv.answers_by_method_shown(table)
    assert not [c for c in shown.columns if "_" in c]
    row = shown.iloc[0]
    assert row["unsupported by the excerpts"] == 0 and row["can't tell"] == 1
    assert row["correct (share)"] == "50.0%" and row["reviewers agree"] == "—" and row["kappa"] == "—"
    assert rv.kappa_text(0.4567) == "0.46" and rv.kappa_text(math.nan) == "undefined (one label throughout)"


def test_reviewer_name_is_one_clean_line():
    assert rv.reviewer_name("  Ada \n Lovelace\x00 ") == "Ada Lovelace"
    assert rv.reviewer_name(None) == "" and rv.reviewer_name(["a"]) == ""
    assert len(rv.reviewer_name("x" * 500)) == rv.MAX_NAME


def _view(labels: dict[int, tuple[str | None, str]]) -> rv.ItemView:
    a = (rv.ChunkView(1, "d/a.txt", 0, 10, 1, None), rv.ChunkView(2, "d/a.txt", 10, 20, 2, None))
    b = (rv.ChunkView(2, "d/a.txt", 10, 20, 1, "A#2"), rv.ChunkView(3, "d/b.txt", 0, 10, 2, None))
    return rv.ItemView(1, 0, 1, "q", "text", (), (("A", a), ("B", b)), labels, None, None)


def test_the_outlined_card_is_the_first_copy_of_the_first_chunk_not_labelled():
    assert rv.outlined_card(_view({})) == ("A", 1)
    assert rv.outlined_card(_view({1: ("relevant", "")})) == ("A", 2)  # not B#1, its later copy
    assert rv.outlined_card(_view({1: ("relevant", ""), 2: ("partly", "")})) == ("B", 2)
    assert rv.outlined_card(_view({i: ("relevant", "") for i in (1, 2, 3)})) is None
