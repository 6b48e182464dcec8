"""The season dashboard: one self-contained HTML page (charts embedded, no server, no script).

Figures, per month and per club (a club is the event id up to its first ``-``, the club code
the USEBIO reader and the generator put there):

* sessions, tables and table results (a session's tables counted section by section: those
  its results name where every result names one, else as many as seat the contestants
  ranked, four players to a table — ``sql/reports/season_sessions.sql``);
* average field size (contestants ranked per session);
* adjusted-score rate: table results changed by a ruling (Law 12C assigned, weighted and
  artificial scores, 82C, 87, 79C corrections) or artificial in the results file, per 100
  results; penalty rate: procedural and disciplinary penalties (Laws 90, 91) per 10 sessions;
* appeals (Laws 92, 93) and the **Board-Appeal Ratio** — appeals per 1,000 boards played
  (table results), so clubs of different sizes compare;
* data quality: rejected inputs per club (rows or files, by stage).

Charts are drawn with matplotlib (its object API, no GUI backend) and embedded as PNG data
URIs; every chart has a text alternative and a sentence under it saying what to read from it,
and the figures are also given as tables, so the page is readable with a screen reader or
without images. Counts (sessions, results, rejected inputs) are on integer axes; up to 12
clubs are drawn in 12 distinct colours (:data:`pipelines.reports.plots.PALETTE`) — with more,
the eleven with the most results and the others together as one series, every club still in
the tables; the dates or months under a chart are thinned and slanted so that no two overlap.
A chart drawn from the same figures earlier in the same process is recalled, not drawn
again (:func:`pipelines.memo.remembered`: the same bytes).
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from jinja2 import Environment, FileSystemLoader
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from pipelines.memo import remembered
from pipelines.publish.files import put
from pipelines.reports.plots import PALETTE, plain, thin_ticks
from pipelines.settings import now
from pipelines.warehouse import Warehouse, query

TEMPLATES = Path(__file__).resolve().parent / "templates"


def season_frames(
    warehouse: Path | str, sessions: pl.DataFrame | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The season mart (one row per event session: ``sessions`` when given, as the
    publication's Parquet export read it) and the rejected inputs per club."""
    with Warehouse(warehouse).connect(read_only=True) as conn:
        if sessions is None:
            sessions = query(conn, "reports/season_sessions")
        return sessions, query(conn, "reports/season_rejections")


