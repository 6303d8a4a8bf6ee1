"""Within-document ranking (:mod:`sac_core.engine.retrieval.within_document`) as a stage: once the
document-aware ranking has chosen the document, its chunks are re-ranked by dense cosine + BM25
inside the document (+ best sentence, + neighbours, + likeness to the gold passages other documents
have for the same question: :mod:`sac_core.engine.retrieval.exemplars`) and come first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ...engine import store
from ...engine.data import Benchmark, BenchmarkError, load_benchmark
from ...engine.retrieval import chunk_text
from ...engine.retrieval.adapter import BankChunks, QueryAdapter
from ...engine.retrieval.exemplars import ExemplarBank, bank_texts, copies, exemplars_of
from ...engine.retrieval.routed import refinable
from ...engine.retrieval.within_document import WithinDocumentRanker, WithinDocumentSettings
from ..config import STAGES, RunConfig
from ..identity import texts_digest
from ..index_store import make_pool
from ..plugins import NotBuilt, OpenContext, Opened, Preset, Stage
from ..reword import paraphrases
from ..sentence_store import open_sentences
from . import baseline
from .signals import DOCUMENT_AWARE, DOCUMENT_AWARE_NAMES, split_on

NAME = "within_doc"


def bank_benchmark(ctx: OpenContext, o: WithinDocumentSettings) -> tuple[Path, Benchmark]:
    """The labelled queries of the exemplar bank: ``o.exemplar_protocol``'s, read from
    ``o.exemplar_data`` or the run's folder (ValueError, naming the folder, when it has none)."""
    data_dir = Path(o.exemplar_data) if o.exemplar_data else ctx.data_dir
    try:
        bank_bench = ctx.remember(
            ("bank", data_dir, o.exemplar_protocol), lambda: load_benchmark(data_dir, "all", o.exemplar_protocol)
        )
    except BenchmarkError as e:
        raise ValueError(f"clause exemplars: the bank {data_dir} is not a labelled benchmark folder ({e})") from None
    if not bank_bench.queries:
        raise ValueError(
            f"clause exemplars: the bank {data_dir} has no labelled questions ({o.exemplar_protocol} protocol of "
            "benchmarks/*.json with gold spans); name a folder that has them (sac evaluate --bank DIR)"
        )
    return data_dir, bank_bench


def with_bank(config: RunConfig, folder: Path) -> RunConfig:
    """``config`` with its clause exemplars read from ``folder`` (ValueError when it reads no bank)."""
    if not config.plugin_options(NAME, WithinDocumentSettings).reads_bank:
        raise ValueError(f"--bank: {config.variant} reads no labelled examples (no clause exemplars, no query adapter)")
    return config.with_(options={**dict(config.options), f"{NAME}.exemplar_data": str(folder)})


def open_bank(config: RunConfig, ctx: OpenContext, o: WithinDocumentSettings) -> ExemplarBank:
    """The exemplar bank: the gold passages of :func:`bank_benchmark`, embedded by the run's model
    (cached like chunks)."""
    data_dir, bank_bench = bank_benchmark(ctx, o)
    settings = o.exemplar_settings(config.chunk_size)
    exemplars = exemplars_of(bank_bench, settings.max_chars)
    wordings = paraphrases() if o.exemplar_paraphrases else None
    embedder = ctx.embedders.get(config.model, config.backend)
    if not ctx.build and not ctx.save and not embedder.cached(bank_texts(exemplars, wordings)):
        raise NotBuilt("exemplar passages")
    ctx.say(
        f"exemplars: {len(exemplars):,} pieces of the gold passages of {len(bank_bench.queries)} "
        f"{o.exemplar_protocol} queries in {data_dir} (a document's own never score it)"
    )
    documents = {fp: d.sha256 for fp, d in ctx.bench.documents.items()}
    return ExemplarBank(
        exemplars,
        embedder,
        settings,
        paraphrases=wordings,
        documents=documents,
        progress=ctx.progress,
        on_progress=ctx.on_progress,
    )


def bank_chunks(config: RunConfig, ctx: OpenContext, o: WithinDocumentSettings) -> BankChunks:
    """The bank documents chunked as the run chunks and embedded by its model (cached by text like a
    run's chunks; NotBuilt when some are not embedded yet and the context may not build)."""
    bank_bench = bank_benchmark(ctx, o)[1]
    pool = make_pool(bank_bench, config, chunk_text)
    embedder = ctx.embedders.get(config.model, config.backend)
    if not ctx.build and not ctx.save and not embedder.cached(list(pool.indexed)):
        raise NotBuilt("the bank documents' chunks")
    ctx.say(f"query adapter: {len(pool):,} chunks of the bank's {len(bank_bench.documents)} documents")
    vectors = embedder.encode(
        list(pool.indexed),
        progress=ctx.progress,
        desc="bank chunks",
        on_progress=ctx.progress_of("bank chunks", "texts"),
    )
    return BankChunks(bank_bench, pool.chunks, vectors)


