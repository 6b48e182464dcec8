"""Official results with the Laws applied: decisions, versions, changes and adjustments.

* **Version 1** of a session's standings is its results with every director's ruling as
  the director ruled it (score corrections aside).
* Each later **decision** — an appeal that changed a ruling (Laws 92, 93), or a score
  correction that applies (Law 79C: within the correction period, or approved after
  it) — makes a new version, in the order they were made. Every version is kept; the
  newest is official, the others are ``superseded``.
* The newest version is ``provisional`` until the correction period has ended and every
  appeal is decided, then ``final`` (:func:`pipelines.laws.corrections.standings_status`).
* For each new version, :func:`changes` records every contestant whose score, percentage
  or place changed, and why (the appeal or correction id).
* :func:`adjustments` lists, for the official version, one row per contestant per applied
  ruling: the board (none for a penalty), the score before and after, and the difference
  in matchpoints and in percentage points of the session.

An event's standings add up its sessions; an event's version k reflects its first k-1
decisions in time order, whichever session they were about.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

import polars as pl

from pipelines.laws.corrections import correction_deadline, standings_status
from pipelines.laws.penalties import matchpoint_deduction, parse_penalty
from pipelines.laws.vocabulary import OVERTURNED, PENALTY_KINDS, RulingKind
from pipelines.profiles import ProfileSet
from pipelines.scoring.adjust import apply_rulings, apply_session_rule, score_with_rulings
from pipelines.scoring.imp_forms import AWARD_COLUMNS, with_imp_awards
from pipelines.scoring.rulings import decide, periods, published_at
from pipelines.scoring.standings import (
    PENALTIES_SCHEMA,
    STANDINGS_SCHEMA,
    event_standings,
    session_standings,
)
from pipelines.tables import polars_schema

#: Columns of a recorded change between two versions of standings (``standings_changes``).
CHANGES_SCHEMA: dict[str, pl.DataType] = polars_schema("standings_changes")

#: Columns of an adjustment (one contestant, one applied ruling; the ``adjustments`` table).
ADJUSTMENTS_SCHEMA: dict[str, pl.DataType] = polars_schema("adjustments")
#: The columns of an adjustment as it is first recorded, in order (the changes come later).
_ADJUSTMENT_ROW: tuple[str, ...] = tuple(
    "event_id session ruling_id appeal_id laws kind board deal_round section session_date "
    "contestant direction role score_before score_after unit".split()
)


@dataclass(frozen=True)
class Decision:
    """A decision made after the results were published, which makes a new version."""

    time: str
    cause: str  # "appeal" | "correction"
    cause_id: str  # the appeal id, or the correction's ruling id
    ruling_id: str
    event_id: str
    session: int


def decisions(rulings: pl.DataFrame, appeals: pl.DataFrame) -> list[Decision]:
    """The decisions that make new versions, in the order they were made.

    An admissible appeal that changed its ruling (``changed``, ``changed_one_side``: new
    results, a penalty's new amount or its withdrawal), and a score correction that applies
    (Law 79C). Upheld, withdrawn and referred-back appeals change nothing, nor do appeals
    the Laws do not allow (late, Law 92B; against discipline, 93B3).
    """
    out = []
    kinds = dict(zip(rulings["ruling_id"], rulings["kind"], strict=True))
    applies = "applies" in appeals.columns
    for a in appeals.iter_rows(named=True):
        if applies and a["applies"] is False:
            continue
        if a["outcome"] in OVERTURNED and a["ruling_id"] in kinds:
            out.append(
                Decision(
                    a["decided_at"] or "",
                    "appeal",
                    a["appeal_id"],
                    a["ruling_id"],
                    a["event_id"],
                    a["session"],
                )
            )
    for r in rulings.iter_rows(named=True):
        if r["kind"] == RulingKind.SCORE_CORRECTION and r["applies"]:
            out.append(
                Decision(
                    r["ruled_at"] or r["session_date"] or "",
                    "correction",
                    r["ruling_id"],
                    r["ruling_id"],
                    r["event_id"],
                    r["session"],
                )
            )
    return sorted(out, key=lambda d: (d.time, d.cause_id))


def rulings_in_effect(
    rulings: pl.DataFrame, appeals: pl.DataFrame, applied: set[str]
) -> pl.DataFrame:
    """The rulings in effect once the decisions ``applied`` (their cause ids) were made.

    Each ruling carries what is in effect after each applied appeal in decision order
    (:func:`pipelines.scoring.rulings.decide`): its results (``ns_result``/``ew_result``),
    its ``kind`` — the kind those results make, since an appeal's decision replaces the
    director's whatever kind the ruling was (Law 93); the ruling's own kind is kept as
    ``ruled_kind`` — and a penalty's amount. A ruling another ``supersedes`` is never in
    effect. A late ruling (Laws 79C, 92B) is never in
    effect; a score correction is once applied; a penalty withdrawn on an applied appeal
    is not.
    """
    changes: dict[str, list[dict]] = {}
    for a in appeals.sort("decided_at", "appeal_id", nulls_last=True).iter_rows(named=True):
        if a["appeal_id"] in applied and a["outcome"] in OVERTURNED:
            changes.setdefault(a["ruling_id"], []).append(a)
    rows = []
    # a ruling another one supersedes (the same table and board) is kept, never in effect
    replaced = (
        set(rulings["supersedes"].drop_nulls().to_list())
        if "supersedes" in rulings.columns
        else set()
    )
    for r in rulings.sort("ruled_at", "ruling_id", nulls_last=True).iter_rows(named=True):
        if r["kind"] == RulingKind.SCORE_CORRECTION and r["ruling_id"] not in applied:
            continue
        if r.get("late") or r["ruling_id"] in replaced:
            continue
        d = decide(r, changes.get(r["ruling_id"], []))
        if not d.in_effect:
            continue
        rows.append(
            {
                **r,
                "ruled_kind": r["kind"],
                "kind": d.kind,
                "ns_result": d.ns_result,
                "ew_result": d.ew_result,
                "penalty": d.penalty,
                "appeal_id": d.appeal_id,
            }
        )
    schema = dict(rulings.schema) | {"appeal_id": pl.Utf8, "ruled_kind": pl.Utf8}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def penalties_frame(
    in_effect: pl.DataFrame, scored: pl.DataFrame, *, profs: ProfileSet | None = None
) -> pl.DataFrame:
    """The penalties in effect as matchpoint deductions (:data:`PENALTIES_SCHEMA`).

    ``25%`` is a quarter of the full board top of the contestant's session section
    (Law 90; scoring-rules.md section 8); a warning deducts nothing.
    """
    profs = ProfileSet.ensure(profs)
    pens = in_effect.filter(pl.col("kind").is_in(list(PENALTY_KINDS)))
    if pens.height == 0:
        return pl.DataFrame(schema=PENALTIES_SCHEMA)
    scoring = pl.col("scoring") if "scoring" in scored.columns else pl.lit("matchpoints")
    tops = (
        scored.group_by("event_id", "session", "section", "profile")
        .agg(pl.col("expected").max(), scoring.first().alias("scoring"))
        .iter_rows(named=True)
    )
    top_of = {
        (t["event_id"], t["session"], t["section"] or ""): (
            t["expected"],
            t["profile"],
            t["scoring"],
        )
        for t in tops
    }
    rows = []
    for p in pens.iter_rows(named=True):
        key = (p["event_id"], p["session"], p["section"] or "")
        expected, name, how = top_of.get(key, (1, None, None))
        prof = profs[name]
        if how in ("butler", "cross_imps", "imps"):
            # at IMP forms the amount is in IMPs or VPs, as the ruling or the profile says
            pen = parse_penalty(p["penalty"], prof.standard_imps)
            amount, unit = pen.amount, "MP" if pen.unit in ("%", "MP") else pen.unit
        else:
            top = Fraction(2 * (expected - 1), prof.unit_den)
            pen = parse_penalty(p["penalty"], prof.standard_penalty)
            amount, unit = matchpoint_deduction(pen, top), "MP"
        movement_dir = p["penalized_direction"]
        rnd = p.get("round")
        rnd = int(rnd) if rnd not in (None, "") and str(rnd).isdigit() else None
        sanction = pen.status
        if sanction == "suspended" and rnd is not None and rnd > 1:
            # Law 91A: suspended for part of the session, from that round on
            sanction = f"suspended from round {rnd}"
        rows.append(
            {
                "event_id": p["event_id"],
                "session": p["session"],
                "section": p["section"] or "",
                "contestant": p["penalized"],
                "direction": movement_dir,
                "penalty_num": amount.numerator,
                "penalty_den": amount.denominator,
                "sanction": sanction,
                "unit": unit,
                "round": rnd,
            }
        )
    return pl.DataFrame(rows, schema=PENALTIES_SCHEMA, orient="row")


def score_state(
    validated: pl.DataFrame,
    in_effect: pl.DataFrame,
    contestants: pl.DataFrame | None,
    standings: bool = True,
    *,
    profs: ProfileSet | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Scored results and session standings with the rulings ``in_effect`` applied (the
    standings ``None`` when not asked for)."""
    profs = ProfileSet.ensure(profs)
    rows, comps = apply_rulings(validated, in_effect)
    rows = with_imp_awards(rows, in_effect)  # Law 86D (2007) / 86B1: IMPs for a match board
    scored = apply_session_rule(score_with_rulings(rows, comps, profs=profs), profs=profs).drop(
        AWARD_COLUMNS, strict=False
    )
    if not standings:
        return scored, None
    penalties = penalties_frame(in_effect, scored, profs=profs)
    return scored, session_standings(scored, contestants, penalties, profs=profs)


@dataclass
class DateResults:
    """Everything official for one session date: the newest version's scored lines, every
    version's standings, the changes between them, the adjustments and the decisions."""

    scored: pl.DataFrame  # the newest version's board scores
    standings: pl.DataFrame  # every version of every session of the date
    changes: pl.DataFrame
    adjustments: pl.DataFrame
    decisions: list[Decision]


def score_newest(
    validated: pl.DataFrame,
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    contestants: pl.DataFrame | None,
    *,
    profs: ProfileSet | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The newest version's scored lines (every decision made, every ruling in effect applied)
    and its adjustments (:func:`_adjustments`: each contestant's score before and after each
    applied ruling). The board scores without any ruling are computed only when a ruling is
    in effect (without one there is no adjustment)."""
    profs = ProfileSet.ensure(profs)
    latest = latest_in_effect(rulings, appeals)
    scored, _ = score_state(validated, latest, contestants, standings=False, profs=profs)
    if latest.height == 0:
        return scored, pl.DataFrame(schema=ADJUSTMENTS_SCHEMA)
    base_scored, base_standings = score_state(validated, rulings.clear(), contestants, profs=profs)
    return scored, _adjustments(
        base_scored, base_standings, scored, latest, contestants, profs=profs
    )


def session_versions(
    scored: pl.DataFrame,
    validated: pl.DataFrame,
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    events: pl.DataFrame,
    contestants: pl.DataFrame | None,
    now: datetime,
    *,
    profs: ProfileSet | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame, list[Decision]]:
    """Every version of every session of the date, the changes between them and the decisions
    that made them, from the newest version's ``scored`` lines (:func:`score_newest`).

    The newest version's standings are ranked from ``scored`` as given (never scored again);
    only an older version (a session with decisions: version ``j`` reflects its first
    ``j - 1``) is scored again, with the rulings in effect then."""
    profs = ProfileSet.ensure(profs)
    decs = decisions(rulings, appeals)
    by_session: dict[tuple[str, int], list[Decision]] = {}
    for d in decs:
        by_session.setdefault((d.event_id, d.session), []).append(d)
    rounds = max((len(v) for v in by_session.values()), default=0)
    versions: list[pl.DataFrame] = []
    for j in range(rounds + 1):
        applied = {d.cause_id for ds in by_session.values() for d in ds[:j]}
        in_effect = rulings_in_effect(rulings, appeals, applied)
        if j == rounds:  # every decision made: the newest version, as scored
            standings = session_standings(
                scored, contestants, penalties_frame(in_effect, scored, profs=profs), profs=profs
            )
        else:
            _, standings = score_state(validated, in_effect, contestants, profs=profs)
        # A session with fewer decisions than j is unchanged since its last version.
        if j:
            due = pl.DataFrame(
                [(e, s) for (e, s), ds in by_session.items() if len(ds) >= j],
                schema={"event_id": pl.Utf8, "session": pl.Int32},
                orient="row",
            )
            standings = standings.join(due, on=["event_id", "session"], how="semi")
        versions.append(standings.with_columns(pl.lit(j + 1, pl.Int32).alias("version")))
    all_versions = (
        pl.concat(versions, how="diagonal_relaxed")
        if versions
        else pl.DataFrame(schema=STANDINGS_SCHEMA)
    )
    all_versions = _status(
        all_versions, appeals, events, now, latest_in_effect(rulings, appeals), profs=profs
    )
    return all_versions, _changes(all_versions, by_session, "session"), decs


def latest_in_effect(rulings: pl.DataFrame, appeals: pl.DataFrame) -> pl.DataFrame:
    """The rulings in effect after every decision (the newest version)."""
    return rulings_in_effect(rulings, appeals, {d.cause_id for d in decisions(rulings, appeals)})


def awaiting_approval(in_effect: pl.DataFrame) -> pl.DataFrame:
    """Per event session, the disqualifications in effect not yet approved by the
    Tournament Organizer (Law 91B: disqualification is subject to its approval): the
    standings stay provisional meanwhile."""
    if in_effect.height == 0 or "penalty" not in in_effect.columns:
        return pl.DataFrame(schema={"event_id": pl.Utf8, "session": pl.Int32, "__dq": pl.UInt32})
    return (
        in_effect.filter(
            (pl.col("kind") == RulingKind.DISCIPLINARY_PENALTY)
            & (pl.col("penalty").str.strip_chars().str.to_lowercase() == "disqualified")
            & ~pl.col("approved").fill_null(False)
        )
        .group_by("event_id", "session")
        .agg(pl.len().alias("__dq"))
    )


def _status(
    standings: pl.DataFrame,
    appeals: pl.DataFrame,
    events: pl.DataFrame,
    now: datetime,
    in_effect: pl.DataFrame | None = None,
    *,
    profs: ProfileSet | None = None,
) -> pl.DataFrame:
    """``superseded`` for older versions; the newest ``provisional`` or ``final``: final once
    the correction period (Law 79C) and the appeal period (Law 92B) are over, no admissible
    appeal is pending and every disqualification is approved (Law 91B)."""
    profs = ProfileSet.ensure(profs)
    if standings.height == 0:
        return standings
    latest = standings.group_by("event_id", "session").agg(
        pl.col("version").max().alias("__latest")
    )
    pending = (
        appeals.filter(pl.col("pending"))
        .group_by("event_id", "session")
        .agg(pl.len().alias("__pending"))
    )
    if in_effect is not None:
        pending = pl.concat(
            [pending, awaiting_approval(in_effect).rename({"__dq": "__pending"})],
            how="vertical_relaxed",
        )
    n_pending = {
        (r["event_id"], r["session"]): r["__pending"]
        for r in pending.group_by("event_id", "session")
        .agg(pl.col("__pending").sum())
        .iter_rows(named=True)
    }
    info = {(e["event_id"], e["session"]): e for e in events.iter_rows(named=True)}
    dates = {
        (r["event_id"], r["session"]): r["session_date"]
        for r in standings.select("event_id", "session", "session_date")
        .unique(["event_id", "session"])
        .iter_rows(named=True)
    }
    rows = []
    for k in latest.iter_rows(named=True):
        key = (k["event_id"], k["session"])
        e = info.get(key, {})
        published, minutes = published_at(e, dates[key]), max(periods(e, profs=profs))
        pending = n_pending.get(key, 0)
        status = standings_status(now, published, minutes, pending)
        # when time alone makes it final; a pending appeal or approval waits for an input
        final_at = None if pending else correction_deadline(published, minutes)
        rows.append(
            {
                "event_id": k["event_id"],
                "session": k["session"],
                "__status": status,
                "__final_at": final_at.strftime("%Y-%m-%d %H:%M:%S") if final_at else None,
            }
        )
    st = pl.DataFrame(
        rows,
        schema={
            "event_id": pl.Utf8,
            "session": pl.Int32,
            "__status": pl.Utf8,
            "__final_at": pl.Utf8,
        },
        orient="row",
    )
    return (
        standings.join(latest, on=["event_id", "session"], how="left")
        .join(st, on=["event_id", "session"], how="left")
        .with_columns(
            pl.when(pl.col("version") < pl.col("__latest"))
            .then(pl.lit("superseded"))
            .otherwise(pl.col("__status"))
            .alias("status"),
            pl.when(pl.col("version") < pl.col("__latest"))
            .then(pl.lit(None, pl.Utf8))
            .otherwise(pl.col("__final_at"))
            .alias("final_at"),
        )
        .drop("__latest", "__status", "__final_at")
    )


def _changes(
    standings: pl.DataFrame, by_key: dict[tuple, list[Decision]], scope: str
) -> pl.DataFrame:
    """Per version k >= 2: the contestants whose score, percentage or place changed."""
    out = []
    keys = ["event_id", "session"] if scope == "session" else ["event_id"]
    who = ["section", "contestant", "direction"]
    for key, ds in by_key.items():
        flt = pl.lit(True)
        for k, v in zip(keys, key if scope == "session" else (key,), strict=True):
            flt = flt & (pl.col(k) == v)
        rows = standings.filter(flt)
        for k, d in enumerate(ds, start=2):
            before = rows.filter(pl.col("version") == k - 1)
            after = rows.filter(pl.col("version") == k)
            if after.height == 0:
                continue
            j = after.join(
                before.select(*who, "score", "percentage", "rank"),
                on=who,
                how="full",
                suffix="_before",
                nulls_equal=True,
                coalesce=True,
            )
            j = j.filter(
                (pl.col("score") != pl.col("score_before"))
                | (pl.col("percentage") != pl.col("percentage_before"))
                | (pl.col("rank").fill_null(-1) != pl.col("rank_before").fill_null(-1))
                | pl.col("score").is_null()
                | pl.col("score_before").is_null()
            )
            out.append(
                j.select(
                    "event_id",
                    pl.lit(scope).alias("scope"),
                    pl.col("session")
                    if scope == "session"
                    else pl.lit(None, pl.Int32).alias("session"),
                    "session_date",
                    pl.lit(k, pl.Int32).alias("version"),
                    pl.lit(d.cause).alias("cause"),
                    pl.lit(d.cause_id).alias("cause_id"),
                    pl.lit(d.ruling_id).alias("ruling_id"),
                    *who,
                    pl.col("score_before"),
                    pl.col("score").alias("score_after"),
                    (pl.col("score") - pl.col("score_before")).alias("score_change"),
                    pl.col("percentage_before"),
                    pl.col("percentage").alias("percentage_after"),
                    pl.col("rank_before"),
                    pl.col("rank").alias("rank_after"),
                )
            )
    if not out:
        return pl.DataFrame(schema=CHANGES_SCHEMA)
    return pl.concat(out, how="diagonal_relaxed").select(
        [pl.col(c).cast(t) for c, t in CHANGES_SCHEMA.items()]
    )


def _adjustments(
    base_scored: pl.DataFrame,
    base_standings: pl.DataFrame,
    scored: pl.DataFrame,
    in_effect: pl.DataFrame,
    contestants: pl.DataFrame | None,
    *,
    profs: ProfileSet | None = None,
) -> pl.DataFrame:
    """One row per contestant per applied ruling of the newest version (module docstring).

    For a ruling about a board: every contestant whose matchpoints on that board differ
    from the board scored without any ruling (``role`` ``table`` for the table's two
    sides, ``field`` for the others, whose comparisons changed), and the table's sides
    even when unchanged. For a penalty: the penalised contestant's session score before
    and after. Percentage points are of the contestant's session top.
    """
    profs = ProfileSet.ensure(profs)
    del contestants
    if in_effect.height == 0:
        return pl.DataFrame(schema=ADJUSTMENTS_SCHEMA)
    side_cols = ["event_id", "session", "section", "deal_round", "board"]

    def sides(df: pl.DataFrame) -> pl.DataFrame:
        """One row per contestant per board: the pair, or in an individual each player."""
        if "form" not in df.columns:
            df = df.with_columns(
                pl.lit("pairs").alias("form"),
                *(pl.lit(None, pl.Utf8).alias(c) for c in ("north", "south", "east", "west")),
            )
        for c in ("ns_imps", "ew_imps"):
            if c not in df.columns:
                df = df.with_columns(pl.lit(None, pl.Float64).alias(c))
        parts = []
        individual = pl.col("form") == "individual"
        for s, pair, seats in (
            ("ns", "ns_pair", ("north", "south")),
            ("ew", "ew_pair", ("east", "west")),
        ):
            for seat in seats:
                who = pl.when(individual).then(pl.col(seat)).otherwise(pl.col(pair))
                # a pair's side is listed once; an individual's second player too
                source = df.filter(individual) if seat in ("south", "west") else df
                part = source.select(
                    *side_cols,
                    "session_date",
                    who.alias("contestant"),
                    pl.when(pl.col("movement") == "mitchell")
                    .then(pl.lit(s.upper()))
                    .alias("direction"),
                    # a board's matchpoints, or at IMP forms its IMPs
                    pl.coalesce(f"{s}_mp", f"{s}_imps").alias("mp"),
                    pl.when(pl.col(f"{s}_mp").is_null() & pl.col(f"{s}_imps").is_not_null())
                    .then(pl.lit("IMP"))
                    .otherwise(pl.lit("MP"))
                    .alias("unit"),
                    "ns_pair",
                    "ew_pair",
                )
                parts.append(part)
        return pl.concat(parts)

    before = sides(base_scored).rename({"mp": "before"}).drop("ns_pair", "ew_pair", "unit")
    after = sides(scored)
    j = after.join(
        before,
        on=[*side_cols, "session_date", "contestant", "direction"],
        how="left",
        nulls_equal=True,
    )
    who = ["event_id", "session", "section", "contestant", "direction"]
    tops = base_standings.select(*who, "top")
    rows = []
    board_rulings = in_effect.filter(
        pl.col("board").is_not_null() & (pl.col("kind") != RulingKind.SCORE_STANDS)
    )
    for r in board_rulings.iter_rows(named=True):
        on_board = j.filter(
            (pl.col("event_id") == r["event_id"])
            & (pl.col("session") == r["session"])
            & (pl.col("board") == r["board"])
            & (pl.col("deal_round") == (r.get("deal_round") or 0))
            & ((pl.col("section") == r["section"]) if r["section"] else pl.lit(True))
        )
        at_table = (pl.col("ns_pair") == r["ns_pair"]) & (pl.col("ew_pair") == r["ew_pair"])
        hit = on_board.filter(
            at_table | (pl.col("mp").fill_null(-1) != pl.col("before").fill_null(-1))
        ).with_columns(
            pl.when(at_table).then(pl.lit("table")).otherwise(pl.lit("field")).alias("role")
        )
        for h in hit.iter_rows(named=True):
            rows.append(
                {
                    **_common(r),
                    "board": r["board"],
                    "deal_round": h["deal_round"],
                    "section": h["section"],
                    "session_date": h["session_date"],
                    "contestant": h["contestant"],
                    "direction": h["direction"],
                    "role": h["role"],
                    "score_before": h["before"],
                    "score_after": h["mp"],
                    "unit": h["unit"],
                }
            )
    for r in in_effect.filter(pl.col("kind").is_in(list(PENALTY_KINDS))).iter_rows(named=True):
        rows.append(
            {
                **_common(r),
                "board": None,
                "deal_round": None,
                "section": r["section"] or "",
                "session_date": r["session_date"],
                "contestant": r["penalized"],
                "direction": r["penalized_direction"],
                "role": "penalized",
                "score_before": None,
                "score_after": None,
                "unit": None,
            }
        )
    if not rows:
        return pl.DataFrame(schema=ADJUSTMENTS_SCHEMA)
    adj = pl.DataFrame(
        rows,
        schema={k: ADJUSTMENTS_SCHEMA[k] for k in _ADJUSTMENT_ROW},
        orient="row",
    )
    adj = adj.join(tops, on=who, how="left", nulls_equal=True)
    pen = penalties_frame(in_effect, scored, profs=profs)
    if pen.height:
        amounts = pen.select(
            *who,
            (pl.col("penalty_num") / pl.col("penalty_den")).alias("__pen"),
            pl.col("unit").alias("__punit"),
        )
        unit = pl.col("unit") if "unit" in base_standings.columns else pl.lit("MP")
        pstand = base_standings.select(
            *who,
            pl.col("score").alias("__base"),
            unit.alias("__sunit"),
        )
        adj = adj.join(
            amounts.unique(who),
            on=who,
            how="left",
            nulls_equal=True,
        ).join(
            pstand,
            on=who,
            how="left",
            nulls_equal=True,
        )
        is_pen = pl.col("role") == "penalized"
        # the session score before and after, when the penalty is in the standings' unit
        # (an IMP penalty at teams comes off a match margin: only its IMPs are given)
        same = pl.col("__punit") == pl.col("__sunit")
        adj = adj.with_columns(
            pl.when(is_pen)
            .then(pl.when(same).then(pl.col("__base")))
            .otherwise(pl.col("score_before"))
            .alias("score_before"),
            pl.when(is_pen)
            .then(pl.when(same).then(pl.col("__base") - pl.col("__pen")))
            .otherwise(pl.col("score_after"))
            .alias("score_after"),
            pl.when(is_pen).then(pl.col("__punit")).otherwise(pl.col("unit")).alias("unit"),
            pl.when(is_pen).then(-pl.col("__pen")).alias("__pchange"),
        )
    else:
        adj = adj.with_columns(pl.lit(None, pl.Float64).alias("__pchange"))
    change = pl.coalesce(pl.col("score_after") - pl.col("score_before"), "__pchange")
    adj = adj.with_columns(
        change.alias("change"),
        pl.when(pl.col("unit").fill_null("MP") == "MP").then(change).alias("mp_change"),
    ).with_columns(
        pl.when((pl.col("top") > 0) & (pl.col("unit").fill_null("MP") == "MP"))
        .then(100 * pl.col("mp_change") / pl.col("top"))
        .alias("percentage_points")
    )
    return adj.select([pl.col(c).cast(t) for c, t in ADJUSTMENTS_SCHEMA.items()])


def _common(r: dict) -> dict:
    return {
        "event_id": r["event_id"],
        "session": r["session"],
        "ruling_id": r["ruling_id"],
        "appeal_id": r.get("appeal_id"),
        "laws": r["laws"],
        "kind": r["kind"],
    }


def event_versions(
    session_versions: pl.DataFrame,
    session_decisions: list[Decision],
    scored: pl.DataFrame,
    contestants: pl.DataFrame | None,
    *,
    profs: ProfileSet | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every version of each event's standings, and the changes between them.

    ``session_versions`` are all versions of every session of the events; event version
    ``k`` adds up, for each session, the version reflecting the event's first ``k-1``
    decisions. The newest event version is ``final`` when every session's is.
    """
    profs = ProfileSet.ensure(profs)
    out, changes = [], []
    by_event: dict[str, list[Decision]] = {}
    for d in sorted(session_decisions, key=lambda d: (d.time, d.cause_id)):
        by_event.setdefault(d.event_id, []).append(d)
    for (event,), sv in session_versions.group_by(["event_id"], maintain_order=True):
        ds = by_event.get(event, [])
        versions = []
        for k in range(len(ds) + 1):
            seen: dict[int, int] = {}
            for d in ds[:k]:
                seen[d.session] = seen.get(d.session, 0) + 1
            pick = []
            for (s,), rows in sv.group_by(["session"], maintain_order=True):
                newest = rows["version"].max()
                want = min(1 + seen.get(s, 0), newest)
                pick.append(rows.filter(pl.col("version") == want))
            ev = event_standings(
                pl.concat(pick, how="diagonal_relaxed"), scored, contestants, profs=profs
            )
            versions.append(ev.with_columns(pl.lit(k + 1, pl.Int32).alias("version")))
        every = pl.concat(versions, how="diagonal_relaxed")
        newest = (
            sv.group_by("session")
            .agg(pl.col("version").max().alias("__v"))
            .join(sv, left_on=["session", "__v"], right_on=["session", "version"])
        )
        final = newest["status"].eq("final").all()
        # final by time alone once every session is; never while one waits for an input
        final_at = (
            None
            if "final_at" not in newest.columns or newest["final_at"].null_count()
            else newest["final_at"].max()
        )
        last = len(ds) + 1
        every = every.with_columns(
            pl.when(pl.col("version") < last)
            .then(pl.lit("superseded"))
            .otherwise(pl.lit("final" if final else "provisional"))
            .alias("status"),
            pl.when(pl.col("version") < last)
            .then(pl.lit(None, pl.Utf8))
            .otherwise(pl.lit(final_at, pl.Utf8))
            .alias("final_at"),
        )
        out.append(every)
        changes.append(_changes(every, {event: ds}, "event"))
    if not out:
        return pl.DataFrame(schema=STANDINGS_SCHEMA), pl.DataFrame(schema=CHANGES_SCHEMA)
    return pl.concat(out, how="diagonal_relaxed"), pl.concat(changes, how="diagonal_relaxed")
