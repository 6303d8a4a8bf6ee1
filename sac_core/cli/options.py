"""What the commands share: the options of the data, the index, the summaries and the executor, their value
types, and the one helper that turns parsed options into a :class:`RunConfig`. Every default and choice is read
from the configuration classes and the registries (:class:`RunConfig`, :class:`SummaryConfig`, :class:`Executor`,
:data:`METHODS`, ``PROTOCOLS`` …), never written here a second time. Importing this module loads no heavy library
(no torch, pandas, FAISS …): ``sac --help`` and argument errors answer at once."""

from __future__ import annotations

import dataclasses
import importlib
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from ..engine.data import CACHE_ENV, DATA_ENV, default_cache_dir, parse_datasets, resolve_data_dir
from ..engine.summaries import PROVIDERS, SummaryConfig
from ..experiments import METHODS, RunConfig
from ..experiments.config import plugin_options
from ..experiments.executors import EXECUTORS, Executor
from ..experiments.settings import INDEX as INDEX_SCOPE
from ..experiments.settings import RANKING as RANKING_SCOPE
from ..experiments.settings import SCORING as SCORING_SCOPE
from ..experiments.settings import default_of, setting_of, settings_of
from .params import Ks, OptionType, Registered

F = TypeVar("F", bound=Callable[..., Any])
RUN = RunConfig()  # the defaults of a run, field by field
SUMMARY = SummaryConfig()
EXECUTOR = Executor()
PATH = click.Path(path_type=Path)
FILE = click.Path(path_type=Path, exists=True, dir_okay=False)  # an input file: missing → a one-line error


def stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """Several click options applied as one decorator, in the order written (as ``--help`` lists them)."""

    def apply(f: F) -> F:
        for decorator in reversed(decorators):
            f = decorator(f)
        return f

    return apply


QUIET = click.option("--quiet", is_flag=True, help="no progress bars")
CACHE = click.option("--cache-dir", type=PATH, help=f"default: ${CACHE_ENV} or ./cache")
DATA_DIR = click.option("--data", help=f"LegalBench-RAG directory (default: ${DATA_ENV})")
DATASETS = click.option("--datasets", default="all", show_default=True, help="'all' or comma list, e.g. cuad,maud")


def setting_option(name: str, **changes: Any) -> Callable[[F], F]:
    """The click option of RunConfig setting ``name``, from its :class:`Setting` (help, choices)
    and default; ``changes``: what a command spells otherwise (no default, its own help)."""
    f = next(f for f, _ in settings_of(RunConfig) if f.name == name)
    found = setting_of(f)
    assert found is not None
    default = default_of(f)
    kind = click.Choice(found.allowed()) if found.allowed() else type(default) if default is not None else int
    attrs: dict[str, Any] = {"type": kind, "default": default, "show_default": default is not None}
    attrs["help"] = found.help
    return click.option(f"--{name.replace('_', '-')}", **{**attrs, **changes})


def scope_options(*scopes: str) -> Callable[[F], F]:
    """The options of every RunConfig setting of ``scopes`` offered on the command line, in order."""
    return stack(*(setting_option(f.name) for f, s in settings_of(RunConfig) if s.scope in scopes and s.cli))


METHOD = setting_option("method", default=METHODS.default, type=Registered(METHODS))
SEED = setting_option("seed")
PROTOCOL = setting_option("protocol")
DATA = stack(DATA_DIR, PROTOCOL, DATASETS, SEED, CACHE, QUIET)
# DATA for a run file: without --protocol, the smallest protocol holding every query the run names
RUN_DATA = stack(
    DATA_DIR,
    setting_option(
        "protocol",
        default=None,
        show_default=False,
        help="default: the smallest of lbr-mini, paper and full that holds every query the run names, so every "
        "line is scored",
    ),
    DATASETS,
    SEED,
    CACHE,
    QUIET,
)
INDEX = scope_options(INDEX_SCOPE)  # the settings that decide what an index holds
RANKING = stack(  # how a built index ranks, and how it is scored
    scope_options(RANKING_SCOPE),
    click.option("--k", "ks", type=Ks(), default=RUN.ks, show_default=",".join(map(str, RUN.ks)), help="cut-offs"),
    scope_options(SCORING_SCOPE),
    click.option(
        "--option",
        "options",
        type=OptionType(),
        multiple=True,
        help="a registered plug-in's option (repeatable), e.g. within_doc.on=true; every option is listed below",
    ),
)
SUMMARIES = stack(
    click.option(
        "--provider",
        type=click.Choice(PROVIDERS),
        help="summary source (default: file if --summary-file or <data>/summaries/llm.jsonl exists, "
        "else openai if OPENAI_API_KEY is set, else extractive)",
    ),
    click.option(
        "--prompt", default=SUMMARY.prompt, show_default=True, help="generic | expert | path to a prompt JSON file"
    ),
    click.option(
        "--chars", type=int, default=SUMMARY.chars, show_default=True, help="target summary length in characters"
    ),
    click.option("--summary-file", type=PATH, help="JSONL of summaries for --provider file"),
    click.option("--llm-model", default=SUMMARY.model, show_default=True, help="model name for --provider openai"),
    click.option("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)"),
    click.option(
        "--concurrency",
        type=int,
        default=SUMMARY.concurrency,
        show_default=True,
        help="parallel requests for --provider openai",
    ),
)
LLM = stack(  # settings of the openai provider that only `sac summarize` exposes (evaluate uses the defaults)
    click.option("--temperature", type=float, default=SUMMARY.temperature, show_default=True),
    click.option(
        "--max-length-retries",
        "max_retries_length",
        type=int,
        default=SUMMARY.max_retries_length,
        show_default=True,
        help="re-asks, each 20 characters shorter",
    ),
    click.option(
        "--max-input-tokens",
        type=int,
        default=SUMMARY.max_input_tokens,
        show_default=True,
        help="longer documents: head + tail",
    ),
    click.option(
        "--api-retries",
        "max_retries_api",
        type=int,
        default=SUMMARY.max_retries_api,
        show_default=True,
        help="retries on 429, 5xx and timeouts",
    ),
    click.option("--timeout", type=float, default=SUMMARY.timeout, show_default=True, help="seconds per request"),
    click.option(
        "--price-input",
        "price_input_per_m",
        type=float,
        default=SUMMARY.price_input_per_m,
        show_default=True,
        help="USD per 1M input tokens",
    ),
    click.option(
        "--price-output",
        "price_output_per_m",
        type=float,
        default=SUMMARY.price_output_per_m,
        show_default=True,
        help="USD per 1M output tokens",
    ),
)
EXECUTION = stack(
    click.option(
        "--executor",
        default=EXECUTOR.kind,
        type=click.Choice(EXECUTORS),
        show_default=True,
        help="where summaries and embeddings are computed: this process, or Ray (pip install .[scale])",
    ),
    click.option("--ray-address", help="an existing Ray cluster (default: start a local Ray instance)"),
    click.option("--ray-workers", type=int, help="CPUs of the local Ray instance (default: all)"),
    click.option(
        "--partitions",
        type=int,
        default=EXECUTOR.partitions,
        show_default=True,
        help="tasks per job (documents are split among them)",
    ),
)


