"""The work of ``sac review`` (:mod:`.review`), imported once its arguments are checked: it needs
the review database (SQLAlchemy) and pandas, seconds to import."""

from __future__ import annotations

import os
from typing import Any

import click
import pandas as pd

from ..dashboard import review as rv
from .options import cache_dir_of, say


def review(**params: Any) -> int:
    """Run one ``sac review`` action; database errors become one-line CLI errors."""
    try:
        return _run(params)
    except rv.ReviewError as e:
        raise click.ClickException(str(e)) from None


def _run(params: dict[str, Any]) -> int:
    url = params["db"] or rv.default_url(cache_dir_of(params))
    db = rv.ReviewDB(url)
    say(f"review database {rv.safe_url(url)}")
    action = params["action"]
    if action == "list":
        for session in db.sessions():
            names = ", ".join(m["name"] for m in session.methods)
            created = f"{session.created_at:%Y-%m-%d %H:%M} by {session.created_by}"
            print(f"{session.name}\t{created}\tk={session.k}\t{names}")
    elif action == "import":
        counts = rv.import_jsonl(db, params["file"])
        print(
            f"imported {counts['labels']} labels, {counts['answer_labels']} answer labels and "
            f"{counts['preferences']} preferences (upserted: no duplicates)"
        )
    elif action == "link":
        session = rv.session_by_name(db, params["session"])
        name = rv.reviewer_name(params["reviewer"]) if params["reviewer"] else session.created_by
        token = rv.issue(db, session.id, rv.REVIEWER if params["reviewer"] else rv.OWNER, name)
        base = params["base_url"] or os.environ.get("SAC_PUBLIC_URL") or "http://localhost:8501"
        who = f"reviewer {name}" if params["reviewer"] else "the owner"
        say(f"a new link of {who} of {session.name}; the old one stops working. Send it to that person only:")
        print(rv.link(base, token))
    elif action == "export":
        count = rv.export(db, params["session"], params["out"])
        print(f"{count} rows → {params['out']}")
    else:
        _report(db, params["session"])
    return 0


def _report(db: rv.ReviewDB, name: str) -> None:
    """Labels by method, preferences with Wilson intervals, agreement, and the answers' labels of one session."""
    session = rv.session_by_name(db, name)
    labels, prefs = rv.label_table(db, session.id), rv.preference_table(db, session.id)
    methods = [m["name"] for m in session.methods]
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        reviewers = labels["reviewer"].nunique() if len(labels) else 0
        print(f"session {session.name}: {reviewers} reviewers, {len(labels)} labels, {len(prefs)} preferences")
        print("\nby method (judged relevant or partly, gold precision of the same chunks, relevant but not gold):")
        print(rv.by_method(labels, methods).round(3).to_string(index=False))
        print("\npreferences (95% Wilson intervals):")
        print(rv.win_rates(prefs, methods).round(3).to_string(index=False))
        agree = rv.agreement(labels)
        if int(agree["reviewers"]) < 2:
            print(f"\nagreement: needs two reviewers of the same chunks ({agree['reviewers']} so far)")
        else:
            print(
                f"\nagreement: {agree['statistic']} {agree['kappa']:.3f} over {agree['chunks']} chunks, "
                f"{agree['reviewers']} reviewers"
            )
        _report_answers(db, session.id, methods)


def _report_answers(db: rv.ReviewDB, session_id: int, methods: list[str]) -> None:
    """Each method's answers: label counts, shares among those judged, agreement."""
    answers = rv.answer_label_table(db, session_id)
    print(f"\nanswers by method ({len(answers)} answer labels; shares among the answers judged, can't tell left out;")
    print("agreement: answers labelled by two reviewers or more on which all gave the same label, of agreement_of):")
    print(rv.answers_by_method(answers, methods).round(3).to_string(index=False))
    agree = rv.answer_agreement(answers)
    if int(agree["reviewers"]) < 2 or not agree["answers"]:
        print(f"\nanswer agreement: needs two reviewers of the same answers ({agree['reviewers']} so far)")
    else:
        kappa = float(agree["kappa"])
        shown = "undefined (one label throughout)" if kappa != kappa else f"{kappa:.3f}"
        print(
            f"\nanswer agreement: {agree['statistic']} {shown} over {agree['answers']} answers, "
            f"{agree['reviewers']} reviewers"
        )
