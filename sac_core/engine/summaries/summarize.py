"""Make (or read) one summary per document, cached and resumable; estimate and report what it costs."""

from __future__ import annotations

import logging
import math
import os
import queue
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .. import store
from ..progress import progress_bar
from .cache import KIND, cache_key
from .config import SummaryConfig, prompt_label
from .errors import SummaryError
from .extractive import ExtractiveProvider
from .file import FileProvider, check_coverage
from .length import Attempt, count_tokens, limit, shorten_document
from .openai_provider import OpenAIProvider
from .prompts import Prompt, load_prompt
from .provider import Provider

if TYPE_CHECKING:
    import diskcache

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

API_KEY_ENV = "OPENAI_API_KEY"
BASE_URL_ENV = "OPENAI_BASE_URL"


@dataclass(frozen=True)
class SummaryRecord:
    """One document's summary and how it was made. ``chars`` is the target length in characters;
    ``attempts`` lists (requested target, returned length) per model answer; tokens as reported by
    the API (0 for offline providers); ``cached`` is True when no request was made this run."""

    file_path: str
    summary: str
    provider: str
    model: str
    prompt_id: str
    prompt_version: int
    chars: int
    attempts: tuple[Attempt, ...]
    input_tokens: int
    output_tokens: int
    cached: bool


@dataclass(frozen=True)
class CostEstimate:
    """Tokens and US dollars for a set of documents (``estimated``: counted locally, not by the API)."""

    documents: int
    input_tokens: int
    output_tokens: int
    usd: float
    estimated: bool

    def __str__(self) -> str:
        kind = "estimated" if self.estimated else "reported"
        return (
            f"{self.documents} documents, {self.input_tokens:,} input + {self.output_tokens:,} output tokens "
            f"({kind}), ${self.usd:.4f}"
        )


def make_provider(config: SummaryConfig, *, api_key: str | None = None) -> Provider:
    """The provider ``config`` names; for ``openai`` the key is ``api_key`` or ``$OPENAI_API_KEY``."""
    if config.provider == "extractive":
        return ExtractiveProvider()
    if config.provider == "file":
        return FileProvider(_summary_file(config), prompt_label(config.prompt), config.chars)

    base_url = config.base_url or os.environ.get(BASE_URL_ENV) or None
    key = api_key or os.environ.get(API_KEY_ENV)
    if not key:
        if base_url is None:
            raise SummaryError(
                f"provider 'openai' needs an API key: set {API_KEY_ENV} (or pass api_key), "
                f"or set {BASE_URL_ENV} / base_url for a local server, or use provider 'extractive'"
            )
        key = "no-key"  # local OpenAI-compatible servers (vLLM, Ollama, llama.cpp) ignore it
    return OpenAIProvider(config, api_key=key, base_url=base_url)


def summarize_documents(
    documents: Mapping[str, str],
    config: SummaryConfig,
    cache_dir: Path,
    *,
    api_key: str | None = None,
    progress: bool = True,
    cached_only: bool = False,
) -> dict[str, SummaryRecord]:
    """``file_path → SummaryRecord`` for every document (``file_path → text``), in input order.

    Summaries come from the cache when present and are cached as soon as they arrive, so an
    interrupted run resumes where it stopped. Provider ``file`` reads its JSONL instead and
    fails, naming the file, if any document has no summary there. ``cached_only``: make none,
    raise :class:`SummaryError` when some are not cached (nothing is requested or paid for).
    """
    if config.provider == "file":
        return _from_file(documents, config)
    prompt = load_prompt(config.prompt)
    model = config.model if config.provider == "openai" else ExtractiveProvider.model
    ident = _Identity(config.provider, model, config.generation_key)
    with store.entries(Path(cache_dir), KIND) as cache:
        records, todo = _from_cache(documents, cache, ident, prompt, config.chars)
        if not todo:  # everything cached: no provider needed (no key, no network)
            return {file_path: records[file_path] for file_path in documents}
        if cached_only:
            raise SummaryError(f"{len(todo)} of {len(documents)} summaries ({config.provider}) are not made yet")
        provider = make_provider(config, api_key=api_key)

        def work(file_path: str, text: str, key: str) -> tuple[str, dict[str, Any]]:
            result = provider.summarize(file_path, text, prompt, config.chars)
            value = {
                "summary": result.summary,
                "attempts": [list(a) for a in result.attempts],
                "input_tokens": result.input_tokens,
                "output_tokens": result.output_tokens,
            }
            cache.set(key, value)  # at once: a crash later loses nothing
            return file_path, value

        label = f"summaries ({provider.name}, {prompt.id}, {config.chars} chars)"
        bar = progress_bar(total=len(documents), initial=len(records), desc=label, unit="doc", disable=not progress)
        with bar:
            done: Iterator[tuple[str, dict[str, Any]]]
            if config.provider != "openai":  # offline: no network, nothing to wait for
                done = (work(*item) for item in todo)
            else:
                done = in_daemon_threads(lambda item: work(*item), todo, config.concurrency)
            for file_path, value in done:
                records[file_path] = _record(file_path, value, provider, prompt, config.chars, cached=False)
                bar.update()
    if todo:
        log.info("summaries: %d new, %d from cache", len(todo), len(documents) - len(todo))
    return {file_path: records[file_path] for file_path in documents}


