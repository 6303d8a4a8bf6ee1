"""Document-aware signals on hand-made vectors: query split, document prior, routing, sections,
entities, expansion, reranking; scores computed by hand."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from sac_core.engine.chunking import Chunk
from sac_core.engine.indexes import DenseIndex
from sac_core.engine.retrieval import DocumentAwareRetriever, Pool, Retriever, SignalParts, Signals, split_query
from sac_core.engine.retrieval.documents import DocumentScorer, filename_text, name_words, representations
from sac_core.engine.retrieval.entities import EntityIndex, entity_words
from sac_core.engine.retrieval.expansion import ExpansionError, LLMRewriter, prf_vector
from sac_core.engine.retrieval.rerank import rerank
from sac_core.engine.retrieval.sections import Section, lead_summary, section_of, split_sections

# Two near-identical NDAs: a.txt (Acme) and b.txt (Birch). The question alone prefers b's chunk.
CHUNKS = (
    Chunk("a.txt", 0, 20, "acme term two years"),
    Chunk("a.txt", 20, 40, "acme notices clause"),
    Chunk("b.txt", 0, 20, "birch term two years"),
)
VECTORS = {
    CHUNKS[0].text: [0.6, 0.8, 0.0],
    CHUNKS[1].text: [0.0, 0.0, 1.0],
    CHUNKS[2].text: [0.8, 0.6, 0.0],
    "how long is the term?": [1.0, 0.0, 0.0],  # cos: a0 0.6, a1 0, b0 0.8
    "Consider the NDA of Acme; how long is the term?": [1.0, 0.0, 0.0],
    "Consider the NDA of Acme": [0.0, 1.0, 0.0],
    "the term": [0.0, 0.0, 1.0],
}
DOC_VECTORS = np.array([[0.0, 1.0, 0.0], [0.6, 0.0, 0.8]], dtype=np.float32)  # cos(reference): a 1.0, b 0.0
QUERY = "Consider the NDA of Acme; how long is the term?"


class FakeEmbedder:
    def encode(self, texts, progress=False, desc="", on_progress=None, cache=True):
        return np.array([VECTORS[t] for t in texts], dtype=np.float32)


def base() -> Retriever:
    vectors = np.array([VECTORS[c.text] for c in CHUNKS], dtype=np.float32)
    return Retriever(Pool(CHUNKS, tuple(c.text for c in CHUNKS)), FakeEmbedder(), dense=DenseIndex(vectors))  # type: ignore[arg-type]


def scorer(bm25: float = 0.0) -> DocumentScorer:
    return DocumentScorer(("a.txt", "b.txt"), DOC_VECTORS, ["Acme NDA text", "Birch NDA text"], bm25)


def ranked(signals: Signals, parts: SignalParts, k: int = 3, query: str = QUERY) -> list[tuple[str, int, float]]:
    hits = DocumentAwareRetriever(base(), signals, parts).search([query], k)[0]
    return [(h.chunk.file_path, h.chunk.start, round(h.score, 4)) for h in hits]


# --------------------------------------------------------------------------- query split


@pytest.mark.parametrize(
    ("query", "document", "question"),
    [
        (QUERY, "Consider the NDA of Acme", "how long is the term?"),
        (
            'Consider "Fiverr"\'s privacy policy; who can see my data?',
            'Consider "Fiverr"\'s privacy policy',
            "who can see my data?",
        ),
        ("In the merger agreement, what is the outside date?", "In the merger agreement", "what is the outside date?"),
        ("In short, what is this?", "In short, what is this?", "In short, what is this?"),  # no document word
        ("What is the governing law?", "What is the governing law?", "What is the governing law?"),
        ("Consider the NDA; ok", "Consider the NDA; ok", "Consider the NDA; ok"),  # remainder too short
    ],
)
def test_split_query(query: str, document: str, question: str) -> None:
    parts = split_query(query)
    assert (parts.document, parts.question) == (document, question)
    assert parts.split == (document != question)


# --------------------------------------------------------------------------- signals config


def test_signals_default_is_inactive_and_labels_name_what_is_on() -> None:
    assert not Signals().active and Signals().label == ""
    s = Signals(split_query=True, doc_weight=2.0, doc_bm25=0.25, route_docs=1, sections=2, entity_weight=0.2)
    assert s.label == "+split+doc:summary300×2+bm25×0.25+route1+sec2:lead300+ent0.2"
    assert s.changed() == {
        "split_query": True,
        "doc_weight": 2.0,
        "doc_bm25": 0.25,
        "route_docs": 1,
        "sections": 2,
        "entity_weight": 0.2,
    }
    assert Signals(doc_weight=1, doc_repr="filename").label == "+doc:filename×1"


@pytest.mark.parametrize(
    "bad",
    [
        {"doc_weight": -1},
        {"entity_weight": 1.0},
        {"doc_repr": "x"},
        {"sections": 2},
        {"expansion": "magic"},
        {"rerank_weight": 2},
    ],
)
def test_signals_reject_bad_values(bad: dict) -> None:
    with pytest.raises(ValueError, match="invalid retrieval signals"):
        Signals(**bad)


# --------------------------------------------------------------------------- documents


def test_document_scores_add_max_normalised_bm25() -> None:
    plain = scorer().scores("acme", np.array([0.0, 1.0, 0.0]))
    assert plain.tolist() == pytest.approx([1.0, 0.0])
    mixed = scorer(0.5).scores("birch", np.array([0.0, 1.0, 0.0]))
    assert mixed.tolist() == pytest.approx([1.0, 0.5])  # BM25 only in b: 1.0 after normalising, × 0.5


def test_representations() -> None:
    docs = {"b/Birch_NDA-v2.txt": "x", "a.txt": "y"}
    assert representations(docs, "filename") == ["a", "Birch NDA v2"]
    assert representations(docs, "summary", {"a.txt": "A", "b/Birch_NDA-v2.txt": "B"}) == ["A", "B"]
    assert filename_text("cuad/X__Y.PDF.txt") == "X Y PDF"
    with pytest.raises(KeyError, match=r"a\.txt"):
        representations(docs, "summary", {"b/Birch_NDA-v2.txt": "B"})


def test_name_words_decode_escapes_and_split_camel_case() -> None:
    assert name_words("c/NDA-SqillerBetaTesters.txt") == "NDA Sqiller Beta Testers SqillerBetaTesters"
    assert name_words("c/Model%20NDA%20(by%20SWA).txt") == "Model NDA by SWA"
    assert name_words("c/JBF_NDA_rev-2017.txt") == "JBF NDA rev 2017"


def test_the_file_name_term_finds_a_reference_only_the_name_holds() -> None:
    paths = ["c/BT_NDA.txt", "c/Other_NDA.txt"]
    vectors = np.zeros((2, 3), np.float32)  # the representation says nothing about either
    texts = ["Transnet's party shall consider.", "Acme's party shall consider."]  # nor does the text: BT is in a name
    with_names = DocumentScorer(paths, vectors, texts, bm25_weight=0.5, names_weight=2.0)
    assert with_names.names is not None and with_names.names.rare_words("Consider BT's NDA") == ["bt", "nda"]
    got = with_names.scores("Consider BT's NDA", np.array([0.0, 1.0, 0.0]))
    # rare words bt and nda (in no text: equal weights); the first name holds both, the second nda only;
    # plus the text term: "consider" and "s" give both texts the same BM25, 1.0 normalised × 0.5
    assert got.tolist() == pytest.approx([0.5 + 2.0 * 1.0, 0.5 + 2.0 * 0.5])
    plain = DocumentScorer(paths, vectors, texts, bm25_weight=0.5).scores("Consider BT's NDA", np.zeros(3))
    assert plain.tolist() == [0.5, 0.5]  # without names: nothing tells them apart
    ids = DocumentScorer(["c/d1.txt", "c/d2.txt"], vectors, texts, names_weight=2.0)  # names that say nothing
    assert ids.scores("Consider BT's NDA", np.zeros(3)).tolist() == [0.0, 0.0]  # (no text term here)


def test_the_file_name_term_reads_only_the_references_rare_words() -> None:
    """Every text says "consider" and "mutual non-disclosure agreement": those words pick out no
    document, so the name that spells them out ("Mutual_Non-Disclosure_Agreement") scores nothing."""
    paths = ["c/BT_x.txt", "c/Mutual_Non-Disclosure_Agreement.txt", "c/Other.txt"]
    texts = ["Consider: a mutual non-disclosure agreement of Transnet's."] * 3
    scorer = DocumentScorer(paths, np.zeros((3, 2), np.float32), texts, names_weight=1.0)
    reference = "Consider BT's Mutual Non-Disclosure Agreement"
    assert scorer.names is not None and scorer.names.rare_words(reference) == ["bt"]
    assert scorer.scores(reference, np.zeros(2)).tolist() == pytest.approx([1.0, 0.0, 0.0])


def test_a_name_sharing_a_minor_word_scores_by_its_share_and_long_words_match_a_name_they_begin() -> None:
    """Ten documents: a word held by one text is still rare (at most 10 %). Each rare word of the
    reference weighs ln(1 + 10 / (1 + df)): hpil, energytech, ginares and ag (one text each) ln 6,
    the others (no text) ln 11. "hpil" begins the name word HPILHOLDING; "ag", too short to match a
    beginning, is a word of AGProjects-NDA's name."""
    paths = ["c/HPILHOLDING_coop.txt", "c/AGProjects-NDA.txt", *(f"c/other{i}.txt" for i in range(8))]
    texts = ["HPIL ENERGYTECH and GINARES agree.", "AG Projects discloses.", *["A plain text."] * 8]
    scorer = DocumentScorer(paths, np.zeros((10, 2), np.float32), texts, names_weight=1.0)
    reference = "Consider the Cooperation Agreement between HPIL ENERGYTECH Inc, GINARES GROUP AG"
    assert scorer.names is not None
    rare = scorer.names.rare_words(reference)
    assert rare == ["consider", "the", "cooperation", "agreement", "between", "hpil", "energytech", "inc",
                    "ginares", "group", "ag"]  # fmt: skip
    total = 4 * np.log(6) + 7 * np.log(11)
    got = scorer.scores(reference, np.zeros(2)).tolist()
    assert got == pytest.approx([np.log(6) / total, np.log(6) / total, *[0.0] * 8])


