"""Progress outside a terminal: plain lines, one per tenth of the work, no carriage returns or escapes."""

from __future__ import annotations

import io

from tqdm import tqdm

from sac_core.engine.progress import LineProgress, progress_bar


def test_outside_a_terminal_progress_is_a_line_per_tenth_with_done_total_and_time_left():
    out = io.StringIO()
    bar = progress_bar(total=200, desc="embedding chunks", unit="text", file=out)
    assert isinstance(bar, LineProgress)
    for _ in range(200):
        bar.update(1)
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 10 and "\r" not in out.getvalue() and "\x1b" not in out.getvalue()
    assert lines[0].startswith("embedding chunks: 20/200 texts (10 %), ") and "left" in lines[0]
    assert lines[-1].startswith("embedding chunks: 200/200 texts (100 %), ")


def test_iterating_counts_items_and_close_writes_the_last_line_once():
    out = io.StringIO()
    bar = progress_bar(["a", "b", "c"], desc="sweep", unit="cell", file=out)
    seen = []
    for item in bar:
        bar.set_postfix(cached=len(seen))
        seen.append(item)
    bar.close()
    bar.close()
    assert seen == ["a", "b", "c"]
    assert out.getvalue().splitlines()[-1].startswith("sweep: 3/3 cells (100 %), ")
    assert out.getvalue().count("3/3") == 1


def test_disabled_or_on_a_terminal_it_is_tqdm():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert type(progress_bar(total=3, desc="x", unit="doc", file=Terminal())) is tqdm
    assert type(progress_bar(total=3, desc="x", unit="doc", disable=True, file=io.StringIO())) is tqdm
