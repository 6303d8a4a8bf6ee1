"""The shareable HTML report: every section, hostile names as text, plotly inlined (Chromium: tests/app/test_report_browser.py)."""

from __future__ import annotations

import pandas as pd

from sac_core.engine.data import Benchmark, Document, Query, Span
from sac_core.experiments.html_report import Example, render

HOSTILE = "<script>alert(1)</script>"


def table() -> pd.DataFrame:
    rows = []
    for variant, drm in (("baseline", 0.6), (HOSTILE, 0.2)):
        for k in (1, 8, 64):
            for ds in ("cuad", "ALL"):
                rows.append({"cell": variant, "dataset": ds, "variant": variant, "k": k, "drm": drm,
                             "precision": 0.1, "recall": 0.05 * k ** 0.5})  # fmt: skip
    return pd.DataFrame(rows)


def test_every_section_with_escaped_names() -> None:
    doc = "Alpha grants Beta a licence. <b>Bold</b> terms."
    bench = Benchmark(
        (Query("cuad/0", "cuad", "Who grants?", (Span("cuad/x.txt", 0, 5),)),),
        {"cuad/x.txt": Document("cuad/x.txt", doc)},
    )
    example = Example(
        "cuad/0", "drm", 8, (1.0, 0.0), {"baseline": [Span("cuad/x.txt", 0, 12)], HOSTILE: [Span("cuad/x.txt", 29, 40)]}
    )
    sig = pd.DataFrame([{"variant_a": "baseline", "variant_b": HOSTILE, "metric": "drm", "k": 8, "mean_a": 0.6,
                         "mean_b": 0.2, "p_value": 0.0001, "wins": 3, "ties": 0, "losses": 0}])  # fmt: skip
    page = render(table(), significance=sig, examples=[example], example_names=["baseline", HOSTILE], bench=bench)
    for section in ("curves", "means", "lbr", "at-k", "significance", "examples"):
        assert f'id="{section}"' in page
    assert HOSTILE not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>Bold</b>" not in page and "<mark>Alpha</mark>" in page
    assert "<script src=" not in page and "plotly" in page.lower()  # plotly.js inlined, nothing fetched
    assert "P@1" in page and "R@64" in page
