"""What a retrieval method is, and the registry that holds them: the project's one extension point.

A run opens one **method** (it finds passages: the baseline index, SAC, an imported run, a
plug-in retriever) and then every **stage** its configuration switches on (it re-ranks or
reshapes what the method found: the document-aware signals, passage trimming). Both say what they
need (summaries, an index, other models), how they rank, their name and their named settings
(*presets*, what the Compare page offers). A new method is one module that subclasses
:class:`Method` or :class:`Stage` and registers an instance (``METHODS.register(...)`` in
:mod:`sac_core.experiments.config`); ``sac evaluate``, sweep files, Compare, Curves, Tune and Review
then find it there. CONTRIBUTING.md shows a complete example.

The classes are generic in the configuration type ``C`` (always
:class:`~sac_core.experiments.config.RunConfig`) only so that this module does not import it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..engine.data import Benchmark
from ..engine.embedding import Embedders
from ..engine.retrieval import Ranker
from ..engine.summaries import SummaryConfig, summarize_documents

C = TypeVar("C")


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
    _summaries: dict[SummaryConfig, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def new(cls, bench: Benchmark, data_dir: Path, cache_dir: Path, **options: Any) -> OpenContext:
        """A context with embedders of its own over ``cache_dir`` (``options``: the other fields)."""
        return cls(bench, Path(data_dir), Path(cache_dir), Embedders(Path(cache_dir)), **options)

    def say(self, message: str) -> None:
        if self.notes is not None:
            self.notes(message)

    def summaries(self, config: SummaryConfig) -> dict[str, str]:
        """``file_path → summary`` of every benchmark document for ``config`` (cached on disk; fetched
        at most once per context)."""
        resolved = config.resolved(self.data_dir)
        if resolved not in self._summaries:
            texts = {fp: doc.text for fp, doc in self.bench.documents.items()}
            records = summarize_documents(texts, resolved, self.cache_dir, api_key=self.api_key, progress=self.progress)
            self._summaries[resolved] = {fp: r.summary for fp, r in records.items()}
        return self._summaries[resolved]


@dataclass(frozen=True)
class Opened:
    """A method ready to answer queries: its ranker, and the summaries its index was built with
    (``file_path → summary``; empty when it reads none), which pages show beside its chunks."""

    ranker: Ranker
    summaries: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Preset(Generic[C]):
    """A named setting of a method, as the Compare catalogue offers it; ``default``: a column of the
    default Compare page."""

    title: str
    config: C
    default: bool = False


class Method(ABC, Generic[C]):
    """A retrieval method: finds the passages of a query (see the module docstring)."""

    name: ClassVar[str]  # the registry key: RunConfig.method, sweep files, --method
    title: ClassVar[str]  # how pages name it
    # Its parameters, if any: a frozen dataclass whose defaults apply; a run sets a field as the
    # option "<name>.<field>" (RunConfig.options, sweep files, --option) and reads them with
    # RunConfig.plugin_options.
    Options: ClassVar[type | None] = None

    def variant(self, config: C) -> str:
        """Short name of what ``config`` runs, for result tables (e.g. ``sac-file-generic-150``)."""
        return self.name

    def summaries(self, config: C) -> SummaryConfig | None:
        """The document summaries this method reads for ``config``, or None."""
        return None

    @abstractmethod
    def open(self, config: C, ctx: OpenContext) -> Opened:
        """Load (or build, as ``ctx`` allows) what ``config`` needs and return its ranker."""

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
    Options: ClassVar[type | None] = None  # as for a Method

    @abstractmethod
    def active(self, config: C) -> bool:
        """Whether ``config`` switches this stage on."""

    def label(self, config: C) -> str:
        """Suffix of the variant name when active (e.g. ``+split+doc:summary300×8``)."""
        return f"+{self.name}"

    def summaries(self, config: C) -> SummaryConfig | None:
        """The document summaries this stage reads for ``config``, or None."""
        return None

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
    """Plug-ins by name, in the order registered (which is the order pages offer them)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._default: str | None = None

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
        return tuple(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        return len(self._items)
