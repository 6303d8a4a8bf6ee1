"""Real LegalBench-RAG checks, run only when ``SAC_DATA_DIR`` is set (skipped otherwise)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sac_core.engine.data import DATASETS
from sac_core.engine.summaries import SummaryConfig, summarize_documents
from sac_core.engine.summaries.extractive import fingerprint
from sac_core.engine.summaries.length import limit


@pytest.fixture(scope="module")
def data_dir(real_data: Path) -> Path:  # the conftest fixture: skips without SAC_DATA_DIR
    return real_data


def read(data_dir: Path, file_path: str) -> str:
    return (data_dir / "corpus" / file_path).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def some_documents(data_dir: Path) -> dict[str, str]:
    """The first three documents (by name) of every dataset."""
    docs = {}
    for dataset in DATASETS:
        for path in sorted((data_dir / "corpus" / dataset).glob("*.txt"))[:3]:
            docs[f"{dataset}/{path.name}"] = path.read_text(encoding="utf-8")
    return docs


@pytest.mark.parametrize("chars", [150, 300])
def test_extractive_on_real_documents_fits_and_is_deterministic(some_documents: dict[str, str], chars: int) -> None:
    for file_path, text in some_documents.items():
        out = fingerprint(text, chars)
        assert 10 < len(out) <= chars, (file_path, out)
        assert out == fingerprint(text, chars)
        if file_path.startswith("privacy_qa/"):
            assert out.startswith("Privacy Policy"), (file_path, out)


def test_extractive_names_the_parties_of_known_documents(data_dir: Path) -> None:
    expected = {
        "maud/Acacia_Communications_Cisco_Systems.txt": [
            "Agreement and Plan of Merger",
            "Cisco Systems",
            "Acacia Communications",
            "January 14, 2021",
        ],
        "privacy_qa/Fiverr.txt": ["Privacy Policy", "Fiverr"],
    }
    for file_path, parts in expected.items():
        if not (data_dir / "corpus" / file_path).exists():
            pytest.skip(f"{file_path} not in this release")
        out = fingerprint(read(data_dir, file_path), 150)
        assert all(part in out for part in parts), out


def lbr_mini_documents(data_dir: Path) -> list[str]:
    from sac_core.engine.data import read_queries, select

    paths: set[str] = set()
    for dataset in DATASETS:
        for query in select(read_queries(data_dir, dataset), "lbr-mini", dataset):
            paths |= query.gold_files
    return sorted(paths)


@pytest.mark.parametrize("prompt", ["generic", "expert"])
@pytest.mark.parametrize("chars", [150, 300])
def test_shared_llm_summaries_cover_lbr_mini(data_dir: Path, tmp_path: Path, prompt: str, chars: int) -> None:
    summary_file = data_dir / "summaries" / "llm.jsonl"
    if not summary_file.exists():
        pytest.skip(f"{summary_file} not present")
    documents = {fp: "" for fp in lbr_mini_documents(data_dir)}  # the file provider does not read texts
    assert len(documents) == 72
    config = SummaryConfig(provider="file", prompt=prompt, chars=chars).resolved(data_dir)
    records = summarize_documents(documents, config, tmp_path, progress=False)
    assert len(records) == 72
    assert all(0 < len(r.summary) <= limit(chars) for r in records.values())
