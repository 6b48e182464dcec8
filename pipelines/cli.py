"""``traveller``: run the pipeline, validate files, generate data, benchmark, render reports.

Exit status of ``traveller run``:

* ``0`` every input was accepted and every date's standings were published;
* ``3`` some rows or files were rejected (the rest was processed);
* ``4`` standings are held back: an event's (a stated score that disagrees with its
  contract, Law 77, or a ruling or appeal that cannot be applied: that event only, the
  date's other events are published; see the ``holds`` table), or a whole date's (rows not
  accounted for, matchpoints not conserved); rejections may also exist;
* ``1`` an unexpected error; ``2`` a usage error (a missing inbox folder, or one that holds
  no file: there is nothing to read, and the warehouse is not touched; a warehouse filled
  from another inbox, ``--new-inbox`` aside);
* ``5`` the warehouse is in use by another run or program (named), after ``--wait`` if given:
  nothing was written (:mod:`pipelines.run_lock`).

A run that scores nothing because every file was rejected says so, and exits ``3``.

``traveller validate`` exits ``0`` when no problem was found, ``1`` otherwise.
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Annotated

import polars as pl
import typer

#: What each exit status means, for every command (``--help`` shows it, the README too).
EXIT_STATUSES = (
    "Exit status: 0 done; 1 unexpected error (one line; --debug shows the traceback), or "
    "for validate, problems found; 2 usage error (a bad option value, a missing inbox or "
    "file); 3 rows or files rejected (the rest scored and published); 4 events held back "
    "or a date blocked by a failed check; 5 the warehouse is in use by another run or "
    "program (nothing written)."
)


class _App(typer.Typer):
    """The ``traveller`` command: an error nobody foresaw is one line on stderr and exit 1,
    not a traceback, unless ``--debug`` is given (then the traceback, for a bug report)."""

    def __call__(self, *args, **kwargs):
        try:
            return super().__call__(*args, **kwargs)
        except Exception as exc:  # the last resort of the command line
            if _DEBUG["on"]:
                raise
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            typer.echo(
                f"traveller: unexpected error: {type(exc).__name__}"
                + (f": {message}" if message else "")
                + " (run again with --debug for the details, and please report it)",
                err=True,
            )
            sys.exit(1)


#: ``--debug`` given: unexpected errors keep their traceback.
_DEBUG = {"on": False}

app = _App(
    name="traveller",
    help="Traveller: score duplicate bridge sessions by the Laws and publish standings.",
    epilog=EXIT_STATUSES,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: The options several commands share.
_Warehouse = Annotated[
    Path | None,
    typer.Option(
        help="DuckDB warehouse file (default data/warehouse.duckdb, or $TRAVELLER_WAREHOUSE)."
    ),
]
_From = Annotated[str | None, typer.Option("--from", help="First session date, YYYY-MM-DD.")]
_To = Annotated[str | None, typer.Option("--to", help="Last session date.")]

EXIT_REJECTED = 3
#: Assets of the audit: a failed check there withholds no standings.
AUDIT_ASSETS = (
    "audit_marts",
    "penalty_stats",
    "appeal_stats",
    "director_audit",
    "ruling_discrepancies",
)
EXIT_BLOCKED = 4
#: The warehouse is held by another run or program: nothing was written.
EXIT_BUSY = 5
SHOW = 20  # problems printed before "... and N more"


def _echo_problems(lines: list[str]) -> None:
    for line in lines[:SHOW]:
        typer.echo(line)
    if len(lines) > SHOW:
        typer.echo(f"... and {len(lines) - SHOW} more")


def _known_profile(name: str) -> str:
    """``name`` if it is a shipped profile; otherwise exit 2 with the list (nothing runs)."""
    from pipelines import profiles

    try:
        return profiles.load(name).name
    except profiles.ProfileError as e:
        typer.echo(f"traveller: {e}", err=True)
        raise typer.Exit(2) from None


def _echo_profiles(profiles: pl.DataFrame) -> None:
    """The run summary's line on the profiles that scored the events, and why each was chosen."""
    if not profiles.height:
        return
    typer.echo(
        "profiles   "
        + ", ".join(
            f"{p} {int(n)} session{'s' if n != 1 else ''}"
            for p, n in profiles.group_by("profile", maintain_order=True)
            .agg(pl.col("sessions").sum())
            .iter_rows()
        )
    )
    _echo_problems(
        [
            f"  {r['profile']}: {r['profile_source']} ({r['sessions']})"
            for r in profiles.iter_rows(named=True)
        ]
    )


