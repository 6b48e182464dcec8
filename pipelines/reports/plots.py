"""Plots of the audit reports, drawn with matplotlib (Agg backend) and returned as SVG text.

A funnel plot (Spiegelhalter 2005) shows each director's rate against the number of cases it
is computed from, with the pooled target and the 95 % and 99.8 % control limits (exact
binomial, :mod:`pipelines.audit.funnel`), and the limits widened for over-dispersion when the
rates are over-dispersed. Flagged directors are drawn in red. The SVG is deterministic (no
date, a fixed hash salt) so the same warehouse gives the same report.

Every chart is drawn to be read: counts on integer axes (cases, sessions), labels that never
overlap (:func:`place_labels`: a director's name goes to the first free place around its dot,
directors on the same dot share one label, and a name with no free place is left to the list
under the chart), and up to 12 series in 12 distinct colours (:data:`PALETTE`).

Which charts a report shows, which are kept from the last report and which are drawn where:
:mod:`pipelines.reports.charts` and :mod:`pipelines.reports.figures` (this module is imported
only when a chart is drawn).
"""

from __future__ import annotations

import functools
import io
import itertools
import math
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import LogLocator, MaxNLocator, NullFormatter, ScalarFormatter
from matplotlib.transforms import Bbox

from pipelines.audit.funnel import funnel_curve
from pipelines.reports import charts
from pipelines.reports.charts import Chart


def plain(text: object) -> str:
    """``text`` as matplotlib shows it literally: a ``$`` would start mathtext (a name like
    ``$ally$`` would be typeset as a formula, and ``$\\x$`` stops the figure), so each is
    escaped."""
    return str(text).replace("$", r"\$")


_RC = {"svg.hashsalt": "traveller", "svg.fonttype": "none", "font.size": 9}

#: Twelve colours that stay apart for up to 12 series (clubs, directors), colour-blind
#: considerate: Okabe & Ito's eight (2008) and four of Paul Tol's (wine, teal, grey, brown).
PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
    "#882255",
    "#44AA99",
    "#888888",
    "#994F00",
)

#: Where a label may go around its dot, tried in this order (offsets in points and the
#: label's alignment): beside, above and below, then further out.
_SPOTS: tuple[tuple[float, float, str, str], ...] = (
    (4, 3, "left", "bottom"),
    (4, -3, "left", "top"),
    (-4, 3, "right", "bottom"),
    (-4, -3, "right", "top"),
    (0, 7, "center", "bottom"),
    (0, -7, "center", "top"),
    (6, 12, "left", "bottom"),
    (6, -12, "left", "top"),
    (-6, 12, "right", "bottom"),
    (-6, -12, "right", "top"),
    (0, 20, "center", "bottom"),
    (0, -20, "center", "top"),
)


def _overlaps(a, b) -> bool:
    """Whether two display boxes overlap (touching is not overlapping)."""
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def place_labels(
    ax, points: list[tuple[float, float, str]], taken: list | None = None, fontsize: float = 7
) -> list[str]:
    """Label each dot ``(x, y, text)`` of ``ax`` at the first of :data:`_SPOTS` where the
    label overlaps no label already placed (nor a box of ``taken``) and stays inside the
    figure; dots at the same place share one label (``A, B``). The texts that found no free
    place are returned (the caller lists them under the chart), so no two labels overlap.
    Call it once the figure's layout is final."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    placed = list(taken or [])
    merged: dict[tuple[float, float], list[str]] = {}
    for x, y, text in points:
        merged.setdefault((x, y), []).append(text)
    left_out = []
    for (x, y), texts in merged.items():
        text = ", ".join(texts)
        # the label's size, measured once: at each spot its box is that size moved by the
        # spot's offset and alignment; a label is made only where its box is free
        probe = _label(ax, text, x, y, (0, 0, "left", "bottom"), fontsize)
        size = probe.get_window_extent(renderer)
        probe.remove()
        for spot in _SPOTS:
            if not _free(_box_at(spot, size, fig.dpi / 72), frame, placed):
                continue
            ann = _label(ax, text, x, y, spot, fontsize)
            box = ann.get_window_extent(renderer)  # as drawn: what later labels must avoid
            if _free(box, frame, placed):
                placed.append(box)
                break
            ann.remove()
        else:
            left_out.extend(texts)
    return left_out


def _label(ax, text: str, x: float, y: float, spot: tuple, fontsize: float):
    dx, dy, ha, va = spot
    return ax.annotate(
        text,
        (x, y),
        xytext=(dx, dy),
        textcoords="offset points",
        fontsize=fontsize,
        ha=ha,
        va=va,
        annotation_clip=False,
    )


def _box_at(spot: tuple, size, per_point: float) -> Bbox:
    """The display box of a label whose box is ``size`` when written left and bottom at its
    dot, written at ``spot`` instead: moved by the spot's offset (points) and aligned as the
    spot says."""
    dx, dy, ha, va = spot
    w, h = size.width, size.height
    x = size.x0 + dx * per_point - {"left": 0.0, "center": w / 2, "right": w}[ha]
    y = size.y0 + dy * per_point - (h if va == "top" else 0.0)
    return Bbox.from_bounds(x, y, w, h)


def _free(box, frame, placed: list) -> bool:
    """Whether ``box`` lies inside the figure's ``frame`` and overlaps nothing ``placed``."""
    inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0
    return inside and box.y1 <= frame.y1 and not any(_overlaps(box, b) for b in placed)


