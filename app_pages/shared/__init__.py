"""Shared UI code for the pages (not itself a page): sidebar, style, banner, shared resources."""

from .resources import (
    LOAD_ERRORS,
    benchmark,
    build_manager,
    build_panel,
    confirm_openai,
    map_data,
    pct,
    progress_callback,
    registry,
    require_datasets,
    timed,
    tune_lookup,
    workspace,
)
from .review_ui import review_db, review_item, review_new_session, review_results
from .runs_ui import import_run_panel
from .sidebar import API_KEY, PROVIDER_LABELS, SETTINGS, api_key, banner, settings, sidebar, style
from .widgets import pick_query

__all__ = [
    "API_KEY",
    "LOAD_ERRORS",
    "PROVIDER_LABELS",
    "SETTINGS",
    "api_key",
    "banner",
    "benchmark",
    "build_manager",
    "build_panel",
    "confirm_openai",
    "import_run_panel",
    "map_data",
    "pct",
    "pick_query",
    "progress_callback",
    "registry",
    "require_datasets",
    "review_db",
    "review_item",
    "review_new_session",
    "review_results",
    "settings",
    "sidebar",
    "style",
    "timed",
    "tune_lookup",
    "workspace",
]
