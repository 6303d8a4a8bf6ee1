"""Issue 41, Review: what the page shows of its database (point 6) and who can see and change what
(point 3; the promises of docs/serving.md, "Review: who sees and changes what"), under AppTest on
the demo corpus."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 240


def _page(**params: str) -> AppTest:
    """The Review page in a fresh browser session, opened with ``params`` in its URL."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/review.py")
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _unmd(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# --------------------------------------------------------------------------- point 6


def test_point_6_an_unreachable_review_database_is_named_by_its_kind_only(env, monkeypatch, caplog):
    """The page said ``cannot open the review database postgresql+psycopg://qauser:***@127.0.0.1:1/sacdb:
    connection failed: …\\n\\tIs the server running …``; the details belong to the server log."""
    monkeypatch.setenv("SAC_REVIEW_DB", "postgresql+psycopg://qauser:s3cret-pw@127.0.0.1:1/sacdb")
    caplog.set_level(logging.WARNING, logger="sac_core.dashboard")
    at = _page()
    (error,) = [_unmd(e.value) for e in at.main.error]
    assert error.startswith("The review database (PostgreSQL) cannot be opened"), error
    for detail in ("127.0.0.1", "qauser", "sacdb", "s3cret", "postgresql+psycopg", "***", "\\n", "\\t", "\n"):
        assert detail not in error, (detail, error)
    logged = [r.getMessage() for r in caplog.records if "review database" in r.getMessage()]
    assert len(logged) == 1 and "postgresql+psycopg://qauser:***@127.0.0.1:1/sacdb" in logged[0], logged
    assert "s3cret" not in caplog.text and "\n" not in logged[0] and "\t" not in logged[0]


def test_point_6_the_cli_names_the_database_in_one_line(tmp_path, capsys) -> None:
    from sac_core.cli import main

    url = "postgresql+psycopg://qauser:s3cret-pw@127.0.0.1:1/sacdb"
    assert main(["review", "list", "--db", url]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "qauser:***@127.0.0.1:1/sacdb" in err and "s3cret" not in err, err
