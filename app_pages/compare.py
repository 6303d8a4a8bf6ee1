"""Compare: one query through 2-5 retrieval methods side by side (default: baseline, SAC generic, recommended)."""

from __future__ import annotations

import streamlit as st

from app_pages.shared import answers_ui, resources, runs_ui, sidebar, widgets
from sac_core.dashboard import answers, compare, state, views

s = sidebar.settings()
st.title("Compare: one query, side by side")
st.caption(
    "Each column ranks chunks for the same query with a different index. **✓** the chunk comes from a gold "
    "document, **✗** from another, often near-identical document: that is *Document-Level Retrieval Mismatch* "
    f"(DRM). Highlighted text lies inside a gold span; the rest is muted. {compare.SCORES_NOTE}"
)
resources.require_datasets(s)
base = s.base_config()
bench = resources.benchmark(s)
choices = compare.method_choices(base, bench)  # an imported run only on its own benchmark
if "cmp_methods" not in st.session_state or any(m not in choices for m in st.session_state["cmp_methods"]):
    st.session_state["cmp_methods"] = list(
        compare.parse_methods(st.query_params.get(compare.PARAM_COLUMNS), base, bench)
    )
if (added := st.session_state.pop("runs_added", None)) in choices and added not in st.session_state["cmp_methods"]:
    st.session_state["cmp_methods"] = [*st.session_state["cmp_methods"], added][-compare.MAX_COLUMNS :]
methods = st.multiselect(
    compare.METHODS_LABEL, list(choices), key="cmp_methods", format_func=lambda key: choices[key], max_selections=compare.MAX_COLUMNS,
)  # fmt: skip
if len(methods) < compare.MIN_COLUMNS:
    st.warning(f"Pick at least {compare.MIN_COLUMNS} methods; showing the default columns meanwhile.")
    methods = list(compare.default_methods(base, bench))
st.session_state["cmp_columns"] = list(methods)  # Review offers them first (a widget's key dies with a page switch)
columns = compare.compare_columns(base, methods)
resources.start_demo_cells(s, columns)  # the committed per-query tables are read while the indexes open
ws, _pending = resources.workspace(s, columns)
if ws is None:  # nothing built yet: the build panel above shows the progress
    st.stop()

url_answerer = answers.answerer_from_url(st.query_params.get(answers.PARAM))  # before the picker rewrites the URL
query, asked, k = widgets.pick_query(ws, resources.demo_cells(s, ws))
st.query_params[compare.PARAM_COLUMNS] = ",".join(methods)  # the URL keeps the choice
st.markdown(views.query_html(None if query is None else query.query_id, asked), unsafe_allow_html=True)

results = resources.compare_results(ws, asked, int(k), query)
baseline = compare.reference(results)
answerer = st.segmented_control(
    answers.answerer_label(k, gold=query is not None),
    list(answers.ANSWERERS), format_func=answers.ANSWERERS.get, key="cmp_answerer",
    default=url_answerer,
) or "off"  # fmt: skip
if answerer != answers.DEFAULT_ANSWERER:
    st.query_params[answers.PARAM] = answerer  # the URL keeps a choice other than the default
else:
    st.query_params.pop(answers.PARAM, None)
