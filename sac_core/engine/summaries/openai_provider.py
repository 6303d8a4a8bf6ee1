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

from .config import SummaryConfig
from .errors import SummaryError
from .length import control_length, max_output_tokens, shorten_document
from .prompts import Prompt
from .provider import SummaryResult

log = logging.getLogger(__name__)

MAX_BACKOFF = 60.0  # seconds


class OpenAIProvider:
    """Chat-completions summariser; thread-safe (one shared client), so documents may run in parallel."""

    name = "openai"

    def __init__(self, config: SummaryConfig, *, api_key: str, base_url: str | None = None) -> None:
        """``config``: model, temperatures, retry limits, input budget (tokens), timeouts and the
        deadline (seconds); ``base_url``: the endpoint (None: api.openai.com)."""
        import openai  # ~1 s to import: only when summaries are requested (`sac --help` stays instant)

        self.config = config  # holds no secret: SummaryConfig has no key field
        self.model = config.model
        self._stopped = threading.Event()  # set when a document gave up: the server is unusable
        self._why = ""
        timeout = openai.Timeout(config.timeout, connect=config.connect_timeout)
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout)

    def __repr__(self) -> str:
        return f"OpenAIProvider(model={self.model!r}, base_url={str(self._client.base_url)!r})"

    def summarize(self, file_path: str, text: str, prompt: Prompt, char_length: int) -> SummaryResult:
        document = shorten_document(text, self.config.max_input_tokens, self.model)
        if document.truncated:
            log.info(
                "%s: %d tokens > %d, summarising head and tail",
                file_path,
                document.tokens,
                self.config.max_input_tokens,
            )
        messages: list[dict[str, str]] = [{"role": "user", "content": prompt.render(document.text, char_length)}]
        usage = [0, 0]

        def ask(target: int, previous: str | None) -> str:
            if previous is not None:
                messages.append({"role": "assistant", "content": previous})
                messages.append({"role": "user", "content": prompt.retry_message(target)})
            temperature = self.config.temperature if previous is None else self.config.retry_temperature
            answer, tokens_in, tokens_out = self._chat(file_path, messages, temperature, max_output_tokens(char_length))
            usage[0] += tokens_in
            usage[1] += tokens_out
            if not answer.strip():
                raise SummaryError(f"{file_path}: model {self.model!r} returned an empty summary")
            return answer

        result = control_length(ask, char_length, self.config.max_retries_length)
        if result.cut:
            retries, length = len(result.attempts) - 1, result.attempts[-1][1]
            log.info("%s: still %d characters after %d retries, cut at a word boundary", file_path, length, retries)
        return SummaryResult(result.summary, result.attempts, usage[0], usage[1])

    def _chat(
        self, file_path: str, messages: list[dict[str, str]], temperature: float, max_tokens: int
    ) -> tuple[str, int, int]:
        """One completion: (answer, input tokens, output tokens), retrying transient failures until
        ``max_retries_api`` retries or ``deadline`` seconds have passed, whichever comes first."""
        import openai

        retryable = (
            openai.RateLimitError,
            openai.InternalServerError,
            openai.APITimeoutError,
            openai.APIConnectionError,
        )
        c = self.config
        t0 = time.monotonic()
        ends = t0 + c.deadline
        for attempt in range(c.max_retries_api + 1):
            if self._stopped.is_set():
                raise SummaryError(f"{file_path}: not requested: {self._why}")
            left = max(0.1, ends - time.monotonic())
            try:
                response = self._client.chat.completions.create(
                    model=self.model,
                    messages=messages,  # type: ignore[arg-type]
                    temperature=temperature,
                    max_tokens=max_tokens,
                    timeout=openai.Timeout(min(c.timeout, left), connect=min(c.connect_timeout, left)),
                )
            except retryable as e:
                delay = self._delay(attempt, e)
                if attempt == c.max_retries_api or time.monotonic() + delay >= ends:
                    spent = time.monotonic() - t0
                    why = f"{self._describe(e)}; gave up after {attempt + 1} requests in {spent:.0f} s"
                    self._stop(why)
                    raise SummaryError(f"{file_path}: {why}") from None
                log.warning(
                    "%s: %s; retry %d of %d in %.1f s",
                    file_path,
                    self._describe(e),
                    attempt + 1,
                    c.max_retries_api,
                    delay,
                )
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
        delay = self.config.retry_base_delay * 2**attempt
        response = getattr(error, "response", None)
        if response is not None:
            with contextlib.suppress(ValueError):  # a date instead of seconds: keep our own delay
                delay = max(delay, float(response.headers.get("retry-after", 0)))
        return min(delay, MAX_BACKOFF)

    def _describe(self, error: Exception) -> str:
        import openai

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
