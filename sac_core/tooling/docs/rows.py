"""The variants and rows the generated blocks show (:mod:`.catalogue`): each method's variant as a
sweep names it, once, and the rows built from them. A row names a variant (and settings, when two
cells share it) in a results folder; the catalogue's blocks place them on the pages."""

from __future__ import annotations

from .blocks import Col, Row

# The document-aware method chosen on lbr-mini (split query, document prior, gated): the variant
# prefix the passage stages add to.
AWARE = "baseline+split+doc:summary300×8+bm25×0.125+gate:split"
WITHIN = AWARE + "+within(bm25×0.25,nb×0.25)"
EXEMPLARS = AWARE + "+within(bm25×0.25,nb×0.25,ex×4:lbr-mini≥0.9@32/3)"
SAC = "sac-file-generic-150"

PAIRS = (  # the columns of a paired-test table (a = the first variant, b = the second)
    Col("metric", "metric"),
    Col("k", "k"),
    Col("mean_a", "a (%)", percent=True),
    Col("mean_b", "b (%)", percent=True),
    Col("p_value", "p", decimals=4),
    Col("wins", "b better"),
    Col("ties", "ties"),
    Col("losses", "b worse"),
)

FAMILY = AWARE + "+within(bm25×0.25,nb×0.25,ex×4:lbr-mini~family3(T0.05{})/3)"
FAMILY_BANK = AWARE + "+within(bm25×0.25,nb×0.25,ex×4:full~family3(T0.05,+para)/3)"  # issue 34's choice
NAMED = FAMILY_BANK.replace("+gate:", "+names×{}+gate:")  # the file-name term at weight {}
FAMILY_BANK_NAMES = NAMED.format("1")  # the same, file names read: the recommended method until issue 44


def with_profile(variant: str) -> str:
    """``variant`` with the profile term (what documents say about themselves, weight 1) in its routing."""
    return variant.replace("+gate:", "+profile×1+gate:")


def adapted(variant: str, weight: str = "3", epochs: int = 5, target: str = "") -> str:
    """``variant`` (a within-document one) with the query adapter's term at ``weight`` (``target``:
    "" for the gold pieces, "/chunks" for the bank documents' chunks)."""
    return f"{variant[:-1]},adapter×{weight}:full/e{epochs}{target})"


def on_chunks(variant: str, weight: str = "10", epochs: int = 10) -> str:
    """``variant`` with the query adapter trained against the bank documents' chunks."""
    return adapted(variant, weight, epochs, "/chunks")


RECOMMENDED_NAMES = with_profile(FAMILY_BANK_NAMES)  # `sac presets`: recommended
RECOMMENDED = with_profile(FAMILY_BANK)  # `sac presets`: recommended-text (file names unread)
ADAPTED = on_chunks(RECOMMENDED_NAMES)  # `sac presets`: recommended-adapter
WORDING_VARIANTS = (  # (label, variant): the clause-exemplar variants tried on both wordings (issue 34)
    ("within-document ranking alone", WITHIN),
    ("exemplars, bank questions of cosine ≥ 0.9 (template match)", EXEMPLARS),
    ("exemplars by question family", FAMILY.format("")),
    ("… + three more wordings of each bank question", FAMILY.format(",+para")),
    ("… + the folder's whole bank (chosen)", FAMILY_BANK),
)
WORDING_ROWS = tuple(
    Row(f"{label}, {wording}", variant, folder=folder)
    for label, variant in WORDING_VARIANTS
    for wording, folder in (("benchmark wording", "wording-lbr-mini"), ("rewording 1", "wording-lbr-mini-reword1"))
)

HELDOUT_WORDING_ROWS = tuple(
    Row(f"{label}, {wording}", variant, folder=folder)
    for label, variant in (
        ("baseline", "baseline"),
        WORDING_VARIANTS[0],
        WORDING_VARIANTS[-1],
        ("… + file names", FAMILY_BANK_NAMES),
        ("… + what documents say about themselves (recommended)", RECOMMENDED_NAMES),
    )
    for wording, folder in (("benchmark wording", "wording-heldout"), ("rewording 2", "wording-heldout-reword2"))
)

