"""Review sessions in a real database (SQLAlchemy): an embedded SQLite file by default, one shared
PostgreSQL server for a team (``SAC_REVIEW_DB=postgresql+psycopg://user:password@host/db``).

Tables: ``review_sessions`` (what is reviewed: queries, methods, k, the blind-order seed),
``review_items`` (one query of a session, with its blind column order), ``review_chunks`` (every
chunk some method retrieved for an item, once, with each method's rank), ``review_labels`` (one
per chunk and reviewer), ``review_preferences`` (one per item and reviewer), ``review_answers``
(the answer each column gave for an item, written once from its chunks) and ``review_answer_labels``
(one per answer and reviewer), ``review_access`` (who may open a session: its owner's and its
reviewers' links, hashed); who and when on every judgement. A judgement is committed the moment it is given (an upsert on its natural key),
so a reload, a server restart or several reviewers at once lose nothing and duplicate nothing. A
label row may hold a note and no label yet (``label`` NULL): a note is never lost for want of one.
A session records the data folder it was made on (``folder``, its resolved path), so a page on
another folder does not open it.

Every statement goes through SQLAlchemy with bound parameters: no SQL is built from strings. The
schema has a version (``review_meta``): a version-1 database (before ``folder`` and notes without a
label), a version-2 one (before the answers' tables), a version-3 one (before an answer's
``quotes``) or a version-4 one (before the links of ``review_access``) is upgraded in place when opened; any other version is refused with a clear error rather than misread. URLs are shown with the password hidden, and error messages are
scrubbed of it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship, sessionmaker

DB_ENV = "SAC_REVIEW_DB"
SCHEMA_VERSION = "5"
UPGRADABLE = ("1", "2", "3", "4")
TIE = "tie"


class ReviewError(RuntimeError):
    """The review database cannot be used (unreachable, another schema version, a bad URL).

    ``str(error)``: the whole story in one line, for the operator (the CLI, the server log), the
    URL with its password hidden; :attr:`public`: what a page may show anyone, the database named
    by its kind only (issue 41: a page showed ``postgresql+psycopg://qauser:***@127.0.0.1:1/sacdb``)."""

    def __init__(self, message: str, public: str) -> None:
        super().__init__(" ".join(message.split()))  # drivers' messages hold newlines and tabs
        self.public = public


def kind_of(url: str | URL) -> str:
    """A database by its kind only: "PostgreSQL", "SQLite" (what a page may name)."""
    try:
        backend = make_url(url).get_backend_name()
    except ArgumentError:
        return "unknown"
    return {"postgresql": "PostgreSQL", "sqlite": "SQLite"}.get(backend, backend)


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict] = {dict: JSON, list: JSON}


class Meta(Base):
    __tablename__ = "review_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class ReviewSession(Base):
    __tablename__ = "review_sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_by: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    data: Mapped[str] = mapped_column(Text)  # what the queries come from: data folder name, protocol, datasets
    folder: Mapped[str | None] = mapped_column(Text, nullable=True)  # the data folder's resolved path (None: v1)
    methods: Mapped[list] = mapped_column(JSON)  # [{"name": ..., "config": {...}}], 2 to 5
    k: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)  # the blind column orders follow from it
    sample: Mapped[dict] = mapped_column(JSON)  # how the queries were chosen
    items: Mapped[list[ReviewItem]] = relationship(back_populates="session", order_by="ReviewItem.position")


