"""The Map page's logic: why DRM happens, drawn. A 2-D projection of every chunk of an index,
coloured by document: near-identical documents lie on top of each other in the baseline, and the
summary prefix of SAC pulls each document's chunks apart.

- Projection: PCA (scikit-learn) by default, UMAP (umap-learn) as an option; computed once per
  set of vectors and kept in the store (kind ``projections``, keyed by the vectors' SHA-256), so a
  rebuilt index of other vectors never shows an old map. Queries are placed with the same PCA; for UMAP, at the mean position of their 5
  nearest chunks (UMAP has no cheap exact transform).
- At most :data:`MAX_POINTS` points are drawn (a WebGL scatter): above that, every chunk of the
  documents the picked query involves, then every n-th chunk of the others (a fixed stride).
- Separation figures (:mod:`sac_core.engine.metrics.separation`) per set of vectors, kept likewise.
- The first visit computes both (on LegalBench-RAG-mini's 30,000 chunks: ~10 s of PCA, ~40 s of
  nearest neighbours per index on a busy machine); :func:`map_data` reports its progress with the
  time left (:class:`Clock`) so the page shows a bar, not a spinner for minutes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..engine import store
from ..engine.data import Query
from ..engine.metrics import document_silhouette, own_document_share
from ..engine.retrieval import ChunkIndex, Hit, Ranker
from ..experiments import Column
from ..experiments.index_store import index_key
from .builds import fmt_duration
from .curves import PALETTE
from .text import svg_text

PROJECTIONS: tuple[str, ...] = ("pca", "umap")
MAX_POINTS = 30_000
NEIGHBOURS = 10  # k of the own-document share
Progress = Callable[[float, str], None]  # (fraction of the work done, what is being done)
# The projection's share of a first visit's work, the separation figures the rest (on 30,000 chunks:
# PCA ~10 s, UMAP ~1 min, nearest neighbours ~40 s, silhouette ~4 s): what the bar moves by.
PROJECTION_SHARE = {"pca": 0.18, "umap": 0.55}


@dataclass
class Clock:
    """Progress of one map's first computation as a bar's text, with the time left: the elapsed
    time scaled by what is still to do (shown from 5 % done on, and once 2 s have passed)."""

    on_progress: Progress
    now: Callable[[], float] = time.monotonic
    start: float = field(init=False)

    def __post_init__(self) -> None:
        self.start = self.now()

    def tell(self, fraction: float, doing: str) -> None:
        elapsed = self.now() - self.start
        left = elapsed / fraction * (1 - fraction) if fraction >= 0.05 and elapsed >= 2 else None
        self.on_progress(min(1.0, fraction), doing + ("" if left is None else f" · about {fmt_duration(left)} left"))


@dataclass(frozen=True)
class Projection:
    """2-D coordinates of every chunk (rows in pool order) and how to place a query vector."""

    method: str
    xy: np.ndarray  # (chunks, 2)
    mean: np.ndarray | None = None  # PCA: centre and the two components
    components: np.ndarray | None = None

    def place(self, query: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        """Where a query vector lands on this map."""
        if self.method == "pca" and self.mean is not None and self.components is not None:
            return (query - self.mean) @ self.components.T
        nearest = np.argsort(-(vectors @ query))[:5]
        return self.xy[nearest].mean(axis=0)


def project(vectors: np.ndarray, method: str = "pca", seed: int = 0) -> Projection:
    """A 2-D projection of unit vectors (rows)."""
    if method == "pca":
        from sklearn.decomposition import PCA  # scikit-learn, only when a map is drawn

        pca = PCA(n_components=2, random_state=seed).fit(vectors)
        return Projection("pca", pca.transform(vectors).astype(np.float32), pca.mean_, pca.components_)
    if method == "umap":
        import umap  # umap-learn (numba): loaded only for this option

        reducer = umap.UMAP(n_components=2, metric="cosine", random_state=seed, n_neighbors=15, min_dist=0.1)
        return Projection("umap", reducer.fit_transform(vectors).astype(np.float32))
    raise ValueError(f"unknown projection {method!r}; choose one of {', '.join(PROJECTIONS)}")


def vectors_digest(vectors: np.ndarray) -> str:
    """A fingerprint of an index's vectors (SHA-256 of their bytes): what the figures kept in the
    store were computed from. A same-sized index of other texts has another one."""
    return store.sha256(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())


def cached_projection(
    cache_dir: Path, vectors: np.ndarray, method: str, on_start: Callable[[], None] | None = None
) -> Projection:
    """The projection of exactly these vectors, from the store (computed and kept the first time;
    ``on_start`` is told before it is computed)."""
    address = store.key("projections", {"vectors": vectors_digest(vectors), "figure": method})
    with store.entries(cache_dir, "projections") as kept:
        saved = kept.get(address)
        if isinstance(saved, dict):
            return Projection(method, saved["xy"], saved.get("mean"), saved.get("components"))
        if on_start is not None:
            on_start()
        projection = project(vectors, method)
        kept.set(address, {"xy": projection.xy, "mean": projection.mean, "components": projection.components})
    return projection


@dataclass(frozen=True)
class Separation:
    """How far apart an index's documents lie (see :mod:`sac_core.engine.metrics.separation`)."""

    own_share: float  # mean share of a chunk's 10 nearest neighbours from its own document
    silhouette: float  # mean silhouette by document (cosine), on a sample of 5,000 chunks
    chunks: int
    documents: int


