"""Review: legal experts judge each method's top-k blind (columns A, B, C), stored in a database."""

from __future__ import annotations

import streamlit as st

from app_pages import shared as ui
from app_pages.shared import review_ui
from sac_core.dashboard import review as rv
from sac_core.dashboard import views

s = ui.settings()
st.title("Review: judge the retrieved chunks, blind")
db = review_ui.review_db(s)
st.caption(
    "Each query shows the top-k of every method under review as columns A, B, C … in an order shuffled per "
    "query: which method a letter is appears only after you state a preference. Above each column, its answer "
    "(written once per query from the column's chunks, offline) can be labelled too. Labels are saved at once in "
    "the server's review database."
)
# The name is kept for the browser session (a page switch drops a widget's value, not this key) and in
# the URL (?reviewer=…, a bookmark resumes): a name, no secret.
if "rv_name" not in st.session_state:
    st.session_state["rv_name"] = st.session_state.get("rv_reviewer") or rv.reviewer_name(
        st.query_params.get("reviewer")
    )
reviewer = rv.reviewer_name(st.text_input("Your name (stored with every label)", key="rv_name", max_chars=rv.MAX_NAME))
st.session_state["rv_reviewer"] = reviewer
if reviewer:
    st.query_params["reviewer"] = reviewer
else:
    st.query_params.pop("reviewer", None)
if not reviewer:
    st.info("Enter your name to start or resume a review session.")
    st.stop()
if opened := st.session_state.pop("rv_created", None):  # a session just created: open it for review
    st.session_state["rv_mode"], st.session_state["rv_session"] = "Review", opened
mode = st.segmented_control("Mode", ["Review", "New session", "Results"], key="rv_mode", default="Review",
                            label_visibility="collapsed")  # fmt: skip
sessions = db.sessions()

if mode == "New session":
    review_ui.review_new_session(s, db, reviewer)
    st.stop()
if not sessions:
    st.info("No review session yet: make one under **New session**.")
    st.stop()
choice = rv.session_choice(sessions, s.source.data_dir)
if st.session_state.get("rv_session") not in choice.names:  # first visit, or a session of another folder
    st.session_state.pop("rv_session", None)
    if choice.index is not None:
        st.session_state["rv_session"] = choice.names[choice.index]  # this folder's newest session
name = st.selectbox(
    "Session", choice.names, index=None, key="rv_session", placeholder="Choose a session",
    format_func=lambda n: f"{n} (made on another data folder)" if n in choice.elsewhere else n,
)  # fmt: skip
if name is None:
    st.info("No review session on this data folder yet: make one under **New session**, or choose one above.")
    st.stop()
session = next(x for x in sessions if x.name == name)

if mode == "Results":
    review_ui.review_results(db, session, reviewer)
    st.stop()
if name in choice.elsewhere:
    st.warning(
        f"“{views.md(name)}” was made on another data folder ({views.md(session.data)}). To review it, set that "
        "folder as the **Data directory** in the sidebar; its **Results** can be read from here."
    )
    st.stop()

progress = rv.progress(db, session.id, reviewer)
key = f"rv_pos::{session.id}"
if key not in st.session_state:  # resume where this reviewer stopped
    st.session_state[key] = progress.next_open if progress.next_open is not None else 0
position = int(st.session_state[key])
st.progress(progress.done / progress.items if progress.items else 0.0,
            text=f"{progress.done} of {progress.items} queries done · {progress.labels} labels · "
                 f"{progress.answer_labels} answer labels · {progress.preferences} preferences · "
                 f"you are on query {position + 1}")  # fmt: skip
nav = st.columns([1, 1, 1, 4])
if nav[0].button("◀ Back", key="rv_back", shortcut="b", disabled=position == 0):
    st.session_state[key] = position - 1
    st.rerun()
if nav[1].button("Skip ▶", key="rv_skip", shortcut="n", disabled=position >= progress.items - 1):
    st.session_state[key] = position + 1
    st.rerun()
next_open = progress.open_after(position)
if nav[2].button("Next open", key="rv_next_open", disabled=next_open is None,
                 help="The next query you have not finished (labels and a preference) in this session"):  # fmt: skip
    st.session_state[key] = next_open
    st.rerun()
show_gold = nav[3].toggle("Show gold spans (recorded with your labels)", key="rv_gold")

view = rv.item_view(db, session.id, position, reviewer)
review_ui.review_item(s, db, session.id, reviewer, view, show_gold)
