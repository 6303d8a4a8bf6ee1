"""The fast lane (``pytest -m "not slow"``, ``make test-fast``) holds unit tests only, and stays so
without a timed test: tests/conftest.py marks slow every test that needs a model, a server, a
database or Ray through its fixtures, and in a fast-lane run fails any test that starts a program,
a worker process, an AppTest run or a model, or imports PyTorch, naming what it did."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CASES = """
import multiprocessing
import subprocess
import sys

import pytest


def test_pure():
    assert sum(range(4)) == 6


def test_asks_git():
    subprocess.run(["git", "--version"], check=True, capture_output=True)


def test_starts_a_program():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_starts_a_worker():
    worker = multiprocessing.get_context("fork").Process(target=int)
    worker.start()
    worker.join()


def test_imports_torch():
    import torch  # the stand-in beside this file: only its name counts


def test_needs_the_model(embed_cache):
    assert embed_cache.is_dir()


def test_needs_postgres(postgres_url):
    pass


@pytest.mark.slow
def test_marked_slow():
    subprocess.run([sys.executable, "-c", "pass"], check=True)
"""


def _pytest(folder: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), str(folder)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *args, str(folder)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    return done.stdout


@pytest.mark.slow  # runs pytest twice in a process of its own
def test_the_fast_lane_fails_a_test_doing_integration_work_and_leaves_out_the_marked_ones(tmp_path: Path) -> None:
    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_cases.py").write_text(CASES, encoding="utf-8")
    (tmp_path / "torch.py").write_text('"""Not PyTorch: a module of that name."""\n', encoding="utf-8")
    fast = _pytest(tmp_path, "-m", "not slow")
    said = {
        state: set(re.findall(rf"^{state} test_cases\.py::(\w+)", fast, re.MULTILINE))
        for state in ("PASSED", "ERROR", "FAILED")
    }
    assert said["ERROR"] == {"test_starts_a_program", "test_starts_a_worker", "test_imports_torch"}, fast
    assert said["PASSED"] - said["ERROR"] == {"test_pure", "test_asks_git"} and not said["FAILED"], fast
    assert f"started the program {Path(sys.executable).name}: mark it @pytest.mark.slow" in fast
    assert "started a worker process: mark it" in fast and "imported torch: mark it" in fast
    assert "3 deselected" in fast  # the model, PostgreSQL and the marked test

    slow = _pytest(tmp_path, "-m", "slow", "--collect-only")
    listed = set(re.findall(r"test_cases\.py::(\w+)", slow))
    assert listed == {"test_needs_the_model", "test_needs_postgres", "test_marked_slow"}, slow