def test_question_alone_takes_the_wrong_document() -> None:
    assert ranked(Signals(split_query=True), SignalParts())[0][:2] == ("b.txt", 0)


def test_document_prior_lifts_the_named_document() -> None:
    # a0: 0.6 + 1 × 1.0 = 1.6; b0: 0.8 + 0; a1: 0 + 1.0
    got = ranked(Signals(split_query=True, doc_weight=1.0), SignalParts(documents=scorer()))
    assert got == [("a.txt", 0, 1.6), ("a.txt", 20, 1.0), ("b.txt", 0, 0.8)]


def test_routing_first_and_route_only() -> None:
    parts = SignalParts(documents=scorer())
    got = ranked(Signals(split_query=True, route_docs=1), parts)
    assert [g[:2] for g in got] == [("a.txt", 0), ("a.txt", 20), ("b.txt", 0)]  # a's chunks, then b's
    only = ranked(Signals(split_query=True, route_docs=1, route_fill=False), parts)
    assert [g[:2] for g in only] == [("a.txt", 0), ("a.txt", 20)]  # fewer than k


def test_sections_rank_the_best_section_first() -> None:
    sections = {"a.txt": [Section(0, 20, ""), Section(20, 40, "")], "b.txt": [Section(0, 20, "")]}
    vectors = {"a.txt": np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32), "b.txt": np.zeros((1, 3), np.float32)}
    # the question (1,0,0) matches a's second section: its chunk a1 (cosine 0) comes first
    got = ranked(
        Signals(split_query=True, route_docs=1, sections=1),
        SignalParts(scorer(), sections=sections, section_vectors=vectors),
    )
    assert [g[:2] for g in got] == [("a.txt", 20), ("a.txt", 0), ("b.txt", 0)]


