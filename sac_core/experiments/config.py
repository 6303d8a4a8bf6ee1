"""One frozen dataclass describes an experiment; it is passed down, never read from globals.

Paths of the machine (data and cache directories) are not part of it: the same experiment can
run on any copy of the data. ``method`` names a :class:`~.plugins.Method` of :data:`METHODS`;
the registered :data:`STAGES` its options switch on (the document-aware stage ``doc``, the
passage stages) re-rank it. Every plug-in setting is one option ``"<plug-in>.<field>"`` of its
``Options`` dataclass: one mechanism for sweep files, ``--option`` and result columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from ..engine.chunking import CHUNKERS
from ..engine.data import DATASETS, PROTOCOLS
from ..engine.embedding import BACKENDS, DEFAULT_MODEL, default_backend, model_id
from ..engine.indexes import DENSE_KINDS
from ..engine.metrics import DEFAULT_KS, MODES
from ..engine.retrieval import Signals
from ..engine.summaries import SummaryConfig
from .plugins import Method, Registry, Stage

METHODS: Registry[Method[RunConfig]] = Registry("method")  # what RunConfig.method can name
STAGES: Registry[Stage[RunConfig]] = Registry("stage", order=lambda stage: stage.order)  # applied in Stage.order
DOC = "doc"  # the document-aware stage: its Options are the engine's Signals (RunConfig.signals)

OptionValue = str | int | float | bool  # the value of one plug-in option
OptionsT = TypeVar("OptionsT")


def _option_fields(key: str) -> tuple[str, type, dict[str, Any]]:
    """(plug-in name, its Options class, field name → field) of an option key ``"<plug-in>.<field>"``;
    a ValueError names what is wrong."""
    name, dot, field_name = key.partition(".")
    plugin: Method[RunConfig] | Stage[RunConfig] | None = (
        METHODS.get(name) if name in METHODS else STAGES.get(name) if name in STAGES else None
    )
    if not dot or plugin is None:
        raise ValueError(f"option {key!r}: not '<method or stage>.<field>' of a registered plug-in")
    if plugin.Options is None or not is_dataclass(plugin.Options):
        raise ValueError(f"option {key!r}: {name} takes no options")
    known = {f.name: f for f in fields(plugin.Options)}
    if field_name not in known:
        raise ValueError(f"option {key!r}: {name} takes {', '.join(known)}")
    return name, plugin.Options, known


BOOLEANS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``"<plug-in>.<field>=<value>"`` (the command line; the one parser of ``KEY=VALUE`` settings)
    → a typed option, the value read as the field's type (bool, int, float or str)."""
    key, sep, raw = text.partition("=")
    if not sep:
        raise ValueError(f"option {text!r}: not <plug-in>.<field>=<value>")
    _, _, known = _option_fields(key.strip())
    default = known[key.strip().partition(".")[2]].default
    kind = type(default) if isinstance(default, (bool, int, float)) else str
    try:
        if kind is bool:
            value: OptionValue = BOOLEANS[raw.strip().lower()]
        else:
            value = kind(raw.strip())
    except (KeyError, ValueError):
        raise ValueError(f"option {key.strip()!r} needs a {kind.__name__}, got {raw!r}") from None
    return key.strip(), value


def option_is_path(key: str) -> bool:
    """Whether option ``key`` names a file or folder of the machine (its field's metadata says
    ``{"path": True}``): the identity of a result holds what the plug-in read there, not the path."""
    _, _, known = _option_fields(key)
    return bool(known[key.partition(".")[2]].metadata.get("path"))


def _typed(key: str, value: OptionValue) -> tuple[OptionValue, bool]:
    """``value`` as its field's type where that is exact (a whole number for a float field: 8 → 8.0),
    and whether it equals the field's default."""
    _, _, known = _option_fields(key)
    default = known[key.partition(".")[2]].default
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return value, type(value) is type(default) and value == default


def column_defaults() -> dict[str, object]:
    """Every settings column a result table may hold (:meth:`RunConfig.columns`), by its default
    value: its type says how a value read back from CSV is typed (``8.0`` of a float option stays a float)."""
    out: dict[str, object] = {f.name: f.default for f in fields(RunConfig) if f.name in RunConfig.LATER}
    out.update(RunConfig().columns())
    for plugin in [*METHODS, *STAGES]:
        if plugin.Options is not None and is_dataclass(plugin.Options):
            out.update({f"option_{plugin.name}_{f.name}": f.default for f in fields(plugin.Options)})
    return out


