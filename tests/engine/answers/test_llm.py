"""The LLM answerer with the real ``openai`` client against a scripted OpenAI-compatible server on
127.0.0.1: the prompt, streaming, citations, a 429 then success, a malformed answer, the cache."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from sac_core.engine.answers import ANSWER_PROMPT, AnswerError, Excerpt, LLMAnswerer, answer_cost
from sac_core.engine.answers.llm import MAX_OUTPUT_TOKENS, render_prompt

KEY = "sk-test-DO-NOT-LEAK-0123456789abcdef"
EXCERPTS = (
    Excerpt("#1", "nda/acme.txt", 0, 40, "The term of this   Agreement is two years."),
    Excerpt("#2", "nda/birch.txt", 100, 160, "The term of this Agreement is five years."),
)
QUESTION = "Consider the NDA of Acme; how long is the term?"


def test_the_prompt_labels_the_excerpts_and_demands_citations():
    prompt = render_prompt(QUESTION, EXCERPTS)
    assert "[#1] nda/acme.txt, characters 0–40:\nThe term of this Agreement is two years." in prompt
    assert "Use only these labels: [#1], [#2]." in prompt and '"Not in the excerpts."' in prompt
    assert prompt.endswith(f"Question: {QUESTION}\nAnswer:") and ANSWER_PROMPT.count("{") == 3


def test_a_streamed_answer_is_cited_checked_and_cached(chat_server, tmp_path: Path):
    replies = [{"content": "The term is five years [#2]."}]
    server = chat_server(lambda body: replies.pop(0) if replies else {"status": 400})
    answerer = LLMAnswerer(tmp_path, model="test-model", api_key=KEY, base_url=server.url)
    seen: list[str] = []
    answer = answerer.answer(QUESTION, EXCERPTS, on_text=seen.append).checked({"nda/acme.txt"})
    assert answer.text == "The term is five years [#2]." and len(seen) >= 2 and seen[-1] == answer.text
    assert answer.cites_other_document and answer.citations[0].file_path == "nda/birch.txt"
    assert (answer.input_tokens, answer.output_tokens, answer.cached) == (100, 20, False)
    [request] = server.requests
    assert request["model"] == "test-model" and request["temperature"] == 0 and request["stream"] is True
    assert request["max_tokens"] == MAX_OUTPUT_TOKENS
    assert request["messages"] == [{"role": "user", "content": render_prompt(QUESTION, EXCERPTS)}]
    assert server.auth == [f"Bearer {KEY}"]
    again = LLMAnswerer(tmp_path, model="test-model", api_key=KEY, base_url=server.url)  # a new process, say
    second = again.answer(QUESTION, EXCERPTS)
    assert second.cached and second.text == answer.text and len(server.requests) == 1 and again.requests == 0
    stored = b"".join(p.read_bytes() for p in (tmp_path / "answers").rglob("*") if p.is_file())
    assert stored and KEY.encode() not in stored  # the key is never stored


def test_a_429_is_retried_and_then_answered(chat_server, tmp_path: Path):
    replies = [{"status": 429}, {"content": "Two years [#1]."}]
    server = chat_server(lambda body: replies.pop(0))
    answer = LLMAnswerer(tmp_path, api_key=KEY, base_url=server.url).answer(QUESTION, EXCERPTS)
    assert answer.text == "Two years [#1]." and len(server.requests) == 2
    assert answer.checked({"nda/acme.txt"}).cites_only_gold


def test_a_malformed_answer_says_what_is_wrong_and_is_cached(chat_server, tmp_path: Path):
    server = chat_server(lambda body: {"content": "Seven years [#9]."})
    answerer = LLMAnswerer(tmp_path, api_key=KEY, base_url=server.url)
    answer = answerer.answer(QUESTION, EXCERPTS)
    assert answer.problem == "the answer cites [#9], which no excerpt has (excerpts #1–#2)"
    assert answerer.answer(QUESTION, EXCERPTS).problem == answer.problem and len(server.requests) == 1


def test_errors_are_clear_and_never_show_the_key(chat_server, tmp_path: Path):
    server = chat_server(lambda body: {"status": 401})
    with pytest.raises(AnswerError, match="the answer request to gpt-4o-mini failed") as info:
        LLMAnswerer(tmp_path, api_key=KEY, base_url=server.url, max_retries=0).answer(QUESTION, EXCERPTS)
    assert KEY not in str(info.value)
    with pytest.raises(AnswerError, match="needs an API key"):
        LLMAnswerer(tmp_path)


def test_a_server_that_cannot_be_reached_ends_in_a_clear_error(tmp_path: Path):
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(AnswerError, match="APIConnectionError"):
        LLMAnswerer(tmp_path, api_key=KEY, base_url=f"http://127.0.0.1:{port}/v1", timeout=2, max_retries=1).answer(
            QUESTION, EXCERPTS
        )


def test_the_cost_of_a_batch_is_estimated_before_it_runs():
    prompts = [render_prompt(QUESTION, EXCERPTS)] * 3
    cost = answer_cost(prompts, model="gpt-4o-mini", price_input_per_m=1.0, price_output_per_m=2.0)
    assert cost.answers == 3 and cost.output_tokens == 3 * MAX_OUTPUT_TOKENS
    assert cost.usd == pytest.approx(cost.input_tokens / 1e6 + cost.output_tokens * 2 / 1e6)
