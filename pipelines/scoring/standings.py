"""Standings: each contestant's score, percentage and place, per session and per event.

* A contestant is a pair id in a Howell (one field, whichever direction it
  sat) and a pair id together with its direction in a Mitchell (two fields,
  two rankings).
* Session score = the sum of the contestant's matchpoints as the profile
  counts them (exact, or the rounded figures shown); top = the sum of the
  full-field tops of the boards it played (artificial scores included, boards
  not played excluded); percentage = score / top. A profile may scale the
  score of a contestant that missed boards to the full session
  (``totals.sitout = "scale_to_full"``, as Compscore does): the percentage is
  unchanged.
* Event score and top = the sums over the event's sessions; percentage =
  score / top.
* Places: by percentage, best first, exact ties share the place (1, 2, 2, 4)
  and are marked ``tied``; a profile may break ties head to head.

All sums and comparisons are exact (:mod:`pipelines.laws.exact`).
"""

from __future__ import annotations

import polars as pl

from pipelines import profiles
from pipelines.laws.exact import exact_rank, reduce, sum_by, to_float
from pipelines.laws.rounding import round_expr, shown

#: Columns of a standings row.
STANDINGS_SCHEMA: dict[str, pl.DataType] = {
    "event_id": pl.Utf8,
    "scope": pl.Utf8,
    "session": pl.Int32,
    "session_date": pl.Utf8,
    "section": pl.Utf8,
    "contestant": pl.Utf8,
    "direction": pl.Utf8,
    "names": pl.Utf8,
    "boards": pl.Int32,
    "score": pl.Float64,
    "score_num": pl.Int64,
    "score_den": pl.Int64,
    "top": pl.Float64,
    "top_num": pl.Int64,
    "top_den": pl.Int64,
    "percentage": pl.Float64,
    "rank": pl.Int32,
    "tied": pl.Boolean,
    "tiebreak": pl.Utf8,
    "score_display": pl.Float64,
    "percentage_display": pl.Float64,
    "movement": pl.Utf8,
    "profile": pl.Utf8,
}

_SIDE_COLS = ["event_id", "session", "section", "session_date", "movement", "profile", "board"]


