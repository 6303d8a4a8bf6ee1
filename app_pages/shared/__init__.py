"""Shared UI code for the pages (not itself a page): sidebar, style, banner, shared resources.

The Review page's parts (``review_ui``) are imported by that page alone: they load SQLAlchemy, which
no other page needs (half a second on a fresh server before Compare's first chunks)."""

from .answers_ui import answer_row
from .resources import (
    LOAD_ERRORS,
    benchmark,
    benchmark_of,
    build_manager,
    build_panel,
    cached_answer,
    column_answer,
    compare_results,
    confirm_openai,
    demo_cells,
    guarded,
    llm_settings,
    load_plugins,
    map_data,
    pct,
    progress_callback,
    quiet_logs,
    registry,
    require_datasets,
    timed,
    tune_lookup,
    why_wrong,
    workspace,
)
from .runs_ui import import_run_panel
from .sidebar import API_KEY, PROVIDER_LABELS, SETTINGS, api_key, banner, data_keys, settings, sidebar, style
from .widgets import open_flipped_in_compare, pick_query

__all__ = [
    "API_KEY",
    "LOAD_ERRORS",
    "PROVIDER_LABELS",
    "SETTINGS",
    "answer_row",
    "api_key",
    "banner",
    "benchmark",
    "benchmark_of",
    "build_manager",
    "build_panel",
    "cached_answer",
    "column_answer",
    "compare_results",
    "confirm_openai",
    "data_keys",
    "demo_cells",
    "guarded",
    "import_run_panel",
    "llm_settings",
    "load_plugins",
    "map_data",
    "open_flipped_in_compare",
    "pct",
    "pick_query",
    "progress_callback",
    "quiet_logs",
    "registry",
    "require_datasets",
    "settings",
    "sidebar",
    "style",
    "timed",
    "tune_lookup",
    "why_wrong",
    "workspace",
]
