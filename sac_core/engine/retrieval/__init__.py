"""Retrieval: the pool of chunks with the text each method indexes them under, and the Retriever.

One module per method: :mod:`.baseline` (the chunk's own text) and :mod:`.sac` (Summary-Augmented
Chunking). :class:`Retriever` indexes a pool once (dense, BM25 or hybrid) and answers many queries.
"""

from .pool import METHODS, Pool, build_pool
from .retriever import Hit, Retriever, as_spans
from .sac import SAC_TEMPLATE, augment

__all__ = ["METHODS", "SAC_TEMPLATE", "Hit", "Pool", "Retriever", "as_spans", "augment", "build_pool"]
