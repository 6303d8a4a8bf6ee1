"""Map: every chunk of the baseline and of a SAC index in 2-D, coloured by document: why DRM happens."""

from __future__ import annotations

import streamlit as st

from app_pages.shared import resources, sidebar, widgets
from sac_core.dashboard import compare, maps, views, wording

s = sidebar.settings()
st.title("Map: where each index puts the chunks")
st.caption(
    "Each point is a chunk, placed by a 2-D projection of its embedding, coloured as gold document or other "
    "documents (or by dataset). In the "
    "baseline, chunks of near-identical documents lie on top of each other, so the nearest chunk to a question "
    "often belongs to another document; the summary SAC prepends pulls each document's chunks together. ✕ is "
    "the question, ◯ its gold chunks, ◆ the top-k (red: from a wrong document)."
)
resources.require_datasets(s)
ws, _pending = resources.workspace(s, compare.compare_columns(s.base_config(), bench=resources.benchmark(s)))
if ws is None:
    st.stop()
query, asked, k = widgets.pick_query(ws, resources.demo_cells(s, ws))

row = st.columns([1.2, 1.2, 2.5, 2.1])
method = row[0].radio("Projection", maps.PROJECTIONS, key="map_method", format_func=str.upper, horizontal=True,
                      help="PCA: exact and quick. UMAP: keeps neighbourhoods, about a minute once per index.")  # fmt: skip
colouring = row[1].radio("Colour by", list(maps.COLOURINGS), key="map_colour", format_func=maps.COLOURINGS.get,
                         help="At most ten colours: hundreds of documents cannot be told apart")  # fmt: skip
datasets = row[2].multiselect("Datasets shown", list(ws.bench.datasets), default=list(ws.bench.datasets),
                              key="map_datasets")  # fmt: skip
scope = row[3].radio("Documents shown", ["all", "this question's"], key="map_scope", horizontal=True,
                     help="this question's: its gold documents and the documents any index retrieved")  # fmt: skip
shown, beside = maps.map_columns(ws.columns, ws.retrievers, ws.summaries)
if beside:
    names = [c.name for c in beside]
    pick = st.selectbox("Index beside the baseline", names, key="map_sac") if len(names) > 1 else names[0]
    shown.append(next(c for c in beside if c.name == pick))

results = {r.column.name: r for r in resources.compare_results(ws, asked, int(k), query)}
involved = maps.involved_documents(query, {name: r.hits for name, r in results.items()})
for col, cell in zip(shown, st.columns(len(shown))):
    with cell:
        st.markdown(f"#### {views.md(col.name)}")
        if on := maps.drawn_on(ws.columns, ws.retrievers, col.name):
            st.caption(f"Ranks the {views.md(on)} index's chunks: the same map, its own top {k} (◆).")
        data = resources.map_data(s, ws, col, method)  # the first time per index: a bar with the time left
        sep = data.separation
        metrics = st.columns(2)
        metrics[0].metric("own-document neighbours", wording.pct(sep.own_share),
                          help=f"Mean share of a chunk's {maps.NEIGHBOURS} nearest chunks that belong to its own "
                               "document: higher = documents better apart.")  # fmt: skip
        metrics[1].metric("silhouette by document", f"{sep.silhouette:.2f}",
                          help="Mean silhouette of the chunks grouped by document (cosine, a sample of 5,000): "
                               "-1 … 1, higher = better apart.")  # fmt: skip
        retriever = maps.column_index(ws.retrievers, col.name, ws.columns)
        frame = maps.points(retriever, data.projection, datasets, involved if scope != "all" else None, involved)
        frame = frame.assign(group=maps.colour_groups(frame, colouring, query))
        fig = maps.map_figure(frame, retriever, data.projection, "group", maps.question_place(retriever, data, asked),
                             query, results[col.name].hits)  # fmt: skip
        st.plotly_chart(fig, width="stretch", key=f"map_fig::{col.name}")
        st.caption(f"{len(frame):,} of {sep.chunks:,} chunks drawn" + (
            f" (above {maps.MAX_POINTS:,}: this question's documents, then every n-th chunk of the others)"
            if len(frame) < sep.chunks and scope == "all" else ""))  # fmt: skip
