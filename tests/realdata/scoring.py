"""Score one real exported file through the engine exactly as the pipeline does."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import polars as pl

from pipelines.inbox import InboxSnapshot, scan
from pipelines.scoring.day import score_day
from pipelines.scoring.score import score_results
from pipelines.scoring.standings import session_standings
from pipelines.scoring.validate import validate_results
from pipelines.scoring.versions import DateResults
from tests.conftest import REALDATA, shared_file


def score_inbox_day(inbox: Path) -> tuple[DateResults, InboxSnapshot]:
    """Scan ``inbox`` and score it with :func:`score_day` as the pipeline does (every
    period over); the real files must read with nothing rejected."""
    snap = scan(inbox)
    day = score_day(
        snap.results,
        snap.rulings,
        snap.appeals,
        snap.events,
        now=datetime(2026, 11, 30),
        contestants=snap.contestants,
    )
    assert day.rejected.height == 0, day.rejected
    return day.dated, snap


@dataclass
class Scored:
    """The scored traveller lines, our standings, and the program's official standings."""

    lines: pl.DataFrame
    standings: pl.DataFrame
    official: pl.DataFrame

    def standings_vs_official(self) -> pl.DataFrame:
        """Our standings beside the official figures (no names: they are real people)."""
        ours = self.standings.select(
            "contestant",
            pl.col("direction").fill_null(""),
            "score_display",
            "percentage_display",
            "rank",
            "tiebreak",
        )
        off = self.official.select(
            "contestant",
            pl.col("direction").fill_null(""),
            pl.col("total").cast(pl.Float64).alias("official_total"),
            pl.col("percentage").cast(pl.Float64).alias("official_percentage"),
            pl.col("place").cast(pl.Int32).alias("official_place"),
            pl.col("tiebreak").alias("official_tiebreak"),
        )
        return ours.join(off, on=["contestant", "direction"], how="full", coalesce=True)


def score_file(
    name: str,
    tmp: Path,
    edit: dict[tuple[int, str, str], dict[str, str | None]] | None = None,
    howell_directions: bool = False,
    source: Path | None = None,
) -> Scored:
    """Copy real file ``name`` (or ``source``, a file a test made from one) into an inbox,
    read and score it.

    ``edit`` replaces canonical fields of given lines, keyed by (board, ns_pair, ew_pair):
    used to test explanations of the official figures. With ``howell_directions`` the
    official standings' directions are dropped (a one-field ranking lists pairs by the
    direction they started in, which is not part of a Howell contestant).
    """
    inbox = tmp / "inbox"
    inbox.mkdir(exist_ok=True)
    shutil.copy(source or shared_file(REALDATA / name), inbox / name)
    snap = scan(inbox)
    raw = snap.results
    for (board, ns, ew), fields in (edit or {}).items():
        hit = (
            (pl.col("board") == str(board)) & (pl.col("ns_pair") == ns) & (pl.col("ew_pair") == ew)
        )
        assert raw.filter(hit).height == 1, f"no single line board {board} {ns}-{ew}"
        raw = raw.with_columns(
            *(
                pl.when(hit).then(pl.lit(v, pl.Utf8)).otherwise(pl.col(k)).alias(k)
                for k, v in fields.items()
            )
        )
    validated, rejected = validate_results(raw, snap.events)
    assert rejected.height == 0, rejected
    scored = score_results(validated)
    official = snap.source_standings
    if howell_directions:
        official = official.with_columns(pl.lit(None, pl.Utf8).alias("direction"))
    return Scored(scored, session_standings(scored), official)
