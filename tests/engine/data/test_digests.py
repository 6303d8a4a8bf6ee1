"""folder_stamp: the metadata of every file a page may read, by which a server sees a folder change."""

from __future__ import annotations

import os

from sac_core.engine.data.digests import folder_stamp


def _folder(root):
    (root / "benchmarks").mkdir(parents=True)
    (root / "benchmarks" / "nda.json").write_text("{}", encoding="utf-8")
    (root / "summaries").mkdir()
    (root / "summaries" / "llm.jsonl").write_text("", encoding="utf-8")
    (root / "corpus" / "nda" / "a-b").mkdir(parents=True)
    (root / "corpus" / "nda" / "a").mkdir()
    (root / "corpus" / "nda" / "a-b" / "x.txt").write_text("one", encoding="utf-8")
    (root / "corpus" / "nda" / "a" / "b.txt").write_text("two", encoding="utf-8")
    (root / "corpus" / "other").mkdir()  # no benchmark file: not read by any page
    (root / "corpus" / "other" / "c.txt").write_text("three", encoding="utf-8")
    return root


def test_every_file_a_page_reads_once_in_the_order_of_its_path_parts(tmp_path):
    root = _folder(tmp_path / "data")
    stamp = folder_stamp(root)
    # "a" before "a-b" as path parts (as text "a-b/…" would sort before "a/…")
    assert [path for path, *_ in stamp] == [
        "benchmarks/nda.json", "corpus/nda/a/b.txt", "corpus/nda/a-b/x.txt", "summaries/llm.jsonl",
    ]  # fmt: skip
    path, size, mtime_ns, inode = stamp[1]
    st = os.stat(root / path)
    assert (size, mtime_ns, inode) == (3, st.st_mtime_ns, st.st_ino)


def test_an_edit_a_new_file_or_a_linked_folder_changes_the_stamp(tmp_path):
    root = _folder(tmp_path / "data")
    before = folder_stamp(root)
    (root / "corpus" / "nda" / "a" / "b.txt").write_text("two, edited", encoding="utf-8")
    edited = folder_stamp(root)
    assert edited != before and len(edited) == len(before)
    elsewhere = tmp_path / "scans"
    elsewhere.mkdir()
    (elsewhere / "s.txt").write_text("scan", encoding="utf-8")
    (root / "corpus" / "nda" / "scans").symlink_to(elsewhere, target_is_directory=True)
    assert "corpus/nda/scans/s.txt" in [path for path, *_ in folder_stamp(root)]


def test_a_missing_summary_file_or_corpus_folder_is_left_out(tmp_path):
    root = tmp_path / "data"
    (root / "benchmarks").mkdir(parents=True)
    (root / "benchmarks" / "nda.json").write_text("{}", encoding="utf-8")
    assert [path for path, *_ in folder_stamp(root)] == ["benchmarks/nda.json"]
