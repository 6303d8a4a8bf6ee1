"""``sac`` answers bad arguments at once, in one line, and loads no heavy library before parsing."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from sac_core.cli import main, run
from sac_core.cli.options import run_config
from sac_core.dashboard.compare import open_column
from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import Embedder
from sac_core.experiments import RunConfig, catalogue_columns, default_keys

HEAVY = (
    "torch", "sentence_transformers", "transformers", "faiss", "onnxruntime", "umap", "sklearn", "plotly",
    "pandas", "scipy", "openai", "langchain_text_splitters", "sqlalchemy", "playwright",
)  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["evaluate", "--k", "x"], "sac evaluate: error: Invalid value for '--k': takes comma-separated integers"),
        (["report"], "sac report: error: Missing argument 'RESULTS...'"),
        (["sweep"], "sac sweep: error: Missing option '--config'"),
        (["review", "export"], "sac review: error: export needs --session NAME"),
        (["evaluate", "--method", "nope"], "sac evaluate: error: Invalid value for '--method': 'nope' is not one of"),
        (
            ["evaluate", "--option", "prior.weight=x"],
            "sac evaluate: error: Invalid value for '--option': option 'prior.weight' needs a float",
        ),
        (["bench", "--parts", "memory,nope"], "sac bench: error: Invalid value for '--parts': unknown nope"),
        (["bench", "--sessions", "1,x"], "sac bench: error: Invalid value for '--sessions': '1,x' is not a comma"),
        (["bench", "--sessions", "1,40"], "sac bench: error: Invalid value for '--sessions': '1,40': 1 to 8 rounds"),
        (["evaluate", "--option", "nope.x=1"], "sac evaluate: error: Invalid value for '--option': option 'nope.x'"),
        (["evaluate", "--option", "within_doc.bm25=x"], "sac evaluate: error: Invalid value for '--option': option"),
        (["nope"], "sac: error: No such command 'nope'"),
    ],
)
def test_an_argument_error_is_one_line_and_a_hint_never_the_usage_block(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 2, captured.err
    assert lines[0].startswith(message), lines[0]
    assert lines[1].startswith("(see sac") and lines[1].endswith("--help)")
    assert "Usage:" not in captured.err


@pytest.mark.slow  # a fresh python process per case
@pytest.mark.parametrize("argv", [["--help"], ["evaluate", "--help"], ["review", "export"], ["evaluate", "--k", "x"]])
def test_help_and_argument_errors_import_no_heavy_library(argv) -> None:
    """What makes ``sac --help`` take seconds (torch, pandas, SQLAlchemy …) is loaded only by the work."""
    code = (
        "import json, sys\n"
        "from sac_core.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_help_lists_every_command_with_defaults_read_from_the_run_config(capsys) -> None:
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    for command in ("evaluate", "index", "summarize", "sweep", "report", "demo", "ingest", "heldout",
                    "separation", "review", "bench", "screenshots"):  # fmt: skip
        assert f"  {command} " in listed
    assert main(["evaluate", "--help"]) == 0
    flags = " ".join(capsys.readouterr().out.split())
    assert "--chunk-size INTEGER characters of the document per chunk [default: 500]" in flags
    assert "[default: (1,2,4,8,16,32,64)]" in flags and "--fusion-depth INTEGER" in flags
    # every registered plug-in's options, with the help their Options dataclasses give
    assert "Plug-in options (--option NAME=VALUE):" in flags
    assert "prior.weight float, default 0.0: added to a chunk's cosine" in flags and "within_doc.on bool" in flags


def test_index_also_embeds_the_benchmark_queries_so_compare_needs_no_model_for_them(demo_dir, embed_cache, capsys):
    argv = ["index", "--data", str(demo_dir), "--protocol", "full", "--method", "baseline", "--backend", "torch",
            "--cache-dir", str(embed_cache), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    bench = load_benchmark(demo_dir, ("demo_nda", "demo_privacy"), "full")
    assert f"{len(bench.queries):,} benchmark queries (torch): " in capsys.readouterr().out
    embedder = Embedder("sentence-transformers/all-MiniLM-L6-v2", embed_cache, backend="torch")
    embedder.encode([q.text for q in bench.queries], progress=False)
    assert embedder.encoded == 0  # every query's vector is in the cache
    assert main(argv) == 0
    assert f"{len(bench.queries):,} benchmark queries (torch): 0 embedded now" in capsys.readouterr().out


def test_index_builds_every_default_column_recommended_included(demo_dir, embed_cache, tmp_path, capsys):
    """Issue 45: `sac index` prepares whatever the default Compare, Map and Review columns open (the
    recommended method among them: its index and its clause exemplars), so the page builds nothing."""
    cache = tmp_path / "cache"
    (cache / "embeddings").mkdir(parents=True)
    earlier = embed_cache / "embeddings"  # the model's vectors of earlier tests, if any: quicker, same result
    for item in earlier.iterdir() if earlier.is_dir() else ():
        (cache / "embeddings" / item.name).symlink_to(item)
    argv = ["index", "--data", str(demo_dir), "--protocol", "full", "--cache-dir", str(cache), "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    base = run_config({"protocol": "full", "datasets": "all"}, demo_dir)
    assert default_keys(base) == ("baseline", "sac-generic", "recommended")
    assert "what its stages read is ready" in out
    bench = load_benchmark(demo_dir, base.datasets, "full")
    for column in catalogue_columns(base):  # as the dashboard opens them: never building (NotBuilt otherwise)
        embedder = Embedder(column.config.model, cache, backend=column.config.backend)
        ranker, _ = open_column(bench, column.config, demo_dir, cache, embedder)
        assert ranker.search(bench.queries[0].text, 4), column.name


def test_every_setting_of_a_run_is_an_option_of_sac_evaluate() -> None:
    """CONTRIBUTING's promise: a RunConfig field is an option of the CLI (its default read from RunConfig)."""
    settings = {f.name for f in dataclasses.fields(RunConfig)} - {"summary"}  # the summary: --provider, --chars …
    options = {p.name: p for p in run.evaluate_command.params}
    assert settings <= set(options), settings - set(options)
    defaults = RunConfig()
    for name in ("dense_index", "ann_threshold", "hnsw_m", "ef_search", "chunk_size", "semantic_weight"):
        assert options[name].default == getattr(defaults, name), name
    index_options = {p.name for p in run.index_command.params}
    assert {"dense_index", "ann_threshold", "hnsw_m", "chunker", "model"} <= index_options


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["--plugin", "no_such_plugin", "evaluate", "--help"], "", "plug-in module 'no_such_plugin' (--plugin)"),
        (["evaluate", "--help"], "json, no_such_plugin", "plug-in module 'no_such_plugin' ($SAC_PLUGINS)"),
    ],
)
def test_a_plugin_that_cannot_be_imported_is_one_line_naming_it(argv, env, message, monkeypatch, capsys) -> None:
    monkeypatch.setenv("SAC_PLUGINS", env)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines() == [
        f"sac: error: {message} cannot be imported: ModuleNotFoundError: No module named 'no_such_plugin'"
    ]


def test_presets_lists_each_key_and_an_unknown_preset_names_the_known_ones(demo_dir, capsys) -> None:
    assert main(["presets", "--data", str(demo_dir)]) == 0
    out = capsys.readouterr().out
    assert "baseline" in out and "(a default Compare column)" in out
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", "--data", str(demo_dir), "--preset", "nope"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Invalid value for '--preset': unknown preset 'nope'; known: baseline" in err