def _echo_reconciliation(files: pl.DataFrame) -> None:
    """The run summary's line on the files' official figures (``reconciliation_files``)."""
    if not files.height:
        return
    typer.echo(
        f"official   figures reproduced {int(files['reproduced'].sum())} of "
        f"{int(files['compared'].sum())} ({files.height} files); "
        f"{int(files['unexplained'].sum())} unexplained; differences listed in reconciliation "
        "(reports/reconciliation.html)"
    )
    _echo_problems(
        [
            f"  {r['file']} (profile {r['profile']}): {r['differing']} of {r['compared']} differ"
            + (f", {r['unexplained']} unexplained" if r["unexplained"] else "")
            + (", official totals are running totals" if r["running_totals"] else "")
            + (
                f" - standings {r['action']} (reconciliation.on_difference)"
                if r["action"] != "published"
                else ""
            )
            for r in files.iter_rows(named=True)
            if r["differing"] or r["running_totals"]
        ]
    )


class _Progress:
    """The run's progress on the terminal: each step's line, and a bar per task the stages
    report (:mod:`pipelines.progress`: files read, the steps of the session dates, pages
    written) with the count done, the time taken and the time left (rich). Without a
    terminal (a log, a pipe, the tests) only the lines."""

    def __init__(self) -> None:
        self.bar = None
        self.tasks: dict[str, object] = {}

    def __enter__(self) -> _Progress:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def say(self, msg: str) -> None:
        if self.bar is not None:
            self.bar.console.print(msg, markup=False, highlight=False)
        else:
            typer.echo(msg, err=True)

    def tick(self, task: str, done: int, total: int, note: str = "") -> None:
        """A :data:`pipelines.progress.Listener`."""
        if self.bar is None or total == 0:
            return
        label = f"{task}: {note}" if note else task
        if task not in self.tasks:
            self.tasks[task] = self.bar.add_task(label, total=total)
        self.bar.update(self.tasks[task], completed=done, total=total, description=label)


