"""What the server keeps in memory for every session: one Streamlit cache function per kind.

A function's arguments are its key: short text and numbers, which Streamlit hashes at once (a
config as its ``repr``, which lists every setting; hashed field by field a config costs
milliseconds on every rerun, a folder's stamp of every file tens of them). What must not be hashed
(a config, a benchmark, a workspace, a model) is passed behind a ``_``-prefixed parameter, beside
the explicit key it was made from. A data-keyed entry names its
data by the source key (the benchmark's content digest and the stamp of the data folder's files,
:func:`sac_core.dashboard.state.source_key`): an edited document, a reworded question or an edited
summary file gives a new key, and the entry is made anew. Paths are passed resolved, as text.

Streamlit computes a missing entry once per key however many sessions ask at once (a lock per key:
the others wait and share it) and keeps nothing when the computation raises. Nothing here draws
into a container made outside it (Streamlit replays a cached function's elements on every hit and
cannot find such a container then): the map's bar is made inside :func:`map_data`, and an answer
streamed into its column's box is not kept here (the LLM answerer's disk cache keeps it).

``max_entries`` per kind, from what one entry weighs (an opened lbr-mini index is about 100 MB).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from sac_core.dashboard import answers, builds, compare, demo_picks, maps, state, tune, views

if TYPE_CHECKING:  # names only: pages call the project through sac_core.dashboard
    from sac_core.engine.data import Benchmark, Query
    from sac_core.engine.embedding import Embedder
    from sac_core.engine.retrieval import ChunkIndex, Hit, Ranker
    from sac_core.experiments import Column, ColumnResult, RunConfig, Workspace

ChunkKey = tuple[str, int, int]  # (file path, start, end) of a chunk


@st.cache_resource(show_spinner=False, max_entries=1)  # one server, one $SAC_PLUGINS
def plugins(spec: str) -> tuple[str, ...]:
    """The plug-ins of installed packages and ``spec`` (``$SAC_PLUGINS``) imported once per server;
    the one-line problem of each that could not be loaded."""
    return state.load_plugins()


# Two benchmarks: the sidebar's, and another protocol's (Curves opens a sweep's queries on Compare).
@st.cache_resource(show_spinner="Loading the benchmark …", max_entries=2)
def benchmark(data_dir: str, datasets: tuple[str, ...], protocol: str, stamp: str) -> tuple[Benchmark, str]:
    """The queries and documents of ``datasets`` under ``protocol``, and their source key; ``stamp``
    (:meth:`state.DataSource.stamp`): a file of the folder changed, it is loaded anew."""
    return state.sourced_benchmark(Path(data_dir), datasets, protocol, stamp)


@st.cache_resource(show_spinner=False, max_entries=2)  # a loaded model is ~90 MB; the sidebar's and one other
def embedder(cache_dir: str, model: str, backend: str, _config: RunConfig) -> Embedder:
    """The embedding model ``model`` on ``backend`` (as ``_config`` names it) with its disk cache,
    shared by every column and session that uses it."""
    return compare.load_embedder(_config, Path(cache_dir))


# An opened lbr-mini index is ~100 MB: Compare's widest set of columns (five) plus one.
@st.cache_resource(show_spinner="Opening the saved indexes …", max_entries=compare.MAX_COLUMNS + 1)
def column(
    data: str,
    cache_dir: str,
    config: str,
    _config: RunConfig,
    _bench: Benchmark,
    _data_dir: Path,
    _embedder: Embedder,
    _api_key: str | None,
) -> tuple[Ranker, dict[str, str]]:
    """A Compare column's ranker over its saved index and the summaries it prepended, on the data
    ``data`` names (raises :class:`~sac_core.experiments.NotBuilt` when the index is not saved)."""
    ranker, summaries = compare.open_column(_bench, _config, _data_dir, Path(cache_dir), _embedder, _api_key)
    return ranker, dict(summaries)


@st.cache_data(show_spinner=False, max_entries=256)  # a few KB each: a room asking the same questions
def results(
    data: str, columns: str, text: str, k: int, query_id: str | None, _ws: Workspace, _query: Query | None
) -> list[ColumnResult]:
    """Every column's top ``k`` for ``text`` (scored against the benchmark query ``query_id``)."""
    return _ws.search(text, k, _query)


