"""UI pieces shared by the pages: the sidebar, the demo banner, shared indexes with a progress bar.

UI only: every decision is made by ``sac_core.app_state``; this module draws and wires widgets.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import streamlit as st

from sac_core import app_state as state
from sac_core.benchmark import Benchmark, BenchmarkError, load_benchmark
from sac_core.compare import Column, Workspace
from sac_core.protocols import PROTOCOLS
from sac_core.summaries import SummaryError
from sac_core import views
from sac_core.views import CSS

SETTINGS = "sac_settings"  # session_state key of the sidebar's Settings
API_KEY = "sac_api_key"  # session_state key of the password widget (this session only)
PROVIDER_LABELS = {"file": "file (LLM summaries from summaries/llm.jsonl)", "extractive": "extractive (offline)",
                   "openai": "openai (API, needs a key)"}
LOAD_ERRORS = (BenchmarkError, SummaryError, KeyError, OSError, RuntimeError, ValueError)


@st.cache_resource(show_spinner=False)
def registry() -> state.Registry:
    """Indexes and benchmarks shared by every session of this server."""
    return state.Registry(size=4)


def sidebar() -> state.Settings:
    """The global settings (data, protocol, datasets, summaries, API key); stored for the pages."""
    cache_dir = state.default_cache_dir()
    with st.sidebar:
        st.markdown("### Data")
        field = st.text_input(
            "Data directory", value=state.default_data_field(), key="sac_data_dir",
            help="A LegalBench-RAG folder (corpus/, benchmarks/). Empty: the built-in demo corpus.",
        )
        source = state.resolve_data_source(field, cache_dir)
        if source.problem:
            st.error(f"{source.problem}. Showing the demo corpus instead.")
        where = str(source.data_dir)
        protocol = st.selectbox("Protocol", PROTOCOLS, index=PROTOCOLS.index(source.default_protocol),
                                key=f"sac_protocol::{where}",
                                help="full: every query; lbr-mini: 194 per dataset; paper: the SAC paper's 194")
        datasets = st.multiselect("Datasets", source.datasets, default=list(source.datasets),
                                  key=f"sac_datasets::{where}", help="All chosen datasets share ONE retrieval pool.")
        st.markdown("### Summaries")
        provider = st.selectbox("Summary provider", source.providers, key=f"sac_provider::{where}",
                                format_func=lambda p: PROVIDER_LABELS.get(p, p))
        lengths = state.summary_lengths(provider)
        if lengths:
            chars = st.selectbox("Summary length (characters)", lengths, key="sac_chars_fixed")
        else:
            chars = int(st.number_input("Summary length (characters)", 50, 1000, 150, step=10, key="sac_chars_any"))
        st.text_input("OpenAI API key (optional)", type="password", key=API_KEY,
                      help="Only for the openai provider, only in this session: never stored, cached, logged "
                           "or put in the URL. Or set OPENAI_API_KEY / OPENAI_BASE_URL on the server.")
    settings = state.Settings(source, cache_dir, protocol, tuple(datasets), provider, int(chars))
    st.session_state[SETTINGS] = settings
    return settings


def settings() -> state.Settings:
    """The sidebar's settings (drawing the sidebar when a page runs on its own)."""
    got = st.session_state.get(SETTINGS)
    return got if isinstance(got, state.Settings) else sidebar()


def api_key(s: state.Settings) -> str | None:
    """This session's API key, only when the openai provider is chosen."""
    return (st.session_state.get(API_KEY) or None) if s.provider == "openai" else None


def style() -> None:
    st.markdown(CSS, unsafe_allow_html=True)


def banner(s: state.Settings) -> None:
    """Says when the demo corpus is shown and how to use LegalBench-RAG instead."""
    if not s.source.demo:
        return
    st.info(
        "**Demo corpus.** No LegalBench-RAG folder is set, so this shows a small generated benchmark "
        "(near-identical NDAs and privacy policies, the situation in which retrieval takes the right clause "
        "from the wrong document). To use LegalBench-RAG: run `SAC_DATA_DIR=/path/to/legalbench-rag make app` "
        "or type the folder into **Data directory** in the sidebar.",
        icon="ℹ️",
    )
    with st.expander("Getting LegalBench-RAG"):
        st.markdown(
            f"1. `git clone {state.LBR_REPO}`\n"
            "2. Download the corpus and benchmarks with the Dropbox link in that repository's README and unzip "
            "them into one folder, so that it holds `corpus/<dataset>/*.txt` and `benchmarks/<dataset>.json`.\n"
            "3. Optional, for the *file* summary provider: put LLM summaries in `summaries/llm.jsonl` "
            "(`sac summarize --out ...` writes that format).\n"
            "4. `SAC_DATA_DIR=/that/folder make app`"
        )


def require_datasets(s: state.Settings) -> None:
    if not s.datasets:
        st.warning("Choose at least one dataset in the sidebar.")
        st.stop()


def benchmark(s: state.Settings) -> Benchmark:
    """The selected queries and documents, loaded once per (data, protocol, datasets)."""
    require_datasets(s)
    key = state.resource_key("bench", s.source.data_dir, s.protocol, s.datasets)
    try:
        with st.spinner("Loading the benchmark …"):
            return registry().get(key, lambda: load_benchmark(s.source.data_dir, s.datasets, s.protocol))
    except LOAD_ERRORS as e:
        st.error(f"Could not load the benchmark: {e}")
        st.stop()


def progress_callback(bar):  # noqa: ANN001, ANN201 - a Streamlit progress element
    """An ``on_progress(fraction, message)`` that moves ``bar``."""
    return lambda fraction, message: bar.progress(min(1.0, max(0.0, float(fraction))), text=message)


def confirm_openai(s: state.Settings, bench: Benchmark, columns: Sequence[Column], what: str) -> None:
    """Before requesting summaries from an API: needs a key, shows the cost, asks once per session."""
    if s.provider != "openai":
        return
    est = state.pending_cost(bench, columns, s.source.data_dir, s.cache_dir)
    if est.documents == 0:
        return
    if not api_key(s) and not os.environ.get("OPENAI_API_KEY") and not os.environ.get("OPENAI_BASE_URL"):
        st.warning("The openai provider needs an API key: enter it in the sidebar (kept for this session only).")
        st.stop()
    ok_key = f"sac_openai_ok::{what}"
    if st.session_state.get(ok_key):
        return
    st.warning(f"Building these indexes requests {est.documents} summaries: {est}.")
    if st.button("Request the summaries", key=f"sac_openai_btn::{what}"):
        st.session_state[ok_key] = True
        return
    st.stop()


def workspace(s: state.Settings, columns: Sequence[Column]) -> Workspace:
    """The Compare indexes for ``columns``, built once (progress bar) and shared by all sessions."""
    key = state.resource_key("workspace", s.source.data_dir, s.cache_dir, s.protocol, s.datasets, *columns)
    bars = []

    def build() -> Workspace:
        bench = benchmark(s)
        confirm_openai(s, bench, columns, "compare")
        bars.append(st.progress(0.0, text="Building the indexes (once; then shared by every session) …"))
        return Workspace(bench, columns, s.source.data_dir, s.cache_dir, api_key(s), progress_callback(bars[0]))

    try:
        return registry().get(key, build)
    except LOAD_ERRORS as e:
        st.error(f"Could not build the indexes: {e}")
        st.stop()
    finally:
        for bar in bars:
            bar.empty()


pct = views.fmt_pct
