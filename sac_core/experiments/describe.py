"""A copy of a benchmark folder whose queries name their document as a lawyer would, from its opening.

LegalBench-RAG's document references were written from file names ("Consider BT's Non-Disclosure
Agreement", for ``BT_NDA.txt``, whose text names only Transnet) or from CUAD's annotations. A firm's
own corpus has neither: a lawyer names a contract by what it says on its first page, the way
colleagues say it. :func:`write_described` writes a copy of a benchmark folder in which each
query's opening reference is replaced by such a name, made from the gold document's own opening
(its first :data:`OPENING_CHARS` characters), and the question is kept as it is:

- **the type** from the title, as lawyers say it: an NDA is "NDA", "non-disclosure agreement" or
  "confidentiality agreement" (with "mutual" when the title says so, and the title's own words
  before the type: "focus group NDA"; "form", "standard" say nothing), a plan of merger a "merger
  agreement" or an "acquisition agreement", a few titles by their usual initials ("MSA", "SPA");
  any other title in lower case ("strategic alliance agreement");
- **the parties** from the opening's company and institution names (those ending in a legal suffix
  or naming a university, bank, department, state …, and one lower-case word before ", inc." as
  some companies write theirs: "thoughtbot, inc."): their defined short name when it is a name
  ("Transnet", "LSUK"; not a role such as "Company" or "Recipient"), else the name without its
  legal suffix ("Red River Oil", not "Red River Oil Inc."), or its initials ("RRO"); a merger sub is
  never named, and of more than two parties the first and the last are; sometimes only one party;
- **a date** (the year of the first date in the opening) in some references;
- **a form** with no party named ("________", "[entity]") as "the form / template / standard
  <type>", with the institution on its letterhead or its year when it has one.

Every choice is deterministic: the naming style of a party by the document (a lawyer names a
contract the same way each time), the sentence shape and the date by the document and question.
The rules here share no code with the router that reads documents (:mod:`sac_core.engine.retrieval
.profiles`) or with the entity rules (:mod:`sac_core.engine.entities`): the router must undo what
they do (suffixes dropped, initials, another name of the type) by its own, generic means. The
folder is written like every copy (:mod:`.transformed`: same tests in the same order, same ids and
gold, corpus and summaries linked; ``"transform": "described"``), beside its target and renamed at
the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import store
from ..engine.data import BenchmarkError, read_benchmark_file, read_document, staged
from ..engine.retrieval import split_query
from .transformed import LINKED, copy_datasets, with_transform, write_benchmarks

TRANSFORM = "described"
OPENING_CHARS = 6_000  # what a lawyer reads of a contract to name it: its cover page and preamble

_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
_YEAR = re.compile(
    rf"{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTH},?\s+((?:19|20)\d\d)"
)
_WORD = r"[A-Z][\w'’.-]*"
_LINK = r"(?:of|and|&|the|de|for|at)"
_SUFFIX = (
    r"(?i:Inc|Incorporated|Corp|Corporation|Company|Co|LLC|L\.L\.C|Ltd|Limited|GmbH|AG|S\.A|SA/NV|N\.V|B\.V|plc"
    r"|L\.P|LP|LLP|Pty\.?\s+Ltd|\(Pty\)\s+Ltd|P/L|S\.à\s+r\.l|Bank|Bancorp|University|Institute|Foundation"
    r"|Partners|Trust|Investors|Laboratories)"
)
_ORG = re.compile(
    rf"\b((?:{_WORD}[^\S\n]+(?:{_LINK}[^\S\n]+)*){{0,6}}?{_WORD}),?[^\S\n]+({_SUFFIX})\.?(?![\w])"
    rf"|\b((?i:University|Department|State|City|Board|Ministry|County|Commonwealth)[^\S\n]+(?i:of)[^\S\n]+{_WORD}"
    rf"(?:[^\S\n]+(?:{_LINK}[^\S\n]+)*{_WORD}){{0,4}})"
    r"|(?<![\w.])([a-z][\w'’.-]*\w),[^\S\n]+((?i:Inc|LLC|L\.L\.C|Ltd|Limited|Corp|Corporation|GmbH|plc))\.?(?![\w])"
)  # the last: a company that writes its name in lower case ("thoughtbot, inc."): one word, then a comma
_DEFINED = re.compile(r"\((?:[^()“\"]{0,60}?)[“\"]([^”\"\n]{1,40})[”\"]")
_STRIP = re.compile(rf",?\s+{_SUFFIX}\.?$")
_SUB = re.compile(
    r"\bsub(?:sidiary)?\b|\bmerger\s+(?:corp|inc|llc|co)\b|\bacquisition\s+(?:corp|inc|co|llc)\b|\bpurchaser\b", re.I
)
_ROLES = frozenset(
    "company companies recipient recipients discloser disclosee disclosing receiving party parties parent buyer seller "
    "sellers licensor licensee employer employee university state vendor client customer supplier distributor agent "
    "contractor consultant purchaser owner servicer bank agreement effective date sponsor institution user member "
    "partner reseller manufacturer provider investor lender borrower guarantor landlord tenant the a an company x "
    "company y counterparty contractor".split()
)
_TYPE_WORDS = re.compile(
    r"\b(?:agreement|contract|deed|nda|memorandum|undertaking|licen[cs]e|plan of merger|terms|policy)\b", re.I
)
_MAIN_TYPE = re.compile(r"\b(?:agreement|contract|deed|memorandum|undertaking)\b", re.I)
_NDA = re.compile(r"non[\s‐-]*disclosure|nondisclosure|confidentiality|secrecy|\bnda\b", re.I)
_BETWEEN = re.compile(r"\b(?:by and between|by and among|between|among|amongst|parties)\b", re.I)
_LEADING = re.compile(r"^(?:(?i:and|between|among|by|with|whereas|to|from)\s+)+")  # words a name never starts with
_FIRST_NAME = re.compile(r"(?:between|among)\s*:?\s+((?:[A-Z][\w'’-]*[^\S\n]*){1,4})[,(\n]")  # a name with no suffix
_ZONE_END = re.compile(r"(?i)\bdated\b|\bwhereas\b|\brecitals\b|\btable of contents\b|\bbackground\b|\bwitnesseth\b")
_NOT_NAMES = frozenset(
    "agreement article section letter disclosure representations warranties whereas signature surviving directors "
    "board representatives schedule exhibit definitions witnesseth recitals between and your".split()
)
_INITIALS = {  # titles lawyers say by their initials
    "master services agreement": "MSA",
    "master supply agreement": "MSA",
    "stock purchase agreement": "SPA",
    "share purchase agreement": "SPA",
    "asset purchase agreement": "APA",
    "memorandum of understanding": "MOU",
    "statement of work": "SOW",
}
_SMALL = frozenset({"of", "and", "&", "the", "de", "for", "at"})
_FORM_WORDS = frozenset({"mutual", "standard", "form", "template", "sample", "model"})  # say nothing of the document


@dataclass(frozen=True)
class Opening:
    """What a document's opening says it is: its type as a lawyer names it (a few ways), its parties'
    names (each a few ways), its letterhead institution, its year."""

    kinds: tuple[str, ...]
    parties: tuple[tuple[str, ...], ...]
    issuer: str
    year: str


def _pick(options: tuple[str, ...] | list[str], seed: str) -> str:
    """One of ``options``, the same for the same ``seed`` (a SHA-256 draw: deterministic)."""
    return options[int(store.sha256(seed)[:8], 16) % len(options)]


def _title_case(name: str) -> str:
    """``AMRYT PHARMA`` → ``Amryt Pharma`` (small words in lower case, words of three letters or
    fewer kept: ``PPD``); a name in mixed case as it is."""
    if not name.isupper():
        return name
    return " ".join(w.lower() if w.lower() in _SMALL else w if len(w) <= 3 else w.capitalize() for w in name.split())


def clean_name(name: str) -> str:
    """A party's name as said aloud: legal suffixes and a leading "The" dropped, capitals softened."""
    name = re.sub(r"\s+", " ", name).strip(" ,.;")
    while (stripped := _STRIP.sub("", name)) != name and stripped:
        name = stripped
    return _title_case(re.sub(r"^(?i:the)\s+", "", name)).strip(" ,.")


