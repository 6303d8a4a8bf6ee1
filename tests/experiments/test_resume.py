"""kill -9 in the middle of embedding, then a rerun: it resumes from the cache (nothing paid for is
lost beyond the last batch) and gives exactly the results of a run that was never interrupted."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import diskcache
import pandas as pd


def _evaluate(data: Path, cache: Path, out: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sac_core.cli", "evaluate", "--data", str(data), "--protocol", "full",
               "--chunk-size", "200", "--cache-dir", str(cache), "--out", str(out), "--quiet"]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _cached(cache: Path) -> int:
    folder = cache / "embeddings"
    if not (folder / "cache.db").exists():
        return 0
    with diskcache.Cache(str(folder)) as c:
        return len(c)


def test_kill_9_during_embedding_then_rerun_equals_an_uninterrupted_run(
    slow_data: Path, tmp_path: Path, seed_model
) -> None:
    data = slow_data
    seed_model(tmp_path / "cache-a"), seed_model(tmp_path / "cache-b")  # the model exported: each run embeds at once
    killed = _evaluate(data, tmp_path / "cache-a", tmp_path / "a.csv")
    deadline = time.monotonic() + 300
    while _cached(tmp_path / "cache-a") < 64 and time.monotonic() < deadline and killed.poll() is None:
        time.sleep(0.2)
    assert killed.poll() is None, f"finished before it could be killed: {killed.stderr.read().decode()[-2000:]}"
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    kept = _cached(tmp_path / "cache-a")
    assert kept >= 64  # the batches written before the kill survive it

    rerun = _evaluate(data, tmp_path / "cache-a", tmp_path / "a.csv")
    clean = _evaluate(data, tmp_path / "cache-b", tmp_path / "b.csv")
    for proc in (rerun, clean):
        assert proc.wait(timeout=600) == 0, proc.stderr.read().decode()[-2000:]
    total = _cached(tmp_path / "cache-b")
    assert kept < total == _cached(tmp_path / "cache-a")  # the rerun added only what was missing
    metrics = ["dataset", "k", "drm", "precision", "recall", "hit", "mrr", "ndcg"]
    a, b = pd.read_csv(tmp_path / "a.csv")[metrics], pd.read_csv(tmp_path / "b.csv")[metrics]
    pd.testing.assert_frame_equal(a, b)


def _sweep(config: Path, data: Path, cache: Path, out: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sac_core.cli", "sweep", "--config", str(config), "--data", str(data),
               "--cache-dir", str(cache), "--out", str(out)]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_a_killed_sweep_loses_at_most_the_batch_in_flight_and_resumes(
    slow_data: Path, tmp_path: Path, seed_model
) -> None:
    """``sac sweep`` killed (SIGKILL) while it embeds ahead: every block it reported done is in the
    cache (a block is written, then reported), the rerun embeds only what is missing and says how
    much of the whole sweep is left, and the results equal those of a sweep never interrupted."""
    config = tmp_path / "s.toml"
    config.write_text(
        '[base]\nprotocol = "full"\ndatasets = ["gen"]\nchunk_size = 200\n"summary.provider" = "extractive"\n'
        '[[grid]]\nmethod = ["baseline"]\nchunk_overlap = [0, 50]\n',
        encoding="utf-8",
    )
    seed_model(tmp_path / "cache-a"), seed_model(tmp_path / "cache-b")  # the model exported: each run embeds at once
    killed = _sweep(config, slow_data, tmp_path / "cache-a", tmp_path / "a")
    deadline = time.monotonic() + 300
    while _cached(tmp_path / "cache-a") < 96 and time.monotonic() < deadline and killed.poll() is None:
        time.sleep(0.2)
    assert killed.poll() is None, f"finished before it could be killed: {killed.stderr.read().decode()[-2000:]}"
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    kept = _cached(tmp_path / "cache-a")
    said = killed.stderr.read().decode()
    reported = [int(m.replace(",", "")) for m in re.findall(r"embedding for 2 new cells[^:]*: ([\d,]+)/", said)]
    assert max(reported, default=0) <= kept  # nothing reported done was lost: at most the block in flight

    rerun = _sweep(config, slow_data, tmp_path / "cache-a", tmp_path / "a")
    clean = _sweep(config, slow_data, tmp_path / "cache-b", tmp_path / "b")
    for proc in (rerun, clean):
        assert proc.wait(timeout=900) == 0, proc.stderr.read().decode()[-2000:]
    total = _cached(tmp_path / "cache-b")
    assert kept < total == _cached(tmp_path / "cache-a")  # the rerun embedded only what was missing
    a = pd.read_csv(tmp_path / "a" / "results.csv")
    b = pd.read_csv(tmp_path / "b" / "results.csv")
    metrics = ["cell", "dataset", "k", "drm", "precision", "recall", "hit", "mrr", "ndcg"]
    pd.testing.assert_frame_equal(a[metrics], b[metrics])
