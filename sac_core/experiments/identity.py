"""A result's identity: every input that can change it, hashed into a cell id.

A sweep cell (one configuration evaluated on one benchmark) is reused, from the cell cache or from
a committed sweep folder, only when its id is the same, and the id covers every input:

- ``config``: every setting of the run (:meth:`RunConfig.columns`, and the cut-offs ``ks``);
- ``data``: the benchmark's content (:attr:`Benchmark.digest`: every query's id, text and gold
  spans, every document's path and SHA-256, how the queries were derived);
- ``summaries``: the SHA-256 of the summary texts the method and each stage read;
- ``plugins``: the ``version`` of the method and of every active stage, and the fingerprints of
  what they read beyond all this (:meth:`Method.inputs`: a labelled bank's contents, a run file);
- ``model``: the embedding model's canonical id, its packaged weights' version, the backend;
- ``code``: the versions of the libraries that decide a ranking (chunker, BM25, FAISS, the
  sentence splitter, the backend's runtime) and of the scoring (:data:`SCORING_VERSION`).

Paths of the machine are never part of it: the same experiment on a copy of the same data has the
same id on any machine. :data:`IDENTITY_VERSION` is bumped when this payload's layout changes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version

from ..engine.data import Benchmark
from ..engine.embedding import model_id
from ..engine.embedding.models import packaged_version
from ..engine.metrics import SCORING_VERSION
from .config import RunConfig, option_is_path
from .plugins import Method, OpenContext, Stage

IDENTITY_VERSION = 2  # 1: config + query ids, gold spans, document paths and lengths (before 2026-11)
ID_CHARS = 16  # hex digits of a cell id
DIGEST_CHARS = 12  # hex digits of a data digest as result tables show it
# The libraries whose version can change a ranking (pyproject.toml pins them); per backend its runtime.
LIBRARIES = ("langchain-text-splitters", "bm25s", "faiss-cpu", "nupunkt")
RUNTIMES = {"torch": "torch", "onnx": "onnxruntime", "onnx-int8": "onnxruntime"}


@dataclass(frozen=True)
class CellInputs:
    """What a cell's id hashes (see the module docstring), as plain JSON values."""

    payload: Mapping[str, object] = field(default_factory=dict)

    @property
    def id(self) -> str:
        text = json.dumps(self.payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_CHARS]

    @property
    def settings(self) -> Mapping[str, object]:
        """The configuration's settings as the payload holds them (:func:`config_settings`)."""
        found = self.payload.get("config")
        return found if isinstance(found, Mapping) else {}

    @property
    def data_digest(self) -> str:
        """The benchmark's content digest, shortened as result tables show it."""
        return str(self.payload.get("data", ""))[:DIGEST_CHARS]


def texts_digest(texts: Mapping[str, str]) -> str:
    """SHA-256 (hex) over ``key → text`` pairs, in key order (summaries by document path)."""
    h = hashlib.sha256()
    for key in sorted(texts):
        h.update(json.dumps([key, texts[key]], ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def config_settings(config: RunConfig) -> dict[str, object]:
    """Every setting of ``config`` as the identity holds it: its columns without the derived
    ``variant`` and without paths of the machine (the summary file, an option that names a folder:
    what was read there is fingerprinted instead), plus ``ks``."""
    paths = {
        "variant",
        "summary_file",
        *(f"option_{k.replace('.', '_')}" for k, _ in config.options if option_is_path(k)),
    }
    columns = {k: v for k, v in config.columns().items() if k not in paths}
    return {**columns, "ks": list(config.ks)}


@lru_cache(maxsize=8)
def _library(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return ""


def code_versions(config: RunConfig) -> dict[str, str]:
    """The versions of the libraries that decide ``config``'s rankings, and of the scoring."""
    libraries = [*LIBRARIES, RUNTIMES.get(config.backend, config.backend)]
    return {**{name: _library(name) for name in libraries}, "scoring": str(SCORING_VERSION)}


def cell_inputs(config: RunConfig, ctx: OpenContext, *, cached_only: bool = False) -> CellInputs:
    """Every input of ``config`` evaluated on ``ctx.bench`` (see the module docstring). The summaries
    read are fetched through ``ctx`` (cached; with ``cached_only`` nothing is requested and a
    summary not made yet raises ``SummaryError``)."""
    parts: list[Method[RunConfig] | Stage[RunConfig]] = [config.method_plugin, *config.stages]
    summaries = {}
    for part in parts:
        wanted = part.summaries(config)
        if wanted is not None:
            summaries[part.name] = texts_digest(ctx.summaries(wanted, cached_only=cached_only))
    payload = {
        "identity": IDENTITY_VERSION,
        "config": config_settings(config),
        "data": ctx.bench.digest,
        "summaries": summaries,
        "plugins": {part.name: {"version": part.version, **part.inputs(config, ctx)} for part in parts},
        "model": {
            "id": model_id(config.model),
            "weights": packaged_version(config.model) or "",
            "backend": config.backend,
        },
        "code": code_versions(config),
    }
    return CellInputs(json.loads(json.dumps(payload, default=str)))


def bench_digest(bench: Benchmark) -> str:
    """The benchmark's content digest (:attr:`Benchmark.digest`)."""
    return bench.digest
