"""How summaries are made: one frozen :class:`SummaryConfig` (provider, prompt, target length, API settings).

Deliberately without an API key field: the key is an argument or ``$OPENAI_API_KEY``, read at call time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import SummaryError
from .length import DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_RETRIES
from .prompts import builtin_prompt_ids, load_prompt

PROVIDERS: tuple[str, ...] = ("extractive", "openai", "file")


@dataclass(frozen=True)
class SummaryConfig:
    """How to make summaries. Lengths in characters, budgets in tokens, prices in USD per 1M tokens.

    Deliberately has no API key field: pass ``api_key`` to :func:`summarize_documents` or set
    ``$OPENAI_API_KEY``.
    """

    provider: str = "extractive"  # "extractive", "openai" or "file"
    prompt: str = "generic"  # "generic", "expert" or the path of a prompt JSON file
    chars: int = 150  # target summary length (characters); accepted up to chars + 20
    model: str = "gpt-4o-mini"
    base_url: str | None = None  # None: $OPENAI_BASE_URL, else api.openai.com
    temperature: float = 0.0
    retry_temperature: float = 1.0  # for length retries, as the SAC code
    max_retries_length: int = DEFAULT_MAX_RETRIES  # re-asks with a 20-character lower target each
    max_input_tokens: int = DEFAULT_MAX_INPUT_TOKENS  # longer documents: head + tail
    concurrency: int = 4  # parallel API requests
    max_retries_api: int = 5  # retries on 429 / 5xx / timeout / connection errors
    retry_base_delay: float = 1.0  # seconds; doubled per retry
    timeout: float = 60.0  # seconds to wait for an answer
    connect_timeout: float = 5.0  # seconds to open a connection (no network: fail fast)
    deadline: float = 60.0  # seconds for one document's requests and retry waits together
    summary_file: Path | None = None  # JSONL for provider "file"
    price_input_per_m: float = 0.15  # gpt-4o-mini list price, USD per 1M input tokens
    price_output_per_m: float = 0.60  # USD per 1M output tokens

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise SummaryError(f"unknown summary provider {self.provider!r}; choose one of {', '.join(PROVIDERS)}")
        _positive_int("chars", self.chars)
        _positive_int("max_input_tokens", self.max_input_tokens, minimum=2)
        _positive_int("concurrency", self.concurrency)
        _positive_int("max_retries_length", self.max_retries_length, minimum=0)
        _positive_int("max_retries_api", self.max_retries_api, minimum=0)
        for name in ("temperature", "retry_temperature"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 <= value <= 2:
                raise SummaryError(f"summary setting '{name}' must be between 0 and 2, got {value!r}")
        for name in ("retry_base_delay", "price_input_per_m", "price_output_per_m"):
            if not isinstance(getattr(self, name), (int, float)) or getattr(self, name) < 0:
                raise SummaryError(f"summary setting '{name}' must be a number >= 0, got {getattr(self, name)!r}")
        for name in ("timeout", "connect_timeout", "deadline"):
            if not isinstance(getattr(self, name), (int, float)) or getattr(self, name) <= 0:
                raise SummaryError(f"summary setting '{name}' must be > 0 seconds, got {getattr(self, name)!r}")
        if not self.model:
            raise SummaryError("summary setting 'model' is empty")

    @property
    def prompt_name(self) -> str:
        """Short prompt name for labels: a built-in id, or a prompt file's ``id`` (else its file stem)."""
        return prompt_label(self.prompt, strict=False)

    @property
    def generation_key(self) -> str:
        """What a summary's cache key adds for the LLM's generation settings (temperature, retry
        temperature, length retries, input-token limit) when they differ from the defaults, so
        summaries made with the defaults keep their keys. Extractive summaries read none of them.
        The base URL is left out on purpose: it says where a model runs, not what it writes, and a
        URL may carry credentials (nothing of it is stored)."""
        if self.provider != "openai":
            return ""
        default = SummaryConfig()
        names = ("temperature", "retry_temperature", "max_retries_length", "max_input_tokens")
        return ";".join(f"{n}={getattr(self, n)}" for n in names if getattr(self, n) != getattr(default, n))

    def resolved(self, data_dir: Path) -> SummaryConfig:
        """Provider ``file`` without ``summary_file`` → ``<data_dir>/summaries/llm.jsonl``."""
        if self.provider == "file" and self.summary_file is None:
            return replace(self, summary_file=Path(data_dir) / "summaries" / "llm.jsonl")
        return self

    def columns(self) -> dict[str, object]:
        """Flat values for result tables; settings that do not apply to the provider are None."""
        api = self.provider == "openai"
        return {
            "provider": self.provider,
            "prompt": self.prompt_name,
            "chars": self.chars,
            "model": self.model if api else None,
            "temperature": self.temperature if api else None,
            "max_input_tokens": self.max_input_tokens if api else None,
            "file": str(self.summary_file) if self.provider == "file" and self.summary_file else None,
        }


def _positive_int(name: str, value: object, minimum: int = 1) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise SummaryError(f"summary setting '{name}' must be an integer >= {minimum}, got {value!r}")


def prompt_label(prompt: str, *, strict: bool = True) -> str:
    """The prompt name used in summary files: a built-in id as given, a prompt file's ``id``."""
    if prompt in builtin_prompt_ids() or not (prompt.endswith(".json") or os.sep in prompt or "/" in prompt):
        return prompt
    try:
        return load_prompt(prompt).id
    except SummaryError:
        if strict:
            raise
        return Path(prompt).stem
