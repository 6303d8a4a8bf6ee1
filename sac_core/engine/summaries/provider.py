"""What every summary provider offers: one summary per document (see ``openai_provider``,
``extractive`` and ``file``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .length import Attempt
from .prompts import Prompt


@dataclass(frozen=True)
class SummaryResult:
    """One document's summary (characters) and what it cost (tokens as reported by the API)."""

    summary: str
    attempts: tuple[Attempt, ...] = ()  # (requested target, returned length) per model answer
    input_tokens: int = 0
    output_tokens: int = 0


class Provider(Protocol):
    name: str  # "openai", "extractive", "file"
    model: str  # model name, or the provider's own version tag

    def summarize(self, file_path: str, text: str, prompt: Prompt, char_length: int) -> SummaryResult:
        """A summary of ``text`` of at most ``char_length + 20`` characters."""
        ...
