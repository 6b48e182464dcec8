"""``traveller bench``: throughput and peak memory of validation, scoring and standings.

It generates ``N`` table results as many club sessions
(:func:`pipelines.synth.pairs.generate_results_frame`), then runs the engine as the
pipeline does (:func:`pipelines.scoring.day.score_day`, no rulings) — no Dagster or DuckDB
in the way — and reports its timing of each step: validation (types, Law 77), scoring
(matchpoints, factoring, artificial scores and the session-percentage rule), standings
(session and event, exact ranks). Throughput is reported for scoring +
standings together (the figure the project targets: 1,000,000 results/s) and
for validation; peak memory is the peak resident set size of the process that
does all the work (generation included).

The measurement (:func:`measure`) runs in a fresh Python process
(``python -m pipelines.cli bench-kernel``, :func:`child`) started by :func:`run_bench` with Polars'
memory allocator configured by :data:`ALLOCATOR_ENV`. The allocator reads its
settings when the process starts, which is why a child process is needed
(the ``traveller`` command has imported Polars already). The child reports its
own ``ru_maxrss``: the peak of the one process that generated, validated,
scored and ranked everything (the parent only waits).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import polars as pl

from pipelines import ALLOCATOR_CONF
from pipelines.formats.model import RESULT_COLUMNS

#: Allocator settings of the measuring process. Polars allocates through jemalloc, which by
#: default keeps freed pages for about ten seconds for reuse; so a run of a few seconds
#: would hold on to the memory of every finished step. Here freed pages go back to the
#: system after 100 ms, by a background thread (off the timed path). The peak reported
#: is still the real peak resident size of the process; only the caching policy changes.
ALLOCATOR_ENV: dict[str, str] = {"_RJEM_MALLOC_CONF": ALLOCATOR_CONF}


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB: Linux's ``VmHWM`` (the peak of
    this program's own memory), else ``getrusage``'s ``ru_maxrss``. The two differ in a
    process started by another: ``ru_maxrss`` is kept across ``exec``, so it counts the
    memory the parent held when it forked (a benchmark that generated a million results
    would lend each run it starts its own size)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def reset_peak_rss() -> bool:
    """Start this process's peak resident set size (:func:`peak_rss_mb`) again from its
    present size: Linux's ``/proc/self/clear_refs`` (``5``, which resets ``VmHWM``). The
    peak of a part of a run is then read on its own (:class:`pipelines.publish.SharedPeak`).
    ``False`` where it cannot be done (another system, a kernel refusing it): the peak read
    after still counts what came before, never less."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        return False
    return True


@dataclass
class BenchReport:
    """Timings (seconds) and sizes of one benchmark run."""

    results: int
    boards: int = 0
    #: random deals analysed (double dummy and par, :func:`pipelines.deals.analyse`)
    deals: int = 0
    standings: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    peak_mb: float = 0.0
    allocators: str = ""

    def rate(self, *stages: str) -> float:
        """Results per second through ``stages`` together."""
        return self.results / sum(self.seconds[s] for s in stages)

    def deal_rate(self) -> float:
        """Deals per second through the double-dummy analysis and par."""
        return self.deals / self.seconds["double dummy"]

    def lines(self) -> list[str]:
        """The report as printed by the command."""
        return [
            f"results              {self.results:,}",
            f"boards               {self.boards:,}",
            f"standings rows       {self.standings:,}",
            *(f"{k:<20} {v:.3f} s" for k, v in self.seconds.items()),
            f"validation           {self.rate('validate'):,.0f} results/s",
            f"scoring + standings  {self.rate('score', 'standings'):,.0f} results/s",
            *(
                [f"double dummy + par   {self.deal_rate():,.1f} deals/s ({self.deals:,} deals)"]
                if self.deals
                else []
            ),
            f"peak memory          {self.peak_mb:,.0f} MB",
            *([f"allocators           {self.allocators}"] if self.allocators else []),
        ]


def canonical(frame: pl.DataFrame) -> pl.DataFrame:
    """A generated frame as the readers hand rows to validation (text, with lineage)."""
    return (
        frame.with_columns(
            pl.lit("bench").alias("file"),
            pl.lit("").alias("location"),
            pl.lit("bench").alias("format"),
            pl.lit("2026-11-02").alias("session_date"),
            *(pl.col(c).cast(pl.Utf8) for c in ("session", "board", "tricks")),
        )
        .with_columns(
            # Every other canonical column (round, table, source matchpoints ...) is empty.
            *(
                pl.lit(None, pl.Utf8).alias(c)
                for c in RESULT_COLUMNS
                if c not in frame.columns
                and c not in ("file", "location", "format", "session_date")
            ),
        )
        .select(RESULT_COLUMNS)
    )


