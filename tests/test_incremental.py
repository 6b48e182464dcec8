"""Incremental runs give the warehouse and the site a full re-run from scratch gives.

One small inbox (three clubs of the bundled sample: a two-session pairs event over two
dates, a two-date knockout with rulings and appeals, an individual) goes through a chain of
changes. After each, the warehouse that holds the history is run incrementally and a new,
empty warehouse is run on the same inbox; every table and every published file must be the
same. The chain: time passes (standings awaiting their periods become final), a new file, new
rulings, a new appeal, a changed file, a profile change, a removed file, a whole date
withdrawn. A run with nothing new reads no file and writes nothing.
"""

from __future__ import annotations

import csv
import hashlib
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import duckdb
import polars as pl
import pytest

from assets.automation import after_dates, nightly
from pipelines import incremental, tables
from pipelines.resources import InboxResource, PublicationResource, WarehouseResource
from pipelines.runner import run_inbox
from pipelines.settings import SAMPLE_INBOX

pytestmark = pytest.mark.slow

CLUBS = ("club1", "club6", "club9")
EARLY = "2026-11-03 10:00"  # before 3 November's sessions are published (events.csv)
LATE = "2026-12-01 12:00"  # every period over


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def _write(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def _keep(path: Path, keep: Callable[[dict[str, str]], bool]) -> None:
    header, rows = _rows(path)
    _write(path, header, [r for r in rows if keep(r)])


def _append(path: Path, source: Path, pick: Callable[[dict[str, str]], bool]) -> None:
    header, rows = _rows(path)
    _, more = _rows(source)
    _write(path, header, rows + [r for r in more if pick(r)])


LATER_RULINGS = {"R0028", "R0029", "R0030", "R0031", "R0032"}
LATER_APPEAL = "A003"
LATER_EVENTS = {"IND9-2026-11-03"}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The three clubs' files; club9's file, five rulings and one appeal come later."""
    inbox = tmp_path_factory.mktemp("inc") / "inbox"
    inbox.mkdir()
    for club in CLUBS:
        for p in SAMPLE_INBOX.glob(f"results-{club}-*.csv"):
            shutil.copy(p, inbox / p.name)
    events = set()
    for p in inbox.glob("results-*.csv"):
        events |= {r["event_id"] for r in _rows(p)[1]}
    for name in ("events.csv", "contestants.csv", "rulings.csv", "appeals.csv"):
        shutil.copy(SAMPLE_INBOX / name, inbox / name)
    _keep(inbox / "events.csv", lambda r: r["event_id"] in events)
    _keep(inbox / "contestants.csv", lambda r: r["event_id"] in events)
    _keep(
        inbox / "rulings.csv",
        lambda r: r["event_id"] in events and r["ruling_id"] not in LATER_RULINGS,
    )
    rulings = {r["ruling_id"] for r in _rows(inbox / "rulings.csv")[1]} | LATER_RULINGS
    _keep(
        inbox / "appeals.csv",
        lambda r: r["ruling_id"] in rulings and r["appeal_id"] != LATER_APPEAL,
    )
    (inbox / "results-club9-2026-11-03.csv").unlink()
    # as a scorer adds an event: its file, then its rows appended to the shared files
    _keep(inbox / "events.csv", lambda r: r["event_id"] not in LATER_EVENTS)
    _keep(inbox / "contestants.csv", lambda r: r["event_id"] not in LATER_EVENTS)
    return inbox


def _tables(db: Path) -> dict[str, pl.DataFrame]:
    with duckdb.connect(str(db), read_only=True) as c:
        return {t.name: c.sql(f'SELECT * FROM "{t.name}" ORDER BY ALL').pl() for t in tables.TABLES}


def _site(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        # a folder's seal holds its folders' times on the disk, not what was published
        if p.is_file()
        and p.suffix != ".duckdb"
        and ".wal" not in p.name
        and not p.name.endswith(".seal.json")
        # the digests of the inbox's files, kept beside the warehouse: a cache of the inbox
        and not p.name.endswith(".digests.json")
    }


def _same(ours: Path, fresh: Path) -> None:
    a, b = _tables(ours / "w.duckdb"), _tables(fresh / "w.duckdb")
    differ = [t for t in a if not a[t].equals(b[t])]
    assert differ == [], f"tables differ from a run from scratch: {differ}"
    sa, sb = _site(ours), _site(fresh)
    assert sorted(sa) == sorted(sb)
    assert [f for f in sa if sa[f] != sb[f]] == []


def _scheduled(inbox: Path, folder: Path) -> list[str]:
    """The session dates the nightly schedule asks Dagster to run: the known dates (of the
    inbox, or computed before) within the ranges it requests — a range run computes every
    date of its range in one pass."""
    with duckdb.connect(str(folder / "w.duckdb"), read_only=True) as c:
        known = {
            d.isoformat()
            for (d,) in c.sql(
                "SELECT session_date FROM date_inputs UNION SELECT session_date FROM dates_done"
            ).fetchall()
        }
    res = {
        "inbox": InboxResource(path=str(inbox)),
        "warehouse": WarehouseResource(path=str(folder / "w.duckdb")),
    }
    when = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
    with dg.build_schedule_context(resources=res, scheduled_execution_time=when) as ctx:
        got = nightly(ctx)
    if isinstance(got, dg.SkipReason):
        return []
    spans = [(r.partition_key_range.start, r.partition_key_range.end) for r in got]
    return sorted(d for d in known if any(a <= d <= b for a, b in spans))


def _run(inbox: Path, folder: Path):
    return run_inbox(inbox, folder / "w.duckdb", publish_to=folder)


def test_every_change_gives_what_a_run_from_scratch_gives(base, tmp_path, monkeypatch):
    inbox = tmp_path / "inbox"
    shutil.copytree(base, inbox)
    ours = tmp_path / "ours"
    monkeypatch.setenv("TRAVELLER_NOW", EARLY)
    first = _run(inbox, ours)
    assert first.plan.dates == ["2026-11-02", "2026-11-03"]
    assert all(r == [incremental.NEW] for r in first.plan.reasons.values())
    # 3 November is provisional at EARLY, but time alone changes it only once its correction
    # period is over (published at 22:44 and 22:50, Law 79C: 30 minutes): nothing is due yet
    assert _scheduled(inbox, ours) == []
    assert _run(inbox, ours).plan.dates == []

    def step(name: str, change: Callable[[], None], expect: dict[str, str]) -> None:
        change()
        # the nightly schedule asks Dagster for exactly the dates the run will recompute
        assert _scheduled(inbox, ours) == sorted(expect), name
        report = _run(inbox, ours)
        got = {d: ", ".join(r) for d, r in report.plan.reasons.items()}
        assert got == expect, name
        fresh = tmp_path / f"fresh-{name}"
        _run(inbox, fresh)
        _same(ours, fresh)

    # Time alone: 3 November's standings were provisional (published at 22:44 and 22:50 that
    # day, then 30 minutes of correction period, Law 79C); 2 November's were final already.
    def later() -> None:
        monkeypatch.setenv("TRAVELLER_NOW", LATE)

    step("time", later, {"2026-11-03": incremental.AWAITING})

    def new_file() -> None:
        shutil.copy(SAMPLE_INBOX / "results-club9-2026-11-03.csv", inbox)
        for name in ("events.csv", "contestants.csv"):
            _append(inbox / name, SAMPLE_INBOX / name, lambda r: r["event_id"] in LATER_EVENTS)

    step("new-file", new_file, {"2026-11-03": incremental.CHANGED})

    def new_rulings() -> None:
        _append(
            inbox / "rulings.csv",
            SAMPLE_INBOX / "rulings.csv",
            lambda r: r["ruling_id"] in LATER_RULINGS,
        )

    step("new-rulings", new_rulings, {"2026-11-03": incremental.CHANGED})

    def new_appeal() -> None:
        _append(
            inbox / "appeals.csv",
            SAMPLE_INBOX / "appeals.csv",
            lambda r: r["appeal_id"] == LATER_APPEAL,
        )

    step("new-appeal", new_appeal, {"2026-11-02": incremental.CHANGED})

    def changed_file() -> None:
        path = inbox / "results-club1-2026-11-03.csv"
        header, rows = _rows(path)
        _write(path, header, rows[:-1])  # the last result of the file is taken out

    step("changed-file", changed_file, {"2026-11-03": incremental.CHANGED})

    def profile() -> None:
        path = inbox / "events.csv"
        header, rows = _rows(path)
        for r in rows:
            if r["event_id"].startswith("KO6"):
                r["profile"] = "ebu"
        _write(path, header, rows)

    # the knockout's two dates, and only those
    step("profile", profile, {"2026-11-02": incremental.CHANGED, "2026-11-03": incremental.CHANGED})

    def removed_file() -> None:
        (inbox / "results-club9-2026-11-03.csv").unlink()

    step("removed-file", removed_file, {"2026-11-03": incremental.CHANGED})

    def withdrawn_date() -> None:
        for p in inbox.glob("results-*-2026-11-03.csv"):
            p.unlink()
        _keep(inbox / "events.csv", lambda r: r["date"] != "2026-11-03")
        _keep(inbox / "rulings.csv", lambda r: not r["called_at"].startswith("2026-11-03"))

    step(
        "withdrawn",
        withdrawn_date,
        {
            "2026-11-03": incremental.WITHDRAWN,
            # the two-session pairs and the knockout left 3 November: their totals change
            "2026-11-02": f"{incremental.CHANGED}, {incremental.EVENT}",
        },
    )


def test_nothing_new_reads_nothing_and_writes_nothing(base, tmp_path, monkeypatch):
    from pipelines import file_digests

    inbox = tmp_path / "inbox"
    shutil.copytree(base, inbox)
    monkeypatch.setenv("TRAVELLER_NOW", LATE)
    monkeypatch.setattr(file_digests, "RACY_NS", 0)  # the files just copied are kept
    folder = tmp_path / "w"
    _run(inbox, folder)
    from datetime import date

    db = folder / "w.duckdb"
    before = hashlib.sha256(db.read_bytes()).hexdigest(), _site(folder)
    # as the next night's process: the digests kept by the run, no inbox file read to judge
    monkeypatch.setattr(file_digests, "_DIGESTS", {})
    opened: list[Path] = []
    real_open = Path.open
    monkeypatch.setattr(
        Path, "open", lambda self, *a, **k: opened.append(self) or real_open(self, *a, **k)
    )
    said = incremental.up_to_date(inbox, db, None, date.today())
    assert said is not None and said.startswith("nothing new: 8 file(s) unchanged")
    assert [p for p in opened if inbox in p.parents] == []
    monkeypatch.undo()
    monkeypatch.setenv("TRAVELLER_NOW", LATE)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before[0]
    report = _run(inbox, folder)  # the runner itself: nothing due, no audit, no publication
    assert report.plan.dates == [] and "audit" not in report.seconds
    assert "publish" not in report.seconds
    assert _site(folder) == before[1]
    # a changed byte in one file, and the check says there is work again
    (inbox / "events.csv").write_text((inbox / "events.csv").read_text() + "\n")
    assert incremental.up_to_date(inbox, db, None, date.today()) is None


def _after_dates(folder: Path, instance: dg.DagsterInstance, cursor: str | None) -> dg.SensorResult:
    res = {"warehouse": WarehouseResource(path=str(folder / "w.duckdb"))}
    with dg.build_sensor_context(resources=res, instance=instance, cursor=cursor) as ctx:
        return after_dates(ctx)


def test_the_audit_and_the_site_follow_the_runs_of_dates_once(base, tmp_path, monkeypatch):
    """The sensor of the whole-warehouse job (``audit_and_publication``): nothing to do after
    a whole run; a run of the date job alone (its two groups, as a Dagster deployment runs
    it) changes the results, and the sensor asks for one run — not while a run is still
    running, not twice for the same results."""
    from dagster._core.test_utils import create_run_for_test

    from assets.automation import nightly_job
    from pipelines import stages
    from pipelines.definitions import defs
    from pipelines.partition_tags import range_tags

    inbox = tmp_path / "inbox"
    shutil.copytree(base, inbox)
    monkeypatch.setenv("TRAVELLER_NOW", LATE)
    folder = tmp_path / "w"
    instance = dg.DagsterInstance.ephemeral()
    assert _after_dates(folder, instance, None).run_requests == []  # no warehouse yet
    _run(inbox, folder)
    done = _after_dates(folder, instance, None)
    assert done.run_requests == [] and "up to date" in done.skip_reason.skip_message

    # new rulings of 3 November, run as the date job runs them (no audit, no publication)
    later = LATER_RULINGS
    _append(inbox / "rulings.csv", SAMPLE_INBOX / "rulings.csv", lambda r: r["ruling_id"] in later)
    day = "2026-11-03"
    resources = {
        "warehouse": WarehouseResource(path=str(folder / "w.duckdb")),
        "inbox": InboxResource(path=str(inbox)),
        "publication": PublicationResource(path=str(folder)),
    }
    ran = dg.materialize(
        [*defs.assets, *defs.asset_checks],
        selection=dg.AssetSelection.groups("inbox", "results"),
        resources=resources,
        instance=instance,
        tags=range_tags(day, day),
    )
    assert ran.success
    fingerprint, steps = stages.whole_warehouse_due(stages.Warehouse(folder / "w.duckdb"))
    assert steps == ["audit", "publish"]

    # a run of dates not finished: wait for it
    running = create_run_for_test(
        instance, job_name=nightly_job.name, status=dg.DagsterRunStatus.STARTED
    )
    waiting = _after_dates(folder, instance, None)
    assert waiting.run_requests == [] and waiting.cursor is None
    instance.delete_run(running.run_id)

    asked = _after_dates(folder, instance, None)
    assert [r.run_key for r in asked.run_requests] == [f"warehouse-1-{fingerprint[:16]}"]
    # the same results again (the run failed, say): not asked for twice
    assert _after_dates(folder, instance, asked.cursor).run_requests == []
    # the run: its last step records the audit and the publication as done
    whole = dg.materialize(
        [*defs.assets, *defs.asset_checks],
        selection=dg.AssetSelection.groups("audit", "publish"),
        resources=resources,
        instance=instance,
    )
    assert whole.success
    assert stages.whole_warehouse_due(stages.Warehouse(folder / "w.duckdb")) == (fingerprint, [])
    # and the whole-warehouse run left what traveller run leaves
    fresh = tmp_path / "fresh"
    _run(inbox, fresh)
    _same(folder, fresh)
