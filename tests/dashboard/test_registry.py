"""sac_core.dashboard.registry: objects built once and shared by every session."""

from __future__ import annotations

import threading
import time

import pytest

from sac_core.dashboard import registry as state
from sac_core.experiments import RunConfig


def test_resource_key_resolves_paths_and_uses_config_repr(tmp_path):
    cfg = RunConfig()
    key = state.resource_key("ws", tmp_path / "a" / ".." / "b", cfg)
    assert key == ("ws", str((tmp_path / "b").resolve()), repr(cfg))
    assert key != state.resource_key("ws", tmp_path / "b", cfg.with_(chunk_size=200))


def test_registry_builds_once_and_evicts_the_least_recently_used():
    reg: state.Registry[str] = state.Registry(size=2)
    calls: list[str] = []

    def build(name: str):
        return lambda: calls.append(name) or name.upper()

    assert reg.get("a", build("a")) == "A"
    assert reg.get("a", build("a")) == "A"
    reg.get("b", build("b"))
    reg.get("a", build("a"))  # a is now the most recent
    reg.get("c", build("c"))  # evicts b
    assert calls == ["a", "b", "c"]
    assert "a" in reg and "c" in reg and "b" not in reg and len(reg) == 2


def test_registry_limits_each_kind_separately():
    reg: state.Registry[str] = state.Registry(size=1, sizes={"column": 3})
    reg.get(("bench", "lbr-mini"), lambda: "bench")
    for name in "abcd":  # five Compare columns would evict the benchmark under one shared limit
        reg.get(("column", name), lambda name=name: name)
    assert ("bench", "lbr-mini") in reg
    assert [k for k in ("a", "b", "c", "d") if ("column", k) in reg] == ["b", "c", "d"]
    reg.get(("bench", "paper"), lambda: "paper")  # a second benchmark replaces the first
    assert ("bench", "lbr-mini") not in reg and len(reg) == 4


def test_registry_stores_nothing_when_the_build_fails():
    reg: state.Registry[int] = state.Registry()
    with pytest.raises(ValueError):
        reg.get("x", lambda: (_ for _ in ()).throw(ValueError("boom")))
    assert "x" not in reg
    assert reg.get("x", lambda: 7) == 7


def test_registry_concurrent_callers_share_one_build():
    reg: state.Registry[object] = state.Registry()
    builds = []

    def slow():
        builds.append(1)
        time.sleep(0.2)
        return object()

    got = []
    threads = [threading.Thread(target=lambda: got.append(reg.get("k", slow))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    assert all(g is got[0] for g in got)
