"""Bring your own documents: a folder of PDF, DOCX, text, Markdown and HTML files → a data directory in
the LegalBench-RAG layout (``corpus/<name>/…txt`` and ``benchmarks/<name>.json``).

Extractors, all well-kept PyPI packages:

- ``.pdf``: **pypdf** (pure Python, BSD; no system libraries to install). A PDF without a text layer
  (a scan) yields no text and is reported as such; an encrypted one is reported as password
  protected. OCR is out of scope: run one first (e.g. ocrmypdf) and ingest its output.
- ``.docx``: **python-docx** (paragraphs and table cells, in document order).
- ``.html`` / ``.htm``: **Beautiful Soup** with the stdlib parser (text of the body, scripts and
  styles dropped, block elements on their own lines).
- ``.txt`` / ``.md``: read as UTF-8 (a file that is not UTF-8 is reported, not guessed).

Every file that fails or yields no text is reported by name and the rest continue. Each text is
written to a temporary file and renamed, so no half file is ever left. ``ingest/<name>.json``
(in the data directory) records, per source file, its sha256, extractor, character count and
target: a rerun processes only new or changed files. An existing benchmark file is kept; a
``gold`` file (the benchmark JSON format, spans in the written texts) is copied in to turn the
metrics on.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import store
from .paths import confined
from .types import BenchmarkError

MANIFESTS = "ingest"  # folder of the data directory: one manifest per ingested dataset
SUFFIXES: dict[str, str] = {".pdf": "pypdf", ".docx": "python-docx", ".html": "beautifulsoup4",
                            ".htm": "beautifulsoup4", ".txt": "text", ".md": "text"}  # fmt: skip
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class ExtractionError(ValueError):
    """A file could not be turned into text; the message says why, for people."""


@dataclass(frozen=True)
class Ingested:
    """One source file in the manifest: where it came from and what was written (characters)."""

    source: str  # path relative to the ingested folder
    sha256: str
    extractor: str
    characters: int
    target: str  # path relative to corpus/, the benchmark's file_path


@dataclass(frozen=True)
class Problem:
    source: str
    reason: str


@dataclass
class IngestReport:
    written: list[Ingested] = field(default_factory=list)
    unchanged: list[Ingested] = field(default_factory=list)
    failed: list[Problem] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)  # not a supported type


# --------------------------------------------------------------------------- extractors


def _pdf(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ExtractionError("password protected (encrypted PDF)")
        pages = [page.extract_text() or "" for page in reader.pages]
    except ExtractionError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as e:
        raise ExtractionError(f"not a readable PDF ({type(e).__name__}: {e})") from None
    text = "\n\n".join(p.strip("\n") for p in pages)
    if not text.strip():
        raise ExtractionError("no text layer (a scanned PDF? run OCR first)")
    return text


def _docx(data: bytes) -> str:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, ValueError, KeyError, OSError) as e:
        raise ExtractionError(f"not a readable DOCX ({type(e).__name__})") from None
    blocks = []
    for block in document.element.body.iterchildren():
        tag = block.tag.rsplit("}", 1)[-1]
        if tag == "p":
            blocks.append("".join(t.text or "" for t in block.iter() if t.tag.endswith("}t")))
        elif tag == "tbl":
            for row in block.iter():
                if row.tag.endswith("}tr"):
                    cells = ["".join(t.text or "" for t in c.iter() if t.tag.endswith("}t"))
                             for c in row.iterchildren() if c.tag.endswith("}tc")]  # fmt: skip
                    blocks.append("\t".join(cells))
    return "\n".join(blocks)


def _html(data: bytes) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "html.parser")
    for tag in soup(["script", "style", "noscript", "template"]):
        tag.decompose()
    body = soup.body or soup
    lines = (line.strip() for line in body.get_text("\n").splitlines())
    return "\n".join(line for line in lines if line)


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ExtractionError(f"not UTF-8 ({e.reason} at byte {e.start})") from None


EXTRACT: dict[str, Callable[[bytes], str]] = {"pypdf": _pdf, "python-docx": _docx, "beautifulsoup4": _html,
                                               "text": _text}  # fmt: skip


def extractor_version(extractor: str) -> str:
    return "builtin" if extractor == "text" else f"{extractor}=={store.library_version(extractor)}"


def extract(path: Path) -> tuple[str, str]:
    """(text, extractor) of one file; raises :class:`ExtractionError` saying why it has no text."""
    extractor = SUFFIXES.get(path.suffix.lower())
    if extractor is None:
        raise ExtractionError(f"not a supported type ({', '.join(sorted(SUFFIXES))})")
    data = path.read_bytes()
    if not data:
        raise ExtractionError("empty file")
    text = EXTRACT[extractor](data).replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    if not text.strip():
        raise ExtractionError("no text")
    return text, extractor


# --------------------------------------------------------------------------- the folder


def _target(name: str, relative: Path) -> str:
    """``<name>/<relative path>.txt`` with characters that are awkward in paths replaced."""
    parts = [re.sub(r"[^\w.-]+", "_", p) for p in relative.with_suffix(".txt").parts]
    return "/".join([name, *parts])


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def manifest_path(out: Path, name: str) -> Path:
    return Path(out) / MANIFESTS / f"{name}.json"


def read_manifest(out: Path, name: str) -> dict[str, Ingested]:
    path = manifest_path(out, name)
    if not path.is_file():
        return {}
    try:
        rows = json.loads(confined(path).read_text(encoding="utf-8"))["files"]
        return {row["source"]: Ingested(**row) for row in rows}
    except (ValueError, KeyError, TypeError) as e:
        raise BenchmarkError(f"{path}: not an ingest manifest ({e})") from None


def ingest_folder(
    source: Path,
    out: Path,
    name: str,
    gold: Path | None = None,
    on_file: Callable[[str], None] | None = None,
) -> IngestReport:
    """Ingest every supported file under ``source`` into dataset ``name`` of data directory ``out``."""
    source, out = Path(source), Path(out)
    if not _NAME.match(name):
        raise BenchmarkError(f"dataset name {name!r}: use letters, digits, '_', '-' and '.' only")
    if not source.is_dir():
        raise BenchmarkError(f"{source}: not a folder")
    manifest = read_manifest(out, name)
    report = IngestReport()
    files = sorted(p for p in source.rglob("*") if p.is_file() and not p.name.startswith("."))
    for path in files:
        relative = path.relative_to(source)
        key = relative.as_posix()
        if on_file:
            on_file(key)
        if path.suffix.lower() not in SUFFIXES:
            report.skipped.append(Problem(key, f"not a supported type ({', '.join(sorted(SUFFIXES))})"))
            continue
        try:
            digest = store.sha256(path.read_bytes())
        except OSError as e:
            report.failed.append(Problem(key, f"cannot read it ({e.strerror})"))
            continue
        before = manifest.get(key)
        target = _target(name, relative)
        if before is not None and before.sha256 == digest and (out / "corpus" / before.target).is_file():
            report.unchanged.append(before)
            continue
        try:
            text, extractor = extract(path)
        except ExtractionError as e:
            report.failed.append(Problem(key, str(e)))
            continue
        _write_atomic(out / "corpus" / target, text)
        record = Ingested(key, digest, extractor_version(extractor), len(text), target)
        manifest[key] = record
        report.written.append(record)
        _write_manifest(out, name, manifest)  # after every file: an interrupted run loses nothing
    benchmark = out / "benchmarks" / f"{name}.json"
    if gold is not None:
        benchmark.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(gold, benchmark)
    elif not benchmark.exists():
        _write_atomic(benchmark, json.dumps({"tests": []}) + "\n")
    _write_manifest(out, name, manifest)
    return report


def _write_manifest(out: Path, name: str, manifest: dict[str, Ingested]) -> None:
    rows = [asdict(r) for r in sorted(manifest.values(), key=lambda r: r.source)]
    _write_atomic(manifest_path(out, name), json.dumps({"dataset": name, "files": rows}, indent=1) + "\n")
