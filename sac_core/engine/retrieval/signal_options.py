"""The document-aware options of a retrieval, beyond the chunk index: all off by default.

Each option is read by one module of this package, whose docstring cites where the idea comes from:

- :mod:`.query`: ``split_query``, the query's document reference ("Consider the NDA between X and
  Y") scores documents, its question scores chunks (LegalBench-RAG's queries have this shape).
- :mod:`.documents`: a **document prior** (``doc_weight`` × the query's score against a
  representation of the chunk's document) and **routing** (the top ``route_docs`` documents'
  chunks first); the two-level retrieval of the SAC paper's outlook and Rainbow RAG.
- :mod:`.profiles`: the reference's type, parties and dates matched against what each document
  says about itself (title, preamble, signature blocks, summary), a term of the document score.
- :mod:`.gate`: whether a query gives evidence about its document at all (``doc_gate``); without
  it, the prior and routing stay off and the query is ranked plainly.
- :mod:`.entities`: a ranking by the **legal entities** the query names, fused with the others by
  weighted reciprocal-rank fusion (KG-CiteRAG).
- :mod:`.sections`: within the routed documents, the chunks of the top ``sections`` **sections**
  by their summaries first (Rainbow RAG's knowledge graph of section summaries).
- :mod:`.expansion`: **query expansion**, offline pseudo-relevance feedback or an LLM's rewrites
  fused by RRF (Rainbow RAG's multi-query, RAG-Fusion).
- :mod:`.rerank`: **rescoring** the top ``rerank_depth`` chunks with a second embedding model.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

DOC_REPRS: tuple[str, ...] = ("summary", "title", "filename")
EXPANSIONS: tuple[str, ...] = ("none", "prf", "llm")
SECTION_PROVIDERS: tuple[str, ...] = ("lead", "openai")
# When a query's document score may act (prior, routing): always; only when the query split off a
# document reference; or when it did or its document scores are peaked (see .gate).
DOC_GATES: tuple[str, ...] = ("always", "split", "evidence")


@dataclass(frozen=True)
class Signals:
    """Options of the document-aware retrieval. Weights are dimensionless; ``doc_chars`` and
    ``section_chars`` are summary lengths in characters."""

    split_query: bool = False  # document reference → documents, question → chunks
    doc_weight: float = 0.0  # added to a chunk's cosine: doc_weight × its document's score
    doc_repr: str = "summary"  # the document's text embedded for the prior, see DOC_REPRS
    doc_chars: int = 300  # length of the summary used as representation (characters)
    doc_bm25: float = 0.0  # plus doc_bm25 × max-normalised BM25 of the query over the document's full text
    doc_names: float = (
        0.0  # plus doc_names × max-normalised BM25 of the query over the document's file name (reads names)
    )
    doc_profile: float = (
        0.0  # plus doc_profile × the share of the reference's words the document's self-description holds
    )
    doc_gate: str = "always"  # see DOC_GATES: on queries without evidence about the document, plain ranking
    gate_margin: float = 0.1  # "evidence": the top document's score leads the second's by at least this
    route_docs: int = 0  # > 0: the chunks of the top route_docs documents (by the document score) first
    route_fill: bool = True  # after the routed documents, the other chunks (else: fewer than k)
    entity_weight: float = 0.0  # share of the legal-entity ranking in the reciprocal-rank fusion
    sections: int = 0  # > 0: within the routed documents, the chunks of the top `sections` sections first
    section_chars: int = 300  # length of a section's summary (characters)
    section_provider: str = "lead"  # "lead" (heading + opening text, offline) or "openai" (LLM, cached)
    expansion: str = "none"  # see EXPANSIONS
    expansion_n: int = 3  # rewrites (llm) or feedback chunks (prf)
    rerank_model: str = ""  # "" = no second stage; else an embedding model (e.g. all-mpnet-base-v2)
    rerank_depth: int = 20  # chunks rescored by the second stage
    rerank_weight: float = 1.0  # (1 - w) · first-stage rank score + w · second model's min-max cosine

    def __post_init__(self) -> None:
        checks = [
            (
                min(self.doc_weight, self.doc_bm25, self.doc_names, self.doc_profile) >= 0,
                "doc_weight, doc_bm25, doc_names and doc_profile must be >= 0",
            ),
            (0 <= self.entity_weight < 1, "entity_weight must be in [0, 1)"),
            (self.doc_repr in DOC_REPRS, f"doc_repr must be one of {DOC_REPRS}"),
            (self.doc_gate in DOC_GATES, f"doc_gate must be one of {DOC_GATES}"),
            (self.gate_margin >= 0, "gate_margin must be >= 0"),
            (self.doc_chars > 0 and self.section_chars > 0, "summary lengths must be > 0"),
            (self.route_docs >= 0 and self.sections >= 0, "route_docs and sections must be >= 0"),
            (self.sections == 0 or self.route_docs > 0, "sections needs route_docs > 0 (sections of routed documents)"),
            (self.section_provider in SECTION_PROVIDERS, f"section_provider must be one of {SECTION_PROVIDERS}"),
            (self.expansion in EXPANSIONS, f"expansion must be one of {EXPANSIONS}"),
            (self.expansion_n >= 1 and self.rerank_depth >= 1, "expansion_n and rerank_depth must be >= 1"),
            (0 <= self.rerank_weight <= 1, "rerank_weight must be in [0, 1]"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"invalid retrieval signals: {message}")

    @property
    def active(self) -> bool:
        return self != Signals()

    @property
    def scores_documents(self) -> bool:
        """Whether a document score is computed (prior, routing or sections)."""
        return self.doc_weight > 0 or self.route_docs > 0

    @property
    def uses_summaries(self) -> bool:
        """Whether the run's summary settings decide the document representation."""
        return self.scores_documents and self.doc_repr == "summary"

    def changed(self) -> dict[str, object]:
        """The options that differ from the defaults (for result columns)."""
        default = Signals()
        return {
            f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)
        }

    @property
    def label(self) -> str:
        """A short suffix for variant names, e.g. ``+split+doc:summary300×2+bm25×0.25``."""
        parts = ["split"] if self.split_query else []
        if self.scores_documents:
            size = str(self.doc_chars) if self.doc_repr == "summary" else ""
            parts.append(f"doc:{self.doc_repr}{size}×{self.doc_weight:g}")
            if self.doc_bm25:
                parts.append(f"bm25×{self.doc_bm25:g}")
            if self.doc_names:
                parts.append(f"names×{self.doc_names:g}")
            if self.doc_profile:
                parts.append(f"profile×{self.doc_profile:g}")
            if self.doc_gate != "always":
                margin = f"≥{self.gate_margin:g}" if self.doc_gate == "evidence" else ""
                parts.append(f"gate:{self.doc_gate}{margin}")
        if self.route_docs:
            parts.append(f"route{self.route_docs}{'' if self.route_fill else '-only'}")
        if self.sections:
            parts.append(f"sec{self.sections}:{self.section_provider}{self.section_chars}")
        if self.entity_weight:
            parts.append(f"ent{self.entity_weight:g}")
        if self.expansion != "none":
            parts.append(f"exp:{self.expansion}{self.expansion_n}")
        if self.rerank_model:
            parts.append(f"rr:{self.rerank_model}@{self.rerank_depth}×{self.rerank_weight:g}")
        return "".join(f"+{p}" for p in parts)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)
