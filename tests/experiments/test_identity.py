"""A result's identity covers every input that can change it: any edit of any input gives a new cell
id, and no edit keeps it (Hypothesis draws the edits)."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sac_core.engine import store
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import METHODS, STAGES, OpenContext, RunConfig
from sac_core.experiments.identity import CellInputs, cell_inputs

DOCS = {
    "d/a.txt": "This Agreement is governed by the laws of Delaware. Either party may terminate on notice.",
    "d/b.txt": "The Recipient shall keep all Confidential Information secret for five years after disclosure.",
}
QUERIES = [
    ("Consider the Agreement between A and B; What is the governing law?", "d/a.txt", (0, 50)),
    ("Consider the NDA between C and D; How long does confidentiality last?", "d/b.txt", (4, 60)),
]
SUMMARY = {"d/a.txt": "A Delaware services agreement.", "d/b.txt": "A mutual NDA of five years."}


def write_folder(root: Path, docs=DOCS, queries=QUERIES, summaries=SUMMARY) -> Path:
    """A LegalBench-RAG-shaped folder: one dataset ``d``, its documents, queries and summaries."""
    (root / "corpus" / "d").mkdir(parents=True, exist_ok=True)
    for path, text in docs.items():
        (root / "corpus" / path).write_text(text, encoding="utf-8")
    tests = [
        {"query": q, "snippets": [{"file_path": fp, "span": list(span), "answer": docs[fp][span[0] : span[1]]}]}
        for q, fp, span in queries
    ]
    (root / "benchmarks").mkdir(exist_ok=True)
    (root / "benchmarks" / "d.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    (root / "summaries").mkdir(exist_ok=True)
    lines = [
        json.dumps({"file_path": fp, "prompt": "generic", "chars": chars, "summary": s})
        for fp, s in summaries.items()
        for chars in (150, 300)  # SAC reads 150, the document-aware stage 300
    ]
    (root / "summaries" / "llm.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def config(bank: Path) -> RunConfig:
    """SAC (reads summaries) + the document-aware stage + within-document ranking with a bank of
    labelled passages in another folder: every kind of input is read."""
    base = RunConfig(protocol="full", datasets=("d",), method="sac", ks=(1, 2), summary=SummaryConfig(provider="file"))
    options = {"split.on": True, "prior.weight": 2.0, "within_doc.on": True, "within_doc.exemplar": 1.0}
    return base.with_(
        options={**options, "within_doc.exemplar_protocol": "full", "within_doc.exemplar_data": str(bank)}
    )


def cell_id(data: Path, bank: Path, cfg: RunConfig | None = None) -> str:
    bench = load_benchmark(data, ("d",), "full")
    with tempfile.TemporaryDirectory() as cache:
        return cell_inputs(cfg or config(bank), OpenContext.new(bench, data, Path(cache))).id


def _replace_char(text: str, at: int) -> str:
    """``text`` with one character changed (the length kept)."""
    at %= len(text)
    return text[:at] + ("z" if text[at] != "z" else "y") + text[at + 1 :]


# An edit: (what it changes, how) → it writes the data and bank folders and may change the config.
Edit = Callable[[Path, Path, int], RunConfig | None]


def reword_question(data: Path, bank: Path, at: int) -> None:
    q, fp, span = QUERIES[at % 2]
    queries = list(QUERIES)
    queries[at % 2] = (_replace_char(q, len("Consider the ") + at), fp, span)  # the question text only
    write_folder(data, queries=queries)


def edit_document_same_length(data: Path, bank: Path, at: int) -> None:
    docs = dict(DOCS)
    text = docs["d/b.txt"]
    docs["d/b.txt"] = text[:60] + _replace_char(text[60:], at)  # outside the gold span: the answers still hold
    write_folder(data, docs=docs)


def move_gold_span(data: Path, bank: Path, at: int) -> None:
    queries = list(QUERIES)
    q, fp, (start, end) = queries[0]
    queries[0] = (q, fp, (start, end - 1 - at % 10))
    write_folder(data, queries=queries)


def edit_summary(data: Path, bank: Path, at: int) -> None:
    write_folder(data, summaries={**SUMMARY, "d/a.txt": _replace_char(SUMMARY["d/a.txt"], at)})


def edit_bank(data: Path, bank: Path, at: int) -> None:
    docs = dict(DOCS)
    docs["d/a.txt"] = _replace_char(docs["d/a.txt"], at % 50)  # inside the bank's gold passage
    queries = [(q, fp, span) for q, fp, span in QUERIES]
    write_folder(bank, docs=docs, queries=queries)


def change_backend(data: Path, bank: Path, at: int) -> RunConfig:
    return config(bank).with_(backend="torch" if config(bank).backend != "torch" else "onnx")


def change_model(data: Path, bank: Path, at: int) -> RunConfig:
    return config(bank).with_(model="all-mpnet-base-v2")


def change_setting(data: Path, bank: Path, at: int) -> RunConfig:
    return config(bank).with_(chunk_size=500 + 1 + at % 300)


def change_option(data: Path, bank: Path, at: int) -> RunConfig:
    return config(bank).with_(options={**dict(config(bank).options), "prior.weight": 3.0 + at % 5})


EDITS: dict[str, Edit] = {
    "reworded question": reword_question,
    "document edited at the same length": edit_document_same_length,
    "gold span": move_gold_span,
    "summary text": edit_summary,
    "bank contents": edit_bank,
    "backend": change_backend,
    "model": change_model,
    "a setting": change_setting,
    "a plug-in option": change_option,
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(EDITS)), at=st.integers(min_value=0, max_value=10_000))
def test_any_edit_of_any_input_gives_a_new_id(kind: str, at: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data, bank = write_folder(Path(tmp) / "data"), write_folder(Path(tmp) / "bank")
        before = cell_id(data, bank)
        changed = EDITS[kind](data, bank, at)
        after = cell_id(data, bank, changed)
    assert after != before, kind


@settings(max_examples=10, deadline=None)
@given(order=st.permutations(list(DOCS)))
def test_no_edit_keeps_the_id(order: list[str]) -> None:
    """Written anew (documents in another order, another folder, another cache): the same id."""
    with tempfile.TemporaryDirectory() as one, tempfile.TemporaryDirectory() as two:
        data_a, bank_a = write_folder(Path(one) / "data"), write_folder(Path(one) / "bank")
        data_b = write_folder(Path(two) / "elsewhere", docs={fp: DOCS[fp] for fp in order})
        bank_b = write_folder(Path(two) / "bank")
        assert cell_id(data_a, bank_a) == cell_id(data_b, bank_b)


@pytest.mark.parametrize("registry", [METHODS, STAGES])
def test_a_plug_ins_version_is_part_of_the_id(registry, tmp_path: Path, monkeypatch) -> None:
    data, bank = write_folder(tmp_path / "data"), write_folder(tmp_path / "bank")
    before = cell_id(data, bank)
    plugin = registry.get("sac" if registry is METHODS else "within_doc")
    monkeypatch.setattr(type(plugin), "version", plugin.version + 1)
    assert cell_id(data, bank) != before


def test_a_library_version_is_part_of_the_id(tmp_path: Path, monkeypatch) -> None:
    data, bank = write_folder(tmp_path / "data"), write_folder(tmp_path / "bank")
    before = cell_id(data, bank)
    monkeypatch.setattr(store, "library_version", lambda name: "0.0.0-other")
    assert cell_id(data, bank) != before


def test_machine_paths_are_not_part_of_the_id(tmp_path: Path) -> None:
    """The bank read from two folders of the same content: one id (the path is not an input, its content is)."""
    data = write_folder(tmp_path / "data")
    assert cell_id(data, write_folder(tmp_path / "bank-one")) == cell_id(data, write_folder(tmp_path / "bank-two"))


PACKAGED = """
from sac_core.engine.retrieval import Ranker
from sac_core.experiments import METHODS, Method, Opened, RunConfig


