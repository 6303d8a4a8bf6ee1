"""Retrieval: the pool of chunks with the text each method indexes them under, and the Retriever.

One module per method: :mod:`.baseline` (the chunk's own text) and :mod:`.sac` (Summary-Augmented
Chunking). :class:`Retriever` indexes a pool once (dense, BM25 or hybrid) and answers many queries.
:class:`DocumentAwareRetriever` ranks a built index with the document-aware :class:`Signals`
(query split, document prior and routing, legal entities, sections, expansion, reranking), one
module per signal.
"""

from .document_aware import DocumentAwareRetriever, SignalParts
from .pool import METHODS, Pool, build_pool
from .query import QueryParts, split_query
from .retriever import Hit, Retriever, as_spans
from .sac import SAC_TEMPLATE, augment
from .signals import DOC_REPRS, EXPANSIONS, SECTION_PROVIDERS, Signals

__all__ = [
    "DOC_REPRS",
    "EXPANSIONS",
    "METHODS",
    "SAC_TEMPLATE",
    "SECTION_PROVIDERS",
    "DocumentAwareRetriever",
    "Hit",
    "Pool",
    "QueryParts",
    "Retriever",
    "SignalParts",
    "Signals",
    "as_spans",
    "augment",
    "build_pool",
    "split_query",
]
