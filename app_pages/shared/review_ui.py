"""Shared UI (not a page): the pieces of the Review page: the database, a new session, one query
under blind review (mouse or keyboard; each column's answer labelled too), and the results."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from sac_core.dashboard import answers, compare, curves, errors, state, views, wording
from sac_core.dashboard import review as rv
from sac_core.dashboard.state import LOAD_ERRORS

from . import review_access_ui as access_ui
from .resources import benchmark, page_embedder, workspace

SHORTCUTS = "12345"  # keys of the label buttons, in the order of rv.LABELS
NOTE_HEIGHT = 68  # pixels: two lines to begin with; the box grows as the reviewer drags it
NOTE_CHARS = 5000
LABEL_HELP = " · ".join(f"{n} = {rv.LABEL_NAMES[label]}" for n, label in zip(SHORTCUTS, rv.LABELS))


def review_db(s: state.Settings) -> rv.ReviewDB:
    """The review database of this server ($SAC_REVIEW_DB or a SQLite file under the cache)."""
    url = rv.default_url(s.cache_dir)
    try:
        return _review_db(url)
    except rv.ReviewError as e:
        errors.log.warning("Review: %s", e)  # the whole story (password hidden) for the operator
        st.error(views.md(e.public))  # the database by its kind only
        st.stop()


@st.cache_resource(show_spinner=False, max_entries=2)  # one database per server (a test may point at another)
def _review_db(url: str) -> rv.ReviewDB:
    """The review database at ``url``, opened once per server (its connection pool is shared)."""
    return rv.ReviewDB(url)


def review_new_session(s: state.Settings, db: rv.ReviewDB, owner: str = "", owner_login: str | None = None) -> None:
    """A named sample of queries, 2–5 of the built indexes and k: retrieved now, stored for review,
    with a link for its owner and one per reviewer (then the owner's page opens)."""
    bench = benchmark(s)
    ws = _methods(s, bench)
    name = st.text_input("Session name", key="rv_new_name", max_chars=200).strip()
    row = st.columns(2)
    owner = rv.reviewer_name(row[0].text_input("Your name (the session's owner)", value=owner, key="rv_new_owner",
                                               max_chars=rv.MAX_NAME))  # fmt: skip
    reviewers = [rv.reviewer_name(n) for n in row[1].text_area(
        "Reviewers, one name per line (each gets a link; more can be added later)", key="rv_new_reviewers",
        height=NOTE_HEIGHT).splitlines()]  # fmt: skip
    k = st.slider("k (chunks per method and query)", 1, 10, 5, key="rv_new_k")
    how = st.radio("Queries", ["a random sample", "queries that flipped between two sweep cells"], key="rv_new_how",
                   horizontal=True)  # fmt: skip
    row = st.columns(3)
    size = int(row[0].number_input("How many", 1, 500, 20, key="rv_new_size"))
    seed = int(row[1].number_input("Seed (sample and blind order)", 0, 10**6, 1, key="rv_new_seed"))
    if how == "a random sample":
        datasets = row[2].multiselect("Datasets", list(bench.datasets), default=list(bench.datasets),
                                      key="rv_new_datasets")  # fmt: skip
        queries = rv.sample_queries(ws.bench, datasets, size, seed)
        sample: dict[str, object] = {"how": "random", "datasets": datasets, "size": size, "seed": seed}
    else:
        folders = [f for f in curves.list_sweeps([curves.results_root(), curves.demo_results_root(s.cache_dir)])
                   if f.per_query.is_file()]  # fmt: skip
        if not folders:
            st.warning("No sweep with per-query results: run a sweep first, or take a random sample.")
            st.stop()
        folder = row[2].selectbox("Sweep", folders, format_func=lambda f: f.name, key="rv_new_sweep")
        table = curves.load_folder(folder).drop_duplicates("cell")
        names = wording.method_names(table.to_dict("records"))  # the catalogue's names, never a variant id
        labels = {c: f"{names[v]} · chunk {cs} · weight {w:g}" for c, v, cs, w in
                  zip(table["cell"], table["variant"], table["chunk_size"], table["semantic_weight"])}  # fmt: skip
        pick = st.columns(4)
        cell_a = pick[0].selectbox("Cell a", list(labels), format_func=labels.get, key="rv_new_a")
        cell_b = pick[1].selectbox("Cell b", list(labels), index=min(1, len(labels) - 1), format_func=labels.get,
                                   key="rv_new_b")  # fmt: skip
        metric = pick[2].selectbox("Metric", curves.METRICS, key="rv_new_metric", format_func=wording.words)
        at_k = pick[3].selectbox("at k", [1, 2, 4, 8, 16, 32, 64], index=3, key="rv_new_atk")
        per_query = curves.pd.read_csv(folder.per_query)
        queries = rv.flipped_sample(ws.bench, per_query, cell_a, cell_b, metric, at_k, size, seed)
        sample = {"how": "flipped", "sweep": folder.name, "a": labels[cell_a], "b": labels[cell_b],
                  "metric": metric, "k": at_k, "size": size, "seed": seed}  # fmt: skip
    st.caption(f"{len(queries)} queries in this sample.")
    if st.button("Create the session", type="primary", key="rv_create", disabled=not (name and owner and queries)):
        data = f"{s.source.data_dir.name} · {s.protocol} · {', '.join(s.datasets)}"
        plan = rv.SessionPlan(name, owner, data, list(ws.columns), queries, k, seed, sample, s.source.data_dir)
        _create(db, ws, plan, reviewers, owner_login)


def _methods(s: state.Settings, bench: compare.Benchmark) -> compare.Workspace:
    """The methods to review, any Compare column (Recommended included; Compare's own columns
    offered first), opened or built (then the session can only hold those built)."""
    base = s.base_config()
    choices = compare.method_choices(base, bench)
    shown = st.session_state.get("cmp_columns") or compare.default_methods(base)  # Compare's columns first
    chosen = [k for k in shown if k in choices]
    keys = st.multiselect("Methods under review: 2 to 5 of any Compare column (one not built yet is built first)",
                          list(choices), default=chosen, format_func=choices.get, max_selections=len(rv.LETTERS),
                          key="rv_new_methods")  # fmt: skip
    if len(keys) < 2:
        st.info("Choose 2 to 5 methods to review.")
        st.stop()
    ws, pending = workspace(s, compare.compare_columns(base, keys))
    if ws is None:
        st.stop()
    if pending:  # offered once built: a session made now would silently lack them
        names = ", ".join(views.md(c.name) for c in pending)
        st.warning(f"Still being built: {names}. A session made now reviews only the methods built; wait "
                   "for the build above to finish to include them.")  # fmt: skip
    return ws


def _create(db: rv.ReviewDB, ws: compare.Workspace, plan: rv.SessionPlan, reviewers: list[str],
            owner_login: str | None) -> None:  # fmt: skip
    """Make the session and its links, then open its owner's page (the links shown there once)."""
    try:
        with st.spinner("Retrieving every query through every method …"):
            _, token, links = rv.create_with_links(db, ws, plan, reviewers, owner_login=owner_login)
    except (rv.SessionError, *LOAD_ERRORS) as e:
        st.error(views.md(e))
        st.stop()
    access_ui.remember({f"{plan.reviewer} (owner of “{plan.name}”)": token,
                        **{f"{n} (reviewer)": t for n, t in links.items()}})  # fmt: skip
    access_ui.open_as_owner(token)
    st.session_state["rv_created"] = True  # the owner's page opens at its start (see the page)
    st.rerun()


SHOWN = "rv_shown"  # session state: widget base key → (generation, the value its widget shows)
_NEVER = object()  # no widget drawn yet


def _key(base: str, stored: object) -> str:
    """The key of the widget that shows ``stored`` under ``base`` (a label, a note, a preference). The
    server never pushes a value into a widget the browser holds (it could arrive after an edit there and
    be sent back as typed: issue 41): a widget keeps its key while what is stored is what it shows; a
    value changed elsewhere (a key press, the chunk's copy in another column) gets a new widget and key."""
    shown: dict[str, tuple[int, object]] = st.session_state.setdefault(SHOWN, {})
    generation, value = shown.get(base, (0, _NEVER))
    if value != stored:
        generation += 1
        shown[base] = (generation, stored)
    return f"{base}::{generation}"


def _given(key: str) -> object:
    """Widget ``key``'s value to store, or ``_NEVER``: only from the current widget of its base key, when
    changed (a replaced widget can still send its drawn value after an interrupted run: issue 41)."""
    value = st.session_state.get(key)
    base, generation = key.rsplit("::", 1)
    shown: dict[str, tuple[int, object]] = st.session_state.setdefault(SHOWN, {})
    current, before = shown.get(base, (0, _NEVER))
    if current != int(generation) or value == before:
        return _NEVER
    shown[base] = (current, value)
    return value


def _save_label(db: rv.ReviewDB, chunk_id: int, reviewer: str, gold_shown: bool, key: str) -> None:
    """A label given in one column (one row: the note stays as it is); every column of the chunk
    shows it from the next run on."""
    if (given := _given(key)) is not _NEVER:
        rv.set_label(db, chunk_id, reviewer, given, gold_shown=gold_shown)  # type: ignore[arg-type]


def _save_note(db: rv.ReviewDB, chunk_id: int, reviewer: str, key: str) -> None:
    """A note edited in one column, labelled or not."""
    if (given := _given(key)) is not _NEVER:
        rv.set_note(db, chunk_id, reviewer, str(given or ""))


def _press(db: rv.ReviewDB, session_id: int, position: int, reviewer: str, label: str, gold_shown: bool) -> None:
    """A label key pressed: the first chunk not labelled yet, as stored now, gets ``label``. A
    callback: it runs when the press arrives, before the page runs again, so no press is lost to a
    run that another press interrupted."""
    rv.label_next(db, session_id, position, reviewer, label, gold_shown=gold_shown)


def _column_answers(
    s: state.Settings, db: rv.ReviewDB, view: rv.ItemView, texts: dict[int, str]
) -> dict[str, rv.ColumnAnswer]:
    """Each column's answer by letter: stored, or written now (once per query and column, for every
    reviewer) from the column's chunks by the offline extractive answerer over the sidebar's model."""
    make = lambda: answers.make_answerer("extractive", page_embedder(s), s.cache_dir)
    try:
        with st.spinner("Answering the query from each column's chunks …"):
            return {a.letter: a for a in rv.column_answers(db, view, texts, make)}
    except LOAD_ERRORS as e:
        st.warning(f"No answers for this query: {views.md(e)}")
        return {}


def _save_answer_label(db: rv.ReviewDB, answer_id: int, reviewer: str, gold_shown: bool, key: str) -> None:
    if (given := _given(key)) is not _NEVER:
        rv.set_answer_label(db, answer_id, reviewer, given, gold_shown=gold_shown)  # type: ignore[arg-type]


def _save_answer_note(db: rv.ReviewDB, answer_id: int, reviewer: str, key: str) -> None:
    if (given := _given(key)) is not _NEVER:
        rv.set_answer_note(db, answer_id, reviewer, str(given or ""))  # keeps the label


def _answer_box(
    db: rv.ReviewDB, reviewer: str, view: rv.ItemView, column: rv.ColumnAnswer, mine: tuple[str | None, str],
    show_gold: bool,
) -> None:  # fmt: skip
    """A column's answer above its chunks, with its label (none yet, or this reviewer's) and note."""
    letter, answer_id = column.letter, column.answer_id
    st.markdown(rv.answer_box_html(column, view.gold, show_gold=show_gold, blind=view.methods is None),
                unsafe_allow_html=True)  # fmt: skip
    label_key, note_key = _key(f"rv_alabel::{answer_id}", mine[0]), _key(f"rv_anote::{answer_id}", mine[1])
    st.segmented_control(
        f"Answer label of {letter}", rv.ANSWER_LABELS, default=mine[0], key=label_key,
        format_func=rv.ANSWER_LABEL_NAMES.get, label_visibility="collapsed", wrap=True,
        on_change=_save_answer_label, args=(db, answer_id, reviewer, show_gold, label_key),
    )  # fmt: skip
    st.text_area(f"Note on the answer of {letter}", mine[1], key=note_key, placeholder="note on the answer (optional)",
                 label_visibility="collapsed", height=NOTE_HEIGHT, max_chars=NOTE_CHARS,
                 on_change=_save_answer_note, args=(db, answer_id, reviewer, note_key))  # fmt: skip


def review_item(
    s: state.Settings, db: rv.ReviewDB, session_id: int, reviewer: str, view: rv.ItemView, show_gold: bool
) -> None:
    """One query: the blind columns with a label per chunk, the preference, and keyboard labelling.

    A chunk several methods retrieved is shown, labellable, in each of their columns (one label and
    one note stored, shown in every copy): nothing says which columns share it. Every widget shows
    what is stored (:func:`_key`) and writes its own row only when the reviewer changes it."""
    st.markdown(views.query_html(view.query_id, view.query_text), unsafe_allow_html=True)
    _label_keys_row(db, session_id, reviewer, view, show_gold)
    try:
        texts = {c.chunk_id: rv.document_text(s.source.data_dir, c.file_path)[c.start : c.end]
                 for _, column in view.columns for c in column}  # fmt: skip
    except state.BenchmarkError as e:
        st.error(f"This session's documents cannot be read in the current data folder: {views.md(e)}")
        st.stop()
    answered = _column_answers(s, db, view, texts)
    mine = rv.answer_labels(db, [a.answer_id for a in answered.values()], reviewer)
    outlined = False
    for (letter, column), cell in zip(view.columns, st.columns(len(view.columns))):
        with cell:
            st.markdown(f"#### {letter}")
            if letter in answered:
                _answer_box(db, reviewer, view, answered[letter], mine.get(answered[letter].answer_id, (None, "")),
                            show_gold)  # fmt: skip
            for c in column:
                current = view.unlabelled is not None and c.chunk_id == view.unlabelled.chunk_id and not outlined
                outlined = outlined or current
                _chunk(db, reviewer, view, letter, c, texts[c.chunk_id], show_gold, outlined=current)
    _preference(db, reviewer, view, show_gold)


def _label_keys_row(db: rv.ReviewDB, session_id: int, reviewer: str, view: rv.ItemView, show_gold: bool) -> None:
    """The label buttons with their keys 1–5, which label the outlined chunk (the first not labelled yet)."""
    target = view.unlabelled
    keys = st.container(horizontal=True, gap="small")  # as wide as their names, wrapping: never cut off
    for n, (label, shortcut) in enumerate(zip(rv.LABELS, SHORTCUTS)):
        keys.button(f"{shortcut} · {rv.LABEL_NAMES[label]}", key=f"rv_key::{n}", shortcut=shortcut,
                    disabled=target is None, width="content", on_click=_press,
                    args=(db, session_id, view.position, reviewer, label, show_gold))  # fmt: skip
    st.caption(
        "Keys 1–5 label the outlined chunk (the first one not labelled yet); N skips to the next query, B goes back."
        if target is not None
        else "Every chunk of this query is labelled; click a label to change it."
    )
    link = ""  # drawn even when empty: an element that comes and goes would shift (and redraw, emptied)
    if (card := rv.outlined_card(view)) is not None:  # every widget below it, a note being typed included
        letter, rank = card  # below the fold after a key press: one click away
        link = views.jump_link(rv.card_anchor(letter, rank), f"↓ Go to the outlined chunk ({letter}#{rank})")
    st.markdown(link, unsafe_allow_html=True)


def _chunk(
    db: rv.ReviewDB, reviewer: str, view: rv.ItemView, letter: str, c: rv.ChunkView, text: str, show_gold: bool, *,
    outlined: bool,
) -> None:  # fmt: skip
    """One chunk of column ``letter``: its card, its label and its note (stored once per chunk)."""
    label = view.label(c.chunk_id)
    card = views.review_card(f"{letter}#{c.rank}", c.file_path, text, c.start, view.gold_spans, show_gold, outlined,
                             label, anchor_id=rv.card_anchor(letter, c.rank))  # fmt: skip
    st.markdown(card, unsafe_allow_html=True)
    note = view.note(c.chunk_id)
    label_key = _key(f"rv_label::{c.chunk_id}::{letter}", label)
    note_key = _key(f"rv_note::{c.chunk_id}::{letter}", note)
    st.segmented_control(
        f"Label of {letter}#{c.rank}", rv.LABELS, default=label, key=label_key, format_func=rv.SHORT_LABEL_NAMES.get,
        label_visibility="collapsed", help=LABEL_HELP, wrap=True,
        on_change=_save_label, args=(db, c.chunk_id, reviewer, show_gold, label_key),
    )  # fmt: skip
    st.text_area(f"Note on {letter}#{c.rank}", note, key=note_key, placeholder="note (optional)",
                 label_visibility="collapsed", height=NOTE_HEIGHT, max_chars=NOTE_CHARS,
                 on_change=_save_note, args=(db, c.chunk_id, reviewer, note_key))  # fmt: skip


def _preference(db: rv.ReviewDB, reviewer: str, view: rv.ItemView, show_gold: bool) -> None:
    """Which column answers best (or a tie); once saved, which method each letter was."""
    st.subheader("Which column answers the query best?")
    letters = [letter for letter, _ in view.columns]
    pref_key = _key(f"rv_pref::{view.item_id}", view.preference)  # a choice not saved yet stays as the browser has it
    choice = st.segmented_control("Preference", [*letters, rv.TIE], default=view.preference, key=pref_key,
                                  label_visibility="collapsed")  # fmt: skip
    if st.button("Save the preference", key=f"rv_save_pref::{view.item_id}", disabled=choice is None):
        method = rv.TIE if choice == rv.TIE else rv.method_of(db, view.item_id, str(choice))
        rv.set_preference(db, view.item_id, reviewer, method, show_gold)
        st.rerun()
    if view.methods is not None:
        shown = " · ".join(f"{letter} = {views.md(method)}" for letter, method in view.methods.items())
        st.success(f"Your preference: {view.preference}. The columns were: {shown}.")


def open_results() -> None:
    """A callback: the Results mode (set before the mode's widget is drawn again)."""
    st.session_state["rv_mode"] = "Results"


def review_results(db: rv.ReviewDB, session: object, reviewer: str | None) -> None:
    """Results by method, preferences and the exports: of ``reviewer``'s own judgements, once they
    have finished the session (rv.Progress.finished; before, they would say which blind column is
    which method), else the reviewers' agreement alone; ``reviewer`` None (the owner): the team's."""
    labels = rv.label_table(db, session.id)  # type: ignore[attr-defined]
    prefs = rv.preference_table(db, session.id)  # type: ignore[attr-defined]
    if reviewer is not None:
        progress = rv.progress(db, session.id, reviewer)  # type: ignore[attr-defined]
        if not progress.finished:
            st.info(
                f"Results by method, preferences and the exports are hidden until you have finished this session "
                f"({progress.done} of {progress.items} queries done): while the columns are blind to you they "
                "would tell which column is which method (label a chunk only one column shows, and watch which "
                "method's count rises)."
            )
            _agreement(labels)
            return
        st.caption("Your own judgements: other reviewers' are read by the session's owner.")
        labels, prefs = labels[labels["reviewer"] == reviewer], prefs[prefs["reviewer"] == reviewer]
    methods = [m["name"] for m in session.methods]  # type: ignore[attr-defined]
    team = rv.answer_label_table(db, session.id)  # type: ignore[attr-defined]
    answered = team if reviewer is None else team[team["reviewer"] == reviewer]
    _in_words(methods, labels, answered, prefs, you=reviewer is not None)
    with st.expander("The numbers behind these sentences"):
        st.subheader("Chunks by method")
        st.dataframe(rv.by_method_shown(rv.by_method(labels, methods)), hide_index=True, width="stretch")
        st.caption("Judged relevant: share of the method's labelled chunks judged relevant or partly relevant "
                   "(can't tell left out). Gold precision: share of the same chunks' characters inside the "
                   "benchmark's answer passages (gold). Relevant but not gold: chunks judged relevant or partly "
                   "relevant that no gold passage touches.")  # fmt: skip
        _answer_results(answered, team, methods)
        st.subheader("Preferences")
        st.dataframe(rv.win_rates_shown(rv.win_rates(prefs, methods)), hide_index=True, width="stretch")
        st.caption("How often each method's column was preferred, with its 95 % Wilson interval.")
    _agreement(rv.label_table(db, session.id))  # type: ignore[attr-defined]
    name = session.name  # type: ignore[attr-defined]
    row = st.columns(2)
    for fmt, cell in zip(("csv", "jsonl"), row):
        content, count = rv.export_bytes(db, name, fmt, reviewer)
        cell.download_button(f"Export {count} rows ({fmt.upper()})", content, file_name=f"review-{name}.{fmt}",
                             key=f"rv_export::{fmt}")  # fmt: skip


def _agreement(labels: pd.DataFrame) -> None:
    """How much the reviewers agree over the chunks all of them labelled (says nothing of the methods)."""
    agree = rv.agreement(labels)
    st.subheader("Agreement between reviewers")
    st.write(f"{agree['statistic']}: {rv.kappa_text(agree['kappa'])} over {agree['chunks']} chunks labelled by all "
             f"{agree['reviewers']} reviewers" if agree["chunks"] else "Fewer than two reviewers labelled the same "
             "chunks yet.")  # fmt: skip


def _in_words(methods: list[str], labels: pd.DataFrame, answered: pd.DataFrame, prefs: pd.DataFrame, *,
              you: bool) -> None:  # fmt: skip
    """The results as a lawyer reads them: a paragraph per method, then every note beside where it was written."""
    st.subheader("What " + ("you" if you else "the reviewers") + " found, method by method")
    for method in methods:
        st.markdown(views.md(rv.method_paragraph(method, labels, answered, prefs, methods, you=you)))
    if said := rv.ties(prefs):
        st.markdown(views.md(said))
    st.subheader("Your notes" if you else "The reviewers' notes")
    found = rv.notes(labels, answered)
    if found:
        st.table(rv.notes_table(found, team=not you).map(views.md))  # st.table reads each cell as Markdown
    else:
        st.caption("No note was written.")


def _answer_results(table: pd.DataFrame, team: pd.DataFrame, methods: list[str]) -> None:
    """Each method's answers as labelled (``table``), and the team's agreement (``team``)."""
    st.subheader("Answers by method")
    st.dataframe(rv.answers_by_method_shown(rv.answers_by_method(table, methods)), hide_index=True, width="stretch")
    agree = rv.answer_agreement(team)
    kappa = float(agree["kappa"])
    said = "undefined: one label throughout" if kappa != kappa else f"{kappa:.2f}"
    st.caption(
        "Each column's answer was written once per query from its chunks (offline, extractive). Correct … can't "
        "tell: answers with that label; (share): among the answers judged (can't tell left out); reviewers agree: "
        "share of the answers labelled by two reviewers or more on which all gave the same label; kappa: over "
        "the method's answers every reviewer labelled. "
        + (f"All answers: {agree['statistic']} {said} over {agree['answers']} answers labelled by all "
           f"{agree['reviewers']} reviewers." if agree["answers"] else "Fewer than two reviewers labelled the same "
           "answers yet.")
    )  # fmt: skip
