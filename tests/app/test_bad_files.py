"""Files of the data folder that cannot be used are named on the page, never dropped in silence nor
shown as a traceback (issue 41, points 10 and 12). Light pages only (Documents, run alone): nothing is
embedded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from streamlit.testing.v1 import AppTest

from sac_core.dashboard import state

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = str(ROOT / "app_pages" / "documents.py")


def _documents(tmp_path: Path, monkeypatch, data: Path) -> AppTest:
    monkeypatch.setenv("SAC_DATA_DIR", str(data))
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))
    at = AppTest.from_file(DOCUMENTS, default_timeout=300)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _unmd(text: str) -> str:
    return text.replace("\\", "")


def _data(tmp_path: Path, demo_dir: Path) -> Path:
    data = tmp_path / "root" / "data"
    shutil.copytree(demo_dir, data, symlinks=True)
    return data


def test_a_summary_file_linked_outside_the_root_is_named_not_dropped(demo_dir, tmp_path, monkeypatch):
    data = _data(tmp_path, demo_dir)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "llm.jsonl").write_text("", encoding="utf-8")
    (data / "summaries").mkdir(exist_ok=True)
    (data / "summaries" / "llm.jsonl").unlink(missing_ok=True)
    (data / "summaries" / "llm.jsonl").symlink_to(tmp_path / "outside" / "llm.jsonl")
    monkeypatch.setenv("SAC_DATA_ROOT", str(tmp_path / "root"))
    source = state.resolve_data_source(str(data), tmp_path / "cache")
    assert "file" not in source.providers
    assert source.summary_file_problem == (
        "summaries/llm.jsonl: outside the folders this server may read; the summary provider file is not offered"
    )
    at = _documents(tmp_path, monkeypatch, data)
    warnings = [_unmd(w.value) for w in at.sidebar.warning]
    assert warnings == [source.summary_file_problem]  # the sidebar says it: the provider did not just vanish
    assert str(tmp_path) not in warnings[0]


def test_a_readable_summary_file_raises_no_warning(demo_dir, tmp_path, monkeypatch):
    data = _data(tmp_path, demo_dir)
    monkeypatch.setenv("SAC_DATA_ROOT", str(tmp_path / "root"))
    assert state.resolve_data_source(str(data), tmp_path / "cache").summary_file_problem is None


def test_a_benchmark_file_nested_too_deep_is_named_on_the_page(demo_dir, tmp_path, monkeypatch):
    data = _data(tmp_path, demo_dir)
    path = data / "benchmarks" / "demo_nda.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(raw)[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    at = _documents(tmp_path, monkeypatch, data)
    shown = " ".join(_unmd(e.value) for e in at.error)
    assert "demo_nda.json: brackets nested too deep to read" in shown, shown
    assert "RecursionError" not in shown
