"""Shared UI (not a page): what a page says while the indexes of real data are not built (issue 45,
point 12): the total time, the one command that prepares everything, the demo corpus meanwhile."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from sac_core.dashboard import builds, prepare, state, views

DATA_FIELD = "sac_data_dir"  # the sidebar's data folder field: empty = the built-in demo corpus


def prepare_note(s: state.Settings) -> None:
    """The `sac index` command that prepares every default column of this data folder, and the demo
    button (drawn once; :func:`prepare_total` says how long, with the builds' progress)."""
    st.info(
        "One command prepares everything the default columns open (Compare, Map, Review), for every session; "
        "run it before a demo:",
        icon=":material/schedule:",
    )
    st.code(prepare.command_line(s.source.data_dir, s.protocol, s.datasets, s.source.datasets), language="bash")
    st.button(
        "Meanwhile, open the demo corpus (works at once)", key="sac_use_demo", on_click=_use_demo,
        help="Empties the data folder field in the sidebar: the built-in demo corpus. The builds go on.",
    )  # fmt: skip


def prepare_total(
    s: state.Settings,
    bench: state.Benchmark,
    jobs: Sequence[builds.BuildJob],
    statuses: Mapping[str, builds.BuildStatus | None],
) -> None:
    """The total of building ``jobs`` at the rate this machine embeds now (redrawn with the builds'
    progress, so it never falls below the running build's own time left)."""
    total = prepare.plan(bench, jobs, statuses, cache_dir=s.cache_dir)
    st.info(views.md(total.describe()), icon=":material/schedule:")


def _use_demo() -> None:
    st.session_state[DATA_FIELD] = ""
