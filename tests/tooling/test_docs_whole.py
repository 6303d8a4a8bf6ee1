"""The whole benchmark's generated blocks (issue 43): the shift from a subset to the whole pool and
its sentences, the paired tests turned round, LegalBench-RAG's published numbers beside ours, and a
block whose folder is not run yet; then every block on a stand-in sweep (the same grid on the demo)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from sac_core.experiments import load_sweep, run_sweep
from sac_core.experiments.paper import LbrPoint
from sac_core.experiments.report import cell_means
from sac_core.tooling.browser import PROJECT
from sac_core.tooling.docs.blocks import Block, Row
from sac_core.tooling.docs.catalogue import BLOCKS
from sac_core.tooling.docs.results import Results
from sac_core.tooling.docs.rows import FULL_ROWS
from sac_core.tooling.docs.site import pending_note, render_block
from sac_core.tooling.docs.sweep_notes import SECTIONS
from sac_core.tooling.docs.sweep_pages import sweep_page
from sac_core.tooling.docs.whole import drm_shift, paired_row, render_published, shift_sentences


def _rows(values: dict[str, dict[int, float]]) -> pd.DataFrame:
    """Per-query rows: query id → {k: DRM as a fraction}; the dataset is the id's prefix."""
    return pd.DataFrame([{"query_id": q, "dataset": q.split("/")[0], "k": k, "drm": v}
                         for q, by_k in values.items() for k, v in by_k.items()])  # fmt: skip


# The baseline on a subset (queries a/0, a/1, b/0) and on the whole pool (also a/2 and b/1); SAC likewise.
BASE_SUBSET = _rows({"a/0": {1: 0.5, 2: 0.5}, "a/1": {1: 0.0, 2: 1.0}, "b/0": {1: 1.0, 2: 1.0}})
BASE_WHOLE = _rows({"a/0": {1: 1.0, 2: 1.0}, "a/1": {1: 0.0, 2: 1.0}, "a/2": {1: 1.0, 2: 1.0},
                    "b/0": {1: 1.0, 2: 0.0}, "b/1": {1: 0.0, 2: 0.0}})  # fmt: skip
SAC_SUBSET = _rows({"a/0": {1: 0.0, 2: 0.5}, "a/1": {1: 0.0, 2: 0.5}, "b/0": {1: 0.5, 2: 0.5}})
SAC_WHOLE = _rows({"a/0": {1: 0.0, 2: 0.5}, "a/1": {1: 0.0, 2: 0.5}, "a/2": {1: 0.0, 2: 0.0},
                   "b/0": {1: 0.5, 2: 0.5}, "b/1": {1: 0.5, 2: 0.5}})  # fmt: skip


def test_drm_shift_by_hand_each_dataset_then_the_macro_mean():
    shift = drm_shift([("base", BASE_SUBSET, BASE_WHOLE), ("sac", SAC_SUBSET, SAC_WHOLE)])
    base = shift[shift["label"] == "base"].set_index("dataset")
    # a on the subset: k=1 (0.5+0)/2 = 0.25, k=2 (0.5+1)/2 = 0.75 → 50 %; b: 100 %; ALL (50+100)/2 = 75
    assert base.loc["a", "subset"] == pytest.approx(50.0) and base.loc["b", "subset"] == pytest.approx(100.0)
    assert base.loc["ALL", "subset"] == pytest.approx(75.0)
    # the same queries in the whole pool: a/0 now 1, a/1 as before → k=1 0.5, k=2 1.0 → 75; b/0 → 50
    assert base.loc["a", "same"] == pytest.approx(75.0) and base.loc["b", "same"] == pytest.approx(50.0)
    # every query of the whole pool: a k=1 (1+0+1)/3, k=2 1 → 83.33; b k=1 0.5, k=2 0 → 25; ALL 54.17
    assert base.loc["a", "whole"] == pytest.approx(250 / 3) and base.loc["b", "whole"] == pytest.approx(25.0)
    assert base.loc["ALL", "whole"] == pytest.approx((250 / 3 + 25) / 2)
    assert list(base.index) == ["a", "b", "ALL"]
    sac = shift[shift["label"] == "sac"].set_index("dataset")
    assert sac.loc["a", "whole"] == pytest.approx(100 / 6) and sac.loc["b", "subset"] == pytest.approx(50.0)


