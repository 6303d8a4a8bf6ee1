"""Citations in answer texts, resolved against the excerpts and checked against gold documents."""

from sac_core.engine.answers import Excerpt, cited_labels, unknown_labels
from sac_core.engine.answers.citations import quotations, split_citations
from sac_core.engine.answers.types import cite

EXCERPTS = (
    Excerpt("#1", "nda/acme.txt", 0, 40, "The term is two years."),
    Excerpt("#2", "nda/birch.txt", 100, 160, "The term is five years."),
)


def test_labels_in_every_bracket_form_once_in_order():
    text = "Two years [#1]. Or five [#2, #1]; see also [2][#3] and [ #4 ; 5 ]. Not #6 or [x]."
    assert cited_labels(text) == ["#1", "#2", "#3", "#4", "#5"]
    assert unknown_labels(text, {"#1", "#2"}) == ["#3", "#4", "#5"]
    assert cited_labels("No citation here.") == []


def test_an_answer_citing_the_wrong_document_is_flagged():
    answer = cite("The term is five years [#2].", EXCERPTS, "test").checked({"nda/acme.txt"})
    assert [(c.label, c.file_path, c.start, c.end, c.gold_document) for c in answer.citations] == [
        ("#2", "nda/birch.txt", 100, 160, False)
    ]
    assert answer.cites_other_document and not answer.cites_only_gold and answer.problem is None


def test_only_gold_citations_and_free_text():
    answer = cite("Two years [#1].", EXCERPTS, "test")
    assert answer.checked({"nda/acme.txt"}).cites_only_gold
    free = answer.checked(None)
    assert free.citations[0].gold_document is None and not free.cites_only_gold and not free.cites_other_document
    assert not cite("Not in the excerpts.", EXCERPTS, "test").checked({"nda/acme.txt"}).cites_only_gold


def test_a_citation_of_no_excerpt_and_an_empty_answer_are_problems():
    bad = cite("Seven years [#7] or two [#1].", EXCERPTS, "test")
    assert bad.problem == "the answer cites [#7], which no excerpt has (excerpts #1–#2)"
    assert [c.label for c in bad.citations] == ["#1"]  # the valid ones are still checked
    assert cite("  ", EXCERPTS, "test").problem == "the answer is empty"


def test_text_inside_a_quotation_is_not_a_citation():
    # a contract that says "SCHEDULE [1]", "[#9]" or "[31,369]", quoted: document text, not citations
    text = "“Released pursuant to SCHEDULE [1] and [#9]; fee [31,369].” [#2]\nIt says “see [3]” too [#1]."
    assert quotations(text) == ((0, 59), (73, 82))
    assert cited_labels(text) == ["#2", "#1"]
    assert split_citations(text) == [text[:60], ("#2",), text[64:87], ("#1",), "."]
    answer = cite(text, EXCERPTS, "test")
    assert answer.problem is None and [c.label for c in answer.citations] == ["#2", "#1"]
    assert answer.quotes == ((0, 59), (73, 82))


def test_quotations_straight_nested_and_unclosed():
    assert quotations('He said "pay [2] now" [#1].') == ((8, 21),)
    assert quotations("“outer “inner [2]” still [3]” [#1]") == ((0, 29),)
    assert cited_labels("“never closed [2] and then [#1]") == ["#2", "#1"]  # an unclosed mark quotes nothing
    assert cited_labels("“a” “b [4]” [#1] “c") == ["#1"]
    assert quotations("“" * 100_000 + "”") == ((99_999, 100_001),)  # linear, no recursion


def test_given_quotations_override_what_the_text_suggests():
    # the extractive answerer knows its quote exactly, even when the document's own marks are unbalanced
    sentence = "Section 2” lists [4] and “[#3]"
    text = f"“{sentence}” [#1]"
    assert cited_labels(text) == ["#4", "#1"]  # read from the text alone, the marks mislead
    answer = cite(text, EXCERPTS, "test", quotes=((0, len(sentence) + 2),))
    assert [c.label for c in answer.citations] == ["#1"] and answer.problem is None