def test_split_sections_by_headings() -> None:
    text = "Preamble text. " * 30 + "\nARTICLE I\n" + "Definitions. " * 40 + "\n12. Confidentiality\n" + "Secret. " * 60
    sections = split_sections(text)
    assert [s.heading for s in sections] == ["", "ARTICLE I", "12. Confidentiality"]
    assert sections[0].start == 0 and sections[-1].end == len(text)
    assert all(a.end == b.start for a, b in zip(sections, sections[1:]))
    assert section_of(sections, sections[2].start + 5) == 2
    assert lead_summary(text, sections[1], 20) == "ARTICLE I Definition"  # whitespace folded


# --------------------------------------------------------------------------- entities


def test_entities_match_whole_names_weighted_by_idf() -> None:
    docs = {
        "a.txt": 'NON-DISCLOSURE AGREEMENT\nThis Agreement is between Acme Rockets Inc. ("Acme") and Zed Corp.',
        "b.txt": 'NON-DISCLOSURE AGREEMENT\nThis Agreement is between Birch Labs LLC ("Birch") and Zed Corp.',
    }
    chunks = [Chunk("a.txt", 0, 10, "acme rockets inc. shall"), Chunk("b.txt", 0, 10, "nothing here")]
    index = EntityIndex(docs, chunks)
    assert entity_words("Acme Rockets Inc.") == frozenset({"acme", "rockets"})
    assert any("Acme Rockets" in e for e in index.matched("What must Acme Rockets keep secret?"))
    scores = index.scores("What must Acme Rockets keep secret?")
    assert scores[0] > 0 and scores[1] == 0


