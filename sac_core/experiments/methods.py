"""Named retrieval methods: the catalogue the Compare page offers and ``sac evaluate --method-name`` runs.

Every entry is a :class:`RunConfig` derived from one base config (its chunking, model and
summary settings), so a name always means the same method at any setting. The document-aware
settings were chosen on LegalBench-RAG-mini (``sweeps/methods-lbr-mini.toml``) and then run
unchanged on the paper protocol and a held-out folder (README "Beyond SAC").
"""

from __future__ import annotations

from dataclasses import replace

from ..engine.retrieval import Signals
from .config import RunConfig

# Chosen on lbr-mini only (sweeps/methods-lbr-mini.toml, highest precision + recall - DRM, means
# over k): split query, document prior of weight 8 from the 300-character summary plus 0.125 ×
# max-normalised BM25 over the document's text, over the plain (baseline) chunk index. Reads no
# file name or title.
DOCUMENT_AWARE = Signals(split_query=True, doc_weight=8.0, doc_bm25=0.125)
SAC_PRIOR = Signals(doc_weight=2.0, doc_bm25=0.25)  # the same document prior on top of SAC, no split

DEFAULT_METHODS: tuple[str, ...] = ("baseline", "sac-generic", "sac-expert")


def method_catalogue(base: RunConfig) -> dict[str, tuple[str, RunConfig]]:
    """``key → (display name, config)``, in the order offered. With the extractive provider the
    prompt does not matter: one ``sac-generic`` entry named "SAC extractive" and no expert one."""
    generic = base.with_(method="sac", summary=replace(base.summary, prompt="generic"), signals=Signals())
    plain = base.with_(method="baseline", signals=Signals())
    extractive = base.summary.provider == "extractive"
    out: dict[str, tuple[str, RunConfig]] = {
        "baseline": ("Baseline", plain),
        "sac-generic": ("SAC extractive" if extractive else "SAC generic", generic),
    }
    if not extractive:
        out["sac-expert"] = ("SAC expert", generic.with_(summary=replace(base.summary, prompt="expert")))
    out |= {
        "doc-aware": ("Document-aware", plain.with_(signals=DOCUMENT_AWARE)),
        "sac-prior": ("SAC + document prior", generic.with_(signals=SAC_PRIOR)),
        "doc-aware-route": ("Document-aware, routed", plain.with_(signals=replace(DOCUMENT_AWARE, route_docs=1))),
        "doc-aware-sections": (
            "Document-aware, sections",
            plain.with_(signals=replace(DOCUMENT_AWARE, route_docs=1, sections=3)),
        ),
        "doc-aware-entities": (
            "Document-aware + entities",
            plain.with_(signals=replace(DOCUMENT_AWARE, entity_weight=0.2)),
        ),
        "sac-entities": ("SAC + entities (RRF)", generic.with_(signals=Signals(entity_weight=0.2))),
        "sac-prf": ("SAC + PRF expansion", generic.with_(signals=Signals(expansion="prf", expansion_n=3))),
        "hybrid": ("Baseline hybrid (dense + BM25)", plain.with_(semantic_weight=0.5)),
    }
    return out