class PluginHelp(click.Command):
    """A command whose ``--help`` ends with every registered plug-in's options (``--option``),
    read when the help is shown, so plug-ins loaded by ``--plugin`` or entry points are listed too."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        with formatter.section("Plug-in options (--option NAME=VALUE)"):
            formatter.write_dl(plugin_options())


def say(message: str) -> None:
    """A note on stderr (what was loaded, built or saved; what is skipped); results go to stdout."""
    print(message, file=sys.stderr)


def data_dir_of(params: Mapping[str, Any]) -> Path:
    """``--data``, else ``$SAC_DATA_DIR``: a checked LegalBench-RAG folder."""
    return resolve_data_dir(params.get("data"))


def optional_data_dir(params: Mapping[str, Any]) -> Path | None:
    """:func:`data_dir_of`, or None when neither ``--data`` nor ``$SAC_DATA_DIR`` names one."""
    return data_dir_of(params) if (params.get("data") or os.environ.get(DATA_ENV)) else None


def cache_dir_of(params: Mapping[str, Any]) -> Path:
    return params.get("cache_dir") or default_cache_dir()


def summary_config(params: Mapping[str, Any], data_dir: Path) -> SummaryConfig:
    """The summary options as a SummaryConfig (options named after its fields; ``--llm-model`` is its
    ``model``); without ``--provider``: file if a summary file is there, openai with a key, else extractive."""
    provider = params.get("provider")
    if provider is None:
        if params.get("summary_file") or (data_dir / "summaries" / "llm.jsonl").exists():
            provider = "file"
        else:
            provider = "openai" if os.environ.get("OPENAI_API_KEY") else "extractive"
    names = {f.name for f in dataclasses.fields(SummaryConfig)} - {"provider", "model"}
    values = {k: v for k, v in params.items() if k in names and v is not None}
    if params.get("llm_model"):
        values["model"] = params["llm_model"]
    return SummaryConfig(provider=provider, **values).resolved(data_dir)


def run_config(params: Mapping[str, Any], data_dir: Path, **fixed: Any) -> RunConfig:
    """The RunConfig the options say: every option named after a RunConfig field (an option not
    given keeps the field's default), the datasets read against ``data_dir`` and the summary
    options; ``fixed``: fields the command sets itself."""
    names = {f.name for f in dataclasses.fields(RunConfig)} - {"datasets", "summary"}
    values = {k: v for k, v in params.items() if k in names and v is not None}
    summary = fixed.pop("summary", None) or summary_config(params, data_dir)
    datasets = parse_datasets(params.get("datasets") or "all", data_dir)
    return RunConfig(**{**values, **fixed}, datasets=datasets, summary=summary)


def executor_of(params: Mapping[str, Any]) -> Executor:
    return Executor(params["executor"], params["ray_address"], params["ray_workers"], params["partitions"])


def deferred(target: str) -> Callable[..., Any]:
    """The function ``"package.module:name"``, imported when first called. The two commands whose
    work needs the dashboard (``sac review``: SQLAlchemy; ``sac screenshots``: Plotly, a browser)
    parse their arguments without loading it, so their ``--help`` and argument errors answer at
    once; ``tests/test_architecture.py`` checks every target exists and stays in the cli or tooling."""
    module, _, name = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call
