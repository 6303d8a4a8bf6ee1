"""The offline answerer on hand-made vectors: the best sentences, the floor."""

import numpy as np

from sac_core.engine.answers import NOT_IN_EXCERPTS, Excerpt, ExtractiveAnswerer

TEXT = "1. Term.\nThis Agreement lasts two years. It may be renewed by Acme Inc. in writing; notice is required."


VECTORS = {
    "how long does it last?": [1.0, 0.0, 0.0],
    "1. Term.": [0.0, 0.0, 1.0],  # sentences by nupunkt (legal Punkt): the heading is one
    "This Agreement lasts two years.": [0.9, 0.436, 0.0],
    "It may be renewed by Acme Inc. in writing; notice is required.": [0.3, 0.954, 0.0],  # no cut after "Inc."
}


class FakeEmbedder:
    def encode(self, texts, progress=True, desc="", on_progress=None, cache=True):
        return np.array([VECTORS[t] for t in texts], dtype=np.float32)


def test_the_best_sentences_above_the_floor_are_quoted_with_their_labels():
    excerpt = Excerpt("#3", "nda/acme.txt", 500, 500 + len(TEXT), TEXT)
    seen: list[str] = []
    answer = ExtractiveAnswerer(FakeEmbedder(), sentences=3, min_cosine=0.25).answer(  # type: ignore[arg-type]
        "Consider the NDA of Acme; how long does it last?", [excerpt], on_text=seen.append
    )
    assert (
        answer.text
        == "“This Agreement lasts two years.” [#3]\n“It may be renewed by Acme Inc. in writing; notice is required.” [#3]"
    )
    assert [c.label for c in answer.citations] == ["#3"] and seen == [answer.text]
    none = ExtractiveAnswerer(FakeEmbedder(), min_cosine=0.95).answer("how long does it last?", [excerpt])  # type: ignore[arg-type]
    assert none.text == NOT_IN_EXCERPTS and none.citations == ()


GOLD = "The Recipient shall keep the information secret for five years."
OTHER = "Each party keeps confidential information secret for three years after the term ends."
CLOSER = {
    "how long must it be kept secret?": [1.0, 0.0, 0.0],
    GOLD: [0.6, 0.8, 0.0],  # above the floor, but less like the question than …
    OTHER: [0.95, 0.312, 0.0],  # … the sentence of another contract's chunk, ranked #4
}


class CloserEmbedder:
    def encode(self, texts, progress=True, desc="", on_progress=None, cache=True):
        return np.array([CLOSER[t] for t in texts], dtype=np.float32)


def test_a_ranked_answer_quotes_the_best_ranked_chunk_it_can_support_and_only_its_document():
    """Issue 45: SAC ranked the gold chunks #1 and #2, yet its answer quoted chunk #4 of another NDA,
    whose sentence sounded closer to the question. Ranked, the answer follows the ranking."""
    excerpts = [
        Excerpt("#1", "nda/gold.txt", 0, len(GOLD), GOLD),
        Excerpt("#4", "nda/other.txt", 0, len(OTHER), OTHER),
    ]
    ranked = ExtractiveAnswerer(CloserEmbedder(), ranked=True).answer("how long must it be kept secret?", excerpts)  # type: ignore[arg-type]
    assert ranked.text == f"“{GOLD}” [#1]" and ranked.checked({"nda/gold.txt"}).cites_only_gold
    plain = ExtractiveAnswerer(CloserEmbedder()).answer("how long must it be kept secret?", excerpts)  # type: ignore[arg-type]
    assert plain.text.startswith(f"“{OTHER}” [#4]")  # by similarity alone (what `sac answers` published)
    first_other = ExtractiveAnswerer(CloserEmbedder(), ranked=True).answer(  # type: ignore[arg-type]
        "how long must it be kept secret?", excerpts[::-1]
    )
    assert first_other.text == f"“{OTHER}” [#4]"  # another document ranked first: the answer shows it
