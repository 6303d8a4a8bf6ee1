"""Shared UI (not a page): the sidebar with the global settings, the page style and the demo banner.

UI only: every decision is made by ``sac_core.dashboard.state``; this module draws and wires widgets.
"""

from __future__ import annotations

import streamlit as st

from sac_core.dashboard import state, views

SETTINGS = "sac_settings"  # session_state key of the sidebar's Settings
API_KEY = "sac_api_key"  # session_state key of the password widget (this session only)
PROVIDER_LABELS = {  # short enough for the sidebar's box at 1280 px; the help says more
    "file": "file (llm.jsonl)",
    "extractive": "extractive (offline)",
    "openai": "openai (needs a key)",
}
PROVIDER_HELP = (
    "file: LLM summaries read from the data folder's summaries/llm.jsonl. extractive: an offline fingerprint "
    "of each document (title, parties, dates, defined terms), no model. openai: written by an "
    "OpenAI-compatible API (the key below, or the server's OPENAI_API_KEY)."
)
LONG_FIELD = 28  # characters the data-directory box shows at 1280 px: a longer folder is repeated below


def sidebar() -> state.Settings:
    """The global settings (data, protocol, datasets, summaries, API key); stored for the pages."""
    cache_dir = state.default_cache_dir()
    with st.sidebar:
        st.markdown("### Data")
        field = st.text_input(
            "Data directory",
            value=state.default_data_field(),
            key="sac_data_dir",
            help="A LegalBench-RAG folder (corpus/, benchmarks/). Empty: the built-in demo corpus.",
        )
        if len(field.strip()) > LONG_FIELD:  # the box cuts it: the whole folder, wrapping at its slashes
            st.caption(views.md(views.breakable(field.strip())))
        source = state.resolve_data_source(field, cache_dir)
        if source.problem:
            st.error(f"{views.md(source.problem)}. Showing the demo corpus instead.")
        where = str(source.data_dir)
        protocol = st.selectbox(
            "Protocol",
            state.PROTOCOLS,
            index=state.PROTOCOLS.index(source.default_protocol),
            key=f"sac_protocol::{where}",
            help="full: every query; lbr-mini: 194 per dataset; paper: the SAC paper's 194",
        )
        datasets = st.multiselect(
            "Datasets",
            source.datasets,
            default=list(source.datasets),
            key=f"sac_datasets::{where}",
            help="All chosen datasets share ONE retrieval pool.",
        )
        st.markdown("### Summaries")
        if problem := source.summary_file_problem:
            st.warning(views.md(problem))
        provider = st.selectbox(
            "Summary provider",
            source.providers,
            key=f"sac_provider::{where}",
            format_func=lambda p: PROVIDER_LABELS.get(p, p),
            help=PROVIDER_HELP,
        )
        lengths = state.summary_lengths(provider)
        if lengths:
            chars = st.selectbox("Summary length (characters)", lengths, key="sac_chars_fixed")
        else:
            chars = int(st.number_input("Summary length (characters)", 50, 1000, 150, step=10, key="sac_chars_any"))
        st.text_input(
            "OpenAI API key (optional)",
            type="password",
            key=API_KEY,
            help="Only for the openai provider, only in this session: never stored, cached, logged "
            "or put in the URL. Or set OPENAI_API_KEY / OPENAI_BASE_URL on the server.",
        )
    settings = state.Settings(source, cache_dir, protocol, tuple(datasets), provider, int(chars))
    st.session_state[SETTINGS] = settings
    return settings


def data_keys(s: state.Settings) -> tuple[str, str]:
    """The session keys of the sidebar's protocol and datasets for the data folder in use."""
    where = str(s.source.data_dir)
    return f"sac_protocol::{where}", f"sac_datasets::{where}"


def settings() -> state.Settings:
    """The sidebar's settings (drawing the sidebar when a page runs on its own)."""
    got = st.session_state.get(SETTINGS)
    return got if isinstance(got, state.Settings) else sidebar()


def api_key(s: state.Settings) -> str | None:
    """This session's API key, only when the openai provider is chosen."""
    return (st.session_state.get(API_KEY) or None) if s.provider == "openai" else None


def style() -> None:
    st.markdown(views.CSS, unsafe_allow_html=True)


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
