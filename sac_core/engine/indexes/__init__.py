"""Indexes: three ways to rank a pool's chunks for a query (dense FAISS, BM25, their rank fusion),
and indexes persisted on disk with a manifest (:mod:`.persisted`).
"""

from .bm25 import BM25Index, tokenize
from .dense import DENSE_KINDS, DenseIndex, search_threads
from .fusion import RRF_K, fuse, rrf
from .persisted import SavedIndex, load_index, read_manifest, save_index
from .ranked import Ranked

__all__ = [
    "DENSE_KINDS",
    "RRF_K",
    "BM25Index",
    "DenseIndex",
    "Ranked",
    "SavedIndex",
    "fuse",
    "load_index",
    "read_manifest",
    "rrf",
    "save_index",
    "search_threads",
    "tokenize",
]
