"""Many session dates in one pass: the ranges a run computes, a date stopped inside a range,
and the read cache (a run reads only new or changed files).

A range run computes every date of the range in one vectorised pass (one Dagster run,
``BackfillPolicy.single_run``). A date whose rows are not accounted for must still stop
alone — no standings for it, the other dates of the range published — as it did when each
date was its own run.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines import read_cache, stages
from pipelines.formats.model import RESULT_COLUMNS
from pipelines.incremental import ranges
from pipelines.runner import run_inbox
from pipelines.synth.inbox import generate_inbox
from pipelines.warehouse import Warehouse

DAYS = ["2026-11-02", "2026-11-03", "2026-11-04"]


def test_ranges_hold_the_due_dates_and_no_known_date_that_is_not_due():
    known = ["2026-01-05", "2026-01-06", "2026-01-07", "2026-02-02", "2026-03-02"]
    # the first load: every date due; one range over a few days nobody played, but none over
    # weeks (a range run records every day of it in Dagster's event log)
    assert ranges(known, known) == [
        ("2026-01-05", "2026-01-07"),
        ("2026-02-02", "2026-02-02"),
        ("2026-03-02", "2026-03-02"),
    ]
    weekly = ["2026-01-05", "2026-01-12", "2026-01-19"]
    assert ranges(weekly, weekly) == [("2026-01-05", "2026-01-19")]
    # a new night on top of the history: that date alone
    assert ranges(["2026-03-03"], [*known, "2026-03-03"]) == [("2026-03-03", "2026-03-03")]
    # two due dates with a known date between them that is not due: two ranges
    assert ranges(["2026-01-05", "2026-01-07"], known) == [
        ("2026-01-05", "2026-01-05"),
        ("2026-01-07", "2026-01-07"),
    ]
    # a date that loses an event comes first (its old session leaves the event's totals)
    assert ranges(["2026-01-05", "2026-03-02"], known, first=["2026-03-02"]) == [
        ("2026-03-02", "2026-03-02"),
        ("2026-01-05", "2026-01-05"),
    ]
    assert ranges([], known) == []
    # a range holds at most the budget's table results (a date alone may hold more)
    sizes = {"2026-01-05": 90, "2026-01-06": 90, "2026-01-07": 250, "2026-02-02": 10}
    assert ranges(known[:4], known[:4], sizes=sizes, budget=200) == [
        ("2026-01-05", "2026-01-06"),
        ("2026-01-07", "2026-01-07"),
        ("2026-02-02", "2026-02-02"),
    ]


@pytest.fixture()
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    generate_inbox(folder, sessions=3, clubs=1, seed=11, other_forms=False)
    return folder


def _session_standings(db: Path) -> dict[str, int]:
    with duckdb.connect(str(db), read_only=True) as c:
        rows = c.sql(
            "SELECT strftime(session_date, '%Y-%m-%d'), count(*) FROM standings "
            "WHERE scope = 'session' GROUP BY ALL"
        ).fetchall()
    return dict(rows)


def test_a_date_stopped_in_a_range_stops_alone(inbox, tmp_path, monkeypatch):
    """A validation that loses a row of the middle date (planted: it neither keeps nor rejects
    it) fails ``rows_accounted`` for that date only; in the one range run of the three dates
    the other two get their standings, the middle one none, and it is not done: the next run
    (the fault gone) computes it."""
    real = stages.validate_day

    def losing(raw: pl.DataFrame, *args, **kwargs):
        validated, rejected = real(raw, *args, **kwargs)
        middle = validated.with_row_index("__i").filter(pl.col("session_date") == DAYS[1])
        return validated.filter(pl.int_range(pl.len()) != middle["__i"][0]), rejected

    monkeypatch.setattr(stages, "validate_day", losing)
    db = tmp_path / "w.duckdb"
    report = run_inbox(inbox, db, publish_to=tmp_path / "out")
    assert report.plan.dates == DAYS
    assert stages.due_ranges(Warehouse(db), report.plan) == [(DAYS[0], DAYS[2])]
    with duckdb.connect(str(db), read_only=True) as c:
        sizes = dict(
            c.sql("SELECT strftime(session_date, '%Y-%m-%d'), results FROM date_inputs").fetchall()
        )
    assert sizes == {
        d: int(sum(1 for _ in (inbox / f"results-club1-{d}.csv").open()) - 1) for d in DAYS
    }
    assert report.blocked_dates == [DAYS[1]]
    stopped = [f for f in report.failed_checks if f.check == "rows_accounted"]
    assert [f.session_date for f in stopped] == [DAYS[1]]
    counts = _session_standings(db)
    assert set(counts) == {DAYS[0], DAYS[2]} and all(counts.values())
    monkeypatch.setattr(stages, "validate_day", real)
    again = run_inbox(inbox, db, publish_to=tmp_path / "out")
    assert again.plan.dates == [DAYS[1]] and again.blocked_dates == []
    assert set(_session_standings(db)) == set(DAYS)


def test_the_read_cache_reads_only_new_or_changed_files(inbox, tmp_path, monkeypatch):
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        _, first = read_cache.refresh(inbox, conn)
    files = sorted(p.name for p in inbox.iterdir())
    assert sorted(first.read) == files and first.kept == 0
    with wh.connect() as conn:
        reads, same = read_cache.refresh(inbox, conn)
    assert same.read == [] and same.forgotten == [] and same.kept == len(files)
    # what the cache gives back is what reading every file gives
    fresh = stages.inbox_mod.reads_of(stages.inbox_mod.read_all(inbox))
    for name in ("files", "events", "contestants", "rulings", "appeals"):
        assert getattr(reads, name).equals(getattr(fresh, name)), name
    # the result rows lean (what dates them, their row hash), and read whole where asked
    inbox_mod = stages.inbox_mod
    lean = fresh.results.with_columns(
        pl.int_range(pl.len(), dtype=pl.Int32).over("file").alias("ordinal")
    ).select(inbox_mod.LEAN_RESULT_COLUMNS)
    assert reads.results.equals(lean)
    with wh.connect() as conn:
        whole = read_cache.results_of(conn, lean.select("file", "ordinal").reverse())
    assert whole.equals(fresh.results.select(*RESULT_COLUMNS, inbox_mod.ROW_HASH).reverse())
    changed = inbox / f"results-club1-{DAYS[1]}.csv"
    lines = changed.read_text().splitlines()
    changed.write_text("\n".join(lines[:-1]) + "\n")
    (inbox / f"results-club1-{DAYS[2]}.csv").unlink()
    with wh.connect() as conn:
        reads, after = read_cache.refresh(inbox, conn)
    assert after.read == [changed.name]
    assert after.forgotten == [f"results-club1-{DAYS[2]}.csv"]
    assert reads.results.height == fresh.results.height - 1 - sum(
        1 for f in fresh.results["file"].to_list() if f.endswith(f"{DAYS[2]}.csv")
    )
    # another reader (here a lower size limit) reads every file again
    monkeypatch.setenv("TRAVELLER_MAX_FILE_MB", "100")
    with wh.connect() as conn:
        _, reread = read_cache.refresh(inbox, conn)
    assert len(reread.read) == len(files) - 1


def test_the_snapshot_from_the_lean_cache_is_the_snapshot_of_every_file_read(inbox, tmp_path):
    """Assembled from the read cache (result rows lean, the rejected read whole) or from
    every file read again: the same registry, rejections (quoting the rows), dated rows and
    date fingerprints — with rows that cannot be dated among them."""
    from pipelines.incremental import date_inputs

    event = f"CLUB1-{DAYS[0]}"
    (inbox / "results-stray.csv").write_text(
        "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
        f"NOWHERE,1,A,1,1,1,1,2,3NT,N,9,400\n"  # an event dated nowhere
        f"{event},x,A,1,1,1,1,2,3NT,N,9,400\n"  # no session number
        f"{event},1,A,1,1,1,1,2,3NT,N,9,400\n",  # dated by events.csv
        encoding="utf-8",
    )
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        read_cache.refresh(inbox, conn)
    with wh.connect() as conn:
        reads, again = read_cache.refresh(inbox, conn)
        assert again.read == [] and reads.results_of is not None
        cached = stages.inbox_mod.assemble(reads, date.today())
    scanned = stages.inbox_mod.scan(inbox, date.today())
    quoted = cached.rejected.filter(pl.col("file") == "results-stray.csv")
    assert quoted.height == 2 and quoted["raw"].str.contains("3NT,N,9,400").all()
    assert cached.rejected.equals(scanned.rejected)
    assert cached.files.equals(scanned.files)
    assert cached.results.equals(scanned.results.select(cached.results.columns))
    assert date_inputs(cached).equals(date_inputs(scanned))


def test_files_are_read_in_batches_of_bytes(inbox, tmp_path, monkeypatch):
    """The files to read go to the cache a batch at a time (at most READ_BATCH_BYTES each, a
    file alone may hold more): the cache then holds what one reading of every file gives."""
    paths = sorted(p for p in inbox.iterdir())
    sizes = [p.stat().st_size for p in paths]
    batches = read_cache.read_batches(paths, budget=max(sizes))
    assert [p for b in batches for p in b] == paths and len(batches) > 1
    assert all(sum(p.stat().st_size for p in b) <= max(sizes) for b in batches)
    assert read_cache.read_batches(paths, budget=1) == [[p] for p in paths]
    assert read_cache.read_batches([], budget=1) == []
    monkeypatch.setattr(
        read_cache, "read_batches", lambda ps, budget=1: [[p] for p in ps]
    )  # one file per batch
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        reads, first = read_cache.refresh(inbox, conn)
    assert sorted(first.read) == [p.name for p in paths]
    fresh = stages.inbox_mod.reads_of(stages.inbox_mod.read_all(inbox))
    for name in ("files", "events", "contestants", "rulings", "appeals", "rejected"):
        assert getattr(reads, name).equals(getattr(fresh, name)), name
    assert reads.results.height == fresh.results.height


def test_a_file_is_hashed_once_until_it_changes(tmp_path, monkeypatch):
    """The digest of a file is taken once per process, and again once the file changes
    (even to bytes of the same size)."""
    import hashlib
    import os

    inbox_mod = stages.inbox_mod
    f = tmp_path / "results.csv"
    f.write_bytes(b"abc")
    assert inbox_mod.sha256(f) == hashlib.sha256(b"abc").hexdigest()
    opened = []
    real_open = Path.open
    monkeypatch.setattr(
        Path, "open", lambda self, *a, **k: opened.append(self) or real_open(self, *a, **k)
    )
    assert inbox_mod.sha256(f) == hashlib.sha256(b"abc").hexdigest() and opened == []
    st = f.stat()
    f.write_bytes(b"abd")  # the same size; its times say it was written
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))  # even with its old modification time
    opened.clear()
    assert inbox_mod.sha256(f) == hashlib.sha256(b"abd").hexdigest() and opened == [f]


def test_the_publication_reads_half_a_range_at_once(monkeypatch):
    from pipelines.settings import RANGE_RESULTS_DEFAULT, publish_results, range_results

    monkeypatch.delenv("TRAVELLER_RANGE_RESULTS", raising=False)
    assert range_results() == RANGE_RESULTS_DEFAULT
    assert publish_results() == RANGE_RESULTS_DEFAULT // 2
    for given, half in (("1", 1), ("2", 1), ("3", 1), ("1000", 500)):
        monkeypatch.setenv("TRAVELLER_RANGE_RESULTS", given)
        assert publish_results() == half
    monkeypatch.setenv("TRAVELLER_RANGE_RESULTS", "0")
    with pytest.raises(ValueError, match="whole number"):
        publish_results()
