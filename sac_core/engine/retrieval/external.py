"""Retrievers the project did not write: an imported run, or any object with
``retrieve(query: str, k: int) -> list[Snippet]`` named ``module:factory``, as :class:`Ranker` s.

The metrics count whatever span a snippet gives (:mod:`.ranker`); here every snippet is checked
first: its document must exist (the benchmark's pool, or the corpus folder), its span lie inside
the text, and a text it carries equal the document's characters at that span. A snippet that
fails raises :class:`ExternalError` naming the retriever, the query and the snippet: wrong
offsets would otherwise be scored as if they were right.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from .. import store
from ..chunking import Chunk
from ..data import Query, Snippet
from .ranker import Hit, Ranker


class ExternalError(ValueError):
    """An external retriever or run gave something that is not a valid snippet (the message says
    which retriever, query and snippet), or its factory cannot be loaded."""


class SnippetRetriever(Protocol):
    """What ``--retriever module:factory`` must return: ranked snippets, best first."""

    def retrieve(self, query: str, k: int) -> Sequence[Any]: ...


Documents = Callable[[str], str | None]  # file_path → the document's text, or None: no such document


def _hit(snippet: Snippet, text: str) -> Hit:
    score = float("nan") if snippet.score is None else float(snippet.score)
    chunk = Chunk(snippet.file_path, snippet.start, snippet.end, text[snippet.start : snippet.end])
    return Hit(chunk, score)


class RunRanker(Ranker):
    """An imported run: each benchmark query answered from the run (best first, up to k); any other
    text (a question typed on the Compare page) gets nothing, since the run never saw it."""

    def __init__(self, run: Mapping[str, Sequence[Snippet]], queries: Sequence[Query], documents: Documents) -> None:
        self.run = dict(run)
        self.by_text: dict[str, str] = {}
        for q in queries:
            self.by_text.setdefault(q.text, q.query_id)  # two queries with one text: the first (see search_queries)
        self.documents = documents
        self._texts: dict[str, str] = {}

    def _text(self, file_path: str) -> str:
        if file_path not in self._texts:
            text = self.documents(file_path)
            if text is None:
                raise ExternalError(f"imported run: document {file_path!r} is no longer in the corpus")
            self._texts[file_path] = text
        return self._texts[file_path]

    def hits(self, query_id: str | None, k: int) -> list[Hit]:
        snippets = self.run.get(query_id, ()) if query_id is not None else ()
        return [_hit(s, self._text(s.file_path)) for s in list(snippets)[:k]]

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        return [self.hits(self.by_text.get(text), k) for text in queries]

    def search_queries(self, queries: Sequence[Query], k: int, *, progress: bool = False) -> list[list[Hit]]:
        """By query id: exact even when two benchmark queries share a text."""
        return [self.hits(q.query_id, k) for q in queries]


def as_snippet(raw: object) -> Snippet:
    """A :class:`Snippet`, or a mapping / object with ``file_path`` and ``span`` (or ``start`` and
    ``end``), optionally ``score`` and ``text``, as a Snippet; ValueError when it is neither."""
    if isinstance(raw, Snippet):
        return raw
    get = raw.get if isinstance(raw, Mapping) else (lambda key, default=None: getattr(raw, key, default))
    fp, span = get("file_path"), get("span")
    start, end = (
        (span[0], span[1]) if isinstance(span, (list, tuple)) and len(span) == 2 else (get("start"), get("end"))
    )
    if not isinstance(fp, str) or not all(isinstance(x, int) and not isinstance(x, bool) for x in (start, end)):
        raise ValueError(f"not a snippet (file_path and span [start, end] integers): {_short(raw)}")
    score, text = get("score"), get("text")
    if score is not None and not isinstance(score, (int, float)):
        raise ValueError(f"snippet score must be a number, got {_short(score)}")
    return Snippet(fp, int(start), int(end), None if score is None else float(score), text)  # type: ignore[arg-type]


def check_snippet(snippet: Snippet, text: str | None) -> str | None:
    """What is wrong with ``snippet`` against its document's ``text`` (None: no such document), or None."""
    if text is None:
        return f"no document {snippet.file_path!r} in the corpus"
    if not 0 <= snippet.start < snippet.end:
        return f"span [{snippet.start}, {snippet.end}] is empty or negative"
    if snippet.end > len(text):
        return f"span [{snippet.start}, {snippet.end}) lies outside {snippet.file_path} ({len(text):,} characters)"
    if snippet.text is not None and text[snippet.start : snippet.end] != snippet.text:
        return (
            f"its text differs from the characters of {snippet.file_path} at [{snippet.start}, {snippet.end}): "
            "the offsets are not exact character offsets into the document"
        )
    return None


