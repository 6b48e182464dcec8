"""The end-to-end benchmark: ``traveller run`` as a user runs it, stage by stage.

:mod:`pipelines.bench` times the scoring kernel alone. This module times the product:
a generated federation inbox of about ``N`` table results over ``D`` session dates (pairs
evenings with rulings and appeals, team events, IMP pairs, an individual: the generator of
:mod:`pipelines.synth`) goes through :func:`pipelines.runner.run_inbox` — reading the
inbox, validation, rulings, scoring, standings, the audit and the publication — exactly as
``traveller run`` does. Then:

* **one new date** (one more evening of the same clubs) is added to the inbox and the run is
  repeated on the warehouse that holds the history: the nightly run;
* the **same date alone** into an empty warehouse: what the nightly run would cost if only
  the new date were done;
* the run is repeated with **nothing new**.

Each run is its own process (``python -m pipelines.cli bench-run ...``), so its wall time
counts the start-up as a user sees it and its peak resident memory is its own (a large
publication's helper processes, :func:`pipelines.publish.publish`, print theirs beside it).
Throughput is
results read per second of the whole process. Timings are measurements of this machine, not
test assertions: the README says what was measured and on what.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

#: Table results per generated club session (pairs evenings with the other forms beside
#: them), measured on the generator (164,832 results in 1,100 sessions, 842,605 in 5,475:
#: 150 and 154): used only to choose how many sessions to generate.
RESULTS_PER_SESSION = 152

#: The generator's shared files that a new evening appends to (the rest are results files).
SHARED = ("events.csv", "contestants.csv", "rulings.csv", "appeals.csv")


#: The stages of a run as a user sees them, each the Dagster steps (assets and their checks)
#: it is made of: reading the inbox into the warehouse, validation (results, Law 77, the
#: ruling logs), scoring (rulings applied, matchpoints, IMPs), ranking (every version of the
#: session and event standings), the audit (marts, reconciliation, reports) and publishing.
STAGES: dict[str, tuple[str, ...]] = {
    "read": ("inbox_tables", "source_files", "raw_results", "ruling_log"),
    "validate": ("validated_results", "rulings"),
    "score": ("scored_results",),
    "rank": ("standings",),
    "audit": (
        "audit_marts",
        "director_audit",
        "reconciliation",
        "audit_reports",
    ),
    "publish": ("publication",),
}


def stage_of(step: str) -> str:
    """The stage (:data:`STAGES`) of a Dagster step: an asset's, or a check's (its key is the
    asset's name, ``_``, the check's name)."""
    for stage, assets in STAGES.items():
        if step in assets:
            return stage
    for stage, assets in STAGES.items():
        if any(step.startswith(f"{a}_") for a in assets):
            return stage
    return "other"


@dataclass
class PhaseReport:
    """One ``traveller run`` process: what it read and how long each part took."""

    name: str
    results: int = 0
    dates: int = 0
    wall: float = 0.0  # the whole process, start-up included
    seconds: dict[str, float] = field(default_factory=dict)  # per asset group
    steps: dict[str, float] = field(default_factory=dict)  # per asset / check
    peak_mb: float = 0.0
    #: the largest peak of the processes that helped make the publication (0: none did)
    helper_peak_mb: float = 0.0
    #: at most what the run's process and its publication's helpers held at once: the larger
    #: of its own peak and, while its helpers ran, its peak then with each helper's added
    #: (:class:`pipelines.publish.SharedPeak`); 0: not measured (its own peak and its
    #: helper's are then added whole)
    together_mb: float = 0.0
    #: the peak of the process that drew the season dashboard (0: none did;
    #: :mod:`pipelines.reports.drawing`), counted in :attr:`together_mb`
    drawing_peak_mb: float = 0.0

    @property
    def peak_together_mb(self) -> float:
        """At most the memory the run held at once, its helpers' with its own (MB)."""
        return self.together_mb or self.peak_mb + self.helper_peak_mb

    @property
    def rate(self) -> float:
        return self.results / self.wall if self.wall else 0.0

    def stages(self) -> dict[str, float]:
        """Seconds per stage (:data:`STAGES`), and ``start-up and the rest``: the process's
        wall time no step accounts for (starting Python, loading Dagster, planning)."""
        out = dict.fromkeys(STAGES, 0.0)
        for step, sec in self.steps.items():
            stage = stage_of(step)
            out[stage] = out.get(stage, 0.0) + sec
        out["start-up and the rest"] = max(0.0, self.wall - sum(out.values()))
        return out

    @property
    def without_site(self) -> float:
        """The wall time less the publication's (the site, the exports, the dashboard)."""
        return self.wall - self.stages().get("publish", 0.0)


