"""Who may open a review session, and as what (issue 41: a name typed in the URL was a credential).

A session has one **owner** (who made it) and its **reviewers**. Each gets a link of their own,
``/review?access=<token>``: the token is 256 random bits (:func:`secrets.token_urlsafe`), shown
once when issued and kept only as its SHA-256, so the database, its backups and the server log never
hold a usable link. Issuing a link again replaces the old one, which stops working at once.

- A **reviewer's link** opens that session as that reviewer: their labels, notes, preferences and
  progress, and, once they have finished every query, the results of their own judgements.
- The **owner's link** manages the session: adds reviewers, issues their links (again), sees each
  reviewer's progress and the team's results.
- A name alone (``?reviewer=Alice``) opens nothing.

Where a deployment has an identity provider, Streamlit's login (``st.login``, OpenID Connect) can
identify people instead (``SAC_REVIEW_LOGIN=1``): a row's ``login`` (an e-mail the owner typed)
is then what the provider must report (:func:`login_of`), and links are not needed.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import func, select

from ...experiments import Workspace
from .db import Access, Label, Preference, ReviewChunk, ReviewDB, ReviewItem, ReviewSession, now
from .sessions import SessionError, SessionPlan, create_session, upsert

OWNER, REVIEWER = "owner", "reviewer"
PARAM = "access"  # the URL parameter of a link
LOGIN_ENV = "SAC_REVIEW_LOGIN"  # "1": people are identified by the deployment's login, not by links
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")


@dataclass(frozen=True)
class Grant:
    """What one link (or one login) opens: a session, as its owner or as one reviewer (``name``:
    the name their judgements are stored under; the owner's: who made the session)."""

    session_id: int
    session: str
    role: str
    name: str

    @property
    def owner(self) -> bool:
        return self.role == OWNER


@dataclass(frozen=True)
class Member:
    """A reviewer of a session as its owner sees them: name, the login that may act as them, whether
    a link was issued, and whether they labelled anything (a reviewer of a session made before links)."""

    name: str
    login: str | None
    linked: bool
    judged: bool


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256 in hex (a token has 256 random bits: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def login_required() -> bool:
    """``$SAC_REVIEW_LOGIN`` is set to 1, true or yes: people are identified by the deployment's login."""
    return os.environ.get(LOGIN_ENV, "").strip().lower() in ("1", "true", "yes")


def link(page_url: str | None, token: str) -> str:
    """The link of ``token`` on the server of ``page_url`` (the page's own address; relative without one)."""
    parts = urlsplit(page_url or "")
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    return f"{origin}/review?{PARAM}={token}"


def issue(db: ReviewDB, session_id: int, role: str, name: str, login: str | None = None) -> str:
    """A new link for ``name`` as ``role`` of the session (added when new; its old link, if any,
    stops working); the raw token, to be shown once and never stored."""
    if role not in (OWNER, REVIEWER):
        raise SessionError(f"a link is for the owner or a reviewer, not {role!r}")
    if not name.strip():
        raise SessionError("give the reviewer a name")
    token = secrets.token_urlsafe(32)
    values = {"session_id": session_id, "role": role, "name": name, "token_hash": digest(token), "at": now()}
    update: tuple[str, ...] = ("token_hash", "at")
    if login is not None:
        values["login"], update = normalise_login(login), (*update, "login")
    upsert(db, Access, values, ("session_id", "role", "name"), update)
    return token


def add_reviewer(db: ReviewDB, session_id: int, name: str, login: str | None = None) -> str:
    """A new reviewer of the session and their link (refused when the name is taken: a name is one person)."""
    with db.session() as s:
        taken = s.scalar(select(Access.id).where(Access.session_id == session_id, Access.role == REVIEWER,
                                                 Access.name == name))  # fmt: skip
    if taken is not None:
        raise SessionError(f"{name!r} reviews this session already: issue them a new link instead")
    return issue(db, session_id, REVIEWER, name, login)


def create_with_links(
    db: ReviewDB, ws: Workspace, plan: SessionPlan, reviewers: Sequence[str] = (), *, owner_login: str | None = None
) -> tuple[int, str, dict[str, str]]:
    """Create the session (:func:`~.sessions.create_session`) with its owner's link (``plan.reviewer``
    is the owner; ``owner_login``: their login, where the deployment has one) and one link per
    reviewer named: (session id, owner's token, name → token)."""
    names = list(dict.fromkeys(n.strip() for n in reviewers if n.strip()))
    session_id = create_session(db, ws, plan)
    owner = issue(db, session_id, OWNER, plan.reviewer, owner_login)
    return session_id, owner, {name: issue(db, session_id, REVIEWER, name) for name in names}


def open_link(db: ReviewDB, token: object) -> Grant | None:
    """What the link's token opens, or None (malformed, never issued, or issued again since)."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return None
    with db.session() as s:
        row = s.execute(select(Access.session_id, ReviewSession.name, Access.role, Access.name)
                        .join(ReviewSession, ReviewSession.id == Access.session_id)
                        .where(Access.token_hash == digest(token))).first()  # fmt: skip
    return None if row is None else Grant(int(row[0]), str(row[1]), str(row[2]), str(row[3]))


def normalise_login(login: str) -> str:
    return login.strip().lower()


def login_of(user: Mapping[str, object]) -> str | None:
    """The identity Streamlit's login reports (``st.user.to_dict()``): the e-mail, lower-cased, of a
    logged-in user whose provider did not mark it unverified; None otherwise."""
    if user.get("is_logged_in") is not True or user.get("email_verified") is False:
        return None
    email = user.get("email")
    return normalise_login(email) if isinstance(email, str) and "@" in email else None


def grants_of_login(db: ReviewDB, login: str) -> list[Grant]:
    """Every session ``login`` may open, as owner or reviewer (newest session first)."""
    with db.session() as s:
        rows = s.execute(select(Access.session_id, ReviewSession.name, Access.role, Access.name)
                         .join(ReviewSession, ReviewSession.id == Access.session_id)
                         .where(Access.login == normalise_login(login))
                         .order_by(ReviewSession.created_at.desc(), Access.role)).all()  # fmt: skip
    return [Grant(int(a), str(b), str(c), str(d)) for a, b, c, d in rows]


def members(db: ReviewDB, session_id: int) -> list[Member]:
    """The session's reviewers: those given a link or a login, then those who judged without one
    (a session made before links: issue them one and they resume their labels)."""
    with db.session() as s:
        listed = list(s.scalars(select(Access).where(Access.session_id == session_id, Access.role == REVIEWER)
                                .order_by(Access.name)))  # fmt: skip
        labelled = set(s.scalars(select(Label.reviewer).join(ReviewChunk).join(ReviewItem)
                                 .where(ReviewItem.session_id == session_id).group_by(Label.reviewer)))  # fmt: skip
        preferred = set(s.scalars(select(Preference.reviewer).join(ReviewItem)
                                  .where(ReviewItem.session_id == session_id).group_by(Preference.reviewer)))  # fmt: skip
    judged = labelled | preferred
    out = [Member(a.name, a.login, a.token_hash is not None, a.name in judged) for a in listed]
    names = {a.name for a in listed}
    out += [Member(name, None, linked=False, judged=True) for name in sorted(judged - names)]
    return out


def links_issued(db: ReviewDB, session_id: int) -> int:
    """How many links of the session work (the owner's included)."""
    with db.session() as s:
        count = s.scalar(select(func.count()).select_from(Access)
                         .where(Access.session_id == session_id, Access.token_hash.is_not(None)))  # fmt: skip
    return int(count or 0)
