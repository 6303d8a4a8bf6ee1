"""Embeddings with a disk cache: nothing is ever encoded twice.

An :class:`Embedder` runs one model on one backend (:mod:`.encoders`). Vectors are
L2-normalised float32, so inner product = cosine.

Cache: the ``embeddings`` kind of the store (:mod:`sac_core.engine.store`), one entry per text,
addressed by the text: key ``"<model id>[#<weights>][@<backend>]|<sha256 of the exact text>"``
(:func:`text_key`, unchanged since the first vector was cached), value the vector's float32 bytes. Each encoded batch (``write_every`` texts, by default one model batch:
well under a second of work) is written in one transaction and reported to ``on_progress``, so
an interrupted run loses at most that batch and resumes where it stopped.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import diskcache
import numpy as np

from .. import store
from ..progress import progress_bar
from .encoders import BACKENDS, Encoder, load_encoder
from .models import model_id, packaged_version


class Embedders:
    """One :class:`Embedder` per (model, backend) over one cache folder, created on first use and
    then shared (a run, a sweep or a page may need several models)."""

    def __init__(self, cache_dir: Path) -> None:
        self.cache_dir = Path(cache_dir)
        self._made: dict[tuple[str, str], Embedder] = {}

    def get(self, model: str, backend: str) -> Embedder:
        if (model, backend) not in self._made:
            self._made[(model, backend)] = Embedder(model, self.cache_dir, backend=backend)
        return self._made[(model, backend)]

    def add(self, embedder: Embedder) -> None:
        """Share an embedder made elsewhere (e.g. one a server keeps loaded)."""
        self._made[(embedder.model, embedder.backend)] = embedder

    @property
    def encoded(self) -> int:
        """Texts the embedders made here actually sent through a model (cache misses)."""
        return sum(e.encoded for e in self._made.values())


WEIGHTS_MARK = "weights-of|"  # + model id: the cache entry naming the release its plain keys hold


def text_key(model: str, text: str, backend: str = "torch", weights: str = "") -> str:
    """Cache key. ONNX vectors agree with torch to ~1e-6 but are not bit-identical: own keys.
    ``weights``: the :func:`weights_tag` of the model's weights in this cache."""
    suffix = "" if backend == "torch" else f"@{backend}"
    return store.key("embeddings", [f"{model_id(model)}{weights}{suffix}"], text=text)


def weights_tag(cache: diskcache.Cache, model: str) -> str:
    """What a vector's key adds for the model's packaged weights: nothing for the release the cache
    first saw (its vectors, all made before the tag existed, stay valid), ``#<package>==<version>``
    for any other, so vectors of old weights are never read for new ones. Models not shipped in a
    package (a folder, a hub name) have no version to tell: nothing."""
    version = packaged_version(model)
    if version is None:
        return ""
    mark = f"{WEIGHTS_MARK}{model_id(model)}"
    cache.add(mark, version)  # kept only when no release was recorded yet (atomic)
    return "" if cache.get(mark) == version else f"#{version}"


