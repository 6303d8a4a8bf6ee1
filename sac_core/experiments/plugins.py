"""What a retrieval method is, and the registry that holds them: the project's one extension point.

A run opens one **method** (it finds passages: the baseline index, SAC, an imported run, a
plug-in retriever) and then every **stage** its configuration switches on (it re-ranks or
reshapes what the method found: the document-aware signals, passage trimming). Both say what they
need (summaries, an index, other models), how they rank, their name and their named settings
(*presets*, what the Compare page offers). What else a method can do is declared, not probed: a
saved chunk index (:meth:`Method.indexer`), and on its ranker the optional capabilities of
:class:`~sac_core.engine.retrieval.Ranker`. A new method is one module, in this repository or a
package of its own, that subclasses :class:`Method` or :class:`Stage` and registers an instance
(``METHODS.register(...)`` in :mod:`sac_core.experiments.config`); once imported (an entry point,
``$SAC_PLUGINS`` or ``sac --plugin``: :mod:`.loading`), ``sac evaluate``, sweep files, Compare,
Curves, Tune and Review find it there. CONTRIBUTING.md shows a complete example.

The classes are generic in the configuration type ``C`` (always
:class:`~sac_core.experiments.config.RunConfig`) only so that this module does not import it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..engine.data import Benchmark
from ..engine.embedding import Embedders
from ..engine.retrieval import ChunkIndex, Hit, Pool, Ranker
from ..engine.summaries import SummaryConfig, summarize_documents


class Configured(Protocol):
    """What a plug-in reads of its configuration here: the plug-in options set (``("<name>.<field>", value)``)."""

    @property
    def options(self) -> tuple[tuple[str, Any], ...]: ...


C = TypeVar("C", bound=Configured)


def own_options(config: Configured, name: str) -> str:
    """Plug-in ``name``'s options that ``config`` sets, as ``(field=value,…)`` ("" when none): what a
    default variant name adds, so two settings of a plug-in never share a name."""
    own = [f"{key.partition('.')[2]}={value}" for key, value in config.options if key.partition(".")[0] == name]
    return f"({','.join(own)})" if own else ""


R = TypeVar("R")


class NotBuilt(LookupError):
    """A method's saved index is missing or stale and this opening may not build it (``build=False``)."""


@dataclass(frozen=True)
class OpenContext:
    """Where and how a method is opened: the benchmark, the folders, the shared embedders, and how
    far the opening may go (``build``: build a missing index, else raise :class:`NotBuilt`;
    ``save``: save an index it builds). Summaries are fetched once per context, however many
    parts of a run read them."""

    bench: Benchmark
    data_dir: Path
    cache_dir: Path
    embedders: Embedders
    api_key: str | None = field(default=None, repr=False)
    progress: bool = False
    on_progress: Callable[[int, int], None] | None = None  # (texts embedded, texts to embed)
    build: bool = True
    save: bool = False
    notes: Callable[[str], None] | None = None  # where to say what was loaded, built or saved (the CLI prints it)
    # (step, unit, done, total) of each long step of a build: documents chunked, chunks embedded; a
    # step reported here is not also reported to on_progress (the dashboard's builds show both)
    on_step: Callable[[str, str, int, int], None] | None = None
    _summaries: dict[SummaryConfig, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)
    _memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def new(cls, bench: Benchmark, data_dir: Path, cache_dir: Path, **options: Any) -> OpenContext:
        """A context with embedders of its own over ``cache_dir`` (``options``: the other fields)."""
        return cls(bench, Path(data_dir), Path(cache_dir), Embedders(Path(cache_dir)), **options)

    def progress_of(self, step: str, unit: str) -> Callable[[int, int], None] | None:
        """The ``(done, total)`` callback of one long step: ``on_step`` when set, else ``on_progress``
        when the step counts texts embedded (its meaning), else None."""
        on_step = self.on_step
        if on_step is not None:
            return lambda done, total: on_step(step, unit, done, total)
        return self.on_progress if unit == "texts" else None

    def say(self, message: str) -> None:
        if self.notes is not None:
            self.notes(message)

    def remember(self, key: Hashable, make: Callable[[], R]) -> R:
        """``make()`` once per context and ``key`` (what a plug-in reads beside the benchmark, e.g. a bank)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def summaries(self, config: SummaryConfig, *, cached_only: bool = False) -> dict[str, str]:
        """``file_path → summary`` of every benchmark document for ``config`` (cached on disk; fetched
        at most once per context). ``cached_only``: request nothing, raise ``SummaryError`` when some
        summaries are not made yet."""
        resolved = config.resolved(self.data_dir)
        if resolved not in self._summaries:
            texts = {fp: doc.text for fp, doc in self.bench.documents.items()}
            records = summarize_documents(
                texts, resolved, self.cache_dir, api_key=self.api_key, progress=self.progress, cached_only=cached_only
            )
            self._summaries[resolved] = {fp: r.summary for fp, r in records.items()}
        return self._summaries[resolved]


class SearchOnly(Ranker):
    """A ranker that does not subclass :class:`Ranker` (it has ``search`` and nothing declared):
    its ``search``, with the default of every optional capability."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        return list(self.inner.search(queries, k, progress=progress))


