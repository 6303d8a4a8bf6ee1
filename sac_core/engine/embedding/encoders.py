"""One interface for every way of running an embedding model: :class:`Encoder`.

- ``torch``: sentence-transformers on PyTorch (the reference);
- ``onnx``: the same model through ONNX Runtime (:mod:`.onnx_encoder`), same vectors, faster here;
- ``onnx-int8``: the same with its weights dynamically quantised to int8: faster still, not the
  same vectors (its measured effect on the metrics is in the README), so its own cache keys.

Every encoder returns unit-length float32 vectors (inner product = cosine), one row per text.
A new runtime (a quantised model, a static preview model) is one more class with ``dim`` and
``encode`` and one more entry in :func:`load_encoder`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ..progress import quiet_library_bars
from .models import resolve_model_path
from .onnx_encoder import OnnxEncoder

BACKENDS: tuple[str, ...] = ("torch", "onnx", "onnx-int8")


def default_backend() -> str:
    """``onnx`` when ONNX Runtime is installed (the same vectors, about 1.8× faster here), else
    ``torch``, the reference."""
    return "onnx" if importlib.util.find_spec("onnxruntime") is not None else "torch"


class Encoder(Protocol):
    dim: int

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Unit-length float32 vectors, shape (len(texts), dim), in the order of ``texts``."""
        ...


class TorchEncoder:
    """sentence-transformers on the CPU (loads the model when created)."""

    def __init__(self, model_path: str) -> None:
        from sentence_transformers import SentenceTransformer  # heavy: only when a model is needed

        self.model = SentenceTransformer(model_path, device="cpu")
        self.dim = int(self.model.get_embedding_dimension() or 0)

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        return self.model.encode(
            list(texts),
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        ).astype(np.float32)


def load_encoder(model: str, backend: str, cache_dir: Path) -> Encoder:
    """The encoder for ``model`` on ``backend`` (``cache_dir`` keeps the ONNX export)."""
    quiet_library_bars()  # no "Loading weights" bar in a log file
    if backend == "torch":
        return TorchEncoder(resolve_model_path(model, cache_dir))
    if backend in ("onnx", "onnx-int8"):
        return OnnxEncoder(resolve_model_path(model, cache_dir), cache_dir, int8=backend == "onnx-int8")
    raise ValueError(f"unknown embedding backend {backend!r}; choose one of {', '.join(BACKENDS)}")