def separation(
    vectors: np.ndarray, documents: Sequence[str], on_progress: Callable[[float], None] | None = None
) -> Separation:
    """The figures of one index; ``on_progress(fraction)``: how much of their work is done (0..1)."""
    tell = on_progress or (lambda fraction: None)
    share_part = 0.9  # of the work: the nearest neighbours; the silhouette (a 5,000 sample) the rest
    own = own_document_share(vectors, documents, NEIGHBOURS, on_progress=lambda d, n: tell(share_part * d / n))
    silhouette = document_silhouette(vectors, documents)
    tell(1.0)
    return Separation(own, silhouette, len(vectors), len(set(documents)))


def cached_separation(
    cache_dir: Path, vectors: np.ndarray, documents: Sequence[str], on_progress: Callable[[float], None] | None = None
) -> Separation:
    """The separation figures of exactly these vectors and documents, from the store (computed and
    kept the first time, telling ``on_progress`` how far)."""
    recipe = {"vectors": vectors_digest(vectors), "documents": store.sha256(list(documents)), "figure": "separation"}
    address = store.key("projections", recipe)
    with store.entries(cache_dir, "projections") as kept:
        saved = kept.get(address)
        if isinstance(saved, dict):
            return Separation(**saved)
        result = separation(vectors, documents, on_progress)
        kept.set(address, asdict(result))
    return result


# --------------------------------------------------------------------------- points and figure


def points(
    retriever: ChunkIndex,
    projection: Projection,
    datasets: Sequence[str] | None = None,
    documents: Sequence[str] | None = None,
    keep: Sequence[str] = (),
    max_points: int = MAX_POINTS,
) -> pd.DataFrame:
    """One row per drawn chunk: ``i`` (pool position), ``x, y``, ``document``, ``dataset``, ``span``,
    ``start`` (first words). ``datasets``/``documents`` filter; above ``max_points``, the chunks of
    ``keep`` documents stay and the others are taken with a fixed stride."""
    chunks = retriever.pool.chunks
    frame = pd.DataFrame(
        {
            "i": np.arange(len(chunks)),
            "x": projection.xy[:, 0],
            "y": projection.xy[:, 1],
            "document": [c.file_path for c in chunks],
            "dataset": [c.file_path.split("/", 1)[0] for c in chunks],
        }
    )
    if datasets is not None:
        frame = frame[frame["dataset"].isin(list(datasets))]
    if documents is not None:
        frame = frame[frame["document"].isin(list(documents))]
    if len(frame) > max_points:
        kept = frame[frame["document"].isin(list(keep))]
        rest = frame[~frame["document"].isin(list(keep))]
        stride = int(np.ceil(len(rest) / max(1, max_points - len(kept))))
        frame = pd.concat([kept, rest.iloc[::stride]]).sort_values("i")
    frame = frame.assign(
        span=[f"[{chunks[i].start:,}, {chunks[i].end:,})" for i in frame["i"]],
        start=[" ".join(chunks[i].text.split()[:12]) for i in frame["i"]],
    )
    return frame.reset_index(drop=True)


COLOURINGS: dict[str, str] = {"gold": "gold document vs other documents", "dataset": "dataset"}
MAX_LEGEND = 10  # entries a reader can tell apart; more datasets fold into "other datasets"
GROUP_COLOURS = {"gold document": "#d97706", "other documents": "#9ca3af", "other datasets": "#9ca3af"}