def test_the_sentences_say_every_change_with_its_numbers_largest_first():
    shift = drm_shift([("base", BASE_SUBSET, BASE_WHOLE), ("SAC", SAC_SUBSET, SAC_WHOLE)])
    first, second = shift_sentences(shift, "small protocol", "whole benchmark")
    # ALL 75.00 → 54.17 (−20.83); the same queries give (75 + 50) / 2 = 62.50, −12.50
    assert first == (
        "From the small protocol to the whole benchmark, the baseline's DRM (mean over k, all datasets) goes "
        "from 75.00 % to 54.17 % (-20.83 pts; -12.50 pts on the subset's own queries, the larger pool alone): "
        "it grows on a (+33.33 pts); it falls on b (-75.00 pts)."
    )
    # SAC removes, subset: a 50 − 25 = 25, b 100 − 50 = 50, ALL 37.50; whole: a 83.33 − 16.67 = 66.67,
    # b 25 − 50 = −25, ALL 20.83; more on a (+41.67), less on b (−75)
    assert second == (
        "SAC removes 37.50 pts of it on the subset and 20.83 pts on the whole pool: more on a (+41.67 pts); "
        "less on b (-75.00 pts)."
    )


def test_a_test_written_the_other_way_round_is_turned_round():
    tests = pd.DataFrame([{"a": "sac", "b": "base", "metric": "drm", "k": 8, "mean_a": 0.2, "mean_b": 0.6,
                           "diff": 0.4, "diff_low": 0.3, "diff_high": 0.5, "p_value": 0.01, "p_holm": 0.02,
                           "wins": 1, "ties": 5, "losses": 30}])  # fmt: skip
    turned = paired_row(tests, "base", "sac", "drm", 8)
    assert turned is not None
    assert (turned["mean_a"], turned["mean_b"], turned["diff"]) == (0.6, 0.2, -0.4)
    assert (turned["diff_low"], turned["diff_high"]) == (-0.5, -0.3)
    assert (turned["wins"], turned["losses"], turned["p_holm"]) == (30, 1, 0.02)
    assert paired_row(tests, "sac", "base", "drm", 8)["diff"] == 0.4  # type: ignore[index]
    assert paired_row(tests, "base", "sac", "drm", 1) is None


def _folder(root: Path, name: str, cells: dict[str, str], p1: dict[str, float], r64: dict[str, float]) -> None:
    """A results folder of one row per (cell, dataset, k) with P@1 and R@64 (fractions)."""
    rows = []
    for cell, variant in cells.items():
        for dataset in (*p1, "ALL"):
            for k in (1, 64):
                value = p1 if k == 1 else r64
                mean = value.get(dataset, sum(value.values()) / len(value))
                rows.append({"cell": cell, "variant": variant, "dataset": dataset, "k": k, "drm": 0.5,
                             "precision": mean, "recall": mean, "protocol": "full"})  # fmt: skip
    (root / name).mkdir(parents=True)
    pd.DataFrame(rows).to_csv(root / name / "results.csv", index=False)


def test_the_baseline_beside_legalbench_rags_published_numbers_with_the_difference(tmp_path):
    _folder(tmp_path, "whole", {"c1": "baseline"}, {"a": 0.10, "b": 0.30}, {"a": 0.50, "b": 0.70})
    block = Block("published", "whole", kind="published", rows=(Row("Baseline", "baseline"),))
    theirs = (LbrPoint("a", "P@1", 12.5, "their table 5"), LbrPoint("b", "R@64", 65.0, "their table 5"))
    lines = render_published(block, Results(tmp_path), theirs)
    assert lines[0] == "| precision@1 / recall@64 (%) | a | b | ALL (macro) |"
    assert lines[2] == "| Baseline, this project | 10.00 / 50.00 | 30.00 / 70.00 | 20.00 / 60.00 |"
    assert lines[3] == "| LegalBench-RAG as published | 12.50 / – | – / 65.00 | – / – |"
    assert lines[4] == "| difference, Baseline (pts) | -2.50 / – | – / +5.00 | – / – |"  # ours − theirs
    assert "Theirs: their table 5; ours from" in lines[-1]  # each source named once
    empty = render_published(block, Results(tmp_path), ())
    assert "not in this project's sources yet" in empty[-1] and "LBR_PUBLISHED" in empty[-1]


