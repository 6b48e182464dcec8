"""The audit's inputs read straight from a generated inbox, without the warehouse.

The false-alarm rate of the audit is measured over many generated seasons
(``tests/audit``); scoring each season through the whole pipeline would take minutes, and the
marts need only the directors' logs, the events and the number of boards played. This reads
them from the files :func:`pipelines.synth.inbox.generate_inbox` writes (``events.csv``,
``rulings.csv``, ``appeals.csv``, the results files) into :class:`~pipelines.audit.marts.
AuditInputs`. The logs are taken as written (the generator's rulings are all valid, which
``tests/test_generate.py`` checks through the Laws engine).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.audit.marts import AuditInputs


def _csv(path: Path) -> pl.DataFrame:
    return pl.read_csv(path, infer_schema=False)


def _time(col: str) -> pl.Expr:
    return pl.col(col).str.strptime(pl.Datetime("us"), "%Y-%m-%d %H:%M", strict=False)


def read_season(inbox: Path) -> AuditInputs:
    """The :class:`AuditInputs` of a generated inbox (see the module docstring)."""
    events = _csv(inbox / "events.csv").with_columns(pl.col("session").cast(pl.Int64))
    dates = events.select("event_id", "session", pl.col("date").alias("session_date"))
    # every results file scanned in one query (read in parallel, not one after another)
    results = pl.concat(
        [
            pl.scan_csv(p, infer_schema=False).select("event_id", "session", "score")
            for p in sorted(inbox.glob("results-*.csv"))
        ]
    ).collect()
    boards = (
        results.filter(pl.col("score").fill_null("") != "NP")
        .group_by(pl.col("event_id"), pl.col("session").cast(pl.Int64))
        .agg(pl.len().alias("boards_played"))
        .join(dates, on=["event_id", "session"], how="left")
    )
    rulings = (
        _csv(inbox / "rulings.csv")
        .with_columns(
            pl.col("session").cast(pl.Int64),
            pl.col("board").cast(pl.Int64),
            _time("ruled_at"),
        )
        .join(dates, on=["event_id", "session"], how="left")
    )
    appeals = _csv(inbox / "appeals.csv").with_columns(
        _time("decided_at"),
        (pl.col("deposit_retained") == "true").alias("deposit_retained"),
        (pl.col("without_merit") == "true").alias("without_merit"),
        pl.col("outcome").is_null().alias("pending"),
    )
    return AuditInputs(events=events, boards=boards, rulings=rulings, appeals=appeals)
