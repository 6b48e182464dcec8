"""Build sessions with rulings for the Laws-engine tests: canonical rows -> validated ->
rulings checked -> every version scored and ranked (the same functions the pipeline runs)."""

from __future__ import annotations

from datetime import datetime

import polars as pl

from pipelines.formats.model import RESULT_COLUMNS, frame
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.scoring.day import score_day
from pipelines.scoring.events import EVENTS_SCHEMA, with_defaults
from pipelines.scoring.rulings import RulingsResult, validate_rulings
from pipelines.scoring.validate import validate_results
from pipelines.scoring.versions import DateResults, score_newest, session_versions

DAY = "2026-11-02"
LATE = datetime(2026, 11, 30, 12, 0)


def session_events(
    profile: str = "wbf",
    laws: str = "2017",
    movement: str = "howell",
    published_at: str | None = "2026-11-02 22:30",
) -> pl.DataFrame:
    rows = {c: [None] for c in EVENTS_SCHEMA}
    rows.update(
        event_id=["E"],
        session=[1],
        date=[DAY],
        profile=[profile],
        laws=[laws],
        movement=[movement],
        published_at=[published_at],
    )
    return with_defaults(pl.DataFrame(rows, schema=EVENTS_SCHEMA))


def result(
    board: int, ns: str, ew: str, score: int | str, line: int, section: str | None = None
) -> dict:
    """A table result given by its NS score (PASS placeholder; the score is forced)."""
    return dict(
        section=section,
        file="r.csv",
        location=f"line {line}",
        event_id="E",
        session="1",
        board=str(board),
        ns_pair=ns,
        ew_pair=ew,
        score=str(score),
        contract=None if str(score).startswith("A") else "PASS",
        session_date=DAY,
    )


def validated(rows: list[dict], events: pl.DataFrame) -> pl.DataFrame:
    v, rejected = validate_results(frame(rows, RESULT_COLUMNS), events)
    assert rejected.height == 0, rejected
    forced = pl.Series(
        [int(r["score"]) if r["contract"] == "PASS" else None for r in rows], dtype=pl.Int64
    )
    return v.with_columns(pl.when(pl.col("kind") == "played").then(forced).alias("computed_score"))


def ruling(
    rid: str,
    kind: str,
    board: int | None = None,
    ns: str | None = None,
    ew: str | None = None,
    line: int = 2,
    **fields,
) -> dict:
    r = {c: None for c in RULING_COLUMNS}
    r.update(
        file="rulings.csv",
        location=f"line {line}",
        ruling_id=rid,
        event_id="E",
        session="1",
        kind=kind,
        board=str(board) if board else None,
        ns_pair=ns,
        ew_pair=ew,
        ruled_at="2026-11-02 20:00",
        session_date=DAY,
    )
    r.update(fields)
    return r


def appeal(aid: str, rid: str, outcome: str | None, line: int = 2, **fields) -> dict:
    a = {c: None for c in APPEAL_COLUMNS}
    a.update(
        file="appeals.csv",
        location=f"line {line}",
        appeal_id=aid,
        ruling_id=rid,
        outcome=outcome,
        decided_at="2026-11-03 10:00" if outcome else None,
        heard_by="committee",
        session_date=DAY,
        event_id="E",
        session="1",
    )
    a.update(fields)
    return a


def logs(
    rulings: list[dict], appeals: list[dict] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The ruling and appeal log rows as the inbox reads them."""
    rf = pl.DataFrame(
        rulings, schema={c: pl.Utf8 for c in (*RULING_COLUMNS, "session_date")}, orient="row"
    )
    schema = {c: pl.Utf8 for c in (*APPEAL_COLUMNS, "session_date", "event_id", "session")}
    return rf, pl.DataFrame(appeals or [], schema=schema, orient="row")


def checked(
    v: pl.DataFrame, events: pl.DataFrame, rulings: list[dict], appeals: list[dict] | None = None
) -> RulingsResult:
    return validate_rulings(*logs(rulings, appeals), v, events)


def scored_day(
    rows: list[dict],
    events: pl.DataFrame,
    rulings: list[dict] | None = None,
    appeals: list[dict] | None = None,
    now: datetime = LATE,
) -> DateResults:
    """Canonical rows and log rows through :func:`pipelines.scoring.day.score_day` (asserts
    every row and every ruling was accepted)."""
    day = score_day(frame(rows, RESULT_COLUMNS), *logs(rulings or [], appeals), events, now=now)
    assert day.rejected.height == 0, day.rejected.to_dicts()
    assert day.rulings.rejected.height == 0, day.rulings.rejected.to_dicts()
    return day.dated


def results_for_date(
    validated: pl.DataFrame, res: RulingsResult, events: pl.DataFrame, now: datetime = LATE
) -> DateResults:
    """Score one date whose results are validated and rulings checked already, as
    :func:`score_day` does after validating: the newest version's scored lines, then every
    version of every session."""
    scored, adjustments = score_newest(validated, res.rulings, res.appeals, None)
    standings, changes, decs = session_versions(
        scored, validated, res.rulings, res.appeals, events, None, now
    )
    return DateResults(scored, standings, changes, adjustments, decs)


def run(
    rows: list[dict],
    rulings: list[dict],
    appeals: list[dict] | None = None,
    events: pl.DataFrame | None = None,
    now: datetime = LATE,
) -> DateResults:
    """Score a session with rulings: every version (asserts every ruling was accepted)."""
    events = events if events is not None else session_events()
    v = validated(rows, events)
    res = checked(v, events, rulings, appeals)
    assert res.rejected.height == 0, res.rejected.to_dicts()
    return results_for_date(v, res, events, now)
