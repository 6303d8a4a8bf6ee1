"""The one store of what is computed: where each kind of result lives in the cache directory, the
one key function, the one hashing helper and the one list of library versions that can change a result.

Every computed result is found by its content address, :func:`key` of its *kind* and of what made
it (its settings as canonical JSON, the digests of its data and summaries, the versions of its
plug-ins, their packages, the libraries and the scoring), never by a path of the machine or a
name: a result whose inputs changed is not found under its new key and is made again, never
renamed. The kinds (``<cache>/<folder>``; *entries* are a ``diskcache`` namespace, key → value)::

    kind         folder        form               key (what it is made from)
    embeddings   embeddings/   entries            by text: "<model id>[#<weights>][@<backend>]|<sha256 of the text>"
    summaries    summaries/    entries            by text: "sac-summary-v1|<provider>|<model>|<prompt id>|
                                                  <prompt version>|<prompt digest>|<chars>[|<generation>]|<sha256 of the document>"
    answers      answers/      entries            model, prompt version, the rendered prompt
    expansions   expansions/   entries            model, rewrites asked, prompt, question
    cells        sweep_cells/  entries            the cell id: every input of a sweep cell (experiments.identity)
    projections  projections/  entries            an index's vectors and the figure (a 2-D map, separation)
    adapters     adapters/     entries            a query adapter's training data (its bank's vectors and
                                                  labels), its settings and the torch version
    indexes      indexes/<key>/        folders    the settings that decide an index (its manifest holds the
                                                  content digests and versions, checked before use)
    sentences    sentences/<key>.json  markers    model and weights, backend, sentence length, documents, libraries
    onnx         onnx/<model>-<key>.onnx  files   the model folder and its files' sizes and times (beside it
                                                  <model>-<key>.json: its tokenizer, pooling and dimension)

The two kinds *by text* keep the key strings they had before this module (their entries, hours of
CPU or paid requests, stay readable as they are): the recipe's labels, then the SHA-256 of the text.
The other places of the cache directory hold no computed result (:data:`PLACES`): imported runs
(named by the user), the status files of background builds, packaged weights unpacked, the demo
corpus and the demo's sweep folder; and ``review.sqlite``, people's labels (``dashboard.review``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions, version
from pathlib import Path

import diskcache


@dataclass(frozen=True)
class Kind:
    """A kind of computed result: its folder under the cache directory, its form, and its key:
    ``chars`` hex digits of the SHA-256 of its recipe, or ``by_text`` (labels, then the text's SHA-256)."""

    folder: str
    form: str  # "entries" (diskcache), "folders", "markers" or "files"
    chars: int = 64
    by_text: bool = False


KINDS: Mapping[str, Kind] = {
    "embeddings": Kind("embeddings", "entries", by_text=True),
    "summaries": Kind("summaries", "entries", by_text=True),
    "answers": Kind("answers", "entries"),
    "expansions": Kind("expansions", "entries"),
    "cells": Kind("sweep_cells", "entries", chars=16),
    "projections": Kind("projections", "entries", chars=16),
    "adapters": Kind("adapters", "entries", chars=16),
    "indexes": Kind("indexes", "folders", chars=16),
    "sentences": Kind("sentences", "markers", chars=16),
    "onnx": Kind("onnx", "files", chars=12),
}
# Places of the cache directory that hold no computed result (see the module docstring).
PLACES: Mapping[str, str] = {
    "runs": "runs",
    "builds": "builds",
    "models": "models",
    "demo": "demo",
    "demo results": "results",
}
# The libraries whose version can change a result (pyproject.toml pins them), and per embedding
# backend its runtime. The embedding entries' keys leave them out (vectors agree across versions).
LIBRARIES = ("langchain-text-splitters", "bm25s", "faiss-cpu", "nupunkt")
RUNTIMES = {"torch": "torch", "onnx": "onnxruntime", "onnx-int8": "onnxruntime"}
OWN_PACKAGE = "sac_core"  # plug-ins of this package are versioned by their ``version`` alone


def canonical(value: object) -> str:
    """``value`` as canonical JSON: keys sorted, UTF-8 characters kept, anything else as ``str``."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def sha256(value: str | bytes | object) -> str:
    """SHA-256 (hex) of text (as UTF-8), of bytes, or of any other value as :func:`canonical` JSON."""
    if isinstance(value, bytes | bytearray | memoryview):
        return hashlib.sha256(value).hexdigest()
    text = value if isinstance(value, str) else canonical(value)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def key(kind: str, recipe: object, *, text: str | None = None) -> str:
    """The address of a result of ``kind`` made from ``recipe``: for a kind by text, ``recipe`` is
    its labels (strings, in order) and the key is ``"<label>|…|<sha256 of text>"``; for the others,
    the first ``chars`` hex digits of :func:`sha256` of ``recipe`` (a string is hashed as text)."""
    spec = KINDS[kind]
    if spec.by_text:
        if text is None or isinstance(recipe, str) or not isinstance(recipe, Sequence):
            raise ValueError(f"a {kind} key is made from labels and a text")
        return "|".join([*(str(label) for label in recipe), sha256(text)])
    return sha256(recipe)[: spec.chars]


def folder(cache_dir: Path, kind: str) -> Path:
    """The folder of a kind (:data:`KINDS`) or of another place (:data:`PLACES`) in ``cache_dir``."""
    name = KINDS[kind].folder if kind in KINDS else PLACES[kind]
    return Path(cache_dir) / name


def entries(cache_dir: Path, kind: str) -> diskcache.Cache:
    """The entries of ``kind`` in ``cache_dir`` (a ``diskcache.Cache``; close it when done). Nothing
    is ever evicted: entries are paid-for work (an embedding run, an LLM request, a sweep cell)."""
    if KINDS[kind].form != "entries":
        raise ValueError(f"{kind} is kept as {KINDS[kind].form}, not as entries")
    return diskcache.Cache(str(folder(cache_dir, kind)), eviction_policy="none")


@lru_cache(maxsize=64)
def library_version(name: str) -> str:
    """The installed version of the distribution ``name`` ("" when it is not installed)."""
    try:
        return version(name)
    except PackageNotFoundError:
        return ""


def library_versions(backend: str | None = None) -> dict[str, str]:
    """The versions of :data:`LIBRARIES`, and of ``backend``'s runtime when given."""
    names = [*LIBRARIES, *([RUNTIMES.get(backend, backend)] if backend else [])]
    return {name: library_version(name) for name in names}


@lru_cache(maxsize=1)
def _distributions() -> Mapping[str, list[str]]:
    return packages_distributions()  # about half a second: read once, only for plug-ins of other packages


@lru_cache(maxsize=64)
def package_of(module: str, path: Path) -> str:
    """``"<distribution>==<version>"`` of the installed distribution whose files hold ``module``
    (its source file ``path``); "" for this project's own modules and for a module no distribution
    lists (on ``PYTHONPATH``, or installed in editable mode)."""
    top = module.partition(".")[0]
    if top == OWN_PACKAGE:
        return ""
    real = Path(path).resolve()
    for name in _distributions().get(top, []):
        dist = distribution(name)
        if any(Path(str(dist.locate_file(f))).resolve() == real for f in dist.files or ()):
            return f"{dist.metadata['Name']}=={library_version(dist.metadata['Name'])}"
    return ""
