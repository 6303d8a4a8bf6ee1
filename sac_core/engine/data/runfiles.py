"""Run files of any retriever: read, validated line by line against a benchmark, and written back.

A *run* is, per query, a ranked list of snippets (characters ``[start, end)`` of a corpus
document). Two formats are read and written:

- **JSONL**, one line per query, the snippet shape of LegalBench-RAG's benchmark files::

      {"query": "<its exact text>", "snippets": [{"file_path": "cuad/x.txt", "span": [0, 500], "score": 0.8}, ...]}

  ``"query_id": "<dataset>/<index>"`` may name the query instead of (or beside) its text;
  ``"retrieved"`` is accepted for ``"snippets"`` (the project's older run files); a snippet's
  optional ``"score"`` (higher = better) must not rise down the list, and an optional
  ``"answer"``/``"text"`` must equal the document's characters at the span. Snippets of one
  query may overlap; the same snippet twice is an error.
- **TREC** (``qid Q0 docid rank score tag``), doc ids ``file_path#start-end`` with the path
  percent-encoded (spaces, ``#`` and ``%`` would break the format), ordered by ``rank``; a rank
  twice, a doc id twice or a score that rises with the rank is an error.

Every problem raises :class:`RunFileError` naming the file, the line and the field; nothing is
returned half-read. Which queries and documents exist is the caller's :class:`RunCheck`. Runs are
written in both formats by :mod:`.runwrite`.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from .benchmark import read_document, read_queries
from .types import Benchmark, BenchmarkError, Query

FORMATS: tuple[str, ...] = ("jsonl", "trec")
MAX_BYTES = 256 * 1024 * 1024  # a run of 7,000 queries × 64 snippets is about 50 MB of JSONL
_DOC_ID = re.compile(r"^(?P<path>[^#\s]+)#(?P<start>\d{1,18})-(?P<end>\d{1,18})$")  # 18 digits: any document


class RunFileError(ValueError):
    """A run file that cannot be read as it is; the message names the file, line and field."""


@dataclass(frozen=True)
class Snippet:
    """One retrieved passage: characters ``[start, end)`` of document ``file_path`` (relative to
    ``corpus/``), the retriever's ``score`` (higher = better; None when it gave none) and, when
    known, its ``text`` (then exactly the document's characters at the span)."""

    file_path: str
    start: int
    end: int
    score: float | None = None
    text: str | None = field(default=None, compare=False)

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class RunCheck:
    """What a run is checked against: every query of the data folder's datasets by id
    (``known``), the ids of the benchmark being imported for (``selected``: each needs a line;
    lines of other known queries are skipped and counted), and ``document``: a corpus file's
    text, or None when there is no such file."""

    known: Mapping[str, Query]
    selected: frozenset[str]
    document: Callable[[str], str | None]

    def by_text(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for qid, q in self.known.items():
            out.setdefault(q.text, []).append(qid)
        return out


@dataclass(frozen=True)
class ParsedRun:
    """A validated run: ``format``, ranked snippets per selected query id (in the benchmark's
    order), and how many lines named known queries outside the benchmark (``skipped``)."""

    format: str
    queries: dict[str, tuple[Snippet, ...]]
    skipped: int = 0


def parse_doc_id(raw: str) -> tuple[str, int, int] | None:
    """``(file_path, start, end)`` of a doc id written by :func:`~.runwrite.doc_id`, or None."""
    m = _DOC_ID.match(raw)
    if m is None:
        return None
    return unquote(m["path"]), int(m["start"]), int(m["end"])


def decode(data: bytes, name: str, *, max_bytes: int = MAX_BYTES) -> str:
    """The text of a run file's bytes (gzip is unpacked): UTF-8 only, at most ``max_bytes``."""
    if len(data) > max_bytes:
        raise RunFileError(f"{name}: {len(data):,} bytes, more than the {max_bytes:,} accepted")
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
                data = f.read(max_bytes + 1)
        except (OSError, EOFError) as e:
            raise RunFileError(f"{name}: not a readable gzip file ({e})") from None
        if len(data) > max_bytes:
            raise RunFileError(f"{name}: more than {max_bytes:,} bytes once unpacked")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RunFileError(f"{name}, line {line}: not UTF-8 ({e.reason} at byte {e.start})") from None
    return text.removeprefix("\ufeff")


def detect_format(text: str) -> str:
    """``jsonl`` when the first non-blank line starts like JSON (``{`` or ``[``), else ``trec``."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return "jsonl" if first.startswith(("{", "[")) else "trec"


def parse_run(text: str, name: str, check: RunCheck, fmt: str | None = None) -> ParsedRun:
    """The run in ``text`` (``name`` names it in errors), validated against ``check``; ``fmt``:
    ``jsonl``, ``trec`` or None (detected). An empty file, or one none of whose lines names a
    query of the benchmark, is an error (not a run that retrieved nothing)."""
    fmt = _format(text, name, fmt)
    reader = _Reader(name, check)
    if fmt == "jsonl":
        reader.jsonl(text)
    else:
        reader.trec(text)
    return reader.result(fmt)


def named_queries(text: str, name: str, known: Mapping[str, Query], fmt: str | None = None) -> set[str]:
    """The ids of the ``known`` queries the lines of the run in ``text`` name (by ``query_id``, by
    text or in TREC's first column); snippets are not checked. Raises :class:`RunFileError` as
    :func:`parse_run` does for a line that names no known query."""
    reader = _Reader(name, RunCheck(known, frozenset(known), lambda _: None))
    if _format(text, name, fmt) == "trec":
        return {reader.trec_query(n, raw) for n, raw in _lines(text)}
    return {qid for n, raw in _lines(text) if (qid := reader._query(n, reader.row(n, raw))) is not None}


def _format(text: str, name: str, fmt: str | None) -> str:
    if not text.strip():
        raise RunFileError(f"{name}: the file is empty (no line, so no query); a run has one line per query")
    fmt = fmt or detect_format(text)
    if fmt not in FORMATS:
        raise RunFileError(f"{name}: unknown run format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return fmt


def _lines(text: str) -> Iterable[tuple[int, str]]:
    """``(line number, line)`` of every line that is not blank."""
    return ((n, raw) for n, raw in enumerate(text.splitlines(), start=1) if raw.strip())


class _Reader:
    def __init__(self, name: str, check: RunCheck) -> None:
        self.name, self.check = name, check
        self.texts = check.by_text()
        self.lines: dict[str, int] = {}  # query id → the line that gave it
        self.found: dict[str, list[Snippet]] = {}
        self.skipped: set[str] = set()
        self._texts: dict[str, str | None] = {}

    def fail(self, line: int, message: str) -> RunFileError:
        return RunFileError(f"{self.name}, line {line}: {message}")

    def document(self, file_path: str) -> str | None:
        if file_path not in self._texts:
            self._texts[file_path] = self.check.document(file_path)
        return self._texts[file_path]

    # ------------------------------------------------------------------ JSONL

    def row(self, n: int, raw: str) -> dict:
        """Line ``n`` as a JSON object; anything else (bad JSON, numbers past Python's 4,300 digits,
        nesting past its recursion limit) is an error naming the line."""
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as e:
            raise self.fail(n, f"not JSON ({e.msg} at column {e.colno})") from None
        except ValueError:  # int(): "Exceeds the limit (4300 digits) …"
            raise self.fail(n, "a number with more than 4,300 digits; spans and scores need far fewer") from None
        except RecursionError:
            raise self.fail(n, "brackets nested too deep to read; a line is one flat object") from None
        if not isinstance(row, dict):
            raise self.fail(n, "expected a JSON object with 'query' or 'query_id' and 'snippets'")
        return row

    def jsonl(self, text: str) -> None:
        for n, raw in _lines(text):
            row = self.row(n, raw)
            qid = self._query(n, row)
            key = "snippets" if "snippets" in row else "retrieved"
            snippets = row.get(key)
            if not isinstance(snippets, list):
                raise self.fail(n, "field 'snippets' must be a list (it may be empty)")
            if qid is None:
                continue
            out = [self._snippet(n, f"snippets[{i}]", s) for i, s in enumerate(snippets)]
            self._add(n, qid, out)

    def _query(self, n: int, row: dict) -> str | None:
        """The selected query id a line names (None: a known query outside the benchmark)."""
        qid, text = row.get("query_id"), row.get("query")
        if qid is None and text is None:
            raise self.fail(n, "needs field 'query' (the query's exact text) or 'query_id' (<dataset>/<index>)")
        if qid is not None:
            if not isinstance(qid, str) or qid not in self.check.known:
                raise self.fail(n, f"field 'query_id': unknown query {_short(qid)}")
            if text is not None and text != self.check.known[qid].text:
                raise self.fail(n, f"field 'query': the text differs from that of query {qid}")
        else:
            if not isinstance(text, str):
                raise self.fail(n, "field 'query' must be a string")
            ids = self.texts.get(text, [])
            if not ids:
                raise self.fail(n, f"field 'query': no query of the benchmark has the text {_short(text)}")
            chosen = [i for i in ids if i in self.check.selected] or ids
            if len(chosen) > 1:
                raise self.fail(n, f"field 'query': {len(chosen)} queries ({', '.join(chosen)}) have this text; "
                                "name one with 'query_id'")  # fmt: skip
            qid = chosen[0]
        if qid not in self.check.selected:
            self.skipped.add(qid)
            return None
        return qid

    def _snippet(self, n: int, where: str, raw: object) -> Snippet:
        if not isinstance(raw, dict):
            raise self.fail(n, f"{where}: expected an object with 'file_path' and 'span'")
        fp, span, score = raw.get("file_path"), raw.get("span"), raw.get("score")
        if not isinstance(fp, str) or not fp:
            raise self.fail(n, f"{where}.file_path: missing or not a string")
        if not (isinstance(span, list) and len(span) == 2 and all(_is_int(x) for x in span)):
            raise self.fail(n, f"{where}.span: must be [start, end] integers, got {_short(span)}")
        if score is not None and not (_is_number(score) and math.isfinite(score)):
            raise self.fail(n, f"{where}.score: must be a finite number, got {_short(score)}")
        given = raw.get("answer", raw.get("text"))
        if given is not None and not isinstance(given, str):
            raise self.fail(n, f"{where}.text: must be a string")
        return self._checked(n, where, fp, span[0], span[1], None if score is None else float(score), given)

    def _checked(
        self, n: int, where: str, fp: str, start: int, end: int, score: float | None, given: str | None
    ) -> Snippet:
        text = self.document(fp) if _inside_corpus(fp) else None
        if text is None:
            raise self.fail(n, f"{where}.file_path: no document {_short(fp)} in the corpus")
        if not 0 <= start < end:
            raise self.fail(n, f"{where}.span: [{start}, {end}] is empty or negative")
        if end > len(text):
            raise self.fail(n, f"{where}.span: [{start}, {end}) lies outside {fp} ({len(text):,} characters)")
        if given is not None and text[start:end] != given:
            raise self.fail(n, f"{where}.text: differs from the characters of {fp} at [{start}, {end})")
        return Snippet(fp, start, end, score, text[start:end])

    def _add(self, n: int, qid: str, snippets: list[Snippet]) -> None:
        if qid in self.lines:
            raise self.fail(n, f"query {qid} again (first on line {self.lines[qid]})")
        seen: set[tuple[str, int, int]] = set()
        last: float | None = None
        for i, s in enumerate(snippets):
            key = (s.file_path, s.start, s.end)
            if key in seen:
                raise self.fail(n, f"snippets[{i}]: the same snippet twice ({s.file_path} [{s.start}, {s.end}))")
            seen.add(key)
            if s.score is not None:
                if last is not None and s.score > last:
                    raise self.fail(n, f"snippets[{i}].score: {s.score:g} is above the score before it ({last:g}); "
                                    "list snippets best first")  # fmt: skip
                last = s.score
        self.lines[qid] = n
        self.found[qid] = snippets

    # ------------------------------------------------------------------ TREC

    def trec(self, text: str) -> None:
        rows: dict[str, list[tuple[int, int, Snippet]]] = {}
        first: dict[str, int] = {}
        ranks: dict[tuple[str, int], int] = {}
        docs: dict[tuple[str, str], int] = {}
        for n, raw in _lines(text):
            qid = self.trec_query(n, raw)
            _qid, _q0, doc, rank_s, score_s, _tag = raw.split()
            try:
                rank = int(rank_s)
            except ValueError:
                raise self.fail(n, f"column 4 (rank): not an integer: {_short(rank_s)}") from None
            try:
                score = float(score_s)
            except ValueError:
                raise self.fail(n, f"column 5 (score): not a number: {_short(score_s)}") from None
            if not math.isfinite(score):
                raise self.fail(n, f"column 5 (score): must be finite, got {score_s}")
            parsed = parse_doc_id(doc)
            if parsed is None:
                raise self.fail(n, f"column 3 (docid): not file_path#start-end: {_short(doc)}")
            if (qid, rank) in ranks:
                raise self.fail(
                    n, f"column 4 (rank): rank {rank} of query {qid} again (first on line {ranks[qid, rank]})"
                )
            if (qid, doc) in docs:
                raise self.fail(n, f"column 3 (docid): {doc} twice for query {qid} (first on line {docs[qid, doc]})")
            ranks[qid, rank], docs[qid, doc] = n, n
            first.setdefault(qid, n)
            if qid not in self.check.selected:
                self.skipped.add(qid)
                continue
            snippet = self._checked(n, "column 3 (docid)", parsed[0], parsed[1], parsed[2], score, None)
            rows.setdefault(qid, []).append((rank, n, snippet))
        for qid, ranked in rows.items():
            ranked.sort(key=lambda r: r[0])
            for (rank_a, _, a), (rank_b, line_b, b) in zip(ranked, ranked[1:]):
                if a.score is not None and b.score is not None and b.score > a.score:
                    raise self.fail(line_b, f"column 5 (score): {b.score:g} at rank {rank_b} is above {a.score:g} "
                                    f"at rank {rank_a}: ranks and scores disagree")  # fmt: skip
            self.lines[qid] = first[qid]
            self.found[qid] = [s for _, _, s in ranked]

    def trec_query(self, n: int, raw: str) -> str:
        """The known query id TREC line ``n`` names (its six columns checked)."""
        cols = raw.split()
        if len(cols) != 6:
            raise self.fail(n, f"expected 6 columns 'qid Q0 docid rank score tag', got {len(cols)}")
        if cols[0] not in self.check.known:
            raise self.fail(n, f"column 1 (qid): unknown query {_short(cols[0])}")
        return cols[0]

    # ------------------------------------------------------------------

    def result(self, fmt: str) -> ParsedRun:
        missing = [qid for qid in self.check.known if qid in self.check.selected and qid not in self.found]
        if not self.found and self.check.selected:
            raise RunFileError(f"{self.name}: no line names a query of this benchmark ({len(self.check.selected)} "
                               f"queries; {len(self.skipped)} lines name queries outside it)")  # fmt: skip
        if fmt == "trec":  # a query with nothing retrieved has no line in a TREC run
            for qid in missing:
                self.found[qid] = []
            missing = []
        if missing:
            shown = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
            raise RunFileError(
                f"{self.name}: no line for {len(missing)} of the {len(self.check.selected)} benchmark queries "
                f"({shown}); give every query a line (with empty 'snippets' when nothing was retrieved)"
            )
        order = [qid for qid in self.check.known if qid in self.check.selected]
        return ParsedRun(fmt, {qid: tuple(self.found[qid]) for qid in order}, len(self.skipped))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _short(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _inside_corpus(file_path: str) -> bool:
    parts = file_path.split("/")
    return not file_path.startswith("/") and ".." not in parts and "\\" not in file_path and "\x00" not in file_path


def run_check(data_dir: Path, bench: Benchmark, datasets: Iterable[str]) -> RunCheck:
    """A :class:`RunCheck` for ``bench`` (loaded from ``data_dir``): every query of ``datasets``
    known, the benchmark's selected, documents read from the pool or else the corpus folder."""
    known = {q.query_id: q for ds in datasets for q in read_queries(data_dir, ds)}

    def document(file_path: str) -> str | None:
        if file_path in bench.documents:
            return bench.documents[file_path].text
        try:
            return read_document(data_dir, file_path).text
        except BenchmarkError:
            return None

    return RunCheck(known, frozenset(q.query_id for q in bench.queries), document)
