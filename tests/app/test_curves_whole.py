"""Curves on a sweep the size of the whole benchmark's (issue 43): 5 cells × 6,889 queries × 7 k
(241,115 per-query rows), as ``results/full-benchmark`` will be. The page draws it with the
intervals of every mean, offers each dataset, and lists the flipped queries, without an error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from sac_core.engine.data import write_csv

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SIZES = {"contractnli": 977, "cuad": 4042, "maud": 1676, "privacy_qa": 194}  # LegalBench-RAG's 6,889 queries
VARIANTS = ("baseline", "sac-file-generic-150", "sac-file-expert-150", "recommended-a", "recommended-b")
KS = (1, 2, 4, 8, 16, 32, 64)
SETTINGS = {"protocol": "full", "chunk_size": 500, "semantic_weight": 1.0, "model": "all-MiniLM-L6-v2",
            "datasets": ",".join(SIZES), "n_queries": sum(SIZES.values()), "n_documents": 714}  # fmt: skip


def write_whole_sweep(folder: Path) -> int:
    """``results.csv`` and ``per_query.csv.gz`` of a synthetic sweep of that size; its per-query rows."""
    rng = np.random.default_rng(0)
    ids = [(ds, f"{ds}/{i}") for ds, n in SIZES.items() for i in range(n)]
    per_query = pd.DataFrame(
        [(f"c{c}", v, qid, ds, k) for c, v in enumerate(VARIANTS) for ds, qid in ids for k in KS],
        columns=["cell", "variant", "query_id", "dataset", "k"],
    )
    for metric in ("drm", "precision", "recall"):
        per_query[metric] = rng.random(len(per_query))
    per_query = per_query.assign(
        **SETTINGS, summary_chars=[None if v == "baseline" else 150 for v in per_query["variant"]]
    )
    by_dataset = per_query.groupby(["cell", "variant", "dataset", "k"], as_index=False)[["drm", "precision", "recall"]]
    results = by_dataset.mean()
    macro = results.groupby(["cell", "variant", "k"], as_index=False)[["drm", "precision", "recall"]].mean()
    results = pd.concat([results, macro.assign(dataset="ALL")], ignore_index=True)
    results = results.assign(**SETTINGS, summary_chars=[None if v == "baseline" else 150 for v in results["variant"]])
    folder.mkdir(parents=True)
    write_csv(results, folder / "results.csv")
    write_csv(per_query, folder / "per_query.csv.gz")
    return len(per_query)


def test_curves_draws_a_sweep_of_the_whole_benchmark_with_its_intervals(env, monkeypatch, tmp_path):
    assert write_whole_sweep(tmp_path / "results" / "full-benchmark") == 5 * 6889 * 7
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "results"))
    at = AppTest.from_file(APP, default_timeout=600)
    at.run()
    at.switch_page("app_pages/curves.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="curves_sweep").options == ["full-benchmark"]
    assert at.selectbox(key="curves_mean_ds").options == ["ALL", *SIZES]
    means = next(d.value for d in at.dataframe if "source" in d.value.columns)
    ours = means[~means["source"].str.startswith("paper")]  # the SAC paper's rows beside them
    assert len(ours) == len(VARIANTS) and all(" ± " in str(v) for v in ours["DRM"])  # every mean has its interval
    at.selectbox(key="curves_mean_ds").set_value("cuad").run()
    assert not at.exception, [e.value for e in at.exception]
    flips = at.dataframe[-1].value
    assert len(flips) > 6000  # random metrics: nearly every query's DRM@8 differs between two methods
