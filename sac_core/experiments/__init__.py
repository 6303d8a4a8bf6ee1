"""Experiments: one :class:`RunConfig` → evaluate; grids of them (sweeps), paired tests, tables, speed figures.

Depends on :mod:`sac_core.engine` only; the dashboard and the CLI build on it.
"""

from .config import RunConfig
from .evaluate import Evaluation, evaluate, format_results, run_queries
from .methods import DEFAULT_METHODS, DOCUMENT_AWARE, method_catalogue
from .paper import PaperPoint
from .runs import read_run, write_run
from .significance import compare_methods, flipped_queries, permutation_test
from .sweep import Sweep, SweepError, load_sweep, run_sweep
from .workspace import Column, ColumnResult, Workspace, default_columns

__all__ = [
    "DEFAULT_METHODS",
    "DOCUMENT_AWARE",
    "Column",
    "ColumnResult",
    "Evaluation",
    "PaperPoint",
    "RunConfig",
    "Sweep",
    "SweepError",
    "Workspace",
    "compare_methods",
    "default_columns",
    "evaluate",
    "flipped_queries",
    "format_results",
    "load_sweep",
    "method_catalogue",
    "permutation_test",
    "read_run",
    "run_queries",
    "run_sweep",
    "write_run",
]
