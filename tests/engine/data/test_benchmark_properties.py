"""The benchmark loader on arbitrary input (Hypothesis): a valid Benchmark or a BenchmarkError, never
another exception. Files are written to a fresh folder per example."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sac_core.engine.data import Benchmark, BenchmarkError, load_benchmark

DOCS = {"d/a.txt": "Alpha agreement. Governing law: Delaware.", "d/b.txt": "Beta policy.\n\nWe share data."}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
PATHS = st.sampled_from(["d/a.txt", "d/b.txt", "d/missing.txt", "../etc/passwd", "/abs.txt", "d\\a.txt", "", "d"])
SPANS = st.one_of(
    st.lists(st.integers(-5, 60), min_size=2, max_size=2),
    st.lists(st.booleans(), min_size=2, max_size=2),
    JSON,
)
SNIPPET = st.fixed_dictionaries(
    {"file_path": PATHS | JSON, "span": SPANS},
    optional={"answer": st.text(max_size=10) | JSON},
)


@st.composite
def near_valid_snippet(draw: st.DrawFn) -> dict:
    """A snippet that is often valid: a real document, a span near its bounds, its true answer."""
    path = draw(st.sampled_from(sorted(DOCS)))
    text = DOCS[path]
    if draw(st.integers(0, 9)) < 7:  # mostly valid
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, len(text)))
    else:  # near the bounds: empty, negative, past the end
        start, end = draw(st.integers(-2, len(text) + 2)), draw(st.integers(-2, len(text) + 2))
    answer = text[max(start, 0) : max(end, 0)] if draw(st.integers(0, 9)) < 8 else draw(st.text(max_size=5))
    return {"file_path": path, "span": [start, end], "answer": answer}


TEST = st.fixed_dictionaries(
    {"query": st.text(max_size=30) | JSON, "snippets": st.lists(SNIPPET | near_valid_snippet(), max_size=3) | JSON}
)
NEAR_VALID = st.fixed_dictionaries(
    {
        "tests": st.lists(
            st.fixed_dictionaries(
                {"query": st.text(max_size=30), "snippets": st.lists(near_valid_snippet(), min_size=1, max_size=3)}
            ),
            max_size=4,
        )
    }
)
BENCHMARK = st.one_of(NEAR_VALID, st.fixed_dictionaries({"tests": st.lists(TEST, max_size=4)}), JSON)


def _load(content: bytes, protocol: str) -> Benchmark | BenchmarkError:
    root = Path(tempfile.mkdtemp())
    try:
        for path, text in DOCS.items():
            (root / "corpus" / path).parent.mkdir(parents=True, exist_ok=True)
            (root / "corpus" / path).write_text(text, encoding="utf-8")
        (root / "benchmarks").mkdir()
        (root / "benchmarks" / "d.json").write_bytes(content)
        try:
            return load_benchmark(root, "all", protocol)
        except BenchmarkError as e:
            assert str(e) and "\n" not in str(e)
            return e
    finally:
        shutil.rmtree(root)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BENCHMARK, st.sampled_from(["full", "lbr-mini", "paper"]))
def test_arbitrary_benchmark_json_loads_or_fails_cleanly(raw, protocol):
    result = _load(json.dumps(raw).encode(), protocol)
    event("loaded" if isinstance(result, Benchmark) else "BenchmarkError")
    if isinstance(result, Benchmark):  # then every span is valid for its document
        for query in result.queries:
            for span in query.gold:
                assert 0 <= span.start < span.end <= len(result.documents[span.file_path].text)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_load_or_fail_cleanly(content):
    _load(content, "full")


def test_a_valid_example_loads():
    text = DOCS["d/a.txt"]
    raw = {
        "tests": [{"query": "law?", "snippets": [{"file_path": "d/a.txt", "span": [17, 41], "answer": text[17:41]}]}]
    }
    result = _load(json.dumps(raw).encode(), "full")
    assert isinstance(result, Benchmark) and len(result.queries) == 1