def _from_cache(
    documents: Mapping[str, str], cache: diskcache.Cache, ident: _Identity, prompt: Prompt, chars: int
) -> tuple[dict[str, SummaryRecord], list[tuple[str, str, str]]]:
    """The cached summaries (``file_path → record``) and the rest to make: (file_path, text, key)."""
    records: dict[str, SummaryRecord] = {}
    todo: list[tuple[str, str, str]] = []
    for file_path, text in documents.items():
        key = cache_key(ident.name, ident.model, prompt, chars, text, ident.generation)
        hit = cache.get(key)
        if isinstance(hit, dict):
            records[file_path] = _record(file_path, hit, ident, prompt, chars, cached=True)
        else:
            todo.append((file_path, text, key))
    return records, todo


def in_daemon_threads(fn: Callable[[T], R], items: Sequence[T], workers: int, poll: float = 0.2) -> Iterator[R]:
    """``fn(item)`` for every item in ``workers`` daemon threads, results as they come. After an
    error no item is started, the ones in flight are waited for (their results are ``fn``'s to
    keep, e.g. in a cache), then the first error is raised.

    Daemon threads and a polling wait, so that a server stopping never waits for a request in
    flight: once the main thread has ended (the interpreter is shutting down) the wait ends with a
    :class:`SummaryError` within ``poll`` seconds, and the threads die with the process.
    """
    todo: queue.SimpleQueue[T] = queue.SimpleQueue()
    for item in items:
        todo.put(item)
    results: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    lock = threading.Lock()
    state = {"started": 0, "failed": False}

    def run() -> None:
        while True:
            with lock:  # taking an item and counting it is one step: the caller knows what is in flight
                if state["failed"]:
                    return
                try:
                    item = todo.get_nowait()
                except queue.Empty:
                    return
                state["started"] += 1
            try:
                results.put((True, fn(item)))
            except BaseException as e:  # handed to the caller, who raises it
                with lock:
                    state["failed"] = True
                results.put((False, e))

    for n in range(max(1, min(workers, len(items)))):
        threading.Thread(target=run, name=f"summaries-{n}", daemon=True).start()
    received, error = 0, None
    while received < len(items):
        with lock:
            if error is not None and received == state["started"]:
                break  # everything started has ended
        try:
            ok, value = results.get(timeout=poll)
        except queue.Empty:
            if not threading.main_thread().is_alive():
                raise SummaryError("the server is stopping: summaries not finished") from None
            continue
        received += 1
        if not ok and error is None:
            error = value
        elif ok and error is None:
            yield value
    if error is not None:
        raise error


