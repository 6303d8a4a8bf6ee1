"""Summaries from any OpenAI-compatible chat API (OpenAI, gateways, vLLM, Ollama, llama.cpp).

One request per attempt: the rendered prompt as a user message; when the answer is too long, the
conversation continues with the answer and the prompt's retry message for a lower target, as in
the SAC authors' code (see :mod:`.length`). Requests failing with 429, 5xx, a timeout or a lost
connection are retried with exponential backoff (``base_delay * 2**n`` seconds, or the server's
``Retry-After`` when longer, at most 60 s); other API errors stop the run with a clear message.

Nothing waits without end: a connection must open within ``connect_timeout`` seconds, an answer
arrive within ``timeout``, and a document's requests and waits together end by ``deadline``
seconds. Once one document gives up, the provider stops: the others end at their next request or
wait instead of retrying a server that is gone. Each retry logs one line (never the key).

The API key is used to build the client and nowhere else: it is not an attribute of this class,
not logged, not cached, and removed from any error text.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

import openai

from .errors import SummaryError
from .length import DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_RETRIES, control_length, max_output_tokens, shorten_document
from .prompts import Prompt
from .provider import SummaryResult

log = logging.getLogger(__name__)

_RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)
MAX_BACKOFF = 60.0  # seconds


class OpenAIProvider:
    """Chat-completions summariser; thread-safe (one shared client), so documents may run in parallel."""

    name = "openai"

    def __init__(
        self,
        *,
        api_key: str,
        model: str = "gpt-4o-mini",
        base_url: str | None = None,
        temperature: float = 0.0,
        retry_temperature: float = 1.0,
        max_length_retries: int = DEFAULT_MAX_RETRIES,
        max_input_tokens: int = DEFAULT_MAX_INPUT_TOKENS,
        max_api_retries: int = 5,
        base_delay: float = 1.0,
        timeout: float = 60.0,
        connect_timeout: float = 5.0,
        deadline: float = 60.0,
    ) -> None:
        self.model = model
        self.temperature = temperature
        self.retry_temperature = retry_temperature
        self.max_length_retries = max_length_retries
        self.max_input_tokens = max_input_tokens
        self.max_api_retries = max_api_retries
        self.base_delay = base_delay
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.deadline = deadline
        self._stopped = threading.Event()  # set when a document gave up: the server is unusable
        self._why = ""
        self._client = openai.OpenAI(
            api_key=api_key, base_url=base_url, max_retries=0, timeout=openai.Timeout(timeout, connect=connect_timeout)
        )

    def __repr__(self) -> str:
        return f"OpenAIProvider(model={self.model!r}, base_url={str(self._client.base_url)!r})"

    def summarize(self, file_path: str, text: str, prompt: Prompt, char_length: int) -> SummaryResult:
        document = shorten_document(text, self.max_input_tokens, self.model)
        if document.truncated:
            log.info("%s: %d tokens > %d, summarising head and tail", file_path, document.tokens, self.max_input_tokens)
        messages: list[dict[str, str]] = [{"role": "user", "content": prompt.render(document.text, char_length)}]
        usage = [0, 0]

        def ask(target: int, previous: str | None) -> str:
            if previous is not None:
                messages.append({"role": "assistant", "content": previous})
                messages.append({"role": "user", "content": prompt.retry_message(target)})
            temperature = self.temperature if previous is None else self.retry_temperature
            answer, tokens_in, tokens_out = self._chat(file_path, messages, temperature, max_output_tokens(char_length))
            usage[0] += tokens_in
            usage[1] += tokens_out
            if not answer.strip():
                raise SummaryError(f"{file_path}: model {self.model!r} returned an empty summary")
            return answer

        result = control_length(ask, char_length, self.max_length_retries)
        if result.cut:
            retries, length = len(result.attempts) - 1, result.attempts[-1][1]
            log.info("%s: still %d characters after %d retries, cut at a word boundary", file_path, length, retries)
        return SummaryResult(result.summary, result.attempts, usage[0], usage[1])

    def _chat(
        self, file_path: str, messages: list[dict[str, str]], temperature: float, max_tokens: int
    ) -> tuple[str, int, int]:
        """One completion: (answer, input tokens, output tokens), retrying transient failures until
        ``max_api_retries`` retries or ``deadline`` seconds have passed, whichever comes first."""
        t0 = time.monotonic()
        ends = t0 + self.deadline
        for attempt in range(self.max_api_retries + 1):
            if self._stopped.is_set():
                raise SummaryError(f"{file_path}: not requested: {self._why}")
            left = max(0.1, ends - time.monotonic())
            try:
                response = self._client.chat.completions.create(
                    model=self.model,
                    messages=messages,  # type: ignore[arg-type]
                    temperature=temperature,
                    max_tokens=max_tokens,
                    timeout=openai.Timeout(min(self.timeout, left), connect=min(self.connect_timeout, left)),
                )
            except _RETRYABLE as e:
                delay = self._delay(attempt, e)
                if attempt == self.max_api_retries or time.monotonic() + delay >= ends:
                    spent = time.monotonic() - t0
                    why = f"{self._describe(e)}; gave up after {attempt + 1} requests in {spent:.0f} s"
                    self._stop(why)
                    raise SummaryError(f"{file_path}: {why}") from None
                log.warning("%s: %s; retry %d of %d in %.1f s", file_path, self._describe(e), attempt + 1,
                            self.max_api_retries, delay)  # fmt: skip
                if self._stopped.wait(delay):
                    raise SummaryError(f"{file_path}: not requested: {self._why}") from None
                continue
            except openai.APIStatusError as e:
                raise SummaryError(f"{file_path}: {self._describe(e)}") from None
            except openai.OpenAIError as e:
                raise SummaryError(f"{file_path}: {self._scrub(str(e))}") from None
            if not response.choices:
                raise SummaryError(f"{file_path}: model {self.model!r} returned no choices")
            answer = response.choices[0].message.content or ""
            usage: Any = response.usage
            tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
            tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
            return answer, tokens_in, tokens_out
        raise AssertionError("unreachable")

    def _stop(self, why: str) -> None:
        if not self._stopped.is_set():
            self._why = why
            self._stopped.set()

    def _delay(self, attempt: int, error: Exception) -> float:
        delay = self.base_delay * 2**attempt
        response = getattr(error, "response", None)
        if response is not None:
            with contextlib.suppress(ValueError):  # a date instead of seconds: keep our own delay
                delay = max(delay, float(response.headers.get("retry-after", 0)))
        return min(delay, MAX_BACKOFF)

    def _describe(self, error: Exception) -> str:
        if isinstance(error, openai.APITimeoutError):
            return f"request to {self._client.base_url} timed out"
        if isinstance(error, openai.APIConnectionError):
            return f"cannot connect to {self._client.base_url}"
        if isinstance(error, openai.APIStatusError):
            hint = " (check OPENAI_API_KEY)" if error.status_code == 401 else ""
            return f"API error {error.status_code} from {self._client.base_url}{hint}: {self._scrub(error.message)}"
        return self._scrub(str(error))

    def _scrub(self, message: str) -> str:
        """``message`` without the API key (some servers echo it back)."""
        secret = getattr(self._client, "api_key", None)
        return message.replace(secret, "***") if isinstance(secret, str) and secret else message