@st.cache_data(show_spinner=False, max_entries=64)  # one hit's explanation: two documents' facts, a few KB
def why_wrong(
    data: str,
    columns: str,
    text: str,
    query_id: str,
    name: str,
    rank: int,
    chunk: ChunkKey,
    _ws: Workspace,
    _hit: Hit,
    _query: Query,
) -> compare.WrongHit:
    """Why column ``name`` ranked the chunk ``chunk`` of a wrong document ``rank``-th."""
    return compare.explain_wrong_hit(_ws, name, rank, _hit, _query, text)


@st.cache_data(show_spinner=False, max_entries=256)  # an answer is a few hundred characters
def answer(
    data: str,
    config: str,
    question: str,
    hits: tuple[ChunkKey, ...],
    kind: str,
    marks: tuple[str, ...] | None,
    _answerer: answers.Answerer,
    _hits: Sequence[Hit],
) -> answers.Answer:
    """The offline answerer ``kind``'s answer from one column's ``hits``, checked against the gold
    documents ``marks`` (None: free text); raises AnswerError."""
    return answers.answer_column(_answerer, question, _hits, None if marks is None else set(marks))


# Per session: it holds this session's key. Four: a session trying a few models.
@st.cache_resource(show_spinner=False, max_entries=4, scope="session")
def llm_answerer(
    cache_dir: str, model: str, base_url: str | None, secret: str, _embedder: Embedder, _llm: answers.LLMSettings
) -> answers.Answerer:
    """The LLM answerer of one setting (``secret``: a digest of the key), made once per session: a
    disk-cache handle and an openai client, not one per column and rerun."""
    return answers.make_answerer("openai", _embedder, Path(cache_dir), _llm)


@st.cache_resource(show_spinner=False, max_entries=2)  # the committed per-query tables: a few MB
def tune_lookup(cache_dir: str, data_dir: str, stamp: tuple, _folders: Sequence[Path]) -> tune.Lookup:
    """Tune's committed and computed cells; ``stamp``: the per-query tables' (path, mtime)."""
    return tune.Lookup(tune.read_published(_folders), Path(cache_dir), Path(data_dir))


@st.cache_resource(show_spinner=False, max_entries=2)  # one per benchmark, as the benchmarks
def document_names(data: str, _bench: Benchmark) -> answers.DocumentNames:
    """The words each document of the benchmark ``data`` names is called by."""
    return answers.document_names({p: d.text for p, d in _bench.documents.items()})


# Reads the committed per-query tables (tens of MB unpacked) beside the page's other work: two at once.
_LOOKUPS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sac-demo-picks")


@st.cache_resource(show_spinner=False, max_entries=8)  # a few column sets in a room; each a few hundred KB
def demo_cells(
    data: str, columns: str, stamp: tuple, _roots: Sequence[Path], _columns: Sequence[Column], _bench: Benchmark
) -> Future[demo_picks.Lookup]:
    """The committed per-query results of ``columns`` on the data ``data`` names, looked up in a
    background thread (a page starts it before opening its indexes and waits for it only where it
    picks the query); ``stamp``: the per-query tables' (path, mtime)."""
    return _LOOKUPS.submit(demo_picks.look_up, list(_roots), list(_columns), _bench)


@st.cache_resource(show_spinner=False, max_entries=4)  # two Map pages' two maps; an index's projection is small
def map_data(data: str, cache_dir: str, config: str, method: str, name: str, _index: ChunkIndex) -> maps.MapData:
    """An index's vectors, projection and separation figures (also kept in the store); the first
    time, a bar made here shows each step with the time left, then goes."""
    bar = st.empty()
    tell = lambda fraction, text: bar.progress(min(1.0, max(0.0, fraction)), text=views.md(f"{name}: {text}"))
    made = maps.map_data(_index, Path(cache_dir), method, tell)
    bar.empty()
    return made


def build_manager(cache_dir: Path) -> builds.BuildManager:
    """The server's background builds (worker processes) for one cache folder, shared by every session."""
    return _build_manager(str(Path(cache_dir).resolve()))


@st.cache_resource(show_spinner=False)  # never evicted: it owns the running builds' worker processes
def _build_manager(cache_dir: str) -> builds.BuildManager:
    return builds.BuildManager(Path(cache_dir))