def name_initials(name: str) -> str:
    """The initials of a name's capitalised words (``Red River Oil`` → ``RRO``)."""
    return "".join(w[0].upper() for w in name.split() if w.lower() not in _SMALL and w[:1].isalpha())


def _zone(opening: str) -> str:
    """Where an opening names its parties: from its first "between" / "among" / "parties" to the date,
    recitals or table of contents after it (700 characters at most); without one, its first 1,500."""
    start = _BETWEEN.search(opening)
    if start is None:
        return opening[:1500]
    zone = opening[start.start() : start.start() + 700]
    end = _ZONE_END.search(zone, len(start.group(0)))
    return zone[: end.start()] if end else zone


def _is_name(full: str, before: str) -> bool:
    """Whether an organisation match names a party: not "a Delaware corporation", not under "the laws
    of", not a merger sub, not a heading or a role."""
    if re.search(r"(?i)\b(?:a|an|the laws of|laws of the|under|incorporated in)\s*$", before):
        return False
    words = {w.lower().strip("'’s") for w in re.findall(r"[\w'’]+", full)}
    return not (_SUB.search(full) or words & _NOT_NAMES or words <= _ROLES | _SMALL)


def _full_name(m: re.Match[str]) -> str:
    """The name a match of :data:`_ORG` or :data:`_FIRST_NAME` found, with its legal suffix."""
    if m.re is _FIRST_NAME:
        return m.group(1)
    if m.group(3) or m.group(4):  # an institution ("University of …"), or a lower-case name and its suffix
        return m.group(0)
    return f"{m.group(1)} {m.group(2)}"


