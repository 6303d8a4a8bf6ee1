"""Curves keys each configuration apart (issue 42): two cells of one plug-in whose variant ids are the
same but whose option differs are two entries, named apart by that option, in the method list, the
curves, the mean table and the significance table; a sweep without pairs reads as no paired tests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from sac_core.dashboard import curve_entries, curve_views, curves
from sac_core.experiments import METHODS, Method, OpenContext, Opened, Preset, RunConfig, option
from sac_core.experiments.cells import SIGNIFICANCE_COLUMNS, SweepFolder
from sac_core.experiments.sweep import significance

NAME = "same-id"
QUERIES = [f"demo_nda/{i}" for i in range(12)]


@dataclass(frozen=True)
class SameIdOptions:
    depth: int = option(default=1, help="how deep it looks")


class SameId(Method[RunConfig]):
    """A plug-in whose variant id names none of its options: two depths, one id."""

    name = NAME
    title = "Same id (test)"
    Options = SameIdOptions

    def variant(self, config: RunConfig) -> str:
        return self.name

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        raise NotImplementedError

    def presets(self, base: RunConfig) -> dict[str, Preset[RunConfig]]:
        return {self.name: Preset(self.title, base.with_(method=self.name, options=()))}


@pytest.fixture
def same_id() -> Iterator[SameId]:
    method = METHODS.register(SameId())
    yield method
    METHODS.unregister(NAME)


BASE = RunConfig(protocol="full", datasets=("demo_nda",))


def configs() -> list[RunConfig]:
    """The baseline and the plug-in at depth 1 (its default) and 3 (it must be registered)."""
    return [BASE, BASE.with_(method=NAME), BASE.with_(method=NAME, options={f"{NAME}.depth": 3})]


def sweep_tables(configs: list[RunConfig]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A results table (ALL and demo_nda at k 1 and 8) and per-query rows of ``configs``, as a sweep
    writes them: each configuration's columns, its cell id, hand-made metrics (cell i: DRM 0.1·i)."""
    results, per_query = [], []
    for i, config in enumerate(configs):
        cell = f"cell{i}"
        for k in (1, 8):
            for dataset in ("ALL", "demo_nda"):
                metrics = {"drm": 0.1 * i + 0.01 * k, "precision": 0.2 + 0.1 * i, "recall": 0.3 + 0.01 * k}
                results.append({"cell": cell, **config.columns(), "dataset": dataset, "k": k, **metrics})
            for q, query in enumerate(QUERIES):
                drm = float((q + i) % 3 == 0)
                per_query.append({"cell": cell, "query_id": query, "dataset": "demo_nda", "k": k, "drm": drm,
                                  "precision": 0.1 * ((q * i) % 4), "recall": 0.5})  # fmt: skip
    return pd.DataFrame(results), pd.DataFrame(per_query)


def test_two_cells_of_one_variant_id_are_two_entries_named_by_the_option_that_differs(same_id):
    results, per_query = sweep_tables(configs())
    assert results.drop_duplicates("cell")["variant"].tolist() == ["baseline", NAME, NAME]  # one id, two cells
    rows = curve_entries.with_entries(curves.select(results, {"chunk_size": 500}))
    assert rows[curves.ENTRY].nunique() == 3
    names = curve_entries.entry_names(rows)
    depth1, depth3 = (names[e] for e in rows.drop_duplicates("cell")[curves.ENTRY][1:])
    assert names["baseline"] == "Baseline"
    assert depth1 == "Same id (test), same-id.depth 1 (default)" and depth3 == "Same id (test), same-id.depth 3"

    lines = [t for t in curve_views.curves_figure(rows, names=names).data if t.mode == "lines+markers"]
    assert {t.name for t in lines} == {"Baseline", depth1, depth3}

    means = curves.mean_over_k(rows[rows["dataset"] == "ALL"], per_query=per_query)
    table = curve_views.comparison_table(means, [], names=names)
    assert table["source"].iloc[0] == "Baseline" and sorted(table["source"]) == sorted(["Baseline", depth1, depth3])
    assert table.set_index("source").loc[depth3, "DRM"].startswith("24.5%")  # (0.21 + 0.28) / 2, cell 2 alone

    sig = curve_entries.significance_view(significance(results, per_query), {"chunk_size": 500}, rows)
    shown = curve_views.significance_shown(sig, names)
    pairs = set(zip(shown["method a"], shown["method b"]))
    assert {("Baseline", depth1), ("Baseline", depth3), (depth1, depth3)} <= pairs

    flips = curves.flipped(per_query, rows, *rows.drop_duplicates("cell")[curves.ENTRY][1:], "drm", 8)
    assert len(flips) > 0 and set(flips.columns) >= {"query_id", "change"}


def test_cells_that_agree_on_every_setting_stay_apart_by_their_cell():
    results, _ = sweep_tables([BASE])
    again = results.assign(cell="cell9")  # the same run in another loose table
    rows = curve_entries.with_entries(pd.concat([results, again], ignore_index=True))
    assert sorted(rows[curves.ENTRY].unique()) == ["baseline [cell0]", "baseline [cell9]"]


def test_a_sweep_without_pairs_writes_its_header_and_reads_as_no_paired_tests(tmp_path: Path):
    results, per_query = sweep_tables([BASE])
    table = significance(results, per_query)
    assert table.empty and list(table.columns)[:4] == ["variant_a", "variant_b", "a", "b"]
    folder = SweepFolder(tmp_path)
    folder.write_significance(table)
    assert folder.significance.read_text(encoding="utf-8").startswith("variant_a,variant_b,a,b,metric,k,")
    folder.write_significance(pd.DataFrame())  # a table without columns: still its header
    assert folder.significance.read_text(encoding="utf-8").strip() == ",".join(SIGNIFICANCE_COLUMNS)
    folder.significance.write_text("\n", encoding="utf-8")  # as committed before: one byte
    assert curve_entries.load_significance(folder.significance).empty


def test_old_significance_tables_without_cell_ids_match_by_variant(same_id):
    results, per_query = sweep_tables(configs()[:2])
    rows = curve_entries.with_entries(results)
    sig = significance(results, per_query).drop(columns=["a", "b"])
    view = curve_entries.significance_view(sig, {"chunk_size": 500}, rows)
    assert set(view["variant_a"]) == {"baseline"} and set(view["variant_b"]) == {NAME} and len(view) == len(sig)


def test_a_row_whose_options_this_version_cannot_read_is_named_by_its_id_not_a_wrong_name():
    results, _ = sweep_tables([BASE])
    old = results.assign(cell="old", variant="baseline+split+doc:summary300×8", option_doc_doc_weight=8.0)
    rows = curve_entries.with_entries(pd.concat([results, old], ignore_index=True))
    names = curve_entries.entry_names(rows)
    assert names == {"baseline": "Baseline", "baseline+split+doc:summary300×8": "baseline+split+doc:summary300×8"}
