"""One module + one registration: a toy method defined in this file alone runs in ``sac evaluate``
and as a Compare column, without touching any other module of the project."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from sac_core.cli import main
from sac_core.dashboard import compare, state
from sac_core.engine.data import available_datasets
from sac_core.engine.retrieval import Hit, Pool, build_pool
from sac_core.experiments import METHODS, Method, OpenContext, Opened, Preset, RunConfig, Workspace

APP = str(Path(__file__).resolve().parents[2] / "app.py")
_WORD = re.compile(r"\w+")


class OverlapRanker:
    """Chunks ranked by how many distinct words of the query they contain (ties: pool order)."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.words = [set(_WORD.findall(c.text.lower())) for c in pool.chunks]

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        out = []
        for query in queries:
            asked = set(_WORD.findall(query.lower()))
            scores = [len(asked & words) for words in self.words]
            best = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]
            out.append([Hit(self.pool.chunks[i], float(scores[i])) for i in best])
        return out


class WordOverlap(Method[RunConfig]):
    """A toy method: no model, no index; chunked as the run says, ranked by shared words."""

    name = "word-overlap"
    title = "Word overlap (toy)"

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        pool = build_pool(
            ctx.bench.documents,
            chunker=config.chunker,
            chunk_size=config.chunk_size,
            chunk_overlap=config.chunk_overlap,
        )
        return Opened(OverlapRanker(pool))

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        return {self.name: Preset(self.title, base.with_(method=self.name))}


@pytest.fixture
def toy() -> Iterator[WordOverlap]:
    method = METHODS.register(WordOverlap())
    yield method
    METHODS.unregister(method.name)


def test_a_registered_method_runs_in_sac_evaluate(toy, demo_dir: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "toy.csv"
    args = ["evaluate", "--data", str(demo_dir), "--protocol", "full", "--method", toy.name, "--k", "1,4"]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    table = pd.read_csv(out)
    assert set(table["variant"]) == {"word-overlap"} and set(table["method"]) == {"word-overlap"}
    assert set(table["k"]) == {1, 4} and "ALL" in set(table["dataset"])
    assert table["recall"].between(0, 1).all() and (table[table["k"] == 4]["recall"] > 0).any()
    assert not list((tmp_path / "cache").glob("embeddings/*.db"))  # no model ran, nothing embedded


def test_a_registered_method_is_a_compare_column(toy, embed_cache: Path, monkeypatch) -> None:
    demo = state.ensure_demo_corpus(embed_cache)
    datasets = available_datasets(demo)
    base = state.Settings(state.resolve_data_source("", embed_cache), embed_cache, "full", datasets, "file", 150)
    assert compare.method_choices(base.base_config())[toy.name] == toy.title
    bench = state.load_benchmark(demo, datasets, "full")
    baseline = compare.compare_columns(base.base_config(), ["baseline"])
    Workspace.open(bench, baseline, demo, embed_cache, save=True)  # the baseline column is prebuilt
    for name in ("SAC_DATA_DIR", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    at = AppTest.from_file(APP, default_timeout=240)
    at.query_params["cols"] = f"baseline,{toy.name}"
    at.query_params["k"] = "3"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [m.value for m in at.main.markdown if m.value.startswith("####")]
    assert headings == ["#### Baseline", "#### Word overlap \\(toy\\)"]
    html = "".join(m.value for m in at.main.markdown)
    assert html.count('<div class="sac-hit ') == 2 * 3  # both columns, k = 3
    assert len(at.metric) == 2 * 3  # DRM, precision, recall against gold for the toy column too
    assert at.query_params["cols"] == f"baseline,{toy.name}"
