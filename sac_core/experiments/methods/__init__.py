"""The built-in methods and stages, each one module that registers itself on import:
:mod:`.baseline`, :mod:`.sac` (index methods, :mod:`.indexed`), :mod:`.document_aware` (a stage),
:mod:`.imported` (a run file imported from any retriever) and :mod:`.retriever` (a live retriever
named ``module:factory``).
"""

from .baseline import BASELINE, Baseline
from .document_aware import DOCUMENT_AWARE, DOCUMENT_AWARE_STAGE, SAC_PRIOR, DocumentAware, signal_parts
from .imported import IMPORTED_RUN, ImportedRun
from .indexed import IndexMethod
from .retriever import LIVE_RETRIEVER, LiveRetriever, operator_retrievers
from .sac import SAC, SAC_METHOD

__all__ = [
    "BASELINE",
    "DOCUMENT_AWARE",
    "DOCUMENT_AWARE_STAGE",
    "IMPORTED_RUN",
    "LIVE_RETRIEVER",
    "SAC",
    "SAC_METHOD",
    "SAC_PRIOR",
    "Baseline",
    "DocumentAware",
    "ImportedRun",
    "IndexMethod",
    "LiveRetriever",
    "operator_retrievers",
    "signal_parts",
]
