"""The built-in methods and stages, each one module that registers itself on import:
:mod:`.baseline`, :mod:`.sac` (index methods, :mod:`.indexed`) and :mod:`.document_aware` (a stage).
"""

from .baseline import BASELINE, Baseline
from .document_aware import DOCUMENT_AWARE, DOCUMENT_AWARE_STAGE, SAC_PRIOR, DocumentAware, signal_parts
from .indexed import IndexMethod
from .sac import SAC, SAC_METHOD

__all__ = [
    "BASELINE",
    "DOCUMENT_AWARE",
    "DOCUMENT_AWARE_STAGE",
    "SAC",
    "SAC_METHOD",
    "SAC_PRIOR",
    "Baseline",
    "DocumentAware",
    "IndexMethod",
    "signal_parts",
]