class ReviewItem(Base):
    __tablename__ = "review_items"
    __table_args__ = (UniqueConstraint("session_id", "position"), UniqueConstraint("session_id", "query_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("review_sessions.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    query_id: Mapped[str] = mapped_column(String(200))
    dataset: Mapped[str] = mapped_column(String(200))
    query_text: Mapped[str] = mapped_column(Text)
    gold: Mapped[list] = mapped_column(JSON)  # [[file_path, start, end], ...]
    order: Mapped[list] = mapped_column(JSON)  # method names in blind column order (A, B, C, ...)
    session: Mapped[ReviewSession] = relationship(back_populates="items")
    chunks: Mapped[list[ReviewChunk]] = relationship(back_populates="item", order_by="ReviewChunk.id")


class ReviewChunk(Base):
    __tablename__ = "review_chunks"
    __table_args__ = (UniqueConstraint("item_id", "file_path", "start", "end"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("review_items.id", ondelete="CASCADE"))
    file_path: Mapped[str] = mapped_column(String(500))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    ranks: Mapped[dict] = mapped_column(JSON)  # method name → rank (1-based) for the methods that retrieved it
    gold_chars: Mapped[int] = mapped_column(Integer)  # characters of the chunk inside the item's gold spans
    item: Mapped[ReviewItem] = relationship(back_populates="chunks")


class Label(Base):
    __tablename__ = "review_labels"
    __table_args__ = (UniqueConstraint("chunk_id", "reviewer"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chunk_id: Mapped[int] = mapped_column(ForeignKey("review_chunks.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    label: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: a note, no label yet
    note: Mapped[str] = mapped_column(Text, default="")
    gold_shown: Mapped[bool] = mapped_column(default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Preference(Base):
    __tablename__ = "review_preferences"
    __table_args__ = (UniqueConstraint("item_id", "reviewer"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("review_items.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    choice: Mapped[str] = mapped_column(String(200))  # a method name, or "tie"
    gold_shown: Mapped[bool] = mapped_column(default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ReviewAnswer(Base):
    """The answer one method's column gave for one item: written once from the column's top-k chunks
    (labelled ``#1`` … by rank), so every reviewer judges the same text."""

    __tablename__ = "review_answers"
    __table_args__ = (UniqueConstraint("item_id", "method"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("review_items.id", ondelete="CASCADE"))
    method: Mapped[str] = mapped_column(String(200))  # a method name of the session (never shown before a preference)
    answerer: Mapped[str] = mapped_column(String(64))  # "extractive", …
    text: Mapped[str] = mapped_column(Text)
    citations: Mapped[list] = mapped_column(JSON)  # [[label, file_path, start, end], ...] in order of first mention
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)  # what is wrong with the answer, if anything
    # [[start, end], ...]: the quotations in text (document characters, never citations); NULL: written
    # before version 4, found in the text when shown
    quotes: Mapped[list | None] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class AnswerLabel(Base):
    __tablename__ = "review_answer_labels"
    __table_args__ = (UniqueConstraint("answer_id", "reviewer"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    answer_id: Mapped[int] = mapped_column(ForeignKey("review_answers.id", ondelete="CASCADE"))
    reviewer: Mapped[str] = mapped_column(String(200))
    label: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: a note, no label yet
    note: Mapped[str] = mapped_column(Text, default="")
    gold_shown: Mapped[bool] = mapped_column(default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Access(Base):
    """Who may open a session, and as what: its ``owner`` or one ``reviewer`` (``name``: the name
    their labels are stored under). A link's token is kept only as its SHA-256 (``token_hash``;
    NULL: no link issued); ``login``: the identity (e-mail) a deployment's login must report to act
    as this row (``SAC_REVIEW_LOGIN``), NULL when none was given."""

    __tablename__ = "review_access"
    __table_args__ = (UniqueConstraint("session_id", "role", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("review_sessions.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(16))  # "owner" or "reviewer"
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    login: Mapped[str | None] = mapped_column(String(320), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)  # when its link was issued


ANSWER_TABLES = (ReviewAnswer.__table__, AnswerLabel.__table__)  # what version 3 added


# --------------------------------------------------------------------------- the database


def default_url(cache_dir: Path) -> str:
    """``$SAC_REVIEW_DB``, else a SQLite file under the cache directory."""
    return os.environ.get(DB_ENV) or f"sqlite:///{Path(cache_dir).resolve() / 'review.sqlite'}"


def safe_url(url: str | URL) -> str:
    """A URL for people and logs: the password replaced by ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(an invalid database URL)"


def scrub(message: str, url: str | URL) -> str:
    """``message`` without the URL's password (drivers sometimes echo it)."""
    try:
        password = make_url(url).password
    except ArgumentError:
        return message
    return message.replace(str(password), "***") if password else message


class ReviewDB:
    """One review database: creates its tables on first use and checks the schema version."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise ReviewError(f"{DB_ENV}: not a database URL (e.g. postgresql+psycopg://user@host/db)",
                              f"The review database is not set up correctly (${DB_ENV} is not a database URL); "
                              "the server's operator can fix it.") from None  # fmt: skip
        sqlite = parsed.get_backend_name() == "sqlite"
        kwargs = {"connect_args": {"timeout": 30}} if sqlite else {"pool_pre_ping": True}
        try:
            if sqlite and parsed.database:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(parsed, **kwargs)
        except (OSError, ArgumentError, NoSuchModuleError) as e:
            raise ReviewError(f"cannot open the review database {safe_url(url)}: {scrub(str(e), url)}",
                              self._unusable()) from None  # fmt: skip
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._prepare()

    def _prepare(self) -> None:
        try:
            Base.metadata.create_all(self.engine)
            with self.session() as db:
                version = db.get(Meta, "schema_version")
                if version is None:
                    db.add(Meta(key="schema_version", value=SCHEMA_VERSION))
                    return
                old = version.value
            if old in UPGRADABLE:
                _upgrade(self.engine)
            elif old != SCHEMA_VERSION:
                raise ReviewError(
                    f"the review database {safe_url(self.url)} has schema version {old}; this "
                    f"sac-dashboard reads version {SCHEMA_VERSION}. Export its labels with the version that "
                    "wrote them (sac review export) and import them into a new database.",
                    f"The review database ({kind_of(self.url)}) was written by another version of sac-dashboard "
                    "(its schema version differs); the server's operator can move its labels over.",
                )
        except OperationalError as e:
            raise ReviewError(f"cannot open the review database {safe_url(self.url)}: "
                              f"{scrub(str(e.orig), self.url)}", self._unusable()) from None  # fmt: skip

    def _unusable(self) -> str:
        return (f"The review database ({kind_of(self.url)}) cannot be opened: it does not answer or refuses the "
                "connection. The server's log names it and says why; reload this page once it is back.")  # fmt: skip

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction: committed when the block ends, rolled back on an error."""
        db = self._sessions()
        try:
            yield db
            db.commit()
        except SQLAlchemyError:
            db.rollback()
            raise
        finally:
            db.close()

    def sessions(self) -> list[ReviewSession]:
        with self.session() as db:
            return list(db.scalars(select(ReviewSession).order_by(ReviewSession.created_at)))

    def dispose(self) -> None:
        self.engine.dispose()

    def __repr__(self) -> str:
        return f"ReviewDB({safe_url(self.url)})"


def _upgrade(engine: Engine) -> None:
    """Version 1, 2, 3 or 4 → 5 in one transaction. From 4: the links' table (``review_access``). From 1: sessions get ``folder`` (unknown for old
    ones) and a label may be NULL (a note alone; SQLite cannot drop NOT NULL, so it copies the labels
    into a new table). From 2 (and 1): the answers' two tables are created. From 3: answers get
    ``quotes`` (NULL for those stored before: found in their text when shown)."""
    with engine.begin() as conn:
        meta = conn.execute(select(Meta.value).where(Meta.key == "schema_version").with_for_update()).scalar()
        if meta not in UPGRADABLE:  # another server upgraded it meanwhile
            return
        if meta == "1":
            _upgrade_labels_from_1(engine, conn)
        if meta == "3":
            conn.execute(text("ALTER TABLE review_answers ADD COLUMN quotes JSON"))
        for table in (*ANSWER_TABLES, Access.__table__):  # version 5 added the links (no session has one yet)
            table.create(conn, checkfirst=True)  # type: ignore[attr-defined]
        conn.execute(update(Meta).where(Meta.key == "schema_version").values(value=SCHEMA_VERSION))


def _upgrade_labels_from_1(engine: Engine, conn: Connection) -> None:
    conn.execute(text("ALTER TABLE review_sessions ADD COLUMN folder TEXT"))
    if engine.dialect.name == "sqlite":
        columns = "id, chunk_id, reviewer, label, note, gold_shown, at"
        conn.execute(text("ALTER TABLE review_labels RENAME TO review_labels_v1"))
        Label.__table__.create(conn)  # type: ignore[attr-defined]
        conn.execute(text(f"INSERT INTO review_labels ({columns}) SELECT {columns} FROM review_labels_v1"))
        conn.execute(text("DROP TABLE review_labels_v1"))
    else:
        conn.execute(text("ALTER TABLE review_labels ALTER COLUMN label DROP NOT NULL"))


def _sqlite_pragmas(connection: object, _record: object) -> None:
    """WAL: readers never block the writer; a writer waits up to 30 s for another."""
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