class Embedder:
    """Encode texts with one model, reading and filling the disk cache."""

    def __init__(
        self, model: str, cache_dir: Path, batch_size: int = 32, backend: str = "torch", write_every: int | None = None
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown embedding backend {backend!r}; choose one of {', '.join(BACKENDS)}")
        self.model = model
        self.backend = backend
        self.cache_dir = cache_dir
        self.batch_size = batch_size
        self.write_every = write_every or batch_size  # texts per cache transaction and progress update
        self.cache = store.entries(cache_dir, "embeddings")  # never drops paid-for work
        self.encoded = 0  # texts this object actually sent through the model (cache misses)
        self._encoder: Encoder | None = None
        self._encoder_lock = threading.Lock()
        self._preloading: threading.Thread | None = None
        self.weights = weights_tag(self.cache, model)

    @property
    def encoder(self) -> Encoder:
        """The model, loaded on first use (a cache miss or :meth:`preload`), once, whichever thread asks."""
        with self._encoder_lock:
            if self._encoder is None:
                self._encoder = load_encoder(self.model, self.backend, self.cache_dir)
            return self._encoder

    def preload(self) -> threading.Thread | None:
        """Load the model in a background thread, if not loaded yet: a server calls this once a page
        is drawn, so the first question typed does not wait seconds for it; a search meanwhile waits."""
        if self._encoder is not None:
            return None
        if self._preloading is None:  # one loader thread however often a page asks
            self._preloading = threading.Thread(target=lambda: self.encoder, name=f"preload {self.model}", daemon=True)
            self._preloading.start()
        return self._preloading

    @property
    def dim(self) -> int:
        return int(self.encoder.dim)

    def cached(self, texts: Sequence[str]) -> bool:
        """Whether every text's vector is in the cache already (encoding them embeds nothing)."""
        return all(text_key(self.model, t, self.backend, self.weights) in self.cache for t in texts)

    def missing(self, texts: Sequence[str]) -> dict[str, str]:
        """``cache key → text`` of the distinct texts whose vector is not cached yet (nothing is read)."""
        keys = {text_key(self.model, t, self.backend, self.weights): t for t in texts}
        return {key: text for key, text in keys.items() if key not in self.cache}

    def fill(self, texts: Sequence[str], *, progress: bool = True, desc: str = "embedding") -> int:
        """Put every text's vector in the cache (nothing returned, nothing read back): what a run
        embeds ahead of its work. Returns how many texts the model encoded now."""
        missing = self.missing(texts)
        if missing:
            self._fill(missing, {}, progress=progress, desc=desc, on_progress=None)
        return len(missing)

    def encode(
        self,
        texts: Sequence[str],
        *,
        progress: bool = True,
        desc: str = "embedding",
        on_progress: Callable[[int, int], None] | None = None,
        cache: bool = True,
    ) -> np.ndarray:
        """Vectors for ``texts`` in order, shape (len(texts), dim), float32, unit length.

        ``on_progress(done, total)`` is called after each encoded block of cache misses (for UIs).
        ``cache=False`` encodes without reading or writing the cache (latency measurements).
        """
        if not cache:
            self.encoded += len(texts)
            return self.encoder.encode(list(texts), batch_size=self.batch_size)
        keys = [text_key(self.model, t, self.backend, self.weights) for t in texts]
        unique: dict[str, np.ndarray | None] = dict.fromkeys(keys)  # key → vector, first-seen order
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if unique[key] is None:
                raw = self.cache.get(key)
                if raw is None:
                    missing[key] = text
                else:
                    unique[key] = np.frombuffer(raw, dtype=np.float32)
        if missing:
            # why fewer texts are embedded than given: repeated texts are embedded once, cached ones not again
            repeated, cached = len(keys) - len(unique), len(unique) - len(missing)
            desc = f"{desc} ({len(missing):,} new of {len(keys):,}: {repeated:,} repeated, {cached:,} cached)"
            self._fill(missing, unique, progress=progress, desc=desc, on_progress=on_progress)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([v for v in (unique[k] for k in keys) if v is not None]).astype(np.float32, copy=False)

    def _fill(
        self,
        missing: dict[str, str],
        out: dict[str, np.ndarray | None],
        *,
        progress: bool,
        desc: str,
        on_progress: Callable[[int, int], None] | None,
    ) -> None:
        order = sorted(missing, key=lambda k: len(missing[k]))  # similar lengths batch with less padding
        encoder = self.encoder  # load the model first, so the progress clock times only the encoding
        bar = progress_bar(total=len(order), desc=desc, unit="text", disable=not progress)
        if on_progress:
            on_progress(0, len(order))  # the work starts: lets a caller time it
        # Blocks of similar lengths (little padding), taken in a fixed shuffled order: the rate seen
        # so far is then a fair estimate of the rate to come, and so is the time left.
        starts = list(range(0, len(order), self.write_every))
        random.Random(len(order)).shuffle(starts)
        done = 0
        for start in starts:
            block = order[start : start + self.write_every]
            # another process on the same cache (a sweep beside `sac index`, Ray workers) may have
            # embedded some of them meanwhile: read those, encode only the rest
            todo = []
            for key in block:
                raw = self.cache.get(key)
                if raw is None:
                    todo.append(key)
                else:
                    out[key] = np.frombuffer(raw, dtype=np.float32)
            vecs = encoder.encode([missing[k] for k in todo], batch_size=self.batch_size) if todo else ()
            with self.cache.transact():
                for key, vec in zip(todo, vecs):
                    self.cache.set(key, vec.tobytes())
                    out[key] = vec
            self.encoded += len(todo)
            done += len(block)
            bar.update(len(block))
            if on_progress:
                on_progress(done, len(order))
        bar.close()
