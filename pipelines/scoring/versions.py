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

from pipelines.batching import batches
from pipelines.laws.corrections import correction_deadline
from pipelines.laws.penalties import matchpoint_deduction, parse_penalty
from pipelines.laws.vocabulary import OVERTURNED, PENALTY_KINDS, RulingKind
from pipelines.profiles import ProfileSet
from pipelines.scoring.adjust import apply_rulings, apply_session_rule, score_with_rulings
from pipelines.scoring.imp_forms import AWARD_COLUMNS, with_imp_awards
from pipelines.scoring.rulings import decide, parse_time, periods, published_at
from pipelines.scoring.score import compared_section
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
    # a few rows each (decisions are rare): the frames are filtered first, and only what is
    # left is read row by row
    overturned = pl.col("outcome").is_in([str(o) for o in OVERTURNED]).fill_null(False)
    if "applies" in appeals.columns:  # an appeal the Laws do not allow (applies false)
        overturned = overturned & pl.col("applies").fill_null(True)
    ids = rulings["ruling_id"].unique().implode()
    cols = ("decided_at", "appeal_id", "ruling_id", "event_id", "session")
    made = appeals.filter(overturned & pl.col("ruling_id").is_in(ids).fill_null(False))
    for decided_at, appeal_id, ruling_id, event_id, session in made.select(cols).iter_rows():
        out.append(Decision(decided_at or "", "appeal", appeal_id, ruling_id, event_id, session))
    corrections = rulings.filter(
        (pl.col("kind") == str(RulingKind.SCORE_CORRECTION)).fill_null(False)
        & pl.col("applies").fill_null(False)
    )
    cols = ("ruled_at", "session_date", "ruling_id", "event_id", "session")
    for ruled_at, day, ruling_id, event_id, session in corrections.select(cols).iter_rows():
        out.append(
            Decision(ruled_at or day or "", "correction", ruling_id, ruling_id, event_id, session)
        )
    return sorted(out, key=lambda d: (d.time, d.cause_id))


