"""A real PostgreSQL server for the review tests, started in a temporary folder on a free port
(Debian's ``postgresql``: ``initdb`` and ``pg_ctl``; ``scripts/install_postgres.sh`` installs it),
with a password, and stopped afterwards. Under CI a server that cannot start fails the tests."""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from sac_core.dashboard.review.db import Base


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _binary(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL must run under CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL not available: {reason} (bash scripts/install_postgres.sh)")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        _unavailable("initdb / pg_ctl not found")
    root = Path(tempfile.mkdtemp(prefix="sac-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its own system user runs it
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    password = secrets.token_urlsafe(16)
    (root / "pw").write_text(password)
    if as_user:
        shutil.chown(root / "pw", "postgres")
    data, port = root / "data", _free_port()
    try:
        subprocess.run([*as_user, initdb, "-D", str(data), "-U", "sac", "--auth=scram-sha-256",
                        f"--pwfile={root / 'pw'}", "--encoding=UTF8", "--locale=C"],
                       check=True, capture_output=True, text=True)  # fmt: skip
        (root / "pw").unlink()
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60",
                        "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1", "start"],
                       check=True, capture_output=True, text=True)  # fmt: skip
    except (OSError, subprocess.CalledProcessError) as e:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        detail = getattr(e, "stderr", "") or str(e)
        shutil.rmtree(root, ignore_errors=True)
        _unavailable(f"{detail.strip()[:500]} {log[-500:]}")
    try:
        yield f"postgresql+psycopg://sac:{password}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def clean_postgres(postgres_url: str) -> str:
    """The server's database emptied of review tables (a test starts from nothing)."""
    engine = create_engine(make_url(postgres_url))
    Base.metadata.drop_all(engine)
    engine.dispose()
    return postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on SQLite and on PostgreSQL (a fresh schema each time)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'review.sqlite'}"
    return request.getfixturevalue("clean_postgres")
