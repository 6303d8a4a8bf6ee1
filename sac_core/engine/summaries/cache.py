"""On-disk summary cache (``diskcache``) under ``<cache_dir>/summaries``.

Key: provider, model, prompt id, prompt version, prompt digest (so an edited prompt file is never
mistaken for the old one), target length in characters, the LLM's generation settings when they
are not the defaults, and the sha256 of the document text.
The file path is not part of the key: equal texts share one summary. Each summary is written as
soon as it arrives, so an interrupted run resumes where it stopped. Keys and values hold only
these fields and the summary's own data; never an API key or a base URL.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import diskcache

from .prompts import Prompt

KEY_VERSION = "sac-summary-v1"


def document_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(provider: str, model: str, prompt: Prompt, char_length: int, text: str, generation: str = "") -> str:
    """``generation``: :attr:`SummaryConfig.generation_key` (empty with the default settings)."""
    parts = [KEY_VERSION, provider, model, prompt.id, str(prompt.version), prompt.digest, str(char_length)]
    return "|".join([*parts, *([generation] if generation else []), document_sha256(text)])


class SummaryCache:
    """``key → {"summary", "attempts", "input_tokens", "output_tokens"}``; safe to share between threads."""

    def __init__(self, cache_dir: Path) -> None:
        self.directory = Path(cache_dir) / "summaries"
        self._cache = diskcache.Cache(str(self.directory), eviction_policy="none")  # never drop a paid summary

    def get(self, key: str) -> dict[str, Any] | None:
        value = self._cache.get(key)
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._cache.set(key, value)

    def __contains__(self, key: str) -> bool:
        return key in self._cache

    def close(self) -> None:
        self._cache.close()

    def __enter__(self) -> SummaryCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
