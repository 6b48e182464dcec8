"""How far a long run is: the stages say what they have done, whoever listens shows it (no
Dagster here).

A stage calls :func:`tick` with a task (``reading files``, ``session dates``, ``pages``), the
count done and the total; the command line listens (:func:`listening`) and draws a progress
bar with the counts and the time left (rich, on a terminal), and the Dagster assets report
the same counts as metadata. Without a listener a tick costs a list lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: ``(task, done, total, note)``: ``note`` says what is being done now (may be empty)
Listener = Callable[[str, int, int, str], None]

_LISTENERS: list[Listener] = []


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Tell ``listener`` of every :func:`tick` made in the block."""
    _LISTENERS.append(listener)
    try:
        yield
    finally:
        _LISTENERS.remove(listener)


def tick(task: str, done: int, total: int, note: str = "") -> None:
    """``done`` of ``total`` of ``task`` are done, ``note`` the one under way (told to every
    listener)."""
    for listener in tuple(_LISTENERS):
        listener(task, done, total, note)


def every(step: int, done: int, total: int) -> bool:
    """Whether the ``done``-th item of ``total`` is worth a tick: every ``step``-th and the
    last, so a loop over many small items does not redraw the bar for each."""
    return done == total or done % step == 0
