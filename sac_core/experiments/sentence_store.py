"""The sentence embeddings passage methods read: made on demand, or all at once ahead of time.

Sentence vectors live in the embedder's content-addressed cache (one entry per sentence text),
like chunk vectors. A run from the command line or a sweep embeds only the sentences its queries
need (the routed document's best chunks'); ``sac index`` and the dashboard's background builds
(``ctx.save``) embed every sentence of every document once and leave a small marker file
(``<cache>/sentences/<key>.json``, the key hashing the model, the backend, the sentence settings
and the documents' content), so the dashboard (``ctx.build`` False) can tell at once whether a
new question will be answered without embedding: when the marker is missing it raises
:class:`~.plugins.NotBuilt` and the page starts a background build instead of blocking.
"""

from __future__ import annotations

import hashlib
import json
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..engine.embedding import model_id
from ..engine.retrieval.sentences import SentenceIndex
from .config import RunConfig
from .index_store import content_hashes
from .plugins import NotBuilt, OpenContext

SENTENCES = "sentences"  # folder under the cache directory


def _segmenter_version() -> str:
    try:
        return version("nupunkt")
    except PackageNotFoundError:  # pragma: no cover - a requirement
        return "unknown"


def sentences_key(config: RunConfig, ctx: OpenContext, max_chars: int) -> str:
    payload = {
        "model": model_id(config.model),
        "backend": config.backend,
        "max_chars": max_chars,
        "segmenter": _segmenter_version(),
        "documents": content_hashes(ctx.bench, None)["documents"],
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def marker_path(config: RunConfig, ctx: OpenContext, max_chars: int) -> Path:
    return Path(ctx.cache_dir) / SENTENCES / f"{sentences_key(config, ctx, max_chars)}.json"


def open_sentences(config: RunConfig, ctx: OpenContext, max_chars: int, *, embedded: bool = True) -> SentenceIndex:
    """The benchmark documents' sentences over the run's embedder (see the module docstring):
    embedded all at once when ``ctx.save``; :class:`NotBuilt` when ``ctx.build`` is False and they
    were not; otherwise embedded on demand. ``embedded`` False: a method that reads only the
    sentences' spans and text (nothing to precompute)."""
    embedder = ctx.embedders.get(config.model, config.backend)
    index = SentenceIndex({fp: d.text for fp, d in ctx.bench.documents.items()}, embedder, max_chars)
    marker = marker_path(config, ctx, max_chars)
    if not embedded or marker.is_file():
        return index
    if ctx.save:
        t0 = time.perf_counter()
        texts = index.all_texts()
        embedder.encode(texts, progress=ctx.progress, desc="embedding sentences", on_progress=ctx.on_progress)
        marker.parent.mkdir(parents=True, exist_ok=True)
        record = {"sentences": len(texts), "documents": len(ctx.bench.documents), "seconds": time.perf_counter() - t0}
        marker.write_text(json.dumps(record), encoding="utf-8")
        ctx.say(f"sentences: {len(texts):,} of {len(ctx.bench.documents)} documents embedded → {marker}")
        return index
    if not ctx.build:
        raise NotBuilt("sentence embeddings of the documents")
    return index