class RetrieverRanker(Ranker):
    """A live retriever (``retrieve(query, k) -> snippets``) as a :class:`Ranker`; every snippet checked."""

    def __init__(self, retriever: SnippetRetriever, documents: Documents, name: str) -> None:
        if not callable(getattr(retriever, "retrieve", None)):
            raise ExternalError(f"retriever {name}: {type(retriever).__name__} has no retrieve(query, k) method")
        self.retriever, self.documents, self.name = retriever, documents, name
        self._texts: dict[str, str | None] = {}

    def _text(self, file_path: str) -> str | None:
        if file_path not in self._texts:
            self._texts[file_path] = self.documents(file_path)
        return self._texts[file_path]

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        out = []
        for query in queries:
            hits, seen = [], set()
            for i, raw in enumerate(list(self.retriever.retrieve(query, k))[:k]):
                where = f"retriever {self.name}, query {_short(query, 60)}, snippet {i}"
                try:
                    snippet = as_snippet(raw)
                except ValueError as e:
                    raise ExternalError(f"{where}: {e}") from None
                text = self._text(snippet.file_path)
                problem = check_snippet(snippet, text)
                if problem is not None:
                    raise ExternalError(f"{where}: {problem}")
                key = (snippet.file_path, snippet.start, snippet.end)
                if key in seen:
                    raise ExternalError(f"{where}: the same snippet twice ({snippet.file_path} {list(key[1:])})")
                seen.add(key)
                hits.append(_hit(snippet, text))  # type: ignore[arg-type]  # checked above: not None
            out.append(hits)
        return out


def load_factory(spec: str) -> Callable[..., Any]:
    """The callable named ``module:attribute`` (``module`` importable, ``attribute`` may be dotted)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ExternalError(f"retriever factory {spec!r}: not module:factory")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ExternalError(f"retriever factory {spec!r}: cannot import {module_name} ({e})") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ExternalError(f"retriever factory {spec!r}: {module_name} has no {attr}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ExternalError(f"retriever factory {spec!r}: {attr} is not callable")
    return obj


def module_source_sha256(module: str) -> str:
    """SHA-256 of a module's source file, found without importing it ("" when it has none)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return ""
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        return ""
    return store.sha256(Path(spec.origin).read_bytes())


def make_retriever(spec: str, available: Mapping[str, object]) -> SnippetRetriever:
    """``factory(**kwargs)`` for the factory ``spec`` names, with those of ``available`` (e.g.
    ``documents``, ``data_dir``, ``cache_dir``) that its signature takes. An :class:`ExternalError`
    naming ``spec`` when the factory needs an argument none of ``available`` gives (``os:system``
    needs a command) or fails."""
    factory = load_factory(spec)
    try:
        params: Mapping[str, inspect.Parameter] = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        params = {}  # a builtin without a signature: call it bare
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs = {name: value for name, value in available.items() if takes_all or name in params}
    needed = [n for n, p in params.items() if p.default is p.empty and p.kind in _NAMED and n not in kwargs]
    if needed:
        raise ExternalError(
            f"retriever factory {spec!r}: needs {', '.join(needed)}; a factory may take only "
            f"{', '.join(available)} (by name)"
        )
    try:
        retriever: SnippetRetriever = factory(**kwargs)
    except Exception as e:  # the factory's own code: one line naming it, not a traceback
        raise ExternalError(f"retriever factory {spec!r} failed: {type(e).__name__}: {_short(str(e), 200)}") from None
    return retriever


_NAMED = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
