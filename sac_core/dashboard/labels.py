"""The review labels and their names, apart from the review database so that pages showing a label
(Compare's cards) do not load SQLAlchemy (about half a second on a fresh server, issue 27)."""

from __future__ import annotations

LABELS: tuple[str, ...] = ("relevant", "partly", "right_document", "wrong_document", "cant_tell")
LABEL_NAMES = {
    "relevant": "relevant",
    "partly": "partly relevant",
    "right_document": "right document, wrong passage",
    "wrong_document": "wrong document",
    "cant_tell": "can't tell",
}
# The same labels in a few characters: five fit in one row of a column at 1280 px (the full names
# wrapped to three rows under every chunk, issue 36); the full names are the control's tooltip.
SHORT_LABEL_NAMES = {
    "relevant": "relevant",
    "partly": "partly",
    "right_document": "right doc",
    "wrong_document": "wrong doc",
    "cant_tell": "can't tell",
}
ANSWER_LABELS: tuple[str, ...] = ("correct", "wrong_document", "unsupported", "cant_tell")
ANSWER_LABEL_NAMES = {
    "correct": "correct",
    "wrong_document": "wrong document",
    "unsupported": "unsupported by the excerpts",
    "cant_tell": "can't tell",
}
