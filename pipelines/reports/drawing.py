"""A process of its own that draws a night's charts while the run goes on.

The season dashboard's charts (:mod:`pipelines.reports.season`) and the audit reports' funnel
panels and trend (:mod:`pipelines.reports.plots`) are drawn by matplotlib, in Python: with
matplotlib's import, two or three seconds of a night's run (and of a first load's audit),
whose own work is also in Python on one processor. A run that recomputes anything and has a
second processor starts a helper process as soon as it has planned (:func:`start`: a fresh
Python, ``spawn`` — Polars' and DuckDB's threads are not forked —, which imports the drawing
code while the dates are scored, yielding to the run's threads: :func:`_yield`). The audit
hands it the reports' charts as soon as their marts are computed
(:func:`pipelines.reports.audit.prepare`) and takes them when it writes the reports, after
the reconciliation; the publication gives it the season's frames (:func:`submit`) and takes
the page when it has made the site's — a publication made
in one process (:data:`pipelines.publish.PARALLEL_FROM_RESULTS`); one shared with helper
processes stops the drawing process first and draws the page itself. What it draws is what
the run's own process would have drawn (the same code and the same frames: the same bytes),
and the run's process then never imports the drawing code (nor matplotlib, but for endplay's
package, which imports it with a night's new hand records).

Nothing depends on the helper being there: a run that did not start it
(``$TRAVELLER_PUBLISH_WORKERS=1``, or a run started from Dagster's UI), one that stopped it
(a publication shared with helpers) or one whose helper cannot take the work draws
everything itself. A helper given nothing to draw (the
dates recomputed changed nothing the audit or the site shows) is ended, not waited for.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_POOL: ProcessPoolExecutor | None = None
#: Whether the drawing process was given work (:func:`submit`) since it was started.
_USED = False
#: The work handed to the drawing process since it was started: what has not begun when it
#: stops is cancelled, not waited for.
_HANDED: list[Future] = []
#: What the callers kept of the work they handed over, let go of when the drawing process
#: stops (:func:`when_stopped`).
_ON_STOP: list[Callable[[], None]] = []
#: Whether the run gave up waiting for the drawing process (:data:`PATIENCE`): it then
#: draws everything itself until the process stops.
_STARVED = False
#: Whether the drawing process now runs as any process does (:func:`_hurry`).
_HURRIED = False

#: The longest the run waits for one result of the drawing process, in seconds, before it
#: draws that itself and hands the process nothing more: a process that takes only idle
#: processors (:func:`_yield`) can starve on a machine kept busy by other work. A night's
#: charts take it one or two seconds.
PATIENCE = 10.0

#: How long the run waits for a result of the drawing process while it still yields every
#: processor (:func:`_yield`), in seconds; then it runs as any process does (:func:`_hurry`)
#: until :data:`PATIENCE` is over. A night's chart is drawn in a fraction of that on the
#: processor the run leaves idle; a machine kept busy by other work leaves none.
HURRY_AFTER = 2.0

#: The peak memory (MB, ``VmHWM``) of each drawing process this process stopped, for the
#: benchmark (which counts a run's memory with its helpers').
PEAKS: list[float] = []
#: For each of :data:`PEAKS`, at most what this process and that drawing process held at
#: once (MB): this process's own peak when it stopped the drawing process (its peak over
#: the time they ran side by side, or more) added to the drawing process's peak.
TOGETHER: list[float] = []


def _yield() -> None:
    """Have this process run only on a processor the run leaves idle: Linux's ``SCHED_IDLE``
    (else the lowest ``nice``). It imports its code while the run scores the dates, whose
    Polars and DuckDB threads use every processor; it draws while the run's Python uses
    one."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux, or not allowed
        try:
            os.nice(19)
        except OSError:  # not allowed either: it runs as the run does
            pass


def _warm() -> None:
    """In the helper (which yields to the run from its start, :func:`_yield`): import what
    drawing the dashboard and the audit reports' charts needs (matplotlib, Polars, Jinja2)."""
    import pipelines.reports.plots
    import pipelines.reports.season  # noqa: F401


def season_page(*args: Any) -> Any:
    """The season dashboard's page (:func:`pipelines.reports.season.write_season` of
    ``args``), its module imported only in the process that draws it."""
    from pipelines.reports.season import write_season

    return write_season(*args)


