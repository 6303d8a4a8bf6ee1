"""Review: legal experts judge each method's top-k blind (columns A, B, C), stored in a database.
Who is who comes from a link of their own (or the deployment's login), never from a name typed in."""

from __future__ import annotations

import streamlit as st

from app_pages import shared as ui
from app_pages.shared import review_access_ui as access_ui
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
grant = access_ui.who(db)
login = rv.login_of(st.user.to_dict()) if rv.login_required() else None
if st.session_state.pop("rv_created", None):  # a session just made: its owner's page opens
    st.session_state["rv_mode"] = "Reviewers"
if grant is None:
    st.info(access_ui.NO_LINK)
    review_ui.review_new_session(s, db, owner_login=login)
    st.stop()

session = next(x for x in db.sessions() if x.id == grant.session_id)
modes = ["Reviewers", "Results", "New session"] if grant.owner else ["Review", "Results", "New session"]
if st.session_state.get("rv_mode") not in modes:
    st.session_state["rv_mode"] = modes[0]
mode = st.segmented_control("Mode", modes, key="rv_mode", label_visibility="collapsed")
if mode == "New session":
    review_ui.review_new_session(s, db, owner_login=login)
    st.stop()
if grant.owner:
    if mode == "Reviewers":
        access_ui.owner_page(db, grant)
    elif st.toggle("Show the team's results (they say which method each column was)", key="rv_team"):
        review_ui.review_results(db, session, None)
    st.stop()

reviewer = grant.name
st.caption(access_ui.REVIEWER_PROMISE.format(name=views.md(reviewer)))
if mode == "Results":
    review_ui.review_results(db, session, reviewer)
    st.stop()
if session.folder is not None and session.folder != rv.folder_key(s.source.data_dir):
    st.warning(
        f"“{views.md(session.name)}” was made on another data folder ({views.md(session.data)}). To review it, set "
        "that folder as the **Data directory** in the sidebar; your **Results** can be read from here."
    )
    st.stop()

progress = rv.progress(db, session.id, reviewer)
key = f"rv_pos::{session.id}"
if key not in st.session_state:  # resume where this reviewer stopped
    st.session_state[key] = progress.next_open if progress.next_open is not None else 0
position = int(st.session_state[key])
if progress.finished:
    st.success(f"You have finished this session: all {progress.items} queries labelled, each with a preference. "
               "Your results, in words with your notes beside them, are under **Results**.")  # fmt: skip
    st.button("Read my results", key="rv_to_results", type="primary", on_click=review_ui.open_results)
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
if st.button("Next open query ▶", key="rv_next_open_bottom", disabled=next_open is None):  # below the preference
    st.session_state[key] = next_open
    st.rerun()
