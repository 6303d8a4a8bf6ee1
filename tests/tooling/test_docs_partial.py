"""The whole benchmark's blocks while its sweep is run in part (issue 43): a folder holding some of
the five planned methods shows those, and says plainly which are not computed yet; no number is made
up for them, and a block measured against the baseline shows nothing but the note without it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sac_core.tooling.docs.blocks import Block, Row
from sac_core.tooling.docs.catalogue import BLOCKS
from sac_core.tooling.docs.results import Results
from sac_core.tooling.docs.rows import FULL_ROWS, PAPER_ROWS, PUBLISHED_ROWS
from sac_core.tooling.docs.site import computed, missing_note, render_block

KS = (1, 2, 4, 8, 16, 32, 64)
BLOCK = {b.name: b for b in BLOCKS}
NOT_YET = "*Not computed yet:* "


def _sweep(root: Path, name: str, variants: list[str], queries: int, drm: float, protocol: str = "full") -> None:
    """A sweep folder: per-query rows of ``queries`` queries in datasets a and b for each variant
    (DRM ``drm`` plus 0.1 per variant, precision and recall set by the query), and the
    ``results.csv`` of their means (each dataset, and ``ALL`` the macro mean)."""
    rows = []
    for i, variant in enumerate(variants):
        for dataset in ("a", "b"):
            for q in range(queries):
                for k in KS:
                    rows.append({"cell": f"c{i}", "variant": variant, "dataset": dataset, "query_id": f"{dataset}/{q}",
                                 "k": k, "drm": drm + 0.1 * i, "precision": q / (2 * queries),
                                 "recall": (q % 2) / 2})  # fmt: skip
    per_query = pd.DataFrame(rows)
    means = per_query.groupby(["cell", "variant", "dataset", "k"], sort=False)[["drm", "precision", "recall"]].mean()
    means = means.reset_index()
    macro = means.groupby(["cell", "variant", "k"], sort=False)[["drm", "precision", "recall"]].mean().reset_index()
    table = pd.concat([means, macro.assign(dataset="ALL")], ignore_index=True).assign(protocol=protocol)
    (root / name).mkdir(parents=True)
    table.to_csv(root / name / "results.csv", index=False)
    per_query.to_csv(root / name / "per_query.csv.gz", index=False)


@pytest.fixture
def partial(tmp_path: Path) -> Results:
    """results/full-benchmark with the baseline alone; the paper protocol's folders with every method."""
    _sweep(tmp_path, "full-benchmark", ["baseline"], queries=6, drm=0.4)
    _lbr_mini(tmp_path)
    for folder in {row.folder for row in PAPER_ROWS}:
        variants = list(dict.fromkeys(r.variant for r in PAPER_ROWS if r.folder == folder))
        _sweep(tmp_path, folder, variants, queries=3, drm=0.2, protocol="paper")
    return Results(tmp_path)


def _lbr_mini(root: Path) -> None:
    """The committed lbr-mini folder the published block sets beside LegalBench-RAG's numbers."""
    (lbr_mini,) = [row for row in PUBLISHED_ROWS if row.folder]
    _sweep(root, lbr_mini.folder, [lbr_mini.variant], queries=3, drm=0.1, protocol="lbr-mini")


