"""The openai provider with the real ``openai`` client against a scripted OpenAI-compatible server
on 127.0.0.1 (stdlib http.server in a thread)."""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sac_core.engine.summaries import SummaryConfig, SummaryError, estimate_cost, run_cost, summarize_documents

API_KEY = "sk-test-DO-NOT-LEAK-0123456789abcdef"
DOC = "MUTUAL NON-DISCLOSURE AGREEMENT between Acme Corp. and Beta LLC dated March 3, 2020. " * 20


def reply(content: str = "", **fields: object) -> dict:
    """One scripted answer for the shared ``chat_server`` (tests/conftest.py): ``content`` with status
    200, an error ``status``, or a ``delay`` (seconds) first."""
    return {"content": content, **fields}


def script(*replies: dict) -> Callable[[dict], dict]:
    queue = list(replies)
    return lambda body: queue.pop(0) if queue else reply(status=400)


def config(url: str, **changes: object) -> SummaryConfig:
    base = dict(provider="openai", base_url=url, chars=150, retry_base_delay=0.01, timeout=5.0, max_retries_api=3)
    base.update(changes)
    return SummaryConfig(**base)  # type: ignore[arg-type]


def last_user_message(request: dict) -> str:
    return [m for m in request["messages"] if m["role"] == "user"][-1]["content"]


def test_normal_answer_is_used_as_is_with_paper_prompt_and_settings(chat_server, tmp_path: Path) -> None:
    server = chat_server(
        script(reply("Mutual NDA between Acme Corp. and Beta LLC (2020).", prompt_tokens=321, completion_tokens=12))
    )
    records = summarize_documents({"nda/a.txt": DOC}, config(server.url), tmp_path, api_key=API_KEY, progress=False)
    record = records["nda/a.txt"]
    assert record.summary == "Mutual NDA between Acme Corp. and Beta LLC (2020)."
    assert (record.provider, record.model, record.prompt_id, record.prompt_version, record.chars) == (
        "openai",
        "gpt-4o-mini",
        "generic",
        1,
        150,
    )
    assert record.attempts == ((150, len(record.summary)),)
    assert (record.input_tokens, record.output_tokens, record.cached) == (321, 12, False)
    [request] = server.requests
    assert request["model"] == "gpt-4o-mini" and request["temperature"] == 0
    assert request["max_tokens"] == 170 // 3 + 50
    [message] = request["messages"]
    assert message["role"] == "user"
    assert "maximum 150 characters long" in message["content"] and message["content"].endswith(DOC)
    assert server.auth == [f"Bearer {API_KEY}"]


def test_over_long_answer_is_regenerated_with_a_lower_target(chat_server, tmp_path: Path) -> None:
    server = chat_server(script(reply("x " * 120), reply("y " * 100), reply("Short enough summary.")))
    record = summarize_documents({"a.txt": DOC}, config(server.url), tmp_path, api_key=API_KEY, progress=False)["a.txt"]
    assert record.summary == "Short enough summary."
    assert record.attempts == ((150, 239), (130, 199), (110, 21))
    first, second, third = server.requests
    assert "maximum 150 characters" in last_user_message(first)
    # the retry continues the conversation, as the SAC code: previous answer + request for less
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "user"]
    assert second["messages"][1]["content"] == ("x " * 120).strip()
    assert "fits within a 130-character limit" in last_user_message(second)
    assert "fits within a 110-character limit" in last_user_message(third)
    assert second["temperature"] == 1.0  # the SAC code's retry temperature
    assert record.input_tokens == 300 and record.output_tokens == 60


def test_still_too_long_after_retries_is_cut_at_a_word_boundary(chat_server, tmp_path: Path) -> None:
    long_answer = "alpha beta gamma delta " * 20
    server = chat_server(lambda body: reply(long_answer))
    cfg = config(server.url, max_retries_length=2)
    record = summarize_documents({"a.txt": DOC}, cfg, tmp_path, api_key=API_KEY, progress=False)["a.txt"]
    assert len(server.requests) == 3
    assert [a[0] for a in record.attempts] == [150, 130, 110]
    assert len(record.summary) <= 170
    assert long_answer.startswith(record.summary) and long_answer[len(record.summary)] == " "


