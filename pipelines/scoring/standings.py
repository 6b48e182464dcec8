"""Standings: each contestant's score, percentage and place, per session and per event.

* A contestant is a pair id in a Howell (one field, whichever direction it
  sat) and a pair id together with its direction in a Mitchell (two fields,
  two rankings).
* Session score = the sum of the contestant's matchpoints as the profile
  counts them (exact, or the rounded figures shown); top = the sum of the
  full-field tops of the boards it played (artificial scores included, boards
  not played excluded); percentage = score / top (50 % for a contestant whose
  boards all had a single result, top 0: there was nothing to compare; none for one
  that played no board, suspended from the first round under Law 91A). A profile
  may scale the score of a contestant that missed boards to the full session
  (``totals.sitout = "scale_to_full"``, as Compscore does): the full session is the
  boards the fullest contestant of its ranking group played (its direction in a
  Mitchell), so a field whose every pair sat out a round is not scaled; the
  percentage is unchanged.
* Event score and top = the sums over the event's sessions; percentage =
  score / top.
* Places: by percentage, best first, exact ties share the place (1, 2, 2, 4)
  and are marked ``tied``; a profile may break ties head to head.

All sums and comparisons are exact (:mod:`pipelines.laws.exact`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from pipelines import profiles
from pipelines.laws.exact import (
    LIMIT,
    ExactArithmeticOverflow,
    column,
    dense_ids,
    exact_rank,
    group_ids,
    joint_codes,
    pack,
    reduce,
    sum_by,
    sum_fractions,
    to_float,
)
from pipelines.laws.rounding import round_expr, shown
from pipelines.profiles import ProfileSet
from pipelines.scoring.imp_forms import TEAMS_DEN
from pipelines.scoring.imp_standings import (
    is_imp_scored,
    matches,
    pair_session_totals,
    penalty_sum,
    rank_by_score,
    sanction_of,
    team_session_totals,
    team_sides,
)
from pipelines.scoring.score import compared_section, section_and_board_ids
from pipelines.tables import polars_schema

#: Columns of a standings row (the ``standings`` table).
STANDINGS_SCHEMA: dict[str, pl.DataType] = polars_schema("standings")

#: Columns of a penalty to apply (Laws 90, 91): who, how many matchpoints, and any sanction.
PENALTIES_SCHEMA: dict[str, pl.DataType] = {
    "event_id": pl.Utf8,
    "session": pl.Int32,
    "section": pl.Utf8,  # "" in a session of one section
    "contestant": pl.Utf8,
    "direction": pl.Utf8,
    "penalty_num": pl.Int64,
    "penalty_den": pl.Int64,
    "sanction": pl.Utf8,
    "unit": pl.Utf8,  # MP | IMP | VP: the unit of the amount
    "round": pl.Int32,  # teams: the match an IMP penalty comes off (null: the first)
}

_SIDE_COLS = ["event_id", "session", "section", "session_date", "movement", "profile", "board"]


def contestant_rows(scored: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """One row per contestant per board played (artificial scores included, NP excluded).

    Columns: the board keys, ``contestant``, ``direction`` (null in a Howell),
    ``dir_key`` ('' in a Howell), ``opponent``, the counted matchpoints as an exact
    fraction ``num/den``, the full-field top as ``top_num/top_den`` and ``__field``, the
    field the contestant is ranked in (its section, or ``""`` across the field).
    """
    rows = scored.filter(pl.col("kind") != "not_played")
    rows = rows.with_columns(compared_section(rows)["section"].alias("__field"))
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
            "__field",
        )

    return pl.concat(
        [
            side("ns_pair", "ew_pair", "ns_mp", "ns_mp_num", "NS"),
            side("ew_pair", "ns_pair", "ew_mp", "ew_mp_num", "EW"),
        ]
    )


def session_standings(
    scored: pl.DataFrame,
    contestants: pl.DataFrame | None = None,
    penalties: pl.DataFrame | None = None,
    *,
    profs: ProfileSet | None = None,
) -> pl.DataFrame:
    """Session standings for every session in ``scored`` (each under its event's profile).

    ``penalties`` (:data:`PENALTIES_SCHEMA`, one row per penalty) are deducted from the
    penalised contestant's total only (Laws 90, 91): its ``score`` is the matchpoints it
    earned less its penalties, which are also shown apart; no other contestant's figures
    change. A contestant with a ``sanction`` (suspended, disqualified) is shown without a
    place, or left out, as the profile says, and the others are ranked without it.
    """
    profs = ProfileSet.ensure(profs)
    scored = suspended_sides(individual_sides(scored), penalties)
    parts = []
    imp = is_imp_scored(scored)
    if imp.any():
        parts.extend(_imp_sessions(scored.filter(imp), penalties, profs=profs))
        scored = scored.filter(~imp)
    names = sorted(scored.select(pl.col("profile").unique()).to_series().to_list())
    for name in names:
        prof = profs[name]
        rows = (
            scored
            if len(names) == 1
            else scored.select(
                *_INPUT, *(c for c in ("__ns_out", "__ew_out") if c in scored.columns)
            ).filter(pl.col("profile") == name)
        )
        part = _session(rows, prof, _in_unit(penalties, "MP"))
        if part is not None:
            parts.append(
                part.with_columns(pl.lit("MP").alias("unit"), pl.lit("MP").alias("penalty_unit"))
            )
    if not parts:
        return pl.DataFrame(schema=STANDINGS_SCHEMA)
    return _finish(pl.concat(parts, how="diagonal_relaxed"), contestants)


def _in_unit(penalties: pl.DataFrame | None, unit: str) -> pl.DataFrame | None:
    if penalties is None or "unit" not in penalties.columns:
        return penalties
    return penalties.filter(pl.col("unit").fill_null("MP") == unit)


def _imp_sessions(
    scored: pl.DataFrame, penalties: pl.DataFrame | None, *, profs: ProfileSet | None = None
) -> list[pl.DataFrame]:
    """Session standings of IMP events (:mod:`pipelines.scoring.imp_standings`)."""
    profs = ProfileSet.ensure(profs)
    group = ["event_id", "session", "section", "dir_key"]
    out = []
    teams = scored["form"] == "teams"
    if (~teams).any():
        totals = pair_session_totals(scored.filter(~teams), penalties)
        out.append(rank_by_score(totals, group, profs=profs))
    if teams.any():
        totals, ms = team_session_totals(scored.filter(teams), penalties, profs=profs)
        if totals.height:
            out.append(rank_by_score(totals, group, ms, profs=profs))
    return [o.with_columns(pl.lit("session").alias("scope")) for o in out]


#: Columns of the scored results that standings read.
_INPUT = [
    *_SIDE_COLS,
    "deal_round",
    "ns_pair",
    "ew_pair",
    "kind",
    "ns_mp_num",
    "ew_mp_num",
    "mp_den",
    "ns_mp",
    "ew_mp",
    "expected",
]


def suspended_sides(scored: pl.DataFrame, penalties: pl.DataFrame | None) -> pl.DataFrame:
    """Law 91A: a contestant suspended from a round of the session on: its own results from
    that round on (if the file holds any) do not count for it, in its score, top or boards
    played, while its opponents keep theirs (a penalty never touches other contestants).
    Marks the sides with ``__ns_out`` / ``__ew_out``."""
    if penalties is None or penalties.height == 0 or "round" not in scored.columns:
        return scored
    sus = penalties.filter(
        pl.col("sanction").fill_null("").str.starts_with("suspended")
        & pl.col("round").is_not_null()
    )
    if sus.height == 0:
        return scored
    keys = ["event_id", "session", "section"]
    rnd = pl.col("round").cast(pl.Int64, strict=False)
    out = scored.with_columns(pl.lit(False).alias("__ns_out"), pl.lit(False).alias("__ew_out"))
    for side, pair, direction in (("ns", "ns_pair", "NS"), ("ew", "ew_pair", "EW")):
        hit = sus.filter(pl.col("direction").is_null() | (pl.col("direction") == direction)).select(
            *keys, pl.col("contestant").alias(pair), pl.col("round").alias("__from")
        )
        out = (
            out.join(hit, on=[*keys, pair], how="left")
            .with_columns(
                (pl.col(f"__{side}_out") | (rnd >= pl.col("__from")).fill_null(False)).alias(
                    f"__{side}_out"
                )
            )
            .drop("__from")
        )
    return out


def individual_sides(scored: pl.DataFrame) -> pl.DataFrame:
    """In an individual event each player receives his side's score on every board (Law 89:
    an adjusted score applies equally to both members of a side): a table becomes two
    pair-like rows, north against east and south against west, in one field."""
    if "form" not in scored.columns or not (scored["form"] == "individual").any():
        return scored
    ind = scored.filter(pl.col("form") == "individual")
    halves = [
        ind.with_columns(
            pl.col(a).alias("ns_pair"),
            pl.col(b).alias("ew_pair"),
            pl.lit("howell").alias("movement"),
        )
        for a, b in (("north", "east"), ("south", "west"))
    ]
    # Where the session-percentage rule gave the south and west players figures of their
    # own (Law 12C2(c): each player's percentage on his other boards), they count for them.
    own = [
        (f"{side}_{c}", f"{seat}_{c}")
        for side, seat in (("ns", "south"), ("ew", "west"))
        for c in ("mp_num", "mp", "imps_num", "imps")
    ]
    halves[1] = halves[1].with_columns(
        pl.coalesce(mine, side).alias(side)
        for side, mine in own
        if mine in ind.columns and side in ind.columns
    )
    return pl.concat([scored.filter(pl.col("form") != "individual"), *halves])


def _session(
    scored: pl.DataFrame, prof: profiles.Profile, penalties: pl.DataFrame | None = None
) -> pl.DataFrame | None:
    """Ranked session standings of results scored under ``prof`` (``None`` if no board played).

    Each contestant's boards are summed exactly (:func:`_session_totals`),
    :func:`_rank` places the contestants within each ranking group and
    :func:`_tiebreak` breaks ties if the profile says so.
    """
    group = ["event_id", "session", "__field", "dir_key"]
    totals = _session_totals(scored, prof)
    if totals is None:
        return None
    totals = _with_penalties(totals, penalties).with_columns(pl.lit("session").alias("scope"))
    ranked = _rank(totals, ["__rg"], prof)

    def long() -> pl.DataFrame:
        return contestant_rows(scored, prof)

    return _tiebreak(ranked, long, group, prof, ["section"])


def _session_totals(scored: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame | None:
    """One row per contestant of each session: exact score and top, boards played.

    The rules are :func:`contestant_rows`' and the module docstring's; the work
    runs on integers. Each side of each board played (NP excluded) is one
    contestant-board; contestants are numbered by (section, pair, direction:
    NS/EW in a Mitchell, none in a Howell), the ranking group is (section,
    direction) — (session, direction) for a session scored across the field, whose
    contestants are still numbered in their sections (``__field``: the group's section, or
    ``""``). Matchpoints are summed exactly per contestant
    (:func:`~pipelines.laws.exact.sum_fractions`, one common denominator per
    ranking group); the top is the sum of ``2(N-1)`` over ``unit_den``. Text
    columns are taken from each contestant's first board. With ``scale_to_full``
    score and top are multiplied by (boards the fullest contestant of its ranking group
    played) / (boards played).
    """
    n = scored.height
    keep = scored.select(pl.col("kind") != "not_played").to_series().fill_null(False).to_numpy()
    if not keep.any():
        return None
    every = bool(keep.all())
    section, n_sections, _, _ = section_and_board_ids(scored)
    pairs, n_pairs = joint_codes([column(scored, "ns_pair"), column(scored, "ew_pair")])
    mitchell = scored.select(pl.col("movement") == "mitchell").to_series()
    mitchell = mitchell.fill_null(False).to_numpy()
    # Contestant key of each side: (section, pair, direction 0 Howell / 1 NS / 2 EW).
    space = 3 * n_pairs * n_sections
    if space >= LIMIT:
        raise ExactArithmeticOverflow("too many contestants to number")
    key_type = np.int32 if space < 2**31 else np.int64
    keys = []
    for side, pair in enumerate(pairs):
        key = pack([(pair, n_pairs), (section, n_sections)])[0].astype(key_type, copy=False)
        key *= key_type(3)
        key += mitchell * key_type(side + 1)
        keys.append(key)
    del pairs, key
    seen = np.zeros(space, dtype=bool) if space <= 8 * n + 1024 else None
    if seen is not None:
        for key in keys:
            seen[key if every else key[keep]] = True
        present = np.flatnonzero(seen)
    else:
        present = np.unique(np.concatenate([k if every else k[keep] for k in keys]))
    n_cont = len(present)
    # Contestant ids 0..n_cont-1 (rank of the key among the keys met); rows not played
    # get n_cont, a bin that is dropped.
    ids = []
    # the contestant each row names, even where its result does not count for it (a side
    # suspended from that round, Law 91A): its row of the standings is labelled from its own
    # rows, never from another contestant's
    named: list[np.ndarray] = []
    table = None
    if seen is not None:
        table = np.full(space, n_cont, dtype=np.int32)
        table[present] = np.arange(n_cont, dtype=np.int32)
        del seen
    for side, key in enumerate(keys):
        if table is not None:
            cid = np.take(table, key, out=key if key.dtype == np.int32 else None, mode="clip")
        else:
            cid = np.searchsorted(present, key).astype(np.int32)
        if not every:
            cid[~keep] = n_cont
        out = ("__ns_out", "__ew_out")[side]
        named.append(cid)
        if out in scored.columns:  # a suspended contestant's later results (Law 91A)
            named[side] = cid.copy()
            cid[scored[out].fill_null(False).to_numpy()] = n_cont
        ids.append(cid)
    del keys
    direction = present % 3
    field = compared_section(scored)
    if field is scored:
        field_of = present // (3 * n_pairs)  # the contestant's section
    else:
        # a session scored across the field: one ranking group per direction over all its
        # sections (Law 78A), each contestant still numbered in its own section
        row_field, _, _, _ = section_and_board_ids(field)
        field_of = np.zeros(n_cont + 1, dtype=np.int64)
        for cid in named:
            field_of[cid] = row_field
        field_of = field_of[:n_cont]
        del row_field
    rg, _ = dense_ids(field_of * 3 + direction)
    rg = np.r_[rg, 0].astype(np.int32)

    parts = []
    if prof.count == "displayed":
        # The rounded figures shown, as integers over 10**decimals.
        scale = 10**prof.mp_decimals
        for side, c in enumerate(("ns_mp", "ew_mp")):
            num = scored.select((pl.col(c) * scale).round(0).cast(pl.Int64)).to_series()
            missing = num.is_null().to_numpy() | ~keep
            den = np.where(missing, 0, scale) if missing.any() else np.full(n, scale)
            parts.append((ids[side], num.fill_null(0).to_numpy(), den))
    else:
        mp_den = column(scored, "mp_den").cast(pl.Int64)
        den_all = mp_den.fill_null(0).to_numpy()
        for side, c in enumerate(("ns_mp_num", "ew_mp_num")):
            num = column(scored, c).cast(pl.Int64)
            missing = (num.is_null() | mp_den.is_null()).to_numpy() | ~keep
            den = np.where(missing, 0, den_all) if missing.any() else den_all
            parts.append((ids[side], num.fill_null(0).to_numpy(), den))
    score_num, score_den = sum_fractions(parts, n_cont + 1, rg)
    del parts
    score_num, score_den = score_num[:n_cont], score_den[:n_cont]
    top = column(scored, "expected").cast(pl.Int64).fill_null(1).to_numpy() - 1
    top *= 2
    top_num = np.zeros(n_cont + 1, dtype=np.int64)
    boards = np.zeros(n_cont + 1, dtype=np.int64)
    first = np.full(n_cont + 1, 2 * n, dtype=np.int64)
    order = np.arange(n, dtype=np.int64)
    for side, cid in enumerate(ids):
        np.add.at(top_num, cid, top)
        boards += np.bincount(cid, minlength=n_cont + 1)
        if side:
            order += n
        np.minimum.at(first, named[side], order)
    del order, top, ids, named
    top_num, boards, first = top_num[:n_cont], boards[:n_cont], first[:n_cont]
    rg = rg[:n_cont]
    top_den = np.full(n_cont, prof.unit_den, dtype=np.int64)

    if prof.sitout == "scale_to_full":
        # the full session of a ranking group: the boards its fullest contestant played
        fullest = np.zeros(int(rg.max()) + 1, dtype=np.int64)
        np.maximum.at(fullest, rg, boards)
        full = fullest[rg]
        score_num, score_den = _reduced(score_num * full, score_den * boards)
        top_num, top_den = _reduced(top_num * full, top_den * boards)

    rep = pl.Series(first % n)
    text = scored.select(*_SIDE_COLS[:-1], "ns_pair", "ew_pair")[rep].with_columns(
        field["section"].gather(rep).alias("__field"),
        pl.Series("__ew", first >= n),
        pl.Series("dir_key", ["", "NS", "EW"], dtype=pl.Utf8).gather(pl.Series(direction)),
    )
    return text.select(
        "event_id",
        "session",
        "section",
        pl.when("__ew").then(pl.col("ew_pair")).otherwise(pl.col("ns_pair")).alias("contestant"),
        pl.when(pl.col("dir_key") != "").then(pl.col("dir_key")).alias("direction"),
        "dir_key",
        "session_date",
        "movement",
        "profile",
        "__field",
    ).with_columns(
        pl.Series("boards", boards, dtype=pl.UInt32),
        *_exact(score_num=score_num, score_den=score_den, top_num=top_num, top_den=top_den),
        pl.Series("__rg", rg, dtype=pl.Int64),
    )


def _exact(**columns: Sequence[int]) -> list[pl.Series]:
    """The exact numerators and denominators computed in Python, as ``Int64`` columns."""
    return [pl.Series(name, values, dtype=pl.Int64) for name, values in columns.items()]


def _with_penalties(totals: pl.DataFrame, penalties: pl.DataFrame | None) -> pl.DataFrame:
    """Deduct each contestant's penalties from its score (exactly); note any sanction."""
    if penalties is None or penalties.height == 0:
        return totals.with_columns(
            pl.lit(0, pl.Int64).alias("penalty_num"),
            pl.lit(1, pl.Int64).alias("penalty_den"),
            pl.lit(None, pl.Utf8).alias("sanction"),
        )
    keys = ["event_id", "session", "section", "contestant", "direction"]
    p = penalties.with_columns(pl.col("session").cast(pl.Int32))
    total = penalty_sum(p, keys)
    sanction = sanction_of(p, keys)
    t = (
        totals.with_columns(pl.col("session").cast(pl.Int32))
        .join(total, on=keys, how="left", nulls_equal=True)
        .join(sanction, on=keys, how="left", nulls_equal=True)
        .with_columns(pl.col("penalty_num").fill_null(0), pl.col("penalty_den").fill_null(1))
    )
    num = pl.col("score_num") * pl.col("penalty_den") - pl.col("penalty_num") * pl.col("score_den")
    den = pl.col("score_den") * pl.col("penalty_den")
    t = t.with_columns(num.alias("score_num"), den.alias("score_den"))
    return reduce(t, "score_num", "score_den")


