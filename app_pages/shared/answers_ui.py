"""Shared UI (not a page): Compare's answer row, one answer box per column.

UI only: the answers, their checks and their HTML come from ``sac_core.dashboard.answers``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import streamlit as st

from sac_core.dashboard import answers, state, views

from .resources import cached_answer, column_answer, document_names, llm_settings

if TYPE_CHECKING:  # names only: pages call the project through sac_core.dashboard
    from sac_core.engine.data import Query
    from sac_core.experiments import ColumnResult, Workspace


def answer_row(
    s: state.Settings,
    ws: Workspace,
    results: Sequence[ColumnResult],
    slots: Sequence[Any],
    kind: str,
    question: str,
    query: Query | None,
) -> None:
    """Fill each column's answer slot: offline at once; with the LLM, after the cost is confirmed
    (once per session; cached answers are shown without asking), streamed as it is written."""
    llm = llm_settings(st.session_state.get("cmp_llm_model") or answers.DEFAULT_LLM_MODEL)
    if kind == "openai" and not _llm_ready(s, results, question, query, llm):
        return
    named = answers.named_documents(document_names(ws), question)  # the document the question names, if any
    for slot, result in zip(slots, results):
        stream = lambda text, slot=slot: slot.markdown(answers.streaming_html(text), unsafe_allow_html=True)
        try:
            answer = column_answer(s, ws, result, kind, question, query, llm, stream if kind == "openai" else None)
        except answers.AnswerError as e:
            slot.markdown(answers.error_html(str(e)), unsafe_allow_html=True)
            continue
        doubt = answers.doubt_sentence(result.doubt)
        slot.markdown(answers.answer_html(answer, result.column.name, named, doubt=doubt), unsafe_allow_html=True)


def _llm_ready(
    s: state.Settings,
    results: Sequence[ColumnResult],
    question: str,
    query: Query | None,
    llm: answers.LLMSettings,
) -> bool:
    """Model field, key check and the cost of the answers not cached yet; True when asking may go on."""
    st.text_input(
        "LLM model for the answers",
        value=os.environ.get("SAC_ANSWER_MODEL", answers.DEFAULT_LLM_MODEL),
        key="cmp_llm_model",
        help="Asked at the server's OPENAI_BASE_URL (default api.openai.com) with the sidebar's key or the "
        "server's OPENAI_API_KEY; temperature 0; answers are cached by model, prompt and chunk texts.",
    )
    if not llm.usable():
        st.warning("The LLM answerer needs an API key: enter it in the sidebar (kept for this session only).")
        return False
    missing = [r for r in results if cached_answer(s, r, question, query, llm) is None]
    if not missing or st.session_state.get("cmp_llm_ok"):
        return True
    cost = answers.llm_estimate(question, [r.hits for r in missing], llm.model)
    st.info(
        f"Answering asks {views.md(llm.model)} {cost.answers} times: at most {cost.input_tokens:,} input and "
        f"{cost.output_tokens:,} output tokens, about ${cost.usd:.4f} at gpt-4o-mini prices. Answers already "
        "cached cost nothing."
    )
    if st.button("Ask the LLM (for this session)", key="cmp_llm_ask"):
        st.session_state["cmp_llm_ok"] = True
        return True
    return False
