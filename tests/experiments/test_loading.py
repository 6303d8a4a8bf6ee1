"""Plug-ins from outside the repository (sac_core.experiments.loading): $SAC_PLUGINS, entry points
of installed packages (a real ``.dist-info`` folder on the path), one-line errors naming the module."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sac_core.experiments import METHODS, PluginError, load_plugins
from sac_core.experiments.loading import env_modules, import_plugin

PLUGIN = """
from sac_core.experiments import METHODS, Method, Opened

class Listed(Method):
    name = "{name}"
    title = "Listed"

    def open(self, config, ctx):
        raise NotImplementedError

METHODS.register(Listed())
"""


def installed(site: Path, dist: str, entry: str, value: str) -> None:
    """What ``pip install`` leaves for a package with one ``sac_core.plugins`` entry point."""
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[sac_core.plugins]\n{entry} = {value}\n", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    for name in ("listed-a", "listed-b"):
        METHODS.unregister(name)
    for module in ("listed_a", "listed_b"):
        sys.modules.pop(module, None)


def test_env_names_modules_comma_separated_once_each():
    assert env_modules(" a, b ,,a ") == ("a", "b") and env_modules("") == ()


def test_entry_points_then_env_then_named_modules_register_their_methods(site: Path, monkeypatch):
    (site / "listed_a.py").write_text(PLUGIN.format(name="listed-a"), encoding="utf-8")
    (site / "listed_b.py").write_text(PLUGIN.format(name="listed-b"), encoding="utf-8")
    installed(site, "listed-a-dist", "listed", "listed_a")
    monkeypatch.setenv("SAC_PLUGINS", "listed_b")
    assert "listed-a" not in METHODS
    assert load_plugins(["json"]) == ("listed_a", "listed_b", "json")
    assert {"listed-a", "listed-b"} <= set(METHODS.names())
    assert load_plugins(installed=False, environment=False) == ()


def test_a_module_that_cannot_be_imported_is_named_in_one_line(site: Path, monkeypatch):
    (site / "broken_plugin.py").write_text("raise RuntimeError('needs a licence key\\nsecond line')\n", "utf-8")
    with pytest.raises(PluginError) as e:
        import_plugin("broken_plugin", where="--plugin")
    assert str(e.value) == (
        "plug-in module 'broken_plugin' (--plugin) cannot be imported: RuntimeError: needs a licence key"
    )
    installed(site, "gone-dist", "gone", "no_such_module_here")
    monkeypatch.setenv("SAC_PLUGINS", "no_such_plugin")
    with pytest.raises(PluginError, match=r"entry point gone = no_such_module_here of gone-dist cannot be loaded"):
        load_plugins()
    failed: list[PluginError] = []
    assert load_plugins(["json"], failed=failed) == ("json",)  # the dashboard: the others still load
    assert [str(f).split(" cannot")[0] for f in failed] == [
        "plug-in entry point gone = no_such_module_here of gone-dist",
        "plug-in module 'no_such_plugin' ($SAC_PLUGINS)",
    ]
