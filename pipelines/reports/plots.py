"""Plots of the audit reports, drawn with matplotlib (Agg backend) and returned as SVG text.

A funnel plot (Spiegelhalter 2005) shows each director's rate against the number of cases it
is computed from, with the pooled target and the 95 % and 99.8 % control limits (exact
binomial, :mod:`pipelines.audit.funnel`), and the limits widened for over-dispersion when the
rates are over-dispersed. Flagged directors are drawn in red. The SVG is deterministic (no
date, a fixed hash salt) so the same warehouse gives the same report.
"""

from __future__ import annotations

import io
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

from pipelines.audit.funnel import funnel_curve


def plain(text: object) -> str:
    """``text`` as matplotlib shows it literally: a ``$`` would start mathtext (a name like
    ``$ally$`` would be typeset as a formula, and ``$\\x$`` stops the figure), so each is
    escaped."""
    return str(text).replace("$", r"\$")


_RC = {"svg.hashsalt": "traveller", "svg.fonttype": "none", "font.size": 9}


def _svg(fig) -> str:
    buf = io.StringIO()
    with plt.rc_context(_RC):  # the hash salt must be in force when the ids are made
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def funnel_figure(rows: pl.DataFrame, title: str, labels: dict[str, str] | None = None):
    """The funnel plot of one rate: one panel per comparison stratum. ``rows`` are the
    ``director_audit`` rows of that measure (with ``n > 0``); ``labels`` maps directors to the
    names shown (pseudonyms in the public report)."""
    strata = sorted(rows["stratum"].unique().to_list())
    k = max(1, len(strata))
    cols = min(3, k)
    lines = math.ceil(k / cols)
    with plt.rc_context(_RC):
        fig, grid = plt.subplots(lines, cols, figsize=(5.2 * cols, 3.8 * lines), squeeze=False)
        axes = grid.ravel()
        for ax in axes[len(strata) :]:
            ax.set_visible(False)
        for ax, stratum in zip(axes, strata, strict=False):
            g = rows.filter(pl.col("stratum") == stratum)
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
            for name, xi, yi in zip(g["director"].to_list(), x, y, strict=True):
                shown = plain((labels or {}).get(name, name))
                ax.annotate(shown, (xi, yi), fontsize=7, xytext=(3, 3), textcoords="offset points")
            if n_max > 50:
                ax.set_xscale("log")
                ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                ax.xaxis.set_major_formatter(ScalarFormatter())
                ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_xlim(left=max(0.8, float(x.min()) * 0.7) if n_max > 50 else 0)
            near = c["upper998_widened" if over else "upper998"][n >= float(x.min())]
            top = max(float(np.nanmax(y)), float(np.nanmax(near)) if len(near) else 0.0)
            ax.set_ylim(0, min(1.06, top * 1.15 + 0.01) if not math.isnan(top) else 1.06)
            ax.set_xlabel("cases (n)")
            ax.set_ylabel("rate")
            ax.set_title(f"{plain(stratum)}  (target {p0:.3f})", fontsize=8)
        handles = {}
        for ax in axes[: len(strata)]:
            for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
                handles.setdefault(lab, (h, lab))
        fig.legend(
            [h for h, _ in handles.values()],
            [lab for _, lab in handles.values()],
            loc="lower center",
            ncol=len(handles),
            fontsize=7,
            bbox_to_anchor=(0.5, -0.06 / lines),
            frameon=False,
        )
        fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        return fig


def funnel_svg(rows: pl.DataFrame, title: str, labels: dict[str, str] | None = None) -> str:
    """:func:`funnel_figure` as inline SVG text."""
    return _svg(funnel_figure(rows, title, labels))


def funnel_png(rows: pl.DataFrame, title: str, labels: dict[str, str] | None = None) -> bytes:
    """:func:`funnel_figure` as PNG bytes (the README's picture)."""
    return _png(funnel_figure(rows, title, labels))


def trend_svg(months: pl.DataFrame) -> str:
    """The Board-Appeal Ratio (appeals per 1,000 boards) by month, with the rulings per 1,000
    boards beside it; ``months`` has ``period``, ``board_appeal_ratio``, ``rulings``,
    ``boards_played``."""
    with plt.rc_context(_RC):
        fig, ax = plt.subplots(figsize=(6.5, 2.8))
        m = months.sort("period")
        xs = m["period"].to_list()
        ax.plot(xs, m["board_appeal_ratio"].fill_null(0).to_list(), "o-", label="appeals")
        per = (m["rulings"] * 1000 / m["boards_played"]).fill_nan(None).fill_null(0)
        ax2 = ax.twinx()
        ax2.plot(xs, per.to_list(), "s--", color="tab:gray", label="rulings (right axis)")
        ax.set_ylabel("appeals per 1,000 boards")
        ax2.set_ylabel("rulings per 1,000 boards")
        ax.set_ylim(bottom=0)
        ax2.set_ylim(bottom=0)
        ax.legend(loc="upper left", fontsize=7)
        ax2.legend(loc="upper right", fontsize=7)
        return _svg(fig)