def colour_groups(frame: pd.DataFrame, colouring: str, query: Query | None) -> list[str]:
    """Each drawn chunk's colour group: ``gold document`` / ``other documents`` (a free-text question has
    no gold: all "other"), or its dataset, the :data:`MAX_LEGEND` − 1 largest by name and the rest
    as ``other datasets``: never more than :data:`MAX_LEGEND` colours."""
    if colouring == "gold":
        gold = query.gold_files if query is not None else frozenset()
        return ["gold document" if d in gold else "other documents" for d in frame["document"]]
    counts = frame["dataset"].value_counts()
    kept = set(counts.index if len(counts) <= MAX_LEGEND else counts.index[: MAX_LEGEND - 1])
    return [d if d in kept else "other datasets" for d in frame["dataset"]]


def map_figure(
    frame: pd.DataFrame,
    retriever: ChunkIndex,
    projection: Projection,
    colour: str = "document",
    query_xy: np.ndarray | None = None,
    query: Query | None = None,
    hits: Sequence[Hit] = (),
    height: int = 560,
) -> go.Figure:
    """A WebGL scatter: chunks coloured by column ``colour`` of ``frame`` (document, dataset, or the
    groups of :func:`colour_groups`; the "other …" groups drawn first, in grey); the query (✕), its
    gold chunks (◯) and the index's top-k (◆, red when from a wrong document)."""
    fig = go.Figure()
    groups = sorted(dict.fromkeys(frame[colour]), key=lambda g: g not in GROUP_COLOURS or g == "gold document")
    for n, group in enumerate(groups):
        part = frame[frame[colour] == group]
        fig.add_trace(go.Scattergl(
            x=part["x"], y=part["y"], mode="markers", name=svg_text(group), legendgroup=svg_text(group),
            marker={"size": 4, "color": GROUP_COLOURS.get(group, PALETTE[n % len(PALETTE)]), "opacity": 0.55},
            text=[f"{svg_text(d)}<br>{s}<br>{svg_text(w)} …" for d, s, w in zip(part["document"], part["span"], part["start"])],
            hovertemplate="%{text}<extra></extra>", showlegend=len(groups) <= MAX_LEGEND,
        ))  # fmt: skip
    chunks = retriever.pool.chunks
    position = {(c.file_path, c.start): i for i, c in enumerate(chunks)}
    if query is not None:
        gold = [i for i, c in enumerate(chunks) if any(
            g.file_path == c.file_path and g.start < c.end and c.start < g.end for g in query.gold)]  # fmt: skip
        if gold:
            fig.add_trace(go.Scattergl(
                x=projection.xy[gold, 0], y=projection.xy[gold, 1], mode="markers", name="gold chunks",
                marker={"size": 13, "color": "rgba(0,0,0,0)", "line": {"width": 2, "color": "#f59e0b"}},
                hoverinfo="skip",
            ))  # fmt: skip
    if hits:
        rows = [position[(h.chunk.file_path, h.chunk.start)] for h in hits]
        wrong = [query is not None and h.chunk.file_path not in query.gold_files for h in hits]
        fig.add_trace(go.Scattergl(
            x=projection.xy[rows, 0], y=projection.xy[rows, 1], mode="markers+text", name="top-k",
            text=[str(r) for r in range(1, len(rows) + 1)], textposition="top center",
            marker={"size": 10, "symbol": "diamond", "color": ["#dc2626" if w else "#16a34a" for w in wrong],
                    "line": {"width": 1, "color": "white"}},
            hovertext=[f"#{r} {svg_text(h.chunk.file_path)}" + (" (wrong document)" if w else "")
                       for r, (h, w) in enumerate(zip(hits, wrong), start=1)],
            hoverinfo="text",
        ))  # fmt: skip
    if query_xy is not None:
        fig.add_trace(go.Scattergl(
            x=[query_xy[0]], y=[query_xy[1]], mode="markers", name="the query",
            marker={"size": 16, "symbol": "x", "color": "black"}, hoverinfo="name",
        ))  # fmt: skip
    fig.update_layout(
        height=height, template="plotly_white", margin={"l": 10, "r": 10, "t": 10, "b": 10},
        legend={"orientation": "h", "y": -0.05, "font": {"size": 10}},
        xaxis={"showticklabels": False, "title": None}, yaxis={"showticklabels": False, "title": None},
    )  # fmt: skip
    return fig


