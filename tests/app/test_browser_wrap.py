"""Compare with five columns at 1280 px in Chromium (issue 41, point 12): a file name wraps at its
parts, never mid-word ("02_Cobalt.tx|t", on real data "DisclosureAgreement.t|xt"), and text joined by non-breaking spaces, as contracts on
real data are, wraps between its words ("in t|he", "prototy|pes"). A small corpus of such documents
with long file names is generated here; nothing of the real data is copied."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from sac_core.tooling import browser
from sac_core.tooling.browser import BUILD_TIMEOUT, CHROMIUM, settle

if not CHROMIUM.exists() and os.environ.get("CI"):
    pytest.fail(f"{CHROMIUM} not found although CI should have installed it", pytrace=False)
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} not found: run `bash scripts/install_browser.sh`", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="Python package 'playwright' not installed")

NARROW = {"width": 1280, "height": 1000}
WORDS = ("prototypes supplier cobalt delivery the in of agreement purchaser warranty invoice quantity "
         "shipment price term notice termination confidential schedule").split()  # fmt: skip
NAMES = (  # the first is the document of the query shown
    "11_Nickel-CO-MutualNon-DisclosureAgreement.txt",
    "02_Cobalt_Supply_Agreement.txt",
    "07_Lithium_Offtake_Agreement.txt",
)

# Words (between spaces, non-breaking ones included, and zero-width spaces) whose characters lie on two
# lines, in the cards of the Compare columns: their file names and their text.
SPLIT_WORDS = """() => {
  const bad = [];
  for (const card of document.querySelectorAll('.sac-hit')) {
    const walk = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\u200b-]+-?/g)) {
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) bad.push(m[0]);
      }
    }
  }
  return bad;
}"""


def _metal(name: str) -> str:
    """``02_Cobalt_Supply_Agreement.txt`` → ``Cobalt``."""
    return name.split("_")[1].split("-")[0]


def _corpus(root: Path) -> Path:
    """Three contracts whose phrases are joined by non-breaking spaces, with long file names, and
    their LLM summaries (so the summary provider is "file" and SAC generic and expert are two columns)."""
    rng = random.Random(41)
    tests = []
    for name in NAMES:
        runs = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 12))).replace(" ", "\u00a0") for _ in range(60)
        ]
        text = f"{_metal(name).upper()} AGREEMENT. " + ". ".join(runs) + "."
        path = root / "corpus" / "metals" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        start = text.index(". ") + 2
        tests.append({"query": f"Consider the {_metal(name)} agreement; what is the warranty of the supplier?",
                      "snippets": [{"file_path": f"metals/{name}", "span": [start, start + 200],
                                    "answer": text[start : start + 200]}]})  # fmt: skip
    summaries = [{"file_path": f"metals/{name}", "prompt": prompt, "chars": chars,
                  "summary": f"{prompt.title()} summary: the {_metal(name)} contract between supplier and purchaser."}
                 for name in NAMES for prompt in ("generic", "expert") for chars in (150, 300)]  # fmt: skip
    (root / "summaries").mkdir()
    (root / "summaries" / "llm.jsonl").write_text("".join(json.dumps(r) + "\n" for r in summaries), encoding="utf-8")
    (root / "benchmarks").mkdir()
    (root / "benchmarks" / "metals.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    return root


def test_file_names_and_non_breaking_text_wrap_between_words_in_five_columns(embed_cache: Path, tmp_path: Path):
    from playwright.sync_api import sync_playwright

    data = _corpus(tmp_path / "metals")
    env = {"SAC_DATA_DIR": str(data), "SAC_CACHE_DIR": str(embed_cache)}
    cols = "baseline,sac-generic,sac-expert,doc-aware,recommended"
    with (
        browser.serve(env, tmp_path / "streamlit.log") as server,
        sync_playwright() as p,
        browser.chromium(p) as chrome,
    ):
        page = chrome.new_page(viewport=NARROW)
        page.goto(f"{server.url}/?dataset=metals&q=metals%2F0&k=3&cols={cols}&protocol=full")
        page.wait_for_function(
            """() => [...document.querySelectorAll('[data-testid="stColumn"]')]
                .filter(c => c.querySelector('.sac-hit') && !c.querySelector('[data-testid="stColumn"]')).length === 5""",
            timeout=BUILD_TIMEOUT,
        )
        settle(page)
        assert page.locator(".sac-hit code", has_text="DisclosureAgreement").count() >= 1  # the query's document
        split = page.evaluate(SPLIT_WORDS)
        page.set_viewport_size({"width": 1280, "height": 3000})
        page.screenshot(path=str(tmp_path / "wrap.png"), full_page=True)
        assert split == [], split[:20]
