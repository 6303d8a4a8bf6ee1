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
