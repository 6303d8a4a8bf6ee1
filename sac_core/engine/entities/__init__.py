"""Entities: the facts a legal document names (title, parties, dates, governing law, defined terms,
section headings, citations), read by rules and eyecite; the offline summaries and the entity
layer of retrieval build on them."""

from .extract import DocumentEntities, citations, extract_entities, governing_law
from .rules import SCAN_CHARS, TYPE_LABELS, document_type

__all__ = [
    "SCAN_CHARS",
    "TYPE_LABELS",
    "DocumentEntities",
    "citations",
    "document_type",
    "extract_entities",
    "governing_law",
]
