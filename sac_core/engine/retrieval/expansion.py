"""Query expansion: more versions of a query, their rankings fused by reciprocal rank (RRF).

- ``prf``: offline pseudo-relevance feedback (Rocchio in vector space): the query vector plus
  ``PRF_BETA`` × the mean vector of the first pass's top ``n`` chunks, re-normalised.
- ``llm``: ``n`` rewrites of the question from any OpenAI-compatible chat API, as LangChain's
  ``MultiQueryRetriever`` asks for them (one per line); Rainbow RAG's multi-query expansion and
  RAG-Fusion's rank fusion. Answers are kept in the store's ``expansions`` kind per (model, n, question): nothing paid
  for is asked twice. The API key builds the client and is stored nowhere.

The rankings of the versions are fused by :func:`sac_core.engine.indexes.rrf`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import store

PRF_BETA = 0.5
PROMPT = (
    "You are an assistant that helps a search engine over legal documents. Write {n} different "
    "versions of the question below, each on its own line, without numbering, so that together "
    "they find relevant passages a single wording would miss.\nQuestion: {question}"
)


class ExpansionError(RuntimeError):
    """A rewrite request failed (the message names the question, never the API key)."""


def prf_vector(query: np.ndarray, feedback: np.ndarray, beta: float = PRF_BETA) -> np.ndarray:
    """Rocchio: ``query + beta × mean(feedback)``, unit length (``feedback``: rows of unit vectors)."""
    v = np.asarray(query, dtype=np.float32) + beta * np.asarray(feedback, dtype=np.float32).mean(axis=0)
    return v / max(float(np.linalg.norm(v)), 1e-12)


class LLMRewriter:
    """Rewrites of a question from an OpenAI-compatible chat API, kept in the store (``expansions``)."""

    def __init__(
        self, cache_dir: Path, api_key: str | None, model: str = "gpt-4o-mini", base_url: str | None = None
    ) -> None:
        self.model = model
        self.cache = store.entries(Path(cache_dir), "expansions")
        import openai  # ~1 s to import: only when rewrites are asked for

        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, max_retries=3) if api_key else None
        self.requests = 0  # requests actually sent (cache misses)

    def _key(self, question: str, n: int) -> str:
        # JSON as first written (non-ASCII escaped), so the rewrites cached before stay readable
        return store.key("expansions", json.dumps([self.model, n, PROMPT, question]))

    def rewrites(self, question: str, n: int) -> list[str]:
        """Up to ``n`` rewrites (cached); raises :class:`ExpansionError` without a key or on API errors."""
        key = self._key(question, n)
        cached = self.cache.get(key)
        if isinstance(cached, list):
            return [str(x) for x in cached]
        if self._client is None:
            raise ExpansionError(f"query expansion 'llm' needs OPENAI_API_KEY (question {question[:60]!r})")
        import openai

        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=[{"role": "user", "content": PROMPT.format(n=n, question=question)}],
                temperature=0.0,
            )
        except openai.OpenAIError as e:
            secret = self._client.api_key
            raise ExpansionError(f"rewriting {question[:60]!r}: {str(e).replace(secret, '***')}") from None
        self.requests += 1
        answer = response.choices[0].message.content or "" if response.choices else ""
        lines = [line.strip(" -*\t0123456789.)") for line in answer.splitlines()]
        out = [line for line in lines if line and line != question][:n]
        self.cache.set(key, out)
        return out
