"""Documents: one document with its chunk boundaries, its SAC summaries and its gold spans."""

from __future__ import annotations

import streamlit as st

from app_pages.shared import resources, sidebar
from sac_core.dashboard import documents, state, views, wording

WINDOW = 30  # chunks drawn at once

s = sidebar.settings()
st.title("Documents: chunks, summaries, gold spans")
st.caption(
    "What the retriever sees of one document: where the chunker cuts it, which summary SAC prepends to "
    "every one of its chunks, and where the benchmark's gold spans lie."
)
bench = resources.benchmark(s)
datasets = [ds for ds in bench.datasets if any(d.dataset == ds for d in bench.documents.values())]
if not datasets:
    st.warning("No documents in the selected datasets.")
    st.stop()

spans_in = documents.gold_by_document(bench)
top = st.columns([1.2, 4, 1.3, 1.3])
dataset = top[0].selectbox("Dataset", datasets, key="doc_dataset")
paths = sorted(fp for fp, d in bench.documents.items() if d.dataset == dataset)
file_path = top[1].selectbox(
    f"Document ({len(paths)} in {views.md(dataset)}; type to search)",
    paths,
    key=f"doc_path::{dataset}",
    format_func=lambda p: f"{p} · {len(bench.documents[p].text):,} characters · {len(spans_in[p])} gold spans",
)
size = int(top[2].number_input("Chunk size", 50, 4000, 500, step=50, key="doc_chunk"))
overlap = int(top[3].number_input("Chunk overlap", 0, 1000, 0, step=10, key="doc_overlap"))
if overlap >= size:
    st.warning("The overlap must be smaller than the chunk size; using 0.")
    overlap = 0
doc = bench.documents[file_path]
chunks = documents.chunks(file_path, doc.text, size, overlap)
pairs = spans_in[file_path]

st.subheader("SAC summaries of this document")
ask = s.provider != "openai" or st.toggle("Request / show the openai summaries of this document", key="doc_openai")
if ask:
    try:
        summaries = documents.document_summaries_for(
            file_path, doc.text, s.provider, s.chars, s.source.data_dir, s.cache_dir, sidebar.api_key(s)
        )
    except state.LOAD_ERRORS as e:
        st.error(f"No summaries: {views.md(e)}")
        summaries = {}
    for col, (prompt, summary) in zip(st.columns(max(1, len(summaries))), summaries.items()):
        with col:
            name = "extractive (no prompt)" if s.provider == "extractive" else f"{views.md(prompt)} prompt"
            st.markdown(f"**{name}** · provider {views.md(s.provider)} · target {s.chars} characters")
            st.markdown(views.summary_box_html(summary), unsafe_allow_html=True)
            st.caption(f"{len(summary)} characters")

entities, sections = documents.entity_rows(doc.text), documents.section_rows(doc.text)
left, right = st.columns(2)
with left:
    st.subheader(f"Legal entities ({len(entities)})")
    st.caption("Read by rules and eyecite from the text; the entity signal matches a query against them.")
    st.dataframe(entities, hide_index=True, width="stretch", height=260)
with right:
    st.subheader(f"Sections ({len(sections)})")
    st.caption("Cut at headings and numbering; section routing ranks them by their opening text.")
    st.dataframe(sections, hide_index=True, width="stretch", height=260)

st.subheader(f"Gold spans ({len(pairs)})")
if pairs:
    st.dataframe(
        [
            {
                "query": q.query_id,
                "question": wording.question_first(q.text),
                "start": g.start,
                "end": g.end,
                "characters": len(g),
            }
            for q, g in pairs
        ],
        hide_index=True,
        width="stretch",
        column_config={
            "question": st.column_config.TextColumn(
                width="large", help="The question first, then the document it names, shortened"
            )
        },
    )
else:
    st.caption("No query of the selected datasets cites this document.")

st.subheader(f"{len(chunks)} chunks (rcts, {size} characters, overlap {overlap})")
jump_key, first_key = f"doc_jump::{file_path}", f"doc_first::{file_path}"
targets = {"the beginning": 0} | {
    f"gold span {i} ({q.query_id}, [{g.start:,}, {g.end:,}))": views.chunk_range_around(chunks, g)
    for i, (q, g) in enumerate(pairs, start=1)
}


def _jump() -> None:
    st.session_state[first_key] = targets[st.session_state[jump_key]] + 1


nav = st.columns([3, 1])
nav[0].selectbox("Jump to", list(targets), key=jump_key, on_change=_jump)
first = int(nav[1].number_input(f"First chunk shown (of {len(chunks)})", 1, max(1, len(chunks)), 1, key=first_key)) - 1
st.caption(
    "Chunks alternate blue / pink, text in two chunks (overlap) is violet, text in none (stripped by the "
    "splitter) is grey; gold spans are yellow and underlined; the small blue numbers start each chunk. "
    f"{WINDOW} chunks at a time."
)
if chunks:
    last = min(len(chunks), first + WINDOW) - 1
    lo = 0 if first == 0 else chunks[first].start
    hi = len(doc.text) if last == len(chunks) - 1 else chunks[last].end
    jumped = dict(zip(list(targets)[1:], pairs)).get(st.session_state.get(jump_key, ""))
    if jumped is not None and lo <= jumped[1].start < hi:  # the chosen gold span is drawn: one click away
        link = f"↓ Go to the gold span of {jumped[0].query_id} (characters {jumped[1].start:,}–{jumped[1].end:,})"
        st.markdown(views.jump_link(views.gold_anchor(jumped[1].start), link), unsafe_allow_html=True)
    st.markdown(views.boundaries_html(doc.text, chunks, [g for _, g in pairs], lo, hi), unsafe_allow_html=True)
else:
    st.caption("The document is empty.")
