"""Shared UI (not a page): who is on the Review page (a link, or the deployment's login), the page
for someone without a link, and the owner's page (reviewers, their links, the team's results)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from sac_core.dashboard import review as rv
from sac_core.dashboard import views

REVIEWER_PROMISE = (
    "You review as **{name}** through your own link: anyone who has it can label as you, so keep it to yourself. "
    "Your labels, notes and progress are reached only through it; other reviewers' judgements are never shown "
    "here, and which method each column was appears only once you state a preference. Results appear under "
    "**Results** once you have finished every query."
)
OWNER_PROMISE = (
    "This is the **owner's link** of “{session}”: anyone who has it can add reviewers, issue their links and read "
    "everyone's results. Each reviewer reaches only their own labels, through their own link; a link is shown "
    "once, and issuing it again stops the old one."
)
NO_LINK = (
    "Reviews are opened by links, not by names: the owner of a session (whoever made it) gets a link of their own "
    "and one per reviewer, and a reviewer's labels, progress and results are reached only through their link. "
    "Open the link you were given, or make a session below. Sessions made before links get theirs from the "
    "server's operator: `sac review link --session NAME [--reviewer NAME]`."
)


def who(db: rv.ReviewDB) -> rv.Grant | None:
    """What this browser may open: by the link in the URL (remembered for this browser session, so
    another page and back keeps it), or by the deployment's login (``SAC_REVIEW_LOGIN``); None for
    nobody (a name in the URL, ``?reviewer=``, opens nothing)."""
    if rv.login_required():
        return _logged_in(db)
    token = st.query_params.get(rv.PARAM) or st.session_state.get("rv_access")
    grant = rv.open_link(db, token)
    if grant is None:
        if token:
            st.error("This link opens nothing: it is not a review link, or a newer one was issued in its place. "
                     "Ask the session's owner for yours.")  # fmt: skip
        st.session_state.pop("rv_access", None)
        st.query_params.pop(rv.PARAM, None)
        return None
    st.session_state["rv_access"] = token
    st.query_params[rv.PARAM] = token  # a reload or a bookmark resumes
    return grant


def _logged_in(db: rv.ReviewDB) -> rv.Grant | None:
    """The grant of the logged-in person (a session they own or review, chosen when several)."""
    if not st.user.is_logged_in:
        st.info("This server identifies reviewers by its login.")
        if st.button("Log in", type="primary", key="rv_login"):
            st.login()
        st.stop()
    login = rv.login_of(st.user.to_dict())
    grants = rv.grants_of_login(db, login) if login else []
    st.caption(f"Logged in as {views.md(login or 'an account without a verified e-mail')}.")
    if not grants:
        return None
    labels = [f"{g.session} (as {'owner' if g.owner else 'reviewer ' + g.name})" for g in grants]
    pick = st.selectbox("Session", range(len(grants)), format_func=lambda i: labels[i], key="rv_grant")
    return grants[int(pick or 0)]


def show_links(page_url: str | None) -> None:
    """Links issued in this browser session (shown here only: the database keeps their hashes)."""
    fresh: dict[str, str] = st.session_state.get("rv_fresh_links", {})
    if not fresh:
        return
    st.success("New links: copy each now and send it to its person only. They are not shown again (issue a new "
               "one if a link is lost: the old one then stops working).")  # fmt: skip
    for who_, token in fresh.items():
        st.caption(views.md(who_))
        st.code(rv.link(st.context.url, token), language=None)


def remember(links: dict[str, str]) -> None:
    st.session_state["rv_fresh_links"] = {**st.session_state.get("rv_fresh_links", {}), **links}


def open_as_owner(token: str) -> None:
    """Go to the owner's page of a session just made."""
    st.session_state["rv_access"] = token
    st.query_params[rv.PARAM] = token


def owner_page(db: rv.ReviewDB, grant: rv.Grant) -> None:
    """The session's reviewers, their progress and links (add one, issue a link again)."""
    st.caption(OWNER_PROMISE.format(session=views.md(grant.session)))
    show_links(st.context.url)
    people = rv.members(db, grant.session_id)
    if people:
        rows = []
        for m in people:
            p = rv.progress(db, grant.session_id, m.name)
            rows.append({"reviewer": m.name, "link": "issued" if m.linked else "none yet",
                         "queries done": f"{p.done} of {p.items}", "labels": p.labels, "preferences": p.preferences})  # fmt: skip
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        row = st.columns([3, 1])
        name = row[0].selectbox("Reviewer", [m.name for m in people], key="rv_reissue_who")
        if row[1].button("Issue a new link", key="rv_reissue", help="The reviewer's old link stops working"):
            remember({f"{name} (reviewer)": rv.issue(db, grant.session_id, rv.REVIEWER, str(name))})
            st.rerun()
    else:
        st.info("No reviewer yet: add one below.")
    with st.form("rv_add_reviewer", clear_on_submit=True):
        row = st.columns(2)
        name = rv.reviewer_name(row[0].text_input("Reviewer's name", max_chars=rv.MAX_NAME))
        login = row[1].text_input("Their e-mail (only where the server uses its login)", max_chars=320)
        if st.form_submit_button("Add the reviewer and issue their link") and name:
            try:
                remember({f"{name} (reviewer)": rv.add_reviewer(db, grant.session_id, name, login.strip() or None)})
            except rv.SessionError as e:
                st.error(views.md(e))
                return
            st.rerun()
