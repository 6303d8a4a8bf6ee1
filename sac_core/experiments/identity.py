"""A result's identity: every input that can change it, hashed into a cell id.

A sweep cell (one configuration evaluated on one benchmark) is reused, from the cell cache or from
a committed sweep folder, only when its id is the same, and the id covers every input:

- ``config``: every setting of the run (:meth:`RunConfig.columns`, and the cut-offs ``ks``);
- ``data``: the benchmark's content (:attr:`Benchmark.digest`: every query's id, text and gold
  spans, every document's path and SHA-256, how the queries were derived);
- ``summaries``: the SHA-256 of the summary texts the method and each stage read;
- ``plugins``: the ``version`` of the method and of every active stage, where it comes from when
  not from this project (``package``: the installed distribution and its version; ``source``: the
  SHA-256 of a module of no distribution), and the fingerprints of what they read beyond all this
  (:meth:`Method.inputs`: a labelled bank's contents, a run file);
- ``model``: the embedding model's canonical id, its packaged weights' version, the backend;
- ``code``: the versions of the libraries that decide a ranking (:data:`~sac_core.engine.store.LIBRARIES`:
  chunker, BM25, FAISS, the sentence splitter; the backend's runtime) and of the scoring
  (:data:`SCORING_VERSION`).

Paths of the machine are never part of it: the same experiment on a copy of the same data has the
same id on any machine. The id is the store's key of kind ``cells`` (:func:`sac_core.engine.store.key`).
:data:`IDENTITY_VERSION` is bumped when this payload's layout changes. The summaries are hashed as
texts, not as how they were made: an LLM's summaries are not reproducible (their texts are the
input), a file's are its content, and the extractive ones (about 2 s for all 714 documents of
LegalBench-RAG) follow rules the entity signals share, which can change without a version.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import store
from ..engine.data import Benchmark
from ..engine.embedding import model_id
from ..engine.embedding.models import packaged_version
from ..engine.metrics import SCORING_VERSION
from .config import RunConfig
from .plugins import Method, OpenContext, Stage
from .settings import DERIVED

IDENTITY_VERSION = 2  # 1: config + query ids, gold spans, document paths and lengths (before 2026-11)
ID_CHARS = store.KINDS["cells"].chars  # hex digits of a cell id
DIGEST_CHARS = 12  # hex digits of a data digest as result tables show it


@dataclass(frozen=True)
class CellInputs:
    """What a cell's id hashes (see the module docstring), as plain JSON values."""

    payload: Mapping[str, object] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return store.key("cells", self.payload)

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
    return store.sha256("".join(json.dumps([key, texts[key]], ensure_ascii=False) + "\n" for key in sorted(texts)))


def config_settings(config: RunConfig) -> dict[str, object]:
    """Every setting of ``config`` as the identity holds it: its result columns without the derived
    ones (``variant``, ``stages``) and without paths of the machine (what was read there is
    fingerprinted instead), plus ``ks``."""
    leave_out = {*DERIVED, *config.path_columns()}
    columns = {k: v for k, v in config.columns().items() if k not in leave_out}
    return {**columns, "ks": list(config.ks)}


def code_versions(config: RunConfig) -> dict[str, str]:
    """The versions of the libraries that decide ``config``'s rankings, and of the scoring."""
    return {**store.library_versions(config.backend), "scoring": str(SCORING_VERSION)}


def origin(part: Method[RunConfig] | Stage[RunConfig]) -> dict[str, str]:
    """Where a plug-in's code comes from, when not from this project (whose plug-ins say it with
    their ``version`` alone): ``package``, the installed distribution and its version; for a module
    of no distribution (on ``PYTHONPATH``), ``source``, the SHA-256 of its file."""
    module = type(part).__module__
    if module.partition(".")[0] == store.OWN_PACKAGE:
        return {}
    try:
        path = Path(inspect.getfile(type(part)))
        package = store.package_of(module, path)
        return {"package": package} if package else {"source": store.sha256(path.read_bytes())}
    except (TypeError, OSError):  # defined where no file holds it (an interactive session)
        return {}


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
        "plugins": {part.name: {"version": part.version, **origin(part), **part.inputs(config, ctx)} for part in parts},
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
