"""What each stage of the nightly run does to the warehouse (no Dagster here).

Each function reads its inputs from the warehouse (or the inbox), calls the
engine, writes its slice in one transaction and returns a small summary that
the Dagster assets report as metadata. The checks return ``(passed, rows)``
where ``rows`` are the offending rows (empty when all is well).

Stage           writes                                         slice
--------------  ---------------------------------------------  ---------------------------
ingest          source_files, events, contestants,              whole tables; rejected rows
                source_standings, rejected_inputs (read)        of stage 'read'
build_raw       raw_results                                     one session date
validate        validated_results, rejected_inputs (validate)   one session date
score           scored_results                                  one session date
standings       standings                                       the date's sessions + the
                                                                events with a session that day
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import polars as pl

from pipelines import inbox as inbox_mod
from pipelines.scoring.score import score_results
from pipelines.scoring.standings import event_standings, session_standings
from pipelines.scoring.validate import validate_results
from pipelines.warehouse import Warehouse, Write, query, write


@dataclass
class Summary:
    """What a stage did: rows written per table and a few key figures."""

    written: dict[str, int] = field(default_factory=dict)
    figures: dict[str, object] = field(default_factory=dict)


def _day(session_date: str) -> dict[str, str]:
    return {"session_date": session_date}


def ingest(inbox: Path, wh: Warehouse, today: date | None = None) -> Summary:
    """Scan the whole inbox; rewrite the registry, reference tables and read-stage rejections."""
    snap = inbox_mod.scan(inbox, today)
    rejected = snap.rejected.with_columns(
        pl.lit("read").alias("stage"), pl.lit(None, pl.Utf8).alias("session_date")
    )
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("source_files", snap.files),
                Write("events", snap.events),
                Write("contestants", snap.contestants),
                Write("source_standings", snap.source_standings),
                Write("rejected_inputs", rejected, delete="rejected_inputs_read"),
                Write("input_warnings", snap.warnings),
            ],
        )
    return Summary(
        written,
        {
            "files": snap.files.height,
            "dates": snap.dates(),
            "rows_rejected": rejected.select("file", "location").unique().height,
            "warnings": snap.warnings.height,
        },
    )


def build_raw(inbox: Path, wh: Warehouse, session_date: str, today: date | None = None) -> Summary:
    """Read the files whose results belong to ``session_date``; write that partition."""
    with wh.connect() as conn:
        files = query(conn, "read/files_for_date", _day(session_date))["file"].to_list()
        events = query(conn, "read/events")
    rows = inbox_mod.dated_results_for(inbox, files, events, session_date, today)
    with wh.connect() as conn:
        written = write(conn, [Write("raw_results", rows, _day(session_date))])
    return Summary(written, {"files": len(files)})


def validate(wh: Warehouse, session_date: str) -> Summary:
    """Validate one date's raw results (Law 77 check included)."""
    with wh.connect() as conn:
        raw = query(conn, "read/raw_results_for_date", _day(session_date))
        events = query(conn, "read/events")
    validated, rejected = validate_results(raw, events)
    rejected = rejected.with_columns(
        pl.lit("validate").alias("stage"), pl.lit(session_date).alias("session_date")
    )
    with wh.connect() as conn:
        written = write(
            conn,
            [
                # Withdraw what was derived from the date's previous results first: scores and
                # standings come back only once this date's checks pass.
                Write("standings", pl.DataFrame(), _day(session_date), delete="standings_of_date"),
                Write("scored_results", pl.DataFrame(), _day(session_date)),
                Write("validated_results", validated, _day(session_date)),
                Write(
                    "rejected_inputs",
                    rejected,
                    _day(session_date),
                    delete="rejected_inputs_validate",
                ),
            ],
        )
    return Summary(
        written,
        {
            "rows_rejected": rejected.select("file", "location").unique().height,
            "score_disagreements": int((validated["score_agrees"] == False).sum()),  # noqa: E712
        },
    )


def score(wh: Warehouse, session_date: str) -> Summary:
    """Matchpoint one date's validated results under each event's profile."""
    with wh.connect() as conn:
        validated = query(conn, "read/validated_for_date", _day(session_date))
    scored = score_results(validated)
    with wh.connect() as conn:
        written = write(conn, [Write("scored_results", scored, _day(session_date))])
    factored = scored.filter(pl.col("factoring").is_in(["neuberg", "linear"]))
    return Summary(
        written,
        {
            "boards": scored.select("event_id", "session", "section", "board").unique().height,
            "boards_factored": factored.select("event_id", "session", "section", "board")
            .unique()
            .height,
            "artificial_scores": int((scored["kind"] == "artificial").sum()),
        },
    )


def standings(wh: Warehouse, session_date: str) -> Summary:
    """Session standings of the date; event standings of every event with a session that day."""
    with wh.connect() as conn:
        scored = query(conn, "read/scored_for_date", _day(session_date))
        contestants = query(conn, "read/contestants")
        events = sorted(scored["event_id"].unique().to_list())
        ids = {"event_ids": events}
        others = query(conn, "read/session_standings_for_events", ids).filter(
            pl.col("session_date") != session_date
        )
        all_scored = query(conn, "read/scored_for_events", ids)
    sessions = session_standings(scored, contestants)
    every_session = (
        pl.concat([others, sessions], how="diagonal_relaxed") if others.height else sessions
    )
    evs = event_standings(every_session, all_scored, contestants)
    rows = pl.concat([sessions, evs])
    with wh.connect() as conn:
        written = write(
            conn,
            [Write("standings", rows, {"session_date": session_date, "event_ids": events})],
        )
    return Summary(
        written,
        {"sessions": sessions.select("event_id", "session").unique().height, "events": len(events)},
    )


# ------------------------------------------------------------------------------------ checks


def check_read_accounting(wh: Warehouse) -> tuple[bool, pl.DataFrame]:
    """Every row of every file read is accepted, dated for a partition, or rejected."""
    with wh.connect() as conn:
        rows = query(conn, "checks/rows_accounted_read")
    return bool(rows["balanced"].all()), rows.filter(~pl.col("balanced"))


def check_date_accounting(wh: Warehouse, session_date: str) -> tuple[bool, pl.DataFrame]:
    """Every dated row of the date is validated or rejected."""
    with wh.connect() as conn:
        rows = query(conn, "checks/rows_accounted_date", _day(session_date))
    return bool(rows["balanced"].all()), rows.filter(~pl.col("balanced"))


def check_score_agreement(wh: Warehouse, session_date: str) -> tuple[bool, pl.DataFrame]:
    """No stated score disagrees with Law 77."""
    with wh.connect() as conn:
        rows = query(conn, "checks/score_disagreements", _day(session_date))
    return rows.height == 0, rows


def check_conservation(wh: Warehouse, session_date: str) -> tuple[bool, pl.DataFrame]:
    """Matchpoints are conserved on every board of the date."""
    with wh.connect() as conn:
        rows = query(conn, "checks/matchpoints_conserved", _day(session_date))
    return rows.height == 0, rows