def _digest(*arrays: np.ndarray, names: Sequence[object] = ()) -> str:
    """The SHA-256 of arrays' bytes and names' text: what a stored map was trained from."""
    data = b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)
    return store.sha256(data + "\n".join(map(str, names)).encode())


def open_adapter(config: RunConfig, ctx: OpenContext, o: WithinDocumentSettings, bank: ExemplarBank) -> QueryAdapter:
    """The query adapter trained on ``bank`` (:mod:`sac_core.engine.retrieval.adapter`; with target
    "chunks", on its documents' chunks too), from the store when the same data, settings and torch
    version trained it before (2 to 5 minutes on the whole LegalBench-RAG bank)."""
    settings = o.adapter_settings()
    data = _digest(bank.phrase_vectors, bank.vectors, bank.phrase_family, bank.question_of, names=list(bank.file_of))
    recipe: dict[str, object] = {
        "data": data, "settings": store.canonical(settings), "torch": store.library_version("torch")
    }  # fmt: skip
    if settings.target == "chunks":  # the bank's documents and gold spans, chunked as the run chunks (the
        # bank's vectors above pin the model that embeds them): known without chunking 700 documents
        recipe["chunks"] = {
            "bank": bank_benchmark(ctx, o)[1].digest,
            "chunking": [config.chunker, config.chunk_size, config.chunk_overlap],
            "splitter": store.library_version("langchain-text-splitters"),
        }
    key = store.key("adapters", recipe)
    with store.entries(ctx.cache_dir, "adapters") as cache:
        found = cache.get(key)
        if found is not None:
            return QueryAdapter(found)
        if not ctx.build and not ctx.save:
            raise NotBuilt("query adapter")
        ctx.say(
            f"query adapter: training {settings.folds} maps against the bank's {settings.target} ({settings.epochs} epochs)"
        )
        chunks = bank_chunks(config, ctx, o) if settings.target == "chunks" else None
        on_progress = ctx.progress_of("training the query adapter", "steps")
        adapter = QueryAdapter.train(bank, settings, chunks=chunks, progress=ctx.progress, on_progress=on_progress)
        cache.set(key, adapter.maps)
    return adapter


def _bank_match(o: WithinDocumentSettings) -> str:
    """How bank questions are matched, for the variant name: ``≥0.9@32`` (cosine, at most 32) or
    ``~family3(T0.05,+para)`` (soft question families; word/answer weights when not 1)."""
    if o.exemplar_match != "family":
        return f"≥{o.exemplar_similarity:g}@{o.exemplar_questions}"
    extra = [f"T{o.exemplar_temperature:g}"]
    extra += [f"words×{o.exemplar_words:g}"] if o.exemplar_words != 1 else []
    extra += [f"answer×{o.exemplar_answer:g}"] if o.exemplar_answer != 1 else []
    extra += ["+para"] if o.exemplar_paraphrases else []
    return f"~family{o.exemplar_families}({','.join(extra)})"


# The recommended method's exemplar options, chosen on lbr-mini with the original wording and
# rewording 1 (issue 34): question families matched softly with three more wordings of each bank
# question, the bank every labelled query of the data folder (a document's own labels never score it).
RECOMMENDED_EXEMPLARS = {
    "within_doc.exemplar": 4.0,
    "within_doc.exemplar_match": "family",
    "within_doc.exemplar_paraphrases": True,
    "within_doc.exemplar_protocol": "full",
}
# Routing from the document's own text (issue 44): chosen on lbr-mini (sweeps/profile-lbr-mini.toml: file
# names unread, DRM 6.23 → 4.50, weights 0.5 to 2 alike; read, unchanged at the floor) and part of the
# recommended method since it held on every test set (paper protocol named and by ids, held-out folders).
RECOMMENDED_PROFILE = {"doc_profile.weight": 1.0}
# The query adapter (issue 44, point 4): trained against the bank documents' chunks, chosen on lbr-mini
# with the benchmark's wording and rewording 1 (sweeps/adapter-chunks-lbr-mini.toml: × 10 over 10 epochs
# the best recall on both; on gold pieces alone, sweeps/adapter-lbr-mini.toml, × 3 was). Opt-in
# (recommended-adapter), not the default: its first use embeds every chunk of the bank's documents.
RECOMMENDED_ADAPTER = {
    "within_doc.adapter": 10.0,
    "within_doc.adapter_epochs": 10,
    "within_doc.adapter_target": "chunks",
}


