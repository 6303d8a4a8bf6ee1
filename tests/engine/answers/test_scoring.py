"""Token F1 and ROUGE-L through rouge-score, checked by hand on small texts."""

import pytest

from sac_core.engine.answers import score_answer
from sac_core.engine.answers.scoring import plain_answer


def test_citations_and_quotes_are_not_words():
    assert plain_answer("“The term is two years.” [#2]\nIt ends [#1, #3].") == "The term is two years. It ends ."


def test_a_quoted_bracket_is_the_documents_text_not_a_citation():
    assert plain_answer("“Fees under SCHEDULE [1] apply.” [#2]") == "Fees under SCHEDULE [1] apply."


def test_token_f1_and_rouge_l_by_hand():
    # gold: "the term is two years" (5 tokens); answer: "two years is the term [#1]" (5 tokens, all shared)
    s = score_answer("two years is the term [#1]", ["The term is two years"])
    assert s.token_f1 == pytest.approx(1.0)
    # LCS of (the term is two years) and (two years is the term): length 2 ("the term" or "two years") → P = R = 2/5
    assert s.rouge_l == pytest.approx(0.4)
    half = score_answer("the term", ["the term is two years"])  # P 2/2, R 2/5 → F 2·1·0.4/1.4
    assert half.token_f1 == pytest.approx(2 * 0.4 / 1.4) and half.rouge_l == pytest.approx(2 * 0.4 / 1.4)
    assert score_answer("Not in the excerpts.", ["Governing law: New York."]).token_f1 == 0.0
