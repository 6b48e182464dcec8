"""Score an inbox through the engine exactly as the pipeline does (no Dagster), for the
round-trip tests: read, validate, check rulings, score with the session rules, rank."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import polars as pl

from pipelines.inbox import scan
from pipelines.scoring.rulings import validate_rulings
from pipelines.scoring.validate import validate_results
from pipelines.scoring.versions import results_for_date


@dataclass
class Engine:
    """What the engine made of an inbox: results read, scored lines, newest standings."""

    snap: object
    validated: pl.DataFrame
    rejected: pl.DataFrame
    scored: pl.DataFrame
    standings: pl.DataFrame


def score_inbox(inbox: Path, now: datetime = datetime(2030, 1, 1)) -> Engine:
    """Read and score every date of ``inbox``; newest version of every standing."""
    snap = scan(inbox)
    validated, rejected = validate_results(snap.results, snap.events)
    checked = validate_rulings(snap.rulings, snap.appeals, validated, snap.events)
    scored, standings = [], []
    for day in sorted(validated["session_date"].cast(pl.Utf8).unique().to_list()):
        v = validated.filter(pl.col("session_date").cast(pl.Utf8) == day)
        res = results_for_date(
            v, checked.rulings, checked.appeals, snap.events, snap.contestants, now
        )
        scored.append(res.scored)
        standings.append(res.standings.filter(pl.col("status") != "superseded"))
    return Engine(
        snap,
        validated,
        rejected,
        pl.concat(scored, how="diagonal_relaxed"),
        pl.concat(standings, how="diagonal_relaxed"),
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
