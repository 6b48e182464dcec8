"""The season dashboard drawn by a process of its own (:mod:`pipelines.reports.drawing`) is
the page the run's process draws, byte for byte; a drawing process that dies leaves the page
to be drawn here; and a run starts one only for a night's few results with a second
processor to draw on."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipelines.publish import PARALLEL_FROM_RESULTS
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
    # the drawing process's peak memory is kept for the benchmark
    assert len(drawing.PEAKS) == peaks + 1 and drawing.PEAKS[-1] > 50
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


class _Sizes:
    """A warehouse stand-in answering ``read/date_sizes``."""

    def __init__(self, sizes: dict[str, int]) -> None:
        self.sizes = sizes

    def query(self, name: str) -> pl.DataFrame:
        assert name == "read/date_sizes"
        sizes = self.sizes
        return pl.DataFrame({"session_date": list(sizes), "results": list(sizes.values())})


def test_a_run_draws_apart_only_a_night_with_a_second_processor(monkeypatch):
    half = PARALLEL_FROM_RESULTS // 2
    wh = _Sizes({"2026-01-05": half, "2026-01-06": half - 1, "2026-01-07": 1})
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "2")
    assert _draws_apart(wh, ["2026-01-07"])
    assert _draws_apart(wh, ["2026-01-05", "2026-01-06"])  # one result short of a shared one
    assert not _draws_apart(wh, ["2026-01-05", "2026-01-06", "2026-01-07"])  # made in shares
    assert not _draws_apart(wh, [])  # nothing recomputed: nothing published
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "1")
    assert not _draws_apart(wh, ["2026-01-07"])  # every publication in the run's process


def test_a_run_drawing_apart_publishes_the_dashboard_a_run_in_one_process_does(
    tmp_path: Path, monkeypatch, no_drawing_process
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