def _fraction(df: pl.DataFrame, num: str, den: str) -> tuple[np.ndarray, np.ndarray]:
    """Numerators and denominators as ``Int64`` arrays (a null fraction gets denominator 0)."""
    missing = (df[num].is_null() | df[den].is_null()).to_numpy()
    n = df[num].cast(pl.Int64).fill_null(0).to_numpy()
    d = df[den].cast(pl.Int64).fill_null(0).to_numpy()
    return n, np.where(missing, 0, d)


def _reduced(num: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``num/den`` divided by their gcd (``den`` positive)."""
    g = np.gcd(num, den)
    g[g == 0] = 1
    return num // g, den // g


def event_standings(
    session_rows: pl.DataFrame,
    scored: pl.DataFrame,
    contestants: pl.DataFrame | None = None,
    *,
    profs: ProfileSet | None = None,
) -> pl.DataFrame:
    """Event standings from the session standings of all sessions of each event.

    ``scored`` (the events' scored results) is used only for head-to-head
    tie-breaks. An event is ranked under the profile of its first session.
    Session scores and tops are summed exactly per (event, section, direction,
    contestant), numbered with integers, one common denominator per ranking group.
    """
    profs = ProfileSet.ensure(profs)
    s = session_rows.filter(pl.col("scope") == "session")
    if s.height == 0:
        return pl.DataFrame(schema=STANDINGS_SCHEMA)
    at_imps = pl.col("unit").is_in(["IMP", "VP"]).fill_null(False) if "unit" in s.columns else None
    imp_part = None
    if at_imps is not None and s.select(at_imps.any()).item():
        imp_part = _imp_event(s.filter(at_imps), scored, profs=profs)
        s = s.filter(~at_imps)
        if s.height == 0:
            return _finish(imp_part, contestants)
    s = s.with_columns(pl.col("direction").fill_null("").alias("dir_key"))
    first_profile = s.sort("session").group_by("event_id").agg(pl.col("profile").first())
    s = s.drop("profile").join(first_profile, on="event_id")
    s = _with_field(s, scored)
    group = ["event_id", "__field", "dir_key"]
    keys = ["event_id", "section", "dir_key", "contestant"]
    parts = []
    for name in sorted(s["profile"].unique().to_list()):
        prof = profs[name]
        sp = missed_sessions(s.filter(pl.col("profile") == name), group, keys)
        cid, n_cont = group_ids(sp, keys)
        row_rg, _ = group_ids(sp, group)
        rg = np.zeros(n_cont, dtype=np.int64)
        rg[cid] = row_rg
        score_num, score_den = sum_fractions(
            [(cid, *_fraction(sp, "score_num", "score_den"))], n_cont, rg
        )
        top_num, top_den = sum_fractions([(cid, *_fraction(sp, "top_num", "top_den"))], n_cont, rg)
        if "penalty_num" not in sp.columns:
            sp = sp.with_columns(
                pl.lit(0, pl.Int64).alias("penalty_num"),
                pl.lit(1, pl.Int64).alias("penalty_den"),
                pl.lit(None, pl.Utf8).alias("sanction"),
            )
        pen_num, pen_den = sum_fractions(
            [(cid, *_fraction(sp, "penalty_num", "penalty_den"))], n_cont, rg
        )
        totals = (
            sp.with_columns(pl.Series("__c", cid))
            .group_by("__c")
            .agg(
                *(pl.col(k).first() for k in [*keys, "__field"]),
                *_over_sessions(),
                event_sanction(),
            )
            .sort("__c")
            .with_columns(
                *_exact(
                    score_num=score_num,
                    score_den=score_den,
                    penalty_num=pen_num,
                    penalty_den=pen_den,
                    top_num=top_num,
                    top_den=top_den,
                ),
                pl.Series("__rg", rg, dtype=pl.Int64),
                pl.lit("event").alias("scope"),
                pl.lit(None, pl.Int32).alias("session"),
            )
        )
        ranked = _rank(totals, ["__rg"], prof)

        def long(
            ranked: pl.DataFrame = ranked, prof: profiles.Profile = prof
        ) -> pl.DataFrame | None:
            events = ranked["event_id"].unique().to_list()
            sc = scored.filter(pl.col("event_id").is_in(events))
            if not sc.height:
                return None
            # every board of the event in the field the event is ranked in (a session
            # compared by section of an event scored across the field too)
            return _with_field(contestant_rows(sc, prof), sc)

        parts.append(
            _tiebreak(ranked, long, group, prof, ["section"]).with_columns(
                pl.lit("MP").alias("unit"), pl.lit("MP").alias("penalty_unit")
            )
        )
    if imp_part is not None:
        parts.append(imp_part)
    return _finish(pl.concat(parts, how="diagonal_relaxed"), contestants)


def _with_field(s: pl.DataFrame, scored: pl.DataFrame | None) -> pl.DataFrame:
    """Session standings ``s`` with ``__field``, the field each contestant is ranked in over
    the event: its section, or ``""`` for an event whose sessions are scored at matchpoints
    across the field (Law 78A: any of its sessions in ``scored`` with ``compare`` =
    ``field``; a session's own ranking is already across its field)."""
    across: list[str] = []
    if scored is not None and "compare" in scored.columns:
        wanted = ["event_id", "section", "compare", *(c for c in ("scoring",) if c in scored)]
        field = compared_section(scored.select(wanted))
        across = (
            field.filter((pl.col("section") == "") & (pl.col("compare") == "field"))["event_id"]
            .unique()
            .to_list()
        )
    return s.with_columns(
        pl.when(pl.col("event_id").is_in(across))
        .then(pl.lit("", pl.Utf8))
        .otherwise(pl.col("section"))
        .alias("__field")
    )


def missed_sessions(sp: pl.DataFrame, group: list[str], keys: list[str]) -> pl.DataFrame:
    """``sp`` (session standings of events at matchpoints) with a row for each session of
    its event a contestant did not play at all: no matchpoints, against that session's full
    top (the largest top of its ranking group, ``group``, in that session), no board played.

    Event totals add the sessions: a contestant's event percentage is its matchpoints over
    the tops of every session of the event, so a pair that played one session of two (a
    withdrawal, a late entry) is never ranked on that one session's percentage above the
    pairs that played both. Within a session a pair that sat out boards is still measured
    against the boards it played (Law 12C2(c)'s session, Neuberg for the field); a whole
    session missed is no sit-out. ``keys``: ``group`` and the contestant. One vectorised
    pass: the ranking groups' sessions crossed with their contestants, less those played.

    A contestant whose number a session gives in another section, where that session gives
    each number in one section only, moved sections rather than missed the session: it is
    not given the row (the event's contestants are numbered per section, so it stays two
    contestants of the event)."""
    if not sp.height or sp["session"].n_unique() < 2:
        return sp
    full = (
        sp.filter(pl.col("top_num").is_not_null() & (pl.col("top_den") > 0))
        .sort(pl.col("top_num") / pl.col("top_den"), descending=True, maintain_order=True)
        .unique([*group, "session"], keep="first", maintain_order=True)
        .select(*group, "session", "top_num", "top_den")
    )
    # the contestant's own session dates stay its event row's (the date of its last session)
    per_session = ("session", "top_num", "top_den")
    who = sp.unique(keys, keep="first", maintain_order=True)
    missing = (
        who.drop(per_session)
        .join(full, on=group, how="inner", nulls_equal=True)
        .join(sp.select(*keys, "session"), on=[*keys, "session"], how="anti", nulls_equal=True)
    )
    # a number that session gives in one section only, played there: the pair moved to
    # another section, it did not miss the session (it stays two contestants of the event,
    # one per section, as before: not padded)
    others = [c for c in keys if c != "section"]
    numbers = sp.group_by("session", *others).agg(pl.col("section").n_unique().alias("__n"))
    unique = numbers.group_by("session", "event_id").agg((pl.col("__n").max() == 1).alias("__u"))
    moved = numbers.join(unique.filter("__u"), on=["session", "event_id"], how="semi")
    missing = missing.join(
        moved.select("session", *others), on=["session", *others], how="anti", nulls_equal=True
    )
    if not missing.height:
        return sp
    zero = {"score_num": 0, "score_den": 1, "penalty_num": 0, "penalty_den": 1}
    missing = missing.with_columns(
        *(pl.lit(v, sp.schema[c]).alias(c) for c, v in zero.items() if c in sp.columns),
        pl.lit(0, sp.schema["boards"]).alias("boards"),
        *(pl.lit(None, sp.schema[c]).alias(c) for c in ("sanction",) if c in sp.columns),
    ).select(sp.columns)
    return pl.concat([sp, missing], how="vertical")


def _over_sessions() -> list[pl.Expr]:
    """A contestant's event row from its session rows: the boards it played in all, its
    direction, the date of its last session, the movement and profile (the first given)."""
    return [
        pl.col("boards").sum(),
        pl.col("direction").first(),
        pl.col("session_date").max(),
        pl.col("movement").first(),
        pl.col("profile").first(),
    ]


def event_sanction() -> pl.Expr:
    """A contestant disqualified or suspended in any session (Law 91) is not ranked in the
    event: the event standings show it apart with the sanction (a disqualification before a
    suspension; a suspension names its session)."""
    s = pl.col("sanction")
    dq = (s == "disqualified").any()
    suspended = s.fill_null("").str.starts_with("suspended")
    return (
        pl.when(dq)
        .then(pl.lit("disqualified"))
        .when(suspended.any())
        .then(
            pl.format(
                "{} in session {}",
                s.filter(suspended).first(),
                pl.col("session").filter(suspended).first(),
            )
        )
        .alias("sanction")
    )


def _imp_event(
    s: pl.DataFrame, scored: pl.DataFrame, *, profs: ProfileSet | None = None
) -> pl.DataFrame:
    """Event standings at IMPs or VPs: the sessions' scores summed exactly (carry-forward of
    VPs from session to session), ranked by score; teams' ties broken on all the event's
    matches."""
    profs = ProfileSet.ensure(profs)
    group = ["event_id", "section", "dir_key"]
    s = s.with_columns(pl.col("direction").fill_null("").alias("dir_key"))
    first_profile = s.sort("session").group_by("event_id").agg(pl.col("profile").first())
    s = s.drop("profile").join(first_profile, on="event_id")
    keys = [*group, "contestant"]
    totals = sum_by(
        s,
        "score_num",
        "score_den",
        keys,
        group,
        aggs=[
            *_over_sessions(),
            pl.col("unit").first(),
            pl.col("penalty_unit").first(),
            event_sanction(),
        ],
    )
    pens = sum_by(s, "penalty_num", "penalty_den", keys, group)
    totals = totals.join(pens, on=keys, how="left").with_columns(
        pl.lit("event").alias("scope"), pl.lit(None, pl.Int32).alias("session")
    )
    if "vp_penalty_num" in s.columns:
        vp = s.filter(pl.col("vp_penalty_num").is_not_null())
        if vp.height:
            vps = sum_by(vp, "vp_penalty_num", "vp_penalty_den", keys, group)
            totals = totals.join(vps, on=keys, how="left")
    ms = None
    teams = scored.filter(pl.col("form") == "teams") if "form" in scored.columns else None
    if teams is not None and teams.height:
        ms = matches(
            teams.filter(pl.col("event_id").is_in(totals["event_id"].unique().to_list())),
            profs=profs,
        )
        won = (
            team_sides(ms)
            .group_by("event_id", "contestant")
            .agg(
                (pl.col("won") * TEAMS_DEN).round(0).cast(pl.Int64).sum().alias("__won"),
                (pl.col("lost") * TEAMS_DEN).round(0).cast(pl.Int64).sum().alias("__lost"),
            )
        )
        totals = totals.join(won, on=["event_id", "contestant"], how="left")
    return rank_by_score(totals, group, ms, profs=profs)


def _rank(totals: pl.DataFrame, group: list[str], prof: profiles.Profile) -> pl.DataFrame:
    """Percentage = score / top; exact places within ``group``.

    A sanctioned contestant (suspended, disqualified: Law 91) takes no place and the
    others are ranked without it; under ``penalties.sanctioned = "excluded"`` it is left
    out of the standings altogether.
    """
    if "sanction" not in totals.columns:
        totals = totals.with_columns(pl.lit(None, pl.Utf8).alias("sanction"))
    sanctioned = totals.filter(pl.col("sanction").is_not_null())
    if sanctioned.height:
        ranked = _rank(totals.filter(pl.col("sanction").is_null()), group, prof)
        if prof.sanctioned == "excluded":
            return ranked
        unranked = _rank(sanctioned.drop("sanction"), group, prof).with_columns(
            pl.col("sanction").fill_null(pl.lit(None, pl.Utf8)),
            pl.lit(None, pl.UInt32).alias("rank"),
            pl.lit(False).alias("tied"),
        )
        unranked = unranked.drop("sanction").join(
            sanctioned.select(
                *[
                    c
                    for c in ("event_id", "session", "section", "contestant", "direction")
                    if c in sanctioned.columns
                ],
                "sanction",
            ),
            on=[
                c
                for c in ("event_id", "session", "section", "contestant", "direction")
                if c in sanctioned.columns
            ],
            how="left",
            nulls_equal=True,
        )
        return pl.concat([ranked, unranked.select(ranked.columns)], how="vertical_relaxed")
    t = totals.with_columns(
        # A contestant whose boards all had a single result (top 0) had nothing to be compared
        # with: neither above nor below average, 50 %.
        pl.when(pl.col("top_num") == 0)
        .then(pl.lit(50, pl.Int64))
        .otherwise(pl.col("score_num") * pl.col("top_den") * 100)
        .alias("__pnum"),
        pl.when(pl.col("top_num") == 0)
        .then(pl.lit(1, pl.Int64))
        .otherwise(pl.col("score_den") * pl.col("top_num"))
        .alias("__pden"),
    )
    t = exact_rank(t, "__pnum", "__pden", group)
    pdec, tdec = prof.percentage_decimals, prof.total_decimals
    mode = prof.percentage_rounding
    # A contestant that played no board (suspended from the first round, Law 91A) has no
    # percentage: nothing it did was scored, so it was not "average" either.
    played = pl.col("boards") > 0 if "boards" in t.columns else pl.lit(True)
    return t.with_columns(
        to_float(pl.col("score_num"), pl.col("score_den")).alias("score"),
        to_float(pl.col("top_num"), pl.col("top_den")).alias("top"),
        pl.when(played).then(to_float(pl.col("__pnum"), pl.col("__pden"))).alias("percentage"),
        shown(round_expr(pl.col("score_num"), pl.col("score_den"), tdec, mode), tdec).alias(
            "score_display"
        ),
        pl.when(played)
        .then(shown(round_expr(pl.col("__pnum"), pl.col("__pden"), pdec, mode), pdec))
        .alias("percentage_display"),
        pl.lit(None, pl.Utf8).alias("tiebreak"),
        to_float(pl.col("penalty_num").fill_null(0), pl.col("penalty_den").fill_null(1)).alias(
            "penalties"
        ),
    )


def _tiebreak(
    ranked: pl.DataFrame,
    long: Callable[[], pl.DataFrame | None],
    group: list[str],
    prof: profiles.Profile,
    ident: Sequence[str] = (),
) -> pl.DataFrame:
    """Break exact ties head to head when the profile says so.

    ``group``: the ranking group's columns; ``ident``: the columns that with ``contestant``
    name a contestant within it (``section``, where a field spans sections: the opponent at
    a table is of the table's section).

    Head to head: among contestants tied on percentage, each one's matchpoints
    on the boards it played against another member of the tied set. The set
    is ordered by that figure (exact); the ``tiebreak`` column shows
    ``2 x (members it beat) + (members it equalled)`` — for two pairs ``2``/``0``,
    or ``1``/``1`` when the head-to-head is level, in which case they stay tied.
    ``long`` gives the rows of :func:`contestant_rows` (called only if needed).
    """
    if prof.tiebreak != "head_to_head" or not ranked["tied"].any():
        return ranked
    long = long()  # the contestant-board rows, built only when a tie is to be broken
    if long is None:
        return ranked
    ident = [c for c in ident if c not in group]
    who = [*group, *ident, "contestant"]
    tied = ranked.filter(pl.col("tied")).select(
        *who,
        "rank",
        pl.struct("__pnum", "__pden").rank("dense").over(group).alias("__set"),
    )
    me = long.join(tied, on=who, how="inner")
    opp = tied.rename({"contestant": "opponent", "rank": "__orank", "__set": "__oset"})
    h2h = me.join(opp, on=[*group, *ident, "opponent"], how="inner").filter(
        pl.col("__set") == pl.col("__oset")
    )
    if h2h.height == 0:
        return ranked
    sums = sum_by(h2h, "num", "den", [*group, "__set", *ident, "contestant"], [*group, "__set"])
    sets = tied.join(sums, on=[*group, "__set", *ident, "contestant"], how="left", nulls_equal=True)
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
        sets.select(*who, "__tb", "__newrank", "__stilltied"),
        on=who,
        how="left",
        nulls_equal=True,
    )
    return out.with_columns(
        pl.coalesce("__newrank", "rank").alias("rank"),
        pl.coalesce("__stilltied", "tied").alias("tied"),
        pl.coalesce("__tb", "tiebreak").alias("tiebreak"),
    ).drop("__tb", "__newrank", "__stilltied")


def _names(df: pl.DataFrame, contestants: pl.DataFrame) -> pl.Series:
    """Each standings row's names from ``contestants``: the contestant of its section (a
    row of ``contestants`` naming the section) before one of any section, and in a Mitchell
    the contestant of its direction before one listed without direction."""
    c = contestants.filter(pl.col("names").is_not_null())
    if "section" not in c.columns:
        c = c.with_columns(pl.lit(None, pl.Utf8).alias("section"))
    c = c.with_columns(pl.col("section").cast(pl.Utf8))
    out = df.select("event_id", "section", "contestant", "direction").with_row_index("__i")
    candidates = []
    for by_section in (True, False):
        pool = c.filter(pl.col("section").is_not_null() == by_section)
        keys = ["event_id", "section"] if by_section else ["event_id"]
        exact = pool.filter(pl.col("direction").is_not_null()).unique(
            [*keys, "contestant", "direction"], keep="first", maintain_order=True
        )
        undirected = pool.filter(pl.col("direction").is_null()).unique(
            [*keys, "contestant"], keep="first", maintain_order=True
        )
        anydir = pool.unique([*keys, "contestant"], keep="first", maintain_order=True)
        j = (
            out.join(
                exact.select(*keys, "contestant", "direction", pl.col("names").alias("__e")),
                on=[*keys, "contestant", "direction"],
                how="left",
            )
            .join(
                undirected.select(*keys, "contestant", pl.col("names").alias("__u")),
                on=[*keys, "contestant"],
                how="left",
            )
            .join(
                anydir.select(*keys, "contestant", pl.col("names").alias("__a")),
                on=[*keys, "contestant"],
                how="left",
            )
            .sort("__i")
        )
        candidates.append(
            j.select(
                pl.coalesce(
                    "__e", "__u", pl.when(pl.col("direction").is_null()).then(pl.col("__a"))
                )
            ).to_series()
        )
    return pl.select(pl.coalesce(*candidates).alias("names")).to_series()


def _finish(df: pl.DataFrame, contestants: pl.DataFrame | None) -> pl.DataFrame:
    """Attach names and cast to :data:`STANDINGS_SCHEMA`."""
    df = df.with_columns(pl.lit(None, pl.Utf8).alias("names"))
    for col in ("version", "status", "final_at"):
        if col not in df.columns:
            df = df.with_columns(pl.lit(None, STANDINGS_SCHEMA[col]).alias(col))
    for col, value in (("penalty_num", 0), ("penalty_den", 1)):
        if col not in df.columns:
            df = df.with_columns(pl.lit(value, pl.Int64).alias(col))
    if "penalty_unit" not in df.columns:
        df = df.with_columns(pl.col("unit").alias("penalty_unit"))
    for col in ("vp_penalty_num", "vp_penalty_den"):
        if col not in df.columns:
            df = df.with_columns(pl.lit(None, pl.Int64).alias(col))
    df = df.with_columns(
        to_float(pl.col("vp_penalty_num"), pl.col("vp_penalty_den")).alias("vp_penalties")
    )
    if "sanction" not in df.columns:
        df = df.with_columns(pl.lit(None, pl.Utf8).alias("sanction"))
    if contestants is not None and contestants.height:
        df = df.drop("names").with_columns(_names(df, contestants).alias("names"))
    return df.select([pl.col(c).cast(t) for c, t in STANDINGS_SCHEMA.items()]).sort(
        "event_id",
        "scope",
        "session",
        "section",
        "direction",
        "rank",
        "contestant",
        nulls_last=True,
    )
