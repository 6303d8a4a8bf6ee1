"""A tiny sweep on the demo benchmark: cells, cache, resume, partial publication, significance."""

import json
import shutil
import time

import pandas as pd
import pytest

from sac_core.experiments import RunConfig
from sac_core.experiments.sweep import SweepError, load_sweep, run_sweep, significance

SWEEP = """
name = "tiny"
[base]
protocol = "full"
datasets = ["demo_nda", "demo_privacy"]
ks = [1, 4]
"summary.provider" = "file"
[[grid]]
method = ["baseline", "sac"]
"summary.prompt" = ["generic", "expert"]
semantic_weight = [1.0, 0.5]
"""


def test_grid_cells_deduplicate_baselines(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    assert [(c.variant, c.semantic_weight) for c in sweep.cells] == [
        ("baseline", 1.0),
        ("baseline", 0.5),
        ("sac-file-generic-150", 1.0),
        ("sac-file-generic-150", 0.5),
        ("sac-file-expert-150", 1.0),
        ("sac-file-expert-150", 0.5),
    ]


def test_bad_setting_names_the_file_and_grid(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[[grid]]\nchunk_sise = [1]\n")
    with pytest.raises(SweepError, match=r"bad\.toml \[\[grid\]\] #1: unknown setting 'chunk_sise'"):
        load_sweep(path)


def test_sweep_runs_caches_and_publishes_partial_results(demo_dir, embed_cache, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    with pytest.raises(SweepError, match="no cell is cached"):
        run_sweep(sweep, demo_dir, embed_cache, tmp_path / "none", progress=False, cached_only=True)
    first = sweep.__class__(sweep.name, sweep.cells[:2])
    run_sweep(first, demo_dir, embed_cache, tmp_path / "a", progress=False)
    partial = run_sweep(sweep, demo_dir, embed_cache, tmp_path / "b", progress=False, cached_only=True)
    assert partial["cell"].nunique() == 2
    time.sleep(1.1)  # gzip stamps whole seconds: a later write must not change the bytes
    run_sweep(sweep, demo_dir, embed_cache, tmp_path / "b2", progress=False, cached_only=True)
    for name in ("results.csv", "per_query.csv.gz", "significance.csv"):  # republishing is byte-stable
        assert (tmp_path / "b" / name).read_bytes() == (tmp_path / "b2" / name).read_bytes()
    table = run_sweep(sweep, demo_dir, embed_cache, tmp_path / "c", progress=False)
    assert table["cell"].nunique() == 6
    assert set(table["dataset"]) == {"demo_nda", "demo_privacy", "ALL"}
    assert len(table) == 6 * 3 * 2  # cells × datasets × k
    per_query = pd.read_csv(tmp_path / "c" / "per_query.csv.gz")
    assert len(per_query) == 6 * 66 * 2
    sig = pd.read_csv(tmp_path / "c" / "significance.csv")
    pair = sig[
        (sig.variant_a == "baseline")
        & (sig.variant_b == "sac-file-generic-150")
        & (sig.metric == "drm")
        & (sig.k == 4)
        & (sig.semantic_weight == 1.0)
    ]
    assert len(pair) == 1 and pair.iloc[0]["wins"] > pair.iloc[0]["losses"]
    assert len(list((tmp_path / "c" / "runs").glob("*.jsonl.gz"))) == 6


def test_published_cells_count_as_cached_and_republish_byte_for_byte(demo_dir, embed_cache, tmp_path):
    """A committed sweep folder is enough: with an empty cache nothing is recomputed."""
    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    published = tmp_path / "published"
    run_sweep(sweep, demo_dir, embed_cache, published, progress=False)
    copy = tmp_path / "copy"
    shutil.copytree(published, copy)
    empty = tmp_path / "empty-cache"
    table = run_sweep(sweep, demo_dir, empty, copy, progress=False, cached_only=True)
    assert table["cell"].nunique() == 6  # every cell came from the published folder
    assert not (empty / "embeddings").exists()  # no model ran
    for name in ("results.csv", "per_query.csv.gz", "significance.csv"):
        assert (copy / name).read_bytes() == (published / name).read_bytes(), name


def test_a_sweep_reuses_the_cells_another_published_sweep_holds(demo_dir, embed_cache, tmp_path):
    """``reuse = [folder]``: cells with the same id come from that folder; only new cells run."""
    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    published = tmp_path / "published"
    run_sweep(load_sweep(path), demo_dir, embed_cache, published, progress=False)
    other = tmp_path / "sweeps" / "other.toml"
    other.parent.mkdir()
    other.write_text('reuse = ["../published"]\n' + SWEEP)
    sweep = load_sweep(other)
    assert sweep.reuse == (published.resolve(),)
    empty = tmp_path / "empty-cache"
    table = run_sweep(sweep, demo_dir, empty, tmp_path / "out", progress=False, cached_only=True)
    assert table["cell"].nunique() == 6 and not (empty / "embeddings").exists()


def test_rewriting_a_published_folder_keeps_its_cells_whatever_the_cache_holds(demo_dir, embed_cache, tmp_path):
    """The same cell computed elsewhere (another commit, in the cache) never replaces the folder's
    own: rewriting a committed folder with --cached-only gives it back byte for byte."""
    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    first = tmp_path / "first"
    run_sweep(load_sweep(path), demo_dir, embed_cache, first, progress=False)  # the cache now holds every cell
    published = tmp_path / "published"
    shutil.copytree(first, published)
    cells = published / "cells.jsonl"
    cells.write_text(cells.read_text().replace('"git_commit": "', '"git_commit": "feedface'))
    run_sweep(load_sweep(path), demo_dir, embed_cache, published, progress=False, cached_only=True)
    before = cells.read_bytes()
    run_sweep(load_sweep(path), demo_dir, embed_cache, published, progress=False, cached_only=True)
    assert cells.read_bytes() == before and b'"git_commit": "feedface' in before
    assert pd.read_csv(published / "results.csv", dtype=str)["git_commit"].str.startswith("feedface").all()


@pytest.mark.parametrize("with_signals", [False, True])
def test_significance_pairs_variants_only_within_one_backend(with_signals):
    plain, sac = RunConfig(), RunConfig(method="sac")
    configs = {
        "bt": plain.with_(backend="torch"), "st": sac.with_(backend="torch"),
        "bo": plain.with_(backend="onnx"), "so": sac.with_(backend="onnx"),
    }  # fmt: skip
    # two methods with stages: each against the variants without, not against each other; SAC (150-character
    # summaries) and the baseline with a split (no summaries) differ in their summaries and are not paired
    if with_signals:
        configs |= {"xo": plain.with_(backend="onnx", options={"split.on": True}),
                    "yo": sac.with_(backend="onnx", options={"entities.weight": 0.2})}  # fmt: skip
    cells = {c: (config.method, config.backend) for c, config in configs.items()}
    table = pd.DataFrame([{**config.columns(), "cell": c, "dataset": "ALL", "k": 1} for c, config in configs.items()])
    per_query = pd.DataFrame(
        [
            {
                "cell": c,
                "query_id": f"q{i}",
                "dataset": "d",
                "k": 1,
                "drm": float(v == "baseline"),  # the method's name
                "precision": 0.0,
                "recall": 0.0,
                "hit": 0.0,
                "mrr": 0.0,
                "ndcg": 0.0,
            }
            for c, (v, _) in cells.items()
            for i in range(5)
        ]
    )
    sig = significance(table, per_query)
    pairs = sorted(set(zip(sig["a"], sig["b"], sig["backend"])))
    extra = [("bo", "xo", "onnx"), ("bo", "yo", "onnx"), ("so", "yo", "onnx")] if with_signals else []
    assert pairs == sorted([("bo", "so", "onnx"), ("bt", "st", "torch"), *extra])


def test_an_unreadable_cached_cell_counts_as_missing(tmp_path):
    """A cell pickled by an older layout of the code (a dict, or a module gone) is recomputed or re-read, not a crash."""
    from sac_core.experiments.cells import CellCache

    with CellCache(tmp_path) as cache:
        cache._db.set("old", {"results": None})  # what the cache held before cells were typed records
        assert cache.get("old") is None and "old" not in cache


def test_one_grid_table_is_one_grid_and_a_grid_of_another_type_is_named(tmp_path):
    path = tmp_path / "one.toml"
    path.write_text('[base]\nprotocol = "full"\n[grid]\nmethod = ["baseline", "sac"]\n', encoding="utf-8")
    assert [c.method for c in load_sweep(path).cells] == ["baseline", "sac"]
    path.write_text('grid = "baseline"\n', encoding="utf-8")
    with pytest.raises(SweepError, match=r"one.toml: 'grid' must be tables"):
        load_sweep(path)
    path.write_text("base = 3\n", encoding="utf-8")
    with pytest.raises(SweepError, match=r"one.toml: 'base' must be a table"):
        load_sweep(path)


def _copy_demo(demo_dir, to):
    shutil.copytree(demo_dir, to)
    return to


def test_a_reworded_question_or_a_same_length_edit_is_a_new_cell(demo_dir, embed_cache, tmp_path):
    """Issue 31: the same sweep on a copy whose question is reworded (same id and gold), or whose
    document changed at the same length, is recomputed, never answered from the cache; the old
    published cell is listed as stale by --cached-only."""
    path = tmp_path / "one.toml"
    path.write_text('[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\nks = [1, 4]\n')
    sweep = load_sweep(path)
    data = _copy_demo(demo_dir, tmp_path / "data")
    out = tmp_path / "out"
    first = run_sweep(sweep, data, embed_cache, out, progress=False)
    bench_file = data / "benchmarks" / "demo_nda.json"
    raw = json.loads(bench_file.read_text(encoding="utf-8"))
    raw["tests"][0]["query"] = raw["tests"][0]["query"].replace("?", ", in plain words?")
    bench_file.write_text(json.dumps(raw), encoding="utf-8")
    missing: list[str] = []
    with pytest.raises(SweepError, match="no cell is cached"):
        run_sweep(
            sweep,
            data,
            embed_cache,
            out,
            progress=False,
            cached_only=True,
            on_missing=lambda c, why: missing.append(why),
        )
    assert len(missing) == 1 and missing[0].startswith("stale: ") and "data" in missing[0]
    reworded = run_sweep(sweep, data, embed_cache, out, progress=False)
    assert reworded["cell"].iloc[0] != first["cell"].iloc[0]
    assert reworded["data_digest"].iloc[0] != first["data_digest"].iloc[0]
    per_query = pd.read_csv(out / "per_query.csv.gz")
    assert set(per_query["cell"]) == {reworded["cell"].iloc[0]}  # the stale cell is gone from the folder
    doc = data / "corpus" / raw["tests"][1]["snippets"][0]["file_path"]
    text = doc.read_text(encoding="utf-8")
    span = raw["tests"][1]["snippets"][0]["span"]
    outside = next(i for i in range(len(text)) if not span[0] <= i < span[1] and text[i].isalpha())
    swapped = "x" if text[outside] != "x" else "y"
    doc.write_text(text[:outside] + swapped + text[outside + 1 :], encoding="utf-8")  # same length, gold untouched
    edited = run_sweep(sweep, data, embed_cache, out, progress=False)
    assert edited["cell"].iloc[0] not in {first["cell"].iloc[0], reworded["cell"].iloc[0]}


def test_every_row_says_which_code_and_data_made_it(demo_dir, embed_cache, tmp_path):
    path = tmp_path / "one.toml"
    path.write_text('[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\nks = [1, 4]\n')
    table = run_sweep(load_sweep(path), demo_dir, embed_cache, tmp_path / "out", progress=False)
    assert table.columns[-5:].tolist() == ["sac_version", "git_commit", "git_dirty", "data_digest", "cell_seconds"]
    assert (table["sac_version"] == "0.1.0").all() and table["data_digest"].str.fullmatch(r"[0-9a-f]{12}").all()
    assert set(table["git_dirty"].fillna("")) <= {"yes", "no", ""}
    for metric in ("drm", "precision", "recall"):  # every mean carries its interval
        assert (
            (table[metric + "_low"] <= table[metric] + 1e-12) & (table[metric] <= table[metric + "_high"] + 1e-12)
        ).all()
    line = json.loads((tmp_path / "out" / "cells.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert line["cell"] == table["cell"].iloc[0] and line["inputs"]["data"].startswith(table["data_digest"].iloc[0])


def _own_cells(embed_cache, at):
    """A cache folder of its own cells that shares the session's embeddings (nothing is encoded twice)."""
    (embed_cache / "embeddings").mkdir(parents=True, exist_ok=True)
    at.mkdir()
    (at / "embeddings").symlink_to(embed_cache / "embeddings")
    return at


def test_new_cells_are_appended_and_every_file_is_written_once_at_the_end(demo_dir, embed_cache, tmp_path, monkeypatch):
    """Issue 42: a sweep no longer rewrites its folder after each new cell (quadratic output I/O):
    each new cell is appended, so an interruption leaves valid tables of the cells finished, and the
    folder is written whole once, at the end, the same bytes as a republication."""
    from sac_core.experiments import sweep as sweep_module
    from sac_core.experiments.cells import SweepFolder

    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    cache, out = _own_cells(embed_cache, tmp_path / "cache"), tmp_path / "out"
    writes: list[int] = []
    write = SweepFolder.write
    monkeypatch.setattr(SweepFolder, "write", lambda self, records: writes.append(len(records)) or write(self, records))
    evaluate = sweep_module.evaluate_cell

    def interrupted(config, ctx, inputs=None):
        if len(list((out / "runs").glob("*.jsonl.gz"))) == 3:
            raise RuntimeError("interrupted")
        return evaluate(config, ctx, inputs)

    monkeypatch.setattr(sweep_module, "evaluate_cell", interrupted)
    with pytest.raises(RuntimeError, match="interrupted"):
        run_sweep(sweep, demo_dir, cache, out, progress=False)
    assert writes == []  # three cells finished, none rewritten
    finished = SweepFolder(out).read_cells()  # valid tables of the cells finished
    assert len(finished) == 3
    assert set(pd.read_csv(out / "results.csv")["cell"]) == set(finished)
    assert len(pd.read_csv(out / "per_query.csv.gz")) == 3 * 66 * 2  # cells × queries × k
    monkeypatch.setattr(sweep_module, "evaluate_cell", evaluate)
    table = run_sweep(sweep, demo_dir, cache, out, progress=False)  # resumed
    assert writes == [3, 6]  # the cells known before appending the new ones, then the whole folder once
    assert table["cell"].nunique() == 6
    run_sweep(sweep, demo_dir, cache, tmp_path / "again", progress=False, cached_only=True)
    for name in ("results.csv", "per_query.csv.gz", "cells.jsonl", "significance.csv"):
        assert (out / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name


def test_a_cell_of_an_older_plug_in_version_is_stale_then_recomputed(demo_dir, embed_cache, tmp_path, monkeypatch):
    """A published cell is never re-identified: once its plug-in's version changed, ``--cached-only``
    lists it as stale and a sweep recomputes it under its new id; its own payload is left as it was."""
    from sac_core.experiments.methods import BASELINE

    path = tmp_path / "one.toml"
    path.write_text('[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\nks = [1, 4]\n')
    sweep = load_sweep(path)
    cache, out = _own_cells(embed_cache, tmp_path / "cache"), tmp_path / "out"
    old = run_sweep(sweep, demo_dir, cache, out, progress=False)["cell"].iloc[0]
    monkeypatch.setattr(type(BASELINE), "version", BASELINE.version + 1)
    missing: list[str] = []
    with pytest.raises(SweepError, match="no cell is cached"):
        run_sweep(
            sweep, demo_dir, cache, out, progress=False, cached_only=True, on_missing=lambda c, why: missing.append(why)
        )
    assert missing == [f"stale: published cell {old} was made from other plugins"]
    assert json.loads((out / "cells.jsonl").read_text())["cell"] == old  # published as it was, not renamed
    new = run_sweep(sweep, demo_dir, cache, out, progress=False)["cell"].iloc[0]
    entry = json.loads((out / "cells.jsonl").read_text())
    assert new != old and entry["cell"] == new and entry["inputs"]["plugins"]["baseline"]["version"] == BASELINE.version


def test_a_replaced_cell_leaves_neither_its_run_nor_its_empty_columns(demo_dir, embed_cache, tmp_path):
    """When a sweep folder is written anew, the runs of cells it no longer holds are removed and a
    setting column no cell sets any more is gone (a stale cell's renamed option left both behind)."""
    path = tmp_path / "one.toml"
    path.write_text('[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\nks = [1, 4]\n')
    cache, out = _own_cells(embed_cache, tmp_path / "cache"), tmp_path / "out"
    cid = run_sweep(load_sweep(path), demo_dir, cache, out, progress=False)["cell"].iloc[0]
    orphan = out / "runs" / "0123456789abcdef.jsonl.gz"
    orphan.write_bytes((out / "runs" / f"{cid}.jsonl.gz").read_bytes())
    table = pd.read_csv(out / "results.csv")
    table["option_gone_field"] = float("nan")  # as a published table keeps a replaced cell's column
    table.to_csv(out / "results.csv", index=False)
    again = run_sweep(load_sweep(path), demo_dir, cache, out, progress=False)
    assert sorted(p.name for p in (out / "runs").iterdir()) == [f"{cid}.jsonl.gz"]
    assert "option_gone_field" not in again.columns
    assert "option_gone_field" not in pd.read_csv(out / "results.csv", nrows=0).columns