class WithinDocument(Stage[RunConfig]):
    name = NAME
    order = 20.0  # after the document-aware signals: inside the routed document
    title = "Within-document ranking"
    Options = WithinDocumentSettings

    def options(self, config: RunConfig) -> WithinDocumentSettings:
        return config.plugin_options(NAME, WithinDocumentSettings)

    def active(self, config: RunConfig) -> bool:
        return self.options(config).on

    def inputs(self, config: RunConfig, ctx: OpenContext) -> Mapping[str, str]:
        """The bank's contents (its queries, gold spans and documents), when exemplars score or the
        adapter is trained on it (then also the torch version)."""
        o = self.options(config)
        if not o.reads_bank:
            return {}
        bank = bank_benchmark(ctx, o)[1]
        found = {"bank": bank.digest}
        if o.adapter:  # the adapter's training is torch's arithmetic
            found["torch"] = store.library_version("torch")
        renamed = copies(bank, ctx.bench)
        if renamed:  # only then does matching by text leave out more than matching by path did
            found["copies"] = texts_digest({f"{own} = {other}": "" for own, other in renamed})
        if o.exemplar_paraphrases:
            found["paraphrases"] = texts_digest({t: "\n".join(w) for t, w in paraphrases().items()})
        return found

    def label(self, config: RunConfig) -> str:
        o = self.options(config)
        parts = [f"bm25×{o.bm25:g}"]
        if o.sentence:
            parts.append(f"sent×{o.sentence:g}@{o.sentence_depth}")
        if o.neighbour:
            parts.append(f"nb×{o.neighbour:g}")
        if o.exemplar:
            parts.append(f"ex×{o.exemplar:g}:{o.exemplar_protocol}{_bank_match(o)}/{o.exemplar_top}")
        if o.adapter:
            target = "" if o.adapter_target == "pieces" else f"/{o.adapter_target}"
            parts.append(f"adapter×{o.adapter:g}:{o.exemplar_protocol}/e{o.adapter_epochs}{target}")
        return f"+within({','.join(parts)})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        sentences = open_sentences(config, ctx, o.max_sentence_chars) if o.sentence else None
        bank = open_bank(config, ctx, o) if o.reads_bank else None
        adapter = open_adapter(config, ctx, o, bank) if o.adapter and bank is not None else None
        ranker = WithinDocumentRanker(
            refinable(opened.ranker, NAME), o, split=split_on(config), sentences=sentences,
            exemplars=bank, adapter=adapter,
        )  # fmt: skip
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        within = {"within_doc.on": True, "within_doc.bm25": 0.25, "within_doc.neighbour": 0.25}
        aware = base.with_(method=baseline.NAME, options={**DOCUMENT_AWARE, **within})
        exemplars = aware.with_(
            options={**dict(aware.options), "within_doc.exemplar": 4.0, "within_doc.exemplar_similarity": 0.9}
        )
        recommended = aware.with_(options={**dict(aware.options), **RECOMMENDED_EXEMPLARS, **RECOMMENDED_PROFILE})
        return {
            "doc-aware-within": Preset("Document-aware, within-document ranking", aware),
            "doc-aware-exemplars": Preset(
                "Document-aware, within-document ranking + clause exemplars", exemplars, needs_questions=True
            ),
            "recommended": Preset(  # a default Compare column: the method that fixes DRM (issue 45); a short
                "Recommended",  # title: a column heading on one line at 1280 px (`sac presets` says what it is)
                recommended.with_(options={**dict(recommended.options), **DOCUMENT_AWARE_NAMES}),
                default=True,
                needs_questions=True,
            ),
            "recommended-text": Preset("Recommended, file names unread", recommended, needs_questions=True),
            "recommended-adapter": Preset(  # opt-in: its first use embeds the bank documents' chunks (cached)
                "Recommended + query adapter",
                recommended.with_(options={**dict(recommended.options), **DOCUMENT_AWARE_NAMES, **RECOMMENDED_ADAPTER}),
                needs_questions=True,
            ),
        }


WITHIN_DOCUMENT_STAGE = STAGES.register(WithinDocument())
