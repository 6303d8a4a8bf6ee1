"""The one naming and number format of the pages (issue 36): methods by name, percentages with one
decimal, intervals as ±, metrics as words, questions first."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from sac_core.dashboard import wording
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig
from sac_core.experiments.methods import DOCUMENT_AWARE


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


def rows(*configs: RunConfig) -> list[dict[str, object]]:
    """Result rows as sweeps write them: every settings column of each configuration."""
    return [config.columns() for config in configs]


FILE, EXTRACTIVE = SummaryConfig(provider="file"), SummaryConfig(provider="extractive")
BASELINE = RunConfig(summary=FILE)
SAC_GENERIC = RunConfig(method="sac", summary=FILE)
SAC_EXPERT = RunConfig(method="sac", summary=replace(FILE, prompt="expert"))


def test_method_names_come_from_the_catalogue():
    extractive = RunConfig(method="sac", summary=EXTRACTIVE)
    names = wording.method_names(rows(BASELINE, SAC_GENERIC, SAC_EXPERT, extractive))
    assert names == {
        "baseline": "Baseline",
        "sac-file-generic-150": "SAC generic",
        "sac-file-expert-150": "SAC expert",
        "sac-extractive-150": "SAC extractive",
    }
    longer = SAC_EXPERT.with_(summary=replace(SAC_EXPERT.summary, chars=300))
    assert wording.method_names(rows(longer)) == {"sac-file-expert-300": "SAC expert"}


def test_method_names_never_collide_and_name_what_a_variant_adds():
    longer = SAC_GENERIC.with_(summary=replace(FILE, chars=300))
    names = wording.method_names(rows(SAC_GENERIC, longer))
    assert names == {
        "sac-file-generic-150": "SAC generic, 150-character summaries",
        "sac-file-generic-300": "SAC generic, 300-character summaries",
    }
    aware = BASELINE.with_(options=DOCUMENT_AWARE)
    trimmed = aware.with_(options={**DOCUMENT_AWARE, "trim.on": True, "trim.drop": 0.2, "trim.depth": 16})
    routed = aware.with_(options={**DOCUMENT_AWARE, "route.docs": 2, "entities.weight": 0.1})
    plugin = {"variant": "a-plugin-variant", "method": "nope"}
    names = wording.method_names([*rows(aware, trimmed, routed), plugin])
    assert names[aware.variant] == "Document-aware"
    assert names[trimmed.variant] == "Document-aware, trimmed, with trim(drop0.2@16)"  # the preset set otherwise
    assert names[routed.variant] == "Document-aware, plus route2, ent0.1"  # what it adds to the preset
    assert names["a-plugin-variant"] == "a-plugin-variant"  # nothing known: the id, never nothing


def test_method_names_read_the_settings_columns_not_the_variant_id():
    renamed = {**SAC_EXPERT.columns(), "variant": "what-a-table-called-it"}  # the id says nothing: the columns do
    assert wording.method_names([renamed]) == {"what-a-table-called-it": "SAC expert"}


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
