"""Prompts as versioned data: the paper's built-ins and users' prompt files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.summaries import SummaryError, list_prompts, load_prompt


def write(tmp_path: Path, data: object, name: str = "mine.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


GOOD = {
    "id": "short",
    "version": 2,
    "description": "One line.",
    "template": "Summarize in {char_length} characters:\n{document}",
}


def test_builtin_prompts_are_the_papers() -> None:
    prompts = {p.id: p for p in list_prompts()}
    assert set(prompts) == {"generic", "expert"}
    generic = prompts["generic"]
    assert generic.version == 1
    assert generic.template.startswith("System: You are an expert legal document summarizer.\nUser: Summarize")
    assert "maximum {char_length} characters long" in generic.template
    text = generic.render("THE DOCUMENT", 150)
    assert "maximum 150 characters long" in text and text.endswith("THE DOCUMENT")
    assert "{" not in generic.render("", 300)
    assert generic.retry_message(130).endswith("fits within a 130-character limit.")


def test_expert_meta_prompt_has_the_three_templates_and_lets_the_model_choose() -> None:
    expert = load_prompt("expert")
    assert [name for name, _ in expert.sections] == ["nda", "privacy_policy", "other"]
    sections = dict(expert.sections)
    assert sections["nda"].startswith("Document type Non-Disclosure Agreement (NDA):")
    assert "Remedies for Breach" in sections["nda"]
    assert sections["privacy_policy"].startswith("Document type Privacy Policy:")
    assert "Right to Lodge a Complaint" in sections["privacy_policy"]
    assert sections["other"].startswith("Other document type:")
    rendered = expert.render("DOC TEXT", 300)
    assert "internally identify the document type" in rendered  # selection happens in the model
    assert all(text in rendered for text in sections.values())
    assert "under 300 characters" in rendered and rendered.endswith("DOC TEXT\n")
    shown = expert.text  # for display: placeholders kept, sections filled in
    assert "{char_length}" in shown and "{document}" in shown and "{nda}" not in shown


def test_digest_changes_with_the_text_only() -> None:
    generic, expert = load_prompt("generic"), load_prompt("expert")
    assert generic.digest == load_prompt("generic").digest != expert.digest


def test_user_prompt_file(tmp_path: Path) -> None:
    path = write(
        tmp_path, {**GOOD, "sections": {"extra": "Be terse."}, "template": "{extra} {char_length}: {document}"}
    )
    prompt = load_prompt(str(path))
    assert (prompt.id, prompt.version, prompt.path) == ("short", 2, str(path))
    assert prompt.render("D", 99) == "Be terse. 99: D"
    assert "previous summary is too long" in prompt.retry_message(80)  # default retry message
    assert load_prompt(path).id == "short"  # Path objects too


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ('{"id": "x",', r"mine\.json: invalid JSON at line 1, column \d+"),
        ("[1, 2]", r"mine\.json: expected a JSON object"),
        (
            {"id": "x", "version": 1, "template": "{char_length}{document}"},
            r"mine\.json: missing field\(s\) description",
        ),
        ({**GOOD, "templte": "typo"}, r"mine\.json: unknown field\(s\) templte"),
        ({**GOOD, "version": "1"}, r"mine\.json: field 'version' must be an integer >= 1"),
        ({**GOOD, "version": 0}, r"field 'version' must be an integer >= 1"),
        ({**GOOD, "id": "has space"}, r"field 'id' must match"),
        ({**GOOD, "description": 3}, r"field 'description' must be a string"),
        (
            {**GOOD, "template": "no placeholders"},
            r"field 'template' lacks placeholder\(s\) \{char_length\}, \{document\}",
        ),
        (
            {**GOOD, "template": "{document} {char_length} {text}"},
            r"field 'template' has unknown placeholder\(s\) \{text\}",
        ),
        ({**GOOD, "template": "{document} {char_length} {"}, r"field 'template': .*literal braces"),
        (
            {**GOOD, "retry_template": "shorter please"},
            r"field 'retry_template' lacks placeholder\(s\) \{char_length\}",
        ),
        ({**GOOD, "sections": ["a"]}, r"field 'sections' must be an object of strings"),
        ({**GOOD, "sections": {"document": "x"}}, r"field 'sections' may not use the reserved name"),
    ],
)
def test_malformed_prompt_files_name_file_and_field(tmp_path: Path, data: object, message: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(SummaryError, match=message):
        load_prompt(str(path))


def test_unknown_prompt_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SummaryError, match=r"unknown prompt 'nope'; built-in prompts: expert, generic"):
        load_prompt("nope")
    with pytest.raises(SummaryError, match=r"missing\.json: prompt file not found"):
        load_prompt(str(tmp_path / "missing.json"))
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"id": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(SummaryError, match=r"latin1\.json: not UTF-8"):
        load_prompt(str(bad))
