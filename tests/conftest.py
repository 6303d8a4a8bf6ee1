"""Shared fixtures: a demo benchmark the project generates itself, and the real data when present;
and the fast lane (``pytest -m "not slow"``, ``make test-fast``): which tests are slow, and a guard
that fails a fast-lane test doing a slow test's work."""

from __future__ import annotations

import glob
import json
import multiprocessing.process
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sac_core.engine.data import (
    Benchmark,
    Snippet,
    available_datasets,
    load_benchmark,
    write_demo_corpus,
    write_jsonl,
)


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_corpus(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def demo_bench(demo_dir: Path) -> Benchmark:
    """Every query of the demo corpus (``full`` protocol, all datasets): read it, never change it."""
    return load_benchmark(demo_dir, available_datasets(demo_dir), protocol="full")


@pytest.fixture(scope="session")
def real_data() -> Path:
    """The real LegalBench-RAG release; tests using it are skipped when SAC_DATA_DIR is not set."""
    raw = os.environ.get("SAC_DATA_DIR")
    if not raw:
        pytest.skip("SAC_DATA_DIR not set: real-data checks skipped")
    return Path(raw)


@pytest.fixture(scope="session")
def embed_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedding cache for the session, so the model encodes each test text once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def model_export(embed_cache: Path) -> Path:
    """The session cache's ``onnx/`` folder, holding the default model's ONNX export and its description."""
    from sac_core.engine import store
    from sac_core.engine.embedding import DEFAULT_MODEL, resolve_model_path
    from sac_core.engine.embedding.onnx_encoder import OnnxEncoder

    OnnxEncoder(resolve_model_path(DEFAULT_MODEL), embed_cache)  # exports once, if no test did yet
    return store.folder(embed_cache, "onnx")


@pytest.fixture(scope="session")
def seed_model(model_export: Path) -> Callable[[Path], Path]:
    """Puts the model's ONNX export (hard links to the session's) into a new cache folder and returns
    the folder: a test of building or embedding does not pay torch's import and export again, and the
    processes it starts (workers, servers, Ray) embed without importing torch at all."""

    def seed(cache: Path) -> Path:
        shutil.copytree(model_export, cache / model_export.name, copy_function=os.link)  # the store's folder name
        return cache

    return seed


@pytest.fixture
def fresh_cache(tmp_path: Path, seed_model: Callable[[Path], Path]) -> Path:
    """``<tmp_path>/cache`` with nothing computed in it but the model's export (:func:`seed_model`)."""
    return seed_model(tmp_path / "cache")


WORDS = (
    "agreement party confidential information disclose receiving term termination law court notice "
    "obligation purpose employee affiliate breach remedy injunction return destroy copy written consent "
    "period year month day governing jurisdiction venue assignment waiver amendment severability"
).split()


def generate_slow_benchmark(root: Path, n_docs: int = 36, chars: int = 5000) -> Path:
    """A deterministic benchmark big enough that embedding takes several seconds."""
    rng = random.Random(7)
    (root / "corpus" / "gen").mkdir(parents=True)
    tests = []
    for i in range(n_docs):
        words, length = [], 0
        while length < chars:
            sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 16))).capitalize() + ". "
            words.append(sentence)
            length += len(sentence)
        text = f"Agreement number {i} between Party {i} and Party {i + 1}. " + "".join(words)
        (root / "corpus" / "gen" / f"doc{i:02d}.txt").write_text(text, encoding="utf-8")
        start = text.index(".") + 2
        tests.append(
            {
                "query": f"What does agreement {i} say about termination?",
                "snippets": [
                    {
                        "file_path": f"gen/doc{i:02d}.txt",
                        "span": [start, start + 120],
                        "answer": text[start : start + 120],
                    }
                ],
            }
        )
    (root / "benchmarks").mkdir()
    (root / "benchmarks" / "gen.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def slow_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated benchmark large enough (about 900 chunks of 200 characters) that embedding it
    takes several seconds: for resume, cancel and background-build tests."""
    return generate_slow_benchmark(tmp_path_factory.mktemp("slow"))


@pytest.fixture(scope="session")
def slower_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Like ``slow_data`` with more documents: building its Compare indexes takes a good while."""
    return generate_slow_benchmark(tmp_path_factory.mktemp("slower"), n_docs=90)


TEMPLATE_DOCS = {  # file_path → (opening, text, [(question, clause of the text it asks about)])
    "cuad/alpha_msa.txt": (
        "Consider the Master Services Agreement between Alpha Inc. and Beta LLC; ",
        "MASTER SERVICES AGREEMENT between Alpha Inc. and Beta LLC.\n",
        [
            ("What is the governing law for this contract?", "12. This Agreement is governed by Delaware law."),
            ("Is there an anti-assignment clause in this contract?", "13. No party may assign it without consent."),
            ("Which court hears disputes?", "14. The courts of Wilmington hear all disputes."),
        ],
    ),
    "contractnli/gamma_nda.txt": (
        "Consider the Non-Disclosure Agreement between Gamma Ltd and Delta plc; ",
        "MUTUAL NON-DISCLOSURE AGREEMENT between Gamma Ltd and Delta plc.\n",
        [
            (
                "Does the document allow verbally conveyed information to be considered as Confidential Information?",
                "2. Information disclosed orally is Confidential Information if summarised in writing.",
            )
        ],
    ),
}


def write_template_benchmark(root: Path) -> Path:
    """A tiny hand-made benchmark (datasets cuad and contractnli) whose queries ask real LegalBench-RAG
    templates, plus one question that is no template and, in cuad, a bare template without an
    opening and one with extra spaces around it; every test carries an extra field ``"note"``."""
    tests: dict[str, list[dict]] = {"cuad": [], "contractnli": []}
    for file_path, (opening, head, asked) in TEMPLATE_DOCS.items():
        text = head + "\n".join(clause for _, clause in asked) + "\n"
        (root / "corpus" / file_path).parent.mkdir(parents=True, exist_ok=True)
        (root / "corpus" / file_path).write_text(text, encoding="utf-8")
        for question, clause in asked:
            start = text.index(clause)
            snippet = {"file_path": file_path, "span": [start, start + len(clause)], "answer": clause}
            tests[file_path.split("/")[0]].append({"query": opening + question, "snippets": [snippet], "note": "n"})
    bare, spaced = dict(tests["cuad"][0]), dict(tests["cuad"][1])
    tests["cuad"] += [
        {**bare, "query": TEMPLATE_DOCS["cuad/alpha_msa.txt"][2][0][0]},
        {**spaced, "query": spaced["query"].replace("; ", ";   ") + "  "},
    ]
    (root / "benchmarks").mkdir(parents=True)
    for ds, listed in tests.items():
        text = json.dumps({"version": "hand-made", "tests": listed}, indent=1)
        (root / "benchmarks" / f"{ds}.json").write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def template_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:func:`write_template_benchmark` in a temporary folder (read it, never write into it)."""
    return write_template_benchmark(tmp_path_factory.mktemp("templates"))


@pytest.fixture(scope="session")
def many_queries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that is not LegalBench-RAG, with 250 queries in one dataset (lbr-mini keeps 194 of
    them), and ``run.jsonl``: a run with a line (the gold span) for every one."""
    root = generate_slow_benchmark(tmp_path_factory.mktemp("many"), n_docs=250, chars=300)
    bench = load_benchmark(root, "all", "full")
    run = {q.query_id: [Snippet(s.file_path, s.start, s.end) for s in q.gold] for q in bench.queries}
    (root / "run.jsonl").write_text(write_jsonl({q.query_id: q for q in bench.queries}, run), encoding="utf-8")
    return root


# --------------------------------------------------------------------------- a real PostgreSQL server


def _pg_free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _binary(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL must run under CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL not available: {reason} (bash scripts/install_postgres.sh)")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not initdb or not pg_ctl:
        _unavailable("initdb / pg_ctl not found")
    root = Path(tempfile.mkdtemp(prefix="sac-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its own system user runs it
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    password = secrets.token_urlsafe(16)
    (root / "pw").write_text(password)
    if as_user:
        shutil.chown(root / "pw", "postgres")
    data, port = root / "data", _pg_free_port()
    try:
        subprocess.run([*as_user, initdb, "-D", str(data), "-U", "sac", "--auth=scram-sha-256",
                        f"--pwfile={root / 'pw'}", "--encoding=UTF8", "--locale=C"],
                       check=True, capture_output=True, text=True)  # fmt: skip
        (root / "pw").unlink()
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60",
                        "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1", "start"],
                       check=True, capture_output=True, text=True)  # fmt: skip
    except (OSError, subprocess.CalledProcessError) as e:
        log = (root / "log").read_text() if (root / "log").exists() else ""
        detail = getattr(e, "stderr", "") or str(e)
        shutil.rmtree(root, ignore_errors=True)
        _unavailable(f"{detail.strip()[:500]} {log[-500:]}")
    try:
        yield f"postgresql+psycopg://sac:{password}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


# --------------------------------------------------------------------------- a scripted OpenAI-compatible server


@dataclass
class ChatReply:
    """One scripted chat answer: ``status`` 200 with ``content`` (streamed in ``pieces`` when the
    request asks for a stream), or an error status (429 comes with ``Retry-After: 0``), sent after
    ``delay`` seconds (a client's timeout)."""

    content: str = ""
    status: int = 200
    delay: float = 0.0
    pieces: int = 3
    prompt_tokens: int = 100
    completion_tokens: int = 20


@dataclass
class ChatServer:
    url: str  # the base URL, ending in /v1
    requests: list[dict] = field(default_factory=list)  # JSON bodies, in arrival order
    auth: list[str] = field(default_factory=list)  # Authorization headers


def _sse(reply: ChatReply, model: str) -> bytes:
    size = max(1, -(-len(reply.content) // max(1, reply.pieces)))
    chunks = [reply.content[i : i + size] for i in range(0, len(reply.content), size)] or [""]
    base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0, "model": model}
    events = [
        {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": c}, "finish_reason": None}]}
        for c in chunks
    ]
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    usage = {
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "total_tokens": reply.prompt_tokens + reply.completion_tokens,
    }
    events.append({**base, "choices": [], "usage": usage})
    return b"".join(f"data: {json.dumps(e)}\n\n".encode() for e in events) + b"data: [DONE]\n\n"


def _completion(reply: ChatReply, model: str) -> bytes:
    message = {"role": "assistant", "content": reply.content}
    return json.dumps(
        {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": reply.prompt_tokens,
                "completion_tokens": reply.completion_tokens,
                "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            },
        }
    ).encode()


@pytest.fixture
def chat_server() -> Iterator[Callable[[Callable[[dict], dict]], ChatServer]]:
    """Start an OpenAI-compatible chat server on 127.0.0.1 whose answers come from ``respond(body)``,
    a dict of :class:`ChatReply` fields (the real ``openai`` client talks to it: streaming and plain
    completions)."""
    servers: list[ThreadingHTTPServer] = []

    def start(respond: Callable[[dict], dict]) -> ChatServer:
        state = ChatServer(url="")
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    state.requests.append(body)
                    state.auth.append(self.headers.get("Authorization", ""))
                    reply = ChatReply(**respond(body)) if self.path == "/v1/chat/completions" else ChatReply(status=404)
                time.sleep(reply.delay)
                if reply.status != 200:
                    payload = json.dumps({"error": {"message": f"scripted {reply.status}", "type": "test"}}).encode()
                    kind = "application/json"
                elif body.get("stream"):
                    payload, kind = _sse(reply, body["model"]), "text/event-stream"
                else:
                    payload, kind = _completion(reply, body["model"]), "application/json"
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(payload)))
                    if reply.status == 429:
                        self.send_header("Retry-After", "0")
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        servers.append(server)
        state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        return state

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------- the fast lane

# A test is slow (an integration test) when it needs one of these fixtures (directly or through
# another fixture), or carries ``@pytest.mark.slow`` itself because it does such work in its body.
SLOW_FIXTURES = {
    "embed_cache": "the packaged embedding model encodes into it",
    "slow_data": "made so that embedding it takes seconds",
    "slower_data": "made so that building its indexes takes a good while",
    "real_data": "the real LegalBench-RAG release",
    "postgres_url": "a PostgreSQL server of its own",
    "local_ray": "a Ray cluster",
}
SLOW_FOLDERS = ("app",)  # tests/app/: AppTest and Chromium end to end, every one
HEAVY_MODULES = ("torch",)  # a real model: PyTorch is first imported by the work that needs it
# A program a test starts is slow work when it is Python (a worker, a server, `sac`, pip) or one of these; quick
# queries (git for provenance, uname for platform.processor(), …) are not.
HEAVY_PROGRAMS = ("node", "chromium", "initdb", "pg_ctl", "postgres", "streamlit", "sac", "pip", "mkdocs", "raylet")
WATCHED_CALLS = (  # (module, class, method, what a call means), watched once the module is loaded
    ("streamlit.testing.v1.app_test", "AppTest", "run", "ran the app (AppTest)"),
    ("sentence_transformers", "SentenceTransformer", "__init__", "loaded a model"),
    ("sentence_transformers", "CrossEncoder", "__init__", "loaded a model"),
)


def slow_reason(item: pytest.Item) -> str | None:
    """Why ``item`` belongs to the slow lane, or None for a unit test."""
    if item.get_closest_marker("slow"):
        return "marked slow"
    for folder in SLOW_FOLDERS:
        if Path(__file__).parent / folder in Path(item.path).parents:
            return f"in tests/{folder}/"
    names = set(getattr(item, "fixturenames", ()))
    for name, why in SLOW_FIXTURES.items():
        if name in names:
            return f"uses {name} ({why})"
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("db_url") == "postgresql":
        return "runs on PostgreSQL"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if slow_reason(item) and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)


def _program(args: object) -> str:
    """The file name of the program a ``Popen`` starts (``args``: a string or a sequence)."""
    first = args if isinstance(args, str | bytes | os.PathLike) else next(iter(args), "")  # type: ignore[call-overload]
    return os.path.basename((os.fsdecode(first).split() or [""])[0])


def _watched(call: Callable, meaning: str, seen: list[str]) -> Callable:
    def watched(*args: object, **kw: object) -> object:
        seen.append(meaning)
        return call(*args, **kw)

    watched.watched = True  # type: ignore[attr-defined]
    return watched


class SlowWork:
    """What tests start that only a slow test may: a program, a worker process, an AppTest run, a
    model, or the first import of PyTorch. Installed only in a fast-lane run (see :func:`fast_lane`)."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.reported = {m for m in HEAVY_MODULES if m in sys.modules}

    def install(self) -> None:
        popen, seen = subprocess.Popen.__init__, self.seen

        def watched_popen(proc: subprocess.Popen, args: object, *rest: object, **kw: object) -> None:
            program = _program(args)
            if program.startswith("python") or program in HEAVY_PROGRAMS:
                seen.append(f"started the program {program}")
            popen(proc, args, *rest, **kw)  # type: ignore[arg-type]

        subprocess.Popen.__init__ = watched_popen  # type: ignore[assignment,method-assign]
        start = multiprocessing.process.BaseProcess.start
        multiprocessing.process.BaseProcess.start = _watched(start, "started a worker process", seen)  # type: ignore[method-assign]

    def watch_calls(self) -> None:
        """Wrap each of ``WATCHED_CALLS`` whose module is loaded by now (the app tests import AppTest
        at collection; a model's library is imported by the first test that loads one)."""
        for module, cls_name, method, meaning in WATCHED_CALLS:
            cls = getattr(sys.modules.get(module), cls_name, None)
            if cls is not None and not getattr(getattr(cls, method), "watched", False):
                setattr(cls, method, _watched(getattr(cls, method), meaning, self.seen))

    def take(self) -> list[str]:
        """What was done since the last call (PyTorch is named once: at its first import)."""
        imported = [m for m in HEAVY_MODULES if m in sys.modules and m not in self.reported]
        self.reported.update(imported)
        done = sorted(set(self.seen)) + [f"imported {m}" for m in imported]
        self.seen.clear()
        return done


SLOW_WORK = pytest.StashKey[SlowWork]()


def runs_fast_lane(config: pytest.Config) -> bool:
    """True when this run leaves the slow tests out (``-m "not slow"``, as ``make test-fast`` does)."""
    return " ".join(str(config.option.markexpr).split()) == "not slow"


def pytest_sessionstart(session: pytest.Session) -> None:
    if runs_fast_lane(session.config):
        watcher = session.config.stash[SLOW_WORK] = SlowWork()
        watcher.install()


@pytest.fixture(autouse=True)
def fast_lane(request: pytest.FixtureRequest) -> Iterator[None]:
    """In a fast-lane run, a test that (with its fixtures) did a slow test's work fails at teardown,
    saying what it did: mark it ``@pytest.mark.slow`` or have it use a fixture of ``SLOW_FIXTURES``."""
    watcher = request.config.stash.get(SLOW_WORK, None)
    if watcher is not None:
        watcher.watch_calls()
    yield
    done = watcher.take() if watcher is not None else []
    if done:
        pytest.fail(f"a fast-lane test that {', '.join(done)}: mark it @pytest.mark.slow", pytrace=False)