def rulings_in_effect(
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    applied: set[str],
    replaced: set[str] | None = None,
) -> pl.DataFrame:
    """The rulings in effect once the decisions ``applied`` (their cause ids) were made.

    Each ruling carries what is in effect after each applied appeal in decision order
    (:func:`pipelines.scoring.rulings.decide`): its results (``ns_result``/``ew_result``),
    its ``kind`` — the kind those results make, since an appeal's decision replaces the
    director's whatever kind the ruling was (Law 93); the ruling's own kind is kept as
    ``ruled_kind`` — and a penalty's amount. A ruling another ``supersedes`` is never in
    effect. A late ruling (Laws 79C, 92B) is never in
    effect; a score correction is once applied; a penalty withdrawn on an applied appeal
    is not. ``replaced``: the rulings another supersedes, when ``rulings`` is a part of the
    log whose other rulings may supersede (default: those ``rulings`` names).
    """
    changes: dict[str, list[dict]] = {}
    made = appeals.filter(
        pl.col("appeal_id").is_in(list(applied)).fill_null(False)
        & pl.col("outcome").is_in([str(o) for o in OVERTURNED]).fill_null(False)
    )
    for a in made.sort("decided_at", "appeal_id", nulls_last=True).iter_rows(named=True):
        changes.setdefault(a["ruling_id"], []).append(a)
    # a ruling another one supersedes (the same table and board) is kept, never in effect
    if replaced is None:
        replaced = superseded(rulings)
    schema = dict(rulings.schema) | {"appeal_id": pl.Utf8, "ruled_kind": pl.Utf8}
    ruling_id = pl.col("ruling_id")
    waiting = (pl.col("kind") == str(RulingKind.SCORE_CORRECTION)).fill_null(False) & ~(
        ruling_id.is_in(list(applied)).fill_null(False)
    )
    out = ~waiting & ~ruling_id.is_in(list(replaced)).fill_null(False)
    if "late" in rulings.columns:  # a late ruling (Laws 79C, 92B) is never in effect
        out = out & ~pl.col("late").fill_null(False)
    kept = (
        rulings.sort("ruled_at", "ruling_id", nulls_last=True)
        .filter(out)
        .with_columns(pl.col("kind").alias("ruled_kind"), pl.lit(None, pl.Utf8).alias("appeal_id"))
        .with_row_index("__i")
    )
    if changes:  # the few rulings an applied appeal changed: as the appeals decided
        ruled = kept.filter(ruling_id.is_in(list(changes)).fill_null(False))
        decided = []
        for r in ruled.drop("ruled_kind", "appeal_id").iter_rows(named=True):
            d = decide(r, changes[r["ruling_id"]])
            decided.append(
                (r["__i"], d.kind, d.ns_result, d.ew_result, d.penalty, d.appeal_id, d.in_effect)
            )
        upd = pl.DataFrame(
            decided,
            schema={
                "__i": kept.schema["__i"],
                "__kind": pl.Utf8,
                "__ns": pl.Utf8,
                "__ew": pl.Utf8,
                "__pen": pl.Utf8,
                "__appeal": pl.Utf8,
                "__in": pl.Boolean,
            },
            orient="row",
        )
        changed = pl.col("__in").is_not_null()
        kept = (
            kept.join(upd, on="__i", how="left", maintain_order="left")
            .filter(pl.col("__in").fill_null(True))
            .with_columns(
                pl.when(changed).then(pl.col("__kind")).otherwise(pl.col("kind")).alias("kind"),
                *(
                    pl.when(changed).then(pl.col(new)).otherwise(pl.col(col)).alias(col)
                    for col, new in (
                        ("ns_result", "__ns"),
                        ("ew_result", "__ew"),
                        ("penalty", "__pen"),
                        ("appeal_id", "__appeal"),
                    )
                ),
            )
            .drop("__kind", "__ns", "__ew", "__pen", "__appeal", "__in")
        )
    return kept.select(pl.col(c).cast(t) for c, t in schema.items())


def superseded(rulings: pl.DataFrame) -> set[str]:
    """The rulings another of ``rulings`` supersedes (its ``supersedes``)."""
    if "supersedes" not in rulings.columns:
        return set()
    return set(rulings["supersedes"].drop_nulls().to_list())


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
    # a session is scored on its own (its boards, its session percentages): the sessions
    # without a ruling in effect have no adjustment, and need no scoring without rulings
    ruled = _sessions_of(latest)
    base_scored, base_standings = score_state(
        _of_sessions(validated, ruled), rulings.clear(), contestants, profs=profs
    )
    return scored, _adjustments(
        base_scored,
        base_standings,
        _of_sessions(scored, ruled),
        latest,
        contestants,
        profs=profs,
    )


def _sessions_of(frame: pl.DataFrame) -> pl.DataFrame:
    """The event sessions (``event_id``, ``session``) ``frame`` has rows of."""
    return frame.select("event_id", pl.col("session").cast(pl.Int64)).unique()