@dataclass
class EndToEndReport:
    """The phases of :func:`run_end_to_end` and the kernel's rate for comparison."""

    requested: int
    generated: int
    dates: int
    phases: list[PhaseReport] = field(default_factory=list)
    kernel_rate: float = 0.0  # results/s of validation + scoring + standings alone
    #: the hand-written Polars job's whole process on the first load's inbox
    #: (:mod:`pipelines.bench_floor`): seconds and the results it scored (0: not run)
    floor_seconds: float = 0.0
    floor_results: int = 0
    #: the files the run with nothing new added, removed or changed (:func:`tree_state`);
    #: ``None``: not looked at
    nothing_new_changed: list[str] | None = None

    def phase(self, name: str) -> PhaseReport | None:
        """The phase named ``name``, if it ran."""
        return next((p for p in self.phases if p.name == name), None)

    def targets(self) -> list[tuple[str, str, bool]]:
        """``(target, measured, met)`` of the nightly-scale targets the phases measured
        (:data:`TARGETS`; those of phases that did not run are left out). The throughput
        targets are stated for a first load of 1M results over 365 dates (and the floor's
        for 200k over 50): the benchmark prints them for any size, as a check list."""
        out = []
        for label, measure in TARGETS:
            got = measure(self)
            if got is not None:
                out.append((label, *got))
        return out

    def lines(self) -> list[str]:
        out = [
            f"results generated    {self.generated:,} over {self.dates} dates "
            f"(asked for {self.requested:,})",
        ]
        for p in self.phases:
            out.append(
                f"{p.name:<20} {p.wall:8.1f} s  {p.results:>9,} results  "
                f"{p.rate:>9,.0f} results/s  peak {p.peak_mb:,.0f} MB"
                + (
                    f" (publication helper {p.helper_peak_mb:,.0f} MB"
                    + (
                        f", the drawing process {p.drawing_peak_mb:,.0f} MB"
                        if p.drawing_peak_mb
                        else ""
                    )
                    + f"; at once at most {p.peak_together_mb:,.0f} MB)"
                    if p.helper_peak_mb
                    else ""
                )
                + (
                    f" (the drawing process {p.drawing_peak_mb:,.0f} MB; at once "
                    f"at most {p.peak_together_mb:,.0f} MB)"
                    if p.drawing_peak_mb and not p.helper_peak_mb
                    else ""
                )
            )
            if p.results and p.without_site > 0:
                out.append(
                    f"  {'without the site':<22} {p.without_site:7.2f} s  "
                    f"{p.results / p.without_site:>12,.0f} results/s"
                )
            for stage, sec in p.stages().items():
                rate = f"{p.results / sec:>12,.0f} results/s" if p.results and sec > 0 else ""
                out.append(f"  {stage:<22} {sec:7.2f} s  {rate}".rstrip())
            slow = sorted(p.steps.items(), key=lambda kv: -kv[1])[:5]
            for k, v in slow:
                out.append(f"    {k:<40} {v:7.2f} s")
        if self.kernel_rate:
            first = self.phases[0] if self.phases else None
            out.append(f"kernel               {self.kernel_rate:,.0f} results/s (traveller bench)")
            if first and first.rate:
                out.append(f"end-to-end / kernel  1 : {self.kernel_rate / first.rate:,.0f}")
        if self.floor_seconds:
            first = self.phases[0] if self.phases else None
            out.append(
                f"floor                {self.floor_seconds:8.1f} s  "
                f"{self.floor_results:>9,} results "
                "(hand-written Polars job, whole process, same files)"
            )
            if first:
                out.append(f"first load / floor   {first.wall / self.floor_seconds:,.1f} times")
        targets = self.targets()
        if targets:
            out.append("targets (nightly scale)")
            width = max(len(label) for label, _, _ in targets)
            for label, measured, met in targets:
                out.append(f"  {label:<{width}}  {measured:>12}  {'met' if met else 'not met'}")
        return out


def _first(r: EndToEndReport) -> PhaseReport | None:
    return r.phase("first load")


def _without_site(r: EndToEndReport) -> tuple[str, bool] | None:
    p = _first(r)
    if p is None or not p.results or p.without_site <= 0:
        return None
    rate = p.results / p.without_site
    return f"{rate:,.0f}/s", rate >= 250_000


