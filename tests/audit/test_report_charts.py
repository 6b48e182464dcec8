"""The charts of the audit, transparency and season reports are readable: counts on integer
axes, labels that never overlap, up to 12 series in 12 distinct colours, a sentence under each
chart saying what to read from it, and the control limits explained where a rate of 1.000 is
drawn above a limit of 0.999."""

from __future__ import annotations

import re
from itertools import combinations

import matplotlib.colors as mcolors
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg

from pipelines.audit.funnel import exact_limit, funnel
from pipelines.reports import charts, figures, plots
from pipelines.reports.audit import tail_note
from pipelines.reports.figures import funnel_chart
from pipelines.reports.plots import PALETTE, funnel_figure
from pipelines.reports.season import bars_figure, charted_clubs, monthly


def _crowded_rows() -> pl.DataFrame:
    """Twelve directors of one stratum, most on a handful of cases and on the same dots (one
    or two cases, rates 0, 1/2 and 1): the crowding that made the names overlap."""
    x = [0, 0, 0, 1, 1, 1, 0, 1, 2, 3, 5, 9]
    n = [1, 1, 2, 1, 2, 2, 3, 3, 4, 6, 9, 12]
    f = funnel(x, n)
    return pl.DataFrame(
        {
            "director": [f"TD Director Number {i + 1}" for i in range(len(x))],
            "stratum": ["club · pairs · matchpoints"] * len(x),
            "n": n,
            "x": x,
            "rate": [a / b for a, b in zip(x, n, strict=True)],
            "target": [f.target] * len(x),
            "phi": [f.phi] * len(x),
            "over_dispersed": [f.over_dispersed] * len(x),
            "flagged": f.flagged.tolist(),
        }
    )


def test_director_names_never_overlap_and_cases_are_whole_numbers():
    fig = funnel_figure(_crowded_rows(), "Rulings changed on appeal per appeal decided")
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    names = [t for t in ax.texts if t.get_text().startswith("TD ")]
    boxes = [t.get_window_extent(renderer) for t in names]
    assert names and all(
        not (a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1)
        for a, b in combinations(boxes, 2)
    )
    # every director is named once: beside its dot (sharing a label on one dot) or listed
    shown = ", ".join(t.get_text() for t in names).split(", ") + list(fig.unlabelled)
    assert sorted(shown) == sorted(f"TD Director Number {i + 1}" for i in range(12))
    # ticks and names do not cover each other either
    ticks = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
    assert not any(
        a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1 for a in boxes for b in ticks
    )
    # cases are counted: every tick of the cases axis is a whole number
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"\d+", s.replace("\u2212", "-")) for s in labels)


def test_a_funnel_plot_drawn_again_with_other_names_is_the_plot_drawn_afresh():
    """The audit and the transparency reports draw the same plot with other names: the
    second is labelled on the figure the first laid out, and must be byte for byte the SVG
    of a figure drawn afresh with those names (and the first's names must not remain)."""
    rows = _crowded_rows()
    pseudonyms = {f"TD Director Number {i + 1}": f"Director {chr(65 + i)}" for i in range(12)}
    plots._LAID_OUT.clear()
    fresh = funnel_chart(rows, pseudonyms)
    plots._LAID_OUT.clear()
    named = funnel_chart(rows)
    assert len(plots._LAID_OUT) == 1  # laid out once, kept
    # equal rows built otherwise (two chunks in memory) are the same plot
    again = funnel_chart(pl.concat([rows.head(5), rows.tail(7)], rechunk=False), pseudonyms)
    assert len(plots._LAID_OUT) == 1  # the same figure, labelled again
    assert again.svg == fresh.svg and again.unlabelled == fresh.unlabelled
    assert "TD Director" in named.svg and "TD Director" not in again.svg
    # other rows are another plot
    funnel_chart(rows.with_columns(pl.col("n") + 1))
    assert len(plots._LAID_OUT) == 2


def _strata_rows() -> pl.DataFrame:
    """Three strata of the crowded directors, one of them on a log axis of cases."""
    base = _crowded_rows()
    return pl.concat(
        [
            base.with_columns(pl.lit("club · pairs · matchpoints").alias("stratum")),
            base.with_columns(pl.lit("club · teams · imps").alias("stratum")),
            base.with_columns(
                pl.lit("congress · pairs · matchpoints").alias("stratum"),
                (pl.col("n") * 50).alias("n"),
                (pl.col("rate") / 40).alias("rate"),
            ),
        ]
    )