@app.command()
def run(
    inbox: Annotated[
        Path | None,
        typer.Option(help="Inbox folder (default: the bundled sample, or $TRAVELLER_INBOX)."),
    ] = None,
    warehouse: _Warehouse = None,
    profile: Annotated[
        str | None,
        typer.Option(
            help="Profile of the events neither events.csv nor their file names "
            "(traveller profiles lists them)."
        ),
    ] = None,
    recompute_all: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Recompute every session date, the audit and the site, not only what is new.",
        ),
    ] = False,
    wait: Annotated[
        str | None,
        typer.Option(
            help="When another run or program holds the warehouse, wait this long for it "
            "(30s, 5m, 1h) instead of stopping at once (exit 5)."
        ),
    ] = None,
    new_inbox: Annotated[
        bool,
        typer.Option(
            "--new-inbox",
            help="The warehouse reads this inbox from now on, although it was filled from "
            "another: the events of the other inbox are withdrawn.",
        ),
    ] = False,
) -> None:
    """Read the inbox and recompute what is new in it (every date with --all), in-process,
    and summarise the run."""

    from pipelines.settings import default_inbox

    if profile is not None:
        _known_profile(profile)
    inbox = inbox or Path(default_inbox())
    warehouse = _warehouse_path(warehouse)
    if not inbox.is_dir():
        typer.echo(f"traveller: inbox folder not found: {inbox}", err=True)
        raise typer.Exit(2)
    from pipelines.inbox import inbox_files

    if not inbox_files(inbox):
        typer.echo(
            f"traveller: the inbox {inbox} holds no files: nothing to read (put the clubs' "
            "files there, or name another folder with --inbox); the warehouse is untouched",
            err=True,
        )
        raise typer.Exit(2)
    from pipelines import run_lock
    from pipelines.incremental import recorded_inbox
    from pipelines.settings import SAMPLE_INBOX

    before = recorded_inbox(warehouse)
    if before is not None and before != str(inbox.resolve()) and not new_inbox:
        named = (
            "no --inbox was given, so this run would read the bundled sample inbox"
            if inbox.resolve() == SAMPLE_INBOX.resolve()
            else f"this run names the inbox {inbox}"
        )
        typer.echo(
            f"traveller: the warehouse {warehouse} holds the results of the inbox {before}; "
            f"{named}: name that inbox with --inbox, use another --warehouse, or give "
            "--new-inbox to make this inbox the warehouse's (the other inbox's events are "
            "then withdrawn); nothing was read or written",
            err=True,
        )
        raise typer.Exit(2)
    try:
        seconds = run_lock.parse_wait(wait)
    except ValueError as e:
        typer.echo(f"traveller: {e}", err=True)
        raise typer.Exit(2) from None
    say = lambda msg: typer.echo(f"traveller: {msg}", err=True)  # noqa: E731
    from pipelines.publish.files import PublicationError

    try:
        with run_lock.holding(warehouse, seconds, say):
            run_lock.check_free(warehouse, seconds, say)
            _run(inbox, warehouse, profile, recompute_all)
    except run_lock.WarehouseBusy as e:
        typer.echo(f"traveller: {e}", err=True)
        raise typer.Exit(EXIT_BUSY) from None
    except PublicationError as e:
        typer.echo(f"traveller: {e}", err=True)
        raise typer.Exit(2) from None