def with_period(sessions: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """The period the charts count by: the month, or the session date while the season spans
    fewer than three months (a chart of one or two bars says little)."""
    if sessions["month"].n_unique() >= 3:
        return sessions.with_columns(pl.col("month").alias("period")), "month"
    return sessions.with_columns(pl.col("date").alias("period")), "day"


def monthly(sessions: pl.DataFrame, by_club: bool) -> pl.DataFrame:
    """Per period (and club): sessions, tables, results, average field, rates, appeals, BAR.

    ``sessions`` carries a ``period`` column (:func:`with_period`)."""
    keys = ["period", "club"] if by_club else ["period"]
    return (
        sessions.group_by(keys)
        .agg(
            pl.len().alias("sessions"),
            pl.col("tables").sum(),
            pl.col("results").sum(),
            pl.col("contestants").mean().alias("avg_field"),
            pl.col("adjusted_results").sum(),
            pl.col("penalties").sum(),
            pl.col("appeals").sum(),
        )
        .with_columns(
            (100 * pl.col("adjusted_results") / pl.col("results")).alias("adjusted_per_100"),
            (10 * pl.col("penalties") / pl.col("sessions")).alias("penalties_per_10_sessions"),
            (1000 * pl.col("appeals") / pl.col("results")).alias("bar_per_1000_boards"),
        )
        .sort(keys)
    )


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


@remembered(keep=64)
def _bars(
    df: pl.DataFrame,
    value: str,
    title: str,
    ylabel: str,
    counts: bool = True,
    other: str | None = None,
) -> str:
    """:func:`bars_figure` as a PNG data URI."""
    return _png(bars_figure(df, value, title, ylabel, counts, other))


#: The most series a chart draws: :data:`~pipelines.reports.plots.PALETTE`'s twelve colours.
MOST_SERIES = len(PALETTE)


def charted_clubs(
    sessions: pl.DataFrame, most: int = MOST_SERIES
) -> tuple[pl.DataFrame, str | None]:
    """``sessions`` with the clubs a chart can tell apart: when there are more than ``most``,
    the ``most - 1`` clubs with the most table results (then by name) keep their name and the
    others are drawn together as one series, ``"N other clubs"`` (their sessions and results
    added, their field sizes averaged over their sessions). Twelve colours are the most that
    stay distinct; the tables under the charts still list every club. Returns the frame and
    the name of the series of the other clubs (``None`` when every club is named)."""
    totals = (
        sessions.group_by("club")
        .agg(pl.col("results").sum())
        .sort(["results", "club"], descending=[True, False])
    )
    if totals.height <= most:
        return sessions, None
    named = totals["club"].head(most - 1)
    other = f"{totals.height - named.len()} other clubs"
    return sessions.with_columns(
        pl.when(pl.col("club").is_in(named.implode()))
        .then(pl.col("club"))
        .otherwise(pl.lit(other))
        .alias("club")
    ), other


def bars_figure(
    df: pl.DataFrame,
    value: str,
    title: str,
    ylabel: str,
    counts: bool = True,
    other: str | None = None,
) -> Figure:
    """Grouped bars: one group per period, one bar per club, each club its colour of
    :data:`~pipelines.reports.plots.PALETTE` (``counts``: an integer axis). ``df`` holds at
    most :data:`MOST_SERIES` clubs (:func:`charted_clubs`); the series ``other`` (the other
    clubs together) is drawn last, the named clubs before it in alphabetical order.

    Each club's bars are one :class:`~matplotlib.collections.PolyCollection` (one artist per
    club, not one per bar), so a season of many dates draws in a fraction of a second."""
    months = sorted(df["period"].unique().to_list())
    clubs = sorted(df["club"].unique().to_list(), key=lambda c: (c == other, c))
    fig = Figure(figsize=(7, 3.2))
    FigureCanvasAgg(fig)  # drawn as it is saved: the labels are measured on it
    ax = fig.subplots()
    width = 0.8 / max(len(clubs), 1)
    position = {m: i for i, m in enumerate(months)}
    top = 0.0
    for i, club in enumerate(clubs):
        sub = df.filter(pl.col("club") == club).select("period", value).drop_nulls()
        x = np.array([position[m] for m in sub["period"].to_list()], dtype=float)
        h = sub[value].cast(pl.Float64).to_numpy()
        left = x + (i - (len(clubs) - 1) / 2) * width - width / 2
        verts = np.stack(
            [
                np.column_stack([left, np.zeros_like(h)]),
                np.column_stack([left, h]),
                np.column_stack([left + width, h]),
                np.column_stack([left + width, np.zeros_like(h)]),
            ],
            axis=1,
        )
        colour = PALETTE[i % len(PALETTE)]
        ax.add_collection(
            PolyCollection(verts, facecolors=colour, edgecolors="none", label=plain(club)),
            autolim=False,
        )
        top = max(top, float(h.max()) if h.size else 0.0)
    ax.set_xlim(-0.5, len(months) - 0.5)
    ax.set_ylim(0, top * 1.05 if top > 0 else 1)
    thin_ticks(ax, months)
    if counts:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend(title="club", fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.spines[["top", "right"]].set_visible(False)
    return fig


@remembered(keep=64)
def _lines(df: pl.DataFrame, values: list[tuple[str, str]], title: str) -> str:
    """One line per measure over the months (whole federation)."""
    fig = Figure(figsize=(7, 3.2))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    months = df["period"].to_list()
    for i, (col, label) in enumerate(values):
        ax.plot(range(len(months)), df[col].to_list(), marker="o", label=label, color=PALETTE[i])
    thin_ticks(ax, months)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_ylim(bottom=0)
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


@remembered(keep=64)
def _rejections_chart(rej: pl.DataFrame) -> str:
    per_club = rej.group_by("club").agg(pl.col("rejected").sum()).sort("club")
    fig = Figure(figsize=(7, 2.8))
    ax = fig.subplots()
    ax.barh(
        [plain(c) for c in per_club["club"].to_list()],
        per_club["rejected"].to_list(),
        color=PALETTE[5],
    )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Rejected inputs per club")
    ax.set_xlabel("rows or files rejected")
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


def _table(df: pl.DataFrame, decimals: int = 1) -> dict[str, Any]:
    """Columns and formatted rows for the page's data tables."""
    rows = []
    for r in df.iter_rows():
        rows.append(
            [f"{v:.{decimals}f}" if isinstance(v, float) else ("" if v is None else v) for v in r]
        )
    return {"columns": df.columns, "rows": rows}


def render_season(
    warehouse: Path | str,
    out: Path,
    title: str = "Season dashboard",
    sessions: pl.DataFrame | None = None,
) -> Path:
    """Write the dashboard HTML file ``out`` (its folder is created); returns ``out``.
    ``sessions``: the season mart (``sql/reports/season_sessions``) when already read."""
    sessions, rejections = season_frames(warehouse, sessions)
    return write_season(sessions, rejections, out, title)


def write_season(
    sessions: pl.DataFrame,
    rejections: pl.DataFrame,
    out: Path,
    title: str = "Season dashboard",
) -> Path:
    """Write the dashboard of the season mart ``sessions`` and the rejected inputs per club
    ``rejections`` (:func:`season_frames`) into ``out``; returns ``out``. Reads nothing
    else: a drawing process (:mod:`pipelines.reports.drawing`) writes it from the frames."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True)  # every template
    charts: list[dict[str, str]] = []
    tables: list[dict[str, Any]] = []
    if sessions.height:
        sessions, unit = with_period(sessions)
        per = "month" if unit == "month" else "session date"
        per_club = monthly(sessions, by_club=True)
        few, other = charted_clubs(sessions)
        charted = monthly(few, by_club=True)
        overall = monthly(sessions, by_club=False)
        charts += [
            {
                "src": _bars(
                    charted, "sessions", f"Sessions per {per} and club", "sessions", other=other
                ),
                "alt": f"Bar chart of sessions per {per} for each club; figures in the table "
                "below.",
                "reading": f"Read: how many sessions each club ran each {per}; a club missing "
                f"from a {per} sent no results for it.",
            },
            {
                "src": _bars(
                    charted, "results", f"Table results per {per} and club", "results", other=other
                ),
                "alt": f"Bar chart of table results per {per} for each club.",
                "reading": "Read: how much bridge each club played (one result per table and "
                "board); the rates below are per result, so a small club's rate rests on few.",
            },
            {
                "src": _bars(
                    charted, "avg_field", "Average field size", "contestants", False, other
                ),
                "alt": "Bar chart of the average number of contestants per session.",
                "reading": "Read: the average number of pairs, teams or players ranked in a "
                "club's sessions; a falling bar is a club losing tables.",
            },
            {
                "src": _lines(
                    overall,
                    [
                        ("adjusted_per_100", "adjusted scores per 100 results"),
                        ("penalties_per_10_sessions", "penalties per 10 sessions"),
                        ("bar_per_1000_boards", "appeals per 1,000 boards (BAR)"),
                    ],
                    "Adjusted scores, penalties and the Board-Appeal Ratio",
                ),
                "alt": f"Line chart per {per} of the adjusted-score rate, the penalty "
                "rate and the Board-Appeal Ratio.",
                "reading": f"Read: each line is one rate of the whole federation per {per}; "
                "a line that rises while the others stay level points at that kind of "
                "decision, not at more play.",
            },
        ]
        tables += [
            {"caption": f"Per {per} and club", **_table(per_club)},
            {"caption": f"Whole federation per {per}", **_table(overall)},
        ]
    if rejections.height:
        charts.append(
            {
                "src": _rejections_chart(rejections),
                "alt": "Horizontal bar chart of rejected inputs per club.",
                "reading": "Read: the rows or files of each club's inbox that were not "
                "accepted (the reasons are in the table below and in traveller validate); a "
                "long bar is a club whose program or scorer needs a word.",
            }
        )
        tables.append({"caption": "Rejected inputs per club and stage", **_table(rejections)})
    totals = {
        "sessions": sessions.height,
        "results": int(sessions["results"].sum()) if sessions.height else 0,
        "appeals": int(sessions["appeals"].sum()) if sessions.height else 0,
        "rejected": int(rejections["rejected"].sum()) if rejections.height else 0,
    }
    html = env.get_template("season.html.j2").render(
        title=title,
        charts=charts,
        tables=tables,
        totals=totals,
        generated=now().strftime("%Y-%m-%d %H:%M"),
    )
    put(out, html.encode("utf-8"))  # whole or not at all, and only when it changed
    return out
