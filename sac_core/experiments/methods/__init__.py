"""The built-in methods and stages, each one module that registers itself on import:
:mod:`.baseline`, :mod:`.sac` (index methods, :mod:`.indexed`), :mod:`.document_aware` (a stage)
and the passage stages that refine it (:mod:`.within_document`, :mod:`.small_to_big`,
:mod:`.trimming`; the order they apply in is their ``Stage.order``, not the order of these
imports); :mod:`.imported` (a run file imported from any retriever) and :mod:`.retriever` (a live
retriever named ``module:factory``).
"""

from .baseline import BASELINE, Baseline
from .document_aware import DOCUMENT_AWARE, DOCUMENT_AWARE_STAGE, SAC_PRIOR, DocumentAware, signal_parts
from .imported import IMPORTED_RUN, ImportedRun
from .indexed import IndexMethod
from .retriever import LIVE_RETRIEVER, LiveRetriever, operator_retrievers
from .sac import SAC, SAC_METHOD
from .small_to_big import SMALL_TO_BIG_STAGE, SmallToBig
from .trimming import TRIMMING_STAGE, Trimming
from .within_document import WITHIN_DOCUMENT_STAGE, WithinDocument, with_bank

__all__ = [
    "BASELINE",
    "DOCUMENT_AWARE",
    "DOCUMENT_AWARE_STAGE",
    "IMPORTED_RUN",
    "LIVE_RETRIEVER",
    "SAC",
    "SAC_METHOD",
    "SAC_PRIOR",
    "SMALL_TO_BIG_STAGE",
    "TRIMMING_STAGE",
    "WITHIN_DOCUMENT_STAGE",
    "Baseline",
    "DocumentAware",
    "ImportedRun",
    "IndexMethod",
    "LiveRetriever",
    "SmallToBig",
    "Trimming",
    "WithinDocument",
    "operator_retrievers",
    "signal_parts",
    "with_bank",
]
