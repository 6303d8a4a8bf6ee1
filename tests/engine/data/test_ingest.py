"""sac ingest: a folder of PDF, DOCX, text, Markdown and HTML files → the LegalBench-RAG layout, the
good files character for character, the bad ones reported by name, a rerun doing nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path

import docx
import pytest
from fpdf import FPDF
from PIL import Image
from pypdf import PdfWriter

from sac_core.cli import main
from sac_core.engine.data import BenchmarkError, ingest_folder, load_benchmark

PDF_PAGES = [
    ["MUTUAL NON-DISCLOSURE AGREEMENT", "between Alpha Ltd and Beta Inc.", "1. Confidential Information means data."],
    ["2. Governing law: Delaware."],
]
DOCX_PARAGRAPHS = ["SERVICES AGREEMENT", "This Agreement is made between Gamma plc and Delta LLC."]
DOCX_TABLE = [["Fee", "USD 5,000"], ["Term", "2 years"]]


def _pdf(pages: list[list[str]]) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for lines in pages:
        pdf.add_page()
        for line in lines:
            pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _scanned_pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.image(Image.new("RGB", (200, 100), "white"), x=10, y=10, w=100)  # a page that is only a picture
    return bytes(pdf.output())


def _encrypted_pdf() -> bytes:
    writer = PdfWriter(clone_from=io.BytesIO(_pdf(PDF_PAGES)))
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _docx() -> bytes:
    document = docx.Document()
    for paragraph in DOCX_PARAGRAPHS:
        document.add_paragraph(paragraph)
    table = document.add_table(rows=2, cols=2)
    for r, row in enumerate(DOCX_TABLE):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    src = tmp_path / "contracts"
    (src / "sub").mkdir(parents=True)
    (src / "nda.pdf").write_bytes(_pdf(PDF_PAGES))
    (src / "services.docx").write_bytes(_docx())
    (src / "notes.txt").write_text("Plain notes.\r\nSecond line.", encoding="utf-8")
    (src / "sub" / "policy.md").write_text("# Privacy\n\nWe keep data for 30 days.\n", encoding="utf-8")
    (src / "page.html").write_text(
        "<html><head><style>p{}</style><script>alert(1)</script></head>"
        "<body><h1>Terms</h1><p>Be nice.</p></body></html>",
        encoding="utf-8",
    )
    (src / "corrupt.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    (src / "empty.txt").write_bytes(b"")
    (src / "scan.pdf").write_bytes(_scanned_pdf())
    (src / "locked.pdf").write_bytes(_encrypted_pdf())
    (src / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (src / "logo.png").write_bytes(b"\x89PNG")
    return src


EXPECTED = {
    "contracts/nda.txt": "\n\n".join("\n".join(lines) for lines in PDF_PAGES),
    "contracts/services.txt": "\n".join([*DOCX_PARAGRAPHS, *("\t".join(row) for row in DOCX_TABLE)]),
    "contracts/notes.txt": "Plain notes.\nSecond line.",
    "contracts/sub/policy.txt": "# Privacy\n\nWe keep data for 30 days.\n",
    "contracts/page.txt": "Terms\nBe nice.",
}


def test_good_files_are_written_exactly_and_bad_ones_reported_by_name(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    report = ingest_folder(folder, out, "contracts")
    written = {r.target: (out / "corpus" / r.target).read_text(encoding="utf-8") for r in report.written}
    assert written == EXPECTED
    failed = {p.source: p.reason for p in report.failed}
    assert failed == {
        "corrupt.pdf": failed["corrupt.pdf"],
        "empty.txt": "empty file",
        "scan.pdf": "no text layer (a scanned PDF? run OCR first)",
        "locked.pdf": "password protected (encrypted PDF)",
        "latin1.txt": "not UTF-8 (unexpected end of data at byte 3)",
    }
    assert failed["corrupt.pdf"].startswith("not a readable PDF")
    assert [p.source for p in report.skipped] == ["logo.png"]
    assert not list((out / "corpus").rglob(".*"))  # no temporary half file left
    manifest = json.loads((out / "ingest" / "contracts.json").read_text())
    row = next(r for r in manifest["files"] if r["source"] == "nda.pdf")
    assert row["extractor"].startswith("pypdf==") and row["characters"] == len(EXPECTED["contracts/nda.txt"])
    assert json.loads((out / "benchmarks" / "contracts.json").read_text()) == {"tests": []}


def test_a_rerun_processes_only_new_or_changed_files(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    ingest_folder(folder, out, "contracts")
    again = ingest_folder(folder, out, "contracts")
    assert again.written == [] and len(again.unchanged) == 5
    (folder / "notes.txt").write_text("Changed notes.", encoding="utf-8")
    (folder / "new.txt").write_text("A new file.", encoding="utf-8")
    third = ingest_folder(folder, out, "contracts")
    assert sorted(r.source for r in third.written) == ["new.txt", "notes.txt"]
    assert (out / "corpus" / "contracts" / "notes.txt").read_text() == "Changed notes."


def test_the_corpus_protocol_pools_every_document_without_gold(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    ingest_folder(folder, out, "contracts")
    bench = load_benchmark(out, "all", "corpus")
    assert bench.queries == () and sorted(bench.documents) == sorted(EXPECTED)
    assert bench.datasets == ("contracts",)
    assert load_benchmark(out, "all", "full").documents == {}  # other protocols: cited documents only


def test_a_gold_file_turns_metrics_on(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    ingest_folder(folder, out, "contracts")
    text = (out / "corpus" / "contracts" / "nda.txt").read_text()
    start = text.index("2. Governing law")
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({"tests": [{"query": "Which law governs the NDA?", "snippets": [
        {"file_path": "contracts/nda.txt", "span": [start, len(text)], "answer": text[start:]}]}]}))  # fmt: skip
    ingest_folder(folder, out, "contracts", gold=gold)
    bench = load_benchmark(out, "all", "corpus")
    assert len(bench.queries) == 1 and len(bench.documents) == len(EXPECTED)


def test_bad_names_and_folders_are_clear_errors(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="dataset name"):
        ingest_folder(folder, tmp_path / "d", "../escape")
    with pytest.raises(BenchmarkError, match="not a folder"):
        ingest_folder(tmp_path / "missing", tmp_path / "d", "x")


def test_the_cli_lists_failures_and_exits_1(folder: Path, tmp_path: Path, capsys) -> None:
    code = main(["ingest", str(folder), "--out", str(tmp_path / "data"), "--quiet"])
    captured = capsys.readouterr()
    assert code == 1
    assert f"{folder / 'scan.pdf'}: no text layer" in captured.err
    assert "5 written" in captured.out