def test_a_funnel_plot_is_one_svg_per_stratum_then_the_legend():
    """The reports lay the panels side by side: one SVG per stratum, sorted, each with its
    stratum's title, then the legend (the widened limits only when a stratum is
    over-dispersed)."""
    rows = _strata_rows()
    chart = funnel_chart(rows)
    svgs = re.findall(r"<svg.*?</svg>", chart.svg, flags=re.S)
    assert len(svgs) == 4
    strata = ["club · pairs · matchpoints", "club · teams · imps", "congress · pairs"]
    for svg, stratum in zip(svgs, strata, strict=False):
        assert stratum in svg
    assert "95 % limits" in svgs[-1] and "flagged" in svgs[-1]
    widened = "99.8 % widened for over-dispersion" in svgs[-1]
    assert widened == bool(rows["over_dispersed"].any())


def test_kept_panels_are_not_drawn_again_and_are_the_panels_drawn_afresh(tmp_path):
    """A report keeps its panels (:class:`PanelStore`): the next draws only the strata whose
    rows changed — a night's sessions touch their own strata — and its SVG is byte for byte
    the one drawn with nothing kept; other names are other panels; what a report no longer
    shows is removed. The legend under the panels is kept with them (one file more)."""
    rows = _strata_rows()
    pseudonyms = {f"TD Director Number {i + 1}": f"Director {chr(65 + i)}" for i in range(12)}
    first = charts.PanelStore(tmp_path)
    funnel_chart(rows, None, first)
    first.prune()
    assert first.drawn == 3 + 1 and len(list(tmp_path.glob("*.json"))) == 3 + 1
    # the same drawn values, in a window one night longer (its period and the other figures
    # of the rows are not drawn): nothing drawn
    plots._LAID_OUT.clear()
    again = charts.PanelStore(tmp_path)
    longer = rows.with_columns(pl.lit("2026-01-05 – 2026-03-02").alias("period"))
    kept = funnel_chart(longer, None, again)
    assert again.drawn == 0 and kept.svg == funnel_chart(rows).svg
    # one stratum's rows changed: that panel alone is drawn, the chart is the one drawn afresh
    teams = pl.col("stratum") == "club · teams · imps"
    grown = rows.with_columns(pl.when(teams).then(pl.col("n") + 1).otherwise(pl.col("n")))
    night = charts.PanelStore(tmp_path)
    plots._LAID_OUT.clear()
    chart = funnel_chart(grown, None, night)
    night.prune()
    assert night.drawn == 1
    plots._LAID_OUT.clear()
    fresh = funnel_chart(grown)
    assert chart.svg == fresh.svg and chart.unlabelled == fresh.unlabelled
    assert len(list(tmp_path.glob("*.json"))) == 3 + 1  # the teams panel before was removed
    # a kept panel that cannot be read (cut short, or not a panel) is drawn again
    for broken, text in zip(
        sorted(tmp_path.glob("*.json")),
        ['{"svg": 1', '{"svg": 1, "unlabelled": []}', "[]", "{}"],
        strict=True,
    ):
        broken.write_text(text)
    mended = charts.PanelStore(tmp_path)
    plots._LAID_OUT.clear()
    assert funnel_chart(grown, None, mended).svg == fresh.svg and mended.drawn == 3 + 1
    # the names shown are part of a panel: pseudonyms are other panels
    public = charts.PanelStore(tmp_path)
    shown = funnel_chart(grown, pseudonyms, public)
    assert public.drawn == 3 and "TD Director" not in shown.svg


def _drawn(labels, limits, i):
    """The tick labels matplotlib draws: those of ticks within the axis' view."""
    lo, hi = sorted(limits)
    return [t for t in labels if lo <= t.get_position()[i] <= hi]


