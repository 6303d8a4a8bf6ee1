"""The key of a summary in the store's ``summaries`` kind (``<cache_dir>/summaries``, see
:mod:`sac_core.engine.store`).

Key: provider, model, prompt id, prompt version, prompt digest (so an edited prompt file is never
mistaken for the old one), target length in characters, the LLM's generation settings when they
are not the defaults, and the sha256 of the document text: a key by text, unchanged since the
first summary was cached (paid-for summaries stay readable). The file path is not part of the key:
equal texts share one summary. Each summary is written as soon as it arrives, so an interrupted run
resumes where it stopped. Keys and values hold only these fields and the summary's own data
(``{"summary", "attempts", "input_tokens", "output_tokens"}``); never an API key or a base URL.
"""

from __future__ import annotations

from .. import store
from .prompts import Prompt

KEY_VERSION = "sac-summary-v1"
KIND = "summaries"  # the store's kind


def cache_key(provider: str, model: str, prompt: Prompt, char_length: int, text: str, generation: str = "") -> str:
    """``generation``: :attr:`SummaryConfig.generation_key` (empty with the default settings)."""
    parts = [KEY_VERSION, provider, model, prompt.id, str(prompt.version), prompt.digest, str(char_length)]
    return store.key(KIND, [*parts, *([generation] if generation else [])], text=text)
