"""What a sweep's generated page (``docs/results/<sweep>.md``) says before its table of every cell:
sections of prose, each with a block of :data:`.catalogue.BLOCKS`. The prose is written here, once,
because the page itself is generated whole; every number on it comes from a block."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    """A heading, its prose (Markdown, may be empty) and the block shown under it ("" for none)."""

    title: str
    text: str
    block: str = ""


FULL_BENCHMARK = (
    Section(
        "The whole benchmark",
        "Every query of LegalBench-RAG (all four datasets) against every document in one pooled index, "
        "MiniLM embeddings (ONNX on the CPU), chunks of 500 characters, LLM summaries of 150 characters for "
        "SAC. No published result covers this setting: the SAC paper and every other page here use the "
        "776-query subsets. **Nothing was tuned here.** Every setting of the recommended method was chosen "
        "on LegalBench-RAG-mini (`sweeps/methods-lbr-mini.toml`, `wording-lbr-mini.toml`, "
        "`names-lbr-mini.toml`, `family-lbr-mini.toml`) and is run once on this pool; its clause-exemplar "
        "bank is the folder's own labelled queries, and a document's own labels never score it.",
        "full-benchmark",
    ),
    Section(
        "Per dataset",
        "The SAC paper's summary, means over k, for each dataset and their macro mean.",
        "full-datasets",
    ),
    Section(
        "LegalBench-RAG's shape",
        "Precision@1 and recall@64, the two numbers LegalBench-RAG reports per dataset.",
        "full-lbr",
    ),
    Section(
        "Paired tests against the baseline",
        "Each method against the plain baseline on the same queries, at DRM@8 and at LegalBench-RAG's two cut-offs.",
        "full-pairs",
    ),
    Section(
        "From the subsets to the whole pool",
        "The same methods on the paper protocol (the SAC paper's 776 queries, 194 per dataset, over the "
        "362 documents they cite) and here. The middle column keeps the paper protocol's own queries and "
        "only grows the pool to all 714 documents: it separates what the larger pool does from what the "
        "other 6,113 queries do (most of them CUAD's and MAUD's). The sentences are written from the table.",
        "full-shift",
    ),
    Section(
        "Beside LegalBench-RAG's published numbers",
        "The baseline here is LegalBench-RAG's own best pipeline in every respect but four, so its numbers "
        "are not theirs:\n\n"
        "- **The pool.** Their published numbers come from their `legalbenchrag/benchmark.py`: 194 queries "
        "per dataset (`MAX_TESTS_PER_BENCHMARK = 194`), chosen to cover few documents "
        "(`SORT_BY_DOCUMENT = True`, which their own comment says drastically reduces the search space), "
        "and only the documents those queries cite are indexed. That is a pool like LegalBench-RAG-mini's "
        "(lbr-mini here: 776 queries, 72 documents), not the whole benchmark's 714 documents, so the "
        "lbr-mini row is the one to set beside theirs; the whole pool holds many more near-identical "
        "documents, and recall@64 falls most there.\n"
        "- **Embedding model.** Here `all-MiniLM-L6-v2` (384 dimensions, 22M parameters, on a CPU); "
        "theirs OpenAI's `text-embedding-3-large` (3,072 dimensions, through the API). The SAC paper found "
        "that model the strongest of those it tried (its Appendix C), so their precision and recall are "
        "expected to be higher.\n"
        "- **Chunker.** Both split with LangChain's `RecursiveCharacterTextSplitter` at 500 characters, "
        "no overlap, with the same separators (their `legalbenchrag/methods/baseline.py`); theirs keeps "
        "the whitespace at a chunk's ends (`strip_whitespace=False`, the chunks tile the document), ours "
        "strips it, so a chunk here can be a few characters shorter and precision, counted in characters, "
        "moves a little.\n"
        "- **CUAD's queries.** Upstream's CUAD file could not be obtained and was rebuilt with the same "
        "gold spans and the same 4,042 queries, but the description of the document that opens each "
        "query is made from CUAD's own annotations (its document name and parties) instead of upstream's "
        "LLM-written descriptions (the data folder's `PROVENANCE.md`): a CUAD query here names its "
        "document in other words than theirs, which moves CUAD's numbers and DRM most of all.\n\n"
        "Both indexes search exactly (FAISS flat here, sqlite-vec there), and the release here holds "
        "6,889 queries (the paper's abstract counts 6,858).",
        "full-published",
    ),
)

SECTIONS: dict[str, tuple[Section, ...]] = {"full-benchmark": FULL_BENCHMARK}
