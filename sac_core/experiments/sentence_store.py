"""The sentence embeddings passage methods read: made on demand, or all at once ahead of time.

Sentence vectors live in the embedder's content-addressed cache (one entry per sentence text),
like chunk vectors. A run from the command line or a sweep embeds only the sentences its queries
need (the routed document's best chunks'); ``sac index`` and the dashboard's background builds
(``ctx.save``) embed every sentence of every document once and leave a small marker file
(``<cache>/sentences/<key>.json``, the store's kind ``sentences``: the key hashes the model, its
weights, the backend, the sentence length, the documents' content and the libraries' versions), so the dashboard (``ctx.build`` False) can tell at once whether a
new question will be answered without embedding: when the marker is missing it raises
:class:`~.plugins.NotBuilt` and the page starts a background build instead of blocking.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from ..engine import store
from ..engine.embedding import model_id
from ..engine.embedding.models import packaged_version
from ..engine.retrieval.sentences import SentenceIndex
from .config import RunConfig
from .index_store import content_hashes
from .plugins import NotBuilt, OpenContext


def sentences_key(config: RunConfig, ctx: OpenContext, max_chars: int) -> str:
    recipe = {
        "model": model_id(config.model),
        "weights": packaged_version(config.model) or "",
        "backend": config.backend,
        "max_chars": max_chars,
        "libraries": store.library_versions(config.backend),
        "documents": content_hashes(ctx.bench, None)["documents"],
    }
    return store.key("sentences", recipe)


def marker_path(config: RunConfig, ctx: OpenContext, max_chars: int) -> Path:
    return store.folder(ctx.cache_dir, "sentences") / f"{sentences_key(config, ctx, max_chars)}.json"


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