def _peak() -> float:
    from pipelines.bench import peak_rss_mb

    return peak_rss_mb()


def start() -> None:
    """Start the drawing process (if not started) and have it import the drawing code now."""
    global _POOL
    if _POOL is not None:
        return
    # it yields as it starts (before any work: a run that then waits for it, _hurry, is not
    # yielded to again by work begun later)
    _POOL = ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_yield
    )
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
    global _USED
    if _POOL is None or _STARVED:
        return None
    try:
        _USED = True
        future = _POOL.submit(fn, *args)
    except (BrokenProcessPool, RuntimeError):
        stop()
        return None
    _HANDED.append(future)
    return future


def when_stopped(forget: Callable[[], None]) -> None:
    """Call ``forget`` when the drawing process stops (once): a caller that keeps what it
    handed over (futures, frames) lets go of it then, whether or not it was taken."""
    if forget not in _ON_STOP:
        _ON_STOP.append(forget)


def outcome(job: Future | None, fn: Callable[..., Any], *args: Any) -> Any:
    """What ``job`` (:func:`submit` of ``fn(*args)``) returned; ``fn(*args)`` here when there
    was no job, the drawing process died or was stopped before it was done, or it did not
    answer within :data:`PATIENCE` (then nothing more is waited for: every later result is
    drawn here). An error of ``fn`` itself is raised, as it would have been here."""
    global _STARVED
    if job is not None and not _STARVED:
        try:
            try:
                return job.result(timeout=min(HURRY_AFTER, PATIENCE))
            except TimeoutError:
                # not done while the run waited: no processor was left idle for it
                _hurry()
            return job.result(timeout=max(PATIENCE - HURRY_AFTER, 0.0))
        except BrokenProcessPool:
            stop()
        except CancelledError:
            pass
        except TimeoutError:
            _STARVED = True
            _cancel()
    return fn(*args)


def _hurry() -> None:
    """The run has waited :data:`HURRY_AFTER` for the drawing process: from now on it runs as
    any process does (``SCHED_OTHER``, the run's ``nice``), not only on processors left idle
    (:func:`_yield`, which keeps its imports out of the dates' scoring and its drawing out of
    the run's own work while a processor is idle for it). Yielding to every other process of
    a busy machine could starve it for longer than :data:`PATIENCE`, and the run would then
    draw everything itself. Where the system refuses (a ``nice`` an unprivileged process may
    not lower again), it stays as it was."""
    global _HURRIED
    if _POOL is None or _HURRIED:
        return
    _HURRIED = True
    for process in list((getattr(_POOL, "_processes", None) or {}).values()):
        try:
            os.sched_setscheduler(process.pid, os.SCHED_OTHER, os.sched_param(0))
        except (AttributeError, OSError):  # not Linux, not allowed, or already gone
            pass
        try:
            os.setpriority(os.PRIO_PROCESS, process.pid, os.getpriority(os.PRIO_PROCESS, 0))
        except (AttributeError, OSError):
            pass


def _cancel() -> None:
    """Cancel the work handed over that has not begun."""
    for future in _HANDED:
        future.cancel()


def stop() -> None:
    """Stop the drawing process (its peak memory kept in :data:`PEAKS`); nothing when none.
    The work handed over and not begun is cancelled (charts of reports a failed check
    stopped, say); what the callers kept of it is let go of (:func:`when_stopped`)."""
    global _POOL, _USED, _STARVED, _HURRIED
    pool, _POOL = _POOL, None
    _HURRIED = False
    used, _USED = _USED, False
    starved, _STARVED = _STARVED, False
    forget, _ON_STOP[:] = list(_ON_STOP), []
    for f in forget:
        f()
    if pool is None:
        _HANDED.clear()
        return
    _cancel()
    _HANDED.clear()
    # given nothing to draw (the run's recomputed dates changed nothing it publishes), or
    # given up on: not waited for
    if used and not starved:
        try:  # behind at most the one job begun
            peak = pool.submit(_peak).result(timeout=30)
        except Exception:  # a broken or busy helper: its peak is not known
            pass
        else:
            PEAKS.append(peak)
            TOGETHER.append(_peak() + peak)
    _end(pool)


def _end(pool: ProcessPoolExecutor) -> None:
    """End the drawing process, its work taken, cancelled or given up on: ended at once, not
    waited for while it lets go of what it drew with (a quarter of a second at a run's end);
    then the pool is shut down."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
