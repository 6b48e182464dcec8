"""Matchpoint scoring of validated table results, under each event's profile (Law 78A, 12C2).

On each board of a section, North-South results are compared with each other
(:mod:`pipelines.laws.matchpoints`); East-West receive ``top - NS`` on a
balanced board. Per board:

* ``n`` = played results (a passed-out board is a played result scoring 0);
* ``N`` = results expected: the event's ``expected_results`` if given, else the
  largest number of results (played, artificial or not played) on any board of
  the session's section;
* a board with ``n < N`` is factored to ``N``: Neuberg or linearly, as the
  profile says for a board merely short of results (``factoring_missing``) and
  for one where a table-level artificial score replaced a result
  (``factoring_adjusted``);
* a table-level artificial score (Law 12C2) is a percentage of the *full*
  top ``2(N-1)``, takes no part in the other tables' comparisons, and need not
  balance (Av+/Av+ is legal). Variable averages (``+ = -``) take the profile's
  fixed percentages until the session-percentage rule (12C2(c)) is applied;
* ``NP`` (not played) earns nothing and counts as a missing result.

Exact values are kept as integers ``ns_mp_num / mp_den`` and ``ew_mp_num /
mp_den``; ``ns_mp``/``ew_mp`` are the figures that count in totals under the
profile (exact, or the displayed rounding for programs that sum what they
show); ``*_display`` are the figures shown on the traveller.
"""

from __future__ import annotations

import polars as pl

from pipelines import profiles
from pipelines.laws.rounding import round_expr, shown

BOARD = ["event_id", "session", "section", "board"]
#: Packing of (board group, NS score) into one integer: scores lie within +-_OFFSET.
_OFFSET = 1 << 14
_SPAN = 1 << 15
SECTION = ["event_id", "session", "section"]

#: Columns added by scoring, after the validated columns.
SCORED_COLUMNS: dict[str, pl.DataType] = {
    "ns_score": pl.Int64,
    "n_results": pl.Int32,
    "expected": pl.Int32,
    "factoring": pl.Utf8,
    "top": pl.Float64,
    "ns_mp_num": pl.Int64,
    "ew_mp_num": pl.Int64,
    "mp_den": pl.Int64,
    "ns_mp": pl.Float64,
    "ew_mp": pl.Float64,
    "ns_pct": pl.Float64,
    "ew_pct": pl.Float64,
    "ns_mp_display": pl.Float64,
    "ew_mp_display": pl.Float64,
    "top_display": pl.Float64,
}


def score_results(validated: pl.DataFrame) -> pl.DataFrame:
    """Score every validated result; returns the validated columns plus :data:`SCORED_COLUMNS`.

    Rows keep their order. Events are scored under their own profile.
    """
    if validated.height == 0:
        return validated.with_columns(
            *(pl.lit(None, dtype=t).alias(c) for c, t in SCORED_COLUMNS.items())
        )
    names = validated["profile"].unique().to_list()
    if len(names) == 1:
        return score_with_profile(validated, profiles.load(names[0]))
    df = validated.with_row_index("__order")
    parts = [
        score_with_profile(df.filter(pl.col("profile") == name), profiles.load(name))
        for name in sorted(df["profile"].unique().to_list())
    ]
    return pl.concat(parts).sort("__order").drop("__order")


def _art_pct(code: pl.Expr, prof: profiles.Profile) -> pl.Expr:
    """Percentage of an artificial-score side code (``60 50 40`` or ``+ = -``)."""
    return (
        pl.when(code == "+")
        .then(prof.average_plus)
        .when(code == "=")
        .then(prof.average)
        .when(code == "-")
        .then(prof.average_minus)
        .otherwise(code.cast(pl.Int64, strict=False))
        .cast(pl.Int64)
    )


