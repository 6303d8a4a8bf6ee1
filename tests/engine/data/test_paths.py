"""Data directories that cannot be used: one clear error naming the path exactly, never a traceback."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from sac_core.engine.data import BenchmarkError, data_roots, default_cache_dir, resolve_data_dir


def _benchmark_dir(path: Path) -> Path:
    (path / "benchmarks").mkdir(parents=True)
    return path


def _error(raw: object, roots: tuple[Path, ...] = ()) -> str:
    with pytest.raises(BenchmarkError) as info:
        resolve_data_dir(raw, roots)  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_valid_folder_is_returned(tmp_path):
    assert resolve_data_dir(str(_benchmark_dir(tmp_path / "lbr"))) == tmp_path / "lbr"


def test_missing_folder_file_and_broken_link(tmp_path):
    assert _error(tmp_path / "nope") == f"{tmp_path / 'nope'}: no such folder"
    (tmp_path / "file.txt").write_text("x")
    assert _error(tmp_path / "file.txt") == f"{tmp_path / 'file.txt'}: is a file, not a folder"
    os.symlink(tmp_path / "gone", tmp_path / "link")
    assert _error(tmp_path / "link") == f"{tmp_path / 'link'}: a broken symbolic link"
    (tmp_path / "plain").mkdir()
    assert _error(tmp_path / "plain").endswith("not a LegalBench-RAG directory (no benchmarks/ folder)")


def test_a_300_character_folder_name_and_a_nul_byte(tmp_path):
    long = str(tmp_path / ("x" * 300))
    assert _error(long) == f"{long}: path too long ({len(long)} characters)"
    assert _error(f"{tmp_path}/a\0b") == f"{tmp_path}/a\0b: not a valid path (it contains a NUL character)"


def test_permission_denied_names_the_path(tmp_path, monkeypatch):
    target = _benchmark_dir(tmp_path / "locked")
    real_stat = os.stat

    def stat(path, *args, **kwargs):  # as a non-root user would see a folder without the x bit
        if Path(path) == target:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    assert _error(target) == f"{target}: permission denied"


def test_markdown_in_a_path_is_kept_exactly(tmp_path):
    raw = str(tmp_path / "[z](javascript:alert(1))")
    assert _error(raw) == f"{raw}: no such folder"


def test_confinement_to_the_data_roots_after_links_and_dotdot(tmp_path):
    root = tmp_path / "allowed"
    inside = _benchmark_dir(root / "lbr")
    outside = _benchmark_dir(tmp_path / "secret")
    assert resolve_data_dir(str(inside), (root,)) == inside
    (root / "x").mkdir()
    assert resolve_data_dir(str(root / "x" / ".." / "lbr"), (root,)) == root / "x" / ".." / "lbr"
    assert "outside the folders this server may read" in _error(root / ".." / "secret", (root,))
    os.symlink(outside, root / "escape")
    assert "outside the folders this server may read" in _error(root / "escape", (root,))
    assert "outside" in _error(outside, (root,))
    assert resolve_data_dir(str(outside), ()) == outside  # no roots: no confinement


def test_data_roots_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SAC_DATA_ROOT", f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b' / '..' / 'c'}")
    assert data_roots() == (tmp_path.resolve() / "a", tmp_path.resolve() / "c")
    monkeypatch.delenv("SAC_DATA_ROOT")
    assert data_roots() == ()


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path