def measure(
    n: int, seed: int = 0, progress: Callable[[str], None] = print, deals: int = 0
) -> BenchReport:
    """Generate ``n`` results and time validation, scoring and standings, in this process;
    then, with ``deals``, the double-dummy tricks and par of that many random deals.

    The engine runs as every caller runs it (:func:`pipelines.scoring.day.score_day`: no
    rulings here); its own timings of each step are reported, the event standings (every
    event's sessions added up) counted with the standings. The deals are shuffled packs
    (:func:`pipelines.synth.inbox.hand_record_rows`, seeded), analysed as the pipeline
    analyses a hand record's (:func:`pipelines.deals.analyse`: endplay's binding of DDS,
    ``CalcAllTables`` in batches, then par). ``peak_mb`` is this process's peak resident set
    size at the end.
    """
    from pipelines.scoring.day import score_day
    from pipelines.scoring.events import EVENTS_SCHEMA
    from pipelines.scoring.score import section_and_board_ids
    from pipelines.scoring.standings import event_standings
    from pipelines.synth.pairs import generate_results_frame

    report = BenchReport(results=n)
    events = pl.DataFrame(schema=EVENTS_SCHEMA)
    steps = 3 if deals else 2
    progress(f"[1/{steps}] generating {n:,} table results; validating, scoring, session standings")
    day = score_day(canonical(generate_results_frame(n, seed)), None, None, events)
    report.seconds["validate"] = day.seconds["validate"]
    report.seconds["score"] = day.seconds["rulings"] + day.seconds["score"]
    report.boards = section_and_board_ids(day.scored)[3]
    progress(f"[2/{steps}] event standings (exact ranks)")
    t = time.perf_counter()
    events_rows = event_standings(day.standings, day.scored)
    report.seconds["standings"] = day.seconds["standings"] + time.perf_counter() - t
    report.standings = day.standings.height + events_rows.height
    if deals:
        report.deals = deals
        report.seconds["double dummy"] = time_deals(deals, seed, progress)
    report.peak_mb = peak_rss_mb()
    return report


def time_deals(n: int, seed: int = 0, progress: Callable[[str], None] = print) -> float:
    """Seconds to analyse ``n`` random deals (double dummy and par), generation excluded."""
    import numpy as np

    from pipelines.deals import analyse
    from pipelines.formats.hands_csv import HANDS_CSV_HEADER
    from pipelines.synth.inbox import hand_record_rows

    progress(f"[3/3] double dummy and par of {n:,} random deals (endplay, DDS)")
    rows = hand_record_rows(np.random.default_rng([seed, 0x4444]), "bench", 1, [*range(1, n + 1)])
    frame = pl.DataFrame(rows, schema=list(HANDS_CSV_HEADER), orient="row")
    t = time.perf_counter()
    analysed = analyse(frame)
    seconds = time.perf_counter() - t
    assert analysed.height == frame.unique(["north", "east", "south", "west"]).height
    return seconds


def run_bench(
    n: int, seed: int = 0, progress: Callable[[str], None] = print, deals: int = 0
) -> BenchReport:
    """Generate ``n`` results and time validation, scoring and standings.

    The work runs in a child process with :data:`ALLOCATOR_ENV` (see the module
    docstring); its progress lines are passed to ``progress`` as they come.
    """
    cmd = [
        sys.executable, "-m", "pipelines.cli", "bench-kernel",
        "--results", str(n), "--seed", str(seed), "--deals", str(deals),
    ]  # fmt: skip
    env = {**os.environ, **ALLOCATOR_ENV}
    with subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as child:
        assert child.stderr is not None and child.stdout is not None
        errors = []
        for line in child.stderr:
            line = line.rstrip("\n")
            if line.startswith("["):
                progress(line)
            else:
                errors.append(line)
        out = child.stdout.read()
    if child.returncode != 0:
        raise RuntimeError("the benchmark process failed:\n" + "\n".join(errors))
    report = BenchReport(**json.loads(out))
    report.allocators = ", ".join(f"{k}={v}" for k, v in ALLOCATOR_ENV.items())
    return report


def child(n: int, seed: int = 0, deals: int = 0) -> None:
    """The measuring process (``traveller bench-kernel``, hidden): progress on stderr, the
    report as JSON on stdout."""
    report = measure(n, seed, progress=lambda m: print(m, file=sys.stderr, flush=True), deals=deals)
    print(json.dumps(asdict(report)))