def score_with_profile(df: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """Score rows that all belong to events under ``prof`` (vectorised over boards)."""
    u = prof.unit_den
    played = pl.col("kind") == "played"
    art = pl.col("kind") == "artificial"
    # One integer id per board group; every window below runs over it (fast).
    df = df.with_columns(pl.struct(BOARD).rank("dense").cast(pl.Int64).alias("__g"))
    df = df.with_columns(
        pl.when(played).then(pl.col("computed_score")).alias("ns_score"),
        played.sum().over("__g").cast(pl.Int64).alias("__n"),
        art.any().over("__g").alias("__has_art"),
        pl.len().over("__g").cast(pl.Int64).alias("__rows"),
        # (board group, score) packed in one integer: one global sort ranks every board.
        pl.when(played)
        .then(pl.col("__g") * _SPAN + pl.col("computed_score") + _OFFSET)
        .alias("__key"),
    )
    df = df.with_columns(pl.col("__key").rank("min").cast(pl.Int64).alias("__r"))
    rank = pl.col("__r")
    df = df.with_columns(
        pl.max_horizontal(
            pl.col("__rows").max().over(SECTION), pl.col("expected_results").fill_null(0)
        ).cast(pl.Int64).alias("__N"),
        # matchpoints = 2 x (results below) + (equal results other than itself)
        (2 * (rank - rank.min().over("__g")) + pl.len().over("__key") - 1).alias("__M"),
    )
    n, big_n, m = pl.col("__n"), pl.col("__N"), pl.col("__M")
    method = (
        pl.when(n >= big_n)
        .then(pl.lit("none"))
        .when(pl.col("__has_art"))
        .then(pl.lit(prof.factoring_adjusted))
        .otherwise(pl.lit(prof.factoring_missing))
    )
    df = df.with_columns(method.alias("factoring"))
    f = pl.col("factoring")
    # Exact NS matchpoints on the 2/1 scale as num/den (the 1/0.5 scale halves them below).
    num = (
        pl.when(f == "none")
        .then(m)
        .when(f == "neuberg")
        .then(m * big_n + big_n - n)
        .when(n == 1)
        .then(big_n - 1)
        .otherwise(m * (big_n - 1))
    )
    den = (
        pl.when(f == "none").then(1).when(f == "neuberg").then(n).when(n == 1).then(1)
        .otherwise(n - 1)
    )
    top2 = 2 * (big_n - 1)
    ns_pct, ew_pct = _art_pct(pl.col("ns_art"), prof), _art_pct(pl.col("ew_art"), prof)
    df = df.with_columns(
        pl.when(played).then(num).when(art).then(ns_pct * top2).alias("ns_mp_num"),
        pl.when(played).then(top2 * den - num).when(art).then(ew_pct * top2).alias("ew_mp_num"),
        (pl.when(played).then(den).when(art).then(100) * u).cast(pl.Int64).alias("mp_den"),
        (top2 / u).cast(pl.Float64).alias("top"),
    )
    # What the traveller shows: the exact figure, or (Compscore) the unfactored one on a
    # board merely short of results.
    raw_shown = (
        (prof.traveller_factoring == "adjusted_boards_only")
        & played
        & (f != "none")
        & ~pl.col("__has_art")
    )
    shown_ns = pl.when(raw_shown).then(m).otherwise(pl.col("ns_mp_num"))
    shown_ew = pl.when(raw_shown).then(2 * (n - 1) - m).otherwise(pl.col("ew_mp_num"))
    shown_den = pl.when(raw_shown).then(u).otherwise(pl.col("mp_den"))
    top_shown = pl.when(raw_shown).then(2 * (n - 1) / u).otherwise(pl.col("top"))
    def rnd(a: pl.Expr, b: pl.Expr, avg: pl.Expr) -> pl.Expr:
        return shown(round_expr(a, b, prof.mp_decimals, prof.mp_rounding, avg), prof.mp_decimals)

    df = df.with_columns(
        rnd(shown_ns, shown_den, top_shown / 2).alias("ns_mp_display"),
        rnd(shown_ew, shown_den, top_shown / 2).alias("ew_mp_display"),
        top_shown.cast(pl.Float64).alias("top_display"),
    )
    if prof.count == "displayed":
        counted_ns = rnd(pl.col("ns_mp_num"), pl.col("mp_den"), pl.col("top") / 2)
        counted_ew = rnd(pl.col("ew_mp_num"), pl.col("mp_den"), pl.col("top") / 2)
    else:
        counted_ns = pl.col("ns_mp_num") / pl.col("mp_den")
        counted_ew = pl.col("ew_mp_num") / pl.col("mp_den")
    df = df.with_columns(counted_ns.alias("ns_mp"), counted_ew.alias("ew_mp"))
    df = df.with_columns(
        (100 * pl.col("ns_mp") / pl.col("top")).alias("ns_pct"),
        (100 * pl.col("ew_mp") / pl.col("top")).alias("ew_pct"),
        n.cast(pl.Int32).alias("n_results"),
        big_n.cast(pl.Int32).alias("expected"),
    )
    return df.drop("__g", "__key", "__r", "__n", "__has_art", "__rows", "__N", "__M").with_columns(
        *(pl.col(c).cast(t) for c, t in SCORED_COLUMNS.items())
    )
