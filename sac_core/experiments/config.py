"""One frozen dataclass describes an experiment; it is passed down, never read from globals.

Paths of the machine (data and cache directories) are not part of it: the same experiment can
run on any copy of the data. ``method`` names a :class:`~.plugins.Method` of :data:`METHODS`;
the registered :data:`STAGES` its options switch on (the document-aware signals ``split``,
``prior``, …, the passage stages) re-rank it. Every plug-in setting is one option ``"<plug-in>.<field>"`` of its
``Options`` dataclass: one mechanism for sweep files, ``--option`` and result columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from ..engine.chunking import CHUNKERS
from ..engine.data import DATASETS, PROTOCOLS
from ..engine.embedding import BACKENDS, DEFAULT_MODEL, default_backend, model_id
from ..engine.indexes import DENSE_KINDS
from ..engine.metrics import DEFAULT_KS, MODES
from ..engine.summaries import SummaryConfig
from .plugins import Method, Registry, Stage
from .settings import (
    DATA,
    DERIVED,
    INDEX,
    RANKING,
    SCORING,
    SUMMARY_PREFIX,
    default_of,
    help_of,
    option_column,
    setting,
    settings_of,
)

METHODS: Registry[Method[RunConfig]] = Registry("method")  # what RunConfig.method can name
STAGES: Registry[Stage[RunConfig]] = Registry("stage", order=lambda stage: stage.order)  # applied in Stage.order

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


def plugin_options() -> list[tuple[str, str]]:
    """Every option of every registered plug-in as ``("<plug-in>.<field>", "type, default: help")``,
    methods first, then stages in the order they apply (what ``--help`` and the docs list)."""
    out = []
    for plugin in [*METHODS, *STAGES]:
        if plugin.Options is None or not is_dataclass(plugin.Options):
            continue
        for f in fields(plugin.Options):
            default = f.default
            kind = type(default).__name__ if isinstance(default, (bool, int, float)) else "str"
            text = help_of(f)
            out.append((f"{plugin.name}.{f.name}", f"{kind}, default {default!r}" + (f": {text}" if text else "")))
    return out


def _empty(value: object) -> bool:
    """A cell a results table leaves empty (None, NaN, pandas' NA)."""
    try:
        return value is None or bool(value != value)
    except TypeError:
        return True


def _read_back(value: object, default: object) -> OptionValue:
    """An option's value as a results table holds it (``1.0`` of an int, ``"True"``), typed as its default."""
    if isinstance(default, bool):
        return BOOLEANS[str(value).strip().lower()] if isinstance(value, str) else bool(value)
    if isinstance(default, int):
        return int(float(value))  # type: ignore[arg-type]
    if isinstance(default, float):
        return float(value)  # type: ignore[arg-type]
    return str(value)


def column_defaults() -> dict[str, object]:
    """Every settings column a result table may hold (:meth:`RunConfig.columns`), by its default
    value: its type says how a value read back from CSV is typed (``8.0`` of a float option stays a float)."""
    out: dict[str, object] = {f.name: default_of(f) for f, s in settings_of(RunConfig) if s.omit_default}
    out.update(RunConfig().columns())
    for plugin in [*METHODS, *STAGES]:
        if plugin.Options is not None and is_dataclass(plugin.Options):
            out.update({option_column(f"{plugin.name}.{f.name}"): f.default for f in fields(plugin.Options)})
    return out


@dataclass(frozen=True)
class RunConfig:
    """One experiment: every field is a setting (:mod:`.settings`: its scope, help, id rule), so
    result columns, ids, index keys, report rows and the command line all derive from here."""

    protocol: str = setting(
        "lbr-mini", DATA, "which queries: lbr-mini, paper, full or corpus (docs: test sets)", choices=PROTOCOLS
    )
    datasets: tuple[str, ...] = setting(DATASETS, DATA, "'all' or a comma list, e.g. cuad,maud", cli=False)
    seed: int | None = setting(None, DATA, "shuffle seed for protocol paper (None: the paper's f'{dataset}194')")
    method: str = setting("", INDEX, "a registered method (sac presets lists the named settings)", cli=False)
    chunker: str = setting("rcts", INDEX, "how documents are cut into chunks", choices=CHUNKERS)
    chunk_size: int = setting(500, INDEX, "characters of the document per chunk")
    chunk_overlap: int = setting(0, INDEX, "characters two neighbouring chunks share")
    model: str = setting(DEFAULT_MODEL, INDEX, "sentence-transformers name or local path")
    backend: str = setting(
        scope=INDEX, help="embedding runtime (onnx when installed)", factory=default_backend, choices=BACKENDS
    )
    semantic_weight: float = setting(1.0, RANKING, "1 dense only, 0 BM25 only, between: rank fusion of both")
    fusion_depth: int = setting(100, RANKING, "candidates each ranker gives the fusion (at least the largest k)")
    ks: tuple[int, ...] = setting(DEFAULT_KS, SCORING, "cut-offs k", cli=False)
    metric_mode: str = setting("merged", SCORING, "merged, or compat (LegalBench-RAG's unmerged sums)", choices=MODES)
    summary: SummaryConfig = field(default_factory=SummaryConfig)  # the summaries a method or stage reads
    # The dense index: exact ("flat"), approximate ("hnsw"), or "auto" = HNSW from ann_threshold chunks on.
    dense_index: str = setting(
        "auto", INDEX, "exact (flat), approximate (hnsw), or auto: HNSW from --ann-threshold chunks on",
        choices=DENSE_KINDS, omit_default=True,
    )  # fmt: skip
    ann_threshold: int = setting(1_000_000, INDEX, "chunks from which --dense-index auto is HNSW", omit_default=True)
    hnsw_m: int = setting(32, INDEX, "HNSW graph links per vector (efConstruction 200)", omit_default=True)
    ef_search: int = setting(
        128, RANKING, "candidates an HNSW search visits: higher = closer to exact, slower", omit_default=True
    )
    # Parameters of plug-ins: ("<method or stage name>.<field>", value) pairs, kept sorted and only
    # where they differ from the field's default; a mapping is accepted too. In columns() as
    # option_<name>_<field>. A method's options decide its index; a stage's, its ranking.
    options: tuple[tuple[str, OptionValue], ...] = ()

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
        for stage in self.stages:
            try:
                stage.check(self)
            except ValueError as e:
                raise ValueError(f"invalid configuration: {e}") from None

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
        (its fields that differ from their defaults), e.g. ``with_options("within_doc", WithinDocumentSettings(on=True))``."""
        kept = [(k, v) for k, v in self.options if k.partition(".")[0] != name]
        new = [(f"{name}.{f.name}", getattr(options, f.name)) for f in fields(options)]  # type: ignore[arg-type]
        return self.with_(options=(*kept, *new))

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
        """Flat values for result tables (no secrets exist in the config): every setting (one left
        out at its default when it says so), the derived ``variant`` and ``stages`` (the active
        stages' names, in order), the summary settings when anything reads summaries (else None),
        and every plug-in option that is set."""
        flat: dict[str, object] = {}
        for f, s in settings_of(RunConfig):
            value = getattr(self, f.name)
            if f.name == "ks" or (s.omit_default and value == default_of(f)):
                continue
            flat[f.name] = value
        flat.update(datasets=",".join(self.datasets), model=model_id(self.model))
        flat.update(variant=self.variant, stages=",".join(stage.name for stage in self.stages))
        summaries = bool(self.summaries_read())
        for key, value in self.summary.columns().items():
            flat[f"{SUMMARY_PREFIX}{key}"] = value if summaries else None
        for key, value in self.options:  # only when set
            flat[option_column(key)] = value
        return flat

    def scoped(self, *scopes: str) -> dict[str, object]:
        """The result columns (:meth:`columns`) of the settings of ``scopes`` (:mod:`.settings`):
        the RunConfig fields of those scopes, the summary settings with the index, and the options
        of the method (index) or of a stage (ranking); never the derived ones."""
        scope = {f.name: s.scope for f, s in settings_of(RunConfig)}
        for key, _ in self.options:
            scope[option_column(key)] = RANKING if key.partition(".")[0] in STAGES else INDEX
        columns = self.columns()
        for column in columns:
            if column.startswith(SUMMARY_PREFIX):
                scope[column] = INDEX
        return {c: v for c, v in columns.items() if c not in DERIVED and scope[c] in scopes}

    def path_columns(self) -> set[str]:
        """The result columns that hold paths of the machine (the summary file, an option that names
        a folder): ids and index keys leave them out and fingerprint what was read there instead."""
        return {f"{SUMMARY_PREFIX}file", *(option_column(k) for k, _ in self.options if option_is_path(k))}

    @classmethod
    def from_columns(cls, columns: Mapping[str, object]) -> RunConfig:
        """The configuration a result row describes (the inverse of :meth:`columns`, machine paths
        and ``ks`` aside): its RunConfig settings, summary settings and plug-in options, typed as
        their fields; a missing or empty value keeps its default. ValueError names a bad one."""
        present = {k: v for k, v in columns.items() if not _empty(v)}
        values: dict[str, Any] = {}
        for f, _ in settings_of(cls):
            if f.name in present and f.name != "ks":
                default, raw = default_of(f), present[f.name]
                kind: Any = type(default) if default is not None else int
                values[f.name] = tuple(str(raw).split(",")) if f.name == "datasets" else kind(raw)
        summary = {k[len(SUMMARY_PREFIX) :]: v for k, v in present.items() if k.startswith(SUMMARY_PREFIX)}
        keep = ("provider", "prompt", "chars", "temperature", "max_input_tokens")
        summary_changes: dict[str, Any] = {
            k: int(v) if k in ("chars", "max_input_tokens") else v  # type: ignore[call-overload]
            for k, v in summary.items()
            if k in keep
        }
        if "model" in summary:
            summary_changes["model"] = summary["model"]
        options: dict[str, OptionValue] = {}
        for plugin in [*METHODS, *STAGES]:
            if plugin.Options is None or not is_dataclass(plugin.Options):
                continue
            for f in fields(plugin.Options):
                column = option_column(f"{plugin.name}.{f.name}")
                if column in present:
                    options[f"{plugin.name}.{f.name}"] = _read_back(present[column], f.default)
        return cls(**values, summary=SummaryConfig(**summary_changes), options=tuple(sorted(options.items())))

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