def test_every_text_of_a_funnel_plot_of_many_panels_is_inside_it_and_apart():
    """Four strata, one of them on a log axis of cases (n up to 600) and one with rates near
    0.01: every title, tick, axis label, name and the legend lie inside the figure as saved
    (laid out with fixed margins, never cut) and no two panels' texts cover each other."""
    base = _crowded_rows()
    parts = [
        base.with_columns(pl.lit(f"stratum {s} · pairs · matchpoints").alias("stratum"))
        for s in "ABC"
    ]
    wide = base.with_columns(
        pl.lit("congress · teams · imps").alias("stratum"),
        (pl.col("n") * 50).alias("n"),
        (pl.col("rate") / 40).alias("rate"),
    )
    fig = funnel_figure(pl.concat([*parts, wide]), "Rulings changed on appeal per appeal decided")
    fig.draw_without_rendering()  # every text where saving the figure draws it
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    shown = [ax for ax in fig.axes if ax.get_visible()]
    texts = [
        t
        for ax in shown
        for t in (
            ax.title,
            ax.xaxis.label,
            ax.yaxis.label,
            *_drawn(ax.get_xticklabels(), ax.get_xlim(), 0),
            *_drawn(ax.get_yticklabels(), ax.get_ylim(), 1),
            *ax.texts,
        )
        if t.get_text()
    ]
    texts += [fig._suptitle, *fig.legends[0].get_texts()]
    boxes = {id(t): t.get_window_extent(renderer) for t in texts}
    assert len(texts) > 40
    for t in texts:
        b = boxes[id(t)]
        assert frame.x0 <= b.x0 and b.x1 <= frame.x1 and frame.y0 <= b.y0 and b.y1 <= frame.y1, (
            t.get_text()
        )
    # no two texts cover each other: the panels' titles, ticks and axis labels, the names
    # placed beside the dots, the figure's title and legend
    legend_texts = {id(t) for t in fig.legends[0].get_texts()}
    apart = [
        boxes[id(t)] for t in texts if t is not fig._suptitle and id(t) not in legend_texts
    ] + [
        fig.legends[0].get_window_extent(renderer),
        fig._suptitle.get_window_extent(renderer),
    ]
    assert not [
        (a, b)
        for a, b in combinations(apart, 2)
        if a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
    ]


def test_twelve_clubs_get_twelve_distinct_colours_and_counts_whole_numbers():
    assert len(PALETTE) == 12 and len({mcolors.to_hex(c) for c in PALETTE}) == 12
    clubs = [f"Club {i:02d}" for i in range(12)]
    df = pl.DataFrame(
        {"period": ["2026-11"] * 12 + ["2026-12"] * 12, "club": clubs * 2, "sessions": [1, 2] * 12}
    )
    fig = bars_figure(df, "sessions", "Sessions per month and club", "sessions")
    ax = fig.axes[0]
    colours = {mcolors.to_hex(c.get_facecolor()[0]) for c in ax.collections}
    assert len(ax.collections) == 12 and len(colours) == 12
    # each club's two bars as tall as its sessions in November and December
    for club, c in zip(clubs, ax.collections, strict=True):
        stated = df.filter(pl.col("club") == club).sort("period")["sessions"].to_list()
        assert [float(path.vertices[:, 1].max()) for path in c.get_paths()] == stated
    assert [t.get_text() for t in ax.get_legend().get_texts()] == clubs
    FigureCanvasAgg(fig).draw()
    ticks = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert ticks and all(re.fullmatch(r"\d+", t) for t in ticks)


def test_more_than_twelve_clubs_are_eleven_named_and_the_others_together():
    """Fifteen clubs, club k with k results in one session each: the eleven with the most
    results (clubs 5 to 15) keep their names; clubs 1 to 4 are one series, '4 other clubs',
    drawn last, with their 4 sessions and 1 + 2 + 3 + 4 = 10 results."""
    sessions = pl.DataFrame(
        {
            "period": ["2026-11"] * 15,
            "club": [f"Club {k:02d}" for k in range(1, 16)],
            "results": list(range(1, 16)),
            "tables": [1] * 15,
            "contestants": [4] * 15,
            "adjusted_results": [0] * 15,
            "penalties": [0] * 15,
            "appeals": [0] * 15,
        }
    )
    few, other = charted_clubs(sessions)
    assert other == "4 other clubs"
    per = monthly(few, by_club=True)
    row = per.filter(pl.col("club") == other).row(0, named=True)
    assert (row["sessions"], row["results"], row["avg_field"]) == (4, 10, 4.0)
    fig = bars_figure(per, "results", "Table results", "results", other=other)
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [f"Club {k:02d}" for k in range(5, 16)] + ["4 other clubs"]
    assert len({mcolors.to_hex(c.get_facecolor()[0]) for c in ax.collections}) == 12
    # twelve clubs or fewer: all named, nothing grouped
    same, none = charted_clubs(sessions.head(12))
    assert same.equals(sessions.head(12)) and none is None


