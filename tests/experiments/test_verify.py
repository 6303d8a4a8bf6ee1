"""`sac verify`: a sweep folder's cells recomputed in a fresh cache match what was published (largest
difference 0); a published figure changed by hand, or a cell made from other data, is reported and
the command exits 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from sac_core.cli.main import main
from sac_core.experiments.cells import PER_QUERY
from sac_core.experiments.sweep import load_sweep, run_sweep
from sac_core.experiments.verify import TOLERANCE, verify_folder


@pytest.fixture(scope="module")
def published(demo_dir: Path, embed_cache: Path, tmp_path_factory) -> Path:
    """A baseline cell and a SAC cell on the demo, as a committed sweep folder."""
    path = tmp_path_factory.mktemp("sweep") / "two.toml"
    path.write_text(
        '[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\nks = [1, 4]\n'
        '[grid]\nmethod = ["baseline", "sac"]\n',
        encoding="utf-8",
    )
    out = path.parent / "two"
    run_sweep(load_sweep(path), demo_dir, embed_cache, out, progress=False)
    return out


def test_recomputed_cells_equal_the_published_ones(published: Path, demo_dir: Path) -> None:
    found = verify_folder(published, demo_dir, progress=False)
    assert len(found) == 2 and all(f.ok for f in found), found
    assert all(max(f.differences.values()) <= TOLERANCE for f in found)


def test_a_published_figure_changed_by_hand_fails_with_its_difference(published: Path, demo_dir, tmp_path, capsys):
    copy = shutil.copytree(published, tmp_path / "edited")
    rows = pd.read_csv(copy / PER_QUERY)
    first = rows.groupby("cell").head(1).index  # one row of each cell: whichever --cells draws differs
    rows.loc[first, "recall"] = rows.loc[first, "recall"] + 0.25
    rows.to_csv(copy / PER_QUERY, index=False)
    assert main(["verify", str(copy), "--data", str(demo_dir), "--cells", "1", "--quiet"]) == 1
    said = capsys.readouterr().out
    assert "recall 2.5e-01" in said and "0 of 1 cells verified" in said


def test_a_cell_made_from_other_data_is_named_as_such(published: Path, demo_dir: Path, tmp_path: Path) -> None:
    data = shutil.copytree(demo_dir, tmp_path / "data")
    bench_file = data / "benchmarks" / "demo_nda.json"
    raw = json.loads(bench_file.read_text(encoding="utf-8"))
    raw["tests"][0]["query"] = raw["tests"][0]["query"].replace("?", ", in plain words?")
    bench_file.write_text(json.dumps(raw), encoding="utf-8")
    found = verify_folder(published, data, cells=1, progress=False)
    assert not found[0].ok and "made from other inputs (data)" in found[0].problem
