"""Shared fixtures: a demo benchmark the project generates itself, and the real data when present."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from sac_core.engine.data import write_demo_corpus


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_corpus(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def real_data() -> Path:
    """The real LegalBench-RAG release; tests using it are skipped when SAC_DATA_DIR is not set."""
    raw = os.environ.get("SAC_DATA_DIR")
    if not raw:
        pytest.skip("SAC_DATA_DIR not set: real-data checks skipped")
    return Path(raw)


@pytest.fixture(scope="session")
def embed_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedding cache for the session, so the model encodes each test text once."""
    return tmp_path_factory.mktemp("cache")


WORDS = (
    "agreement party confidential information disclose receiving term termination law court notice "
    "obligation purpose employee affiliate breach remedy injunction return destroy copy written consent "
    "period year month day governing jurisdiction venue assignment waiver amendment severability"
).split()


def generate_slow_benchmark(root: Path, n_docs: int = 36, chars: int = 5000) -> Path:
    """A deterministic benchmark big enough that embedding takes several seconds."""
    rng = random.Random(7)
    (root / "corpus" / "gen").mkdir(parents=True)
    tests = []
    for i in range(n_docs):
        words, length = [], 0
        while length < chars:
            sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 16))).capitalize() + ". "
            words.append(sentence)
            length += len(sentence)
        text = f"Agreement number {i} between Party {i} and Party {i + 1}. " + "".join(words)
        (root / "corpus" / "gen" / f"doc{i:02d}.txt").write_text(text, encoding="utf-8")
        start = text.index(".") + 2
        tests.append({
            "query": f"What does agreement {i} say about termination?",
            "snippets": [{"file_path": f"gen/doc{i:02d}.txt", "span": [start, start + 120], "answer": text[start : start + 120]}],
        })  # fmt: skip
    (root / "benchmarks").mkdir()
    (root / "benchmarks" / "gen.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def slow_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated benchmark large enough (about 900 chunks of 200 characters) that embedding it
    takes several seconds: for resume, cancel and background-build tests."""
    return generate_slow_benchmark(tmp_path_factory.mktemp("slow"))


@pytest.fixture(scope="session")
def slower_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Like ``slow_data`` with more documents: building its Compare indexes takes a good while."""
    return generate_slow_benchmark(tmp_path_factory.mktemp("slower"), n_docs=90)
