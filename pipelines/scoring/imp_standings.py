"""Standings and match results of IMP events: Butler and cross-IMP pairs, teams (Laws 78B, 86).

* **Pairs and individuals at IMPs** (Butler, cross-IMPs): a contestant's session score is
  the exact sum of its IMPs (an individual's is his side's, Law 89); ``unit`` ``IMP``;
  there is no top and no percentage. Places by score, exact ties share the place.
* **Teams**: a match is the boards two teams played against each other in one round of a
  session (:mod:`pipelines.scoring.imp_forms`). Each team's net IMPs on the match decide
  its victory points on the event's scale (``vp_scale``: WBF 2013 continuous, to 0.01, or
  discrete; :mod:`pipelines.laws.victory_points`), for ``boards_per_match`` boards (else
  the boards played). With balanced boards the two teams' VPs sum to 20; a non-balancing
  adjusted score outside a knockout gives each team its own figure, so they need not.
  A team's session score is its VPs (``unit`` ``VP``); places by VPs, ties broken as the
  profile says (``imp_quotient``: IMPs won / IMPs lost; ``head_to_head``: the VPs of the
  match between the tied teams, then the IMP quotient).
* **Knockouts** (``stage`` ``knockout``, ``vp_scale`` ``none``): a match may run over
  several sessions (segments); each segment's row in ``matches`` carries the IMPs brought
  forward from the earlier ones (``home_carry_over``/``away_carry_over``) and the
  ``winner`` is the team ahead on the running total. Standings give each team's net IMPs.
* **Penalties** (Law 90): at pairs IMPs are deducted from the total; at teams an ``IMP``
  penalty comes off the penalised team's net IMPs in its match (the round the ruling names,
  else its first match of the session) **in full**, before the VP look-up, and a ``VP``
  penalty off its VP total. Other teams' figures never change. In a knockout the match
  margin is worked out from the board IMPs (which balance there, Law 86C 2017 / 86B 2007),
  then each team's IMP penalties come off its own side in full: a 3-IMP penalty turns a
  2-IMP lead into a 1-IMP deficit, never into a 0.5-IMP lead. There are no VPs in a
  knockout, so a VP penalty there is refused when the ruling is validated
  (:mod:`pipelines.scoring.rulings`).
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl

from pipelines.laws.exact import exact_rank, reduce, sum_by, to_float
from pipelines.laws.rounding import round_expr, shown
from pipelines.laws.victory_points import victory_points
from pipelines.profiles import ProfileSet
from pipelines.scoring.imp_forms import TEAMS_DEN
from pipelines.tables import polars_schema

#: Columns of a match (one row per match per session: a knockout segment; the ``matches`` table).
MATCH_SCHEMA: dict[str, pl.DataType] = polars_schema("matches")

_SIDE = ["event_id", "session", "section", "session_date", "movement", "profile"]


def is_imp_scored(scored: pl.DataFrame) -> pl.Series:
    """Which scored rows belong to IMP events."""
    if "scoring" not in scored.columns:
        return pl.Series([False] * scored.height)
    return scored["scoring"].is_in(["butler", "cross_imps", "imps"]).fill_null(False)


# ----------------------------------------------------------------------------- pairs at IMPs


def pair_session_totals(scored: pl.DataFrame, penalties: pl.DataFrame | None) -> pl.DataFrame:
    """Session totals of pairs (and individuals' sides) at IMPs, penalties deducted."""
    rows = scored.filter(pl.col("kind") != "not_played")
    mitchell = pl.col("movement") == "mitchell"
    sides = []
    for me, num, d in (("ns_pair", "ns_imps_num", "NS"), ("ew_pair", "ew_imps_num", "EW")):
        # Law 91A: a contestant suspended from a round on keeps only its earlier results
        out = f"__{d.lower()}_out"
        mine = rows.filter(~pl.col(out).fill_null(False)) if out in rows.columns else rows
        sides.append(
            mine.select(
                *_SIDE,
                pl.col(me).alias("contestant"),
                pl.when(mitchell).then(pl.lit(d)).alias("direction"),
                pl.when(mitchell).then(pl.lit(d)).otherwise(pl.lit("")).alias("dir_key"),
                pl.col(num).alias("num"),
                pl.col("imps_den").alias("den"),
            )
        )
    long = pl.concat(sides).filter(pl.col("num").is_not_null())
    keys = ["event_id", "session", "section", "dir_key", "contestant"]
    totals = sum_by(
        long,
        "num",
        "den",
        keys,
        ["event_id", "session", "section", "dir_key"],
        aggs=[
            pl.len().alias("boards"),
            pl.col("direction").first(),
            pl.col("session_date").first(),
            pl.col("movement").first(),
            pl.col("profile").first(),
        ],
    ).rename({"num": "score_num", "den": "score_den"})
    totals = totals.with_columns(pl.lit("IMP").alias("unit"), pl.lit("IMP").alias("penalty_unit"))
    return _deduct(totals, penalties, "IMP")


def penalty_sum(penalties: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per ``keys`` (a contestant of a session), the exact sum of its ``penalties``
    (``penalty_num`` / ``penalty_den``, reduced)."""
    return sum_by(
        penalties.with_columns(pl.lit(1).alias("__g")),
        "penalty_num",
        "penalty_den",
        [*keys, "__g"],
        ["__g"],
    ).drop("__g")


def sanction_of(penalties: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Per ``keys`` (a contestant of a session), the sanction of its ``penalties`` rows that
    stands (Law 91): a disqualification before a suspension, else the first given."""
    return (
        penalties.filter(pl.col("sanction").is_not_null())
        .with_columns((pl.col("sanction") == "disqualified").alias("__dq"))
        .sort("__dq", descending=True)
        .group_by(keys, maintain_order=True)
        .agg(pl.col("sanction").first())
    )


def _deduct(totals: pl.DataFrame, penalties: pl.DataFrame | None, unit: str | None) -> pl.DataFrame:
    """Deduct the penalties in ``unit`` from each penalised contestant's score (exactly);
    ``penalty_num/den`` are what was deducted. With ``unit`` ``None`` nothing is deducted
    and only the sanctions (Law 91) are attached."""
    zero = totals.with_columns(
        pl.lit(0, pl.Int64).alias("penalty_num"),
        pl.lit(1, pl.Int64).alias("penalty_den"),
        pl.lit(None, pl.Utf8).alias("sanction"),
    )
    if penalties is None or penalties.height == 0:
        return zero
    keys = ["event_id", "session", "section", "contestant", "direction"]
    p = penalties.with_columns(pl.col("session").cast(pl.Int32))
    amounts = p.filter(pl.col("unit") == unit) if unit else p.clear()
    sanctions = sanction_of(p, keys)
    t = zero.drop("penalty_num", "penalty_den", "sanction").with_columns(
        pl.col("session").cast(pl.Int32)
    )
    if amounts.height:
        total = penalty_sum(amounts, keys)
        t = t.join(total, on=keys, how="left", nulls_equal=True)
    else:
        t = t.with_columns(
            pl.lit(None, pl.Int64).alias("penalty_num"), pl.lit(None, pl.Int64).alias("penalty_den")
        )
    t = t.join(sanctions, on=keys, how="left", nulls_equal=True).with_columns(
        pl.col("penalty_num").fill_null(0), pl.col("penalty_den").fill_null(1)
    )
    num = pl.col("score_num") * pl.col("penalty_den") - pl.col("penalty_num") * pl.col("score_den")
    den = pl.col("score_den") * pl.col("penalty_den")
    return reduce(
        t.with_columns(num.alias("score_num"), den.alias("score_den")), "score_num", "score_den"
    )


# ------------------------------------------------------------------------------------ teams


def team_boards(scored: pl.DataFrame) -> pl.DataFrame:
    """One row per team per match board: its exact IMPs (``num`` over :data:`TEAMS_DEN`)."""
    t = scored.filter(pl.col("match_id").is_not_null())
    keys = ["event_id", "session", "section", "session_date", "round", "match_id", "board"]
    extra = ["missing_result", "home", "away", "stage", "vp_scale", "boards_per_match", "profile"]
    sides = [
        t.select(*keys, pl.col(team).alias("team"), pl.col(num).alias("num"), *extra)
        for team, num in (("ns_pair", "ns_imps_num"), ("ew_pair", "ew_imps_num"))
    ]
    return pl.concat(sides).unique(["match_id", "board", "team"], keep="first", maintain_order=True)


def matches(
    scored: pl.DataFrame, penalties: pl.DataFrame | None = None, *, profs: ProfileSet | None = None
) -> pl.DataFrame:
    """The matches of the team events in ``scored`` (:data:`MATCH_SCHEMA`), one row per match
    per session; knockout segments carry the running total forward."""
    profs = ProfileSet.ensure(profs)
    tb = team_boards(scored)
    if tb.height == 0:
        return pl.DataFrame(schema=MATCH_SCHEMA)
    per = tb.group_by("match_id", "team", maintain_order=True).agg(
        pl.col(
            "event_id",
            "session",
            "section",
            "session_date",
            "round",
            "home",
            "away",
            "stage",
            "vp_scale",
            "boards_per_match",
            "profile",
        ).first(),
        pl.col("num").sum().alias("net"),
        pl.col("num").clip(lower_bound=0).sum().alias("gross"),
        pl.col("board").n_unique().alias("boards"),
        pl.col("missing_result").fill_null(False).sum().alias("missing"),
    )
    per = _imp_penalties(per, penalties)
    home = per.filter(pl.col("team") == pl.col("home"))
    away = per.filter(pl.col("team") == pl.col("away")).select(
        "match_id",
        pl.col("net").alias("away_net"),
        pl.col("board_net").alias("away_board_net"),
        pl.col("pen").alias("away_pen"),
        pl.col("gross").alias("away_gross"),
        pl.col("missing").alias("away_missing"),
    )
    m = home.join(away, on="match_id", how="left").rename(
        {"net": "home_net", "board_net": "home_board_net", "pen": "home_pen", "gross": "home_gross"}
    )
    m = _carry_over(m)
    # the VP scale is the scheduled match length's (a match short of boards keeps it); but a
    # length N with sqrt(N) above 24 x the boards the session's matches played — a 20-VP
    # margin (15 sqrt(N)) fifteen times any margin they could make, 24 IMPs (Law 78B's most)
    # on each board — is no match's: its event is held (pipelines.scoring.completeness) and
    # its scale is never built (its size would be the claim's, not the data's)
    m = m.with_columns(
        ((24 * pl.col("boards").max().over("event_id", "session")) ** 2).alias("__cap")
    )
    records = []
    for r in m.iter_rows(named=True):  # one per match: a few dozen a session
        prof = profs[r["profile"]]
        scale = r["vp_scale"] or "wbf2013"
        stated = r["boards_per_match"]
        boards = stated if stated and stated <= r["__cap"] else r["boards"]
        h = Fraction(int(r["home_net"]), TEAMS_DEN)
        a = Fraction(int(r["away_net"] or 0), TEAMS_DEN)
        if r["stage"] == "knockout" or scale == "none":
            hv = av = None
            lead = Fraction(int(r["home_total"]), TEAMS_DEN)
        else:
            hv = victory_points(h, boards, scale, prof.fractional_margin)[0] / 100
            av = victory_points(a, boards, scale, prof.fractional_margin)[0] / 100
            lead = h - a
        winner = r["home"] if lead > 0 else r["away"] if lead < 0 else None
        records.append({"match_id": r["match_id"], "home_vp": hv, "away_vp": av, "winner": winner})
    vps = pl.DataFrame(
        records,
        schema={k: MATCH_SCHEMA[k] for k in ("match_id", "home_vp", "away_vp", "winner")},
        orient="row",
    )
    m = m.join(vps, on="match_id", how="left")
    f = float(TEAMS_DEN)
    out = m.with_columns(
        (pl.col("home_gross") / f).alias("home_imps"),
        (pl.col("away_gross") / f).alias("away_imps"),
        (pl.col("home_net") / f).alias("home_net"),
        (pl.col("away_net") / f).alias("away_net"),
        (pl.col("home_pen") / f).alias("home_penalties"),
        (pl.col("away_pen").fill_null(0) / f).alias("away_penalties"),
        (pl.col("home_co") / f).alias("home_carry_over"),
        (-pl.col("home_co") / f).alias("away_carry_over"),
        pl.max_horizontal("missing", pl.col("away_missing").fill_null(0)).alias("missing_boards"),
    )
    return out.select([pl.col(c).cast(t) for c, t in MATCH_SCHEMA.items()]).sort(
        "event_id", "session", "section", "round", "match_id"
    )


def _imp_penalties(per: pl.DataFrame, penalties: pl.DataFrame | None) -> pl.DataFrame:
    """Deduct IMP penalties from the penalised team's net IMPs in its match, in full (Law 90).

    ``board_net`` keeps the IMPs of the boards, ``pen`` the IMPs deducted (over
    :data:`TEAMS_DEN`) and ``net`` is their difference; the other team is not touched."""
    per = per.with_columns(pl.col("net").alias("board_net"), pl.lit(0, pl.Int64).alias("pen"))
    if penalties is None or penalties.height == 0 or "unit" not in penalties.columns:
        return per
    p = penalties.filter(pl.col("unit") == "IMP")
    if p.height == 0:
        return per
    # the match: the one of the round the ruling names, else the team's first of the session
    first = (
        per.sort("round")
        .group_by("event_id", "session", "section", "team")
        .agg(pl.col("round").first().alias("__first"))
    )
    p = (
        p.with_columns(pl.col("session").cast(pl.Int32), pl.col("contestant").alias("team"))
        .join(first, on=["event_id", "session", "section", "team"], how="left")
        .with_columns(pl.coalesce(pl.col("round").cast(pl.Int32), "__first").alias("round"))
        .with_columns(
            (pl.col("penalty_num") * TEAMS_DEN // pl.col("penalty_den")).alias("__deduct")
        )
        .group_by("event_id", "session", "section", "team", "round")
        .agg(pl.col("__deduct").sum())
    )
    # the one match of that round (the first by id; a match without a round number, from
    # results that give none, is still the team's match): a penalty is deducted once
    keys = ["event_id", "session", "section", "team", "round"]
    target = (
        per.sort("match_id")
        .group_by(keys, maintain_order=True)
        .agg(pl.col("match_id").first())
        .join(p, on=keys, how="inner", nulls_equal=True)
        .select("match_id", "team", "__deduct")
    )
    per = per.drop("pen").join(target, on=["match_id", "team"], how="left", maintain_order="left")
    return (
        per.with_columns(pl.col("__deduct").fill_null(0).cast(pl.Int64).alias("pen"))
        .with_columns((pl.col("board_net") - pl.col("pen")).alias("net"))
        .drop("__deduct")
    )


def _margin() -> pl.Expr:
    """The home team's margin on a segment (over :data:`TEAMS_DEN`): the board IMPs' margin,
    then each team's IMP penalties off its own side **in full** (Law 90).

    A knockout board balances (Law 86C 2017 / 86B 2007: a non-balancing score is averaged),
    so the boards' margin is ``(home − away) / 2`` = the home team's board IMPs; each team's
    figure is even over :data:`TEAMS_DEN`, so the halving is exact. Only then do the
    penalties come off: ``margin = boards − home penalty + away penalty`` (never the half
    of a penalty)."""
    boards = (pl.col("home_board_net") - pl.col("away_board_net").fill_null(0)) // 2
    return boards - pl.col("home_pen") + pl.col("away_pen").fill_null(0)


def _carry_over(m: pl.DataFrame) -> pl.DataFrame:
    """Knockout segments: the margin (home's view, :func:`_margin`) carried from the earlier
    sessions of the same match (same event, section, round and teams: teams 1 and 2 of
    section A are not those of section B); ``home_total`` the running total after it, which
    decides the ``winner``."""
    key = ["event_id", *(["section"] if "section" in m.columns else []), "round", "__pair"]
    m = m.with_columns(
        pl.concat_str(
            pl.min_horizontal("home", "away"), pl.max_horizontal("home", "away"), separator="\x1f"
        ).alias("__pair"),
        # the segment's margin in the view of the pair's first-named team, for carrying
        pl.when(pl.col("home") <= pl.col("away"))
        .then(_margin())
        .otherwise(-_margin())
        .alias("__seg"),
    ).sort("session")
    m = m.with_columns(
        (pl.col("__seg").cum_sum().over(key) - pl.col("__seg")).alias("__before")
    ).with_columns(
        pl.when(pl.col("stage") == "knockout")
        .then(
            pl.when(pl.col("home") <= pl.col("away"))
            .then(pl.col("__before"))
            .otherwise(-pl.col("__before"))
        )
        .otherwise(0)
        .alias("home_co")
    )
    return m.with_columns((pl.col("home_co") + _margin()).alias("home_total")).drop(
        "__pair", "__seg", "__before"
    )


def team_sides(ms: pl.DataFrame) -> pl.DataFrame:
    """Each match twice, once from each team's side: ``contestant``, ``opponent``, its
    ``vp``, ``net`` IMPs, IMPs ``won`` and ``lost``, the ``imp_penalties`` deducted from its
    side and the match's ``boards``."""
    keep = ["event_id", "session", "section", "session_date", "profile", "stage", "boards"]
    sides = []
    for me, other in (("home", "away"), ("away", "home")):
        sides.append(
            ms.select(
                *keep,
                pl.col(me).alias("contestant"),
                pl.col(other).alias("opponent"),
                pl.col(f"{me}_vp").alias("vp"),
                pl.col(f"{me}_net").alias("net"),
                pl.col(f"{me}_imps").alias("won"),
                pl.col(f"{other}_imps").alias("lost"),
                pl.col(f"{me}_penalties").fill_null(0).alias("imp_penalties"),
            )
        )
    return pl.concat(sides)


def team_session_totals(
    scored: pl.DataFrame,
    penalties: pl.DataFrame | None,
    *,
    profs: ProfileSet | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(team session totals, matches): VPs (IMPs in a knockout) per team per session.

    The ``penalties`` column of a team's row holds its IMP penalties in IMPs
    (``penalty_unit`` ``IMP``: they came off its match margins, so at a VP event they are
    already inside its VPs); a VP penalty, deducted from the VP score, is in
    ``vp_penalties`` (null in a knockout, which has no VPs)."""
    profs = ProfileSet.ensure(profs)
    ms = matches(scored, penalties, profs=profs)
    if ms.height == 0:
        return pl.DataFrame(), ms
    long = team_sides(ms)
    knockout = pl.col("stage") == "knockout"
    long = long.with_columns(
        pl.when(knockout)
        .then((pl.col("net") * TEAMS_DEN).round(0))
        .otherwise((pl.col("vp") * 100).round(0))
        .cast(pl.Int64)
        .alias("num"),
        pl.when(knockout).then(TEAMS_DEN).otherwise(100).cast(pl.Int64).alias("den"),
        pl.when(knockout).then(pl.lit("IMP")).otherwise(pl.lit("VP")).alias("unit"),
    )
    keys = ["event_id", "session", "section", "contestant"]
    totals = long.group_by(keys, maintain_order=True).agg(
        pl.col("num").sum().alias("score_num"),
        pl.col("den").first().alias("score_den"),
        pl.col("unit").first(),
        pl.col("boards").sum(),
        (pl.col("won") * TEAMS_DEN).round(0).cast(pl.Int64).sum().alias("__won"),
        (pl.col("lost") * TEAMS_DEN).round(0).cast(pl.Int64).sum().alias("__lost"),
        (pl.col("imp_penalties") * TEAMS_DEN).round(0).cast(pl.Int64).sum().alias("__imp_pen"),
        pl.col("session_date").first(),
        pl.col("profile").first(),
    )
    totals = totals.with_columns(
        pl.lit(None, pl.Utf8).alias("direction"),
        pl.lit("").alias("dir_key"),
        pl.lit("teams").alias("movement"),
    )
    parts = []
    at_vps = totals.filter(pl.col("unit") == "VP")
    if at_vps.height:
        vp = _deduct(at_vps, penalties, "VP")
        parts.append(vp.rename({"penalty_num": "vp_penalty_num", "penalty_den": "vp_penalty_den"}))
    knockout_rows = totals.filter(pl.col("unit") == "IMP")
    if knockout_rows.height:
        # IMP penalties are already in the net IMPs: only the sanctions are looked up here
        ko = _deduct(knockout_rows, penalties, None).drop("penalty_num", "penalty_den")
        parts.append(
            ko.with_columns(
                pl.lit(None, pl.Int64).alias("vp_penalty_num"),
                pl.lit(None, pl.Int64).alias("vp_penalty_den"),
            )
        )
    out = pl.concat(parts, how="diagonal_relaxed").with_columns(
        pl.col("__imp_pen").alias("penalty_num"),
        pl.lit(TEAMS_DEN, pl.Int64).alias("penalty_den"),
        pl.lit("IMP").alias("penalty_unit"),
    )
    return reduce(out.drop("__imp_pen"), "penalty_num", "penalty_den"), ms


# ---------------------------------------------------------------------------------- ranking


def rank_by_score(
    totals: pl.DataFrame,
    group: list[str],
    matches_: pl.DataFrame | None = None,
    *,
    profs: ProfileSet | None = None,
) -> pl.DataFrame:
    """Places by exact score within ``group``; percentage null. Teams level on VPs are
    separated as their profile says (``team_tiebreak``)."""
    profs = ProfileSet.ensure(profs)
    t = exact_rank(totals, "score_num", "score_den", group)
    t = t.with_columns(pl.lit(None, pl.Utf8).alias("tiebreak"))
    if matches_ is not None and matches_.height and t["tied"].any() and "__won" in t.columns:
        t = _team_tiebreak(t, group, matches_, profs=profs)
    parts = []
    for name in t["profile"].unique().to_list():
        prof = profs[name]
        d = prof.imp_decimals
        parts.append(
            t.filter(pl.col("profile") == name).with_columns(
                shown(
                    round_expr(pl.col("score_num"), pl.col("score_den"), d, prof.imp_rounding), d
                ).alias("score_display")
            )
        )
    t = pl.concat(parts, how="diagonal_relaxed") if parts else t
    return t.with_columns(
        to_float(pl.col("score_num"), pl.col("score_den")).alias("score"),
        pl.lit(None, pl.Float64).alias("top"),
        pl.lit(None, pl.Int64).alias("top_num"),
        pl.lit(None, pl.Int64).alias("top_den"),
        pl.lit(None, pl.Float64).alias("percentage"),
        pl.lit(None, pl.Float64).alias("percentage_display"),
        to_float(pl.col("penalty_num"), pl.col("penalty_den")).alias("penalties"),
        *(
            [to_float(pl.col("vp_penalty_num"), pl.col("vp_penalty_den")).alias("vp_penalties")]
            if "vp_penalty_num" in t.columns
            else []
        ),
    )


def _team_tiebreak(
    t: pl.DataFrame, group: list[str], ms: pl.DataFrame, *, profs: ProfileSet | None = None
) -> pl.DataFrame:
    """Break VP ties: head to head (the VPs of the match between two tied teams), then the
    IMP quotient (IMPs won / IMPs lost), as the profile's ``team_tiebreak`` says."""
    profs = ProfileSet.ensure(profs)
    out = []
    for _, g in t.group_by(group, maintain_order=True):
        prof = profs[g["profile"][0]]
        if prof.team_tiebreak == "none" or not g["tied"].any():
            out.append(g)
            continue
        rows = g.to_dicts()
        by_rank: dict[int, list[dict]] = {}
        for r in rows:
            by_rank.setdefault(r["rank"], []).append(r)
        for rank, tied in by_rank.items():
            if len(tied) < 2:
                continue
            keyed = []
            for r in tied:
                h2h = Fraction(0)
                if prof.team_tiebreak == "head_to_head" and len(tied) == 2:
                    other = next(o for o in tied if o is not r)["contestant"]
                    h2h = _h2h_vp(ms, r, other)
                won, lost = r["__won"] or 0, r["__lost"] or 0
                q = Fraction(won, lost) if lost else Fraction(10**9)
                keyed.append(((h2h, q), r))
                r["tiebreak"] = (
                    f"IMP quotient {float(q):.3f}" if lost else "IMP quotient: no IMPs lost"
                )
            keyed.sort(key=lambda x: x[0], reverse=True)
            for i, (k, r) in enumerate(keyed):
                same = [o for kk, o in keyed if kk == k]
                first = next(j for j, (kk, _) in enumerate(keyed) if kk == k)
                r["rank"] = rank + first
                r["tied"] = len(same) > 1
                del i
        out.append(pl.DataFrame(rows, schema=g.schema, orient="row"))
    return pl.concat(out, how="vertical_relaxed")


def _h2h_vp(ms: pl.DataFrame, r: dict, other: str) -> Fraction:
    me = r["contestant"]
    sel = ms.filter(
        (pl.col("event_id") == r["event_id"])
        & (
            ((pl.col("home") == me) & (pl.col("away") == other))
            | ((pl.col("home") == other) & (pl.col("away") == me))
        )
    )
    total = Fraction(0)
    for m in sel.iter_rows(named=True):
        vp = m["home_vp"] if m["home"] == me else m["away_vp"]
        total += Fraction(str(vp or 0))
    return total