def _with_site(r: EndToEndReport) -> tuple[str, bool] | None:
    p = _first(r)
    return None if p is None or not p.wall else (f"{p.rate:,.0f}/s", p.rate >= 25_000)


def _floor(r: EndToEndReport) -> tuple[str, bool] | None:
    p = _first(r)
    if p is None or not r.floor_seconds:
        return None
    times = p.wall / r.floor_seconds
    return f"{times:,.1f} times", times <= 25


def _new_date(r: EndToEndReport) -> tuple[str, bool] | None:
    p = r.phase("one new date")
    return None if p is None else (f"{p.wall:,.1f} s", p.wall <= 10)


def _new_over_alone(r: EndToEndReport) -> tuple[str, bool] | None:
    new, alone = r.phase("one new date"), r.phase("that date alone")
    if new is None or alone is None or not alone.wall:
        return None
    ratio = new.wall / alone.wall
    return f"{ratio:,.2f} times", ratio <= 1.5


def _nothing_new(r: EndToEndReport) -> tuple[str, bool] | None:
    p = r.phase("nothing new")
    return None if p is None else (f"{p.wall:,.1f} s", p.wall <= 3)


def _writes_nothing(r: EndToEndReport) -> tuple[str, bool] | None:
    if r.nothing_new_changed is None:
        return None
    n = len(r.nothing_new_changed)
    return f"{n:,} file(s)", n == 0


def _peak(r: EndToEndReport) -> tuple[str, bool] | None:
    p = _first(r)
    if p is None:
        return None
    both = p.peak_together_mb  # the run's process and its publication's helpers at once
    return f"{both:,.0f} MB", both <= 2048


#: The targets of the nightly-scale work, each with how the report measures it: a first load
#: of 1M results over 365 dates at 250,000 results/s without the site and 25,000 with it;
#: a first load (200k over 50 dates) within 25 times the floor; one new date in 10 s and in
#: 1.5 times the same date into an empty warehouse; a run with nothing new in 3 s, writing
#: nothing; the first load's peak memory (the run's process and its publication's helpers,
#: at most what they held at once: :attr:`PhaseReport.peak_together_mb`) within 2 GB.
TARGETS: tuple[tuple[str, Callable[[EndToEndReport], tuple[str, bool] | None]], ...] = (
    ("first load without the site >= 250,000 results/s", _without_site),
    ("first load with the site >= 25,000 results/s", _with_site),
    ("first load <= 25 times the floor", _floor),
    ("one new date <= 10 s", _new_date),
    ("one new date <= 1.5 times that date alone", _new_over_alone),
    ("nothing new <= 3 s", _nothing_new),
    ("nothing new writes nothing", _writes_nothing),
    ("first load's peak (with its helpers, at once) <= 2 GB", _peak),
)


