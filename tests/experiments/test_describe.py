"""sac describe: queries naming their document as a lawyer would, from the document's own opening
(hand-written openings; the demo benchmark for the copy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.data import BenchmarkError, load_benchmark, project_root
from sac_core.engine.retrieval import split_query
from sac_core.experiments.describe import (
    Opening,
    clean_name,
    describe,
    described_query,
    name_initials,
    read_opening,
    write_described,
)

NDA = (
    "MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Mutual Non-Disclosure Agreement is entered into as of March 12, 2021 "
    'by and between Acme Robotics Inc. ("Acme") and Borealis Capital LLC ("Borealis").'
)
MERGER = (
    "AGREEMENT AND PLAN OF MERGER\nby and among\nAMGEN INC.,\nFRANKLIN ACQUISITION SUB, INC.,\nand\n"
    "FIVE PRIME THERAPEUTICS, INC.\nDated as of March 4, 2021"
)
FORM = 'NON-DISCLOSURE AGREEMENT\nThis Agreement is made between ______ ("Recipient") and [entity].'
LETTERHEAD = 'University of Arkansas at Little Rock\nSTANDARD NON-DISCLOSURE AGREEMENT\nbetween ________ ("Recipient")'
DEMO = ("demo_nda", "demo_privacy")


def test_names_lose_their_legal_suffix_and_shouting() -> None:
    assert clean_name("Red River Oil Inc.") == "Red River Oil"
    assert clean_name("THE ALLSTATE CORPORATION") == "Allstate"
    assert clean_name("Lightning Source UK Ltd.") == "Lightning Source UK"
    assert clean_name("Teqball Holding S.à r.l.") == "Teqball Holding"
    assert name_initials("Red River Oil") == "RRO" and name_initials("University of Arkansas") == "UA"


def test_an_nda_by_its_parties_short_names_and_year() -> None:
    opening = read_opening(NDA)
    assert opening.kinds == ("mutual NDA", "mutual non-disclosure agreement", "mutual confidentiality agreement")
    assert opening.parties == (("Acme", "Acme Robotics"), ("Borealis", "Borealis Capital"))
    assert opening.year == "2021"


def test_a_merger_by_buyer_and_target_never_the_merger_sub() -> None:
    opening = read_opening(MERGER)
    assert opening.kinds == ("merger agreement", "acquisition agreement")
    assert opening.parties == (("Amgen",), ("Five Prime Therapeutics", "FPT"))


def test_a_party_is_never_a_state_of_incorporation_or_a_role() -> None:
    text = 'SERVICES AGREEMENT\nmade by and between Alpha Widgets, Inc., a Delaware corporation ("Alpha"), and Beta Labs LLC.'
    assert read_opening(text).parties == (("Alpha", "Alpha Widgets"), ("Beta Labs",))
    assert read_opening(FORM).parties == ()  # blanks and a role ("Recipient") name no one


def test_a_company_that_writes_its_name_in_lower_case_is_still_a_party() -> None:
    text = "Mutual Non-Disclosure Agreement\nmade as of between thoughtbot, inc. having its place of business at Boston and , having"
    assert read_opening(text).parties == (("thoughtbot",),)
    assert read_opening("LICENSE AGREEMENT\nbetween salesforce.com, inc. and Beta Labs LLC.").parties[0] == (
        "salesforce.com",
    )
    # a lower-case word before a suffix without the comma is no name ("a delaware corporation")
    assert read_opening("AGREEMENT between Alpha Widgets, Inc., a delaware corporation and ______").parties == (
        ("Alpha Widgets",),
    )


def test_an_nda_keeps_the_words_its_title_says_it_with() -> None:
    focus = "Focus Group Non‐Disclosure Agreement\nI, ______, agree to hold in confidence…"
    assert read_opening(focus).kinds[0] == "focus group NDA"  # not "the template NDA", as any other form
    assert read_opening("BUYER'S NON-DISCLOSURE AGREEMENT\n").kinds[0] == "buyer NDA"  # the stray 'S' is dropped
    assert read_opening("STANDARD MUTUAL NON-DISCLOSURE AGREEMENT\n").kinds[0] == "mutual NDA"  # form words say nothing


def test_a_form_is_named_by_its_letterhead_or_as_a_form() -> None:
    assert describe(read_opening(LETTERHEAD), "x.txt", "q").endswith(" of University of Arkansas at Little Rock")
    assert describe(read_opening(LETTERHEAD), "x.txt", "q").split()[1] in ("form", "template", "standard")
    bare = describe(read_opening(FORM), "y.txt", "q")
    assert bare.startswith("the ") and bare.split()[1] in ("form", "template", "standard")


def test_references_are_deterministic_and_use_only_the_opening() -> None:
    opening = read_opening(NDA)
    questions = [f"question {i}?" for i in range(40)]
    refs = [describe(opening, "contractnli/doc-0123456789.txt", q) for q in questions]
    assert refs == [describe(opening, "contractnli/doc-0123456789.txt", q) for q in questions]
    assert len(set(refs)) > 3  # several shapes, as different lawyers say it
    for ref in refs:
        assert "doc-" not in ref and "Inc" not in ref and "LLC" not in ref
        assert any(name in ref for name in ("Acme", "Borealis"))  # each party by one way it is named
        assert "NDA" in ref or "agreement" in ref
    one_style = {name for ref in refs for name in ("Acme Robotics", "Borealis Capital") if name in ref}
    assert len(one_style) <= 2  # a document's parties keep the style the document drew


def test_the_question_is_kept_and_a_query_without_reference_is_unchanged() -> None:
    opening = Opening(kinds=("NDA",), parties=(("Acme",),), issuer="", year="")
    query = "Consider the Non-Disclosure Agreement between X and Y; What is the term?"
    out = described_query(query, opening, "a.txt")
    assert out.startswith("Consider ") and split_query(out).question == "What is the term?"
    assert "Acme" in split_query(out).document
    assert described_query("What is the term?", opening, "a.txt") == "What is the term?"


def test_the_copy_keeps_tests_ids_and_gold_and_rewrites_references(demo_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "described"
    counts = write_described(demo_dir, out)
    normal, described = load_benchmark(demo_dir, DEMO, "full"), load_benchmark(out, DEMO, "full")
    assert [q.query_id for q in described.queries] == [q.query_id for q in normal.queries]
    assert [q.gold for q in described.queries] == [q.gold for q in normal.queries]
    assert [split_query(q.text).question for q in described.queries] == [
        split_query(q.text).question for q in normal.queries
    ]
    changed = sum(a.text != b.text for a, b in zip(normal.queries, described.queries))
    assert changed == sum(c for _, c in counts.values()) and changed > len(normal.queries) // 2
    assert json.loads((out / "benchmarks" / "demo_nda.json").read_text(encoding="utf-8"))["transform"] == "described"
    assert (out / "corpus").is_symlink()  # nothing of the data copied
    assert write_described(demo_dir, tmp_path / "again") == counts  # deterministic
    again = load_benchmark(tmp_path / "again", DEMO, "full")
    assert [q.text for q in again.queries] == [q.text for q in described.queries]


def test_describe_refuses_the_project_and_names_a_missing_document(demo_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="inside the project"):
        write_described(demo_dir, project_root() / "described-copy")
    broken = tmp_path / "broken"
    (broken / "benchmarks").mkdir(parents=True)
    (broken / "corpus" / "demo_nda").mkdir(parents=True)
    test = {
        "query": "Consider the NDA; What is the term?",
        "snippets": [{"file_path": "demo_nda/gone.txt", "span": [0, 1]}],
    }
    (broken / "benchmarks" / "demo_nda.json").write_text(json.dumps({"tests": [test]}), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"gone\.txt: document not found"):
        write_described(broken, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # staged: nothing half-written