@dataclass(frozen=True)
class Opened:
    """A method ready to answer queries: its ranker, and the summaries its index was built with
    (``file_path → summary``; empty when it reads none), which pages show beside its chunks. A
    ranker that does not subclass :class:`Ranker` is taken as :class:`SearchOnly`: callers then ask
    every ranker the same members (this is the one place that looks at a plug-in's class)."""

    ranker: Ranker
    summaries: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.ranker, Ranker):
            object.__setattr__(self, "ranker", SearchOnly(self.ranker))


@dataclass(frozen=True)
class Preset(Generic[C]):
    """A named setting of a method, as the Compare catalogue offers it; ``default``: a column of the
    default Compare page; ``needs_questions``: it learns from the data folder's labelled questions
    (clause exemplars), so it is no default column of a folder without any (an ingested corpus)."""

    title: str
    config: C
    default: bool = False
    needs_questions: bool = False


@dataclass(frozen=True)
class IndexCheck:
    """Whether a method's saved index for a configuration can be used (:meth:`Indexer.check`):
    ``state``: ``fresh`` (usable), ``missing`` or ``stale``; ``reason`` says why not fresh."""

    state: str
    folder: Path
    reason: str = ""

    @property
    def fresh(self) -> bool:
        return self.state == "fresh"


class Indexer(ABC, Generic[C]):
    """An optional capability of a method (:meth:`Method.indexer`): a chunk index saved under the
    cache, which ``sac index`` and the dashboard's background builds build ahead and runs then load."""

    @abstractmethod
    def pool(self, config: C, ctx: OpenContext) -> Pool:
        """Every chunk the index holds, with the text it is indexed under (nothing embedded): what
        an executor embeds ahead (``executors.embed_ahead``)."""

    @abstractmethod
    def check(self, config: C, ctx: OpenContext) -> IndexCheck:
        """Is a fresh saved index there for ``config`` (same documents, summaries, model, settings)?"""

    @abstractmethod
    def build(self, config: C, ctx: OpenContext) -> ChunkIndex:
        """The index built anew (from the embedding cache where possible), saved when ``ctx.save``."""


class Method(ABC, Generic[C]):
    """A retrieval method: finds the passages of a query (see the module docstring)."""

    name: ClassVar[str]  # the registry key: RunConfig.method, sweep files, --method
    title: ClassVar[str]  # how pages name it
    # Its parameters, if any: a frozen dataclass whose defaults apply; a run sets a field as the
    # option "<name>.<field>" (RunConfig.options, sweep files, --option) and reads them with
    # RunConfig.plugin_options.
    Options: ClassVar[type | None] = None
    # Bumped whenever what the method returns for a configuration changes (CONTRIBUTING: "When to bump
    # a version"): part of every result's identity, so a result of the old behaviour is never reused.
    version: ClassVar[int] = 1

    def inputs(self, config: C, ctx: OpenContext) -> Mapping[str, str]:
        """Fingerprints (e.g. SHA-256) of what this method reads beyond the benchmark, ``config`` and its
        summaries (an imported run file, a labelled bank): part of every result's identity."""
        return {}

    def variant(self, config: C) -> str:
        """Short name of what ``config`` runs, for result tables (e.g. ``sac-file-generic-150``); by
        default the name and the options set, e.g. ``word-overlap(min_length=3)``."""
        return self.name + own_options(config, self.name)

    def summaries(self, config: C) -> SummaryConfig | None:
        """The document summaries this method reads for ``config``, or None."""
        return None

    @abstractmethod
    def open(self, config: C, ctx: OpenContext) -> Opened:
        """Load (or build, as ``ctx`` allows) what ``config`` needs and return its ranker."""

    def indexer(self) -> Indexer[C] | None:
        """Its saved chunk index, when it keeps one (checked, built and embedded ahead; see
        :class:`Indexer`); None: opening it is all there is (an imported run, a live retriever)."""
        return None

    def fits(self, config: C, bench: Benchmark) -> str | None:
        """None when ``config`` can run on ``bench``, else why not (an imported run made for another
        benchmark); the catalogue leaves out presets that do not fit the benchmark shown."""
        return None

    def presets(self, base: C) -> Mapping[str, Preset[C]]:
        """Named settings offered in the Compare catalogue, keyed by a short id (for URLs)."""
        return {}