def tree_state(root: Path, skip: Sequence[str] = ()) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` (but those under the top-level folders ``skip``) with its
    size and modification time (nanoseconds): what a run wrote, added or removed shows as a
    difference between two states."""
    out: dict[str, tuple[int, int]] = {}
    for here, dirs, files in os.walk(root):
        if here == os.fspath(root):
            dirs[:] = [d for d in dirs if d not in skip]
        for name in files:
            path = os.path.join(here, name)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            out[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
    return out


def changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    """The files added, removed or changed between two :func:`tree_state` s, sorted."""
    return sorted(f for f in before.keys() | after.keys() if before.get(f) != after.get(f))


def plan(n: int, dates: int) -> tuple[int, int]:
    """``(sessions, clubs)`` for about ``n`` results over ``dates`` evenings."""
    if n < 1 or dates < 1:
        raise ValueError("the number of results and of dates must be at least 1")
    clubs = max(1, math.ceil(n / RESULTS_PER_SESSION / dates))
    return clubs * dates, clubs


def _append(shared: Path, extra: Path, prefix: str) -> None:
    """Append ``extra``'s rows to ``shared`` (same header); ruling and appeal ids get
    ``prefix`` so that a second generation's ``R0001`` is not the first one's."""
    with extra.open(newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    for col in ("ruling_id", "appeal_id"):
        if col in header:
            i = header.index(col)
            for r in body:
                if r[i]:
                    r[i] = prefix + r[i]
    if not shared.exists():
        with shared.open("w", newline="") as f:
            csv.writer(f).writerow(header)
    with shared.open(newline="") as f:
        have = next(csv.reader(f))
    if have != header:
        raise ValueError(f"{extra.name}: columns differ from {shared}")
    with shared.open("a", newline="") as f:
        csv.writer(f).writerows(body)


def add_evening(inbox: Path, day: date, clubs: int, seed: int, work: Path) -> tuple[Path, int]:
    """Generate one more evening on ``day`` (``clubs`` sessions, pairs) and add it to
    ``inbox`` as a scorer would: new results files, rows appended to the shared files.
    Returns the evening's own inbox (for the "alone" run) and its number of results."""
    from pipelines.synth.inbox import generate_inbox

    alone = work / f"evening-{day.isoformat()}"
    summary = generate_inbox(
        alone, sessions=clubs, clubs=clubs, seed=seed, start_date=day, other_forms=False
    )
    for p in sorted(alone.iterdir()):
        if p.name in SHARED:
            _append(inbox / p.name, p, prefix=f"N{day:%m%d}-")
        else:
            shutil.copy2(p, inbox / p.name)
    return alone, summary.results


def run_floor(inbox: Path, out: Path) -> tuple[float, int]:
    """Time the hand-written Polars job (:mod:`pipelines.bench_floor`) as its own process on
    ``inbox``, after the same flush as a phase: ``(wall seconds, results it scored)``."""
    cmd = [sys.executable, "-m", "pipelines.bench_floor", str(inbox), str(out)]
    os.sync()
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        raise RuntimeError(f"the floor job failed:\n{done.stderr[-4000:]}")
    return wall, int(done.stdout.split()[0])


def _run_phase(
    name: str,
    inbox: Path,
    warehouse: Path,
    publish_to: Path,
    results: int,
    dates: int,
    now: str | None = None,
) -> PhaseReport:
    """Run ``python -m pipelines.cli bench-run`` (:func:`child`) and read its report; ``now``:
    the run's clock (``$TRAVELLER_NOW``). The disk is flushed first (``sync``, not timed): a
    nightly run starts on a disk long quiet, not while the kernel still writes out the
    hundreds of thousands of pages the benchmark's first load and generator just wrote
    (creating a file waits on that writeback: profiled at 200k, the new date's publication
    spent 0.8 s more creating its files)."""
    cmd = [
        sys.executable, "-m", "pipelines.cli", "bench-run",
        "--inbox", str(inbox), "--warehouse", str(warehouse), "--publish", str(publish_to),
    ]  # fmt: skip
    env = {**os.environ}
    env.pop("DAGSTER_HOME", None)  # an ephemeral instance: nothing left behind
    if now is not None:
        env["TRAVELLER_NOW"] = now
    os.sync()
    t = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        raise RuntimeError(f"the {name} run failed:\n{done.stderr[-4000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return PhaseReport(
        name=name,
        results=results,
        dates=dates,
        wall=wall,
        seconds=data["seconds"],
        steps=data["steps"],
        peak_mb=data["peak_mb"],
        helper_peak_mb=data.get("helper_peak_mb", 0.0),
        drawing_peak_mb=data.get("drawing_peak_mb", 0.0),
        together_mb=data.get("together_mb", 0.0),
    )


def run_end_to_end(
    n: int,
    dates: int,
    seed: int = 0,
    work: Path | None = None,
    kernel: bool = True,
    progress: Callable[[str], None] = print,
    start: date | None = None,
) -> EndToEndReport:
    """Generate about ``n`` results over ``dates`` dates and time the real run: the first
    load, one new date on top of it, that date alone, and a re-run with nothing new."""
    from pipelines.synth.inbox import generate_inbox

    owned = work is None
    work = Path(tempfile.mkdtemp(prefix="traveller-e2e-")) if work is None else Path(work)
    try:
        sessions, clubs = plan(n, dates)
        inbox = work / "inbox"
        progress(f"[1/5] generating {sessions:,} club sessions over {dates} dates")
        # the season ends the day before yesterday and the new date is the next: a run
        # rejects a session dated after tomorrow, so a season in the future would not be scored
        start = start or date.today() - timedelta(days=dates + 3)
        summary = generate_inbox(inbox, sessions=sessions, clubs=clubs, seed=seed, start_date=start)
        report = EndToEndReport(requested=n, generated=summary.results, dates=dates)
        compile_bytecode()
        wh = work / "warehouse.duckdb"
        pub = work / "published"
        # the generator's last evening: a two-session event may run one day past ``dates``
        last = max(_dates(inbox))
        day = last + timedelta(days=1)
        # every run judged at noon two days after the new date (unless $TRAVELLER_NOW says
        # when): every correction period is over, as for a season scored the morning after
        now = os.environ.get("TRAVELLER_NOW") or f"{day + timedelta(days=2)} 12:00"
        progress(f"[2/5] first load: {summary.results:,} results")
        report.phases.append(_run_phase("first load", inbox, wh, pub, summary.results, dates, now))
        report.floor_seconds, report.floor_results = run_floor(inbox, work / "floor")
        alone, added = add_evening(inbox, day, clubs, seed + 1, work)
        progress(f"[3/5] one new date ({day}): {added:,} results")
        report.phases.append(_run_phase("one new date", inbox, wh, pub, added, 1, now))
        progress("[4/5] the same date alone into an empty warehouse")
        report.phases.append(
            _run_phase(
                "that date alone", alone, work / "alone.duckdb", work / "alone", added, 1, now
            )
        )
        progress("[5/5] again, nothing new")
        # what the run with nothing new writes: the warehouse, the publication, the reports,
        # the digests kept beside the warehouse (not the inbox, the floor's or the alone run's)
        skip = ("inbox", "floor", alone.name, "alone")
        before = tree_state(work, skip)
        report.phases.append(_run_phase("nothing new", inbox, wh, pub, 0, 0, now))
        report.nothing_new_changed = changed(before, tree_state(work, skip))
        if kernel:
            from pipelines.bench import run_bench

            k = run_bench(summary.results, seed, progress=lambda _m: None)
            report.kernel_rate = k.rate("validate", "score", "standings")
        return report
    finally:
        if owned:
            shutil.rmtree(work, ignore_errors=True)


def compile_bytecode() -> list[str]:
    """Compile the project's modules (``pipelines``, ``assets``) to bytecode where theirs is
    missing or older than the source, as installing a package does (``pip`` and ``uv``
    compile what they install; ``make install`` compiles the project): each run the benchmark
    times is a fresh Python, which otherwise compiles every module it imports from source
    when bytecode is not written (``PYTHONDONTWRITEBYTECODE``, as on the development
    machines) — about a quarter of a second a process. The folders compiled."""
    import compileall

    root = Path(__file__).resolve().parent.parent
    done = []
    for name in ("pipelines", "assets"):
        folder = root / name
        if folder.is_dir() and compileall.compile_dir(folder, quiet=2, workers=1):
            done.append(name)
    return done


def _dates(inbox: Path) -> list[date]:
    with (inbox / "events.csv").open(newline="") as f:
        return [date.fromisoformat(r["date"]) for r in csv.DictReader(f)]


def child(inbox: Path, warehouse: Path, publish_to: Path) -> None:
    """One ``traveller run`` in this process (``traveller bench-run``, hidden); the timings as
    JSON on the last stdout line. As ``traveller run``: an inbox already computed and
    published is answered without loading Dagster (:func:`pipelines.incremental.up_to_date`)."""
    from pipelines import settings
    from pipelines.incremental import up_to_date

    t = time.perf_counter()
    if up_to_date(inbox, warehouse, os.environ.get("TRAVELLER_PROFILE"), settings.today()):
        seconds, steps = {"inbox": time.perf_counter() - t}, {}
    else:
        from pipelines import heap
        from pipelines.runner import run_inbox

        heap.settle()  # as ``traveller run``: the libraries out of the collector's sight
        report = run_inbox(inbox, warehouse, publish_to=publish_to)
        seconds, steps = report.seconds, report.step_seconds
    from pipelines.bench import peak_rss_mb
    from pipelines.publish import HELPER_PEAKS, SHARED_PEAKS
    from pipelines.reports.drawing import PEAKS as DRAWING_PEAKS
    from pipelines.reports.drawing import TOGETHER as WITH_DRAWING

    # the process's own peak: its count was started again as each shared publication began,
    # each time after the peak so far was kept (SharedPeak.before)
    own = max([peak_rss_mb(), *(w.before for w in SHARED_PEAKS)])
    print(
        json.dumps(
            {
                "seconds": seconds,
                "steps": steps,
                "peak_mb": own,
                # a publication's helper processes' own peaks (:func:`pipelines.publish.publish`)
                "helper_peak_mb": max(HELPER_PEAKS, default=0.0),
                # at most what the process and its helpers held at once (SharedPeak.together;
                # the drawing process, pipelines.reports.drawing, runs beside the run until it
                # is stopped — by the run's end, or before a publication's helpers start —:
                # the run's peak then added to the drawing process's, drawing.TOGETHER)
                "together_mb": max([own, *(w.together for w in SHARED_PEAKS), *WITH_DRAWING]),
                "drawing_peak_mb": max(DRAWING_PEAKS, default=0.0),
            }
        )
    )