def estimate_cost(documents: Mapping[str, str], config: SummaryConfig, cache_dir: Path | None = None) -> CostEstimate:
    """Tokens and USD the ``openai`` provider would spend (0 USD for other providers).

    Input: the rendered prompt of each document (after head/tail shortening); output: one summary
    of ``chars`` characters. Length retries would add to both. With ``cache_dir``, documents
    already cached are not counted.
    """
    prompt = load_prompt(config.prompt) if config.provider != "file" else None
    input_tokens = output_tokens = counted = 0
    cache = store.entries(Path(cache_dir), KIND) if cache_dir is not None and prompt is not None else None
    try:
        for text in documents.values():
            if cache is not None and prompt is not None:
                model = config.model if config.provider == "openai" else ExtractiveProvider.model
                if cache_key(config.provider, model, prompt, config.chars, text, config.generation_key) in cache:
                    continue
            counted += 1
            if prompt is not None:
                shortened = shorten_document(text, config.max_input_tokens, config.model)
                input_tokens += count_tokens(prompt.render(shortened.text, config.chars), config.model)
                output_tokens += math.ceil(config.chars / 4)
    finally:
        if cache is not None:
            cache.close()
    usd = _usd(input_tokens, output_tokens, config) if config.provider == "openai" else 0.0
    return CostEstimate(counted, input_tokens, output_tokens, usd, estimated=True)


def run_cost(records: Mapping[str, SummaryRecord], config: SummaryConfig) -> CostEstimate:
    """Tokens the API reported for the summaries made in this run (cached ones cost nothing)."""
    new = [r for r in records.values() if not r.cached]
    tokens_in = sum(r.input_tokens for r in new)
    tokens_out = sum(r.output_tokens for r in new)
    usd = _usd(tokens_in, tokens_out, config) if config.provider == "openai" else 0.0
    return CostEstimate(len(new), tokens_in, tokens_out, usd, estimated=False)


def _usd(input_tokens: int, output_tokens: int, config: SummaryConfig) -> float:
    return (input_tokens * config.price_input_per_m + output_tokens * config.price_output_per_m) / 1_000_000


@dataclass(frozen=True)
class _Identity:
    """What names a provider in the cache key and in records (without building a client)."""

    name: str
    model: str
    generation: str = ""  # SummaryConfig.generation_key: in the cache key, not in records


def _record(
    file_path: str, value: dict[str, Any], provider: Provider | _Identity, prompt: Prompt, chars: int, *, cached: bool
) -> SummaryRecord:
    return SummaryRecord(
        file_path=file_path,
        summary=value["summary"],
        provider=provider.name,
        model=provider.model,
        prompt_id=prompt.id,
        prompt_version=prompt.version,
        chars=chars,
        attempts=tuple((int(a[0]), int(a[1])) for a in value["attempts"]),
        input_tokens=int(value["input_tokens"]),
        output_tokens=int(value["output_tokens"]),
        cached=cached,
    )


def _summary_file(config: SummaryConfig) -> Path:
    if config.summary_file is None:
        raise SummaryError(
            "provider 'file' needs summary_file (a JSONL file of summaries, e.g. <data>/summaries/llm.jsonl)"
        )
    return Path(config.summary_file)


@lru_cache(maxsize=256)
def _warn_too_long(path: str, label: str, count: int, chars: int) -> None:
    """Logged once per (file, prompt, count, limit) by a process: every index, column and page that
    reads the same summaries would otherwise repeat it (up to six times a file on one server)."""
    log.warning("%s: %d %s summaries exceed %d characters (kept as they are)", path, count, label, chars)


def _from_file(documents: Mapping[str, str], config: SummaryConfig) -> dict[str, SummaryRecord]:
    label = prompt_label(config.prompt)
    provider = FileProvider(_summary_file(config), label, config.chars)
    check_coverage(provider.summaries, documents, provider.path, label, config.chars)
    too_long = [fp for fp in documents if len(provider.summaries[fp]) > limit(config.chars)]
    if too_long:
        _warn_too_long(str(provider.path), label, len(too_long), limit(config.chars))
    return {
        fp: SummaryRecord(
            fp, provider.summaries[fp], "file", provider.model, label, 0, config.chars, (), 0, 0, cached=False
        )
        for fp in documents
    }
