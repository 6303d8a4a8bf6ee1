"""Retrieval: the pool of chunks with the text each method indexes them under, and the rankers.

Every ranking implements :class:`Ranker` (``search(queries, k) -> hits``, and the optional
capabilities it declares with their defaults). :class:`Retriever`
indexes a pool once (dense, BM25 or hybrid) and answers any number of queries; :mod:`.sac` gives
the index text of Summary-Augmented Chunking. :class:`DocumentAwareRetriever` ranks a built index
with the document-aware :class:`Signals` (query split, document prior and routing, legal entities,
sections, expansion, reranking), one module per signal.
"""

from .document_aware import DocumentAwareRetriever, SignalParts
from .external import ExternalError, RetrieverRanker, RunRanker, SnippetRetriever, make_retriever
from .oracle import OracleRanker
from .pool import Pool, build_pool, chunk_text
from .query import QueryParts, split_query
from .ranker import ChunkIndex, Hit, Ranker, as_spans
from .retriever import Retriever
from .sac import SAC_TEMPLATE, augment, summary_augmented
from .signal_options import DOC_REPRS, EXPANSIONS, SECTION_PROVIDERS, Signals

__all__ = [
    "DOC_REPRS",
    "EXPANSIONS",
    "SAC_TEMPLATE",
    "SECTION_PROVIDERS",
    "ChunkIndex",
    "DocumentAwareRetriever",
    "ExternalError",
    "Hit",
    "OracleRanker",
    "Pool",
    "QueryParts",
    "Ranker",
    "Retriever",
    "RetrieverRanker",
    "RunRanker",
    "SignalParts",
    "Signals",
    "SnippetRetriever",
    "as_spans",
    "augment",
    "build_pool",
    "chunk_text",
    "make_retriever",
    "split_query",
    "summary_augmented",
]
