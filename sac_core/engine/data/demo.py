"""A small synthetic benchmark in the LegalBench-RAG layout: near-identical NDAs and privacy policies.

Every NDA shares one template and differs only in parties, dates, law and numbers, which is
exactly the situation where a plain retriever takes the right clause from the wrong document
(DRM). It is the dashboard's embedded default and the test suite's fixture; it is generated,
deterministic and tiny (about 30 documents, 100 queries).

Layout written: ``corpus/<dataset>/*.txt``, ``benchmarks/<dataset>.json`` and
``summaries/llm.jsonl`` (generic and expert summaries at 150 and 300 characters, written by
hand-made rules from the same facts the documents state, not by an LLM).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

PARTIES = [
    ("Acme Robotics Inc.", "Borealis Capital LLC"),
    ("Cobalt Health Ltd.", "Dunmore Analytics Corp."),
    ("Evergreen Foods plc", "Fjord Logistics AS"),
    ("Granite Bank N.A.", "Helios Software GmbH"),
    ("Ironwood Mining Co.", "Juniper Advisors LP"),
    ("Kestrel Aerospace SA", "Lumen Optics KK"),
    ("Meridian Pharma AG", "Northwind Data Inc."),
    ("Orchid Media Group", "Pinnacle Ventures LLC"),
    ("Quartz Energy Corp.", "Redwood Partners LLP"),
    ("Sable Textiles Pvt. Ltd.", "Tundra Freight Inc."),
    ("Umbra Security Ltd.", "Vertex Biotech Inc."),
    ("Willow Retail Corp.", "Xenon Labs BV"),
]
LAWS = ["New York", "Delaware", "California", "England and Wales", "Ontario", "Texas", "Singapore", "Ireland"]
PURPOSES = [
    "evaluating a potential joint venture",
    "negotiating a supply agreement",
    "assessing a possible acquisition",
    "exploring a software licence",
    "discussing a research collaboration",
    "reviewing a financing transaction",
]
COMPANIES = [
    "Brightleaf Apps",
    "Cinder Games",
    "Dovetail Travel",
    "Emberly Health",
    "Foxglove Fitness",
    "Gullwing Maps",
]
DATASETS = ("demo_nda", "demo_privacy")


@dataclass(frozen=True)
class _Clause:
    key: str  # used in the query
    question: str
    text: str


# The NDA's clauses no query asks about, in the order they appear around the asked ones.
_NDA_FILLER = (
    '"Confidential Information" means all non-public information, in any form, disclosed by one party to '
    "the other, including business plans, customer lists, software, know-how and financial data.",
    "Confidential Information does not include information that is or becomes publicly available through no "
    "fault of the Receiving Party, or that the Receiving Party already knew without restriction.",
    "The Receiving Party may disclose Confidential Information to its employees and advisers who need to "
    "know it for the Purpose and who are bound by obligations at least as protective as these.",
    "Nothing in this Agreement grants any licence or right in any intellectual property of the Disclosing "
    "Party, and all Confidential Information remains the property of the Disclosing Party.",
    "Each party acknowledges that damages may be an inadequate remedy and that the Disclosing Party may seek "
    "injunctive relief for any threatened or actual breach of this Agreement.",
    "This Agreement is the entire agreement of the parties on its subject and may be amended only in writing "
    "signed by both parties. Neither party may assign it without the other's prior written consent.",
)


def _nda(i: int, rng: random.Random) -> tuple[str, list[_Clause], dict[str, str]]:
    a, b = PARTIES[i]
    facts = {
        "a": a,
        "b": b,
        "law": LAWS[i % len(LAWS)],
        "purpose": PURPOSES[i % len(PURPOSES)],
        "years": str(rng.choice([2, 3, 4, 5])),
        "days": str(rng.choice([10, 15, 30, 45, 60])),
        "date": f"{rng.choice(['January', 'March', 'June', 'September', 'November'])} {rng.randint(1, 28)}, "
        f"{rng.randint(2015, 2023)}",
    }
    clauses = [
        _Clause(
            "governing_law",
            "What is the governing law of this agreement?",
            f"This Agreement shall be governed by and construed in accordance with the laws of {facts['law']}, "
            f"without regard to its conflict of laws principles.",
        ),
        _Clause(
            "term",
            "How long do the confidentiality obligations last?",
            f"The obligations of confidentiality under this Agreement shall survive for a period of "
            f"{facts['years']} years from the date of disclosure of the relevant Confidential Information.",
        ),
        _Clause(
            "return",
            "Within how many days must Confidential Information be returned?",
            f"Upon written request, the Receiving Party shall return or destroy all Confidential Information "
            f"within {facts['days']} days and certify such destruction in writing.",
        ),
        _Clause(
            "purpose",
            "For what purpose may Confidential Information be used?",
            f"The Receiving Party shall use the Confidential Information solely for the purpose of "
            f'{facts["purpose"]} between the parties (the "Purpose").',
        ),
    ]
    filler = list(_NDA_FILLER)
    head = (
        f"MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Mutual Non-Disclosure Agreement is entered into as of "
        f'{facts["date"]} by and between {a} ("{a.split()[0]}") and {b} ("{b.split()[0]}").\n\n'
    )
    body = (
        filler[:2]
        + [c.text for c in clauses[3:]]
        + filler[2:4]
        + [clauses[2].text, clauses[1].text]
        + filler[4:]
        + [clauses[0].text]
    )
    numbered = "".join(f"{n}. {p}\n\n" for n, p in enumerate(body, start=1))
    tail = f"IN WITNESS WHEREOF, the parties have executed this Agreement.\n\n{a}\n\n{b}\n"
    return head + numbered + tail, clauses, facts


def _privacy(i: int, rng: random.Random) -> tuple[str, list[_Clause], dict[str, str]]:
    name = COMPANIES[i]
    facts = {
        "name": name,
        "days": str(rng.choice([30, 90, 180, 365])),
        "email": f"privacy@{name.split()[0].lower()}.example",
    }
    clauses = [
        _Clause(
            "retention",
            "How long is personal data kept?",
            f"We retain your personal data for {facts['days']} days after you close your account, unless the "
            f"law requires us to keep it longer.",
        ),
        _Clause(
            "contact",
            "How can users contact the company about privacy?",
            f"If you have questions about this policy, write to our privacy team at {facts['email']}.",
        ),
        _Clause(
            "third_parties",
            "Does the app share data with advertisers?",
            f"{name} does not sell your personal data, but we share device identifiers with advertising "
            f"partners to show you relevant offers.",
        ),
    ]
    filler = [
        "We collect the information you give us when you create an account, such as your name and email address.",
        "We also collect usage data automatically, including the pages you view and the features you use.",
        "You can access, correct or delete your information at any time from the settings page of the app.",
        "We use industry-standard encryption to protect your information in transit and at rest.",
    ]
    body = [filler[0], filler[1], clauses[2].text, filler[2], clauses[0].text, filler[3], clauses[1].text]
    return f"{name.upper()} PRIVACY POLICY\n\n" + "\n\n".join(body) + "\n", clauses, facts


def _summaries(kind: str, facts: dict[str, str]) -> dict[tuple[str, int], str]:
    if kind == "nda":
        g150 = f"Mutual NDA between {facts['a']} and {facts['b']} for {facts['purpose']}; {facts['law']} law."
        g300 = (
            f"Mutual non-disclosure agreement dated {facts['date']} between {facts['a']} and {facts['b']}, "
            f"covering information shared for {facts['purpose']}. Governed by {facts['law']} law; "
            f"confidentiality lasts {facts['years']} years; return within {facts['days']} days."
        )
        e150 = f"Type: mutual NDA; Parties: {facts['a']}, {facts['b']}; Law: {facts['law']}; Term: {facts['years']} yrs"
        e300 = (
            f"Type: mutual NDA ({facts['date']}); Parties: {facts['a']} and {facts['b']}; Purpose: "
            f"{facts['purpose']}; Governing law: {facts['law']}; Term: {facts['years']} years; Return: "
            f"{facts['days']} days; Remedies: injunctive relief."
        )
    else:
        g150 = f"Privacy policy of the {facts['name']} app: data collected, sharing with advertisers, retention."
        g300 = (
            f"Privacy policy of the {facts['name']} mobile app describing account and usage data collection, "
            f"sharing of device identifiers with advertisers, {facts['days']}-day retention after account "
            f"closure, and a privacy contact address."
        )
        e150 = f"Type: privacy policy; Company: {facts['name']}; Retention: {facts['days']} days; Sharing: ads"
        e300 = (
            f"Type: privacy policy; Company: {facts['name']}; Data: account, usage, device identifiers; "
            f"Sharing: advertising partners, no sale; Retention: {facts['days']} days after closure; "
            f"Contact: {facts['email']}."
        )
    return {("generic", 150): g150, ("generic", 300): g300, ("expert", 150): e150, ("expert", 300): e300}


def write_demo_corpus(dest: Path, n_ndas: int = 12, n_policies: int = 6) -> Path:
    """Write the demo benchmark under ``dest`` (created) and return ``dest``."""
    rng = random.Random(194)
    summaries: list[dict] = []
    for dataset, n, make, kind in (
        ("demo_nda", n_ndas, _nda, "nda"),
        ("demo_privacy", n_policies, _privacy, "privacy"),
    ):
        (dest / "corpus" / dataset).mkdir(parents=True, exist_ok=True)
        tests = []
        for i in range(n):
            text, clauses, facts = make(i, rng)
            title = facts.get("a", facts.get("name", "")).split()[0]
            file_path = f"{dataset}/{i + 1:02d}_{title}.txt"
            (dest / "corpus" / file_path).write_text(text, encoding="utf-8")
            about = (
                f"Consider the Non-Disclosure Agreement between {facts['a']} and {facts['b']}; "
                if kind == "nda"
                else f"Consider {facts['name']}'s privacy policy; "
            )
            for c in clauses:
                start = text.index(c.text)
                tests.append(
                    {
                        "query": about + c.question,
                        "snippets": [{"file_path": file_path, "span": [start, start + len(c.text)], "answer": c.text}],
                    }
                )
            for (prompt, chars), summary in _summaries(kind, facts).items():
                summaries.append({"file_path": file_path, "prompt": prompt, "chars": chars, "summary": summary})
        (dest / "benchmarks").mkdir(parents=True, exist_ok=True)
        (dest / "benchmarks" / f"{dataset}.json").write_text(json.dumps({"tests": tests}, indent=1), encoding="utf-8")
    (dest / "summaries").mkdir(parents=True, exist_ok=True)
    with (dest / "summaries" / "llm.jsonl").open("w", encoding="utf-8") as f:
        for row in summaries:
            f.write(json.dumps(row) + "\n")
    return dest
