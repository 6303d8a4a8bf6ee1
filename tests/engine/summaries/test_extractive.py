"""The offline extractive provider: deterministic fingerprints within the character budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from sac_core.engine.summaries import (
    SummaryConfig,
    SummaryError,
    estimate_cost,
    guess_document_type,
    summarize_documents,
)
from sac_core.engine.summaries.extractive import fingerprint

NDA = """MUTUAL NON-DISCLOSURE AGREEMENT

This Mutual Non-Disclosure Agreement (the "Agreement") is made as of March 3, 2020 by and between
Acme Robotics, Inc., a Delaware corporation with offices at 1 Main Street ("Acme"), and
Blue Harbor Logistics LLC, a Texas limited liability company ("Blue Harbor").

1. Purpose. The parties wish to evaluate a joint warehouse automation pilot (the "Pilot").
2. Confidential Information. "Confidential Information" means any information disclosed about the Pilot.
3. Term. Acme and Blue Harbor keep the Pilot data secret for three years.
"""

MERGER = """Exhibit 2.1   AGREEMENT AND PLAN OF MERGER   by and among   NORTHWIND HOLDINGS, INC.,   ORCA MERGER SUB, INC.
and   CASCADE THERAPEUTICS, INC.   dated as of   January 14, 2021   ARTICLE I THE MERGER
The "Surviving Corporation" and the "Orca Milestone" are defined below. The Orca Milestone applies."""

PRIVACY = """This Privacy Policy explains how Zephyrly collects and uses personal information.
Zephyrly collects your location and contacts when you use the Zephyrly app. We use personal information
to provide the service. Zephyrly shares location data with advertising partners. We use cookies.
Zephyrly keeps contacts encrypted; cookies expire after a year; advertising can be turned off."""


def test_fingerprints_of_typical_documents() -> None:
    nda = fingerprint(NDA, 150)
    assert nda.startswith("Mutual Non-Disclosure Agreement: Acme Robotics, Inc.; Blue Harbor Logistics LLC"), nda
    assert "March 3, 2020" in nda
    merger = fingerprint(MERGER, 300)
    assert merger.startswith(
        "Agreement and Plan of Merger: Northwind Holdings, Inc.; Orca Merger Sub, Inc.; Cascade Therapeutics, Inc."
    )
    assert "January 14, 2021" in merger and "Orca Milestone" in merger
    privacy = fingerprint(PRIVACY, 150)
    assert privacy.startswith("Privacy Policy: Zephyrly"), privacy
    assert "location" in privacy and "contacts" in privacy


@pytest.mark.parametrize("text", [NDA, MERGER, PRIVACY, "", "x", "word " * 500, "A" * 1000, "Agreement\n" * 50])
@pytest.mark.parametrize("chars", [1, 20, 150, 300, 1000])
def test_budget_and_determinism(text: str, chars: int) -> None:
    out = fingerprint(text, chars)
    assert 0 < len(out) <= chars
    assert out == fingerprint(text, chars)
    assert out == out.strip() and "\n" not in out


def test_guess_document_type() -> None:
    assert guess_document_type(NDA) == "nda"
    assert guess_document_type(PRIVACY) == "privacy_policy"
    assert guess_document_type(MERGER) == "other"


def test_extractive_run_caches_and_reports(tmp_path: Path) -> None:
    docs = {"nda.txt": NDA, "merger.txt": MERGER, "same.txt": NDA}
    config = SummaryConfig(chars=150)  # extractive is the default provider
    first = summarize_documents(docs, config, tmp_path, progress=False)
    assert [r.provider for r in first.values()] == ["extractive"] * 3
    assert first["nda.txt"].summary == first["same.txt"].summary == fingerprint(NDA, 150)
    assert first["nda.txt"].attempts == ((150, len(first["nda.txt"].summary)),)
    assert first["nda.txt"].input_tokens == 0 and not first["nda.txt"].cached
    second = summarize_documents(docs, config, tmp_path, progress=False)
    assert all(r.cached for r in second.values())
    assert (tmp_path / "summaries").is_dir()
    assert estimate_cost(docs, config).usd == 0.0


def test_config_errors_are_clear() -> None:
    with pytest.raises(SummaryError, match="unknown summary provider 'gpt'; choose one of extractive, openai, file"):
        SummaryConfig(provider="gpt")
    with pytest.raises(SummaryError, match="'chars' must be an integer >= 1, got 0"):
        SummaryConfig(chars=0)
    with pytest.raises(SummaryError, match="'concurrency' must be an integer >= 1"):
        SummaryConfig(concurrency=0)
    with pytest.raises(SummaryError, match="'temperature' must be between 0 and 2"):
        SummaryConfig(temperature=3)
    with pytest.raises(SummaryError, match="unknown prompt 'nope'"):
        summarize_documents({"a.txt": NDA}, SummaryConfig(prompt="nope"), Path("unused"), progress=False)
    assert "api_key" not in SummaryConfig.__dataclass_fields__