def _svg(fig, whole: bool = False) -> str:
    """``fig`` as SVG text, cut to what is drawn on it; a ``whole`` figure (laid out with its
    margins, :func:`_funnel_layout`) as it is: cutting would draw the whole SVG once more
    only to measure it."""
    buf = io.StringIO()
    with matplotlib.rc_context(_RC):  # the hash salt must be in force when the ids are made
        bbox = None if whole else "tight"
        fig.savefig(buf, format="svg", bbox_inches=bbox, metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _figure(figsize: tuple[float, float]) -> Figure:
    """A figure of its own (matplotlib's object API, drawn by Agg): not pyplot's, which
    would hold it until closed and costs its import to every run that draws a chart."""
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


#: The funnel plot's panel and margins, in inches: each panel is _PANEL, with room left of
#: it for the rates' ticks and label, under it for the cases' ticks and label, above it for
#: its stratum; the figure's title above them all and the legend in a band under them all.
_PANEL = (4.4, 2.9)
_MARGIN = {"left": 0.62, "right": 0.18, "below": 0.58, "above": 0.34}
_TITLE, _LEGEND = 0.42, 0.36


def _funnel_layout(cols: int, lines: int, title: float = _TITLE, legend: float = _LEGEND) -> dict:
    """The figure size and grid of a funnel plot of ``cols`` × ``lines`` panels: fixed
    margins (:data:`_MARGIN`) that fit the ticks, axis labels and titles the plot writes, so
    it is laid out without measuring (a layout engine would draw it once more to measure);
    ``title`` and ``legend``: the bands above and under the panels (none for one panel drawn
    alone, :func:`funnel_chart`)."""
    w_gap = _MARGIN["left"] + _MARGIN["right"]
    h_gap = _MARGIN["below"] + _MARGIN["above"]
    width = cols * (_PANEL[0] + w_gap)
    height = title + legend + lines * (_PANEL[1] + h_gap)
    return {
        "figsize": (width, height),
        "gridspec_kw": {
            "left": _MARGIN["left"] / width,
            "right": 1 - _MARGIN["right"] / width,
            "bottom": (legend + _MARGIN["below"]) / height,
            "top": 1 - (title + _MARGIN["above"]) / height,
            "wspace": w_gap / _PANEL[0],
            "hspace": h_gap / _PANEL[1],
        },
    }


@dataclass
class _LaidOut:
    """A funnel figure drawn and laid out without its names: each panel's dots (``x``,
    ``y``, director, in labelling order) and the display boxes labels must avoid."""

    fig: object
    dots: list[tuple[object, list[tuple[float, float, str]]]]
    taken: list


#: The funnel panels laid out last, by what they were drawn from
#: (:func:`~pipelines.reports.charts.rows_key`): the audit and the transparency reports of a
#: night draw the same panels with other names (directors, pseudonyms), so the second only
#: writes its names and saves. At most
#: :data:`_KEEP` are kept; the oldest is let go.
_LAID_OUT: dict[str, _LaidOut] = {}
_KEEP = 32


def _draw_panel(ax, g: pl.DataFrame, stratum: str) -> list[tuple[float, float, str]]:
    """Draw the funnel of one comparison stratum (``g``: its directors' rows) on ``ax``: the
    target, the 95 % and 99.8 % limits (and the 99.8 % widened for over-dispersion), the
    directors' dots (the flagged in red), the cases on a log axis beyond 50; its dots
    ``(x, y, director)`` in labelling order: the flagged first, then left to right."""
    p0, phi = float(g["target"][0]), float(g["phi"][0])
    over = bool(g["over_dispersed"][0])
    n_max = float(g["n"].max()) * 1.15
    c = funnel_curve(p0, phi, n_max)
    n = c["n"]
    ax.axhline(p0, color="black", lw=1, label="target")
    ax.plot(n, c["upper95"], "--", color="tab:blue", lw=0.9, label="95 % limits")
    ax.plot(n, c["lower95"], "--", color="tab:blue", lw=0.9)
    ax.plot(n, c["upper998"], "-", color="tab:red", lw=0.9, label="99.8 % limits")
    ax.plot(n, c["lower998"], "-", color="tab:red", lw=0.9)
    if over:
        ax.plot(
            n,
            c["upper998_widened"],
            ":",
            color="tab:red",
            lw=1.2,
            label="99.8 % widened for over-dispersion",
        )
        ax.plot(n, c["lower998_widened"], ":", color="tab:red", lw=1.2)
    flagged = g["flagged"].fill_null(False).to_numpy()
    x, y = g["n"].to_numpy().astype(float), g["rate"].to_numpy().astype(float)
    ax.scatter(x[~flagged], y[~flagged], s=22, color="tab:gray", zorder=3)
    ax.scatter(x[flagged], y[flagged], s=30, color="tab:red", zorder=4, label="flagged")
    names = g["director"].to_list()
    order = np.lexsort((x, ~flagged))  # the flagged labelled first, then left to right
    if n_max > 50:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # cases are counted
    ax.set_xlim(left=max(0.8, float(x.min()) * 0.7) if n_max > 50 else 0)
    near = c["upper998_widened" if over else "upper998"][n >= float(x.min())]
    top = max(float(np.nanmax(y)), float(np.nanmax(near)) if len(near) else 0.0)
    ax.set_ylim(0, min(1.06, top * 1.15 + 0.01) if not math.isnan(top) else 1.06)
    ax.set_xlabel("cases (n)")
    ax.set_ylabel("rate")
    # at the top edge, where matplotlib would put it (no ticks are drawn above): given,
    # the title is not placed anew at each draw by measuring every panel's ticks
    ax.set_title(f"{plain(stratum)}  (target {p0:.3f})", fontsize=8, y=1.0)
    return [(float(x[i]), float(y[i]), names[i]) for i in order]


def _texts_taken(fig, axes: list) -> list:
    """The display boxes of the texts of ``axes`` (titles, axis labels, tick labels) where
    ``fig`` will draw them. Measuring each axis (its ticks and its label put in place, as a
    draw puts them) is enough to know where every text will be: the lines and dots need not
    be drawn to measure them."""
    renderer = fig.canvas.get_renderer()
    for a in axes:
        a.xaxis.get_tightbbox(renderer)
        a.yaxis.get_tightbbox(renderer)
    return [
        t.get_window_extent(renderer)
        for a in axes
        for t in (a.title, a.xaxis.label, a.yaxis.label, *a.get_xticklabels(), *a.get_yticklabels())
        if t.get_text()
    ]


def _lay_out(rows: pl.DataFrame, title: str) -> _LaidOut:
    """The funnel plot of one rate in one figure, without its names: one panel per
    comparison stratum, the title above them and the legend under them, laid out
    (:func:`funnel_figure`)."""
    strata = charts.strata(rows)
    k = max(1, len(strata))
    cols = min(3, k)
    lines = math.ceil(k / cols)
    with matplotlib.rc_context(_RC):
        layout = _funnel_layout(cols, lines)
        fig = _figure(layout["figsize"])
        grid = fig.subplots(lines, cols, squeeze=False, gridspec_kw=layout["gridspec_kw"])
        axes = grid.ravel()
        for ax in axes[len(strata) :]:
            ax.set_visible(False)
        dots = [
            (ax, _draw_panel(ax, g, stratum))
            for ax, (stratum, g) in zip(axes, strata, strict=False)
        ]
        handles = {}
        for ax in axes[: len(strata)]:
            for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
                handles.setdefault(lab, (h, lab))
        legend = fig.legend(
            [h for h, _ in handles.values()],
            [lab for _, lab in handles.values()],
            loc="lower center",
            ncol=len(handles),
            fontsize=7,
            bbox_to_anchor=(0.5, 0.0),
            frameon=False,
        )
        fig.suptitle(title, fontsize=10)
        # the layout is final: labels are placed where they will be drawn
        taken = _texts_taken(fig, list(axes[: len(strata)]))
        renderer = fig.canvas.get_renderer()
        taken += [fig._suptitle.get_window_extent(renderer), legend.get_window_extent(renderer)]
        return _LaidOut(fig, dots, taken)


def _lay_out_panel(g: pl.DataFrame, stratum: str) -> _LaidOut:
    """The funnel of one comparison stratum as a figure of its own (the panel and its
    margins: no title band, no legend), without its names, laid out."""
    layout = _funnel_layout(1, 1, title=0.0, legend=0.0)
    with matplotlib.rc_context(_RC):
        # a figure of its own, not pyplot's: kept laid out (:data:`_LAID_OUT`) without
        # pyplot holding it, and let go when dropped
        fig = Figure(figsize=layout["figsize"])
        FigureCanvasAgg(fig)
        ax = fig.subplots(1, 1, gridspec_kw=layout["gridspec_kw"])
        dots = _draw_panel(ax, g, stratum)
        return _LaidOut(fig, [(ax, dots)], _texts_taken(fig, [ax]))


def _write_names(laid: _LaidOut, labels: dict[str, str] | None) -> tuple[list, list[str]]:
    """Write each dot's name (``labels`` maps directors to the names shown) where it is free
    (:func:`place_labels`); returns the annotations made and the names left unlabelled."""
    made: list = []
    left_out: list[str] = []
    with matplotlib.rc_context(_RC):
        for ax, points in laid.dots:
            before = len(ax.texts)
            named = [(x, y, plain((labels or {}).get(d, d))) for x, y, d in points]
            left_out += place_labels(ax, named, laid.taken)
            made += list(ax.texts[before:])
    return made, left_out


def funnel_figure(rows: pl.DataFrame, title: str, labels: dict[str, str] | None = None):
    """The funnel plot of one rate in one figure: one panel per comparison stratum. ``rows``
    are the ``director_audit`` rows of that measure (with ``n > 0``); ``labels`` maps
    directors to the names shown (pseudonyms in the public report). The names that found no
    free place beside their dot are in ``fig.unlabelled`` (:func:`place_labels`)."""
    laid = _lay_out(rows, title)
    _, laid.fig.unlabelled = _write_names(laid, labels)
    return laid.fig


def funnel_panel_figure(rows: pl.DataFrame, stratum: str, labels: dict[str, str] | None = None):
    """The funnel of one comparison stratum as the reports draw it, a figure of its own
    (:func:`funnel_chart`): ``rows`` are its directors' rows; the names that found no free
    place beside their dot are in ``fig.unlabelled``."""
    laid = _lay_out_panel(rows, stratum)
    _, laid.fig.unlabelled = _write_names(laid, labels)
    return laid.fig


def funnel_png(rows: pl.DataFrame, title: str, labels: dict[str, str] | None = None) -> bytes:
    """:func:`funnel_figure` as PNG bytes (the README's picture)."""
    return _png(funnel_figure(rows, title, labels))


def _panel(g: pl.DataFrame, stratum: str, labels: dict[str, str] | None) -> Chart:
    """One stratum's panel as SVG with the names it could not label. The panel laid out is
    kept (:data:`_LAID_OUT`): the same panel with other names is then only labelled and
    saved — the SVG is the same as a panel drawn afresh."""
    key = charts.rows_key(g, stratum)
    laid = _LAID_OUT.pop(key, None) or _lay_out_panel(g, stratum)
    made, left_out = _write_names(laid, labels)
    svg = _svg(laid.fig, whole=True)
    for annotation in made:
        annotation.remove()
    _LAID_OUT[key] = laid
    while len(_LAID_OUT) > _KEEP:
        del _LAID_OUT[next(iter(_LAID_OUT))]
    return Chart(svg, left_out)


#: The legend's entries in the order drawn: the label, the line's style and colour (a dot
#: for the flagged directors).
_LEGEND_ENTRIES = (
    ("target", {"color": "black", "lw": 1}),
    ("95 % limits", {"ls": "--", "color": "tab:blue", "lw": 0.9}),
    ("99.8 % limits", {"ls": "-", "color": "tab:red", "lw": 0.9}),
    ("99.8 % widened for over-dispersion", {"ls": ":", "color": "tab:red", "lw": 1.2}),
    ("flagged", {"ls": "", "marker": "o", "color": "tab:red", "markersize": 5.5}),
)


@functools.lru_cache(maxsize=4)
def legend_svg(widened: bool) -> str:
    """The legend of a funnel plot's panels as SVG: the target, the limits (the widened
    limits when a panel of the plot is over-dispersed) and the flagged directors."""
    entries = [e for e in _LEGEND_ENTRIES if widened or not e[0].startswith("99.8 % widened")]
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(_PANEL[0] + _MARGIN["left"] + _MARGIN["right"], _LEGEND))
        FigureCanvasAgg(fig)
        fig.legend(
            [Line2D([], [], **style) for _, style in entries],
            [label for label, _ in entries],
            loc="center",
            ncol=len(entries) if not widened else 3,
            fontsize=7,
            frameon=False,
        )
        return _svg(fig)


