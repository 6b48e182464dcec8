"""``traveller bench``: throughput and peak memory of validation, scoring and standings.

It generates ``N`` table results as many club sessions
(:func:`pipelines.generate.generate_results_frame`), then times each stage of
the engine exactly as the pipeline runs it — no Dagster or DuckDB in the way:
validation (types, Law 77), scoring (matchpoints, factoring), standings
(session and event, exact ranks). Throughput is reported for scoring +
standings together (the figure the project targets: 1,000,000 results/s) and
for validation; peak memory is the process's peak resident set size.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from pipelines.formats.model import RESULT_COLUMNS
from pipelines.generate import generate_results_frame
from pipelines.scoring.events import EVENTS_SCHEMA
from pipelines.scoring.score import score_results
from pipelines.scoring.standings import event_standings, session_standings
from pipelines.scoring.validate import validate_results


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass
class BenchReport:
    """Timings (seconds) and sizes of one benchmark run."""

    results: int
    boards: int = 0
    standings: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    peak_mb: float = 0.0

    def rate(self, *stages: str) -> float:
        """Results per second through ``stages`` together."""
        return self.results / sum(self.seconds[s] for s in stages)

    def lines(self) -> list[str]:
        """The report as printed by the command."""
        return [
            f"results              {self.results:,}",
            f"boards               {self.boards:,}",
            f"standings rows       {self.standings:,}",
            *(f"{k:<20} {v:.3f} s" for k, v in self.seconds.items()),
            f"validation           {self.rate('validate'):,.0f} results/s",
            f"scoring + standings  {self.rate('score', 'standings'):,.0f} results/s",
            f"peak memory          {self.peak_mb:,.0f} MB",
        ]


def canonical(frame: pl.DataFrame) -> pl.DataFrame:
    """A generated frame as the readers hand rows to validation (text, with lineage)."""
    return frame.with_columns(
        pl.lit("bench").alias("file"),
        pl.lit("").alias("location"),
        pl.lit("bench").alias("format"),
        pl.lit("2026-11-02").alias("session_date"),
        *(pl.lit(None, pl.Utf8).alias(c) for c in ("round", "table", "source_ns_mp",
                                                    "source_ew_mp")),
        *(pl.col(c).cast(pl.Utf8) for c in ("session", "board", "tricks")),
    ).select(RESULT_COLUMNS)


def run_bench(n: int, seed: int = 0, progress: Callable[[str], None] = print) -> BenchReport:
    """Generate ``n`` results and time validation, scoring and standings."""
    report = BenchReport(results=n)
    progress(f"[1/4] generating {n:,} table results")
    raw = canonical(generate_results_frame(n, seed))
    events = pl.DataFrame(schema=EVENTS_SCHEMA)
    progress("[2/4] validating (types, contracts, Law 77)")
    t = time.perf_counter()
    validated, _ = validate_results(raw, events)
    report.seconds["validate"] = time.perf_counter() - t
    del raw
    progress("[3/4] scoring (matchpoints, factoring, artificial scores)")
    t = time.perf_counter()
    scored = score_results(validated)
    report.seconds["score"] = time.perf_counter() - t
    del validated
    progress("[4/4] standings (session and event, exact ranks)")
    t = time.perf_counter()
    sessions = session_standings(scored)
    events_rows = event_standings(sessions, scored)
    report.seconds["standings"] = time.perf_counter() - t
    report.boards = scored.select("event_id", "session", "section", "board").unique().height
    report.standings = sessions.height + events_rows.height
    report.peak_mb = peak_rss_mb()
    return report
