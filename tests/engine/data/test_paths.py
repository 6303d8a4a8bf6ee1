"""Data directories that cannot be used: one clear error naming the path exactly, never a traceback."""

from __future__ import annotations

import errno
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sac_core.engine.data import (
    BenchmarkError,
    confined,
    data_roots,
    default_cache_dir,
    load_benchmark,
    read_document,
    resolve_data_dir,
)
from sac_core.engine.summaries import SummaryError, read_summary_file


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


# --------------------------------------------------------------------------- what is read under a root


def test_the_refusal_names_the_path_but_never_the_roots(tmp_path):
    root = tmp_path / "allowed-root-folder"
    root.mkdir()
    outside = _benchmark_dir(tmp_path / "secret")
    message = _error(outside, (root,))
    assert message == f"{outside}: outside the folders this server may read"
    assert str(root) not in message and "SAC_DATA_ROOT" not in message


def _confined_data(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """A benchmark inside $SAC_DATA_ROOT and a folder outside it with a secret file."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("root:x:0:0:the secret\n")
    (outside / "b.json").write_text(json.dumps({"tests": []}))
    data = _benchmark_dir(root / "lbr")
    (data / "corpus" / "ds").mkdir(parents=True)
    (data / "corpus" / "ds" / "a.txt").write_text("Alpha agreement. Governing law: Delaware.")
    tests = [{"query": "Which law?", "snippets": [{"file_path": "ds/a.txt", "span": [0, 5], "answer": "Alpha"}]}]
    (data / "benchmarks" / "ds.json").write_text(json.dumps({"tests": tests}))
    monkeypatch.setenv("SAC_DATA_ROOT", str(root))
    return data, outside


def test_a_document_linked_outside_the_root_is_not_read(tmp_path, monkeypatch):
    data, outside = _confined_data(tmp_path, monkeypatch)
    assert load_benchmark(data, "all", "full").documents["ds/a.txt"].text.startswith("Alpha")
    (data / "corpus" / "ds" / "a.txt").unlink()
    os.symlink(outside / "secret.txt", data / "corpus" / "ds" / "a.txt")
    with pytest.raises(BenchmarkError) as info:
        load_benchmark(data, "all", "full")
    assert str(info.value) == f"{data / 'corpus' / 'ds' / 'a.txt'}: outside the folders this server may read"
    with pytest.raises(BenchmarkError):
        read_document(data, "ds/a.txt")
    monkeypatch.delenv("SAC_DATA_ROOT")  # no confinement (a command-line run): links are followed
    assert read_document(data, "ds/a.txt").text.startswith("root:x")


def test_a_corpus_folder_linked_outside_is_not_listed(tmp_path, monkeypatch):
    data, outside = _confined_data(tmp_path, monkeypatch)
    (data / "corpus" / "other").symlink_to(outside, target_is_directory=True)
    (data / "benchmarks" / "other.json").write_text(json.dumps({"tests": []}))
    with pytest.raises(BenchmarkError, match="corpus/other: outside the folders"):
        load_benchmark(data, ("other",), "corpus")


def test_benchmark_files_and_folders_linked_outside_are_refused(tmp_path, monkeypatch):
    data, outside = _confined_data(tmp_path, monkeypatch)
    (data / "benchmarks" / "b.json").symlink_to(outside / "b.json")
    with pytest.raises(BenchmarkError, match=r"b\.json: outside the folders"):
        load_benchmark(data, ("b",), "full")
    other = tmp_path / "root" / "other"
    other.mkdir()
    (other / "benchmarks").symlink_to(outside, target_is_directory=True)
    assert _error(other, data_roots()) == f"{other}: benchmarks/: outside the folders this server may read"


def test_a_summary_file_linked_outside_is_not_read(tmp_path, monkeypatch):
    data, outside = _confined_data(tmp_path, monkeypatch)
    (data / "summaries").mkdir()
    (data / "summaries" / "llm.jsonl").symlink_to(outside / "secret.txt")
    with pytest.raises(SummaryError, match=r"llm\.jsonl: outside the folders this server may read"):
        read_summary_file(data / "summaries" / "llm.jsonl", "generic", 150)
    (data / "summaries" / "llm.jsonl").unlink()
    (data / "summaries").rmdir()
    (data / "summaries").symlink_to(outside, target_is_directory=True)  # the folder itself leads out
    (outside / "llm.jsonl").write_text("")
    with pytest.raises(SummaryError, match="outside the folders"):
        read_summary_file(data / "summaries" / "llm.jsonl", "generic", 150)


def test_links_that_stay_inside_the_roots_are_followed(tmp_path, monkeypatch):
    data, _ = _confined_data(tmp_path, monkeypatch)
    shared = tmp_path / "root" / "shared"
    shared.mkdir()
    (shared / "a.txt").write_text("Alpha, from the shared folder.")
    (data / "corpus" / "ds" / "a.txt").unlink()
    os.symlink(Path("..") / ".." / ".." / "shared" / "a.txt", data / "corpus" / "ds" / "a.txt")  # relative, with ..
    assert load_benchmark(data, "all", "full").documents["ds/a.txt"].text.startswith("Alpha, from")


def test_a_path_under_no_root_is_not_confined(tmp_path):
    root, elsewhere = tmp_path / "root", tmp_path / "cache" / "demo.txt"
    root.mkdir()
    elsewhere.parent.mkdir()
    assert confined(elsewhere, roots=(root,)) == elsewhere  # e.g. the demo corpus under the cache


# Random trees: folders and symbolic links (absolute or relative, with ".."), and paths through them.
NAMES = ("a", "b", "c", "..", ".")
TARGETS = ("{root}", "{root}/a", "{root}/a/b", "{outside}", "{outside}/x", "..", "../..", "../../..", "a", "b/c",
           "../outside", "/etc", "{root}/../outside")  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    links=st.lists(
        st.tuples(st.lists(st.sampled_from(("a", "b", "c")), min_size=1, max_size=3), st.sampled_from(TARGETS)),
        max_size=5,
    ),
    walk=st.lists(st.sampled_from(NAMES), min_size=1, max_size=7),
)
def test_a_read_under_a_root_never_resolves_outside_it(tmp_path, links, walk):
    with tempfile.TemporaryDirectory(dir=tmp_path) as scratch:
        base = Path(os.path.realpath(scratch))
        root, outside = base / "root", base / "outside"
        for folder in (root / "a" / "b", outside / "x"):
            folder.mkdir(parents=True)
        (outside / "x" / "secret.txt").write_text("secret")
        for parts, target in links:
            where = root.joinpath(*parts)
            if where.exists() or where.is_symlink() or not where.parent.is_dir():
                continue
            where.symlink_to(target.format(root=root, outside=outside))
        path = root.joinpath(*walk)
        try:
            real = os.path.realpath(path)
        except OSError:  # a loop of links: refused below like anything that leads nowhere readable
            real = None
        inside = real is not None and (real == str(root) or Path(real).is_relative_to(root))
        if inside:
            assert confined(path, roots=(root,)) == path
        else:
            with pytest.raises(BenchmarkError) as info:
                confined(path, roots=(root,))
            message = str(info.value)
            assert message.startswith(f"{path}: ") and message.count(str(root)) == 1  # only the path as given