def thin_ticks(ax, labels: list[str], most: int = 12) -> None:
    """Write the category ``labels`` under ``ax`` (at positions 0, 1, ...): every k-th, the
    first kept, at most ``most``, slanted when more than six, and k raised until no two
    written labels overlap (measured on the drawn figure)."""
    n = len(labels)
    step = max(1, math.ceil(n / most))
    renderer = (
        ax.figure.canvas.get_renderer() if hasattr(ax.figure.canvas, "get_renderer") else None
    )
    while True:
        shown = list(range(0, n, step))
        ax.set_xticks(shown, [str(labels[i]) for i in shown])
        slanted = len(shown) > 6
        ax.tick_params(axis="x", labelrotation=35 if slanted else 0)
        for t in ax.get_xticklabels():
            t.set_horizontalalignment("right" if slanted else "center")
        if renderer is None or len(shown) <= 1:
            return
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels()]
        if not any(_overlaps(a, b) for a, b in itertools.pairwise(boxes)):
            return
        step += 1


#: The share of a trend chart's height left above its highest point, for the legends.
HEADROOM = 0.35


def _top(values: list[float]) -> float:
    """An axis' top leaving :data:`HEADROOM` above the highest of ``values`` (1 when all are
    0): the legends sit in that band and never cover a point."""
    high = max([v for v in values if v is not None and not math.isnan(v)], default=0.0)
    return high * (1 + HEADROOM) if high > 0 else 1.0


