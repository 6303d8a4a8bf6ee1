"""A finished review in words (issue 45): sentences per method, the notes beside where they were
written, methods and ranks in words; hand-made tables, hand-computed numbers."""

from __future__ import annotations

import pandas as pd

from sac_core.dashboard import review as rv


def _labels() -> pd.DataFrame:
    rows = [  # (position, query, ranks, gold_chars, reviewer, label, note)
        (0, "Which law?", {"Baseline": 1, "Recommended": 2}, 10, "lena", "relevant", "clause 12"),
        (0, "Which law?", {"Baseline": 2}, 0, "lena", "wrong_document", ""),
        (1, "Who may assign?", {"Recommended": 1}, 0, "lena", "partly", ""),
        (1, "Who may assign?", {"Baseline": 1}, 0, "lena", "cant_tell", "unclear excerpt"),
    ]
    return pd.DataFrame([{"position": p, "query": q, "ranks": r, "gold_chars": g, "reviewer": who, "label": lab,
                          "note": n} for p, q, r, g, who, lab, n in rows])  # fmt: skip


def _answers() -> pd.DataFrame:
    return pd.DataFrame([{"position": 1, "query": "Who may assign?", "method": "Recommended", "reviewer": "lena",
                          "label": "correct", "note": "says so"}])  # fmt: skip


def _prefs() -> pd.DataFrame:
    return pd.DataFrame([{"reviewer": "lena", "choice": "Recommended"}, {"reviewer": "lena", "choice": rv.TIE}])


def test_a_method_in_sentences() -> None:
    methods = ["Baseline", "Recommended"]
    said = rv.method_paragraph("Baseline", _labels(), _answers(), _prefs(), methods, you=True)
    assert said.startswith("Baseline: You labelled 3 of its chunks: 1 relevant or partly relevant (50 % of those "
                           "judged), 1 from the wrong document, 0 from the right document but the wrong passage, 1 "
                           "could not be told.")  # fmt: skip
    assert "You preferred its column on 0 of 2 queries (0 %; with 95 % confidence between 0 % and 66 %)." in said
    other = rv.method_paragraph("Recommended", _labels(), _answers(), _prefs(), methods, you=False)
    assert "The reviewers labelled 2 of its chunks: 2 relevant or partly relevant (100 % of those judged)" in other
    assert "1 of the relevant ones lie outside the benchmark's answer passages." in other
    assert "Its answers, of 1 labelled: 1 correct." in other and "on 1 of 2 queries (50 %;" in other
    assert rv.ties(_prefs()) == "1 of 2 preferences were a tie (no column better)."


def test_every_note_beside_where_it_was_written() -> None:
    found = rv.notes(_labels(), _answers())
    assert [(n.query, n.on, n.label, n.note) for n in found] == [
        (1, "a chunk of Baseline (#1) and Recommended (#2)", "relevant", "clause 12"),
        (2, "a chunk of Baseline (#1)", "can't tell", "unclear excerpt"),
        (2, "the answer of Recommended", "correct", "says so"),
    ]
    table = rv.notes_table(found, team=False)
    assert list(table.columns) == ["query", "on", "label", "note"] and table["query"][0] == "1. Which law?"
    assert "reviewer" in rv.notes_table(found, team=True).columns


def test_methods_and_ranks_in_words() -> None:
    assert rv.retrieved_by({"SAC generic": 3, "Baseline": 1}) == "Baseline (#1) and SAC generic (#3)"
    assert rv.retrieved_by({"A": 2, "B": 1, "C": 3}) == "B (#1), A (#2) and C (#3)"
    assert rv.retrieved_by({"Baseline": 1}) == "Baseline (#1)"