def _run(inbox: Path, warehouse: Path, profile: str | None, recompute_all: bool) -> None:
    """``traveller run`` once the warehouse is held (:func:`run`)."""
    import os

    if not recompute_all:
        from pipelines import settings
        from pipelines.incremental import up_to_date

        unchanged = up_to_date(
            inbox, warehouse, profile or os.environ.get("TRAVELLER_PROFILE"), settings.today()
        )
        if unchanged:
            typer.echo(f"inbox      {inbox}")
            typer.echo(f"warehouse  {warehouse}")
            typer.echo(unchanged)
            return
    from pipelines import heap, progress
    from pipelines.runner import HOLDING_CHECKS, run_inbox
    from pipelines.validation_report import profile_env

    heap.settle()  # Dagster and the libraries imported: no collection looks at them again

    with profile_env(profile), _Progress() as bar, progress.listening(bar.tick):
        report = run_inbox(inbox, warehouse, progress=bar.say, recompute_all=recompute_all)
    s = report.summary
    typer.echo(f"inbox      {inbox}")
    typer.echo(f"warehouse  {warehouse}")
    redone = " and ".join(report.redone) if report.redone else "neither the audit nor the site"
    typer.echo(f"this run   {report.plan.summary()}; {redone} redone")
    typer.echo("the whole warehouse, every date of the inbox:")
    typer.echo(
        f"read       {s['files']} files, {s['rows_read']} rows, {len(report.dates)} session dates"
    )
    _echo_profiles(report.profiles)
    typer.echo(f"scored     {s['results_scored']} table results")
    typer.echo(
        f"standings  {s['session_standings']} session rows, {s['event_standings']} event rows"
    )
    law = report.laws
    if law.get("rulings") or law.get("appeals"):
        typer.echo(
            f"rulings    {law['rulings']} ({law['rulings_not_applied']} not applied, "
            f"{law['rulings_late']} late), {law['adjusted_results']} results adjusted, "
            f"{law['appeals']} appeals ({law['appeals_pending']} pending, "
            f"{law['appeals_not_applied']} not applied), standings up to version "
            f"{law['max_version']}"
        )
        _echo_problems(
            [
                f"not applied: {r['what']} {r['id']} ({r['file']}:{r['location']}): {r['reason']}"
                for r in report.not_applied.iter_rows(named=True)
            ]
        )
    typer.echo(
        f"status     {law.get('sessions_final', 0)} sessions final, "
        f"{law.get('sessions_provisional', 0)} provisional"
        + (f", {law['sessions_held']} held" if law.get("sessions_held") else "")
    )
    if report.published is not None:
        out = report.published
        typer.echo(
            f"published  {out / 'site' / 'index.html'}, {out / 'exports'}, {out / 'season.html'}"
        )
    typer.echo(
        f"audit      reports in {warehouse.parent / 'reports'} (audit.html, transparency.html, "
        "reconciliation.html)"
    )
    _echo_reconciliation(report.reconciliation)
    typer.echo(f"rejected   {s['rows_rejected']} rows or files")
    if s["results_scored"] == 0 and report.rejections.height:
        typer.echo("nothing    scored: every result of the inbox was rejected (see above)")
    if report.rejections.height:
        _echo_problems(
            [
                f"{r['file']}:{r['location']}: {r['field']}: {r['reason']}"
                for r in report.rejections.iter_rows(named=True)
            ]
        )
    if report.warnings.height:
        typer.echo(f"warnings   {report.warnings.height} (nothing rejected; see input_warnings)")
        _echo_problems(
            [
                f"warning: {r['file']}:{r['location']}: {r['field']}: {r['reason']}"
                for r in report.warnings.iter_rows(named=True)
            ]
        )
    unbalanced = report.accounting.filter(~pl.col("balanced"))
    if unbalanced.height:
        typer.echo(
            f"UNACCOUNTED rows in {unbalanced.height} file(s): "
            + ", ".join(unbalanced["file"].to_list())
        )
    status = 0
    if report.rejections.height:
        status = EXIT_REJECTED
    if report.held_events:
        status = EXIT_BLOCKED
        typer.echo(
            f"held       {len(report.held_events)} event(s) not published, the rest of their "
            "date is: " + ", ".join(f"{e} [{d}]" for d, e in report.held_events)
        )
        _echo_problems(
            [
                f"held {r['event_id']}: {r['file']}:{r['location']}: {r['field']}: {r['reason']}"
                for r in report.holds.iter_rows(named=True)
            ]
        )
    if report.failed_checks:
        status = EXIT_BLOCKED
        blocking = [f for f in report.failed_checks if f.check not in HOLDING_CHECKS]
        if blocking:
            held = ", ".join(report.blocked_dates) or (
                "the audit" if all(f.asset in AUDIT_ASSETS for f in blocking) else "the inbox"
            )
            what = (
                "the audit marts failed their checks"
                if held == "the audit"
                else f"standings withheld for {held}"
            )
            typer.echo(f"blocked    {what}")
        for f in report.failed_checks:
            where = f" [{f.session_date}]" if f.session_date else ""
            then = " (its events held)" if f.check in HOLDING_CHECKS else ""
            typer.echo(f"  check {f.check} failed on {f.asset}{where}{then}")
        # (a date stopped before its standings has no holds: its disagreements are listed here)
        _echo_problems(
            [
                f"{r['file']}:{r['location']}: score: stated {r['stated_score']} but "
                f"{r['contract']} "
                f"by {r['declarer']} taking {r['tricks']} tricks on board {r['board']} scores "
                f"{r['computed_score']} for NS (Law 77)"
                for r in report.disagreements.iter_rows(named=True)
            ]
        )
    raise typer.Exit(status)


