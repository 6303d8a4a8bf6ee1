"""The built-in methods and stages, each one module that registers itself on import:
:mod:`.baseline`, :mod:`.sac` (index methods, :mod:`.indexed`), :mod:`.signals` (the document-aware signals, a stage each)
and the passage stages that refine it (:mod:`.within_document`, :mod:`.small_to_big`,
:mod:`.trimming`; the order they apply in is their ``Stage.order``, not the order of these
imports); :mod:`.imported` (a run file imported from any retriever), :mod:`.retriever` (a live
retriever named ``module:factory``) and :mod:`.oracle` (the limit the gold spans allow, never offered).
"""

from . import baseline, sac  # registered first: the order pages offer the methods in
from .baseline import BASELINE, Baseline
from .imported import IMPORTED_RUN, ImportedRun
from .indexed import IndexMethod
from .oracle import ORACLE, Oracle
from .retriever import LIVE_RETRIEVER, LiveRetriever, operator_retrievers
from .sac import SAC, SAC_METHOD
from .signals import DOCUMENT_AWARE, DOCUMENT_AWARE_NAMES, SAC_PRIOR, SIGNALS, Signal, signals_of, split_on
from .small_to_big import SMALL_TO_BIG_STAGE, SmallToBig
from .trimming import TRIMMING_STAGE, Trimming
from .within_document import WITHIN_DOCUMENT_STAGE, WithinDocument, with_bank

__all__ = [
    "BASELINE",
    "DOCUMENT_AWARE",
    "DOCUMENT_AWARE_NAMES",
    "IMPORTED_RUN",
    "LIVE_RETRIEVER",
    "ORACLE",
    "SAC",
    "SAC_METHOD",
    "SAC_PRIOR",
    "SIGNALS",
    "SMALL_TO_BIG_STAGE",
    "TRIMMING_STAGE",
    "WITHIN_DOCUMENT_STAGE",
    "Baseline",
    "ImportedRun",
    "IndexMethod",
    "LiveRetriever",
    "Oracle",
    "Signal",
    "SmallToBig",
    "Trimming",
    "WithinDocument",
    "baseline",
    "operator_retrievers",
    "sac",
    "signals_of",
    "split_on",
    "with_bank",
]