def _parties(opening: str) -> tuple[tuple[str, ...], ...]:
    """Each party's names (its defined short name when a name, its clean name, its initials when long),
    in the order the opening names them; no merger sub; of more than two, the first and the last."""
    found: list[tuple[str, ...]] = []
    seen: set[str] = set()
    zone = _zone(opening)
    at = opening.find(zone)
    matches = list(_ORG.finditer(zone)) or list(_FIRST_NAME.finditer(zone))[:1]
    for m in matches:
        full = _LEADING.sub("", _full_name(m))
        after = opening[at + m.end() : at + m.end() + 160]
        defined = _DEFINED.match(after.lstrip(" ,")) or _DEFINED.search(after)
        short = defined.group(1).strip() if defined else ""
        clean = clean_name(full)
        if not _is_name(full, zone[max(0, m.start() - 20) : m.start()]) or not clean or clean.lower() in seen:
            continue
        if _SUB.search(short):
            continue
        seen.add(clean.lower())
        names = [clean]
        short_words = {w.lower() for w in short.split()}
        if (
            short
            and not short_words & (_ROLES | _NOT_NAMES | seen)
            and short.lower() != clean.lower()
            and len(short_words) <= 3
        ):
            names.insert(0, _title_case(short))
            seen.add(short.lower())
        if len([w for w in clean.split() if w.lower() not in _SMALL]) >= 3:
            names.append(name_initials(clean))
        found.append(tuple(names))
    return tuple(found if len(found) <= 2 else [found[0], found[-1]])


def _title(opening: str) -> str:
    """The document's title: the first agreement-like word (else the first type word) and the up to
    four capitalised words before it on its line, in the same case (``WEBSITE CONTENT LICENSE AGREEMENT``)."""
    if re.search(r"(?i)agreement\s+and\s+plan\s+of\s+merger", opening[:3000]):
        return "Agreement and Plan of Merger"
    m = _MAIN_TYPE.search(opening[:3000]) or _TYPE_WORDS.search(opening[:3000])
    if m is None:
        return ""
    line = opening[max(0, m.start() - 80) : m.start()].split("\n")[-1]
    lead: list[str] = []
    for word in reversed(re.findall(r"[A-Za-z][\w‐-]*", line)):
        same_case = word.isupper() if m.group(0).isupper() else word[0].isupper() and not word.isupper()
        if len(lead) == 4 or not same_case or word.lower() in {"this", "exhibit", "the"}:
            break
        lead.insert(0, word)
    return " ".join([*lead, m.group(0)])


def _kinds(title: str, opening: str) -> tuple[str, ...]:
    """The ways a lawyer names the document's type."""
    lower = title.lower()
    nda = _NDA.search(title)
    if nda:  # the title's own words before the type stay ("focus group NDA"); "mutual" is kept in front
        words = [w for w in re.findall(r"[\w‐'’-]+", lower[: nda.start()]) if w not in _FORM_WORDS and len(w) > 1]
        while words and words[0] in _SMALL | {"a", "an"}:  # "of the focus group" → "focus group"
            words.pop(0)
        while words and words[-1] in _SMALL:
            words.pop()
        lead = " ".join(["mutual", *words] if "mutual" in lower else words)
        lead = f"{lead} " if lead else ""
        return (f"{lead}NDA", f"{lead}non-disclosure agreement", f"{lead}confidentiality agreement")
    if "merger" in lower or re.search(r"(?i)plan\s+of\s+merger", opening[:3000]):
        return ("merger agreement", "acquisition agreement")
    plain = lower or "agreement"
    short = _INITIALS.get(plain)
    return (plain, short) if short else (plain,)