def contestant_rows(scored: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """One row per contestant per board played (artificial scores included, NP excluded).

    Columns: the board keys, ``contestant``, ``direction`` (null in a Howell),
    ``dir_key`` ('' in a Howell), ``opponent``, the counted matchpoints as an exact
    fraction ``num/den``, and the full-field top as ``top_num/top_den``.
    """
    rows = scored.filter(pl.col("kind") != "not_played")
    scale = 10**prof.mp_decimals

    def side(me: str, opp: str, mp: str, mp_num: str, direction: str) -> pl.DataFrame:
        if prof.count == "displayed":
            num = (pl.col(mp) * scale).round(0).cast(pl.Int64)
            den = pl.lit(scale, pl.Int64)
        else:
            num, den = pl.col(mp_num), pl.col("mp_den")
        mitchell = pl.col("movement") == "mitchell"
        return rows.select(
            *_SIDE_COLS,
            pl.col(me).alias("contestant"),
            pl.col(opp).alias("opponent"),
            pl.when(mitchell).then(pl.lit(direction)).alias("direction"),
            pl.when(mitchell).then(pl.lit(direction)).otherwise(pl.lit("")).alias("dir_key"),
            num.alias("num"),
            den.alias("den"),
            (2 * (pl.col("expected") - 1)).cast(pl.Int64).alias("top_num"),
            pl.lit(prof.unit_den, pl.Int64).alias("top_den"),
        )

    return pl.concat(
        [
            side("ns_pair", "ew_pair", "ns_mp", "ns_mp_num", "NS"),
            side("ew_pair", "ns_pair", "ew_mp", "ew_mp_num", "EW"),
        ]
    )


def session_standings(
    scored: pl.DataFrame, contestants: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Session standings for every session in ``scored`` (each under its event's profile)."""
    parts = []
    for name in sorted(scored["profile"].unique().to_list()):
        prof = profiles.load(name)
        long = contestant_rows(scored.filter(pl.col("profile") == name), prof)
        if long.height:
            parts.append(_session(long, prof))
    if not parts:
        return pl.DataFrame(schema=STANDINGS_SCHEMA)
    return _finish(pl.concat(parts, how="diagonal_relaxed"), contestants)


def _session(long: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    group = ["event_id", "session", "section", "dir_key"]
    keys = [*group, "contestant"]
    # One pass over the board rows: per contestant and denominator (few of those).
    partial = long.group_by([*keys, "den"]).agg(
        pl.col("num").sum(),
        pl.len().alias("boards"),
        pl.col("top_num").sum(),
        pl.col("top_den").first(),
        pl.col("direction").first(),
        pl.col("session_date").first(),
        pl.col("movement").first(),
        pl.col("profile").first(),
    )
    totals = sum_by(
        partial, "num", "den", keys, group,
        aggs=[
            pl.col("boards").sum(),
            pl.col("top_num").sum(),
            pl.col("top_den").first(),
            pl.col("direction").first(),
            pl.col("session_date").first(),
            pl.col("movement").first(),
            pl.col("profile").first(),
        ],
    ).rename({"num": "score_num", "den": "score_den"})
    if prof.sitout == "scale_to_full":
        full = long.group_by(["event_id", "session", "section"]).agg(
            pl.col("board").n_unique().alias("__full")
        )
        totals = totals.join(full, on=["event_id", "session", "section"], how="left").with_columns(
            (pl.col("score_num") * pl.col("__full")).alias("score_num"),
            (pl.col("score_den") * pl.col("boards")).alias("score_den"),
            (pl.col("top_num") * pl.col("__full")).alias("top_num"),
            (pl.col("top_den") * pl.col("boards")).alias("top_den"),
        ).drop("__full")
        totals = reduce(reduce(totals, "score_num", "score_den"), "top_num", "top_den")
    totals = totals.with_columns(pl.lit("session").alias("scope"))
    ranked = _rank(totals, group, prof)
    return _tiebreak(ranked, long, group, prof)


def event_standings(
    session_rows: pl.DataFrame,
    scored: pl.DataFrame,
    contestants: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Event standings from the session standings of all sessions of each event.

    ``scored`` (the events' scored results) is used only for head-to-head
    tie-breaks. An event is ranked under the profile of its first session.
    """
    s = session_rows.filter(pl.col("scope") == "session")
    if s.height == 0:
        return pl.DataFrame(schema=STANDINGS_SCHEMA)
    s = s.with_columns(pl.col("direction").fill_null("").alias("dir_key"))
    first_profile = s.sort("session").group_by("event_id").agg(pl.col("profile").first())
    s = s.drop("profile").join(first_profile, on="event_id")
    group = ["event_id", "section", "dir_key"]
    keys = [*group, "contestant"]
    parts = []
    for name in sorted(s["profile"].unique().to_list()):
        prof = profiles.load(name)
        sp = s.filter(pl.col("profile") == name)
        score = sum_by(
            sp, "score_num", "score_den", keys, group,
            aggs=[
                pl.col("boards").sum(),
                pl.col("direction").first(),
                pl.col("session_date").max(),
                pl.col("movement").first(),
                pl.col("profile").first(),
            ],
        )
        top = sum_by(sp, "top_num", "top_den", keys, group)
        totals = score.join(top, on=keys, how="left", nulls_equal=True).with_columns(
            pl.lit("event").alias("scope"), pl.lit(None, pl.Int32).alias("session")
        )
        ranked = _rank(totals, group, prof)
        events = ranked["event_id"].unique().to_list()
        sc = scored.filter(pl.col("event_id").is_in(events))
        long = contestant_rows(sc, prof) if sc.height else None
        parts.append(_tiebreak(ranked, long, group, prof))
    return _finish(pl.concat(parts, how="diagonal_relaxed"), contestants)


def _rank(totals: pl.DataFrame, group: list[str], prof: profiles.Profile) -> pl.DataFrame:
    """Percentage = score / top; exact places within ``group``."""
    t = totals.with_columns(
        (pl.col("score_num") * pl.col("top_den") * 100).alias("__pnum"),
        (pl.col("score_den") * pl.col("top_num")).alias("__pden"),
    )
    t = exact_rank(t, "__pnum", "__pden", group)
    pdec, tdec = prof.percentage_decimals, prof.total_decimals
    mode = prof.percentage_rounding
    return t.with_columns(
        to_float(pl.col("score_num"), pl.col("score_den")).alias("score"),
        to_float(pl.col("top_num"), pl.col("top_den")).alias("top"),
        to_float(pl.col("__pnum"), pl.col("__pden")).alias("percentage"),
        shown(round_expr(pl.col("score_num"), pl.col("score_den"), tdec, mode), tdec)
        .alias("score_display"),
        shown(round_expr(pl.col("__pnum"), pl.col("__pden"), pdec, mode), pdec)
        .alias("percentage_display"),
        pl.lit(None, pl.Utf8).alias("tiebreak"),
    )


def _tiebreak(
    ranked: pl.DataFrame, long: pl.DataFrame | None, group: list[str], prof: profiles.Profile
) -> pl.DataFrame:
    """Break exact ties head to head when the profile says so.

    Head to head: among contestants tied on percentage, each one's matchpoints
    on the boards it played against another member of the tied set. The set
    is ordered by that figure (exact); the ``tiebreak`` column shows
    ``2 x (members it beat) + (members it equalled)`` — for two pairs ``2``/``0``,
    or ``1``/``1`` when the head-to-head is level, in which case they stay tied.
    """
    if prof.tiebreak != "head_to_head" or long is None or not ranked["tied"].any():
        return ranked
    tied = ranked.filter(pl.col("tied")).select(
        *group, "contestant", "rank",
        pl.struct("__pnum", "__pden").rank("dense").over(group).alias("__set"),
    )
    scope_keys = [k for k in group if k != "dir_key"]
    me = long.join(tied, on=[*group, "contestant"], how="inner")
    opp = tied.rename({"contestant": "opponent", "rank": "__orank", "__set": "__oset"})
    h2h = me.join(opp, on=[*group, "opponent"], how="inner").filter(
        pl.col("__set") == pl.col("__oset")
    )
    del scope_keys
    if h2h.height == 0:
        return ranked
    sums = sum_by(h2h, "num", "den", [*group, "__set", "contestant"], [*group, "__set"])
    sets = tied.join(sums, on=[*group, "__set", "contestant"], how="left", nulls_equal=True)
    sets = sets.with_columns(pl.col("num").fill_null(0), pl.col("den").fill_null(1))
    sets = exact_rank(sets.rename({"rank": "__base"}), "num", "den", [*group, "__set"])
    sets = sets.with_columns(
        (pl.len().over([*group, "__set"]) - pl.col("rank")).alias("__below_or_eq"),
        pl.len().over([*group, "__set", "num", "den"]).alias("__same"),
    ).with_columns(
        (2 * (pl.col("__below_or_eq") - (pl.col("__same") - 1)) + (pl.col("__same") - 1))
        .cast(pl.Utf8)
        .alias("__tb"),
        (pl.col("__base") + pl.col("rank") - 1).cast(pl.UInt32).alias("__newrank"),
        pl.col("tied").alias("__stilltied"),
    )
    out = ranked.join(
        sets.select(*group, "contestant", "__tb", "__newrank", "__stilltied"),
        on=[*group, "contestant"],
        how="left",
        nulls_equal=True,
    )
    return out.with_columns(
        pl.coalesce("__newrank", "rank").alias("rank"),
        pl.coalesce("__stilltied", "tied").alias("tied"),
        pl.coalesce("__tb", "tiebreak").alias("tiebreak"),
    ).drop("__tb", "__newrank", "__stilltied")


def _finish(df: pl.DataFrame, contestants: pl.DataFrame | None) -> pl.DataFrame:
    """Attach names and cast to :data:`STANDINGS_SCHEMA`."""
    df = df.with_columns(pl.lit(None, pl.Utf8).alias("names"))
    if contestants is not None and contestants.height:
        c = contestants.select("event_id", "contestant", "direction", "names").filter(
            pl.col("names").is_not_null()
        )
        exact = c.filter(pl.col("direction").is_not_null()).unique(
            ["event_id", "contestant", "direction"], keep="first", maintain_order=True
        )
        undirected = c.filter(pl.col("direction").is_null()).unique(
            ["event_id", "contestant"], keep="first", maintain_order=True
        ).select("event_id", "contestant", pl.col("names").alias("__undirected"))
        anydir = c.unique(["event_id", "contestant"], keep="first", maintain_order=True).select(
            "event_id", "contestant", pl.col("names").alias("__any")
        )
        df = (
            df.drop("names")
            .join(exact.drop("file", "location", "player_ids", strict=False),
                  on=["event_id", "contestant", "direction"], how="left")
            .join(undirected, on=["event_id", "contestant"], how="left")
            .join(anydir, on=["event_id", "contestant"], how="left")
            .with_columns(
                pl.coalesce(
                    "names",
                    "__undirected",
                    pl.when(pl.col("direction").is_null()).then(pl.col("__any")),
                ).alias("names")
            )
            .drop("__undirected", "__any")
        )
    return df.select([pl.col(c).cast(t) for c, t in STANDINGS_SCHEMA.items()]).sort(
        "event_id", "scope", "session", "section", "direction", "rank", "contestant",
        nulls_last=True,
    )
