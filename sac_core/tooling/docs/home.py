"""The built site's home page as a first-time reader sees it: a Chromium screenshot at 1280 × 800 px,
what lies above the fold, and every request the page made to another site (there must be none)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..browser import chromium

VIEWPORT = {"width": 1280, "height": 800}


@dataclass(frozen=True)
class HomeShot:
    """``outside``: URLs the page requested from anywhere but the site's own files; ``above_fold``:
    CSS selectors of the parts checked, each whether it lies wholly inside the first screen (a
    table also not cut at the right by its scrolling frame)."""

    path: Path
    outside: list[str]
    above_fold: dict[str, bool]


FOLD_PARTS = (".hero-frame", ".home-grid table")  # the framed screenshot (its picture is cropped by the frame)


def shoot_home(site: Path, out: Path) -> HomeShot:
    """Open ``site``/index.html (a built site) from the file system and screenshot its first screen."""
    from playwright.sync_api import sync_playwright  # the browser driver, only when a browser is driven

    requests: list[str] = []
    with sync_playwright() as p, chromium(p) as browser:
        page = browser.new_page(viewport=VIEWPORT)
        page.on("request", lambda r: requests.append(r.url))
        page.goto((Path(site) / "index.html").resolve().as_uri())
        page.wait_for_load_state("networkidle")
        fold = {
            css: bool(page.evaluate(
                "(css) => { const e = document.querySelector(css); if (!e) return false;"
                " const r = e.getBoundingClientRect(); const box = (e.closest('.md-typeset__scrollwrap')"
                " || e.parentElement).getBoundingClientRect();"
                " return r.height > 0 && r.top >= 0 && r.top < innerHeight"
                " && r.bottom <= innerHeight && r.right <= Math.min(innerWidth, box.right) + 0.5; }",
                css,
            ))
            for css in FOLD_PARTS
        }  # fmt: skip
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out))
    outside = [u for u in requests if not u.startswith(("file:", "data:", "blob:"))]
    return HomeShot(Path(out), outside, fold)
