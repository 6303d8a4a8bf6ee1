"""Warm a freshly started dashboard before the first person opens it.

Streamlit runs the app script only when a browser session connects, so on a fresh server the first
visitor waited for the imports, the benchmark and the default Compare indexes to load (issue 27: about
2.5 s of the first page's 3.3 s). Streamlit's readiness probe, ``/_stcore/script-health-check``
(enabled in ``.streamlit/config.toml``), runs the script once in a session of its own; the
resources it opens (benchmark, indexes, the model's preload) are shared by every later session.
``make app`` calls :func:`warm` in the background as the server starts; ``sac bench`` and the browser
tests count a server as started once it is warm, as a team's server would be.

    python -m sac_core.tooling.warm http://127.0.0.1:8501
"""

from __future__ import annotations

import sys
import time

HEALTH = "/_stcore/health"
SCRIPT_HEALTH = "/_stcore/script-health-check"


def healthy(url: str) -> bool:
    """One look: does the server at ``url`` answer its health check?"""
    import urllib.request  # (loads ssl: only when a server is asked)

    try:
        with urllib.request.urlopen(url + HEALTH, timeout=2) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


def run_once(url: str, timeout: float) -> str:
    """Have the (answering) server at ``url`` run the app script once: "ok", "error" (the script
    failed or did not end in Streamlit's own limit) or "unreachable"."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url + SCRIPT_HEALTH, timeout=max(1.0, timeout)) as r:
            return r.read().decode("utf-8", "replace").strip() or "ok"
    except urllib.error.HTTPError:  # 503: the page will say why to whoever opens it
        return "error"
    except OSError:
        return "unreachable"


def warm(url: str, timeout: float = 120) -> str:
    """Wait until the server at ``url`` answers, then :func:`run_once` (its answer; "unreachable"
    when the server never answered within ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not healthy(url):
        if time.monotonic() >= deadline:
            return "unreachable"
        time.sleep(0.3)
    return run_once(url, deadline - time.monotonic())


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m sac_core.tooling.warm URL", file=sys.stderr)
        return 2
    warm(argv[0].rstrip("/"))
    return 0  # a cold server still serves: never an error for `make app`


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
