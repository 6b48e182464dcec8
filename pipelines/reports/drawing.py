"""A process of its own that draws the season dashboard while the run makes the site.

The dashboard's charts (:mod:`pipelines.reports.season`) are drawn by matplotlib, in Python,
a second or two on a night's run; the site's pages are made in the same minutes, also in
Python, on one processor. A run that publishes a night's few events (one process makes its
pages: :data:`pipelines.publish.PARALLEL_FROM_RESULTS`) hands the dashboard to a helper
process started as the run begins its audit (:func:`start`: a fresh Python, ``spawn`` —
Polars' and DuckDB's threads are not forked —, which imports the drawing code on the second
processor while the audit, in Python on the first, is computed); the publication gives it
the season's frames (:func:`submit`) and takes the page when it has made the site's. The
page is the one the run's own process would have written (the same code and the same
frames: the same bytes).

Nothing depends on the helper being there: a run that did not start it (a large
publication, ``$TRAVELLER_PUBLISH_WORKERS=1``, or a run started from Dagster's UI) or whose
helper cannot take the work draws the dashboard itself.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_POOL: ProcessPoolExecutor | None = None

#: The peak memory (MB, ``VmHWM``) of each drawing process this process stopped, for the
#: benchmark (which counts a run's memory with its helpers').
PEAKS: list[float] = []


def _warm() -> None:
    """In the helper: import what drawing the dashboard needs (matplotlib, Polars, Jinja2)."""
    import pipelines.reports.season  # noqa: F401


def _peak() -> float:
    from pipelines.bench import peak_rss_mb

    return peak_rss_mb()


def start() -> None:
    """Start the drawing process (if not started) and have it import the drawing code now."""
    global _POOL
    if _POOL is not None:
        return
    _POOL = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    try:
        _POOL.submit(_warm)
    except (BrokenProcessPool, RuntimeError, OSError):
        stop()


def started() -> bool:
    """Whether a drawing process is there to take work."""
    return _POOL is not None


def submit(fn: Callable[..., Any], *args: Any) -> Future | None:
    """``fn(*args)`` in the drawing process (``fn`` a module's function, ``args`` picklable);
    ``None`` when there is no drawing process or it cannot take work (the caller draws)."""
    if _POOL is None:
        return None
    try:
        return _POOL.submit(fn, *args)
    except (BrokenProcessPool, RuntimeError):
        stop()
        return None


def outcome(job: Future | None, fn: Callable[..., Any], *args: Any) -> Any:
    """What ``job`` (:func:`submit` of ``fn(*args)``) returned; ``fn(*args)`` here when there
    was no job or the drawing process died before it was done. An error of ``fn`` itself is
    raised, as it would have been here."""
    if job is not None:
        try:
            return job.result()
        except BrokenProcessPool:
            stop()
    return fn(*args)


def stop() -> None:
    """Stop the drawing process (its peak memory kept in :data:`PEAKS`); nothing when none."""
    global _POOL
    pool, _POOL = _POOL, None
    if pool is None:
        return
    try:
        PEAKS.append(pool.submit(_peak).result(timeout=30))
    except Exception:  # a broken or busy helper: its peak is not known
        pass
    pool.shutdown(wait=True, cancel_futures=True)
