"""What this process has already computed from the same inputs: pure, costly results kept
in memory by the digest of what they are computed from.

Kept here: a deal's double-dummy table (:mod:`pipelines.deals`: a function of the deal
alone), a chart drawn by the reports or the season dashboard (a function of the figures it
is drawn from, the code and matplotlib — neither of which changes within a process). A
result recalled is the very value computed afresh, so a run gives the same bytes whether or
not an earlier run of the same process computed it. It only pays in a process that runs more
than once — the test suite, a notebook, a long-lived worker —; ``traveller run`` is one run
per process, and what it keeps between nights is kept on disk (the ``deal_analysis`` table,
:class:`pipelines.reports.charts.PanelStore`).

Each :class:`Memory` holds at most ``keep`` results, the least recently used let go first.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import polars as pl

T = TypeVar("T")


class Memory:
    """At most ``keep`` results by key, the least recently used let go first."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any | None:
        """The result kept for ``key``, or ``None``."""
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: Hashable, value: Any) -> None:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.keep:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        self._kept.clear()


def digest(*parts: object) -> str:
    """The sha256 of ``parts`` in order: a Polars frame by its schema and its rows as CSV
    text (every value written out, floats to their shortest exact form), anything else by its
    JSON text (tuples as lists); each part tagged with its kind, so that a frame and a string
    of the same text differ."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, pl.DataFrame):
            h.update(b"frame\0" + repr(part.schema).encode() + b"\0")
            h.update(part.write_csv().encode())
        else:
            h.update(b"value\0" + json.dumps(part, sort_keys=True).encode())
        h.update(b"\0\0")
    return h.hexdigest()


def remembered(keep: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorate a pure function of frames and JSON values: called again with equal
    arguments (:func:`digest`), it returns the result it gave before instead of computing
    it. The result must not be changed by its callers (strings, bytes, frozen values)."""

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        memory = Memory(keep)

        @functools.wraps(fn)
        def recalled(*args: object, **kwargs: object) -> T:
            named = [part for name in sorted(kwargs) for part in (name, kwargs[name])]
            key = digest(fn.__module__, fn.__qualname__, *args, "named:", *named)
            found = memory.get(key)
            if found is None:
                found = fn(*args, **kwargs)
                memory.put(key, found)
            return found

        recalled.memory = memory  # type: ignore[attr-defined]
        return recalled

    return wrap