def test_entity_fusion_can_lift_a_chunk() -> None:
    class Entities:
        def scores(self, query: str) -> np.ndarray:
            return np.array([0.0, 5.0, 0.0], np.float32)  # only a1 names the query's entity

    got = ranked(Signals(entity_weight=0.9), SignalParts(entities=Entities()), query="how long is the term?")  # type: ignore[arg-type]
    assert got[0][:2] == ("a.txt", 20)


# --------------------------------------------------------------------------- expansion, rerank


def test_prf_moves_the_query_towards_its_feedback() -> None:
    v = prf_vector(np.array([1.0, 0.0]), np.array([[0.0, 1.0]]), beta=1.0)
    assert v.tolist() == pytest.approx([2**-0.5, 2**-0.5])


def test_rerank_mixes_ranks_and_second_model() -> None:
    order = np.array([7, 8, 9, 10])
    vectors = np.array([[0.0, 1.0], [1.0, 0.0], [0.6, 0.8]])
    assert rerank(order, vectors, np.array([1.0, 0.0]), 3, 1.0).tolist() == [8, 9, 7, 10]
    assert rerank(order, vectors, np.array([1.0, 0.0]), 3, 0.0).tolist() == [7, 8, 9, 10]


@pytest.fixture
def chat_server() -> Iterator[tuple[str, list[dict]]]:
    requests: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(body)
            answer = "1. What is the duration of the term?\n2. When does the agreement expire?\n"
            payload = {
                "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            }  # fmt: skip
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", requests
    server.shutdown()


def test_llm_rewrites_come_from_the_api_once_then_from_the_cache(chat_server, tmp_path: Path) -> None:
    url, requests = chat_server
    rewriter = LLMRewriter(tmp_path, "sk-test-secret", "stub-model", url)
    first = rewriter.rewrites("how long is the term?", 2)
    assert first == ["What is the duration of the term?", "When does the agreement expire?"]
    assert "how long is the term?" in requests[0]["messages"][0]["content"]
    again = LLMRewriter(tmp_path, None, "stub-model", url).rewrites("how long is the term?", 2)  # no key needed: cached
    assert again == first and len(requests) == 1
    assert "sk-test-secret" not in "".join(
        p.read_bytes().decode("latin-1") for p in (tmp_path / "expansions").rglob("*") if p.is_file()
    )


def test_llm_rewrites_without_a_key_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(ExpansionError, match="OPENAI_API_KEY"):
        LLMRewriter(tmp_path, None).rewrites("uncached question", 2)


def test_llm_expansion_fuses_the_rewrites(chat_server, tmp_path: Path) -> None:
    url, _ = chat_server
    VECTORS["What is the duration of the term?"] = [0.0, 0.0, 1.0]  # both rewrites point at a1
    VECTORS["When does the agreement expire?"] = [0.0, 0.0, 1.0]
    parts = SignalParts(rewriter=LLMRewriter(tmp_path, "k", "stub", url))
    got = ranked(Signals(expansion="llm", expansion_n=2), parts, query="how long is the term?")
    assert got[0][:2] == ("a.txt", 20)  # two of three versions rank a1 first