slots = []
for col, r in zip(st.columns(len(results)), results):
    with col:
        st.markdown(f"#### {views.md(r.column.name)}")
        st.caption(  # the variant id in the tooltip: a reader sees the method's name above
            f"chunk {r.column.config.chunk_size} · weight {r.column.config.semantic_weight:g}",
            help=f"Variant id (as in exports and result tables): {views.md(r.column.config.variant)}",
        )
        if r.metrics is not None:
            # metrics as wide as their text, wrapping onto more rows in a narrow column (5 columns at
            # 1280 px): never cut to "DR…" as three fixed sub-columns were
            cells = st.container(horizontal=True, gap="small")
            for metric, name, measures in compare.METRICS:
                value = r.metrics[metric]
                delta = None
                if baseline is not None and r is not baseline and baseline.metrics is not None:
                    delta = views.delta_pts(value, baseline.metrics[metric])
                flat = delta == "±0 pts"
                cells.metric(
                    f"{name}@{k}",
                    views.fmt_pct(value),
                    delta,
                    delta_color="off" if flat else "inverse" if metric == "drm" else "normal",
                    delta_arrow="off" if flat else "auto",
                    help=views.md(
                        measures.format(k=k)
                        + ("" if delta is None else " Below: the change against the baseline, in points.")
                    ),
                    width="content",
                )
        if doubt := answers.doubt_sentence(r.doubt):  # two documents about equally likely: say which
            st.warning(views.md(doubt))
        slots.append(st.empty())  # the answer, written once every column's chunks are on the page
        gold = query.gold if query is not None else ()
        flags = r.gold_document if query is not None else None
        cards = views.hit_cards(r.hits, flags, gold, trimmed_from=r.trimmed_from, column=r.column.name)
        st.markdown("".join(cards) or "_nothing retrieved_", unsafe_allow_html=True)
ws.preload_models()  # after the first answer is drawn: then a typed question does not wait for the model
if answerer != "off":
    answers_ui.answer_row(s, ws, results, slots, answerer, asked, query)

if query is not None:
    st.subheader("Gold spans: found or missed by each index")
    st.caption(f"Each gold span in its document (±300 characters), and the share of it inside each index's top {k}.")
    for span, shares in compare.gold_coverage(query, results):
        doc = ws.bench.documents[span.file_path]
        st.markdown(views.gold_span_html(doc.text, span, query.gold, shares), unsafe_allow_html=True)

wrong = compare.wrong_hits(results) if query is not None and ws.embedders() else []  # needs a model column
if wrong:
    st.subheader("Why this wrong document?")
    st.caption(
        "A chunk from another document ranked for this query: the two documents side by side (facts that differ "
        "are shaded) and the query's cosine to the chunk without and with the summary SAC prepends. When the "
        "wrong chunk beats the gold document's best chunk on the chunk alone, the summary is what can tip it."
    )
    choice = st.selectbox(
        "Wrong-document hit", range(len(wrong)), key="cmp_why",
        format_func=lambda i: f"{wrong[i][0]} · #{wrong[i][1]} · {wrong[i][2].chunk.file_path}",
    )  # fmt: skip
    why = resources.why_wrong(ws, wrong[choice], query, asked)
    st.markdown(views.wrong_hit_html(why), unsafe_allow_html=True)

sac = compare.with_summaries(ws, results)
if sac:
    st.subheader("The summary each SAC index prepended")
    st.caption(
        "SAC embeds `[document summary] … [content] chunk`; these are the summaries of the documents "
        "involved here (gold documents first, then in order of retrieval)."
    )
    rows = views.summary_rows(
        query.gold_files if query is not None else None,  # free text: gold unknown, no ✓/✗
        {r.column.name: r.hits for r in results},
        {r.column.name: ws.summaries[r.column.name] for r in sac},
    )
    st.markdown(views.summary_table(rows), unsafe_allow_html=True)
    for r in sac:
        cfg = r.column.config.summary
        with st.expander(
            f"How the “{views.md(r.column.name)}” summaries were made ({cfg.provider}, {cfg.chars} characters)"
        ):
            if cfg.provider == "extractive":
                st.markdown(
                    "No prompt and no model: an offline fingerprint of the text (title, parties, date, "
                    "distinctive defined terms), cut to the length."
                )
                continue
            if cfg.provider == "file":
                source = compare.summary_source(cfg, s.source.data_dir)
                st.caption(
                    f"Read from {views.md(source)}, written with the “{views.md(cfg.prompt_name)}” prompt below."
                )
            try:
                prompt = compare.load_prompt(cfg.prompt)
                st.caption(f"Prompt {views.md(prompt.id)} v{prompt.version}: {views.md(prompt.description)}")
                st.markdown(views.prompt_html(prompt.text), unsafe_allow_html=True)
            except state.LOAD_ERRORS as e:
                st.error(views.md(e))

# Last on the page: the uploader's scripts then load after the chunks are on screen (issue 27)
st.subheader("Bring your own retriever")
runs_ui.import_run_panel(s)
