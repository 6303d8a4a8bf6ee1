"""Length control (characters) and head/tail shortening (tokens), with hand-made values."""

from __future__ import annotations

import pytest

from sac_core.engine.summaries.length import (
    TRUNCATION_MARKER,
    clean,
    control_length,
    count_tokens,
    cut_at_word_boundary,
    limit,
    max_output_tokens,
    retry_target,
    shorten_document,
)


def scripted(*answers: str):
    """An ``ask`` that returns the answers in order and records what it was asked."""
    asked: list[tuple[int, str | None]] = []
    queue = list(answers)

    def ask(target: int, previous: str | None) -> str:
        asked.append((target, previous))
        return queue.pop(0)

    return ask, asked


def test_limit_and_targets() -> None:
    assert limit(150) == 170 and limit(300) == 320
    assert [retry_target(150, k) for k in (1, 2, 3)] == [130, 110, 90]
    assert retry_target(30, 5) == 1  # never zero or negative
    assert max_output_tokens(150) == 106  # (150 + 20) // 3 + 50, as the SAC code


def test_answer_within_tolerance_is_accepted_without_retry() -> None:
    ask, asked = scripted("a" * 170)
    result = control_length(ask, 150)
    assert result.summary == "a" * 170 and result.attempts == ((150, 170),) and not result.cut
    assert asked == [(150, None)]


def test_too_long_answer_is_retried_with_target_lowered_by_20() -> None:
    ask, asked = scripted("b" * 171, "c" * 200, "d" * 100)
    result = control_length(ask, 150)
    assert result.summary == "d" * 100
    assert result.attempts == ((150, 171), (130, 200), (110, 100))
    assert asked == [(150, None), (130, "b" * 171), (110, "c" * 200)]  # the last answer is passed back


def test_retries_are_limited_then_the_last_answer_is_cut_at_a_word() -> None:
    long = "word " * 80
    ask, asked = scripted(long, long, long)
    result = control_length(ask, 150, max_retries=2)
    assert len(asked) == 3 and result.cut
    assert len(result.summary) <= 170 and result.summary.endswith("word")
    assert result.attempts == ((150, 399), (130, 399), (110, 399))


def test_zero_retries_cuts_at_once() -> None:
    ask, asked = scripted("x " * 200)
    result = control_length(ask, 10, max_retries=0)
    assert len(asked) == 1 and len(result.summary) <= 30


def test_answers_are_cleaned_to_one_line() -> None:
    assert clean("  Line one\n\n  line   two \t") == "Line one line two"
    ask, _ = scripted("  NDA between\nA and B  ")
    assert control_length(ask, 150).summary == "NDA between A and B"


@pytest.mark.parametrize(
    ("text", "n", "expected"),
    [
        ("short", 10, "short"),
        ("alpha beta gamma", 11, "alpha beta"),
        ("alpha beta gamma", 10, "alpha beta"),  # the cut may fall right before a space
        ("alpha, beta gamma", 8, "alpha"),  # no dangling comma
        ("abcdefghijklmnop", 5, "abcde"),  # one long word: hard cut
    ],
)
def test_cut_at_word_boundary(text: str, n: int, expected: str) -> None:
    assert cut_at_word_boundary(text, n) == expected
    assert len(cut_at_word_boundary(text, n)) <= n


def test_short_document_is_not_shortened() -> None:
    result = shorten_document("a small document", max_tokens=100)
    assert result.text == "a small document" and not result.truncated


def test_long_document_keeps_head_and_tail_with_marker() -> None:
    text = "H" * 1000 + "M" * 10_000 + "T" * 1000
    result = shorten_document(text, max_tokens=500)  # 250 tokens ≈ 1000 characters from each end
    assert result.truncated and result.tokens == count_tokens(text)
    head, tail = result.text.split(TRUNCATION_MARKER)
    assert text.startswith(head) and text.endswith(tail)
    assert head.startswith("H") and tail.endswith("T")
    assert count_tokens(head) <= 250 and count_tokens(tail) <= 250
    assert count_tokens(result.text) < count_tokens(text) / 4


def test_token_estimate_without_tiktoken() -> None:
    try:
        import tiktoken  # noqa: F401

        pytest.skip("tiktoken installed: counts are exact, not estimated")
    except ImportError:
        pass
    assert count_tokens("") == 0 and count_tokens("abcd") == 1 and count_tokens("abcde") == 2
