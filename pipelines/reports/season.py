"""The season dashboard: one self-contained HTML page (charts embedded, no server, no script).

Figures, per month and per club (a club is the event id up to its first ``-``, the club code
the USEBIO reader and the generator put there):

* sessions, tables and table results;
* average field size (contestants ranked per session);
* adjusted-score rate: table results changed by a ruling (Law 12C assigned, weighted and
  artificial scores, 82C, 87, 79C corrections) or artificial in the results file, per 100
  results; penalty rate: procedural and disciplinary penalties (Laws 90, 91) per 10 sessions;
* appeals (Laws 92, 93) and the **Board-Appeal Ratio** — appeals per 1,000 boards played
  (table results), so clubs of different sizes compare;
* data quality: rejected inputs per club (rows or files, by stage).

Charts are drawn with matplotlib (its object API, no GUI backend) and embedded as PNG data
URIs; every chart has a text alternative and the figures are also given as tables, so the page
is readable with a screen reader or without images.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import Environment, FileSystemLoader
from matplotlib.figure import Figure

from pipelines.reports.plots import plain
from pipelines.settings import now
from pipelines.warehouse import Warehouse, query

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: Colour-blind-safe palette (Okabe-Ito).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442")


def season_frames(warehouse: Path | str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The season mart (one row per event session) and the rejected inputs per club."""
    with Warehouse(warehouse).connect(read_only=True) as conn:
        return query(conn, "reports/season_sessions"), query(conn, "reports/season_rejections")


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


def _bars(df: pl.DataFrame, value: str, title: str, ylabel: str) -> str:
    """Grouped bars: one group per month, one bar per club."""
    months = sorted(df["period"].unique().to_list())
    clubs = sorted(df["club"].unique().to_list())
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    width = 0.8 / max(len(clubs), 1)
    for i, club in enumerate(clubs):
        sub = dict(df.filter(pl.col("club") == club).select("period", value).iter_rows())
        xs = [m + (i - (len(clubs) - 1) / 2) * width for m in range(len(months))]
        heights = [sub.get(m, 0) or 0 for m in months]
        ax.bar(xs, heights, width, label=plain(club), color=PALETTE[i % len(PALETTE)])
    ax.set_xticks(range(len(months)), months, rotation=30 if len(months) > 6 else 0)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.legend(title="club", fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


def _lines(df: pl.DataFrame, values: list[tuple[str, str]], title: str) -> str:
    """One line per measure over the months (whole federation)."""
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    months = df["period"].to_list()
    for i, (col, label) in enumerate(values):
        ax.plot(months, df[col].to_list(), marker="o", label=label, color=PALETTE[i])
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_ylim(bottom=0)
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


def _rejections_chart(rej: pl.DataFrame) -> str:
    per_club = rej.group_by("club").agg(pl.col("rejected").sum()).sort("club")
    fig = Figure(figsize=(7, 2.8))
    ax = fig.subplots()
    ax.barh(
        [plain(c) for c in per_club["club"].to_list()],
        per_club["rejected"].to_list(),
        color=PALETTE[5],
    )
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


def render_season(warehouse: Path | str, out: Path, title: str = "Season dashboard") -> Path:
    """Write the dashboard HTML file ``out`` (its folder is created); returns ``out``."""
    sessions, rejections = season_frames(warehouse)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True)  # every template
    charts: list[dict[str, str]] = []
    tables: list[dict[str, Any]] = []
    if sessions.height:
        sessions, unit = with_period(sessions)
        per = "month" if unit == "month" else "session date"
        per_club = monthly(sessions, by_club=True)
        overall = monthly(sessions, by_club=False)
        charts += [
            {
                "src": _bars(per_club, "sessions", f"Sessions per {per} and club", "sessions"),
                "alt": f"Bar chart of sessions per {per} for each club; figures in the table "
                "below.",
            },
            {
                "src": _bars(per_club, "results", f"Table results per {per} and club", "results"),
                "alt": f"Bar chart of table results per {per} for each club.",
            },
            {
                "src": _bars(per_club, "avg_field", "Average field size", "contestants"),
                "alt": "Bar chart of the average number of contestants per session.",
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
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out
