"""Score an inbox through the engine exactly as the pipeline does (no Dagster), for the
round-trip tests: read, validate, check rulings, score with the session rules, rank."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import polars as pl

from pipelines.inbox import scan
from pipelines.scoring.day import score_day


@dataclass
class Engine:
    """What the engine made of an inbox: results read, scored lines, newest standings."""

    snap: object
    validated: pl.DataFrame
    rejected: pl.DataFrame
    scored: pl.DataFrame
    standings: pl.DataFrame


def score_inbox(inbox: Path, now: datetime = datetime(2030, 1, 1)) -> Engine:
    """Read and score every date of ``inbox`` (each with its own rulings and appeals, as the
    pipeline's partitions do); newest version of every standing."""
    snap = scan(inbox)
    assert snap.results["session_date"].null_count() == 0  # every row is in one date's score
    days = []
    for date in snap.dates():
        on_day = pl.col("session_date") == date
        days.append(
            score_day(
                snap.results_for(date),
                snap.rulings.filter(on_day),
                snap.appeals.filter(on_day),
                snap.events,
                now=now,
                contestants=snap.contestants,
            )
        )

    def every(part: str) -> pl.DataFrame:
        return pl.concat([getattr(d, part) for d in days], how="diagonal_relaxed")

    return Engine(
        snap,
        every("validated"),
        every("rejected"),
        every("scored"),
        every("standings").filter(pl.col("status") != "superseded"),
    )


def as_published(engine: Engine) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The engine's output in the shape the writers take (sessions, standings, results)."""
    events = engine.snap.events  # type: ignore[attr-defined]
    sessions = events.with_columns(
        pl.col("session").cast(pl.Int32), pl.col("date").cast(pl.Utf8)
    ).join(
        engine.standings.select("event_id", "session").unique(),
        on=["event_id", "session"],
    )
    standings = engine.standings.with_columns(pl.lit("session").alias("scope"))
    return sessions, standings, engine.scored
