"""Embedding: one :class:`Encoder` interface (torch, ONNX), model names, and the cached :class:`Embedder`."""

from .embedder import Embedder, Embedders, text_key
from .encoders import BACKENDS, Encoder, TorchEncoder, default_backend, load_encoder
from .models import DEFAULT_MODEL, model_id, resolve_model_path
from .onnx_encoder import OnnxEncoder

__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "Embedder",
    "Embedders",
    "Encoder",
    "OnnxEncoder",
    "TorchEncoder",
    "default_backend",
    "load_encoder",
    "model_id",
    "resolve_model_path",
    "text_key",
]
