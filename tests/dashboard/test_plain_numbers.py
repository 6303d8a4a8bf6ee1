"""Numbers that raise questions on stage (issue 45, point 3): what a score and a precision are, said
where they are shown, and pointers to documentation that exists."""

from __future__ import annotations

import re
from pathlib import Path

from sac_core.dashboard import compare, views
from sac_core.engine.chunking import Chunk
from sac_core.engine.retrieval import Hit

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*ROOT.glob("app_pages/**/*.py"), *ROOT.glob("sac_core/dashboard/**/*.py"), ROOT / "app.py"]


def test_every_pointer_of_a_page_to_the_documentation_exists():
    """The method picker pointed to the README's "Beyond SAC", a section that does not exist."""
    headings = {m.group(1).strip() for m in re.finditer(r"^#+\s+(.+)$", (ROOT / "README.md").read_text(), re.M)}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for section in re.findall(r"README's \\?[\"“]([^\"”\\]+)", text):
            assert section in headings, f"{path.relative_to(ROOT)} points to the README's {section!r}"
        for doc in re.findall(r"\b(docs/[\w/.-]+\.md)\b", text):
            assert (ROOT / doc).is_file(), f"{path.relative_to(ROOT)} points to {doc}"
    assert compare.METHODS_DOC in compare.METHODS_LABEL and (ROOT / compare.METHODS_DOC).is_file()


def test_a_score_says_it_is_its_own_methods_scale_and_precision_says_it_counts_characters():
    card = views.hit_card(1, Hit(Chunk("nda/a.txt", 0, 4, "text"), 9.602), True, [])
    assert "score 9.602" in card and "not comparable" in card  # the score's tooltip
    assert "cannot be compared" in compare.SCORES_NOTE and "ranks" in compare.SCORES_NOTE
    measures = {key: (label, text.format(k=4)) for key, label, text in compare.METRICS}
    assert list(measures) == ["drm", "precision", "recall"]
    assert measures["precision"][1].startswith("Character precision: the share of the top 4 chunks' characters")
    assert "wrong document" in measures["drm"][1] and measures["recall"][1].startswith("Character recall")