def test_many_dates_under_a_chart_do_not_overlap():
    days = [f"2026-11-{d:02d}" for d in range(1, 31)]
    df = pl.DataFrame({"period": days, "club": ["C1"] * 30, "results": list(range(30))})
    fig = bars_figure(df, "results", "Table results per session date and club", "results")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in fig.axes[0].get_xticklabels() if t.get_text()]
    assert 2 <= len(boxes) <= 12
    assert not any(
        a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
        for a, b in combinations(boxes, 2)
    )


def test_the_monthly_trend_leaves_room_above_its_points_for_the_legends():
    """Board-Appeal Ratios close together near 1 and rulings near 35 per 1,000 boards (a
    season of the benchmark): no point of either line lies under either legend, and both
    axes start at 0."""
    months = pl.DataFrame(
        {
            "period": ["2026-10", "2026-11", "2026-12"],
            "board_appeal_ratio": [0.97, 1.07, 1.08],
            "rulings": [350, 352, 340],
            "boards_played": [10_000, 10_150, 10_300],
        }
    )
    fig = plots.trend_figure(months)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    legends = [ax.get_legend().get_window_extent(renderer) for ax in fig.axes]
    for ax in fig.axes:
        assert ax.get_ylim()[0] == 0
        for line in ax.get_lines():
            for x, y in ax.transData.transform(line.get_xydata()):
                assert not any(b.x0 <= x <= b.x1 and b.y0 <= y <= b.y1 for b in legends)


def test_a_kept_trend_is_not_drawn_again_and_is_the_trend_drawn_afresh(
    tmp_path, monkeypatch, nothing_remembered
):
    """The transparency report keeps its monthly trend beside it with its panels
    (:class:`PanelStore`): made again from months whose drawn figures did not change (an
    appeal decided changes none of them) it is read back, not drawn; a night that changes its
    month's boards draws it again; either way byte for byte the trend drawn afresh."""
    months = pl.DataFrame(
        {
            "period": [f"2026-{m:02d}" for m in range(1, 13)],
            "board_appeal_ratio": [1.0 + m / 50 for m in range(12)],
            "rulings": [340 + m for m in range(12)],
            "boards_played": [10_000 + 100 * m for m in range(12)],
            "decided": list(range(12)),
        }
    )
    fresh = plots.trend_svg(months)
    drawn: list[int] = []
    draw = plots.trend_svg
    monkeypatch.setattr(plots, "trend_svg", lambda m: drawn.append(m.height) or draw(m))
    first = charts.PanelStore(tmp_path)
    assert figures.trend_chart(months, first) == fresh
    first.prune()
    assert drawn == [12] and len(list(tmp_path.glob("*.json"))) == 1
    # an appeal decided: figures the trend does not draw; the months in another order
    decided = months.with_columns(pl.col("decided") + 1).reverse()
    again = charts.PanelStore(tmp_path)
    assert figures.trend_chart(decided, again) == fresh
    again.prune()
    assert drawn == [12] and again.drawn == 0
    # a night of December: its boards played changed, drawn again as drawn afresh
    night = months.with_columns(
        pl.when(pl.col("period") == "2026-12")
        .then(pl.col("boards_played") + 150)
        .otherwise(pl.col("boards_played"))
    )
    later = charts.PanelStore(tmp_path)
    assert figures.trend_chart(night, later) == draw(night) != fresh
    later.prune()
    assert drawn == [12, 12] and len(list(tmp_path.glob("*.json"))) == 1


def test_a_rate_of_one_drawn_above_its_limit_is_explained_not_flagged():
    """One appeal decided, its ruling changed, at a target of 0.35: the upper 99.8 % limit is
    1 - 0.001/0.35 (Spiegelhalter's interpolation between the counts 0 and 1), under the rate
    1.000; but P(X >= 1) = 0.35 at the target, far above 0.1 %: not flagged."""
    limit = float(exact_limit(0.35, 1, 0.999)[0])
    assert abs(limit - (1 - 0.001 / 0.35)) < 1e-12
    row = {
        "x": 1,
        "n": 1,
        "rate": 1.0,
        "target": 0.35,
        "flagged": False,
        "over_dispersed": False,
        "lower998": 0.0,
        "upper998": limit,
        "lower998_widened": 0.0,
        "upper998_widened": limit,
    }
    assert tail_note(row) == (
        "beyond the drawn limit, not flagged: 1 of 1 or more happens 35.0% of the time at the "
        "target 0.350"
    )
    assert tail_note({**row, "rate": 0.5, "x": 1, "n": 2}) is None  # inside the limits
    assert tail_note({**row, "flagged": True}) is None
