"""A fresh review schema per test, on SQLite and on the real PostgreSQL server of ``postgres_url``
(``tests/conftest.py``: started in a temporary folder on a free port, with a password; under CI a
server that cannot start fails the tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from sac_core.dashboard.review.db import Base


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
