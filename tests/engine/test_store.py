"""sac_core.engine.store: one key function, one hashing helper, one list of library versions, and
the kinds as namespaces of one cache directory; entries written by the code before it stay readable."""

from __future__ import annotations

import hashlib
import json

import diskcache
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sac_core.engine import store
from sac_core.engine.embedding import DEFAULT_MODEL, Embedder, model_id
from sac_core.engine.summaries import SummaryConfig, summarize_documents
from sac_core.engine.summaries.extractive import VERSION as EXTRACTIVE
from sac_core.engine.summaries.prompts import load_prompt

RECIPE = {
    "config": {"chunk_size": 500, "method": "sac"},
    "data": "ab" * 32,
    "summaries": {"sac": "cd" * 32},
    "plugins": {"sac": {"version": 1}, "toy": {"version": 2, "package": "toy==1.0"}},
    "code": {"bm25s": "0.3.16", "scoring": "1"},
}


def test_the_hashing_helper_takes_text_bytes_and_json() -> None:
    assert store.sha256("é") == hashlib.sha256("é".encode()).hexdigest() == store.sha256("é".encode())
    assert store.sha256({"b": 1, "a": "é"}) == hashlib.sha256('{"a": "é", "b": 1}'.encode()).hexdigest()
    assert store.sha256({"a": 1, "b": 2}) == store.sha256({"b": 2, "a": 1})  # canonical: key order does not matter


def test_a_key_is_the_kind_s_digits_of_the_recipe_s_sha256() -> None:
    """Pinned: a cell id (16 hex digits of the SHA-256 of canonical JSON) as every committed cell has it."""
    text = json.dumps(RECIPE, sort_keys=True, ensure_ascii=False, default=str)
    assert store.key("cells", RECIPE) == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert len(store.key("answers", RECIPE)) == 64 and len(store.key("onnx", "a model|its files")) == 12


def _paths(value: object, at: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _paths(v, (*at, k))]
    return [at]


@given(path=st.sampled_from(_paths(RECIPE)), new=st.one_of(st.text(max_size=8), st.integers()))
def test_a_key_changes_with_every_input(path: tuple, new: object) -> None:
    """Each setting, digest, plug-in version and package, library version: another value, another key."""
    changed = json.loads(json.dumps(RECIPE))
    inner = changed
    for step in path[:-1]:
        inner = inner[step]
    if inner[path[-1]] == new:
        return
    inner[path[-1]] = new
    assert store.key("cells", changed) != store.key("cells", RECIPE)


def test_a_key_by_text_is_its_labels_then_the_text_s_sha256() -> None:
    address = store.key("embeddings", ["m@onnx"], text="a clause")
    assert address == f"m@onnx|{hashlib.sha256(b'a clause').hexdigest()}"
    assert store.key("embeddings", ["m@onnx"], text="a clause ") != address
    assert store.key("embeddings", ["other"], text="a clause") != address
    with pytest.raises(ValueError, match="labels and a text"):
        store.key("summaries", ["x"])


@pytest.mark.parametrize("kind", [k for k, spec in store.KINDS.items() if spec.form == "entries"])
def test_every_kind_of_entries_round_trips_in_its_own_folder(kind: str, tmp_path) -> None:
    spec = store.KINDS[kind]
    address = store.key(kind, ["label"], text="t") if spec.by_text else store.key(kind, RECIPE)
    with store.entries(tmp_path, kind) as kept:
        kept.set(address, {"value": np.arange(3)})
    with store.entries(tmp_path, kind) as kept:  # opened anew, as another process would
        assert np.array_equal(kept.get(address)["value"], np.arange(3))
    assert store.folder(tmp_path, kind) == tmp_path / spec.folder and (tmp_path / spec.folder / "cache.db").is_file()
    others = [k for k in store.KINDS if k != kind and store.KINDS[k].form == "entries"]
    assert all(address not in store.entries(tmp_path, other) for other in others)  # namespaces apart


def test_kinds_and_other_places_have_folders_of_their_own() -> None:
    names = [spec.folder for spec in store.KINDS.values()] + list(store.PLACES.values())
    assert len(names) == len(set(names))
    with pytest.raises(ValueError, match="kept as folders"):
        store.entries(".", "indexes")


def test_library_versions_list_the_libraries_and_the_backend_s_runtime() -> None:
    found = store.library_versions("onnx")
    assert list(found) == [*store.LIBRARIES, "onnxruntime"] and all(found.values())
    assert "torch" in store.library_versions("torch") and "onnxruntime" not in store.library_versions(None)


def test_an_embedding_cached_under_the_old_key_is_read_without_the_model(tmp_path) -> None:
    """The HARD constraint of issue 42: vectors cached by the code before the store (a diskcache in
    ``<cache>/embeddings``, key ``"<model id>|<sha256 of the text>"`` built by hand here as that code
    did) are found by the new code at once, with no migration and nothing encoded."""
    texts = ["Governing law is New York.", "Return all Confidential Information within 30 days."]
    vectors = np.eye(2, 384, dtype=np.float32)  # no model would make these: proof they were read
    old = diskcache.Cache(str(tmp_path / "embeddings"), eviction_policy="none")
    for text, vector in zip(texts, vectors):
        old.set(f"{model_id(DEFAULT_MODEL)}|{hashlib.sha256(text.encode('utf-8')).hexdigest()}", vector.tobytes())
    old.set(
        f"{model_id(DEFAULT_MODEL)}@onnx|{hashlib.sha256(texts[0].encode('utf-8')).hexdigest()}", vectors[1].tobytes()
    )
    old.close()
    torch = Embedder(DEFAULT_MODEL, tmp_path, backend="torch")
    assert np.array_equal(torch.encode(texts, progress=False), vectors) and torch.encoded == 0
    assert torch._encoder is None  # the model was never loaded
    onnx = Embedder(DEFAULT_MODEL, tmp_path, backend="onnx")
    assert np.array_equal(onnx.encode(texts[:1], progress=False), vectors[1:]) and onnx.encoded == 0


def test_a_summary_cached_under_the_old_key_is_read_as_it_is(tmp_path) -> None:
    """Summaries (paid for, with an LLM) keep their key strings too: written here as the code before did."""
    text = "This Agreement is governed by the laws of Delaware."
    prompt = load_prompt("generic")
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    old_key = "|".join(
        ["sac-summary-v1", "extractive", EXTRACTIVE, prompt.id, str(prompt.version), prompt.digest, "150", sha]
    )
    with diskcache.Cache(str(tmp_path / "summaries"), eviction_policy="none") as old:
        old.set(
            old_key, {"summary": "kept from before", "attempts": [[150, 16]], "input_tokens": 0, "output_tokens": 0}
        )
    made = summarize_documents({"d/a.txt": text}, SummaryConfig(chars=150), tmp_path, progress=False, cached_only=True)
    assert made["d/a.txt"].summary == "kept from before" and made["d/a.txt"].cached
