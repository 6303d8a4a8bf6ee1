"""Indexes: three ways to rank a pool's chunks for a query (dense FAISS, BM25, their rank fusion).

Persisted indexes (saved and loaded with a manifest) will live here too.
"""

from .bm25 import BM25Index, tokenize
from .dense import DenseIndex
from .fusion import RRF_K, fuse
from .ranked import Ranked

__all__ = ["RRF_K", "BM25Index", "DenseIndex", "Ranked", "fuse", "tokenize"]
