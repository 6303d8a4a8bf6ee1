"""Objects built once per key and shared by every session of the server (indexes, models, benchmarks)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Generic, TypeVar


def resource_key(kind: str, *parts: object) -> tuple[str, ...]:
    """A registry key: its kind (``"column"``, ``"bench"`` …), then paths and frozen configs (their
    ``repr`` lists every field)."""
    return (kind, *(str(Path(p).resolve()) if isinstance(p, Path) else repr(p) for p in parts))


def kind_of(key: Hashable) -> Hashable:
    """The kind of a registry key: the first element of a tuple key; other keys share kind ``None``."""
    return key[0] if isinstance(key, tuple) and key else None


T = TypeVar("T")


class Registry(Generic[T]):
    """Objects built once per key and shared by all sessions; at most ``size`` of each kind kept
    (LRU within the kind, see :func:`kind_of`; ``sizes`` overrides it per kind). Limits per kind, so
    that opening five Compare columns never evicts the benchmark or the model they need.

    ``get`` builds under a per-key lock: a second caller waits for the first build instead of
    repeating it. A failed build stores nothing.
    """

    def __init__(self, size: int = 4, sizes: Mapping[Hashable, int] | None = None) -> None:
        self.size = size
        self.sizes = dict(sizes or {})
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
                kind = kind_of(key)
                same = [k for k in self._items if kind_of(k) == kind]  # oldest first
                for old in same[: max(0, len(same) - self.sizes.get(kind, self.size))]:
                    del self._items[old]
                self._building.pop(key, None)
            return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
