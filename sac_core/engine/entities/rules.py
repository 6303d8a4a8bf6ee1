"""Rules that read a legal document's facts from its text: title, type, parties, dates, defined
terms, section headings and, for privacy policies, the data it talks about.

Regular expressions tuned on LegalBench-RAG's contracts, NDAs and privacy policies (no model, no
network, deterministic). They read the first ``SCAN_CHARS`` characters, where these facts are.
Used by the offline summaries (:mod:`sac_core.engine.summaries.extractive`) and by the entity
layer (:mod:`.extract`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib import resources

WORDS_FILE = "words.json"  # package data beside this module (pyproject.toml ships it)
SCAN_CHARS = 60_000  # characters of a document the rules read (titles, parties and dates come early)

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATE = re.compile(
    rf"\b(?:(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?(?:{_MONTHS}),?\s+\d{{4}})\b",
    re.IGNORECASE,
)
_TITLE_WORDS = re.compile(
    r"\b(agreement|contract|policy|notice|plan of merger|terms|license|licence|amendment|addendum|"
    r"undertaking|deed|memorandum|statement|charter|bylaws|lease|note|indenture)\b",
    re.IGNORECASE,
)
_EXHIBIT = re.compile(r"^\W*(?:exhibit|annex|schedule)\s+[\w.()-]+\s*|^\W*execution (?:version|copy)\s*", re.IGNORECASE)
_QUOTED_DEFINITION = re.compile(r"\s*\((?:the\s+)?[“\"][^”\"]*[”\"]\)")  # (“Agreement”)
_THIS_TITLE = re.compile(
    r"\b(?:THIS|This)\s+((?:[A-Z][\w&'/-]*,?\s+){1,7}?"
    r"(?:AGREEMENT|Agreement|CONTRACT|Contract|POLICY|Policy|NOTICE|Notice|PLAN OF MERGER|Plan of Merger))\b"
)
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"}
_COMPANY_SUFFIX = (
    r"(?:Inc|INC|Corp|CORP|Corporation|CORPORATION|Incorporated|INCORPORATED|LLC|L\.L\.C|Ltd|LTD|Limited|LIMITED"
    r"|L\.P|LP|N\.V|B\.V|S\.A|AG|GmbH|plc|PLC|Co|CO|SA/NV)"
)
_PARTIES_START = re.compile(r"\b(?:by and |entered into )?(?:between|among|amongst)\b\s*:?\s*", re.IGNORECASE)
_PARTIES_END = re.compile(
    rf"\bWHEREAS\b|\bRECITALS\b|\bBACKGROUND\b|\bTABLE OF CONTENTS\b|\b[Dd]ated\b|\(the\b|(?i:{_DATE.pattern})"
    r"|(?<=[a-z]{2})\.\s+(?=[A-Z][a-z])"
)
_AFTER_COMPANY = re.compile(rf"\b({_COMPANY_SUFFIX}\.?),\s+(?=[A-Z])")  # "CISCO SYSTEMS, INC., AMARONE ..."
_PARTY_SPLIT = re.compile(r"(?:^|\s+)and\s*:?\s+|;\s*", re.IGNORECASE)
_PARTY_CUT = re.compile(  # where a name ends: "(", ":", a street address, "OF THE FIRST PART", ...
    r"\s*[(\[:]|\s+Page\s+\d|\s+\d{1,5}\s+[A-Z][a-z]|\s+OF THE \w+ PART\b|,?\s+(?:Company\s+)?Registration\b"
)
_PARTY_TAIL = re.compile(
    r",?\s+(?:a|an|with|having|whose|located|organized|organised|incorporated|its|each|acting|represented|"
    r"hereinafter|residing|registered|who|which|duly|on|as of|effective|dated|made)\b.*",
    re.DOTALL,
)
_ABBREVIATION_END = re.compile(r"\b(?:Inc|Corp|Ltd|Co|L\.P|N\.V|B\.V|S\.A|L\.L\.C)$", re.IGNORECASE)
_DEFINED = re.compile(r"[“\"]([A-Z][^”\"\n]{1,40}?)[”\"]")
_HEADING = re.compile(  # "1. CONFIDENTIAL INFORMATION." on a line of its own
    r"^\s*(?:(?:article|section)\s+)?[0-9IVX]+(?:\.[0-9]+)*\.?\s+([A-Z][A-Za-z ,;&'-]{2,40}?)[.:]?\s*$", re.MULTILINE
)
_NAME = re.compile(r"\b(?:[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|\d+[a-z]+[A-Za-z0-9]*|[A-Z][a-z]{2,})\b")

# Word lists (data, not code): words that say nothing about WHICH document this is (compared in
# lower case), and what privacy policies differ in (the kinds of data and uses they mention).
_LISTS = json.loads(resources.files(__package__).joinpath(WORDS_FILE).read_text(encoding="utf-8"))
_GENERIC = frozenset(w.lower() for w in _LISTS["generic"])
_PRIVACY_TOPICS = tuple(_LISTS["privacy_topics"])
# Short words that are not acronyms when written in capitals.
_WORDS = _SMALL_WORDS | {"sub", "new", "one", "two", "oil", "gas", "bay", "air", "sea", "big", "top", "old", "red"}
TYPE_LABELS = {"nda": "Non-Disclosure Agreement", "privacy_policy": "Privacy Policy", "other": "Legal document"}


def document_type(text: str) -> str:
    """``"nda"``, ``"privacy_policy"`` or ``"other"`` by keywords in the first 5,000 characters.

    A simple documented rule for offline use and display; LLM prompts do not use it (the expert
    meta-prompt lets the model decide, as in the paper).
    """
    head = text[:5000].lower()
    if re.search(r"non-?\s?disclosure|confidentiality (agreement|undertaking)|secrecy agreement|\bnda\b", head):
        return "nda"
    if re.search(r"privacy (policy|notice|statement)", head) or (
        len(re.findall(r"personal (data|information)", head)) >= 2 and re.search(r"\bwe (collect|use)\b", head)
    ):
        return "privacy_policy"
    return "other"


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _nice_case(text: str) -> str:
    """ALL-CAPS text in title case (small words lower-case, acronyms kept); other text unchanged."""
    letters = [c for c in text if c.isalpha()]
    if not letters or any(c.islower() for c in letters):
        return text
    words = []
    for i, word in enumerate(text.split(" ")):
        bare = word.strip(",.;:()")
        if i > 0 and bare.lower() in _SMALL_WORDS:
            words.append(word.lower())
        elif bare.upper() in {"INC", "CORP", "LTD", "CO"}:
            words.append(word[:1] + word[1:].lower())
        elif bare.upper() in {"LLC", "NDA", "USA", "L.L.C", "L.P", "N.V", "B.V", "S.A", "SA/NV"} or (
            bare.isalpha() and (len(bare) <= 3 or not re.search(r"[AEIOUY]", bare)) and bare.lower() not in _WORDS
        ):
            words.append(word)
        else:
            words.append(re.sub(r"(^\W*|[-/])(\w)", lambda m: m.group(1) + m.group(2).upper(), word.lower()))
    return " ".join(words)


def _mostly_capitalised(text: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z][\w'/-]*", text) if w.lower() not in _SMALL_WORDS]
    return bool(words) and all(w[0].isupper() for w in words)


def title(scan: str) -> str:
    """The first short, capitalised line naming a document kind; else ``This <...> Agreement``."""
    segments = [_EXHIBIT.sub("", _one_line(x)) for x in re.split(r"\n|\s{3,}", scan[:4000])]
    for segment in [_QUOTED_DEFINITION.sub("", x) for x in segments if x][:25]:
        if len(segment) > 90 or len(segment.split()) > 12 or re.match(r"(?i)(article|section)\b|.*\s\d+$", segment):
            continue  # too long, or a table-of-contents entry
        if _TITLE_WORDS.search(segment) and _mostly_capitalised(segment) and not segment.lower().startswith("this "):
            return _nice_case(segment.strip(" .:;,"))
    match = _THIS_TITLE.search(_one_line(scan[:3000]))
    if match and len(match.group(1).split()) > 1:
        return _nice_case(match.group(1).strip(" ,"))
    return ""


def parties(scan: str) -> list[str]:
    """Names after the first ``between`` / ``among`` that is followed by a name."""
    head = scan[:8000]
    for start in _PARTIES_START.finditer(head):
        rest = head[start.end() : start.end() + 600]
        end = _PARTIES_END.search(rest)
        segment = _one_line(rest[: end.start()] if end else rest)
        pieces = _PARTY_SPLIT.split(_AFTER_COMPANY.sub(r"\1; ", segment))
        if not end:
            pieces = pieces[:-1]  # the window may end inside the last name
        names = [n for n in map(_clean_party, pieces) if n]
        if names:
            return list(dict.fromkeys(names))
    return []


def _clean_party(raw: str) -> str:
    name = _PARTY_TAIL.sub("", _PARTY_CUT.split(raw)[0])
    name = re.sub(r"^(?:the\s+)?(?:following\s+)?parties\s*", "", name.strip(), flags=re.IGNORECASE)
    name = name.strip(" ,;:\"“”'")
    if name.endswith(".") and not _ABBREVIATION_END.search(name[:-1]):
        name = name[:-1]
    if len(name) > 60 or not _looks_like_name(name):
        return ""
    return _nice_case(name)


def _looks_like_name(name: str) -> bool:
    """Capitalised words, not all generic (``the Company``, ``Recipient``), no blanks to fill in."""
    words = re.findall(r"[A-Za-z0-9][\w&.'-]*", name)
    if not words or not any(c.isalpha() for c in name) or "_" in name or "…" in name:
        return False
    if not _mostly_capitalised(name) or not (name[0].isupper() or name[0].isdigit()):
        return False
    return not all(w.lower().strip(".") in _GENERIC for w in words)


def names(scan: str, exclude: str) -> list[str]:
    """Most frequent distinctive capitalised names (e.g. the company behind a privacy policy)."""
    skip = {w.lower() for w in re.findall(r"\w+", exclude)}
    counts = Counter(m.group(0) for m in _NAME.finditer(scan) if m.group(0).lower() not in _GENERIC)
    lower = Counter(w for w in re.findall(r"\b[a-z][a-z0-9]+\b", scan))
    ranked = [
        (n, c)
        for n, c in counts.most_common(40)
        if c >= 3 and n.lower() not in skip and lower[n.lower()] < c  # mostly capitalised in the text
    ]
    names = [n for n, c in ranked if c * 2 >= ranked[0][1]] if ranked else []
    return names[:2]


def privacy_topics(scan: str) -> list[str]:
    """Data kinds and uses a privacy policy mentions at least twice, most mentioned first."""
    low = scan.lower()
    counts = {t: len(re.findall(rf"\b{re.escape(t.lower())}", low)) for t in _PRIVACY_TOPICS}
    return sorted((t for t, c in counts.items() if c >= 2), key=lambda t: -counts[t])[:6]


def first_date(scan: str) -> str:
    match = _DATE.search(scan[:20000])
    if not match:
        return ""
    date = _one_line(match.group(0))
    return re.sub(rf"\b({_MONTHS})\b", lambda m: m.group(1).capitalize(), date, flags=re.IGNORECASE)


def defined_terms(scan: str, exclude: list[str]) -> list[str]:
    seen = {e.lower() for e in exclude}
    terms: list[str] = []
    for match in _DEFINED.finditer(scan[:30000]):
        term = _one_line(match.group(1)).strip(" ,.;:")
        words = re.findall(r"\w+", term)
        if not words or len(words) > 5 or term.lower() in seen:
            continue
        if all(w.lower() in _GENERIC for w in words) or scan.count(term) < 2:
            continue  # generic, or defined but hardly used
        seen.add(term.lower())
        terms.append(term if len(words) == 1 else _nice_case(term))
    return terms


def headings(scan: str) -> list[str]:
    out: list[str] = []
    for match in _HEADING.finditer(scan[:30000]):
        heading = _nice_case(_one_line(match.group(1)).strip(" ,;"))
        if heading.lower() not in {h.lower() for h in out} and not heading.lower().startswith(("the ", "a ", "an ")):
            out.append(heading)
    return out
