"""A document's legal entities: rules for parties, titles, dates, law; eyecite for citations."""

from __future__ import annotations

import pytest

from sac_core.engine.entities import citations, extract_entities, governing_law

NDA = (
    'MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Mutual Non-Disclosure Agreement (the "Agreement") is entered into as '
    'of March 12, 2021 by and between Acme Robotics Inc. ("Acme") and Borealis Capital LLC ("Borealis").\n\n'
    '1. "Confidential Information" means all non-public information.\n\n'
    "7. This Agreement shall be governed by and construed in accordance with the laws of the State of New York.\n"
    "8. Nothing herein limits rights under 26 U.S.C. § 501, Section 13(d) of the Securities Exchange Act of 1934 or "
    "Brown v. Board of Education, 347 U.S. 483 (1954).\n"
)


@pytest.mark.parametrize(
    ("text", "law"),
    [
        ("This Agreement is governed by the laws of Delaware.", "Delaware"),
        ("shall be governed by and construed in accordance with the laws of the State of New York", "New York"),
        ("construed in accordance with the internal laws of the Commonwealth of Massachusetts", "Massachusetts"),
        ("subject to the laws of England and Wales.", "England"),
        ("The parties love the law.", ""),
    ],
)
def test_governing_law(text, law):
    assert governing_law(text) == law


def test_citations_are_found_by_eyecite():
    assert citations(NDA) == ("26 U.S.C. § 501", "Securities Exchange Act of 1934 § 13(d)", "347 U.S. 483")
    assert citations("No citations here.") == ()


def test_extract_entities_of_an_nda():
    e = extract_entities(NDA)
    assert e.kind == "nda" and e.title == "Mutual Non-Disclosure Agreement"
    assert e.parties == ("Acme Robotics Inc.", "Borealis Capital LLC")
    assert e.date == "March 12, 2021" and e.governing_law == "New York"
    assert e.defined_terms == ("Acme", "Borealis")  # generic terms every contract defines are left out
    kinds = {kind for kind, _ in e.rows()}
    assert {"title", "type", "party", "date", "governing law", "citation"} <= kinds