class Packaged(Method[RunConfig]):
    name = "packaged"
    title = "Packaged (a test plug-in)"

    def open(self, config, ctx):
        raise NotImplementedError


METHODS.register(Packaged())
"""


def _install(site: Path, version: str | None) -> None:
    """The module ``packaged_plugin`` in ``site``, as pip installs a distribution ``sac-packaged`` of
    ``version`` (its ``.dist-info`` with the RECORD that lists the module); None: a loose module."""
    site.mkdir(exist_ok=True)
    (site / "packaged_plugin.py").write_text(PACKAGED, encoding="utf-8")
    for old in site.glob("*.dist-info"):
        shutil.rmtree(old)
    if version is not None:
        info = site / f"sac_packaged-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: sac-packaged\nVersion: {version}\n")
        (info / "top_level.txt").write_text("packaged_plugin\n")
        (info / "RECORD").write_text(f"packaged_plugin.py,,\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n")
    importlib.invalidate_caches()
    for cached in (store.package_of, store.library_version, store._distributions):  # a new process, as it were
        cached.cache_clear()


def _packaged_plugin(data: Path) -> dict[str, object]:
    """The ``plugins`` entry of a cell of the method ``packaged``, and its id."""
    bench = load_benchmark(data, ("d",), "full")
    config = RunConfig(protocol="full", datasets=("d",), method="packaged", ks=(1,))
    with tempfile.TemporaryDirectory() as cache:
        inputs = cell_inputs(config, OpenContext.new(bench, data, Path(cache)))
    return {"id": inputs.id, **inputs.payload["plugins"]["packaged"]}  # type: ignore[index, dict-item]


@pytest.fixture
def packaged(tmp_path: Path, monkeypatch) -> Path:
    """A folder on ``sys.path`` for the plug-in ``packaged_plugin``, imported once it is written."""
    site = tmp_path / "site"
    _install(site, "1.0")
    monkeypatch.syspath_prepend(str(site))
    importlib.import_module("packaged_plugin")
    yield site
    METHODS.unregister("packaged")
    sys.modules.pop("packaged_plugin", None)
    _install(site, None)


def test_a_plug_in_s_package_version_is_part_of_the_id(packaged: Path, tmp_path: Path) -> None:
    """Issue 42: a plug-in of another distribution is identified by that distribution's version too,
    so upgrading it never reuses the old cells (a built-in plug-in says it with ``version`` alone)."""
    data = write_folder(tmp_path / "data")
    old = _packaged_plugin(data)
    assert old["package"] == "sac-packaged==1.0" and old["version"] == 1
    _install(packaged, "2.0")  # the same code, another release of its package
    new = _packaged_plugin(data)
    assert new["package"] == "sac-packaged==2.0" and new["id"] != old["id"]
    _install(packaged, "1.0")
    assert _packaged_plugin(data)["id"] == old["id"]  # back on 1.0: its cells again


def test_a_plug_in_of_no_package_is_identified_by_its_source(packaged: Path, tmp_path: Path) -> None:
    data = write_folder(tmp_path / "data")
    _install(packaged, None)  # the module on PYTHONPATH, no distribution lists it
    loose = _packaged_plugin(data)
    assert "package" not in loose and loose["source"] == store.sha256((packaged / "packaged_plugin.py").read_bytes())
    (packaged / "packaged_plugin.py").write_text(PACKAGED + "# edited\n", encoding="utf-8")
    assert _packaged_plugin(data)["id"] != loose["id"]


def test_built_in_plug_ins_name_no_package(tmp_path: Path) -> None:
    data, bank = write_folder(tmp_path / "data"), write_folder(tmp_path / "bank")
    bench = load_benchmark(data, ("d",), "full")
    inputs = cell_inputs(config(bank), OpenContext.new(bench, data, tmp_path / "cache"))
    plugins = inputs.payload["plugins"]
    assert {"sac", "within_doc"} < set(plugins) and "prior" in plugins  # type: ignore[operator]
    assert not any({"package", "source"} & set(entry) for entry in plugins.values())  # type: ignore[attr-defined]


def test_every_committed_cell_keeps_its_id_under_the_store_s_key() -> None:
    """The cell id is the store's key of its committed inputs: no published cell changes id."""
    results = Path(__file__).resolve().parents[2] / "results"
    lines = [line for path in sorted(results.glob("*/cells.jsonl")) for line in path.read_text().splitlines()]
    assert len(lines) > 300
    for line in lines:
        entry = json.loads(line)
        assert CellInputs(entry["inputs"]).id == entry["cell"]