def trend_figure(months: pl.DataFrame):
    """The Board-Appeal Ratio (appeals per 1,000 boards) by month, with the rulings per 1,000
    boards beside it (right axis); ``months`` has ``period``, ``board_appeal_ratio``,
    ``rulings``, ``boards_played``. Both axes start at 0 and leave a band above the highest
    point (:func:`_top`) where the two legends are written."""
    with matplotlib.rc_context(_RC):
        fig = _figure((6.5, 2.8))
        ax = fig.subplots()
        m = months.sort("period")
        xs = m["period"].to_list()
        appeals = m["board_appeal_ratio"].fill_null(0).to_list()
        ax.plot(xs, appeals, "o-", color=PALETTE[0], label="appeals")
        per = (m["rulings"] * 1000 / m["boards_played"]).fill_nan(None).fill_null(0).to_list()
        ax2 = ax.twinx()
        ax2.plot(xs, per, "s--", color=PALETTE[10], label="rulings (right axis)")
        thin_ticks(ax, xs)
        ax.set_ylabel("appeals per 1,000 boards")
        ax2.set_ylabel("rulings per 1,000 boards")
        ax.set_ylim(0, _top(appeals))
        ax2.set_ylim(0, _top(per))
        ax.legend(loc="upper left", fontsize=7)
        ax2.legend(loc="upper right", fontsize=7)
        return fig


def trend_svg(months: pl.DataFrame) -> str:
    """:func:`trend_figure` as inline SVG text."""
    return _svg(trend_figure(months))


def draw(kind: str, *args: object) -> Chart:
    """Draw one chart of the audit reports (:class:`pipelines.reports.charts.Job`): a funnel
    ``panel`` (its rows, its stratum, the names shown), the funnel plots' ``legend``
    (widened or not) or the monthly ``trend`` (its months). The drawing process
    (:mod:`pipelines.reports.drawing`) and the run's own process draw the same bytes."""
    if kind == "panel":
        return _panel(*args)  # type: ignore[arg-type]
    if kind == "legend":
        return Chart(legend_svg(*args))  # type: ignore[arg-type]
    if kind == "trend":
        return Chart(trend_svg(*args))  # type: ignore[arg-type]
    raise ValueError(f"no chart of kind {kind!r}")