NAMES_ROWS = tuple(  # the file-name term's weight, both wordings of lbr-mini (issue 34)
    Row(f"{label}, {wording}", variant, folder=folder)
    for label, variant in (
        ("file names unread", FAMILY_BANK),
        *(
            (f"file names × {w}" + (" (chosen)" if w == "1" else ""), NAMED.format(w))
            for w in ("0.125", "0.25", "0.5", "1", "2")
        ),
    )
    for wording, folder in (("benchmark wording", "names-lbr-mini"), ("rewording 1", "names-lbr-mini-reword1"))
)

PAPER_WORDINGS = (  # the report folders of issue 34 on the paper protocol, and what each changes
    ("benchmark wording", "wording-paper"),
    ("rewording 2, never tuned on", "wording-paper-reword2"),
    ("documents named by ids", "wording-paper-idnames"),
    ("queries naming no document", "wording-paper-noname"),
)
PAPER_WORDING_ROWS = tuple(
    Row(f"{label}, {wording}", variant, folder=folder)
    for wording, folder in PAPER_WORDINGS
    for label, variant in (
        ("baseline", "baseline"),
        ("within-document ranking", WITHIN),
        ("file names unread, no profile term", FAMILY_BANK),
        ("file names read, no profile term", FAMILY_BANK_NAMES),
        ("recommended-text (file names unread)", RECOMMENDED),
        ("recommended", RECOMMENDED_NAMES),
    )
)

HEADLINE_ROWS = (
    Row("Baseline (plain RAG)", "baseline", folder="wording-paper"),
    Row("SAC (generic summaries)", SAC, folder="methods-paper"),
    Row("Recommended", RECOMMENDED_NAMES, folder="wording-paper"),
    Row("Recommended, questions reworded (never tuned on)", RECOMMENDED_NAMES, folder="wording-paper-reword2"),
    Row("Recommended, documents named by ids", RECOMMENDED_NAMES, folder="wording-paper-idnames"),
    Row("Recommended + query adapter (opt-in)", ADAPTED, folder="adapter-paper"),
)

# The whole benchmark (issue 43): all 6,889 queries over the 714 documents in one pool, and the same
# methods on the paper protocol (776 queries, 362 documents) as the subset its shift blocks compare with.
FULL = "full-benchmark"
FULL_RUN = "sac sweep --config sweeps/full-benchmark.toml --data ../shared/legalbench-rag --out results/full-benchmark"
EXPERT = "sac-file-expert-150"
FULL_ROWS = (
    Row("Baseline (plain RAG)", "baseline"),
    Row("SAC (generic summaries)", SAC),
    Row("SAC (expert summaries)", EXPERT),
    Row("Recommended", RECOMMENDED_NAMES),
    Row("Recommended, file names unread", RECOMMENDED),
    Row("Recommended + query adapter (opt-in)", ADAPTED),
)
PAPER_FOLDERS = ("wording-paper", "methods-paper", "paper", "wording-paper", "wording-paper", "adapter-paper")
PAPER_ROWS = tuple(  # the same on the paper protocol, from the folders the headline reads
    Row(row.label, row.variant, folder=folder) for row, folder in zip(FULL_ROWS, PAPER_FOLDERS, strict=True)
)
PUBLISHED_ROWS = (  # the baseline on the whole pool, and on a pool like the one LegalBench-RAG's script indexes
    Row("Baseline (plain RAG), whole benchmark", "baseline"),
    Row("Baseline (plain RAG), lbr-mini", "baseline", folder="headline-lbr-mini"),
)
FULL_TESTS = (("drm", 8), ("precision", 1), ("recall", 64))  # the paired tests shown: DRM@8 and LegalBench-RAG's two

