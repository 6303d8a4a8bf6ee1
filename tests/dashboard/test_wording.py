"""The one naming and number format of the pages (issue 36): methods by name, percentages with one
decimal, intervals as ±, metrics as words, questions first."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sac_core.dashboard import wording


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.5363, "53.6%"), (1.0, "100.0%"), (0.0, "0.0%"), (1 / 3, "33.3%"), (None, "—"), (math.nan, "—"), (pd.NA, "—")],
)
def test_pct_has_one_decimal_and_a_dash_for_nothing(value, text):
    assert wording.pct(value) == text


@pytest.mark.parametrize(
    ("change", "text"), [(0.042, "+4.2 pts"), (-0.1, "-10.0 pts"), (0.0004, "±0.0 pts"), (None, "—")]
)
def test_pts(change, text):
    assert wording.pts(change) == text


def test_pct_pm_shows_half_the_interval_once_it_exists():
    assert wording.pct_pm(0.5363, 0.50, 0.54) == "53.6% ± 2.0"
    assert wording.pct_pm(0.5363) == wording.pct_pm(0.5363, math.nan, 0.6) == "53.6%"
    assert wording.pct_pm(None, 0.1, 0.2) == "—"


@pytest.mark.parametrize(
    ("column", "text"),
    [
        ("drm", "DRM"),
        ("precision", "precision"),
        ("judged_relevant", "judged relevant"),
        ("gold_precision", "gold precision"),
        ("relevant_not_gold", "relevant but not gold"),
        ("ci_low", "95 % interval from"),
        ("wrong_document_share", "wrong document (share)"),
        ("cant_tell", "can't tell"),
        ("query_id", "query"),
        ("p_value", "p-value"),
    ],
)
def test_words(column, text):
    assert wording.words(column) == text
    assert "_" not in text


def test_method_names_come_from_the_catalogue():
    names = wording.method_names(["baseline", "sac-file-generic-150", "sac-file-expert-150", "sac-extractive-150"])
    assert names == {
        "baseline": "Baseline",
        "sac-file-generic-150": "SAC generic",
        "sac-file-expert-150": "SAC expert",
        "sac-extractive-150": "SAC extractive",
    }
    assert wording.method_names(["sac-file-expert-300"]) == {"sac-file-expert-300": "SAC expert"}


def test_method_names_never_collide_and_name_what_a_variant_adds():
    names = wording.method_names(["sac-file-generic-150", "sac-file-generic-300"])
    assert names == {
        "sac-file-generic-150": "SAC generic, 150-character summaries",
        "sac-file-generic-300": "SAC generic, 300-character summaries",
    }
    aware = "baseline+split+doc:summary300×8+bm25×0.125+gate:split"
    names = wording.method_names([aware, aware + "+trim(drop0.2@16)", "a-plugin-variant"])
    assert names[aware] == "Document-aware"
    assert names[aware + "+trim(drop0.2@16)"] == "Document-aware, plus trim(drop0.2@16)"
    assert names["a-plugin-variant"] == "a-plugin-variant"  # nothing known: the id, never nothing


def test_question_first_puts_the_question_before_the_document_it_names():
    query = (
        "Consider the Non-Disclosure Agreement between CopAcc and ToP Mentors; "
        "Does the document allow verbally conveyed information to be considered as Confidential Information?"
    )
    shown = wording.question_first(query, document_chars=40)
    assert shown.startswith("Does the document allow verbally conveyed information")
    assert shown.endswith("(Non-Disclosure Agreement between…)")
    assert wording.question_first("Which law governs  the\nagreement?") == "Which law governs the agreement?"
    option = wording.query_option("contractnli/7", query, width=60)
    assert option.startswith("contractnli/7 · Does the document") and option.endswith("…") and len(option) <= 76


def test_shorten_cuts_at_a_word():
    assert wording.shorten("Master Services Agreement between Alpha Inc. and Beta", 30) == "Master Services Agreement…"
    assert wording.shorten("short", 30) == "short"