def read_opening(text: str) -> Opening:
    """What a lawyer reads on a document's first page (see the module docstring)."""
    opening = text[:OPENING_CHARS]
    year = _YEAR.search(opening)
    issuer = _ORG.search(opening[:300])  # a letterhead: what a form with no party is known by
    return Opening(
        kinds=_kinds(_title(opening), opening),
        parties=_parties(opening),
        issuer=clean_name(issuer.group(0)) if issuer and _is_name(issuer.group(0), "") else "",
        year=(year.group(1) or year.group(2)) if year else "",
    )


def describe(opening: Opening, document: str, question: str) -> str:
    """A lawyer's reference to the document (``document``: its path, for the deterministic draws)."""
    seed = f"{document}\n{question}"
    kind = _pick(opening.kinds, seed + "kind")
    names = [_pick(names, document + name_seed) for name_seed, names in zip("ab", opening.parties)]
    dated = f" dated {opening.year}" if opening.year and _pick(("yes", "no", "no"), seed + "year") == "yes" else ""
    if len(names) == 2:
        a, b = names
        shapes = (
            f"the {kind} between {a} and {b}",
            f"the {a}/{b} {kind}",
            f"{a}'s {kind} with {b}",
            f"the {kind} with {b}",
        )
        return _pick(shapes, seed) + dated
    if len(names) == 1:
        return _pick((f"{names[0]}'s {kind}", f"the {kind} with {names[0]}", f"the {names[0]} {kind}"), seed) + dated
    form = _pick(("form", "template", "standard"), seed + "form")
    if opening.issuer:
        return f"the {form} {kind} of {opening.issuer}"
    return f"the {form} {kind}" + (f" dated {opening.year}" if opening.year else "")


def described_query(query: str, opening: Opening, document: str) -> str:
    """``query`` with its opening reference replaced by :func:`describe`'s (unchanged without one)."""
    parts = split_query(query)
    if not parts.split:
        return query
    return f"Consider {describe(opening, document, parts.question)}; {parts.question}"


def write_described(data_dir: Path, out_dir: Path) -> dict[str, tuple[int, int]]:
    """Write the copy; returns ``dataset → (queries, queries whose reference was rewritten)``. Raises
    :class:`BenchmarkError` when ``out_dir`` lies inside the project, exists and is not empty or
    cannot be written, or naming the benchmark file (and query) or document that cannot be read."""
    data_dir = Path(data_dir)
    with staged(Path(out_dir), "described benchmark") as work:
        openings: dict[str, Opening] = {}
        files = {ds: _described(data_dir, ds, openings) for ds in copy_datasets(data_dir)}
        write_benchmarks(work, {ds: raw for ds, (raw, _) in files.items()})
        for folder in LINKED:
            if (data_dir / folder).is_dir():
                (work / folder).symlink_to((data_dir / folder).resolve(), target_is_directory=True)
    return {ds: (len(raw["tests"]), changed) for ds, (raw, changed) in files.items()}


def _described(data_dir: Path, dataset: str, openings: dict[str, Opening]) -> tuple[dict[str, Any], int]:
    """One benchmark file's object with its references rewritten; how many were."""
    path = data_dir / "benchmarks" / f"{dataset}.json"
    raw = read_benchmark_file(path)
    tests, changed = [], 0
    for i, test in enumerate(raw["tests"]):
        snippets = test.get("snippets") if isinstance(test, dict) else None
        if not isinstance(test.get("query") if isinstance(test, dict) else None, str) or not snippets:
            raise BenchmarkError(f"{path}: query {dataset}/{i}: needs a string 'query' and 'snippets'")
        document = snippets[0].get("file_path") if isinstance(snippets[0], dict) else None
        if not isinstance(document, str):
            raise BenchmarkError(f"{path}: query {dataset}/{i}: snippet without a string 'file_path'")
        if document not in openings:
            openings[document] = read_opening(read_document(data_dir, document).text)
        query = described_query(test["query"], openings[document], document)
        changed += query != test["query"]
        tests.append({**test, "query": query})
    return with_transform(raw, tests, TRANSFORM), changed
