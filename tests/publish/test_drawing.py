"""The season dashboard drawn by a process of its own (:mod:`pipelines.reports.drawing`) is
the page the run's process draws, byte for byte; a drawing process that dies leaves the page
to be drawn here; and a run starts one only for a night's few results with a second
processor to draw on — stopped before a publication shares its events with helpers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipelines.reports import drawing, season
from pipelines.resources import SAMPLE_INBOX
from pipelines.runner import _draws_apart, run_inbox
from tests.publish.conftest import NOW, Sample


def _refused(*_args, **_kwargs):
    raise AssertionError("drawn in the run's own process")


def _dies(*_args) -> None:
    """In the drawing process: end it at once, as the out-of-memory killer would."""
    os._exit(1)


@pytest.fixture
def no_drawing_process():
    drawing.stop()
    yield
    drawing.stop()


def test_dashboard_drawn_apart_is_the_same_bytes(
    sample: Sample, tmp_path: Path, monkeypatch, nothing_remembered, no_drawing_process
):
    monkeypatch.setenv("TRAVELLER_NOW", NOW)  # the page's "generated" line, in both processes
    sessions, rejections = season.season_frames(sample.warehouse)
    assert sessions.height and rejections.height == 0
    # a club's rejected rows: the rejections chart is drawn too
    rejections = pl.DataFrame(
        {"club": ["<b>club</b>"], "stage": ["read"], "rejected": [2]}, schema=rejections.schema
    )
    here = season.write_season(sessions, rejections, tmp_path / "here" / "season.html")
    peaks = len(drawing.PEAKS)
    drawing.start()
    assert drawing.started()
    # nothing can be drawn in this process now: the page must come from the other one
    monkeypatch.setattr(season, "Figure", _refused)
    job = drawing.submit(season.write_season, sessions, rejections, tmp_path / "apart" / "p.html")
    assert job is not None
    apart = drawing.outcome(job, _refused)
    drawing.stop()
    assert apart == tmp_path / "apart" / "p.html"
    assert here.read_bytes() == apart.read_bytes()
    assert b"data:image/png;base64," in apart.read_bytes()
    # the drawing process's peak memory is kept for the benchmark, and with it this
    # process's peak when it stopped the drawing process: both held at once at most
    assert len(drawing.PEAKS) == peaks + 1 and drawing.PEAKS[-1] > 50
    assert drawing.TOGETHER[-1] > drawing.PEAKS[-1] + 50
    assert not drawing.started()


def test_a_drawing_process_that_dies_leaves_the_page_to_be_drawn_here(
    sample: Sample, tmp_path: Path, no_drawing_process
):
    sessions, rejections = season.season_frames(sample.warehouse)
    out = tmp_path / "season.html"
    drawing.start()
    job = drawing.submit(_dies)
    assert job is not None
    assert drawing.outcome(job, season.write_season, sessions, rejections, out) == out
    assert b"<img" in out.read_bytes()
    assert not drawing.started()
    # with no drawing process, nothing is handed over: the caller draws
    assert drawing.submit(season.write_season, sessions, rejections, out) is None


def test_an_error_of_the_drawing_is_raised_here(tmp_path: Path, no_drawing_process):
    drawing.start()
    no_month = pl.DataFrame({"date": ["2026-01-05"]})  # a season mart without its months
    job = drawing.submit(season.write_season, no_month, pl.DataFrame(), tmp_path / "x")
    with pytest.raises(pl.exceptions.ColumnNotFoundError):  # as drawn here
        drawing.outcome(job, _refused)


def test_a_run_draws_apart_whatever_it_recomputes_with_a_second_processor(monkeypatch):
    """A run that recomputes anything starts the drawing process when a second processor is
    there (a first load too: its audit's charts are drawn there; its publication, shared with
    helper processes, stops it first); with one worker, or nothing to recompute, none."""
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "2")
    assert _draws_apart(["2026-01-07"])
    assert _draws_apart([f"2026-01-{d:02d}" for d in range(1, 31)])
    assert not _draws_apart([])  # nothing recomputed: nothing published
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "1")
    assert not _draws_apart(["2026-01-07"])  # every publication in the run's process


def test_a_publication_shared_with_helpers_stops_the_drawing_process_first(
    sample: Sample, tmp_path: Path, monkeypatch, nothing_remembered, no_drawing_process
):
    """A publication that shares its events with helper processes stops the drawing process
    before it starts them (they take the processors; its memory is not held beside theirs)
    and draws the season dashboard itself; one made in one process leaves it running."""
    import pipelines.publish as publish_mod

    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "2")
    monkeypatch.setattr(publish_mod, "PARALLEL_FROM_RESULTS", 1)
    seen = []
    real = publish_mod._start_helpers

    def start(shares, job):
        seen.append(drawing.started())
        return real(shares, job)

    monkeypatch.setattr(publish_mod, "_start_helpers", start)
    drawing.start()
    shared = publish_mod.publish(sample.warehouse, tmp_path / "shared")
    assert seen == [False] and not drawing.started()
    assert shared.dashboard is not None and shared.dashboard.is_file()
    monkeypatch.setattr(publish_mod, "PARALLEL_FROM_RESULTS", 10**9)
    drawing.start()
    publish_mod.publish(sample.warehouse, tmp_path / "alone")
    assert seen == [False, True] and drawing.started()


def test_a_run_drawing_apart_publishes_the_dashboard_a_run_in_one_process_does(
    tmp_path: Path, monkeypatch, nothing_remembered, no_drawing_process
):
    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    pages = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", workers)
        inbox = tmp_path / workers / "inbox"
        shutil.copytree(SAMPLE_INBOX, inbox)
        peaks = len(drawing.PEAKS)
        run_inbox(inbox, tmp_path / workers / "w.duckdb", publish_to=tmp_path / workers / "out")
        # a drawing process was started (and stopped with the run) only with two workers
        assert len(drawing.PEAKS) == peaks + (workers == "2")
        assert not drawing.started()
        pages[workers] = (tmp_path / workers / "out" / "season.html").read_bytes()
    assert pages["1"] == pages["2"]


def _policy_after(seconds: float) -> int:
    """In the drawing process: its scheduling policy once ``seconds`` have passed."""
    import time

    time.sleep(seconds)
    return os.sched_getscheduler(0)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling policies")
def test_the_drawing_process_yields_until_the_run_has_waited_for_it(
    no_drawing_process, monkeypatch
):
    """The drawing process runs only on idle processors (``SCHED_IDLE``) from its start; a
    result the run waits for longer than ``HURRY_AFTER`` has it run as any process does
    (``SCHED_OTHER``): on a machine kept busy by other work it is not starved while the run,
    idle, waits."""
    drawing.start()
    first = drawing.submit(os.sched_getscheduler, 0)
    assert first is not None
    assert drawing.outcome(first, _refused) == os.SCHED_IDLE  # done at once: still yielding
    monkeypatch.setattr(drawing, "HURRY_AFTER", 0.2)
    job = drawing.submit(_policy_after, 1.5)
    assert drawing.outcome(job, _refused) == os.SCHED_OTHER
