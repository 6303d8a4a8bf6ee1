import pytest
from langchain_text_splitters import RecursiveCharacterTextSplitter

from sac_core.engine.chunking import RCTS_SEPARATORS, chunk_document
from sac_core.engine.data import load_benchmark, read_document

TEXT = "Title\n\nFirst paragraph. It has two sentences!\nA line; more, words here.\n\n" * 20


def langchain_chunks(text: str, size: int, overlap: int) -> list[str]:
    splitter = RecursiveCharacterTextSplitter(
        separators=RCTS_SEPARATORS, chunk_size=size, chunk_overlap=overlap, length_function=len
    )
    return splitter.split_text(text)


@pytest.mark.parametrize("size, overlap", [(500, 0), (120, 0), (200, 50), (37, 10)])
def test_rcts_spans_are_exact_and_match_langchain(size, overlap):
    chunks = chunk_document("d.txt", TEXT, "rcts", size, overlap)
    assert [c.text for c in chunks] == langchain_chunks(TEXT, size, overlap)
    assert all(TEXT[c.start : c.end] == c.text for c in chunks)
    assert all(b.start > a.start for a, b in zip(chunks, chunks[1:]))
    if overlap == 0:
        assert all(b.start >= a.end for a, b in zip(chunks, chunks[1:]))


def test_naive_windows():
    chunks = chunk_document("d.txt", "abcdefghij", "naive", 4, 0)
    assert [(c.start, c.end, c.text) for c in chunks] == [(0, 4, "abcd"), (4, 8, "efgh"), (8, 10, "ij")]
    overlapping = chunk_document("d.txt", "abcdefghij", "naive", 4, 2)
    assert [(c.start, c.end) for c in overlapping] == [(0, 4), (2, 6), (4, 8), (6, 10)]


def test_bad_sizes_are_rejected():
    with pytest.raises(ValueError, match="chunk_overlap"):
        chunk_document("d.txt", TEXT, "rcts", 100, 100)
    with pytest.raises(ValueError, match="unknown chunker"):
        chunk_document("d.txt", TEXT, "semantic", 100, 0)


def test_rcts_parity_with_langchain_on_real_text(real_data):
    doc = (
        read_document(real_data, "privacy_qa/Fiverr.txt")
        if (real_data / "corpus/privacy_qa/Fiverr.txt").exists()
        else next(iter(load_benchmark(real_data, "privacy_qa", "lbr-mini").documents.values()))
    )
    for size, overlap in [(500, 0), (200, 0), (800, 100)]:
        chunks = chunk_document(doc.file_path, doc.text, "rcts", size, overlap)
        assert [c.text for c in chunks] == langchain_chunks(doc.text, size, overlap)
        assert all(doc.text[c.start : c.end] == c.text for c in chunks)


def test_every_chunk_span_of_the_real_corpus(real_data):
    """text[start:end] == chunk for every chunk of every document of every benchmark."""
    docs = load_benchmark(real_data, "all", "full").documents
    assert len(docs) == 95 + 462 + 150 + 7
    n = 0
    for doc in docs.values():
        for c in chunk_document(doc.file_path, doc.text, "rcts", 500, 0):
            assert doc.text[c.start : c.end] == c.text, (doc.file_path, c.start)
            n += 1
    assert n > 100_000


def test_paragraph_chunker_packs_whole_paragraphs_and_splits_long_ones():
    text = "Title\n\nFirst paragraph.\n\n\nSecond one, a bit longer.\n \n" + "word " * 40
    chunks = chunk_document("p.txt", text, "paragraph", 40, 0)
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert chunks[0].text == "Title\n\nFirst paragraph."  # 23 characters: two paragraphs packed
    assert chunks[1].text == "Second one, a bit longer."  # 51 characters with the one before: its own chunk
    assert all(len(c.text) <= 40 for c in chunks) and len(chunks) > 5  # the 200-character paragraph split
    assert chunks[-1].end == len(text.rstrip())