def test_429_and_500_are_retried_then_succeed(chat_server, tmp_path: Path) -> None:
    server = chat_server(script(reply(status=429), reply(status=500), reply(status=503), reply("Fine summary.")))
    record = summarize_documents({"a.txt": DOC}, config(server.url), tmp_path, api_key=API_KEY, progress=False)["a.txt"]
    assert record.summary == "Fine summary."
    assert len(server.requests) == 4
    assert record.attempts == ((150, 13),)


def test_timeout_is_retried(chat_server, tmp_path: Path) -> None:
    server = chat_server(script(reply("too late", delay=1.5), reply("In time.")))
    cfg = config(server.url, timeout=0.5)
    record = summarize_documents({"a.txt": DOC}, cfg, tmp_path, api_key=API_KEY, progress=False)["a.txt"]
    assert record.summary == "In time."
    assert len(server.requests) == 2


def test_gives_up_after_max_retries_with_clear_error(chat_server, tmp_path: Path) -> None:
    server = chat_server(lambda body: reply(status=500))
    with pytest.raises(SummaryError, match=r"a\.txt: API error 500 .*gave up after 3 requests"):
        summarize_documents(
            {"a.txt": DOC}, config(server.url, max_retries_api=2), tmp_path, api_key=API_KEY, progress=False
        )
    assert len(server.requests) == 3


def test_client_errors_are_not_retried_and_never_show_the_key(chat_server, tmp_path: Path) -> None:
    server = chat_server(lambda body: reply(status=401))
    with pytest.raises(SummaryError, match="401") as info:
        summarize_documents({"a.txt": DOC}, config(server.url), tmp_path, api_key=API_KEY, progress=False)
    assert len(server.requests) == 1
    assert API_KEY not in str(info.value)