def test_a_block_of_a_folder_not_run_yet_says_how_to_run_it_and_its_sentence_shows_nothing(tmp_path):
    blocks = {b.name: b for b in BLOCKS}
    results = Results(tmp_path)  # no full-benchmark folder
    note = render_block(blocks["full-benchmark"], results, "docs/", {})
    assert note == pending_note(blocks["full-benchmark"])
    assert "*Not run yet:* `results/full-benchmark` does not exist" in note
    assert "`sac sweep --config sweeps/full-benchmark.toml --data ../shared/legalbench-rag" in note
    assert render_block(blocks["full-shift-text"], results, "docs/", {}) == ""
    other = Block("other", "nowhere")  # a block without `pending` still fails on a missing folder
    with pytest.raises(ValueError, match="nowhere"):
        render_block(other, results, "docs/", {})


# --------------------------------------------------------------------------- the stand-in sweep


def _half(demo: Path, to: Path) -> Path:
    """A copy of the demo with the first half of each dataset's queries: fewer queries over fewer
    documents (only cited documents are loaded), as a 776-query subset is of the whole benchmark."""
    shutil.copytree(demo, to)
    for path in (to / "benchmarks").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["tests"] = data["tests"][: len(data["tests"]) // 2]
        path.write_text(json.dumps(data), encoding="utf-8")
    return to


@pytest.mark.slow  # two sweeps of seven cells on the demo (the model; the adapter's maps with torch)
def test_every_full_benchmark_block_renders_the_stand_in_sweep(demo_dir, embed_cache, tmp_path):
    config = (PROJECT / "sweeps" / "full-benchmark.toml").read_text(encoding="utf-8")
    config = config.replace('protocol = "full"', 'protocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]', 1)
    (tmp_path / "full-benchmark.toml").write_text(config, encoding="utf-8")
    sweep = load_sweep(tmp_path / "full-benchmark.toml")
    root = tmp_path / "results"
    run_sweep(sweep, demo_dir, embed_cache, root / "full-benchmark", progress=False)
    run_sweep(sweep, _half(demo_dir, tmp_path / "half"), embed_cache, root / "paper", progress=False)
    for name in (
        "wording-paper",
        "methods-paper",
        "headline-lbr-mini",
        "adapter-paper",
    ):  # the folders the real blocks read
        shutil.copytree(root / "paper", root / name)
    results = Results(root)
    blocks = {b.name: b for b in BLOCKS}
    rendered = {name: render_block(b, results, "../", {}) for name, b in blocks.items() if name.startswith("full-")}

    full = results.sweep("full-benchmark")
    means = cell_means(full.table, results.per_query("full-benchmark"))
    baseline = full.find("baseline")
    row = rendered["full-benchmark"].splitlines()[2]
    assert row.startswith(f"| {FULL_ROWS[0].label} | {means.loc[baseline, 'precision']:.2f}\u00a0±")
    assert len(rendered["full-datasets"].splitlines()) == 2 + 3 * len(FULL_ROWS) + 2  # two datasets and ALL
    assert len([line for line in rendered["full-pairs"].splitlines() if "| DRM@8 |" in line]) == len(FULL_ROWS) - 1
    assert "| Baseline (plain RAG) |" in rendered["full-lbr"] and "demo_privacy" in rendered["full-lbr"]
    text = rendered["full-shift-text"]
    assert text.startswith("From the whole benchmark (33 queries") and "(66 queries, 18 documents)" in text
    sentences = rendered["full-shift"].splitlines()[: len(FULL_ROWS)]  # baseline, SAC generic, expert, …
    assert text == " ".join(sentences[i] for i in (0, 1, 3))  # the README's: baseline, SAC generic, recommended
    published = rendered["full-published"]
    assert "| Baseline (plain RAG), whole benchmark, this project | " in published
    assert "| Baseline (plain RAG), lbr-mini, this project | " in published  # a pool like theirs
    assert "| LegalBench-RAG as published | " in published
    assert "| difference, Baseline (plain RAG), lbr-mini (pts) | " in published
    assert "as transcribed in a secondary summary" in published  # where their numbers were read
    sections = [(s.title, s.text, rendered[s.block]) for s in SECTIONS["full-benchmark"]]
    page, _ = sweep_page(full, PROJECT / "sweeps", sections)  # docs/results/full-benchmark.md
    titles = [line for line in page.splitlines() if line.startswith("## ")]
    assert titles == [*(f"## {s.title}" for s in SECTIONS["full-benchmark"]), "## Every cell, means over k"]
    assert rendered["full-shift"] in page and "Configuration: `sweeps/full-benchmark.toml`" in page
