"""Length control, as in the SAC paper and its authors' code.

Summary lengths are in **characters**; the document budget is in **tokens**.

- A summary is accepted when it has at most ``target + TOLERANCE`` characters (150 → 170).
- Otherwise the model is asked again with the target lowered by ``RETRY_STEP`` characters per
  retry (150 → 130 → 110 ...), at most ``max_retries`` times (the SAC code uses 10).
- If it is still too long, the last answer is cut at a word boundary to ``target + TOLERANCE``.
- Documents longer than the token budget keep their head and tail with ``TRUNCATION_MARKER``
  between them (the SAC code keeps half the budget from each end; budget 64,000 tokens = half of
  gpt-4o-mini's 128k context).

Tokens are counted with ``tiktoken`` when it is installed, else estimated as characters / 4.

One difference from the SAC code: its first retry repeats the original target (retry ``i``
asks for ``target - 20 * i`` with ``i`` from 0); here retry ``k`` asks for ``target - 20 * k``
with ``k`` from 1, so every retry asks for less.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

TOLERANCE = 20  # characters allowed above the target
RETRY_STEP = 20  # characters removed from the target per retry
DEFAULT_MAX_RETRIES = 10  # length retries, as the SAC code
DEFAULT_MAX_INPUT_TOKENS = 64_000  # document budget, as the SAC code for gpt-4o-mini
CHARS_PER_TOKEN = 4  # estimate when tiktoken is absent
TRUNCATION_MARKER = "\n\n[... DOCUMENT TRUNCATED ...]\n\n"

Attempt = tuple[int, int]  # (requested target in characters, returned length in characters)


def limit(char_length: int) -> int:
    """Longest accepted summary in characters for a target ``char_length``."""
    return char_length + TOLERANCE


def retry_target(char_length: int, retry: int) -> int:
    """Target asked for at retry number ``retry`` (1, 2, ...): 20 characters less each time, at least 1."""
    return max(char_length - RETRY_STEP * retry, 1)


def clean(summary: str) -> str:
    """A model's answer as one line: whitespace runs collapsed, ends stripped."""
    return re.sub(r"\s+", " ", summary).strip()


def cut_at_word_boundary(text: str, max_chars: int) -> str:
    """``text`` shortened to at most ``max_chars`` characters, ending at a whole word when possible."""
    if len(text) <= max_chars:
        return text
    head = text[: max_chars + 1]
    space = head.rfind(" ")
    cut = head[:space] if space > 0 else text[:max_chars]
    return cut.rstrip(" ,;:-–—(") or text[:max_chars].rstrip()


def max_output_tokens(char_length: int) -> int:
    """Output-token cap per request, as the SAC code: ``(target + 20) // 3 + 50``."""
    return limit(char_length) // 3 + 50


@dataclass(frozen=True)
class Controlled:
    """A summary within ``limit(target)`` characters and every attempt made to get it."""

    summary: str
    attempts: tuple[Attempt, ...]
    cut: bool  # True when the last answer was still too long and was cut


def control_length(
    ask: Callable[[int, str | None], str], char_length: int, max_retries: int = DEFAULT_MAX_RETRIES
) -> Controlled:
    """Ask for a summary and retry with lower targets until it fits.

    ``ask(target, previous)`` returns the model's answer for ``target`` characters; ``previous``
    is ``None`` for the first request and the last (too long) answer for retries.
    """
    answer = clean(ask(char_length, None))
    attempts: list[Attempt] = [(char_length, len(answer))]
    retry = 0
    while len(answer) > limit(char_length) and retry < max_retries:
        retry += 1
        target = retry_target(char_length, retry)
        answer = clean(ask(target, answer))
        attempts.append((target, len(answer)))
    too_long = len(answer) > limit(char_length)
    summary = cut_at_word_boundary(answer, limit(char_length)) if too_long else answer
    return Controlled(summary, tuple(attempts), too_long)


# --- token budget for the document -------------------------------------------------------------


@lru_cache(maxsize=8)
def _encoding(model: str) -> Any:
    """A tiktoken encoding for ``model``, or None when tiktoken (or its data) is unavailable."""
    try:
        import tiktoken  # optional
    except ImportError:
        return None
    try:
        return tiktoken.encoding_for_model(model)
    except Exception:
        try:
            return tiktoken.get_encoding("o200k_base")
        except Exception:
            return None


def count_tokens(text: str, model: str = "gpt-4o-mini") -> int:
    """Tokens in ``text``: exact with tiktoken, else ``ceil(characters / 4)``."""
    enc = _encoding(model)
    if enc is None:
        return math.ceil(len(text) / CHARS_PER_TOKEN)
    return len(enc.encode(text, disallowed_special=()))


@dataclass(frozen=True)
class Shortened:
    text: str
    truncated: bool
    tokens: int  # tokens of the original document


def shorten_document(text: str, max_tokens: int = DEFAULT_MAX_INPUT_TOKENS, model: str = "gpt-4o-mini") -> Shortened:
    """The document if it fits ``max_tokens``, else its first and last ``max_tokens // 2`` tokens with
    :data:`TRUNCATION_MARKER` between them."""
    if max_tokens < 2:
        raise ValueError(f"max_tokens must be at least 2, got {max_tokens}")
    tokens = count_tokens(text, model)
    if tokens <= max_tokens:
        return Shortened(text, truncated=False, tokens=tokens)
    half = max_tokens // 2
    enc = _encoding(model)
    if enc is None:
        head, tail = text[: half * CHARS_PER_TOKEN], text[-half * CHARS_PER_TOKEN :]
    else:
        ids = enc.encode(text, disallowed_special=())
        head, tail = enc.decode(ids[:half]), enc.decode(ids[-half:])
    return Shortened(f"{head}{TRUNCATION_MARKER}{tail}", truncated=True, tokens=tokens)