@dataclass(frozen=True)
class RunConfig:
    protocol: str = "lbr-mini"
    datasets: tuple[str, ...] = DATASETS
    seed: int | None = None  # only for protocol "paper"; None = the paper's f"{dataset}194"
    method: str = ""  # a name in METHODS ("" = the registry's default, the plain baseline)
    chunker: str = "rcts"
    chunk_size: int = 500  # characters of the document per chunk
    chunk_overlap: int = 0  # characters
    model: str = DEFAULT_MODEL
    backend: str = field(default_factory=default_backend)  # "onnx" (ONNX Runtime, when installed) or "torch"
    semantic_weight: float = 1.0  # 1 = dense only, 0 = BM25 only, between = rank fusion
    fusion_depth: int = 100  # candidates each ranker gives the fusion (at least max k)
    ks: tuple[int, ...] = DEFAULT_KS
    metric_mode: str = "merged"  # "merged" | "compat" (LegalBench-RAG's unmerged sums)
    summary: SummaryConfig = field(default_factory=SummaryConfig)  # the summaries a method or stage reads
    # The dense index: exact ("flat"), approximate ("hnsw"), or "auto" = HNSW from ann_threshold chunks on.
    dense_index: str = "auto"
    ann_threshold: int = 1_000_000  # chunks
    hnsw_m: int = 32  # graph links per vector (efConstruction 200)
    ef_search: int = 128  # candidates an HNSW search visits: higher = closer to exact, slower
    # Parameters of plug-ins: ("<method or stage name>.<field>", value) pairs, kept sorted and only
    # where they differ from the field's default; a mapping is accepted too. In columns() as
    # option_<name>_<field>. The document-aware ranking on top of the index (document prior,
    # routing, entities, …: retrieval-time only, sharing its method's index) is the stage "doc".
    options: tuple[tuple[str, OptionValue], ...] = ()

    # Settings added after results were published: in columns() (and so in cell and index ids) only
    # when they differ from their default, so every published cell keeps its id.
    LATER: ClassVar[tuple[str, ...]] = ("dense_index", "ann_threshold", "hnsw_m", "ef_search")

    def __post_init__(self) -> None:
        if not self.method:
            object.__setattr__(self, "method", METHODS.default)  # frozen: set once, while being made
        pairs = self.options.items() if isinstance(self.options, Mapping) else self.options
        object.__setattr__(self, "options", tuple(sorted(dict(pairs).items())))
        self._check_options()
        typed = [(k, *_typed(k, v)) for k, v in self.options]
        object.__setattr__(
            self, "options", tuple((k, v) for k, v, default in typed if not default)
        )  # a default is no setting
        checks = [
            (self.protocol in PROTOCOLS, f"protocol must be one of {PROTOCOLS}"),
            (self.method in METHODS, f"method must be one of {', '.join(METHODS.names())}"),
            (self.chunker in CHUNKERS, f"chunker must be one of {CHUNKERS}"),
            (self.backend in BACKENDS, f"backend must be one of {BACKENDS}"),
            (self.chunk_size > 0, "chunk_size must be > 0"),
            (0 <= self.chunk_overlap < self.chunk_size, "chunk_overlap must be in [0, chunk_size)"),
            (0.0 <= self.semantic_weight <= 1.0, "semantic_weight must be in [0, 1]"),
            (bool(self.ks) and all(k > 0 for k in self.ks), "ks must be positive integers"),
            (self.metric_mode in MODES, f"metric_mode must be one of {MODES}"),
            (bool(self.datasets), "datasets must not be empty"),
            (self.dense_index in DENSE_KINDS, f"dense_index must be one of {DENSE_KINDS}"),
            (self.ann_threshold > 0 and self.hnsw_m > 1 and self.ef_search > 0, "ANN settings must be positive"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"invalid configuration: {message}")

    def _check_options(self) -> None:
        by_plugin: dict[str, dict[str, OptionValue]] = {}
        for key, value in self.options:
            if not isinstance(value, (str, int, float, bool)):
                raise ValueError(f"invalid configuration: option {key!r} must be a string or a number")
            try:
                name, _, _ = _option_fields(key)
            except ValueError as e:
                raise ValueError(f"invalid configuration: {e}") from None
            by_plugin.setdefault(name, {})[key.partition(".")[2]] = value
        for name, values in by_plugin.items():
            _, cls, _ = _option_fields(f"{name}.{next(iter(values))}")
            try:
                cls(**values)  # the Options class checks its own values
            except (TypeError, ValueError) as e:
                raise ValueError(f"invalid configuration: options of {name}: {e}") from None

    def plugin_options(self, name: str, cls: type[OptionsT]) -> OptionsT:
        """The options of plug-in ``name`` as its ``Options`` class ``cls`` (defaults where not set)."""
        prefix = f"{name}."
        return cls(**{key[len(prefix) :]: value for key, value in self.options if key.startswith(prefix)})

    def with_options(self, name: str, options: object) -> RunConfig:
        """This configuration with plug-in ``name``'s options replaced by the dataclass ``options``
        (its fields that differ from their defaults), e.g. ``with_options(DOC, Signals(split_query=True))``."""
        kept = [(k, v) for k, v in self.options if k.partition(".")[0] != name]
        new = [(f"{name}.{f.name}", getattr(options, f.name)) for f in fields(options)]  # type: ignore[arg-type]
        return self.with_(options=(*kept, *new))

    @property
    def signals(self) -> Signals:
        """The options of the document-aware stage (``doc.<field>``), as the engine reads them."""
        return self.plugin_options(DOC, Signals)

    @property
    def max_k(self) -> int:
        return max(self.ks)

    @property
    def variant(self) -> str:
        """Short name of what runs: the method's variant and the active stages' labels, e.g.
        ``baseline``, ``sac-file-generic-150``, ``baseline+split+doc:summary300×8+bm25×0.125``."""
        return self.index_variant + "".join(stage.label(self) for stage in self.stages)

    @property
    def index_variant(self) -> str:
        """What the method itself runs, without the stages."""
        return self.method_plugin.variant(self)

    @property
    def method_plugin(self) -> Method[RunConfig]:
        return METHODS.get(self.method)

    @property
    def stages(self) -> tuple[Stage[RunConfig], ...]:
        """The registered stages this configuration switches on, in order."""
        return tuple(stage for stage in STAGES if stage.active(self))

    def summaries_read(self) -> tuple[SummaryConfig, ...]:
        """Every set of summaries the method and its stages read (for cost estimates and records)."""
        parts = [self.method_plugin.summaries(self), *(stage.summaries(self) for stage in self.stages)]
        return tuple(dict.fromkeys(p for p in parts if p is not None))

    def columns(self) -> dict[str, object]:
        """Flat config values for result tables (no secrets exist in the config)."""
        defaults = {f.name: f.default for f in fields(self) if f.name in self.LATER}
        flat = {
            k: v
            for k, v in asdict(self).items()
            if k not in ("summary", "ks", "datasets", "options") and not (k in self.LATER and v == defaults[k])
        }
        flat.update(datasets=",".join(self.datasets), model=model_id(self.model), variant=self.variant)
        summaries = bool(self.summaries_read())
        for key, value in self.summary.columns().items():
            flat[f"summary_{key}"] = value if summaries else None
        for key, value in self.options:  # only when set
            flat[f"option_{key.replace('.', '_')}"] = value
        return flat

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON values (a sweep folder's ``cells.jsonl`` keeps it); :meth:`from_dict` inverts it."""
        out = asdict(self)
        out["summary"] = {k: (str(v) if isinstance(v, Path) else v) for k, v in out["summary"].items()}
        out.update(datasets=list(self.datasets), ks=list(self.ks), options=dict(self.options))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunConfig:
        """The configuration :meth:`to_dict` wrote (ValueError names an unknown or bad field)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"invalid configuration: unknown field(s) {', '.join(unknown)}")
        summary = dict(data.get("summary") or {})
        if summary.get("summary_file"):
            summary["summary_file"] = Path(summary["summary_file"])
        try:
            return cls(**{
                **data, "datasets": tuple(data["datasets"]), "ks": tuple(data["ks"]),
                "summary": SummaryConfig(**summary), "options": dict(data.get("options") or {}),
            })  # fmt: skip
        except (KeyError, TypeError) as e:
            raise ValueError(f"invalid configuration: {e}") from None

    def with_(self, **changes: object) -> RunConfig:
        return replace(self, **changes)  # type: ignore[arg-type]  # checked by __post_init__

    def dense_kind(self, chunks: int) -> str:
        """``flat`` or ``hnsw`` for a pool of ``chunks`` chunks."""
        if self.dense_index != "auto":
            return self.dense_index
        return "hnsw" if chunks >= self.ann_threshold else "flat"
