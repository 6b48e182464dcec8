"""The audit reports' charts as data: what each is drawn from (:class:`Job`, known by the
digest of it), the charts a funnel plot is made of, and where charts are kept — on disk
between reports (:class:`PanelStore`), in memory within a process (:data:`DRAWN_HERE`).

A chart is known by the digest of what it is drawn from: a funnel panel by its rows' drawn
values (:data:`DRAWN`), its stratum and the names it shows; the monthly trend by its months
(:data:`TREND_DRAWN`); the funnel plots' legend by whether a limit is widened — each with the
engine's code and matplotlib's version. The same digest is the same SVG, wherever it was
drawn. Nothing here imports matplotlib: :mod:`pipelines.reports.plots` draws the charts,
:mod:`pipelines.reports.figures` gives a report each chart from where it is.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import polars as pl

from pipelines.memo import Memory


@dataclass
class Chart:
    """A drawn chart: its SVG text and the names it could not label (listed under it)."""

    svg: str
    unlabelled: list[str] = field(default_factory=list)


#: The columns of ``director_audit`` a funnel panel is drawn from
#: (:func:`pipelines.reports.plots._draw_panel`).
DRAWN = ("director", "n", "rate", "target", "phi", "over_dispersed", "flagged")

#: The columns of the months the trend is drawn from (:func:`pipelines.reports.plots.
#: trend_figure`).
TREND_DRAWN = ("period", "board_appeal_ratio", "rulings", "boards_played")


@functools.cache
def matplotlib_version() -> str:
    """The installed matplotlib's version, read from its metadata (importing matplotlib
    takes about half a second: a report whose charts are all kept or drawn elsewhere does
    without it)."""
    return metadata.version("matplotlib")


def rows_key(rows: pl.DataFrame, title: str) -> str:
    """What a funnel figure or panel is drawn from: the :data:`DRAWN` values of its rows (in
    order; as CSV text, which equal frames write alike whatever their memory layout) and its
    title. (Not the window, the period or the other figures of the rows: a new night's
    window is another, its panels of strata not played that night are the same.)"""
    digest = hashlib.sha256(rows.select(DRAWN).write_csv().encode())
    digest.update(title.encode())
    return digest.hexdigest()


def strata(rows: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """Each comparison stratum of ``rows`` (sorted) with its rows."""
    return [
        (stratum, rows.filter(pl.col("stratum") == stratum))
        for stratum in sorted(rows["stratum"].unique().to_list())
    ]


def _made_with(*what: object) -> str:
    from pipelines.incremental import code_fingerprint

    made_with = [code_fingerprint(), matplotlib_version(), *what]
    return hashlib.sha256(json.dumps(made_with).encode()).hexdigest()


@dataclass(frozen=True)
class Job:
    """One chart to draw: ``kind`` (``panel``, ``trend``, ``legend``), its digest and what
    it is drawn from (``args`` of :func:`pipelines.reports.plots.draw`)."""

    kind: str
    key: str
    args: tuple


def panel_job(g: pl.DataFrame, stratum: str, labels: dict[str, str] | None) -> Job:
    """The funnel panel of ``stratum`` (its directors' rows ``g``) showing the names
    ``labels`` gives: its digest is what it is drawn from (:func:`rows_key`), the names, the
    code, matplotlib."""
    shown = sorted((d, (labels or {}).get(d, d)) for d in g["director"].to_list())
    key = _made_with(rows_key(g, stratum), shown)
    return Job("panel", key, (g, stratum, labels))


def trend_job(months: pl.DataFrame) -> Job:
    """The monthly trend of ``months``: its digest is the :data:`TREND_DRAWN` values of the
    months in order (as CSV text), the code, matplotlib."""
    drawn = months.sort("period").select(TREND_DRAWN).write_csv()
    return Job("trend", _made_with("trend", drawn), (months,))


def legend_job(widened: bool) -> Job:
    """The funnel plots' legend (with the widened limits or not)."""
    return Job("legend", _made_with("legend", widened), (widened,))


class PanelStore:
    """The charts a report drew — its funnel panels, their legend and its monthly trend —
    kept as files (``<digest>.json``: the chart's SVG and the names it could not label) in
    ``folder``, so that the next report draws only the charts whose data changed: a night's
    new sessions touch the strata they were played in, not the season's others. A chart's
    digest (:class:`Job`) holds everything it is drawn from, so a kept chart is byte for
    byte the chart drawn afresh. :meth:`prune` removes the files the report did not use.
    ``folder=None`` keeps nothing (every chart drawn)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.used: set[str] = set()
        self.drawn = 0

    def has(self, key: str) -> bool:
        """Whether a chart of digest ``key`` is kept (without reading it)."""
        return self.folder is not None and (self.folder / f"{key}.json").is_file()

    def get(self, key: str) -> Chart | None:
        self.used.add(key)
        if self.folder is None:
            return None
        try:
            kept = json.loads((self.folder / f"{key}.json").read_text("utf-8"))
            svg, unlabelled = kept["svg"], kept["unlabelled"]
        except (OSError, ValueError, KeyError, TypeError):
            return None  # not kept, or not readable: drawn again
        if not isinstance(svg, str) or not svg.startswith("<svg"):
            return None
        if not isinstance(unlabelled, list) or not all(isinstance(n, str) for n in unlabelled):
            return None
        return Chart(svg, unlabelled)

    def put(self, key: str, chart: Chart) -> None:
        self.drawn += 1
        if self.folder is not None:
            from pipelines.publish.files import put

            text = json.dumps({"svg": chart.svg, "unlabelled": chart.unlabelled})
            put(self.folder / f"{key}.json", text.encode("utf-8"))

    def prune(self) -> None:
        """Remove the kept charts this report did not use."""
        if self.folder is not None and self.folder.is_dir():
            for path in self.folder.glob("*.json"):
                if path.stem not in self.used:
                    path.unlink(missing_ok=True)


#: The charts this process drew or was given, by their digest (which holds everything they
#: are drawn from): a second report of the same figures in the same process — the public
#: report after the committee's, a second run — does not draw them again
#: (:mod:`pipelines.memo`). The report's store still counts them as drawn.
DRAWN_HERE = Memory(keep=256)


def funnel_jobs(rows: pl.DataFrame, labels: dict[str, str] | None = None) -> list[Job]:
    """The charts of the funnel plot of one rate (:func:`funnel_chart`): one panel per
    comparison stratum, then the legend."""
    jobs = [panel_job(g, stratum, labels) for stratum, g in strata(rows)]
    return [*jobs, legend_job(bool(rows["over_dispersed"].any()))]
