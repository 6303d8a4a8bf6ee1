"""Objects built once per key and shared by every session of the server (indexes, models, benchmarks)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar


def resource_key(*parts: object) -> tuple[str, ...]:
    """A registry key from paths and frozen configs (their ``repr`` lists every field)."""
    return tuple(str(Path(p).resolve()) if isinstance(p, Path) else repr(p) for p in parts)


T = TypeVar("T")


class Registry(Generic[T]):
    """Objects built once per key and shared by all sessions; at most ``size`` kept (LRU).

    ``get`` builds under a per-key lock: a second caller waits for the first build instead of
    repeating it. A failed build stores nothing.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            key_lock = self._building.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._items:
                    return self._items[key]
            value = build()
            with self._lock:
                self._items[key] = value
                self._items.move_to_end(key)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
                self._building.pop(key, None)
            return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