def involved_documents(query: Query | None, hits: Mapping[str, Sequence[Hit]]) -> list[str]:
    """The gold documents, then the documents the indexes retrieved, in order."""
    out = sorted(query.gold_files) if query is not None else []
    for ranked in hits.values():
        for h in ranked:
            if h.chunk.file_path not in out:
                out.append(h.chunk.file_path)
    return out


@dataclass(frozen=True)
class MapData:
    vectors: np.ndarray
    projection: Projection
    separation: Separation


def map_data(retriever: ChunkIndex, cache_dir: Path, method: str, on_progress: Progress | None = None) -> MapData:
    """What the Map draws for one index, from (and kept in) the store of ``cache_dir``; the first
    time, ``on_progress`` is told each step with the time left (:class:`Clock`)."""
    if retriever.dense is None:
        raise ValueError("a BM25-only index has no embeddings to draw")
    vectors = retriever.dense.vectors()
    documents = [c.file_path for c in retriever.pool.chunks]
    clock = Clock(on_progress or (lambda fraction, text: None))
    chunks = f"{len(vectors):,} chunks"
    computed: list[str] = []  # the projection made now (not read back)

    def projecting() -> None:
        computed.append(method)
        clock.tell(0.0, f"projecting {chunks} ({method.upper()})")

    projection = cached_projection(cache_dir, vectors, method, on_start=projecting)
    done = PROJECTION_SHARE.get(method, 0.5) if computed else 0.0  # a saved projection took no time

    def separating(fraction: float) -> None:
        step = "nearest neighbours of each chunk" if fraction < 0.9 else "silhouette by document"
        clock.tell(done + (1 - done) * fraction, f"{step} ({chunks})")

    return MapData(vectors, projection, cached_separation(cache_dir, vectors, documents, separating))


def question_place(retriever: ChunkIndex, data: MapData, asked: str) -> np.ndarray:
    """Where the question ``asked`` lands on the map of ``retriever`` (encoded by its own model)."""
    vector = retriever.embedder.encode([asked], progress=False)[0]
    return data.projection.place(vector, data.vectors)


def column_index(rankers: Mapping[str, Ranker], name: str, columns: Sequence[Column] = ()) -> ChunkIndex:
    """The plain dense chunk index of column ``name`` (one :func:`map_columns` draws): its own, or, for
    a column that ranks another column's index (of ``columns``: the recommended method's stages on the
    baseline's index), that index. A ValueError for a column without one."""
    index = rankers[name].chunk_index()
    if index is None:
        index = next((i for c in _sharing(columns, name) if (i := rankers[c.name].chunk_index()) is not None), None)
    if index is None or index.dense is None:
        raise ValueError(f"{name} has no dense chunk index to draw")
    return index


def _sharing(columns: Sequence[Column], name: str) -> list[Column]:
    """The other columns whose saved index is column ``name``'s (the same index key)."""
    own = next((c for c in columns if c.name == name), None)
    if own is None:
        return []
    key = index_key(own.config)
    return [c for c in columns if c.name != name and index_key(c.config) == key]


def drawn_on(columns: Sequence[Column], rankers: Mapping[str, Ranker], name: str) -> str | None:
    """The column whose index column ``name`` is drawn on when it has none of its own (its top-k is
    then marked on that map), else None."""
    ranker = rankers.get(name)
    if ranker is None or ranker.chunk_index() is not None:
        return None
    return next((c.name for c in _sharing(columns, name) if rankers[c.name].chunk_index() is not None), None)


def map_columns(
    columns: Sequence[Column], rankers: Mapping[str, Ranker], summaries: Mapping[str, Mapping[str, str]]
) -> tuple[list[Column], list[Column]]:
    """Which columns can be drawn: (the first plain dense index, the others a reader can put beside it:
    the dense indexes with summaries prepended, then the columns that rank another column's index, as
    the recommended method ranks the baseline's). A method without a dense chunk index of its own or
    of another column (an imported run) has no map."""

    def drawable(column: Column) -> bool:
        try:
            column_index(rankers, column.name, columns)
        except (KeyError, ValueError):
            return False
        return True

    dense = [c for c in columns if drawable(c)]
    own = [c for c in dense if drawn_on(columns, rankers, c.name) is None]
    plain = [c for c in own if not summaries.get(c.name)][:1]
    return plain, [c for c in own if summaries.get(c.name)] + [c for c in dense if c not in own]
