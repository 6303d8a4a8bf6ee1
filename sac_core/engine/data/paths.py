"""Where the data and the caches are: ``--data`` / ``$SAC_DATA_DIR``, ``$SAC_CACHE_DIR``, and the
folders a shared server may read (``$SAC_DATA_ROOT``).

Every way a data directory can be unusable (missing, a file, a broken link, no permission, a path
too long or with a NUL character, outside the allowed roots) is one :class:`BenchmarkError` whose
message names the path exactly as it was given, and never the roots themselves.

Confinement covers what is read, not only the folder a user typed: every file and folder read
under a root (documents, benchmark JSON, the summaries file, the corpus listing, ingest manifests)
goes through :func:`confined`, which resolves it (symbolic links and ``..``) and refuses it when it
lies outside every root.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

from .types import BenchmarkError

DATA_ENV = "SAC_DATA_DIR"
CACHE_ENV = "SAC_CACHE_DIR"
DATA_ROOT_ENV = "SAC_DATA_ROOT"


def default_cache_dir() -> Path:
    """``$SAC_CACHE_DIR`` or ``./cache``."""
    return Path(os.environ.get(CACHE_ENV, "cache"))


def data_roots(value: str | None = None) -> tuple[Path, ...]:
    """The allowed data folders: ``value`` or ``$SAC_DATA_ROOT``, several separated by ``os.pathsep``
    (``:``), each resolved (links and ``..``). Empty: no confinement."""
    raw = os.environ.get(DATA_ROOT_ENV, "") if value is None else value
    return tuple(Path(os.path.realpath(Path(p).expanduser())) for p in raw.split(os.pathsep) if p.strip())


OUTSIDE = "outside the folders this server may read"


def _inside(real: str, roots: Sequence[Path]) -> bool:
    return any(real == str(root) or Path(real).is_relative_to(root) for root in roots)


def confined(path: str | os.PathLike[str], *, roots: Sequence[Path] | None = None) -> Path:
    """``path`` once it may be read: when reads are confined (``roots``, default ``$SAC_DATA_ROOT``)
    and ``path`` lies under a root (a folder on its way resolves inside one), what it resolves to
    (symbolic links and ``..`` followed) must lie inside a root too.

    Raises :class:`BenchmarkError` naming ``path`` as given (never the roots). A path under no root
    (the demo corpus in the cache, a command-line run on other data) is returned unchecked: nobody
    chose it through the confined field.
    """
    allowed = data_roots() if roots is None else tuple(roots)
    given = Path(path)
    if not allowed:
        return given
    try:
        if _inside(os.path.realpath(given), allowed):
            return given
        full = given if given.is_absolute() else Path.cwd() / given
        under = any(_inside(os.path.realpath(folder), allowed) for folder in full.parents)
    except (OSError, ValueError):  # a NUL character, a link loop: not readable either way
        raise BenchmarkError(f"{path}: not a readable path") from None
    if under:
        raise BenchmarkError(f"{path}: {OUTSIDE}")
    return given


def _stat_problem(path: Path) -> str | None:
    """Why ``path`` cannot be used as a folder, or None."""
    try:
        os.stat(path)
    except ValueError:  # os.stat's own complaint: an embedded NUL character
        return "not a valid path (it contains a NUL character)"
    except OSError as e:
        if e.errno == errno.ENAMETOOLONG:
            return f"path too long ({len(str(path))} characters)"
        if e.errno == errno.EACCES:
            return "permission denied"
        if e.errno == errno.ELOOP:
            return "too many levels of symbolic links"
        if e.errno in (errno.ENOENT, errno.ENOTDIR):
            return "a broken symbolic link" if os.path.islink(path) else "no such folder"
        return e.strerror or type(e).__name__
    if not os.path.isdir(path):
        return "is a file, not a folder"
    return None


def project_root() -> Path:
    """The folder of this project's source tree (the one holding ``sac_core/``)."""
    return Path(__file__).resolve().parents[3]


def check_outside_project(out_dir: Path) -> None:
    """Raise :class:`BenchmarkError` when ``out_dir`` (links and ``..`` resolved) lies inside the
    project: derived benchmark folders link to the data and must never enter the repository."""
    real, root = Path(os.path.realpath(out_dir)), project_root()
    if real == root or real.is_relative_to(root):
        raise BenchmarkError(f"{out_dir}: inside the project ({root}); write derived benchmarks outside it")


def resolve_data_dir(data: str | os.PathLike[str] | None, roots: Sequence[Path] = ()) -> Path:
    """``--data`` if given, else ``$SAC_DATA_DIR``: a readable LegalBench-RAG folder, inside ``roots``
    when any are given. Raises :class:`BenchmarkError` naming the path otherwise."""
    raw = data if data is not None else os.environ.get(DATA_ENV)
    if not raw:
        raise BenchmarkError(f"no data directory: pass --data DIR or set {DATA_ENV}")
    path = Path(raw).expanduser()
    problem = _stat_problem(path)
    if problem is None and roots and not _inside(os.path.realpath(path), roots):
        problem = OUTSIDE  # the roots are the server's business: not named to the user
    if problem is None:
        benchmarks = path / "benchmarks"
        inner = _stat_problem(benchmarks)
        if inner in ("no such folder", "is a file, not a folder", "a broken symbolic link"):
            problem = "not a LegalBench-RAG directory (no benchmarks/ folder)"
        elif inner is not None:
            problem = f"benchmarks/: {inner}"
        elif roots and not _inside(os.path.realpath(benchmarks), roots):
            problem = f"benchmarks/: {OUTSIDE}"
    if problem is not None:
        raise BenchmarkError(f"{raw}: {problem}")
    return path
