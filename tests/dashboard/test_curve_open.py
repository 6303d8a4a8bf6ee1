"""Opening a Curves query on Compare: what it would do and cost, said before it is done (issue 45, point 9)."""

from __future__ import annotations

import re
from dataclasses import replace

from sac_core.dashboard import curve_open, state, tune
from sac_core.engine.data import available_datasets, load_benchmark


def test_a_plan_names_the_switch_the_indexes_to_build_and_their_total_time(demo_dir, tmp_path):
    datasets = tuple(available_datasets(demo_dir))
    s = state.Settings(state.resolve_data_source(str(demo_dir), tmp_path), tmp_path, "full", datasets, "file", 150)
    bench = load_benchmark(demo_dir, datasets, "lbr-mini")
    plan = curve_open.open_plan(s, "lbr-mini", datasets, bench)
    assert plan.switch and not plan.ready and plan.missing[:2] == ("Baseline", "SAC generic")
    assert plan.missing[2].startswith("Recommended")  # the default columns (issue 45)
    # nothing saved in this cache; Recommended ranks the baseline's index: two indexes to build
    assert plan.indexes == 2 and plan.texts == 2 * tune.estimated_chunks(bench, 500)
    said = plan.describe("full")
    assert said.startswith("switches the sidebar's protocol from full to lbr-mini and builds 2 indexes first (for ")
    assert re.search(rf"about {plan.texts:,} texts to embed, about \d+ (s|min) in all at about 50 texts/s", said)
    assert "sac index --protocol lbr-mini" in said
    same = curve_open.open_plan(s, "full", datasets, load_benchmark(demo_dir, datasets, "full"), ["baseline"])
    assert (
        not same.switch and same.missing == ("Baseline",) and same.describe("full").startswith("builds 1 index first")
    )
    assert curve_open.alternative(s, "lbr-mini") == "full" and curve_open.alternative(s, "full") == "lbr-mini"
    assert curve_open.alternative(replace(s, protocol="lbr-mini"), "lbr-mini") is None
    assert curve_open.holds(bench, bench.queries[0].query_id) and not curve_open.holds(bench, "demo_nda/9999")
