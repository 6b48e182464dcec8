"""IMP scoring of table results: Butler and cross-IMP pairs, and teams (Laws 78B, 12C2(b), 86).

Works on the rows :func:`pipelines.scoring.adjust.apply_rulings` returns (rulings already
applied) and on their components (a split or weighted score's possible results per side),
so every adjusted score is IMPed **component by component** and then weighted (Law
12C1(c): 70 % of −1 IMP and 30 % of −2 IMPs is −1.3 IMPs, never the IMPs of a weighted
mean score). The rules themselves are in :mod:`pipelines.laws.imps`,
:mod:`pipelines.laws.imp_pairs` and :mod:`pipelines.laws.teams`.

* **Butler** (pairs, individuals): per field (board, and version of a fouled board, Law 87)
  the datum is computed from the played results by the profile's convention; each side
  scores the IMPs of its result against the datum.
* **Cross-IMPs**: each result is IMPed against every other played result of the field;
  ``average`` divides by the number of comparisons, ``total`` keeps the sum (factored to
  the full field, ``(N-1)/(g-1)``, where a field has fewer results than expected).
* **Teams**: the two tables of a match board are the rows of the same event, session,
  round and board with the same two teams in swapped directions. Team A's IMPs on the
  board = IMP(A's NS-seat score − the NS score at the table where A sat EW), each of A's
  possible results weighted. When an adjusted score does not balance (Law 86B, 12C1(b)):
  in a knockout (stage ``knockout``, Law 86C 2017 / 86B 2007) each team's score is worked
  out from its own assigned score and both get the average of the two views (+6 and +10
  give +8/−8); elsewhere each team keeps its own figure.
* **Artificial scores** (Law 12C2(b)): Av+ / Av / Av− in IMPs as the profile says (+3, 0,
  −3); in cross-IMP totals ×(N−1). At teams an artificial score at one table decides the
  board for the team it names. When **both tables** of a match board received artificial
  scores (2017 Law 86B2; 2007 86D), the board is cancelled and each team gets one
  artificial score for it, by fault (:func:`pipelines.laws.teams.cancelled_board`): Av+ to
  a team in no way at fault, the complement −Av+ to the only team at fault, Av−/Av to each
  when both are — never the sum of two tables (A+ at both tables is +3 IMPs, not +6).
  Under a profile with ``imps.imp_session_average`` Av+/Av− follow the IMP equivalent of
  Law 12C2(c) (:func:`_team_session_rule`).
* An **IMP award** (ruling kind ``imp_award``; 2007 Law 86D, 2017 86B1) gives the board of
  the match the IMPs the Director awarded, to each team, whatever the tables' results
  (:func:`with_imp_awards`); a non-balancing award is averaged in a knockout like any other.
* A match board with no comparable result (a table missing, ``NP``) gives each team the
  profile's ``missing_board`` score and is counted in ``missing_boards`` of the match.

All figures are exact: ``ns_imps_num / imps_den`` (weights are integers over ``W``, 100 for
whole percentages, so a weighted figure is an integer over ``W``; at teams weights are whole
percentages and a teams figure is an integer over 20,000 with the knockout
average); ``ns_imps``/``ew_imps`` are their floats, ``*_display`` as the profile shows them.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from pipelines import profiles
from pipelines.laws.exact import to_float
from pipelines.laws.imps import imps_array
from pipelines.laws.rounding import round_expr, shown
from pipelines.laws.teams import FAULT
from pipelines.laws.vocabulary import RulingKind
from pipelines.profiles import ProfileSet
from pipelines.scoring.components import side_components, weight_den
from pipelines.scoring.score import BOARD, SCORED_COLUMNS

#: Columns IMP scoring adds (besides :data:`~pipelines.scoring.score.SCORED_COLUMNS`).
IMP_COLUMNS: dict[str, pl.DataType] = {
    "datum": pl.Int64,
    "ns_imps_num": pl.Int64,
    "ew_imps_num": pl.Int64,
    "imps_den": pl.Int64,
    "ns_imps": pl.Float64,
    "ew_imps": pl.Float64,
    "ns_imps_display": pl.Float64,
    "ew_imps_display": pl.Float64,
    "match_id": pl.Utf8,
    "home": pl.Utf8,
    "away": pl.Utf8,
    "missing_result": pl.Boolean,
}

#: Scorings at IMPs.
IMP_SCORINGS = ("butler", "cross_imps", "imps")

FIELD = [*BOARD, "board_version"]

#: Teams figures are integers over this denominator (weights 100 x 100, halved for 86C).
TEAMS_DEN = 20_000


def _imps(diff: pl.Expr | pl.Series) -> pl.Series:
    return pl.Series(imps_array(np.asarray(diff.to_numpy(), dtype=np.int64)))


def _art_imps(code: pl.Expr, prof: profiles.Profile) -> pl.Expr:
    """IMPs of an artificial side code (``+ = -``; a fixed percentage reads as its band)."""
    return (
        pl.when(code.is_in(["+", "60"]))
        .then(prof.imp_average_plus)
        .when(code.is_in(["=", "50"]))
        .then(prof.imp_average)
        .when(code.is_in(["-", "40"]))
        .then(prof.imp_average_minus)
        .cast(pl.Int64)
    )


#: Columns :func:`with_imp_awards` adds to the rows an IMP award names (over TEAMS_DEN).
AWARD_COLUMNS = ("__award_ns", "__award_ew")


def with_imp_awards(rows: pl.DataFrame, rulings: pl.DataFrame) -> pl.DataFrame:
    """Mark the table rows ``imp_award`` rulings name with their IMPs (2007 Law 86D; 2017
    86B1): ``__award_ns`` to the team seated NS at that table, ``__award_ew`` to the other
    (the negation when the ruling gives none), exact over :data:`TEAMS_DEN`; null elsewhere.
    A later award on the same table replaces an earlier one. The rows are those of
    :func:`~pipelines.scoring.adjust.apply_rulings` (a ruling per table: per ruling Python)."""
    from pipelines.laws.teams import parse_imp_award

    awards = (
        rulings.filter(pl.col("kind") == RulingKind.IMP_AWARD)
        if rulings.height and "kind" in rulings.columns
        else rulings.clear()
    )
    if awards.height == 0:
        return rows
    found = []
    for r in awards.iter_rows(named=True):
        ns = parse_imp_award(r["ns_result"])
        ew = parse_imp_award(r["ew_result"]) if r["ew_result"] else -ns
        found.append(
            {
                "event_id": r["event_id"],
                "session": r["session"],
                "__rsec": r["section"] or "",
                "deal_round": r.get("deal_round") or 0,
                "board": r["board"],
                "ns_pair": r["ns_pair"],
                "ew_pair": r["ew_pair"],
                "__award_ns": int(ns * TEAMS_DEN),
                "__award_ew": int(ew * TEAMS_DEN),
            }
        )
    keys = ["event_id", "session", "deal_round", "board", "ns_pair", "ew_pair"]
    frame = pl.DataFrame(found, orient="row").with_columns(
        pl.col("session").cast(pl.Int32),
        pl.col("deal_round").cast(pl.Int32),
        pl.col("board").cast(pl.Int32),
        pl.col("__award_ns").cast(pl.Int64),
        pl.col("__award_ew").cast(pl.Int64),
    )
    hit = (
        rows.select("__row", "section", *keys)
        .join(frame, on=keys)
        .filter((pl.col("__rsec") == "") | (pl.col("__rsec") == pl.col("section")))
        .unique("__row", keep="last", maintain_order=True)
        .select("__row", *AWARD_COLUMNS)
    )
    return rows.join(hit, on="__row", how="left")


def score_imp_rows(
    rows: pl.DataFrame, components: pl.DataFrame, *, profs: ProfileSet | None = None
) -> pl.DataFrame:
    """Score rows of IMP events (after :func:`~pipelines.scoring.adjust.apply_rulings`).

    Returns the rows with :data:`~pipelines.scoring.score.SCORED_COLUMNS` (the matchpoint
    figures null) and :data:`IMP_COLUMNS`, in ``__row`` order. A team event's ``stage``
    column says whether it is a knockout (non-balancing boards averaged, Law 86C).
    """
    profs = ProfileSet.ensure(profs)
    comps = side_components(rows, components)
    w = weight_den(components)
    parts = []
    for (name, scoring), sub in rows.group_by(["profile", "scoring"], maintain_order=True):
        prof = profs[name]
        mine = comps.join(sub.select("__row"), on="__row", how="semi")
        if scoring == "butler":
            part = _butler(sub, mine, prof, w)
        elif scoring == "cross_imps":
            part = _cross(sub, mine, prof, w)
        elif w != 100:
            # a team figure is an integer over TEAMS_DEN (weights 100 x 100): refused at
            # validation, so only a frame holding other forms' weights comes here
            part = _teams(sub, _percent_weights(mine, w), prof)
        else:
            part = _teams(sub, mine, prof)
        parts.append(_finish(part, prof))
    return pl.concat(parts, how="diagonal_relaxed").sort("__row")


def _finish(out: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """Floats and the figures shown under ``prof``; every scored column present and typed."""
    for c, t in {**SCORED_COLUMNS, **IMP_COLUMNS}.items():
        if c not in out.columns:
            out = out.with_columns(pl.lit(None, t).alias(c))
    d, mode = prof.imp_decimals, prof.imp_rounding
    num = {side: pl.col(f"{side}_imps_num") for side in ("ns", "ew")}
    den = pl.col("imps_den")
    out = out.with_columns(
        *(to_float(num[s], den).alias(f"{s}_imps") for s in num),
        *(shown(round_expr(num[s], den, d, mode), d).alias(f"{s}_imps_display") for s in num),
    )
    return out.with_columns(
        *(pl.col(c).cast(t) for c, t in {**SCORED_COLUMNS, **IMP_COLUMNS}.items())
    )


def _field_counts(rows: pl.DataFrame) -> pl.DataFrame:
    """Played results per field (``n_results``) and expected results per board (``expected``)."""
    return rows.with_columns(
        (pl.col("kind") == "played").sum().over(FIELD).cast(pl.Int32).alias("n_results"),
        pl.max_horizontal(pl.len().over(BOARD), pl.col("expected_results").fill_null(0))
        .cast(pl.Int32)
        .alias("expected"),
    )


def _with_comps(rows: pl.DataFrame, comps: pl.DataFrame) -> pl.DataFrame:
    return comps.join(rows.select("__row", *FIELD, "expected"), on="__row")


def _side_sums(rows: pl.DataFrame, per_comp: pl.DataFrame, den: int | pl.Expr) -> pl.DataFrame:
    """Sum each side's weighted component figures (``__v``, an integer over 100 × weight)
    back onto the rows as ``ns_imps_num``/``ew_imps_num`` over ``imps_den``."""
    sums = per_comp.group_by("__row", "side").agg(pl.col("__v").sum())
    wide = sums.pivot(on="side", index="__row", values="__v")
    for s in ("NS", "EW"):
        if s not in wide.columns:
            wide = wide.with_columns(pl.lit(None, pl.Int64).alias(s))
    out = rows.join(
        wide.select("__row", pl.col("NS").alias("ns_imps_num"), pl.col("EW").alias("ew_imps_num")),
        on="__row",
        how="left",
    )
    return out.with_columns(
        pl.when(pl.col("ns_imps_num").is_not_null() | pl.col("ew_imps_num").is_not_null())
        .then(den)
        .cast(pl.Int64)
        .alias("imps_den")
    )


def _percent_weights(comps: pl.DataFrame, w: int) -> pl.DataFrame:
    """Weights over ``w`` as whole percentages (exact when each one is one)."""
    return comps.with_columns((pl.col("weight") * 100 // w).alias("weight"))


def _butler(
    rows: pl.DataFrame, comps: pl.DataFrame, prof: profiles.Profile, w: int = 100
) -> pl.DataFrame:
    """Butler IMPs: each side's result against the field's datum (see module docstring)."""
    from pipelines.laws.imp_pairs import BUTLER_CONVENTIONS, butler_frame

    rows = _field_counts(rows)
    played = rows.filter(pl.col("kind") == "played").select(
        "__row", *FIELD, pl.col("computed_score").alias("ns_score")
    )
    datum = (
        butler_frame(
            played,
            group=FIELD,
            convention={**BUTLER_CONVENTIONS[prof.butler], "half": prof.datum_half},
        )
        .select(*FIELD, "datum")
        .unique(FIELD)
    )
    rows = rows.join(datum, on=FIELD, how="left", nulls_equal=True)
    c = _with_comps(rows, comps).join(datum, on=FIELD, how="left", nulls_equal=True)
    real = c.filter(pl.col("art").is_null() & pl.col("datum").is_not_null())
    real = _side_imps(real, "datum")
    art = c.filter(pl.col("art").is_not_null()).with_columns(
        (_art_imps(pl.col("art"), prof) * pl.col("weight")).alias("__v")
    )
    per = pl.concat([real.select("__row", "side", "__v"), art.select("__row", "side", "__v")])
    return _side_sums(rows, per, w).with_columns(pl.lit("none").alias("factoring"))


def _side_imps(real: pl.DataFrame, against: str) -> pl.DataFrame:
    """``real`` with ``__v``: the IMPs of its NS score against the score in ``against`` (the
    datum, or another result of the field) times the comparison's weight, for the row's side
    (EW: the NS figure negated)."""
    return real.with_columns(
        (_imps(real["ns_score"] - real[against]) * real["weight"]).alias("__raw")
    ).with_columns(
        pl.when(pl.col("side") == "NS")
        .then(pl.col("__raw"))
        .otherwise(-pl.col("__raw"))
        .alias("__v")
    )


def _cross(
    rows: pl.DataFrame, comps: pl.DataFrame, prof: profiles.Profile, w: int = 100
) -> pl.DataFrame:
    """Cross-IMPs: each side's result against every other result of the field, played or
    adjusted: an adjusted (weighted or split) table by each of its components, with its
    weight, on the side compared (scoring-rules §5: every other table compares against each
    component with its weight), so the IMPs of a board sum to nought. Each comparison's
    IMPs are over ``w × w`` (the two results' weights)."""
    rows = _field_counts(rows)
    c = _with_comps(rows, comps)
    scored = c.filter(pl.col("art").is_null())
    others = scored.select(
        *FIELD,
        "side",
        pl.col("__row").alias("__orow"),
        pl.col("ns_score").alias("__oscore"),
        pl.col("weight").alias("__ow"),
    )
    real = scored.join(others, on=[*FIELD, "side"], nulls_equal=True).filter(
        pl.col("__orow") != pl.col("__row")
    )
    real = _side_imps(real, "__oscore").with_columns(pl.col("__v") * pl.col("__ow"))
    # comparisons each row's result met: the other results (played or adjusted) of its field
    compared = pl.col("kind").is_in(["played", "adjusted"])
    rows = rows.with_columns(
        (compared.sum().over(FIELD) - compared.cast(pl.Int32)).cast(pl.Int32).alias("__k")
    )
    full = (pl.col("expected") - 1).cast(pl.Int64)
    ww = w * w
    if prof.cross_imps == "average":
        art_mult = pl.lit(1, pl.Int64)
        den = ww * pl.max_horizontal(pl.col("__k"), pl.lit(1))
        scale = pl.lit(1, pl.Int64)
    else:
        art_mult = full
        # a field short of results is factored to the full field: x (N-1)/(g-1)
        short = (pl.col("__k") > 0) & (pl.col("__k") < full)
        den = pl.when(short).then(ww * pl.col("__k")).otherwise(ww)
        scale = pl.when(short).then(full).otherwise(1)
    art = c.filter(pl.col("art").is_not_null()).with_columns(
        (_art_imps(pl.col("art"), prof) * pl.col("weight") * art_mult).alias("__v")
    )
    # artificial rows keep a denominator of w (their figure is already a whole board's)
    per_real = real.select("__row", "side", "__v")
    out = _side_sums(rows, pl.concat([per_real, art.select("__row", "side", "__v")]), den)
    is_art = pl.col("kind") == "artificial"
    out = out.with_columns(
        pl.when(is_art).then(w).otherwise(pl.col("imps_den")).cast(pl.Int64).alias("imps_den"),
        *(
            pl.when(is_art).then(pl.col(c)).otherwise(pl.col(c) * scale).alias(c)
            for c in ("ns_imps_num", "ew_imps_num")
        ),
    )
    factoring = (
        pl.when((pl.col("__k") < full) & (prof.cross_imps == "total"))
        .then(pl.lit("linear"))
        .otherwise(pl.lit("none"))
    )
    return out.with_columns(factoring.alias("factoring")).drop("__k")


def _with_awards(view: pl.DataFrame, rows: pl.DataFrame, mboard: list[str]) -> pl.DataFrame:
    """An IMP award (:func:`with_imp_awards`) replaces each team's IMPs on its match board,
    whatever the tables' results (the board then has a result: not missing)."""
    if "__award_ns" not in rows.columns:
        return view
    named = rows.filter(pl.col("__award_ns").is_not_null())
    if named.height == 0:
        return view
    per_team = pl.concat(
        [
            named.select(
                *mboard, pl.col("ns_pair").alias("team"), pl.col("__award_ns").alias("__aw")
            ),
            named.select(
                *mboard, pl.col("ew_pair").alias("team"), pl.col("__award_ew").alias("__aw")
            ),
        ]
    ).unique([*mboard, "team"], keep="last", maintain_order=True)
    return (
        view.join(per_team, on=[*mboard, "team"], how="left")
        .with_columns(
            pl.coalesce("__aw", "__v").alias("__v"),
            (pl.col("__missing") & pl.col("__aw").is_null()).alias("__missing"),
        )
        .drop("__aw")
    )


def _cancelled_award(prof: profiles.Profile) -> pl.Expr:
    """A team's artificial score on a match board both of whose tables received one (2017
    Law 86B2; 2007 86D): the vectorised :func:`pipelines.laws.teams.cancelled_board`, over
    :data:`TEAMS_DEN`. ``__fault`` is the team's least favourable code (0 none, 1 partly,
    2 directly at fault), null when it got no artificial score (its own ``__art`` stays:
    none); the opponents' is the board's sum less the team's own (two teams a board)."""
    mine = pl.col("__fault")
    theirs = mine.fill_null(0).sum().over("match_id", "board") - mine.fill_null(0)
    award = (
        pl.when(mine == 0)
        .then(prof.imp_average_plus)
        .when(theirs == 0)
        .then(-prof.imp_average_plus)
        .when(mine == 1)
        .then(prof.imp_average)
        .otherwise(prof.imp_average_minus)
        .cast(pl.Int64)
        * TEAMS_DEN
    )
    return (
        pl.when(pl.col("__cancelled").fill_null(False) & mine.is_not_null())
        .then(award)
        .otherwise(pl.col("__art"))
    )


def _variable_code(prof: profiles.Profile) -> pl.Expr:
    """The variable artificial code (``+`` / ``-``) a team's figure on a match board stands
    for, null when it is none (a played board, a fixed code, a weighted mixture, ``=``).

    A board cancelled under Law 86B2 gives Av+ to a team in no way at fault (``+``) and Av−
    to one directly at fault when the opponents are at fault too (``-``); the complement of
    Av+ (86B2(b)) and Av are not session-average codes."""
    mine = pl.col("__fault")
    theirs = mine.fill_null(0).sum().over("match_id", "board") - mine.fill_null(0)
    cancelled = pl.col("__cancelled").fill_null(False) & mine.is_not_null()
    single = (pl.col("__codes").list.len() == 1) & (pl.col("__weight") == 100)
    code = pl.col("__codes").list.first()
    return (
        pl.when(cancelled & (mine == 0))
        .then(pl.lit("+"))
        .when(cancelled & (mine == 2) & (theirs != 0))
        .then(pl.lit("-"))
        .when(~cancelled & single & code.is_in(["+", "-"]))
        .then(code)
        .otherwise(pl.lit(None, pl.Utf8))
    )


def _team_session_rule(view: pl.DataFrame, rows: pl.DataFrame, prof: profiles.Profile):
    """Law 12C2(c) "or the IMP equivalent" at teams (2007 Law 88), under a profile with
    ``imps.imp_session_average``: a team given average-plus on a match board gets the better
    of the profile's Av+ (+3 IMPs, Law 12C2(b)) and its average IMPs per board on its other
    boards of the session (every match of the session; boards with an artificial score or
    without a comparable result left out); under the 2017 Laws a team given average-minus
    the worse of Av− and that average (the 2007 Law 88 gives only the first rule).

    The average is rounded as the profile shows IMPs (``imp_decimals``, ``imp_rounding``):
    the award is a figure the Director can state, and stays exact over
    :data:`TEAMS_DEN`. A team with no other board keeps the fixed IMPs."""
    keys = ["event_id", "session", "team"]
    info = rows.select(
        "match_id",
        "event_id",
        "session",
        (pl.col("laws").cast(pl.Utf8) if "laws" in rows.columns else pl.lit("2017")).alias(
            "__laws"
        ),
    ).unique("match_id")
    view = view.join(info, on="match_id", how="left").with_columns(
        _variable_code(prof).alias("__code")
    )
    other = view.filter(
        pl.col("__art").is_null() & ~pl.col("__missing") & pl.col("__v").is_not_null()
    )
    avg = other.group_by(keys).agg(pl.col("__v").sum().alias("__sum"), pl.len().alias("__n"))
    # TEAMS_DEN = 2 x 10**4: a figure rounded to at most 4 decimals stays on its grid
    decimals = min(prof.imp_decimals, 4)
    step = TEAMS_DEN // 10**decimals
    rounded = round_expr(
        pl.col("__sum"),
        pl.col("__n") * TEAMS_DEN,
        decimals,
        prof.imp_rounding,
        average=pl.lit(0.0),  # IMPs average 0: half_toward_average rounds a half toward 0
    )
    view = view.join(avg, on=keys, how="left").with_columns((rounded * step).alias("__avg"))
    plus = pl.lit(prof.imp_average_plus * TEAMS_DEN, pl.Int64)
    minus = pl.lit(prof.imp_average_minus * TEAMS_DEN, pl.Int64)
    has = pl.col("__avg").is_not_null()
    laws2017 = pl.col("__laws").fill_null("2017") != "2007"
    value = (
        pl.when(has & (pl.col("__code") == "+"))
        .then(pl.max_horizontal(plus, "__avg"))
        .when(has & (pl.col("__code") == "-") & laws2017)
        .then(pl.min_horizontal(minus, "__avg"))
        .otherwise(pl.col("__v"))
    )
    return view.with_columns(value.cast(pl.Int64).alias("__v")).drop(
        "event_id", "session", "__laws", "__code", "__sum", "__n", "__avg"
    )


def _teams(rows: pl.DataFrame, comps: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """Teams: each team's IMPs on each match board (see the module docstring)."""
    lo = pl.min_horizontal("ns_pair", "ew_pair")
    hi = pl.max_horizontal("ns_pair", "ew_pair")
    match = ["event_id", "session", "section", "round", "__lo", "__hi"]
    rows = rows.with_columns(
        lo.alias("__lo"),
        hi.alias("__hi"),
        pl.lit(None, pl.Int32).alias("n_results"),
        pl.len().over(BOARD).cast(pl.Int32).alias("expected"),
        pl.lit("none").alias("factoring"),
    )
    # Home: the team seated NS at the lowest-numbered table of the match.
    first = (
        rows.sort("table", "board", "__row", nulls_last=True)
        .group_by(match, maintain_order=True)
        .agg(pl.col("ns_pair").first().alias("home"))
    )
    rows = rows.join(first, on=match, how="left", nulls_equal=True).with_columns(
        pl.when(pl.col("home") == pl.col("__lo")).then("__hi").otherwise("__lo").alias("away"),
        pl.format(
            "{}/{}/{}/R{}/{}-{}",
            "event_id",
            "session",
            "section",
            pl.col("round").cast(pl.Utf8).fill_null("-"),
            "__lo",
            "__hi",
        ).alias("match_id"),
    )
    mboard = ["match_id", "board"]
    # Each component of each side, as seen by the team that holds it.
    c = comps.join(rows.select("__row", *mboard, "ns_pair", "ew_pair"), on="__row").with_columns(
        pl.when(pl.col("side") == "NS").then("ns_pair").otherwise("ew_pair").alias("team")
    )
    real = c.filter(pl.col("art").is_null() & pl.col("ns_score").is_not_null())
    at_ns = real.filter(pl.col("side") == "NS").select(
        *mboard, "team", pl.col("ns_score").alias("__a"), pl.col("weight").alias("__wa")
    )
    at_ew = real.filter(pl.col("side") == "EW").select(
        *mboard, "team", pl.col("ns_score").alias("__b"), pl.col("weight").alias("__wb")
    )
    pairs = at_ns.join(at_ew, on=[*mboard, "team"])
    pairs = pairs.with_columns(
        (_imps(pairs["__a"] - pairs["__b"]) * pairs["__wa"] * pairs["__wb"] * 2).alias("__v")
    )
    played_view = pairs.group_by(*mboard, "team").agg(pl.col("__v").sum())
    art = (
        c.filter(pl.col("art").is_not_null())
        .with_columns(
            (_art_imps(pl.col("art"), prof) * pl.col("weight") * 200).alias("__v"),
            pl.col("art").replace_strict(FAULT, default=None, return_dtype=pl.Int8).alias("__f"),
        )
        .group_by(*mboard, "team")
        .agg(
            pl.col("__v").sum(),
            pl.col("__f").max().alias("__fault"),
            pl.col("art").unique().alias("__codes"),
            pl.col("weight").sum().alias("__weight"),
        )
    )
    # Law 86B2 (2017; 2007 86D): artificial scores at both tables of the match board
    # cancel it: each team one artificial score for the board (laws.teams.cancelled_board)
    both_tables = rows.group_by(mboard).agg(
        ((pl.col("ns_art").is_not_null() | pl.col("ew_art").is_not_null()).sum() >= 2).alias(
            "__cancelled"
        )
    )
    teams_of_board = pl.concat(
        [
            rows.select(*mboard, pl.col("home").alias("team")),
            rows.select(*mboard, pl.col("away").alias("team")),
        ]
    ).unique()
    # Law 87: the two tables of a match board played different versions of a fouled board:
    # no comparison is possible, the board counts as one without comparable results.
    fouled = rows.group_by(mboard).agg(
        (pl.col("board_version").fill_null("A").n_unique() > 1).alias("__fouled")
    )
    view = (
        teams_of_board.join(art.rename({"__v": "__art"}), on=[*mboard, "team"], how="left")
        .join(played_view, on=[*mboard, "team"], how="left")
        .join(fouled, on=mboard, how="left")
        .join(both_tables, on=mboard, how="left")
        .with_columns(_cancelled_award(prof).alias("__art"))
        .with_columns(
            pl.when(pl.col("__fouled")).then(None).otherwise("__art").alias("__art"),
            pl.when(pl.col("__fouled")).then(None).otherwise("__v").alias("__v"),
        )
        .with_columns(
            pl.coalesce("__art", "__v").alias("__v"),
            (pl.col("__art").is_null() & pl.col("__v").is_null()).alias("__missing"),
        )
    )
    view = _with_awards(view, rows, mboard)
    if prof.imp_session_average:
        view = _team_session_rule(view, rows, prof)
    missing_value = prof.imp_average if prof.missing_board == "average" else prof.imp_average_minus
    view = view.with_columns(
        pl.when(pl.col("__missing"))
        .then(pl.lit(missing_value * TEAMS_DEN, pl.Int64))
        .otherwise(pl.col("__v"))
        .alias("__v")
    )
    # Law 86C (2017) / 86B (2007): in a knockout both teams get the average of the two views.
    stage = rows.select("match_id", "stage").unique("match_id")
    view = view.join(stage, on="match_id", how="left").with_columns(
        (pl.col("__v").sum().over(mboard)).alias("__sum")
    )
    knockout = (pl.col("stage") == "knockout") & (pl.col("__sum") != 0) & ~pl.col("__missing")
    view = view.with_columns(
        pl.when(knockout)
        .then(pl.col("__v") - pl.col("__sum") // 2)
        .otherwise(pl.col("__v"))
        .cast(pl.Int64)
        .alias("__v")
    )
    per_team = view.select(*mboard, "team", "__v", "__missing")
    out = rows.join(
        per_team.rename({"team": "ns_pair", "__v": "ns_imps_num", "__missing": "__mn"}),
        on=[*mboard, "ns_pair"],
        how="left",
    ).join(
        per_team.rename({"team": "ew_pair", "__v": "ew_imps_num", "__missing": "__me"}),
        on=[*mboard, "ew_pair"],
        how="left",
    )
    return out.with_columns(
        pl.lit(TEAMS_DEN, pl.Int64).alias("imps_den"),
        (pl.col("__mn").fill_null(True) | pl.col("__me").fill_null(True)).alias("missing_result"),
    ).drop("__lo", "__hi", "__mn", "__me", *AWARD_COLUMNS, strict=False)
