"""A quiet night is a hash of the files: the same inbox read on a later day is the same
inbox, unless it holds a row rejected for being dated after tomorrow that the later day
accepts (a result is accepted up to the day after the run)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines.incremental import read_fingerprint, still_read_alike, up_to_date
from pipelines.runner import run_inbox
from tests.robustness.conftest import RESULTS


def test_the_same_files_read_on_a_later_day_are_the_same_inbox(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="OK1"))
    # the inbox is read as on $TRAVELLER_NOW's day, not the clock's: the run is the same
    # whenever it is made (a date five days after the 30th is rejected even once it is past)
    today = date(2026, 11, 30)
    future = today + timedelta(days=5)
    (inbox / f"results-{future.isoformat()}.csv").write_text(RESULTS.format(e="LATER"))
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert report.rejections.height  # the future-dated file's rows
    assert up_to_date(inbox, wh, None, today)
    # up to the eve of the eve: the future rows are still after tomorrow, nothing to read
    assert up_to_date(inbox, wh, None, future - timedelta(days=2))
    # on the eve of that date its rows are tomorrow's: accepted, so the inbox is read again
    assert up_to_date(inbox, wh, None, future - timedelta(days=1)) is None


def test_an_inbox_without_future_rows_is_the_same_any_day():
    recorded = read_fingerprint("abc", None)
    assert still_read_alike(recorded, "abc", date(2031, 1, 1))
    assert not still_read_alike(recorded, "abd", date(2026, 1, 1))
    assert not still_read_alike(None, "abc", date(2026, 1, 1))
    later = read_fingerprint("abc", "2026-12-10")
    assert still_read_alike(later, "abc", date(2026, 12, 8))  # tomorrow is the 9th
    assert not still_read_alike(later, "abc", date(2026, 12, 9))  # tomorrow is the 10th


def test_a_run_reads_the_inbox_as_on_the_day_of_its_clock(tmp_path: Path, monkeypatch):
    """A session dated two days after ``$TRAVELLER_NOW`` is rejected as not yet played, even
    when the machine's clock is long past it (and one dated the day after is accepted): a
    run given a clock is reproducible in what it reads as in its standings."""
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-20 12:00")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21.csv").write_text(RESULTS.format(e="TOMORROW"))
    (inbox / "results-2026-11-22.csv").write_text(RESULTS.format(e="AFTER"))
    report = run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    rejected = report.rejections.filter(pl.col("field") == "session_date")
    assert set(rejected["file"]) == {"results-2026-11-22.csv"}
    assert all("2026-11-22" in r for r in rejected["reason"])