def _of_sessions(frame: pl.DataFrame, sessions: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``frame`` in the event ``sessions`` (:func:`_sessions_of`), in order."""
    return (
        frame.with_columns(pl.col("session").cast(pl.Int64).alias("__s"))
        .join(
            sessions.rename({"session": "__s"}),
            on=["event_id", "__s"],
            how="semi",
            maintain_order="left",
        )
        .drop("__s")
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
    # the newest version of every session: as scored, every decision made
    latest = latest_in_effect(rulings, appeals)
    newest = session_standings(
        scored, contestants, penalties_frame(latest, scored, profs=profs), profs=profs
    )
    made = pl.DataFrame(
        [(e, s, len(ds)) for (e, s), ds in by_session.items()],
        schema={"event_id": pl.Utf8, "session": pl.Int64, "__n": pl.Int32},
        orient="row",
    )
    versions: list[pl.DataFrame] = [
        newest.with_columns(pl.col("session").cast(pl.Int64).alias("__s"))
        .join(made.rename({"session": "__s"}), on=["event_id", "__s"], how="left")
        .with_columns((pl.col("__n").fill_null(0) + 1).cast(pl.Int32).alias("version"))
        .drop("__s", "__n")
    ]
    versions += _older_versions(
        validated, rulings, appeals, contestants, by_session, made, rounds, profs
    )
    all_versions = (
        pl.concat(versions, how="diagonal_relaxed")
        if versions
        else pl.DataFrame(schema=STANDINGS_SCHEMA)
    )
    all_versions = _status(all_versions, appeals, events, now, latest, profs=profs)
    return all_versions, _changes(all_versions, by_session, "session"), decs


#: What :func:`_older_versions` appends to an event id to tell a session's versions apart
#: while they are scored together (a control character no event id read holds).
_VERSION_MARK = "\x1f"


def _older_versions(
    validated: pl.DataFrame,
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    contestants: pl.DataFrame | None,
    by_session: dict[tuple[str, int], list[Decision]],
    made: pl.DataFrame,
    rounds: int,
    profs: ProfileSet,
) -> list[pl.DataFrame]:
    """The standings of every older version of the sessions with decisions (``made``: each
    session's number of decisions; ``rounds``: the most), version ``j + 1`` of a session
    with more than ``j`` decisions reflecting its first ``j``, scored with the rulings in
    effect then, each session on its own boards; one frame per ``j``.

    The versions are scored together (:func:`score_state`), as many at once as hold no more
    rows than the date's own: version ``j + 1`` of event ``E`` is scored as an event of its
    own, ``E`` marked with :data:`_VERSION_MARK` and ``j + 1`` — its results, the rulings
    then in effect and its contestants —, and the marks are taken off the standings. A
    session's standings depend on its own rows only (its boards, its contestants, its
    rulings), so each version's are those it would have scored alone, in the same order
    (the mark sorts before every character an id holds); an event id holding the mark
    itself has its versions scored one at a time."""
    if rounds == 0:
        return []
    replaced = superseded(rulings)
    parts: list[tuple[pl.DataFrame, pl.DataFrame]] = []
    for j in range(rounds):
        applied = {d.cause_id for ds in by_session.values() for d in ds[:j]}
        due = made.filter(pl.col("__n") > j).select("event_id", "session")
        # the rulings of the sessions due only (each ruling's effect is its own, with what
        # the whole log supersedes)
        in_effect = rulings_in_effect(_of_sessions(rulings, due), appeals, applied, replaced)
        parts.append((due, in_effect))
    rows = [_of_sessions(validated, due) for due, _ in parts]
    if made["event_id"].str.contains(_VERSION_MARK, literal=True).any():
        return [
            score_state(rows[j], in_effect, contestants, profs=profs)[1].with_columns(
                pl.lit(j + 1, pl.Int32).alias("version")
            )
            for j, (_, in_effect) in enumerate(parts)
        ]
    mine = None
    if contestants is not None:
        mine = contestants.filter(pl.col("event_id").is_in(made["event_id"].unique().implode()))
    out: list[pl.DataFrame] = []
    # at most as many rows at once as the date's own (those the newest version was scored
    # from): a first load of years holds no more than scoring one version did
    for js in batches(list(range(rounds)), lambda j: rows[j].height, max(validated.height, 1)):
        out += _scored_together(js, rows, [parts[j][1] for j in js], mine, profs)
    return out


def _scored_together(
    js: list[int],
    rows: list[pl.DataFrame],
    in_effect: list[pl.DataFrame],
    contestants: pl.DataFrame | None,
    profs: ProfileSet,
) -> list[pl.DataFrame]:
    """The standings of versions ``j + 1`` for ``j`` in ``js`` (:func:`_older_versions`):
    ``rows[j]`` the results of version ``j + 1``'s sessions, ``in_effect`` its rulings then
    in effect (in the order of ``js``); scored in one pass, one frame per version."""

    def marked(frame: pl.DataFrame, j: int) -> pl.DataFrame:
        return frame.with_columns(pl.col("event_id") + pl.lit(f"{_VERSION_MARK}{j + 1}"))

    people = None
    if contestants is not None:
        people = pl.concat([marked(contestants, j) for j in js])
    _, standings = score_state(
        pl.concat([marked(rows[j], j) for j in js], how="diagonal_relaxed"),
        pl.concat(
            [marked(ruled, j) for j, ruled in zip(js, in_effect, strict=True)],
            how="diagonal_relaxed",
        ),
        people,
        profs=profs,
    )
    split = standings.with_columns(
        pl.col("event_id").str.split_exact(_VERSION_MARK, 1).alias("__v")
    ).with_columns(
        pl.col("__v").struct.field("field_0").alias("event_id"),
        pl.col("__v").struct.field("field_1").cast(pl.Int32).alias("version"),
    )
    return [split.filter(pl.col("version") == j + 1).drop("__v") for j in js]


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
    # Law 92B: a ruling given after the official scores can be appealed until the appeal
    # period from the ruling is over (the rule the appeals are checked by, rulings.py)
    last_ruled: dict[tuple[str, int], datetime] = {}
    if in_effect is not None and "ruled_at" in in_effect.columns:
        for r in in_effect.select("event_id", "session", "ruled_at").iter_rows(named=True):
            t = parse_time(r["ruled_at"]) if isinstance(r["ruled_at"], str) else r["ruled_at"]
            key = (r["event_id"], r["session"])
            if t is not None and (key not in last_ruled or t > last_ruled[key]):
                last_ruled[key] = t
    rows = []
    for k in latest.iter_rows(named=True):
        key = (k["event_id"], k["session"])
        e = info.get(key, {})
        published = published_at(e, dates[key])
        correction, appeal = periods(e, profs=profs)
        start = max(published, last_ruled.get(key, published))
        deadline = max(
            correction_deadline(published, correction), correction_deadline(start, appeal)
        )
        pending = n_pending.get(key, 0)
        status = "provisional" if pending or now < deadline else "final"
        # when time alone makes it final; a pending appeal or approval waits for an input
        final_at = None if pending else deadline
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
    """Per version k >= 2 of each session (``scope`` ``session``, keyed by event and session)
    or event (keyed by event) with decisions: the contestants whose score, percentage or
    place changed from version k - 1, or who are in only one of the two, with the decision
    that made version k — every key and version in one join."""
    keys = ["event_id", "session"] if scope == "session" else ["event_id"]
    who = ["section", "contestant", "direction"]
    made = [
        (*(key if scope == "session" else (key,)), k, d.cause, d.cause_id, d.ruling_id)
        for key, ds in by_key.items()
        for k, d in enumerate(ds, start=2)
    ]
    if not made or standings.height == 0:
        return pl.DataFrame(schema=CHANGES_SCHEMA)
    dec = pl.DataFrame(
        made,
        schema={
            **{k: standings.schema[k] for k in keys},
            "version": pl.Int32,
            "cause": pl.Utf8,
            "cause_id": pl.Utf8,
            "ruling_id": pl.Utf8,
        },
        orient="row",
    )
    versions = [*keys, "version"]
    s = standings.with_columns(pl.col("version").cast(pl.Int32)).join(
        dec.select(keys).unique(), on=keys, how="semi"
    )
    after = s.join(dec.select(versions), on=versions, how="semi")
    before = (
        s.select(
            *keys,
            *who,
            (pl.col("version") + 1).alias("version"),
            pl.col("session_date").alias("__date_before"),
            pl.col("score").alias("score_before"),
            pl.col("percentage").alias("percentage_before"),
            pl.col("rank").alias("rank_before"),
        )
        # a version with no rows at all changed nothing that can be shown
        .join(after.select(versions).unique(), on=versions, how="semi")
    )
    j = (
        after.join(before, on=[*versions, *who], how="full", nulls_equal=True, coalesce=True)
        .join(dec, on=versions, how="left")
        .filter(
            (pl.col("score") != pl.col("score_before"))
            | (pl.col("percentage") != pl.col("percentage_before"))
            | (pl.col("rank").fill_null(-1) != pl.col("rank_before").fill_null(-1))
            | pl.col("score").is_null()
            | pl.col("score_before").is_null()
        )
    )
    return j.select(
        "event_id",
        pl.lit(scope).alias("scope"),
        pl.col("session") if scope == "session" else pl.lit(None, pl.Int32).alias("session"),
        pl.coalesce("session_date", "__date_before").alias("session_date"),
        "version",
        "cause",
        "cause_id",
        "ruling_id",
        *who,
        pl.col("score_before"),
        pl.col("score").alias("score_after"),
        (pl.col("score") - pl.col("score_before")).alias("score_change"),
        pl.col("percentage_before"),
        pl.col("percentage").alias("percentage_after"),
        pl.col("rank_before"),
        pl.col("rank").alias("rank_after"),
    ).select([pl.col(c).cast(t) for c, t in CHANGES_SCHEMA.items()])


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
        # the field each board is compared in: "" for a session scored across the field
        df = df.with_columns(compared_section(df)["section"].alias("__field"))
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
                    "__field",
                )
                parts.append(part)
        return pl.concat(parts)

    before = (
        sides(base_scored).rename({"mp": "before"}).drop("ns_pair", "ew_pair", "unit", "__field")
    )
    after = sides(scored)
    j = after.join(
        before,
        on=[*side_cols, "session_date", "contestant", "direction"],
        how="left",
        nulls_equal=True,
    )
    who = ["event_id", "session", "section", "contestant", "direction"]
    tops = base_standings.select(*who, "top")
    schema = {k: ADJUSTMENTS_SCHEMA[k] for k in _ADJUSTMENT_ROW}
    board_rulings = in_effect.filter(
        pl.col("board").is_not_null() & (pl.col("kind") != RulingKind.SCORE_STANDS)
    )
    # each ruling about a board against the contestants of that board (its section, or every
    # section when the ruling names none, or when the session is scored across the field):
    # the table's two sides, and in the field every contestant whose score on the board the
    # ruling changed
    ruled = board_rulings.with_row_index("__r").select(
        "__r",
        *(pl.col(c).alias(f"__{c}") for c in ("ruling_id", "appeal_id", "laws", "kind")),
        "event_id",
        "session",
        "board",
        pl.col("deal_round").fill_null(0).cast(pl.Int32).alias("__round"),
        pl.when(pl.col("section").fill_null("") != "").then(pl.col("section")).alias("__sec"),
        pl.col("ns_pair").alias("__ns"),
        pl.col("ew_pair").alias("__ew"),
    )
    on_board = j.join(
        ruled,
        on=["event_id", "session", "board"],
        how="inner",
    )
    same_section = pl.col("__sec").is_null() | (pl.col("section") == pl.col("__sec"))
    on_board = on_board.filter(
        (pl.col("deal_round").cast(pl.Int32) == pl.col("__round"))
        & (same_section | (pl.col("__field") == ""))
    )
    at_table = (
        same_section & (pl.col("ns_pair") == pl.col("__ns")) & (pl.col("ew_pair") == pl.col("__ew"))
    )
    hits = (
        on_board.filter(at_table | (pl.col("mp").fill_null(-1) != pl.col("before").fill_null(-1)))
        .sort("__r", maintain_order=True)
        .select(
            "event_id",
            "session",
            pl.col("__ruling_id").alias("ruling_id"),
            pl.col("__appeal_id").alias("appeal_id"),
            pl.col("__laws").alias("laws"),
            pl.col("__kind").alias("kind"),
            "board",
            "deal_round",
            "section",
            "session_date",
            "contestant",
            "direction",
            pl.when(at_table).then(pl.lit("table")).otherwise(pl.lit("field")).alias("role"),
            pl.col("before").alias("score_before"),
            pl.col("mp").alias("score_after"),
            "unit",
        )
    )
    penalized = in_effect.filter(pl.col("kind").is_in(list(PENALTY_KINDS))).select(
        "event_id",
        "session",
        "ruling_id",
        pl.col("appeal_id") if "appeal_id" in in_effect.columns else pl.lit(None, pl.Utf8),
        "laws",
        "kind",
        pl.lit(None).alias("board"),
        pl.lit(None).alias("deal_round"),
        pl.col("section").fill_null(""),
        "session_date",
        pl.col("penalized").alias("contestant"),
        pl.col("penalized_direction").alias("direction"),
        pl.lit("penalized").alias("role"),
        pl.lit(None).alias("score_before"),
        pl.lit(None).alias("score_after"),
        pl.lit(None).alias("unit"),
    )
    parts = [
        f.select([pl.col(c).cast(t) for c, t in schema.items()])
        for f in (hits, penalized)
        if f.height
    ]
    if not parts:
        return pl.DataFrame(schema=ADJUSTMENTS_SCHEMA)
    adj = pl.concat(parts)
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


#: Between an event's id and the number of one of its versions in the id that ranks that
#: version (:func:`event_versions`): a character no event id holds.
_VERSION_SEP = "\x1f"


def event_versions(
    session_versions: pl.DataFrame,
    session_decisions: list[Decision],
    scored: pl.DataFrame,
    contestants: pl.DataFrame | None,
    *,
    profs: ProfileSet | None = None,
    declared: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every version of each event's standings, and the changes between them.

    ``session_versions`` are all versions of every session of the events; event version
    ``k`` adds up, for each session, the version reflecting the event's first ``k-1``
    decisions. The newest event version is ``final`` when every session's is and every
    session the event states (``declared``: its ``event_id`` and ``session`` rows, as
    ``events.csv`` lists them) has standings: an event whose third session has no results
    yet — not played, or its file not sent — is ranked on the sessions it has and stays
    ``provisional``, with no time at which it becomes final (it waits for those results).

    Every version of every event is ranked in one call of
    :func:`~pipelines.scoring.standings.event_standings`: each version of an event with
    decisions is ranked as an event of its own (its id and its version number), with its
    scored lines and contestants, then given back its id; an event without decisions has one
    version, its sessions' first.
    """
    profs = ProfileSet.ensure(profs)
    empty = pl.DataFrame(schema=STANDINGS_SCHEMA), pl.DataFrame(schema=CHANGES_SCHEMA)
    sv = session_versions
    if sv.height == 0:
        return empty
    by_event: dict[str, list[Decision]] = {}
    for d in sorted(session_decisions, key=lambda d: (d.time, d.cause_id)):
        by_event.setdefault(d.event_id, []).append(d)
    events = sv["event_id"].unique(maintain_order=True).to_list()
    decided = [e for e in events if by_event.get(e)]
    # which version of each session each event version adds up: (event, version, session,
    # session version); an event without decisions adds up its sessions' first versions
    # each decided event's sessions with their newest version, in the order they come
    newest: dict[str, list[tuple[int, int]]] = {}
    for e, s, v in (
        sv.filter(pl.col("event_id").is_in(decided))
        .group_by("event_id", "session", maintain_order=True)
        .agg(pl.col("version").max())
        .iter_rows()
    ):
        newest.setdefault(e, []).append((s, v))
    picks = []
    for e in decided:
        ds = by_event[e]
        seen: dict[int, int] = {}
        for k in range(len(ds) + 1):
            if k:  # event version k + 1 reflects the event's first k decisions
                seen[ds[k - 1].session] = seen.get(ds[k - 1].session, 0) + 1
            for s, top in newest.get(e, ()):
                picks.append((e, k + 1, s, min(1 + seen.get(s, 0), top)))
    pick_schema = {
        "event_id": pl.Utf8,
        "__ev_version": pl.Int32,
        "session": sv.schema["session"],
        "version": pl.Int32,
    }
    chosen = pl.concat(
        [
            sv.filter(~pl.col("event_id").is_in(decided) & (pl.col("version") == 1)).with_columns(
                pl.lit(1, pl.Int32).alias("__ev_version")
            ),
            sv.with_columns(pl.col("version").cast(pl.Int32)).join(
                pl.DataFrame(picks, schema=pick_schema, orient="row"),
                on=["event_id", "session", "version"],
            ),
        ],
        how="diagonal_relaxed",
    )
    vid = pl.format(f"{{}}{_VERSION_SEP}{{}}", "event_id", "__ev_version")
    ids = chosen.select("event_id", "__ev_version").unique().with_columns(vid.alias("__vid"))

    def as_versions(frame: pl.DataFrame | None) -> pl.DataFrame | None:
        """``frame``'s rows once per version of their event, under that version's id."""
        if frame is None:
            return None
        return (
            frame.join(ids.select("event_id", "__vid"), on="event_id")
            .with_columns(pl.col("__vid").alias("event_id"))
            .drop("__vid")
        )

    ranked = event_standings(
        chosen.with_columns(vid.alias("event_id")).drop("__ev_version"),
        as_versions(scored),  # type: ignore[arg-type]
        as_versions(contestants),
        profs=profs,
    )
    every = ranked.join(ids, left_on="event_id", right_on="__vid", suffix="__e").with_columns(
        pl.col("event_id__e").alias("event_id"), pl.col("__ev_version").alias("version")
    )
    # the newest version is final when every session's newest is (by time alone once every
    # session is; never while one waits for an input)
    last = sv.group_by("event_id", "session").agg(pl.col("version").max().alias("version"))
    newest_rows = sv.join(last, on=["event_id", "session", "version"])
    has_final_at = "final_at" in newest_rows.columns
    state = newest_rows.group_by("event_id").agg(
        (pl.col("status") == "final").all().alias("__final"),
        (
            pl.when(pl.col("final_at").null_count() == 0).then(pl.col("final_at").max())
            if has_final_at
            else pl.lit(None, pl.Utf8)
        ).alias("__final_at"),
    )
    if declared is not None and declared.height:
        # an event a session of which it states has no standings is not over
        ranked_sessions = sv.select("event_id", pl.col("session").cast(pl.Int64)).unique()
        waiting = (
            declared.select("event_id", pl.col("session").cast(pl.Int64, strict=False))
            .drop_nulls()
            .unique()
            .join(ranked_sessions, on=["event_id", "session"], how="anti")
            .select("event_id")
            .unique()
            .with_columns(pl.lit(True).alias("__waiting"))
        )
        state = (
            state.join(waiting, on="event_id", how="left")
            .with_columns(
                (pl.col("__final") & pl.col("__waiting").is_null()).alias("__final"),
                pl.when(pl.col("__waiting").is_null())
                .then(pl.col("__final_at"))
                .otherwise(pl.lit(None))
                .alias("__final_at"),
            )
            .drop("__waiting")
        )
    versions_of = pl.DataFrame(
        {"event_id": events, "__last": [len(by_event.get(e, [])) + 1 for e in events]},
        schema={"event_id": pl.Utf8, "__last": pl.Int32},
    )
    every = (
        every.join(state, on="event_id", how="left")
        .join(versions_of, on="event_id", how="left")
        .with_columns(
            pl.when(pl.col("version") < pl.col("__last"))
            .then(pl.lit("superseded"))
            .when(pl.col("__final"))
            .then(pl.lit("final"))
            .otherwise(pl.lit("provisional"))
            .alias("status"),
            pl.when(pl.col("version") < pl.col("__last"))
            .then(pl.lit(None, pl.Utf8))
            .otherwise(pl.col("__final_at").cast(pl.Utf8))
            .alias("final_at"),
        )
        .select([pl.col(c).cast(t) for c, t in STANDINGS_SCHEMA.items()])
    )
    return every, _changes(every, {e: by_event[e] for e in decided}, "event")
