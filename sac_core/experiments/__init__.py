"""Experiments: one :class:`RunConfig` → evaluate; grids of them (sweeps), paired tests, tables, speed figures.

A run names a registered :class:`Method` (:data:`METHODS`), re-ranked by the :class:`Stage` s its
settings switch on (:data:`STAGES`); :mod:`.methods` holds the built-in ones. Depends on
:mod:`sac_core.engine` only; the dashboard and the CLI build on it. Plug-ins from outside the
repository (entry points, ``$SAC_PLUGINS``, ``sac --plugin``) are imported by :func:`load_plugins`.
"""

from . import methods
from .catalogue import Column, baseline_column, catalogue, catalogue_columns, default_keys
from .config import METHODS, STAGES, RunConfig
from .evaluate import Evaluation, evaluate, format_results, open_method, run_queries
from .loading import PluginError, load_plugins
from .paper import PaperPoint
from .plugins import Method, NotBuilt, OpenContext, Opened, Preset, Stage
from .runs import read_run, write_run
from .settings import option
from .significance import compare_methods, flipped_queries, permutation_test
from .sweep import Sweep, SweepError, load_sweep, run_sweep
from .workspace import ColumnResult, Workspace

__all__ = [
    "METHODS",
    "STAGES",
    "Column",
    "ColumnResult",
    "Evaluation",
    "Method",
    "NotBuilt",
    "OpenContext",
    "Opened",
    "PaperPoint",
    "PluginError",
    "Preset",
    "RunConfig",
    "Stage",
    "Sweep",
    "SweepError",
    "Workspace",
    "baseline_column",
    "catalogue",
    "catalogue_columns",
    "compare_methods",
    "default_keys",
    "evaluate",
    "flipped_queries",
    "format_results",
    "load_plugins",
    "load_sweep",
    "methods",
    "open_method",
    "option",
    "permutation_test",
    "read_run",
    "run_queries",
    "run_sweep",
    "write_run",
]
