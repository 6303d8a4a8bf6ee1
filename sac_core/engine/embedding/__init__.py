"""Embedding: one :class:`Encoder` interface (torch, ONNX), model names, and the cached :class:`Embedder`."""

from .embedder import WEIGHTS_MARK, Embedder, Embedders, text_key, weights_tag
from .encoders import BACKENDS, Encoder, TorchEncoder, default_backend, load_encoder
from .models import DEFAULT_MODEL, ModelError, model_id, resolve_model_path
from .onnx_encoder import OnnxEncoder

__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "WEIGHTS_MARK",
    "Embedder",
    "Embedders",
    "Encoder",
    "ModelError",
    "OnnxEncoder",
    "TorchEncoder",
    "default_backend",
    "load_encoder",
    "model_id",
    "resolve_model_path",
    "text_key",
    "weights_tag",
]
