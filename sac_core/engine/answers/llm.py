"""Answers from any OpenAI-compatible chat API (OpenAI, a gateway, vLLM, Ollama, llama.cpp).

The prompt numbers the excerpts with the labels the page shows and demands a citation to them for
every statement, and "Not in the excerpts." when they do not answer. Temperature 0. The answer is
streamed (``on_text``) and kept in the store's ``answers`` kind by (model, prompt, question, excerpt labels and texts),
so a rerun costs nothing and sends no request. The API key builds the client and nowhere else: it
is not stored, cached, logged or put in an error message. Requests have a short connect timeout
and a total one, and 429/5xx/timeouts are retried by the client (``max_retries``), so a server
that cannot be reached ends in a clear :class:`AnswerError` within about ``timeout`` seconds a try.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import store
from ..summaries.length import count_tokens
from .excerpts import Excerpt
from .types import Answer, cite

NOT_IN_EXCERPTS = "Not in the excerpts."
PROMPT_VERSION = 1  # bump when ANSWER_PROMPT changes: cached answers of the old prompt are then not reused
ANSWER_PROMPT = (
    "You answer questions about legal documents using only the excerpts below.\n"
    "After every statement, cite the excerpt it comes from by its label in square brackets, e.g. [#2]. "
    "Use only these labels: {labels}. If the excerpts do not answer the question, reply exactly: "
    f'"{NOT_IN_EXCERPTS}" Answer in at most three sentences.\n\n'
    "Excerpts:\n{excerpts}\n\nQuestion: {question}\nAnswer:"
)
MAX_OUTPUT_TOKENS = 300


class AnswerError(RuntimeError):
    """An answer request failed (the message says why, never with the API key)."""


def render_prompt(question: str, excerpts: Sequence[Excerpt]) -> str:
    """The user message: the labelled excerpts (document and characters), then the question."""
    blocks = [f"[{e.label}] {e.file_path}, characters {e.start}–{e.end}:\n{' '.join(e.text.split())}" for e in excerpts]
    labels = ", ".join(f"[{e.label}]" for e in excerpts)
    return ANSWER_PROMPT.format(labels=labels, excerpts="\n\n".join(blocks), question=question)


@dataclass(frozen=True)
class Cost:
    """An estimate before a batch: tokens in and at most out, and USD at the given prices."""

    answers: int
    input_tokens: int
    output_tokens: int
    usd: float


def answer_cost(
    prompts: Sequence[str], *, model: str, price_input_per_m: float = 0.15, price_output_per_m: float = 0.60
) -> Cost:
    """What asking ``prompts`` (rendered, see :func:`render_prompt`) costs at most: input tokens
    counted, output at :data:`MAX_OUTPUT_TOKENS` each; prices in USD per million tokens."""
    tokens_in = sum(count_tokens(p, model) for p in prompts)
    tokens_out = MAX_OUTPUT_TOKENS * len(prompts)
    usd = tokens_in * price_input_per_m / 1e6 + tokens_out * price_output_per_m / 1e6
    return Cost(len(prompts), tokens_in, tokens_out, usd)


class LLMAnswerer:
    """Chat-completions answers (see the module docstring). ``api_key``: None reads nothing from
    the environment here; a server at ``base_url`` that needs no key gets a placeholder."""

    name = "openai"

    def __init__(
        self,
        cache_dir: Path,
        *,
        model: str = "gpt-4o-mini",
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
    ) -> None:
        if not api_key and not base_url:
            raise AnswerError("the openai answerer needs an API key (or the base URL of a server that needs none)")
        self.model = model
        self.cache = store.entries(Path(cache_dir), "answers")
        self.requests = 0  # requests actually sent (cache misses)
        import openai  # ~1 s to import: only when answers are requested (`sac --help` stays instant)

        self._client = openai.OpenAI(
            api_key=api_key or "no-key-needed",
            base_url=base_url,
            timeout=openai.Timeout(timeout, connect=min(5.0, timeout)),
            max_retries=max_retries,
        )

    def key(self, question: str, excerpts: Sequence[Excerpt]) -> str:
        return store.key("answers", [self.model, PROMPT_VERSION, render_prompt(question, excerpts)])

    def cached(self, question: str, excerpts: Sequence[Excerpt]) -> Answer | None:
        """The cached answer, or None (nothing is sent)."""
        hit = self.cache.get(self.key(question, excerpts))
        if not isinstance(hit, dict):
            return None
        return cite(str(hit["text"]), excerpts, self.name, cached=True)

    def answer(
        self, question: str, excerpts: Sequence[Excerpt], *, on_text: Callable[[str], None] | None = None
    ) -> Answer:
        """The cached answer, or a new one streamed into ``on_text``; raises :class:`AnswerError`."""
        hit = self.cached(question, excerpts)
        if hit is not None:
            if on_text is not None:
                on_text(hit.text)
            return hit
        text, usage = self._ask(render_prompt(question, excerpts), on_text)
        self.cache.set(self.key(question, excerpts), {"text": text})
        return cite(text, excerpts, self.name, input_tokens=usage[0], output_tokens=usage[1])

    def _ask(self, prompt: str, on_text: Callable[[str], None] | None) -> tuple[str, tuple[int, int]]:
        import openai

        self.requests += 1
        parts: list[str] = []
        usage = (0, 0)
        try:
            stream = self._client.chat.completions.create(
                model=self.model,
                messages=[{"role": "user", "content": prompt}],
                temperature=0.0,
                max_tokens=MAX_OUTPUT_TOKENS,
                stream=True,
                stream_options={"include_usage": True},
            )
            for chunk in stream:
                if chunk.usage is not None:
                    usage = (chunk.usage.prompt_tokens, chunk.usage.completion_tokens)
                delta = chunk.choices[0].delta.content if chunk.choices else None
                if delta:
                    parts.append(delta)
                    if on_text is not None:
                        on_text("".join(parts))
        except openai.OpenAIError as e:
            secret = self._client.api_key
            message = str(e).replace(secret, "***") if secret else str(e)
            raise AnswerError(f"the answer request to {self.model} failed: {type(e).__name__}: {message}") from None
        return "".join(parts).strip(), usage