def test_a_folder_with_the_baseline_alone_shows_it_and_names_the_four_methods_not_computed(partial):
    others = [row.label for row in FULL_ROWS[1:]]
    note = missing_note(BLOCK["full-benchmark"], others)
    assert note.startswith(f"{NOT_YET}{'; '.join(others)}. `results/full-benchmark` holds no cell of them yet: ")
    assert "`sac sweep --config sweeps/full-benchmark.toml" in note
    rendered = {name: render_block(b, partial, "../", {}) for name, b in BLOCK.items() if name.startswith("full-")}

    table = rendered["full-benchmark"].splitlines()
    rows = [line for line in table if line.startswith("| ") and not line.startswith(("| method", "| ---"))]
    precision = 100 * sum(q / 12 for q in range(6)) / 6  # the query's share, the same at every k and dataset
    assert len(rows) == 1 and rows[0].startswith(f"| Baseline (plain RAG) | {precision:.2f}\u00a0±\u00a0")
    assert table[-1] == note
    for name in ("full-datasets", "full-lbr", "full-shift"):
        assert "| Baseline (plain RAG) |" in rendered[name] and rendered[name].endswith(f"\n\n{note}")
        assert not any(label in rendered[name].replace(note, "") for label in others)  # no row, no number for them
    assert rendered["full-datasets"].count("| Baseline (plain RAG) |") == 3  # a, b and ALL
    assert rendered["full-pairs"] == note  # nothing to test the baseline against yet: the note alone
    sentences = rendered["full-shift"].split("\n\n")[0]
    # DRM 20 % on the paper protocol's folder, 40 % on the whole pool: +20 pts on each dataset
    assert sentences.startswith(
        "From the paper protocol to the whole benchmark, the baseline's DRM (mean over k, all datasets) goes "
        "from 20.00 % to 40.00 % (+20.00 pts;"
    )
    assert "removes" not in sentences  # the sentence of a method not computed is not written
    assert rendered["full-shift-text"] == sentences  # the README's sentence: no note (the table above has it)
    assert NOT_YET not in rendered["full-published"]  # its rows, the baseline on two pools, are computed
    assert "| Baseline (plain RAG), whole benchmark, this project |" in rendered["full-published"]
    assert "| Baseline (plain RAG), lbr-mini, this project |" in rendered["full-published"]


def test_without_the_baseline_a_block_measured_against_it_shows_only_the_note(tmp_path):
    _sweep(tmp_path, "full-benchmark", [FULL_ROWS[1].variant, FULL_ROWS[3].variant], queries=4, drm=0.3)
    _lbr_mini(tmp_path)
    results = Results(tmp_path)
    shown, missing = computed(BLOCK["full-shift"], results)
    assert [r.label for r in shown.rows] == [FULL_ROWS[1].label, FULL_ROWS[3].label]
    assert [r.label for r in shown.against] == [PAPER_ROWS[1].label, PAPER_ROWS[3].label]  # kept in step
    assert missing == tuple(r.label for i, r in enumerate(FULL_ROWS) if i not in (1, 3))  # the others, in order
    means = render_block(BLOCK["full-benchmark"], results, "../", {})
    assert "| SAC (generic summaries) |" in means and "| Recommended |" in means
    assert means.endswith(missing_note(BLOCK["full-benchmark"], missing))
    against = " This block measures every row against Baseline (plain RAG): it shows none before that one."
    for name in ("full-pairs", "full-shift"):
        assert render_block(BLOCK[name], results, "../", {}) == missing_note(BLOCK[name], missing) + against
    published = render_block(BLOCK["full-published"], results, "../", {})
    assert "whole benchmark, this project" not in published  # no number for the row not computed
    assert "| Baseline (plain RAG), lbr-mini, this project |" in published  # the committed folder's row
    assert published.endswith(missing_note(BLOCK["full-published"], (PUBLISHED_ROWS[0].label,)))
    assert render_block(BLOCK["full-shift-text"], results, "../", {}) == ""


def test_a_block_of_every_row_and_one_without_pending_are_unchanged(tmp_path):
    _sweep(tmp_path, "whole", ["baseline", "sac"], queries=4, drm=0.3)
    results = Results(tmp_path)
    rows = (Row("Baseline", "baseline"), Row("SAC", "sac"))
    complete = render_block(Block("w", "whole", rows=rows, pending="sac sweep …"), results, "../", {})
    assert NOT_YET not in complete and "| SAC |" in complete
    strict = Block("w", "whole", rows=(*rows, Row("Other", "other")))  # no `pending`: a missing cell is an error
    with pytest.raises(ValueError, match="0 cells of variant 'other'"):
        render_block(strict, results, "../", {})
