"""LegalBench-RAG in its release layout: documents, queries and gold character spans.

Layout (``--data`` / ``SAC_DATA_DIR``)::

    corpus/<dataset>/<document>.txt      UTF-8 text
    benchmarks/<dataset>.json            {"tests": [{"query", "snippets": [{"file_path", "span", "answer"}]}]}

Spans are ``[start, end)`` in Python ``str`` characters of the document text. A benchmark file
derived from another (``sac noname``, ``sac reword``) says how in an optional top-level string field
``"transform"``. Every problem found while loading raises :class:`BenchmarkError` naming the file
(and the query), never a bare traceback and never a silent skip. Every file and folder read goes through
:func:`~.paths.confined` (a server's ``$SAC_DATA_ROOT``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .digests import read_with_sha256
from .paths import confined
from .protocols import select
from .types import DATASETS, Benchmark, BenchmarkError, Document, Query, Span


def available_datasets(data_dir: Path) -> tuple[str, ...]:
    """Datasets with a benchmark file, known ones first in their usual order."""
    names = sorted(p.stem for p in confined(data_dir / "benchmarks").glob("*.json"))
    return tuple([d for d in DATASETS if d in names] + [d for d in names if d not in DATASETS])


def parse_datasets(spec: str | tuple[str, ...] | list[str], data_dir: Path) -> tuple[str, ...]:
    """``"all"`` or a comma list such as ``"cuad,maud"`` → validated dataset names."""
    have = available_datasets(data_dir)
    names = have if spec == "all" else (tuple(spec.split(",")) if isinstance(spec, str) else tuple(spec))
    for name in names:
        if name not in have:
            raise BenchmarkError(f"unknown dataset {name!r}; {data_dir / 'benchmarks'} has {', '.join(have)}")
    return names


def read_queries(data_dir: Path, dataset: str) -> list[Query]:
    """All queries of one benchmark file, structurally validated (spans not yet checked against text)."""
    return _parse_benchmark(data_dir, dataset)[0]


def read_benchmark_file(path: Path) -> dict[str, Any]:
    """One benchmark file's JSON object as written, checked only for its shape: a list field
    ``"tests"`` and, when present, a string field ``"transform"``. Raises :class:`BenchmarkError`
    naming the file when it is missing, unreadable, not UTF-8, not JSON (numbers past Python's 4,300
    digits and nesting past its recursion limit included) or of another shape."""
    try:
        raw = json.loads(confined(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BenchmarkError(f"{path}: benchmark file not found") from None
    except OSError as e:
        raise BenchmarkError(f"{path}: cannot read ({e.strerror or type(e).__name__})") from None
    except UnicodeDecodeError as e:
        raise BenchmarkError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise BenchmarkError(f"{path}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except BenchmarkError:  # confined(): a link out of the folders this server may read
        raise
    except ValueError:  # int(): "Exceeds the limit (4300 digits) …"
        raise BenchmarkError(f"{path}: a number with more than 4,300 digits; spans need far fewer") from None
    except RecursionError:
        raise BenchmarkError(f"{path}: brackets nested too deep to read; a benchmark file is shallow") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("tests"), list):
        raise BenchmarkError(f"{path}: expected an object with a list field 'tests'")
    if not isinstance(raw.get("transform", ""), str):
        raise BenchmarkError(f"{path}: field 'transform' must be a string, got {raw['transform']!r}")
    return raw


def _parse_benchmark(data_dir: Path, dataset: str) -> tuple[list[Query], list[list[str]], str]:
    """Queries of one benchmark file, per query the 'answer' strings of its snippets, and the file's
    ``"transform"`` ("" when absent)."""
    path = data_dir / "benchmarks" / f"{dataset}.json"
    raw = read_benchmark_file(path)
    tests, transform = raw["tests"], raw.get("transform", "")
    queries, answers = [], []
    for i, test in enumerate(tests):
        qid = f"{dataset}/{i}"
        where = f"{path}: query {qid}"
        if not isinstance(test, dict) or not isinstance(test.get("query"), str):
            raise BenchmarkError(f"{where}: missing string field 'query'")
        snippets = test.get("snippets")
        if not isinstance(snippets, list) or not snippets:
            raise BenchmarkError(f"{where}: field 'snippets' must be a non-empty list")
        gold = []
        for j, snip in enumerate(snippets):
            sw = f"{where}, snippet {j}"
            if not isinstance(snip, dict):
                raise BenchmarkError(f"{sw}: not an object")
            fp, span = snip.get("file_path"), snip.get("span")
            if not isinstance(fp, str) or not fp:
                raise BenchmarkError(f"{sw}: missing string field 'file_path'")
            if not _inside_corpus(fp):
                raise BenchmarkError(f"{sw}: file_path {fp!r} escapes the corpus root")
            if (
                not isinstance(span, list)
                or len(span) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in span)
            ):
                raise BenchmarkError(f"{sw}: 'span' must be [start, end] integers, got {span!r}")
            if not 0 <= span[0] < span[1]:
                raise BenchmarkError(f"{sw}: span {span} is empty or negative")
            if not isinstance(snip.get("answer"), str):
                raise BenchmarkError(f"{sw}: missing string field 'answer'")
            gold.append(Span(fp, span[0], span[1]))
        queries.append(Query(qid, dataset, test["query"], tuple(gold)))
        answers.append([s["answer"] for s in snippets])
    return queries, answers, transform


@lru_cache(maxsize=65536)  # called for every gold span; a corpus has far fewer distinct paths
def _inside_corpus(file_path: str) -> bool:
    parts = Path(file_path).parts
    return not Path(file_path).is_absolute() and ".." not in parts and len(parts) >= 1 and "\\" not in file_path


def read_document(data_dir: Path, file_path: str) -> Document:
    path = data_dir / "corpus" / file_path
    try:
        data, sha256 = read_with_sha256(confined(path))
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise BenchmarkError(f"{path}: document not found") from None
    except IsADirectoryError:
        raise BenchmarkError(f"{path}: a folder, not a document") from None
    except UnicodeDecodeError as e:
        raise BenchmarkError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    return Document(file_path, text, sha256)


def _check_spans(data_dir: Path, query: Query, answers: list[str], docs: dict[str, Document]) -> None:
    for j, (span, answer) in enumerate(zip(query.gold, answers)):
        doc = docs[span.file_path]
        where = f"{data_dir / 'benchmarks' / (query.dataset + '.json')}: query {query.query_id}, snippet {j}"
        if span.end > len(doc.text):
            raise BenchmarkError(
                f"{where}: span [{span.start}, {span.end}) lies outside {span.file_path} ({len(doc.text)} characters)"
            )
        if doc.text[span.start : span.end] != answer:
            raise BenchmarkError(f"{where}: 'answer' differs from the text of {span.file_path} at its span")


def load_benchmark(
    data_dir: Path,
    datasets: tuple[str, ...] | str = "all",
    protocol: str = "lbr-mini",
    seed: int | None = None,
) -> Benchmark:
    """Select queries by ``protocol`` and load the documents they cite, validating every span.

    The pool is the union of cited documents over all chosen datasets: ONE index, as in both
    LegalBench-RAG and the SAC paper. Protocol ``corpus`` adds every other document of the
    datasets' corpus folders (``*.txt``, in subfolders too): a corpus of one's own, gold or not.
    """
    names = parse_datasets(datasets, data_dir)
    selected: list[Query] = []
    answers: dict[str, list[str]] = {}
    transforms: set[str] = set()
    for ds in names:
        queries, raw_answers, transform = _parse_benchmark(data_dir, ds)
        transforms.add(transform)
        for q in select(queries, protocol, ds, seed):
            selected.append(q)
            answers[q.query_id] = raw_answers[int(q.query_id.rsplit("/", 1)[1])]
    docs: dict[str, Document] = {}
    for q in selected:
        for s in q.gold:
            if s.file_path not in docs:
                docs[s.file_path] = read_document(data_dir, s.file_path)
        _check_spans(data_dir, q, answers[q.query_id], docs)
    if protocol == "corpus":
        for ds in names:
            for path in sorted(confined(data_dir / "corpus" / ds).rglob("*.txt")):
                file_path = path.relative_to(data_dir / "corpus").as_posix()
                if file_path not in docs:
                    docs[file_path] = read_document(data_dir, file_path)
    return Benchmark(tuple(selected), docs, "+".join(sorted(t for t in transforms if t)))
