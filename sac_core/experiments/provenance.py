"""Which code made a result: the package version and, run from a checkout, the git commit and
whether the working tree had uncommitted changes ("dirty").

Every computed sweep cell keeps the provenance of the process that computed it; republishing a
cached cell keeps that record (so a sweep folder is reproduced byte for byte). A value that could
not be known is an empty string, never a guess.
"""

from __future__ import annotations

import subprocess
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from ..engine import store

PACKAGE = "sac-dashboard"
COLUMNS = ("sac_version", "git_commit", "git_dirty")  # result-table columns, in this order
# What "dirty" looks at: the code and what installs it (new result folders being written do not count).
CODE = ("sac_core", "pyproject.toml")


@dataclass(frozen=True)
class Provenance:
    """``git_dirty``: ``"yes"``, ``"no"`` or ``""`` (not run from a checkout, or unknown)."""

    sac_version: str = ""
    git_commit: str = ""  # 40 hex digits, or ""
    git_dirty: str = ""

    def columns(self) -> dict[str, str]:
        return asdict(self)

    def describe(self) -> str:
        """One line for people, e.g. ``sac-dashboard 0.1.0, commit 1a2b3c4d5e6f (uncommitted changes)``."""
        parts = [f"sac-dashboard {self.sac_version or 'unknown version'}"]
        if self.git_commit:
            dirty = {"yes": " (uncommitted changes)", "no": ""}.get(self.git_dirty, " (working tree unknown)")
            parts.append(f"commit {self.git_commit[:12]}{dirty}")
        return ", ".join(parts)


def _git(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@lru_cache(maxsize=1)
def current() -> Provenance:
    """This process's code: asked once (git is run at most twice)."""
    sac_version = store.library_version(PACKAGE)
    here = Path(__file__).resolve()
    top = _git(["rev-parse", "--show-toplevel"], here.parent)
    if top is None or (Path(top) / "sac_core" / "experiments" / here.name).resolve() != here:
        return Provenance(sac_version)  # installed, not a checkout of this project (or no git)
    commit = _git(["rev-parse", "HEAD"], Path(top)) or ""
    status = _git(["status", "--porcelain", "--", *CODE], Path(top)) if commit else None
    dirty = "" if status is None else ("yes" if status else "no")
    return Provenance(sac_version, commit, dirty)
