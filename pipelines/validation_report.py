"""``traveller validate``: every problem ``traveller run`` would find in a set of files, without
touching the warehouse.

The files are run through the night's own stages (:func:`pipelines.stages.ingest`, then
:func:`pipelines.stages.run_dates` for every session date in one pass: the same readers, event
resolution, dating, duplicate and row checks, Law 77 check, checks of ruling and appeal logs,
scoring, standings and asset checks) into a throw-away warehouse in a temporary folder,
which is deleted afterwards. What the run would reject, hold back or stop is then reported,
one line each, ``file:location: field: message``:

* every rejected row or file (``rejected_inputs``: read, validate and rulings stages);
* every stated score that is not its contract's (Law 77): kept, but its event held;
* every other reason an event's official standings would be held (``holds``), and one line
  per held event;
* every check of the run that fails (its date is then stopped, as in a run).

So ``validate`` says "no problems" exactly when a run of the same files would publish every
event they hold, with nothing rejected. The one exception, documented: a set of files with
no result at all (a ruling log checked before its results exist) has its ruling and appeal
logs checked on their own (notation and the rules of each kind), since a run would only
reject every ruling for want of results.

File names are those the run would see: a folder's files relative to the folder (as for
``--inbox``), a file given by itself by its own name; lines name each file as it was given.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipelines import stages
from pipelines.formats import read_file
from pipelines.formats.model import EVENT_COLUMNS, REJECT_COLUMNS, ReadResult, empty_frame
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.inbox import inbox_files
from pipelines.scoring.events import read_event_dates, resolve_events, with_defaults
from pipelines.scoring.rulings import validate_rulings
from pipelines.warehouse import Warehouse


@dataclass
class Findings:
    """What :func:`check_files` found: ``problems`` (each a line, in file order; any one
    means a run would not publish everything), ``warnings`` (kept inputs worth a look),
    ``rows`` read and ``held`` events (``event_id [date]``)."""

    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rows: int = 0
    held: list[str] = field(default_factory=list)


def inbox_names(given: list[Path]) -> list[tuple[Path, str]]:
    """Each file to check with the name a run gives it: a folder's files relative to that
    folder (hidden files skipped, as the inbox does), a file by its own name. A second file
    of the same name is placed in a numbered sub-folder so that neither is lost."""
    out: list[tuple[Path, str]] = []
    taken: set[str] = set()
    for g in given:
        pairs = (
            [(p, p.relative_to(g).as_posix()) for p in inbox_files(g)]
            if g.is_dir()
            else [(g, g.name)]
        )
        for path, name in pairs:
            n, i = name, 1
            while n in taken:
                n, i = f"{i}/{name}", i + 1
            taken.add(n)
            out.append((path, n))
    return out


@contextmanager
def profile_env(profile: str | None) -> Iterator[None]:
    """``$TRAVELLER_PROFILE`` set to ``profile`` (when given) for the duration, as
    ``traveller run --profile`` sets it for the run."""
    before = os.environ.get("TRAVELLER_PROFILE")
    if profile is not None:
        os.environ["TRAVELLER_PROFILE"] = profile
    try:
        yield
    finally:
        if profile is not None:
            if before is None:
                os.environ.pop("TRAVELLER_PROFILE", None)
            else:
                os.environ["TRAVELLER_PROFILE"] = before


def check_files(files: list[tuple[Path, str]], profile: str | None = None) -> Findings:
    """Run ``files`` (``(path, name in the inbox)``, :func:`inbox_names`) through the night's
    stages in a throw-away warehouse and report what the run would reject, hold or stop (see
    the module docstring)."""
    shown = {name: _shown(path) for path, name in files}
    with tempfile.TemporaryDirectory(prefix="traveller-validate-") as tmp:
        inbox = Path(tmp) / "inbox"
        for path, name in files:
            _place(path, inbox / name)
        reads = [read_file(inbox / name, inbox) for _, name in files]
        if not any(r.results.height for r in reads):
            found = _logs_alone(reads, shown)
            return found
        wh = Warehouse(Path(tmp) / "check.duckdb")
        with profile_env(profile):
            stages.ingest(inbox, wh)
            failed = [
                (spec.name, None, bad)
                for spec in stages.check_specs.CHECKS
                if spec.asset == "source_files"
                for ok, bad in [stages.check(wh, spec.name)]
                if not ok
            ]
            dates = wh.query("read/dates")["session_date"].to_list()
            failed += stages.run_dates(inbox, wh, dates)
        return _findings(wh, dates, failed, shown, [name for _, name in files])


def _shown(path: Path) -> str:
    """``path`` as the scorer gave it, relative to the current folder where it is inside."""
    try:
        return path.absolute().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def _place(path: Path, target: Path) -> None:
    """``path`` at ``target`` in the throw-away inbox: a hard link where the file system
    allows it (no copy of a large file), else a copy; a symbolic link stays a link (the run
    refuses links, so must the check)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink():
        target.symlink_to(os.readlink(path))
        return
    try:
        os.link(path, target)
    except OSError:
        shutil.copy2(path, target)


