"""Progress that suits where it is written: tqdm's bar on a terminal; anywhere else (a log file, a
pipe, CI) plain lines, one per tenth of the work or per 30 s at most, with done/total, rate and
time left, instead of a bar's carriage returns and escape codes piling up in the file.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, TypeVar

from tqdm import tqdm

T = TypeVar("T")

LINE_STEPS = 10  # a line each time another tenth of the work is done ...
LINE_EVERY = 30.0  # ... or this many seconds after the last line, whichever comes first


def is_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (default: stderr, where progress goes) is an interactive terminal."""
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


def progress_bar(
    iterable: Iterable[T] | None = None,
    *,
    total: int | None = None,
    desc: str,
    unit: str,
    initial: int = 0,
    disable: bool = False,
    file: TextIO | None = None,
) -> tqdm[T]:
    """A progress bar on ``file`` (default stderr): tqdm's on a terminal, :class:`LineProgress`
    elsewhere. Used like tqdm: iterate over it, or ``update(n)``; ``set_postfix``; ``close``."""
    out = file or sys.stderr
    if disable or is_terminal(out):
        return tqdm(iterable, total=total, desc=desc, unit=unit, initial=initial, disable=disable, file=out)
    return LineProgress(iterable, total=total, desc=desc, unit=unit, initial=initial, file=out)


def quiet_library_bars() -> None:
    """Outside a terminal, turn off the bars libraries draw themselves (Hugging Face's "Loading
    weights", downloads): call before importing them."""
    if not is_terminal():
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


class LineProgress(tqdm):
    """tqdm's interface, written as plain lines (see the module docstring). The tqdm base is made
    disabled, so it draws nothing; this class counts and writes."""

    def __init__(
        self, iterable: Iterable[Any] | None, *, total: int | None, desc: str, unit: str, initial: int, file: TextIO
    ) -> None:
        if total is None and iterable is not None and hasattr(iterable, "__len__"):
            total = len(iterable)  # type: ignore[arg-type]
        super().__init__(iterable, total=total, initial=initial, disable=True)
        self.label, self.what, self.out = desc, unit, file
        self.start = self.said_at = time.monotonic()
        self.start_n = self.said_n = initial
        self.extra: dict[str, object] = {}
        self.closed = False

    def __iter__(self) -> Iterator[Any]:
        for item in self.iterable:
            yield item
            self.update()

    def update(self, n: float | None = 1) -> bool | None:
        self.n += n or 0
        step = (self.total or 0) / LINE_STEPS
        now = time.monotonic()
        if (step and self.n - self.said_n >= step) or now - self.said_at >= LINE_EVERY:
            self._say(now)
        return None

    def set_postfix(self, ordered_dict: Any = None, refresh: bool = True, **kwargs: Any) -> None:
        self.extra = dict(ordered_dict or {}, **kwargs)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.n != self.said_n:
                self._say(time.monotonic())

    def __del__(self) -> None:  # tqdm's would close (and write) while the interpreter shuts down
        pass

    def _say(self, now: float) -> None:
        self.said_at, self.said_n = now, self.n
        done = self.n - self.start_n
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        parts = [f"{self.label}: {self.n:,.0f}"]
        if self.total:
            parts[0] += f"/{self.total:,.0f} {self.what}s ({100 * self.n / self.total:.0f} %)"
        else:
            parts[0] += f" {self.what}s"
        parts.append(f"{tqdm.format_interval(elapsed)} elapsed")
        if rate:
            parts.append(f"{rate:,.1f} {self.what}s/s")
            if self.total and self.n < self.total:
                parts.append(f"about {tqdm.format_interval((self.total - self.n) / rate)} left")
        parts += [f"{k}={v}" for k, v in self.extra.items()]
        print(", ".join(parts), file=self.out, flush=True)
