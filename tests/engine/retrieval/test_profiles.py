"""The document profile term: a reference matched against what each document says about itself,
scores computed by hand (weights ln(1 + n / (1 + df)) over n = 3 profiles)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sac_core.engine.retrieval.documents import DocumentScorer
from sac_core.engine.retrieval.profiles import (
    HEAD_CHARS,
    TAIL_CHARS,
    ProfileMatcher,
    initials,
    profile_words,
    reference_words,
    self_description,
)

# A: a form NDA of Red River Oil (blanks to fill in); B: Red River Oil's supply agreement with Blue
# Lake; C: a privacy policy. Red River Oil is in A and B: the type decides between them.
FORM_NDA = (
    'NON-DISCLOSURE AGREEMENT\nThis Agreement is made between Red River Oil Inc. ("RROI") and ______ and [entity].'
)
SUPPLY = "MASTER SUPPLY AGREEMENT\nbetween Red River Oil Inc. and Blue Lake Ltd, dated March 3, 2019."
POLICY = "PRIVACY POLICY\nAcme Apps collects data."
LN2, LN25, LN4, LN5 = math.log(2), math.log(2.5), math.log(4), math.log(5)


@pytest.fixture(scope="module")
def matcher() -> ProfileMatcher:
    return ProfileMatcher([FORM_NDA, SUPPLY, POLICY])


def test_initials_read_abbreviations_with_and_without_small_words() -> None:
    assert {"ualr", "uoaalr", "ua", "lr"} <= initials("University of Arkansas at Little Rock")
    assert {"dit", "doit", "it"} <= initials("Department of Innovation & Technology")
    assert {"rroi", "rro", "redriver", "riveroil"} <= initials("Red River Oil Inc")
    assert "petrolube" in initials("Petro-Lube Testing")
    assert initials("Acme") == set()  # one word: no abbreviation of its own


def test_a_profile_holds_the_title_type_names_initials_and_the_form_mark() -> None:
    words = profile_words(FORM_NDA)
    assert {"nda", "rroi", "red", "river", "oil", "form"} <= words
    assert "form" not in profile_words(SUPPLY) and "msa" in profile_words(SUPPLY)  # initials of its title
    assert "nda" not in profile_words(SUPPLY)


def test_the_self_description_is_the_head_the_preamble_the_tail_and_the_summary() -> None:
    text = "TITLE\n" + "x " * 2000 + "by and between Alpha Ltd and Beta Ltd" + " y" * 4000 + " SIGNED Gamma"
    described = self_description(text, "a summary")
    assert described.startswith(text[:HEAD_CHARS])
    assert "between Alpha Ltd and Beta Ltd" in described  # the preamble after the head
    assert described.endswith(text[-TAIL_CHARS:] + "\na summary")
    assert "Gamma" in described


def test_reference_words_drop_filler_and_suffixes_and_split_camel_case() -> None:
    assert reference_words("Consider RROI's NDA") == ["rroi", "nda"]
    assert reference_words("Consider the Red River Oil Inc. NDA") == reference_words("Consider the Red River Oil NDA")
    assert reference_words("Consider SupplementOne's Non-Disclosure Agreement") == [
        "supplementone", "supplement", "one", "nda",
    ]  # fmt: skip
    assert reference_words("the Confidentiality Agreement") == reference_words("the NDA") == ["nda"]
    assert reference_words("the standard NDA") == ["nda", "form"]  # a form is named form, template, standard …


def test_scores_are_the_weighted_share_of_the_reference_words_a_profile_holds(matcher: ProfileMatcher) -> None:
    # rroi: A (its defined name) and B (initials of Red River Oil Inc): df 2, ln 2; nda: A only, ln 2.5
    assert matcher.scores("Consider RROI's NDA").tolist() == pytest.approx([1.0, LN2 / LN5, 0.0])
    # msa (B's title initials), blue, lake: B only (ln 2.5 each); red, river, oil: A and B (ln 2 each)
    assert matcher.scores("Consider the MSA between Red River Oil and Blue Lake").tolist() == pytest.approx(
        [3 * LN2 / (3 * LN2 + 3 * LN25), 1.0, 0.0]
    )
    # a word no profile holds weighs ln(1 + 3/1) and matches nothing: the share falls, the order stays
    assert matcher.scores("Consider the Amgen NDA").tolist() == pytest.approx([LN25 / (LN4 + LN25), 0.0, 0.0])
    assert matcher.scores("Consider the standard NDA").tolist() == pytest.approx([1.0, 0.0, 0.0])  # the form
    assert matcher.scores("Consider the agreement").tolist() == [0.0, 0.0, 0.0]  # nothing distinctive


def test_the_document_score_adds_the_profile_term_times_its_weight() -> None:
    texts = [FORM_NDA, SUPPLY, POLICY]
    vectors = np.zeros((3, 2), dtype=np.float32)
    scorer = DocumentScorer(("a", "b", "c"), vectors, texts, profile_weight=2.0)
    assert scorer.scores("Consider RROI's NDA", np.ones(2, np.float32)).tolist() == pytest.approx(
        [2.0, 2 * LN2 / LN5, 0.0]
    )
    assert DocumentScorer(("a", "b", "c"), vectors, texts).profiles is None  # off by default
    with pytest.raises(ValueError, match="needs the documents' texts"):
        DocumentScorer(("a",), vectors[:1], profile_weight=1.0)


def test_summaries_count_as_what_a_document_says_about_itself() -> None:
    with_summary = ProfileMatcher([POLICY, POLICY], ["by Brightleaf", ""])
    # brightleaf: the first profile only (ln 2); privacy, policy: both (ln(1 + 2/3) each)
    both = 2 * math.log(5 / 3)
    assert with_summary.scores("Consider Brightleaf's privacy policy").tolist() == pytest.approx(
        [1.0, both / (LN2 + both)]
    )
