"""Summary prompts as versioned data: the package's ``prompts/<id>.json`` files or a user's JSON file.

(``prompts/`` is a data folder beside this module, not a Python package.)

A prompt file is one JSON object::

    {
      "id": "generic",                 # [A-Za-z0-9_.-]+, names the prompt in caches and results
      "version": 1,                    # integer >= 1; bump it when the text changes
      "description": "...",            # one or two sentences for people
      "template": "... {char_length} ... {document}",
      "retry_template": "... {char_length} ...",     # optional: the length-retry message
      "sections": {"nda": "..."},      # optional: named parts the template includes as {nda}
      "source": "..."                  # optional: where the text comes from
    }

``{char_length}`` is the target summary length in characters and ``{document}`` the document
text (head and tail of long documents, see :func:`sac_core.engine.summaries.length.shorten_document`).
Other ``{name}`` placeholders must be keys of ``sections``; write ``{{`` / ``}}`` for literal
braces. The rendered template is sent as ONE user message, as in the SAC authors' code (the
paper's ``System:`` / ``User:`` labels are part of the text).

Built-in prompts (transcribed from Reuter et al. 2025, arXiv:2510.06999):

- ``generic``: Section 3.3, the paper's best prompt.
- ``expert``: Appendix D, the expert-guided meta-prompt. **Template selection is done by the
  model, inside this single prompt**: the paper's meta-prompt tells the model to "internally
  identify the document type" (NDA, privacy policy or other) and then follow the matching
  template (``sections`` ``nda``, ``privacy_policy``, ``other``). No code classifies documents
  before prompting; :func:`sac_core.engine.entities.rules.document_type` is only a keyword
  rule for the offline provider and for display.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .. import store
from .errors import SummaryError, json_object

# The SAC authors' length-retry message (used when a prompt file has no retry_template).
DEFAULT_RETRY_TEMPLATE = (
    "Your previous summary is too long. Please follow the described logic to generate the most "
    "informative, structured summary of the given legal document that fits within a "
    "{char_length}-character limit."
)
_ID = re.compile(r"^[A-Za-z0-9_.-]+$")
_REQUIRED = ("id", "version", "description", "template")
_OPTIONAL = ("retry_template", "sections", "source")


@dataclass(frozen=True)
class Prompt:
    """One summary prompt. ``sections`` are ``(name, text)`` pairs in file order."""

    id: str
    version: int
    description: str
    template: str
    retry_template: str = DEFAULT_RETRY_TEMPLATE
    sections: tuple[tuple[str, str], ...] = ()
    source: str = ""
    path: str = ""

    def render(self, document: str, char_length: int) -> str:
        """The message for one document and a target length in characters."""
        return self.template.format(document=document, char_length=char_length, **dict(self.sections))

    def retry_message(self, char_length: int) -> str:
        """The follow-up message asking for a summary of at most ``char_length`` characters."""
        return self.retry_template.format(char_length=char_length)

    @property
    def text(self) -> str:
        """The full prompt for display: sections filled in, ``{char_length}`` and ``{document}`` kept."""
        return self.template.format(document="{document}", char_length="{char_length}", **dict(self.sections))

    @property
    def digest(self) -> str:
        """sha256 (hex, 16 characters) of everything sent to the model: template, sections, retry."""
        return store.sha256([self.template, list(self.sections), self.retry_template])[:16]


@lru_cache(maxsize=1)
def builtin_prompt_ids() -> tuple[str, ...]:
    """Ids of the prompts shipped in ``sac_core/engine/summaries/prompts/`` (package data: read once)."""
    folder = resources.files(__package__) / "prompts"
    return tuple(sorted(p.name[: -len(".json")] for p in folder.iterdir() if p.name.endswith(".json")))


def list_prompts() -> list[Prompt]:
    """All built-in prompts, sorted by id."""
    return [load_prompt(pid) for pid in builtin_prompt_ids()]


def load_prompt(prompt: str | Path) -> Prompt:
    """A built-in prompt by id (``"generic"``, ``"expert"``) or a user's prompt from a JSON file path."""
    name = str(prompt)
    if name in builtin_prompt_ids():
        resource = resources.files(__package__) / "prompts" / f"{name}.json"
        loaded = _parse(resource.read_text(encoding="utf-8"), f"built-in prompt {name} ({resource})")
        if loaded.id != name:
            raise SummaryError(f"{resource}: field 'id' is {loaded.id!r}, expected {name!r}")
        return loaded
    path = Path(name).expanduser()
    if path.is_file():
        try:
            raw = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise SummaryError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
        return _parse(raw, str(path))
    if path.suffix == ".json" or "/" in name or "\\" in name:
        raise SummaryError(f"{path}: prompt file not found")
    raise SummaryError(
        f"unknown prompt {name!r}; built-in prompts: {', '.join(builtin_prompt_ids())}; "
        "or give the path of a prompt JSON file"
    )


def _parse(raw: str, where: str) -> Prompt:
    data = json_object(raw, where, _REQUIRED)
    unknown = sorted(set(data) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        allowed = ", ".join(_REQUIRED + _OPTIONAL)
        raise SummaryError(f"{where}: unknown field(s) {', '.join(unknown)}; allowed: {allowed}")
    for field in ("id", "description", "template", "retry_template", "source"):
        if field in data and not isinstance(data[field], str):
            raise SummaryError(f"{where}: field '{field}' must be a string")
    if not _ID.match(data["id"]):
        raise SummaryError(f"{where}: field 'id' must match [A-Za-z0-9_.-]+, got {data['id']!r}")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SummaryError(f"{where}: field 'version' must be an integer >= 1, got {version!r}")
    sections = data.get("sections", {})
    if not isinstance(sections, dict) or not all(isinstance(v, str) for v in sections.values()):
        raise SummaryError(f"{where}: field 'sections' must be an object of strings")
    reserved = {"char_length", "document"} & set(sections)
    if reserved:
        raise SummaryError(f"{where}: field 'sections' may not use the reserved name(s) {', '.join(sorted(reserved))}")
    required = {"char_length", "document"}
    _check_placeholders(where, "template", data["template"], required | set(sections), required)
    retry = data.get("retry_template", DEFAULT_RETRY_TEMPLATE)
    _check_placeholders(where, "retry_template", retry, {"char_length"}, {"char_length"})
    return Prompt(
        id=data["id"],
        version=version,
        description=data["description"],
        template=data["template"],
        retry_template=retry,
        sections=tuple(sections.items()),
        source=data.get("source", ""),
        path=where,
    )


def _check_placeholders(where: str, field: str, text: str, allowed: set[str], required: set[str]) -> None:
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as e:
        raise SummaryError(f"{where}: field '{field}': {e} (write {{{{ and }}}} for literal braces)") from None
    unknown = sorted(names - allowed)
    if unknown:
        raise SummaryError(
            f"{where}: field '{field}' has unknown placeholder(s) {', '.join('{' + n + '}' for n in unknown)}; "
            f"allowed: {', '.join('{' + n + '}' for n in sorted(allowed))}"
        )
    absent = sorted(required - names)
    if absent:
        raise SummaryError(f"{where}: field '{field}' lacks placeholder(s) {', '.join('{' + n + '}' for n in absent)}")
