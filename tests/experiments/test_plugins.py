"""The plug-in registry and plug-in options: names, defaults, validation, columns, sweep files."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from sac_core.experiments import METHODS, STAGES, Method, OpenContext, Opened, RunConfig, Stage, load_sweep
from sac_core.experiments.config import parse_option
from sac_core.experiments.plugins import Registry, SearchOnly
from sac_core.experiments.sweep import SweepError


@dataclass(frozen=True)
class EchoOptions:
    depth: int = 3
    mode: str = "plain"

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError("depth must be >= 1")


class Echo(Method[RunConfig]):
    name = "echo"
    title = "Echo"
    Options = EchoOptions

    def variant(self, config: RunConfig) -> str:
        return f"echo{config.plugin_options(self.name, EchoOptions).depth}"

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        raise NotImplementedError


@pytest.fixture
def echo() -> Iterator[Echo]:
    method = METHODS.register(Echo())
    yield method
    METHODS.unregister(method.name)


def test_built_in_plugins_and_the_default_method():
    assert METHODS.names()[:2] == ("baseline", "sac") and METHODS.default == "baseline"
    assert {"split", "prior", "gate", "within_doc"} <= set(STAGES.names())
    assert RunConfig().method == "baseline" and RunConfig(method="sac").method_plugin.title == "SAC"
    with pytest.raises(ValueError, match="method must be one of baseline, sac"):
        RunConfig(method="nope")


def test_a_registry_names_what_is_missing():
    registry: Registry[Echo] = Registry("thing")
    with pytest.raises(KeyError, match="unknown thing 'x'; registered: none"):
        registry.get("x")
    with pytest.raises(LookupError, match="no default thing"):
        _ = registry.default
    registry.register(Echo(), default=True)
    assert registry.default == "echo" and list(registry) == [registry.get("echo")] and len(registry) == 1


def test_options_are_typed_validated_and_sorted(echo):
    config = RunConfig(method="echo", options={"echo.mode": "x", "echo.depth": 5})
    assert config.options == (("echo.depth", 5), ("echo.mode", "x"))
    assert config.plugin_options("echo", EchoOptions) == EchoOptions(5, "x")
    assert RunConfig(method="echo").plugin_options("echo", EchoOptions) == EchoOptions()  # defaults
    assert config.variant == "echo5"
    assert config == RunConfig(method="echo", options=(("echo.depth", 5), ("echo.mode", "x")))
    with pytest.raises(ValueError, match="echo takes depth, mode"):
        RunConfig(options={"echo.width": 2})
    with pytest.raises(ValueError, match=r"not '<method or stage>\.<field>' of a registered plug-in"):
        RunConfig(options={"nope.depth": 2})
    with pytest.raises(ValueError, match="baseline takes no options"):
        RunConfig(options={"baseline.depth": 2})
    with pytest.raises(ValueError, match="options of echo: depth must be >= 1"):
        RunConfig(options={"echo.depth": 0})


def test_options_are_columns_only_when_set_to_other_than_their_default(echo):
    assert not any(c.startswith("option_") for c in RunConfig().columns())
    columns = RunConfig(method="echo", options={"echo.depth": 2}).columns()
    assert columns["option_echo_depth"] == 2 and columns["variant"] == "echo2"
    default = EchoOptions().depth
    assert RunConfig(method="echo", options={"echo.depth": default}) == RunConfig(method="echo")


def test_a_config_round_trips_through_its_dict(echo):
    config = RunConfig(method="echo", options={"echo.depth": 2, "split.on": True, "prior.weight": 2.0}, ks=(1, 8))
    assert RunConfig.from_dict(config.to_dict()) == config
    with pytest.raises(ValueError, match="unknown field"):
        RunConfig.from_dict({**config.to_dict(), "colour": "red"})


def test_an_option_from_the_command_line_takes_the_fields_type(echo):
    assert parse_option("echo.depth=7") == ("echo.depth", 7)
    assert parse_option("echo.mode=fast") == ("echo.mode", "fast")
    with pytest.raises(ValueError, match="needs a int"):
        parse_option("echo.depth=many")
    with pytest.raises(ValueError, match=r"not <plug-in>\.<field>=<value>"):
        parse_option("echo.depth")


def test_sweep_files_set_plugin_options(echo, tmp_path: Path):
    sweep = tmp_path / "s.toml"
    sweep.write_text('[base]\nprotocol = "full"\n[[grid]]\nmethod = ["echo"]\n"echo.depth" = [1, 2]\n', "utf-8")
    cells = load_sweep(sweep).cells
    assert [c.plugin_options("echo", EchoOptions).depth for c in cells] == [1, 2]
    assert all(c.stages == () for c in cells)
    sweep.write_text('[[grid]]\n"echo.depth" = [0]\n', "utf-8")
    with pytest.raises(SweepError, match=r"s.toml \[\[grid\]\] #1: .*depth must be >= 1"):
        load_sweep(sweep)


class Early(Stage[RunConfig]):
    """A stage registered last that declares it applies first."""

    name = "early"
    order = 5.0

    def active(self, config: RunConfig) -> bool:
        return config.method == "echo"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        return opened


def test_stages_apply_in_their_declared_order_not_the_order_registered(echo):
    signals = (
        "split",
        "prior",
        "doc_bm25",
        "doc_names",
        "doc_profile",
        "gate",
        "route",
        "sections",
        "entities",
        "expansion",
        "rerank",
    )
    assert STAGES.names() == (*signals, "within_doc", "small_to_big", "trim")
    assert [stage.order for stage in STAGES] == sorted(stage.order for stage in STAGES)
    STAGES.register(Early())
    try:
        assert STAGES.names()[0] == "early" and next(iter(STAGES)).name == "early"
        config = RunConfig(method="echo", options={"prior.weight": 1.0, "trim.on": True})
        assert [stage.name for stage in config.stages] == ["early", "prior", "trim"]
    finally:
        STAGES.unregister("early")


def test_a_ranker_that_does_not_subclass_ranker_gets_every_default_capability():
    """Opened takes a bare ``search`` object as SearchOnly: callers ask it the same members as any ranker."""

    class Bare:
        pool = "not declared through Ranker"

        def search(self, queries, k, *, progress=False):
            return [[] for _ in queries]

    opened = Opened(Bare())
    ranker = opened.ranker
    assert isinstance(ranker, SearchOnly) and ranker.search(["a", "b"], 3) == [[], []]
    assert ranker.pool is None and ranker.embedder is None and ranker.chunk_index() is None
    assert ranker.chunk_vectors() is None and ranker.document_evidence(["a"]) == [False]
    assert ranker.sentences_read() == 0 and ranker.search_queries([], 3) == []
    declared = Opened(SearchOnly(Bare())).ranker
    assert isinstance(declared.inner, Bare)  # a Ranker is kept as it is
