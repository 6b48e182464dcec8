"""The charts a report shows, each taken from where it is: kept on disk by the last report
(:class:`~pipelines.reports.charts.PanelStore`), drawn before in this process
(:data:`~pipelines.reports.charts.DRAWN_HERE`), being drawn by the run's drawing process
(:func:`prefetch`), or drawn now (:mod:`pipelines.reports.plots`, imported only then).

A run whose drawing process is there (:mod:`pipelines.reports.drawing`) has the charts of its
reports drawn there as soon as the audit's marts are computed
(:func:`pipelines.reports.audit.prepare`), while this process goes on (the reconciliation);
the reports then take them (:func:`funnel_chart`, :func:`trend_chart`). A chart no one
handed over, or whose drawing process died, is drawn here: the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Future

import polars as pl

from pipelines.reports.charts import (
    DRAWN_HERE,
    Chart,
    Job,
    PanelStore,
    funnel_jobs,
    trend_job,
)


def draw(kind: str, *args: object) -> Chart:
    """Draw one chart (:func:`pipelines.reports.plots.draw`, imported only now), in whichever
    process calls it: the same bytes in the drawing process as here."""
    from pipelines.reports import plots

    return plots.draw(kind, *args)


def take(job: Job, store: PanelStore) -> Chart:
    """The chart of ``job``: kept in ``store``, drawn before in this process, being drawn by
    the drawing process (:func:`prefetch`), or drawn now; kept in ``store`` for the next
    report."""
    chart = store.get(job.key)
    if chart is None:
        chart = DRAWN_HERE.get(job.key) or _awaited(job) or draw(job.kind, *job.args)
        DRAWN_HERE.put(job.key, chart)
        store.put(job.key, chart)
    return chart


#: The charts handed to the drawing process (:func:`prefetch`), by digest, until taken.
_PENDING: dict[str, Future] = {}


def _awaited(job: Job) -> Chart | None:
    """The chart of ``job`` the drawing process was given, when it was; drawn here if that
    process died first (an error of the drawing itself is raised, as here)."""
    future = _PENDING.pop(job.key, None)
    if future is None:
        return None
    from pipelines.reports import drawing

    return drawing.outcome(future, draw, job.kind, *job.args)


def prefetch(jobs: Iterable[tuple[Job, PanelStore]]) -> int:
    """Hand the drawing process (:mod:`pipelines.reports.drawing`), when there is one, every
    chart of ``jobs`` that its report's store does not keep and this process has not drawn
    (nor handed over already), in order; how many were handed over. Nothing is drawn here:
    the reports take the charts when they need them (:func:`take`)."""
    from pipelines.reports import drawing

    if not drawing.started():
        return 0
    drawing.when_stopped(forget_pending)
    handed = 0
    for job, store in jobs:
        if job.key in _PENDING or DRAWN_HERE.get(job.key) is not None or store.has(job.key):
            continue
        future = drawing.submit(draw, job.kind, *job.args)
        if future is None:
            break
        _PENDING[job.key] = future
        handed += 1
    return handed


def forget_pending() -> None:
    """Let go of the charts handed over and not taken (the drawing process stops)."""
    _PENDING.clear()


def funnel_chart(
    rows: pl.DataFrame, labels: dict[str, str] | None = None, store: PanelStore | None = None
) -> Chart:
    """The funnel plot of one rate as inline SVG: one panel per comparison stratum, each its
    own SVG (a page lays them side by side), then the legend; with the names no panel could
    label. ``rows`` are the ``director_audit`` rows of that measure (with ``n > 0``);
    ``labels`` maps directors to the names shown (pseudonyms in the public report). A chart
    ``store`` keeps (:class:`~pipelines.reports.charts.PanelStore`) is not drawn again."""
    store = store or PanelStore(None)
    *panels, legend = funnel_jobs(rows, labels)
    parts: list[str] = []
    left_out: list[str] = []
    for job in panels:
        chart = take(job, store)
        parts.append(chart.svg)
        left_out += chart.unlabelled
    # the legend on a line of its own, under the panels
    parts.append('<br class="legend">' + take(legend, store).svg)
    return Chart("\n".join(parts), left_out)


def trend_chart(months: pl.DataFrame, store: PanelStore | None = None) -> str:
    """The monthly trend of ``months`` as inline SVG (:func:`pipelines.reports.plots.
    trend_svg`), kept in ``store`` (:class:`~pipelines.reports.charts.PanelStore`): a report
    whose months' drawn figures did not change (a corrected score, an appeal decided) does
    not draw it again. A night of new sessions changes its month's boards played, so the
    trend is drawn again then: its scales are those of every month."""
    return take(trend_job(months), store or PanelStore(None)).svg