@app.command()
def validate(
    files: Annotated[
        list[Path],
        typer.Argument(help="Files to check (any supported format); a folder means its files."),
    ],
    profile: Annotated[
        str | None,
        typer.Option(help="Profile of the events neither events.csv nor their file names."),
    ] = None,
) -> None:
    """Check files as `traveller run` would, without touching the warehouse: every row it
    would reject, every event it would hold back, every check that would stop a date, one
    line each (file:location: field: message). Exit 0: a run would publish all of it; 1:
    problems found (or a file missing); 2: a usage error."""
    from pipelines.validation_report import check_files, inbox_names

    if profile is not None:
        _known_profile(profile)
    missing = [f for f in files if not f.exists()]
    for f in missing:
        typer.echo(f"{f}: file: no such file or folder", err=True)
    named = inbox_names([f for f in files if f.exists()])
    if not named and not missing:
        typer.echo("traveller: no files to check", err=True)
        raise typer.Exit(1)
    found = check_files(named, profile) if named else None
    problems = found.problems if found else []
    for line in problems:
        typer.echo(line)
    for line in found.warnings if found else []:
        typer.echo(line)
    if found and found.held:
        typer.echo(
            f"held: a run would not publish the official standings of {len(found.held)} "
            "event(s) until the problems above are corrected: " + ", ".join(found.held)
        )
    total = len(named) + len(missing)
    if problems or missing:
        typer.echo(f"{len(problems) + len(missing)} problem(s) in {total} file(s)", err=True)
        raise typer.Exit(1)
    typer.echo(f"{total} file(s), {found.rows if found else 0} rows: no problems")


@app.command()
def generate(
    out: Annotated[Path, typer.Option(help="Folder to write the inbox into.")],
    sessions: Annotated[int, typer.Option(help="Club sessions in all.")] = 6,
    clubs: Annotated[int, typer.Option(help="Clubs playing each evening.")] = 3,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same files).")] = 2026,
    start_date: Annotated[str, typer.Option(help="First session date, YYYY-MM-DD.")] = "2026-11-02",
    other_forms: Annotated[
        bool,
        typer.Option(
            "--other-forms/--pairs-only",
            help="Also write team events (round robin, Swiss, knockout), Butler and "
            "cross-IMP pairs and an individual.",
        ),
    ] = True,
    plant_overturned: Annotated[
        str | None,
        typer.Option(help="Plant: this director is overturned on appeal more often (audit test)."),
    ] = None,
    overturn_factor: Annotated[
        float, typer.Option(help="How many times as often (capped at 95 % of decided appeals).")
    ] = 3.0,
    plant_no_penalties: Annotated[
        str | None,
        typer.Option(help="Plant: this director never issues a procedural penalty (audit test)."),
    ] = None,
    hand_records: Annotated[
        int,
        typer.Option(
            help="Write a hand record (hands-*.csv: random deals) for the first N pairs "
            "sessions; their double dummy is computed at about 5 deals/s."
        ),
    ] = 0,
) -> None:
    """Write realistic synthetic federation data (invented people) into OUT."""
    from pipelines.synth.inbox import generate_inbox
    from pipelines.synth.pairs import Planted

    try:
        start = date.fromisoformat(start_date)
    except ValueError:
        typer.echo(f"traveller: --start-date must be YYYY-MM-DD, not {start_date!r}", err=True)
        raise typer.Exit(2) from None
    planted = None
    if plant_overturned or plant_no_penalties:
        planted = Planted(plant_overturned, overturn_factor, plant_no_penalties)
    s = generate_inbox(
        out,
        sessions=sessions,
        clubs=clubs,
        seed=seed,
        start_date=start,
        other_forms=other_forms,
        planted=planted,
        hand_records=hand_records,
    )
    typer.echo(
        f"wrote {s.files} files to {out}: {s.sessions} sessions, {s.results} results, "
        f"{s.contestants} contestants"
    )