def test_rerun_makes_no_request_and_key_is_nowhere_on_disk_or_in_logs(chat_server, tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    docs = {f"d{i}.txt": f"Agreement number {i} between Party{i} Inc. and Other{i} LLC. " * 30 for i in range(5)}
    server = chat_server(
        lambda body: reply("Summary of " + body["messages"][0]["content"].split("number ")[1][:2].strip())
    )
    cfg = config(server.url, concurrency=3)
    first = summarize_documents(docs, cfg, tmp_path, api_key=API_KEY, progress=False)
    assert len(server.requests) == 5
    assert [r.summary for r in first.values()] == [f"Summary of {i}" for i in range(5)]
    assert list(first) == list(docs)  # input order, whatever order the threads finished in

    again = summarize_documents(docs, cfg, tmp_path, api_key=API_KEY, progress=False)
    assert len(server.requests) == 5  # nothing new was asked
    assert all(r.cached for r in again.values())
    assert {fp: r.summary for fp, r in again.items()} == {fp: r.summary for fp, r in first.items()}
    assert run_cost(again, cfg).documents == 0

    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files, "the cache wrote nothing"
    for path in files:
        assert API_KEY.encode() not in path.read_bytes(), path
    assert API_KEY not in caplog.text
    assert API_KEY not in repr(cfg) and API_KEY not in repr(first)


def test_other_generation_settings_ask_again_and_the_defaults_keep_their_summaries(chat_server, tmp_path: Path) -> None:
    """A summary written at another temperature or with another input limit is another summary:
    asked for anew; the default settings find what was made with them (keys unchanged)."""
    docs = {"a.txt": DOC}
    server = chat_server(lambda body: reply(f"Summary at {body.get('temperature')}"))
    made = summarize_documents(docs, config(server.url), tmp_path, api_key=API_KEY, progress=False)
    warmer = summarize_documents(docs, config(server.url, temperature=0.7), tmp_path, api_key=API_KEY, progress=False)
    assert len(server.requests) == 2
    assert made["a.txt"].summary != warmer["a.txt"].summary
    again = summarize_documents(docs, config(server.url), tmp_path, api_key=API_KEY, progress=False)
    assert len(server.requests) == 2 and again["a.txt"].summary == made["a.txt"].summary
    assert config(server.url).generation_key == ""
    assert config(server.url, max_input_tokens=900).generation_key == "max_input_tokens=900"


def test_interrupted_run_resumes_where_it_stopped(chat_server, tmp_path: Path) -> None:
    docs = {"a.txt": "first document " * 50, "b.txt": "second document " * 50, "c.txt": "third document " * 50}

    def respond(body: dict) -> dict:
        return reply(status=400) if "second document" in body["messages"][0]["content"] else reply("ok summary")

    server = chat_server(respond)
    with pytest.raises(SummaryError, match=r"b\.txt"):
        summarize_documents(docs, config(server.url), tmp_path, api_key=API_KEY, progress=False)
    asked = len(server.requests)

    healthy = chat_server(lambda body: reply("ok summary"))
    records = summarize_documents(docs, config(healthy.url), tmp_path, api_key=API_KEY, progress=False)
    assert records["a.txt"].cached  # kept from the failed run
    assert not records["b.txt"].cached
    assert len(healthy.requests) == 3 - (asked - 1)  # only what the failed run did not finish


def test_key_from_environment_and_missing_key_error(chat_server, tmp_path: Path, monkeypatch) -> None:
    server = chat_server(script(reply("From env key.")))
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    record = summarize_documents({"a.txt": DOC}, config(server.url), tmp_path, progress=False)["a.txt"]
    assert record.summary == "From env key." and server.auth == [f"Bearer {API_KEY}"]
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    cached = summarize_documents({"b.txt": DOC}, config(server.url), tmp_path, progress=False)["b.txt"]
    assert cached.cached and cached.summary == "From env key."  # a cached summary needs no key at all
    with pytest.raises(SummaryError, match="OPENAI_API_KEY"):
        summarize_documents({"c.txt": DOC + " More."}, SummaryConfig(provider="openai"), tmp_path, progress=False)


def test_long_document_is_sent_as_head_and_tail(chat_server, tmp_path: Path) -> None:
    server = chat_server(script(reply("Long doc summary.")))
    text = "HEAD " + "middle " * 2000 + " TAIL"
    summarize_documents(
        {"a.txt": text}, config(server.url, max_input_tokens=200), tmp_path, api_key=API_KEY, progress=False
    )
    content = server.requests[0]["messages"][0]["content"]
    assert "HEAD" in content and "TAIL" in content and "[... DOCUMENT TRUNCATED ...]" in content
    assert content.count("middle") < 130  # 100 tokens ≈ 400 characters from each end


def test_cost_estimate_before_and_reported_tokens_after(chat_server, tmp_path: Path) -> None:
    docs = {"a.txt": "word " * 400, "b.txt": "word " * 800}
    cfg = config("http://127.0.0.1:9/v1")
    estimate = estimate_cost(docs, cfg)
    assert estimate.documents == 2 and estimate.estimated
    assert 1600 < estimate.input_tokens < 1750  # (prompt + document characters) / 4
    assert estimate.output_tokens == 2 * 38
    assert estimate.usd == pytest.approx((estimate.input_tokens * 0.15 + estimate.output_tokens * 0.60) / 1e6)

    server = chat_server(lambda body: reply("A summary.", prompt_tokens=1000, completion_tokens=10))
    records = summarize_documents(docs, config(server.url), tmp_path, api_key=API_KEY, progress=False)
    spent = run_cost(records, cfg)
    assert (spent.documents, spent.input_tokens, spent.output_tokens, spent.estimated) == (2, 2000, 20, False)
    assert spent.usd == pytest.approx((2000 * 0.15 + 20 * 0.60) / 1e6)
    assert estimate_cost(docs, config(server.url), cache_dir=tmp_path).documents == 0  # all cached now


# --------------------------------------------------------------------------- no network: nothing hangs


@pytest.fixture
def silent_server() -> Iterator[tuple[str, list[socket.socket]]]:
    """An OpenAI-compatible address that accepts connections and never answers (a hung gateway)."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            accepted.append(conn)  # kept open, never answered

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1", accepted
    listener.close()
    for conn in accepted:
        conn.close()


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"  # nothing listens once the socket is closed


def _ends(fn: Callable[[], object], limit: float = 120) -> BaseException | None:
    """Run ``fn`` in a thread; its error (None if it returned). A safety net, not a speed target:
    the test fails instead of hanging when ``fn`` does not end."""
    out: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as e:
            out.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), "the summaries never ended"
    return out[0] if out else None


def test_a_server_that_never_answers_ends_in_a_clear_error_and_stops_every_document(silent_server, tmp_path):
    url, accepted = silent_server
    docs = {f"d{i}.txt": f"Agreement {i}. " * 40 for i in range(12)}
    cfg = config(url, timeout=0.3, connect_timeout=0.3, deadline=1.5, max_retries_api=5, concurrency=3)
    error = _ends(lambda: summarize_documents(docs, cfg, tmp_path, api_key=API_KEY, progress=False))
    assert isinstance(error, SummaryError), error
    assert "timed out" in str(error) and "gave up after" in str(error) and API_KEY not in str(error)
    # the documents after the first give-up are not requested: at most the three in flight kept going
    assert len(accepted) <= 3 * (5 + 1) < len(docs) * (5 + 1)


def test_a_closed_port_gives_up_after_bounded_retries_one_log_line_each(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    cfg = config(_closed_port(), connect_timeout=0.5, max_retries_api=2)
    error = _ends(lambda: summarize_documents({"a.txt": DOC}, cfg, tmp_path, api_key=API_KEY, progress=False))
    assert isinstance(error, SummaryError)
    assert "a.txt: cannot connect to http://127.0.0.1:" in str(error) and "gave up after 3 requests" in str(error)
    retries = [r for r in caplog.records if r.name.endswith("openai_provider") and r.levelno >= logging.WARNING]
    assert len(retries) == 2  # one per retry …
    for record in retries:  # … each one short line, with no traceback and no key
        line = record.getMessage()
        assert "\n" not in line and record.exc_info is None and API_KEY not in line and "retry" in line
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.exc_info]


STOPPING = """
import socket, sys, threading
from sac_core.engine.summaries import SummaryConfig, summarize_documents
connected, connect = threading.Event(), socket.socket.connect
def connect_and_tell(sock, address):
    connect(sock, address)
    connected.set()
socket.socket.connect = connect_and_tell
cfg = SummaryConfig(provider="openai", base_url=sys.argv[1], timeout=600, deadline=600, concurrency=2)
def page():  # like Streamlit's script thread: not a daemon, blocked in the summaries
    try:
        summarize_documents({"a.txt": "x " * 50, "b.txt": "y " * 50}, cfg, sys.argv[2], api_key="k", progress=False)
    except Exception as e:
        print("ended:", e, flush=True)
threading.Thread(target=page).start()
connected.wait(120)  # a request is in flight (however busy the machine), then the interpreter ends
print("main thread done", flush=True)
"""


@pytest.mark.slow  # a python process of its own
def test_a_stopping_server_does_not_wait_for_a_request_in_flight(silent_server, tmp_path):
    """The interpreter ends although the page's thread waits on a request that would take 600 s."""
    url, accepted = silent_server
    proc = subprocess.run([sys.executable, "-c", STOPPING, url, str(tmp_path)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    deadline = time.monotonic() + 60  # the server's accepting thread may lag on a busy machine
    while not accepted and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "ended: the server is stopping" in proc.stdout and accepted