class Stage(ABC, Generic[C]):
    """A re-ranking step on top of a method, switched on by the configuration (see the module docstring)."""

    name: ClassVar[str]
    title: ClassVar[str] = ""  # how the documentation names it ("" = its name)
    Options: ClassVar[type | None] = None  # as for a Method
    version: ClassVar[int] = 1  # as for a Method
    # Where it applies among the active stages, lowest first (ties: in the order registered). The
    # built-in ones: the document-aware signals 10 (they re-rank the method's chunk index), then the
    # passage stages inside the routed document: within-document ranking 20, small-to-big 30, trimming 40.
    order: ClassVar[float] = 100.0

    def inputs(self, config: C, ctx: OpenContext) -> Mapping[str, str]:
        """As :meth:`Method.inputs`: fingerprints of what this stage reads beyond the run's data and settings."""
        return {}

    @abstractmethod
    def active(self, config: C) -> bool:
        """Whether ``config`` switches this stage on."""

    def label(self, config: C) -> str:
        """Suffix of the variant name when active (e.g. ``+split+doc:summary300×8``)."""
        return f"+{self.name}{own_options(config, self.name)}"

    def summaries(self, config: C) -> SummaryConfig | None:
        """The document summaries this stage reads for ``config``, or None."""
        return None

    def check(self, config: C) -> None:
        """Raise ValueError when ``config``'s settings cannot run together with this stage active
        (checked when the configuration is made, so a sweep file fails before any work)."""

    @abstractmethod
    def wrap(self, opened: Opened, config: C, ctx: OpenContext) -> Opened:
        """``opened`` re-ranked (or reshaped) by this stage."""

    def presets(self, base: C) -> Mapping[str, Preset[C]]:
        return {}


class Named(Protocol):
    name: ClassVar[str]
    Options: ClassVar[type | None]


T = TypeVar("T", bound=Named)


class Registry(Generic[T]):
    """Plug-ins by name, in the order registered (which is the order pages offer them), or sorted by
    ``order`` (a key of the plug-in; ties keep the order registered): stages apply in their own order,
    whichever module was imported first."""

    def __init__(self, kind: str, order: Callable[[T], float] | None = None) -> None:
        self.kind = kind
        self.order = order
        self._items: dict[str, T] = {}
        self._default: str | None = None

    def _ordered(self) -> list[T]:
        items = list(self._items.values())
        return items if self.order is None else sorted(items, key=self.order)

    def register(self, item: T, *, default: bool = False) -> T:
        """Add ``item`` under its ``name`` (replacing one of the same name); ``default``: the name a
        configuration gets when it names none."""
        if not item.name or not isinstance(item.name, str):
            raise ValueError(f"a {self.kind} needs a non-empty name")
        self._items[item.name] = item
        if default:
            self._default = item.name
        return item

    def unregister(self, name: str) -> None:
        self._items.pop(name, None)

    @property
    def default(self) -> str:
        if self._default is None:
            raise LookupError(f"no default {self.kind} registered")
        return self._default

    def get(self, name: str) -> T:
        if name not in self._items:
            raise KeyError(f"unknown {self.kind} {name!r}; registered: {', '.join(self._items) or 'none'}")
        return self._items[name]

    def names(self) -> tuple[str, ...]:
        return tuple(item.name for item in self._ordered())

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[T]:
        return iter(self._ordered())

    def __len__(self) -> int:
        return len(self._items)