@app.command()
def bench(
    results: Annotated[int, typer.Option(help="Number of table results to generate.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    end_to_end: Annotated[
        int | None,
        typer.Option(
            "--end-to-end",
            help="Instead of the kernel: generate about N results and time the whole "
            "`traveller run` (first load, one new date, that date alone, nothing new).",
        ),
    ] = None,
    dates: Annotated[int, typer.Option(help="With --end-to-end: session dates.")] = 20,
    deals: Annotated[
        int,
        typer.Option(help="Random deals to analyse (double dummy and par): deals/s."),
    ] = 100,
) -> None:
    """Generate N results and measure validation, scoring and standings: results/s, peak memory.

    With ``--end-to-end N --dates D``: the real run, stage by stage, in its own processes."""
    if end_to_end is not None:
        from pipelines.bench_e2e import run_end_to_end

        try:
            e2e = run_end_to_end(
                end_to_end, dates, seed, progress=lambda msg: typer.echo(msg, err=True)
            )
        except ValueError as exc:
            typer.echo(f"traveller: {exc}", err=True)
            raise typer.Exit(2) from None
        for line in e2e.lines():
            typer.echo(line)
        return
    from pipelines.bench import run_bench

    report = run_bench(results, seed, progress=lambda msg: typer.echo(msg, err=True), deals=deals)
    for line in report.lines():
        typer.echo(line)


@app.command("bench-kernel", hidden=True)
def bench_kernel(
    results: Annotated[int, typer.Option(help="Number of table results to generate.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    deals: Annotated[int, typer.Option(help="Random deals to analyse.")] = 0,
) -> None:
    """The measuring process of ``traveller bench`` (started by it, with the allocator's
    settings in its environment): progress on stderr, the report as JSON on stdout."""
    from pipelines.bench import child

    child(results, seed, deals)


@app.command("bench-run", hidden=True)
def bench_run(
    inbox: Annotated[Path, typer.Option(help="Inbox folder.")],
    warehouse: Annotated[Path, typer.Option(help="DuckDB warehouse file.")],
    publish: Annotated[Path, typer.Option(help="Folder to publish into.")],
) -> None:
    """One timed run of ``traveller bench --end-to-end`` (started by it, in its own process):
    the timings as JSON on the last stdout line."""
    from pipelines.bench_e2e import child

    child(inbox, warehouse, publish)


def _warehouse_path(warehouse: Path | None) -> Path:
    """``--warehouse``, else ``$TRAVELLER_WAREHOUSE``, else ``data/warehouse.duckdb``: a DuckDB
    file or a ``postgresql://`` URL (:mod:`pipelines.pg_warehouse`); exit 2 with one line when
    the value is another URL."""
    from pipelines.settings import default_warehouse
    from pipelines.warehouse import not_a_path

    value = str(warehouse) if warehouse is not None else default_warehouse()
    if why := not_a_path(value):
        typer.echo(f"traveller: {why}", err=True)
        raise typer.Exit(2)
    return Path(value)


def _existing_warehouse(warehouse: Path | None) -> Path:
    """The warehouse file to read (default as for ``traveller run``); exit 2 when absent (a
    PostgreSQL warehouse is taken as it is)."""
    from pipelines.warehouse import is_postgres

    path = _warehouse_path(warehouse)
    if not path.is_file() and not is_postgres(path):
        typer.echo(f"traveller: warehouse not found: {path} (run `traveller run` first)", err=True)
        raise typer.Exit(2)
    return path


@app.command()
def publish(
    out: Annotated[Path, typer.Option(help="Folder to write the site, exports and dashboard.")],
    warehouse: _Warehouse = None,
) -> None:
    """Write the results site, the USEBIO/PBN/Parquet exports and the season dashboard."""
    from pipelines.publish import publish as publish_all
    from pipelines.publish.files import PublicationError

    try:
        s = publish_all(_existing_warehouse(warehouse), out)
    except PublicationError as e:
        typer.echo(f"traveller: {e}", err=True)
        raise typer.Exit(2) from None
    typer.echo(
        f"site       {out / 'site' / 'index.html'} ({s.pages} pages, {s.sessions} sessions; "
        f"{s.pages_changed} written, {s.pages_removed} removed, the rest unchanged; "
        f"{s.sessions_kept} sessions' pages kept without rendering)"
    )
    typer.echo(
        f"exports    {out / 'exports'} ({len(s.usebio)} USEBIO, {len(s.pbn)} PBN, "
        f"{len(s.pbn_teams)} team PBN, "
        f"{sum(s.parquet.values())} Parquet rows)"
    )
    typer.echo(f"dashboard  {s.dashboard}")


# ------------------------------------------------------------------ traveller report ...
# The reports sub-app: `audit`, `transparency`, `season` and `reconciliation`.
report_app = typer.Typer(
    help="Render reports from the warehouse as self-contained HTML files.",
    no_args_is_help=True,
)
app.add_typer(report_app, name="report")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"traveller {version('traveller')}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    debug: Annotated[
        bool,
        typer.Option("--debug", help="Show the traceback of an unexpected error."),
    ] = False,
) -> None:
    """Traveller: score duplicate bridge sessions by the Laws and publish standings."""
    _DEBUG["on"] = debug


def _report(kind: str, out: Path, date_from: str | None, date_to: str | None, wh: Path | None):
    from pipelines.stages import report as render
    from pipelines.warehouse import Warehouse

    for name, value in (("--from", date_from), ("--to", date_to)):
        if value is not None:
            try:
                date.fromisoformat(value)
            except ValueError:
                typer.echo(f"traveller: {name} must be YYYY-MM-DD, not {value!r}", err=True)
                raise typer.Exit(2) from None
    if date_from is not None and date_to is not None and date_from > date_to:
        typer.echo(
            f"traveller: --from {date_from} is after --to {date_to}: no date lies between "
            "them (swap them?); nothing written",
            err=True,
        )
        raise typer.Exit(2)
    warehouse = Warehouse(_existing_warehouse(wh))
    if kind == "audit":
        # internal: directors are named; never into a folder publication serves
        from pipelines.publish.files import inside_publication
        from pipelines.settings import default_publication

        why = inside_publication(out, [warehouse.folder, Path(default_publication())])
        if why is not None:
            typer.echo(f"traveller: {why}", err=True)
            raise typer.Exit(2)
    s = render(warehouse, kind, out, date_from, date_to)
    f = s.figures
    typer.echo(f"wrote {f['path']}")
    typer.echo(
        f"{f['directors']} directors, {f['rulings']} rulings, {f['appeals']} appeals "
        f"({f['board_appeal_ratio']} per 1,000 boards), {f['penalties']} penalties, "
        f"{f['directors_flagged']} director(s) flagged, {f['discrepancies']} discrepancy case(s)"
    )


_ReportOut = Annotated[
    Path, typer.Option(help="Folder to write the report's page (<report>.html) into.")
]


def _report_command(kind: str, doc: str) -> None:
    """Register ``traveller report <kind>``: one HTML page written into ``--out``."""

    def command(
        out: _ReportOut,
        date_from: _From = None,
        date_to: _To = None,
        warehouse: _Warehouse = None,
    ) -> None:
        _report(kind, out, date_from, date_to, warehouse)

    command.__doc__ = doc
    command.__name__ = f"report_{kind}"
    report_app.command(kind)(command)


_report_command(
    "audit", "The director-consistency audit: funnel plots, audit table, discrepancy cases."
)
_report_command(
    "transparency",
    "The public version: rulings and appeals by law and outcome, Board-Appeal Ratio,\n"
    "    directors pseudonymised, no player names or ID numbers.",
)


@report_app.command("season")
def report_season(
    out: Annotated[Path, typer.Option(help="HTML file to write.")] = Path("data/season.html"),
    warehouse: _Warehouse = None,
) -> None:
    """The season dashboard: one self-contained HTML page with its charts embedded."""
    from pipelines.reports.season import render_season

    typer.echo(f"dashboard  {render_season(_existing_warehouse(warehouse), out)}")


@report_app.command("rulings")
def report_rulings(
    every: Annotated[
        bool, typer.Option("--all", help="Also list the rulings and appeals that applied.")
    ] = False,
    warehouse: _Warehouse = None,
) -> None:
    """The rulings and appeals that were not applied — kept but late, withdrawn, superseded or
    not allowed (with the Law), or rejected as written (wrong board, unknown pair) — one line
    each with the reason; --all lists every ruling and appeal with what became of it."""
    from pipelines.warehouse import Warehouse

    rows = Warehouse(_existing_warehouse(warehouse)).query(
        "reports/rulings", {"not_applied_only": not every}
    )
    for r in rows.iter_rows(named=True):
        where = " ".join(
            x
            for x in (
                r["session_date"] or "",
                r["event_id"] and f"{r['event_id']} session {r['session']}",
                r["board"] and f"board {r['board']}",
            )
            if x
        )
        name = f"{r['what']} {r['id']}" if r["id"] else r["what"]
        reason = f": {r['reason']}" if r["reason"] else ""
        typer.echo(
            f"{r['status']:<12} {name} ({r['file']}:{r['location']})"
            + (f" [{where}]" if where else "")
            + f" {r['kind']}{reason}"
        )
    shown = rows.height
    applied = int((rows["status"] == "applied").sum()) if shown else 0
    typer.echo(
        f"{shown - applied} not applied or rejected" + (f", {applied} applied" if every else "")
    )


@report_app.command("reconciliation")
def report_reconciliation(
    out: Annotated[Path, typer.Option(help="Folder to write reconciliation.html (or .csv).")],
    fmt: Annotated[str, typer.Option("--format", help="html or csv.")] = "html",
    warehouse: _Warehouse = None,
) -> None:
    """Does it match the club's results? Per file, the official figures compared and
    reproduced, and every difference with both values and the reason."""
    from pipelines.reports.reconciliation import write as write_reconciliation
    from pipelines.warehouse import Warehouse

    if fmt not in ("html", "csv"):
        typer.echo(f"traveller: --format must be html or csv, not {fmt!r}", err=True)
        raise typer.Exit(2)
    wh = Warehouse(_existing_warehouse(warehouse))
    files = wh.query("reports/reconciliation_files")
    path = write_reconciliation(wh.query("reports/reconciliation"), files, out, fmt)
    typer.echo(f"wrote {path}")
    _echo_reconciliation(files)


@app.command("profiles")
def list_profiles(
    brief: Annotated[
        bool, typer.Option("--brief", help="Only each profile's title and programs.")
    ] = False,
) -> None:
    """The scoring profiles: which federation or program each reproduces, the exporting
    programs whose files it scores, and the source of each section's settings."""
    from pipelines import profiles

    for name in profiles.available():
        p = profiles.load(name)
        typer.echo(f"{name:6} {p.title}")
        programs = ", ".join(p.programs) or "none (chosen by events.csv or --profile)"
        typer.echo(f"       programs: {programs}")
        if brief:
            continue
        typer.echo(f"       {p.source}")
        for key, text in p.sources:
            typer.echo(f"       {key}: {text}")


def main() -> None:  # pragma: no cover - console entry point
    """Console entry point. As it ends, the objects still alive are settled
    (:func:`pipelines.heap.settle`): the interpreter's end does not walk them (about a second
    after a nightly run)."""
    from pipelines import heap

    try:
        sys.exit(app())
    finally:
        heap.settle()


if __name__ == "__main__":  # pragma: no cover
    main()