def _findings(
    wh: Warehouse,
    dates: list[str],
    failed: list[tuple[str, str | None, pl.DataFrame]],
    shown: dict[str, str],
    names: list[str],
) -> Findings:
    """The problems and warnings the throw-away run left in ``wh``, the problems in the order
    of the files (``names``), then by location; the failed checks last."""

    def line(r: dict) -> str:
        file = r["file"] or ""
        return f"{shown.get(file, file)}:{r['location']}: {r['field']}: {r['reason']}"

    found = Findings(rows=int(wh.query("reports/run_summary")["rows_read"][0] or 0))
    holds = wh.query("reports/holds", {"dates": dates})
    stopped = sorted({day for check, day, _ in failed if day and _blocks(check)})
    disagreements = [wh.query("checks/score_disagreements", {"dates": stopped})] if stopped else []
    rows = pl.concat(
        [
            wh.query("reports/rejections").select("file", "location", "field", "reason"),
            holds.select("file", "location", "field", "reason"),
            *(_law77(d) for d in disagreements if d.height),
        ],
        how="diagonal_relaxed",
    ).unique()
    order = {n: i for i, n in enumerate(names)}
    keyed = sorted(
        (order.get(r["file"] or "", len(order)), _location_key(r["location"]), line(r))
        for r in rows.iter_rows(named=True)
    )
    found.problems = list(dict.fromkeys(k[2] for k in keyed))
    for d, e in holds.select("session_date", "event_id").unique().sort("*").iter_rows():
        found.held.append(f"{e} [{d}]")
    for check, day, bad in failed:
        if not _blocks(check):
            continue  # its rows are among the holds above
        where = f" [{day}]" if day else ""
        found.problems.append(
            f"check {check} failed{where}: {stages.check_specs.spec(check).description} "
            f"({bad.height} row(s)); a run would stop this date before its standings"
        )
    found.warnings = [
        f"warning: {line(r)}" for r in wh.query("reports/warnings").iter_rows(named=True)
    ]
    return found


def _blocks(check: str) -> bool:
    """Whether ``check`` failing stops its date (rather than holding the events concerned)."""
    return check not in stages.check_specs.HOLDING_CHECKS


def _location_key(location: str | None) -> tuple[int, str]:
    """``line 12`` before ``line 100``; other locations by their text."""
    text = location or ""
    digits = "".join(ch for ch in text if ch.isdigit())
    return (int(digits) if digits and text.startswith("line ") else -1, text)


def _law77(rows: pl.DataFrame) -> pl.DataFrame:
    """Law 77 lines of a date stopped before its standings (there, ``holds`` gives them)."""
    return rows.select(
        "file",
        "location",
        pl.lit("score").alias("field"),
        pl.format(
            "stated score {} but {} by {} taking {} tricks on board {} scores {} for NS "
            "(Law 77): correct the file",
            "stated_score",
            "contract",
            "declarer",
            "tricks",
            "board",
            "computed_score",
        ).alias("reason"),
    )


def _logs_alone(reads: list[ReadResult], shown: dict[str, str]) -> Findings:
    """With no result among the files: what reading rejected, and their ruling and appeal
    logs checked on their own (notation and the rules of each kind), the one check a log
    allows without its results."""
    rejected = [r.rejected for r in reads]
    rulings = [r.rulings for r in reads if r.rulings is not None and r.rulings.height]
    appeals = [r.appeals for r in reads if r.appeals is not None and r.appeals.height]
    if rulings or appeals:
        rf = (pl.concat(rulings) if rulings else empty_frame(RULING_COLUMNS)).with_columns(
            pl.lit(None, pl.Utf8).alias("session_date")
        )
        af = (
            (pl.concat(appeals) if appeals else empty_frame(APPEAL_COLUMNS))
            .join(
                rf.select("ruling_id", "event_id", "session").unique("ruling_id"),
                on="ruling_id",
                how="left",
            )
            .with_columns(pl.lit(None, pl.Utf8).alias("session_date"))
        )
        events = pl.concat(
            [
                r.events.select(EVENT_COLUMNS).with_columns(
                    pl.lit(0 if r.format == "events_csv" else 1).alias("priority")
                )
                for r in reads
            ]
        )
        written = {r.file: list(r.dates_written) for r in reads if r.dates_written}
        events, slash_rejected, _ = read_event_dates(events, written=written)
        resolved, ev_rejected = resolve_events(events)
        rejected += [
            slash_rejected,
            ev_rejected,
            validate_rulings(rf, af, None, with_defaults(resolved)).rejected,
        ]
    every = pl.concat(
        [r.select(REJECT_COLUMNS) for r in rejected if r.height]
        or [pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})]
    )
    return Findings(
        problems=[
            f"{shown.get(r['file'], r['file'])}:{r['location']}: {r['field']}: {r['reason']}"
            for r in every.iter_rows(named=True)
        ],
        warnings=[
            f"warning: {shown.get(w['file'], w['file'])}:{w['location']}: {w['field']}: "
            f"{w['reason']}"
            for r in reads
            for w in r.warnings.iter_rows(named=True)
        ],
        rows=sum(r.rows_read for r in reads),
    )
