"""Cutting work into batches of bounded weight (no Dagster here).

A first load of years is read, exported and published a batch at a time so that its memory
is that of one batch, not of the history: files by their bytes (:mod:`pipelines.read_cache`),
events by their scored results (:mod:`pipelines.publish`), dates by their rows
(:mod:`pipelines.publish.parquet`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def batches(items: Iterable[T], weight: Callable[[T], int], budget: int) -> list[list[T]]:
    """``items`` in their order, in consecutive batches whose weights add up to at most
    ``budget``; an item heavier than the budget is a batch alone. A new batch starts only
    when the next item would not fit (greedy, so no batch but the last could take the
    next batch's first item).

    >>> batches(["a", "b", "c"], {"a": 60, "b": 50, "c": 70}.get, 120)
    [['a', 'b'], ['c']]
    >>> batches([300, 1, 1], lambda w: w, 100)
    [[300], [1, 1]]
    >>> batches([], len, 1)
    []
    """
    out: list[list[T]] = []
    held = 0
    for item in items:
        w = weight(item)
        if not out or held + w > budget:
            out.append([])
            held = 0
        out[-1].append(item)
        held += w
    return out
