"""The generated blocks of the README and the documentation, and the site's navigation.

Every results table and figure on a page is one :class:`~.blocks.Block` here, placed on a page as
``<!-- generated: NAME -->`` … ``<!-- /generated -->`` and filled by ``sac docs``. To add one:
declare it below (its results folder, its rows (:mod:`.rows`) or a ``match`` on the variants, its kind), put the
empty region on a page, run ``sac docs``. To point a block at another sweep, change its folder.
"""

from __future__ import annotations

from ...experiments.cells import SIGNIFICANCE
from .blocks import Block, Col, Row
from .rows import (
    ADAPTER_CHUNKS_LBR_ROWS,
    ADAPTER_FOLDERS,
    ADAPTER_LBR_ROWS,
    AWARE,
    EXEMPLARS,
    FULL,
    FULL_ROWS,
    FULL_RUN,
    FULL_TESTS,
    HEADLINE_ROWS,
    HELDOUT_WORDING_ROWS,
    NAMES_ROWS,
    PAIRS,
    PAPER_ROWS,
    PAPER_WORDING_ROWS,
    PUBLISHED_ROWS,
    SAC,
    WITHIN,
    WORDING_ROWS,
)

BLOCKS: tuple[Block, ...] = (
    # The README's and the home page's headline: the SAC paper's protocol (776 queries, 362 documents).
    Block("headline", "wording-paper", rows=HEADLINE_ROWS, extra=("drm@8",), caption="method"),
    Block(
        "headline-figure",
        "wording-paper",
        kind="figure",
        rows=HEADLINE_ROWS,
        caption="Means over k with 95 % intervals on the paper protocol",
    ),
    # The whole benchmark: "not run yet" (and how to run it) until results/full-benchmark exists
    Block("full-benchmark", FULL, rows=FULL_ROWS, extra=("drm@8", "p@1", "r@64"), pending=FULL_RUN),
    Block("full-datasets", FULL, kind="datasets", rows=FULL_ROWS, pending=FULL_RUN),
    Block("full-lbr", FULL, kind="lbr", rows=FULL_ROWS, intervals=True, pending=FULL_RUN),
    Block("full-pairs", FULL, kind="pairs", rows=FULL_ROWS, at=FULL_TESTS, pending=FULL_RUN),
    Block("full-shift", FULL, kind="shift", rows=FULL_ROWS, against=PAPER_ROWS, pending=FULL_RUN),
    Block(
        "full-shift-text",
        FULL,
        kind="shift-text",
        rows=FULL_ROWS[:2] + FULL_ROWS[3:4],
        against=PAPER_ROWS[:2] + PAPER_ROWS[3:4],
        pending=FULL_RUN,
    ),
    Block("full-published", FULL, kind="published", rows=PUBLISHED_ROWS, pending=FULL_RUN),
    # Baseline and SAC
    Block("baseline-grid", "lbr-mini-grid", match="^baseline$", caption="baseline on lbr-mini"),
    Block("sac-lbr-mini", "lbr-mini", caption="lbr-mini, chunk 500, dense"),
    Block(
        "sac-grid",
        "lbr-mini-grid",
        match="^sac-file-generic",
        where=(("semantic_weight", 1.0),),
        caption="SAC generic on lbr-mini, dense",
    ),
    Block("sac-paper", "paper", where=(("semantic_weight", 1.0),), caption="paper protocol, dense"),
    # Document-aware retrieval
    Block(
        "doc-lbr-mini",
        "methods-lbr-mini",
        extra=("drm@8",),
        caption="lbr-mini",
        rows=(
            Row("baseline", "baseline", where=(("semantic_weight", 1.0),)),
            Row("SAC generic-150", SAC),
            Row("SAC + document prior", SAC + "+doc:summary300×2+bm25×0.25"),
            Row(
                "split query + prior (chosen)",
                "baseline+split+doc:summary300×8+bm25×0.125",
                where=(("semantic_weight", 1.0),),
            ),
            Row("… routed to the top 2 documents", "baseline+split+doc:summary300×2+bm25×0.25+route2"),
            Row("… prior from the file name", "baseline+split+doc:filename×2+bm25×0.25"),
            Row("… prior from the title and parties", "baseline+split+doc:title×2+bm25×0.25"),
            Row("… sections (lead text, top 3)", "baseline+split+doc:summary300×2+bm25×0.25+route1+sec3:lead300"),
            Row("… legal entities, RRF 0.2", "baseline+split+doc:summary300×2+bm25×0.25+ent0.2"),
            Row("… PRF expansion, 8 chunks", "baseline+split+doc:summary300×2+bm25×0.25+exp:prf8"),
            Row(
                "… hybrid BM25 over chunks (0.75)",
                "baseline+split+doc:summary300×2+bm25×0.25",
                where=(("semantic_weight", 0.75),),
            ),
            Row(
                "chosen + mpnet rescoring of the top 10",
                "baseline+split+doc:summary300×8+bm25×0.125+rr:all-mpnet-base-v2@10×0.5",
            ),
        ),
    ),
    Block("doc-paper", "methods-paper", extra=("drm@8", "p@1", "r@64"), caption="paper protocol"),
    Block("doc-heldout", "methods-heldout", extra=("drm@8",), caption="held-out folder"),
    Block("gate-noname", "gate-noname-lbr-mini", strip="baseline+", caption="no-name lbr-mini"),
    Block("gate-noname-paper", "gate-noname-paper", strip="baseline+", caption="no-name paper protocol"),
    # Passage stages (lbr-mini to choose, the paper protocol and the held-out folder to report)
    Block(
        "within-lbr-mini",
        "passages-lbr-mini",
        match=r"gate:split(\+within\([^)]*\))?$",
        strip=AWARE,
        extra=("drm@8", "p@1", "r@64"),
        caption="lbr-mini, on the gated document-aware method",
    ),
    Block("exemplars-lbr-mini", "exemplars-lbr-mini", strip=AWARE, extra=("p@1", "r@64"), caption="lbr-mini"),
    Block(
        "wording-lbr-mini", "wording-lbr-mini", rows=WORDING_ROWS, caption="lbr-mini, both wordings (the tuning set)"
    ),
    Block("wording-heldout", "wording-heldout", rows=HELDOUT_WORDING_ROWS, caption="held-out folder, both wordings"),
    Block("names-lbr-mini", "names-lbr-mini", rows=NAMES_ROWS, extra=("drm@8",), caption="lbr-mini, both wordings"),
    Block(
        "wording-paper",
        "wording-paper",
        rows=PAPER_WORDING_ROWS,
        extra=("drm@8",),
        caption="paper protocol, each copy",
    ),
    Block("wording-paper-outside", "", kind="text", file="wording-paper-outside-lbr-mini.txt"),
    Block(
        "within-paper", "passages-paper-within", strip=AWARE, extra=("drm@8", "p@1", "r@64"), caption="paper protocol"
    ),
    Block(
        "passages-heldout", "passages-heldout", strip=AWARE, extra=("drm@8", "p@1", "r@64"), caption="held-out folder"
    ),
    Block(
        "s2b-lbr-mini",
        "passages-lbr-mini",
        match=r"gate:split$|s2b\(",
        strip=AWARE,
        extra=("p@1", "r@64"),
        caption="lbr-mini",
    ),
    Block(
        "s2b-paper",
        "passages-paper",
        match=r"gate:split$|s2b\(",
        strip=AWARE,
        extra=("p@1", "r@64"),
        caption="paper protocol",
    ),
    Block(
        "trim-lbr-mini",
        "passages-lbr-mini",
        match=r"gate:split$|trim\(",
        strip=AWARE,
        extra=("p@1", "r@64"),
        caption="lbr-mini",
    ),
    Block(
        "trim-paper",
        "passages-paper",
        match=r"gate:split$|trim\(",
        strip=AWARE,
        extra=("p@1", "r@64"),
        caption="paper protocol",
    ),
    Block(
        "doc-lbr-paper",
        "methods-paper",
        kind="lbr",
        caption="paper protocol",
        rows=(
            Row("baseline", "baseline"),
            Row("SAC generic-150", SAC, where=(("semantic_weight", 1.0),)),
            Row("document-aware (chosen)", "baseline+split+doc:summary300×8+bm25×0.125"),
        ),
    ),
    Block(
        "passages-lbr-paper",
        "passages-paper-within",
        kind="lbr",
        caption="paper protocol",
        rows=(
            Row("document-aware, gated", AWARE),
            Row("+ within-document ranking", WITHIN),
            Row("+ clause exemplars", EXEMPLARS),
        ),
    ),
    # Paired permutation tests at k = 8, as committed beside the sweeps
    Block(
        "doc-pairs-paper",
        "methods-paper",
        kind="csv",
        file=SIGNIFICANCE,
        where=(("variant_a", SAC), ("variant_b", "baseline+split+doc:summary300×8+bm25×0.125"), ("k", 8)),
        columns=PAIRS,
    ),
    Block(
        "within-pairs-paper",
        "passages-paper-within",
        kind="csv",
        file="acceptance.csv",
        where=(("k", 8),),
        columns=PAIRS,
    ),
    Block(
        "exemplars-pairs-paper",
        "passages-paper-within",
        kind="csv",
        file="acceptance-exemplars.csv",
        where=(("k", 8),),
        columns=PAIRS,
    ),
    # Answers, the map's separation, speed
    Block(
        "answers-paper",
        "answers-paper",
        kind="csv",
        file="table.csv",
        where=(("dataset", "ALL"),),
        columns=(
            Col("method", "method"),
            Col("cites_only_gold", "citing only gold documents (%)", percent=True),
            Col("cites_other_document", "citing another document (%)", percent=True),
            Col("token_f1", "token F1 (%)", percent=True),
            Col("rouge_l", "ROUGE-L (%)", percent=True),
        ),
    ),
    Block(
        "separation-lbr-mini",
        "separation",
        kind="csv",
        file="lbr-mini.csv",
        columns=(
            Col("index", "lbr-mini index (chunk 500)"),
            Col("own_share", "own-document share of 10 nearest"),
            Col("silhouette", "silhouette by document"),
        ),
    ),
    Block(
        "adapter-lbr-mini",
        "adapter-lbr-mini",
        rows=ADAPTER_LBR_ROWS,
        caption="lbr-mini, both wordings (the tuning set)",
    ),
    Block(
        "adapter-chunks-lbr-mini",
        "adapter-chunks-lbr-mini",
        rows=ADAPTER_CHUNKS_LBR_ROWS,
        caption="lbr-mini, both wordings (the tuning set)",
    ),
    *(
        Block(folder, folder, rows=rows, extra=("drm@8", "p@1", "r@64"), caption=caption)
        for folder, caption, rows in ADAPTER_FOLDERS
    ),
    Block("bench-lbr-mini", "", kind="text", file="bench-lbr-mini.txt"),
    Block("bench-passages", "", kind="text", file="bench-passages-lbr-mini.txt"),
    Block("bench-room", "", kind="text", file="bench-room.txt"),
    Block("bench-first-paint", "", kind="text", file="bench-first-paint.txt"),
    Block("floor-paper", "", kind="text", file="floor-paper.txt"),
    Block("floor-paper-idnames", "", kind="text", file="floor-paper-idnames.txt"),
    Block("verify-full-benchmark", "", kind="text", file="verify-full-benchmark.txt"),
    Block("floor-heldout-idnames-described", "", kind="text", file="floor-heldout-idnames-described.txt"),
    Block("bench-scale", "", kind="text", file="bench-scale.txt"),
)

# The site's navigation (mkdocs.yml's generated ``nav``): a page, or a section of pages where
# "@methods", "@results" and "@cli" stand for the generated pages of that kind.
NAV: tuple[tuple[str, str | tuple[str, ...]], ...] = (
    ("Home", "index.md"),
    ("Getting started", "getting-started.md"),
    ("Dashboard tour", "tour.md"),
    ("Methods", ("methods/index.md", "@methods")),
    ("Results", ("results/index.md", "@results")),
    ("Your own retriever", "runs.md"),
    ("Test sets", "test-sets.md"),
    ("Metrics", "metrics.md"),
    ("Serving a team", "serving.md"),
    ("Speed", "speed.md"),
    ("Scale, on paper", "scale.md"),
    ("CLI reference", ("cli/index.md", "@cli")),
    ("Python API", ("api/index.md", "api/plugins.md", "api/engine.md", "api/results.md")),
    ("Contributing", "contributing.md"),
)