# The query adapter (issue 44, point 4): its weight tried on both wordings of lbr-mini, the one chosen
# (× 3) reported on the paper protocol and the held-out folder, each as named and named by ids; then
# trained against the bank documents' chunks (weight and epochs tried on lbr-mini, × 10 over 10 chosen).
WORDINGS = (("benchmark wording", "adapter-lbr-mini"), ("rewording 1", "adapter-lbr-mini-reword1"))
ADAPTER_LBR_ROWS = tuple(
    Row(f"{label}, {wording}", variant, folder=folder)
    for label, variant in (
        ("no profile term", FAMILY_BANK_NAMES),
        *((f"+ adapter × {w}" + (" (chosen)" if w == "3" else ""), adapted(FAMILY_BANK_NAMES, w)) for w in "12348"),
        ("oracle", "oracle"),
    )
    for wording, folder in WORDINGS
)
ADAPTER_CHUNKS_LBR_ROWS = tuple(
    Row(f"{label}, {wording}", variant, folder=folder.replace("adapter-", "adapter-chunks-"))
    for label, variant in (
        ("no profile term", FAMILY_BANK_NAMES),
        ("+ adapter × 3 on gold pieces, 5 epochs", adapted(FAMILY_BANK_NAMES)),
        *((f"+ adapter × 10 on chunks, {e} epochs", on_chunks(FAMILY_BANK_NAMES, "10", e)) for e in (2, 5, 20)),
        *((f"+ adapter × {w} on chunks, 10 epochs", on_chunks(FAMILY_BANK_NAMES, w)) for w in ("3", "6", "20")),
        ("+ adapter × 10 on chunks, 10 epochs (chosen)", on_chunks(FAMILY_BANK_NAMES)),
        ("oracle", "oracle"),
    )
    for wording, folder in WORDINGS
)
ADAPTER_VARIANTS = (  # (label, variant) of the report folders
    ("no profile term", FAMILY_BANK_NAMES),
    ("+ adapter × 3", adapted(FAMILY_BANK_NAMES)),
    ("+ adapter on chunks × 10", on_chunks(FAMILY_BANK_NAMES)),
    ("recommended", RECOMMENDED_NAMES),
    ("+ adapter × 3", adapted(RECOMMENDED_NAMES)),
    ("+ adapter on chunks × 10 (recommended-adapter)", ADAPTED),
)
BANK = "option_within_doc_exemplar_data"  # the result column naming the bank's folder
ADAPTER_ROWS = (*(Row(label, variant) for label, variant in ADAPTER_VARIANTS), Row("oracle", "oracle"))
ADAPTER_HELDOUT_ROWS = (  # the held-out folder's own bank, then the whole LegalBench-RAG's
    *(Row(f"{label}, bank: held-out", variant, where=((BANK, "../heldout"),)) for label, variant in ADAPTER_VARIANTS),
    *(
        Row(f"{label}, bank: LegalBench-RAG", variant, where=((BANK, "../shared/legalbench-rag"),))
        for label, variant in ADAPTER_VARIANTS[3:]
    ),
    Row("oracle", "oracle"),
)
ADAPTER_FOLDERS = (  # (folder, caption, rows)
    ("adapter-paper", "paper protocol", ADAPTER_ROWS),
    ("adapter-paper-idnames", "paper protocol, documents named by ids", ADAPTER_ROWS),
    ("adapter-paper-reword2", "paper protocol, questions reworded (rewording 2)", ADAPTER_ROWS),
    ("adapter-heldout", "held-out folder", ADAPTER_HELDOUT_ROWS),
    ("adapter-heldout-reword2", "held-out folder, questions reworded (rewording 2)", ADAPTER_HELDOUT_ROWS),
    ("adapter-heldout-idnames", "held-out folder, documents named by ids", ADAPTER_HELDOUT_ROWS),
    ("adapter-heldout-idnames-described", "held-out, ids, described from their opening", ADAPTER_HELDOUT_ROWS),
)
