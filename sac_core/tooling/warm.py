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
import urllib.error
import urllib.request

HEALTH = "/_stcore/health"
SCRIPT_HEALTH = "/_stcore/script-health-check"


def warm(url: str, timeout: float = 120) -> str:
    """Wait until the server at ``url`` answers, then have it run the app script once. Returns the
    probe's answer ("ok", or why not: "error", "timeout", "unreachable")."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + HEALTH, timeout=2) as r:
                if r.read().strip() == b"ok":
                    break
        except OSError:
            time.sleep(0.3)
    else:
        return "unreachable"
    try:
        with urllib.request.urlopen(url + SCRIPT_HEALTH, timeout=max(1.0, deadline - time.monotonic())) as r:
            return r.read().decode("utf-8", "replace").strip() or "ok"
    except urllib.error.HTTPError:  # 503: the script failed; the page will say why to whoever opens it
        return "error"
    except OSError:
        return "unreachable"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m sac_core.tooling.warm URL", file=sys.stderr)
        return 2
    warm(argv[0].rstrip("/"))
    return 0  # a cold server still serves: never an error for `make app`


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
