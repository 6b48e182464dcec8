"""The audit reports' charts drawn by the drawing process (:func:`pipelines.reports.audit.
prepare`, :func:`pipelines.reports.figures.prefetch`) are the charts the run's own process
draws: the same reports and the same kept charts, byte for byte, with every drawing refused
in the run's process; a drawing process that dies leaves them to be drawn here; the marts
computed ahead are used only for the same inputs and window."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from pipelines import stages
from pipelines.reports import audit, charts, drawing, figures, plots
from pipelines.warehouse import Warehouse
from tests.publish.conftest import Sample


def _refused(*_args, **_kwargs):
    raise AssertionError("drawn in the run's own process")


def _dies(*_args) -> None:
    os._exit(1)


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture
def no_drawing_process():
    drawing.stop()
    figures.forget_pending()
    audit._PREPARED.clear()
    yield
    drawing.stop()
    figures.forget_pending()
    audit._PREPARED.clear()


@pytest.fixture
def own_warehouse(sample: Sample, tmp_path: Path) -> Warehouse:
    """A copy of the sample's warehouse (the audit writes its marts)."""
    path = tmp_path / "w.duckdb"
    shutil.copy(sample.warehouse, path)
    return Warehouse(path)


def _refuse_drawing_here(monkeypatch) -> None:
    for name in ("draw", "_panel", "trend_svg", "legend_svg"):
        monkeypatch.setattr(plots, name, _refused)


def test_reports_with_charts_drawn_apart_are_the_same_bytes(
    own_warehouse: Warehouse, tmp_path: Path, monkeypatch, nothing_remembered, no_drawing_process
):
    wh = own_warehouse
    stages.reports(wh, audit.KINDS, tmp_path / "here")  # every chart drawn here
    for memory in charts.DRAWN_HERE, plots._LAID_OUT:
        memory.clear()
    drawing.start()
    inputs = stages.audit_inputs(wh)
    window = audit._window_label(None, None, inputs)
    marts = audit.build_marts(inputs, window=window)
    jobs = audit.chart_jobs(audit.KINDS, marts, inputs, tmp_path / "apart")
    # the funnel panels of both reports (other names: other panels), their legend, the trend
    assert {job.kind for job, _store in jobs} == {"panel", "legend", "trend"}
    stages.audit(wh, reports_dir=tmp_path / "apart")
    assert set(figures._PENDING) == {job.key for job, _store in jobs} and len(jobs) > 10
    # nothing drawn here, nor the marts computed again: both were done ahead
    _refuse_drawing_here(monkeypatch)
    monkeypatch.setattr(audit, "build_marts", _refused)
    stages.reports(wh, audit.KINDS, tmp_path / "apart")
    assert not figures._PENDING and not audit._PREPARED  # every chart and the marts taken
    assert _files(tmp_path / "here") == _files(tmp_path / "apart")


def test_kept_charts_are_not_handed_over_again(
    own_warehouse: Warehouse, tmp_path: Path, nothing_remembered, no_drawing_process
):
    wh = own_warehouse
    stages.reports(wh, audit.KINDS, tmp_path)  # the reports keep their charts
    charts.DRAWN_HERE.clear()
    drawing.start()
    inputs = stages.audit_inputs(wh)
    assert audit.prepare(audit.KINDS, inputs, tmp_path) == 0  # all kept: nothing to draw
    assert not figures._PENDING
    assert audit.prepare(audit.KINDS, inputs, tmp_path / "elsewhere") > 10  # none kept there


def test_a_drawing_process_that_dies_leaves_the_charts_to_be_drawn_here(
    own_warehouse: Warehouse, tmp_path: Path, nothing_remembered, no_drawing_process
):
    wh = own_warehouse
    stages.reports(wh, audit.KINDS, tmp_path / "here")
    for memory in charts.DRAWN_HERE, plots._LAID_OUT:
        memory.clear()
    drawing.start()
    assert drawing.submit(_dies) is not None  # dies before it draws the charts below
    stages.audit(wh, reports_dir=tmp_path / "apart")
    stages.reports(wh, audit.KINDS, tmp_path / "apart")
    assert not drawing.started()
    assert _files(tmp_path / "here") == _files(tmp_path / "apart")


def test_marts_computed_ahead_serve_only_the_same_inputs_and_window(
    own_warehouse: Warehouse, tmp_path: Path, monkeypatch, no_drawing_process
):
    wh = own_warehouse
    inputs = stages.audit_inputs(wh)
    window = audit._window_label(None, None, inputs)
    # no drawing process: nothing computed ahead
    assert audit.prepare(audit.KINDS, inputs, tmp_path) == 0 and not audit._PREPARED
    drawing.start()
    audit.prepare(audit.KINDS, inputs, tmp_path)
    ahead = audit._PREPARED[0].marts
    # read again (other frames, the same rows): the marts computed ahead, once
    assert audit.report_marts(stages.audit_inputs(wh), window) is ahead
    assert not audit._PREPARED
    computed = []
    monkeypatch.setattr(audit, "build_marts", lambda i, window: computed.append(window) or ahead)
    # another window, or other rows: computed again
    for other, win in (
        (inputs, "2026-01-01 – 2026-01-31"),
        (stages.audit_inputs(wh, date_to="2000-01-01"), window),
    ):
        audit._PREPARED[:] = [audit._Prepared(inputs, window, ahead)]
        audit.report_marts(other, win)
    assert computed == ["2026-01-01 – 2026-01-31", window]


def test_a_drawing_process_given_nothing_is_stopped_without_waiting(no_drawing_process):
    peaks = len(drawing.PEAKS)
    drawing.start()
    t = time.perf_counter()
    drawing.stop()  # still importing its code: ended, not waited for
    assert time.perf_counter() - t < 1.0
    assert not drawing.started() and len(drawing.PEAKS) == peaks


_NIGHT = """
import sys
from pathlib import Path
from pipelines.runner import run_inbox
run_inbox(Path(sys.argv[1]), Path(sys.argv[2]), publish_to=Path(sys.argv[3]))
print(*(m in sys.modules for m in ("pipelines.reports.plots", "pipelines.reports.season")))
"""


def test_a_run_with_a_drawing_process_never_imports_the_drawing_code(tmp_path: Path):
    """A run whose charts are drawn apart does without the drawing code's import (with
    matplotlib's, half a second of a night): nothing in the run's process imports it. (The
    sample's hand records are analysed by endplay, whose package imports matplotlib's pyplot
    itself: a night without new hand records does without matplotlib altogether.)"""
    import subprocess
    import sys

    from pipelines.resources import SAMPLE_INBOX
    from tests.publish.conftest import NOW

    env = {**os.environ, "TRAVELLER_PUBLISH_WORKERS": "2", "TRAVELLER_NOW": NOW}
    env.pop("DAGSTER_HOME", None)
    done = subprocess.run(
        [sys.executable, "-c", _NIGHT, str(SAMPLE_INBOX), str(tmp_path / "w.duckdb"),
         str(tmp_path / "out")],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["False", "False"]
    assert (tmp_path / "out" / "season.html").is_file()
    assert (tmp_path / "reports" / "audit.html").is_file()


def _slow(seconds: float) -> str:
    """In the drawing process: a chart that takes ``seconds``."""
    time.sleep(seconds)
    return "drawn apart"


def test_charts_never_taken_are_let_go_when_the_drawing_process_stops(
    own_warehouse: Warehouse, tmp_path: Path, nothing_remembered, no_drawing_process
):
    """A failed check of the marts stops the reports: the charts handed over are never
    taken. Stopping cancels those not begun and lets go of the futures and the marts."""
    drawing.start()
    stages.audit(own_warehouse, reports_dir=tmp_path)
    assert figures._PENDING and audit._PREPARED
    peaks = len(drawing.PEAKS)
    t = time.perf_counter()
    drawing.stop()
    assert time.perf_counter() - t < 10
    assert not figures._PENDING and not audit._PREPARED and not drawing._HANDED
    assert len(drawing.PEAKS) == peaks + 1


def test_a_starved_drawing_process_is_not_waited_for(
    tmp_path: Path, monkeypatch, no_drawing_process
):
    """A drawing process that does not answer within ``PATIENCE`` (one that takes only idle
    processors, on a machine kept busy) is given up on: the result is made here, and so is
    every later one."""
    monkeypatch.setattr(drawing, "PATIENCE", 0.5)
    drawing.start()
    job = drawing.submit(_slow, 30.0)
    t = time.perf_counter()
    assert drawing.outcome(job, lambda _s: "drawn here", 30.0) == "drawn here"
    # within PATIENCE (0.5 s) and its overhead, not HURRY_AFTER (2 s) or more
    assert time.perf_counter() - t < 1.8
    assert drawing.submit(_slow, 0.0) is None  # nothing more handed over
    t = time.perf_counter()
    drawing.stop()  # the job begun is not waited for
    assert time.perf_counter() - t < 10 and not drawing.started()


def test_the_reports_charts_fail_only_the_reports(
    own_warehouse: Warehouse, tmp_path: Path, monkeypatch, no_drawing_process
):
    """What fails while the reports' charts are prepared is given up there: the audit's
    marts are written all the same (the reports compute it again, and fail there)."""
    drawing.start()
    monkeypatch.setattr(audit, "chart_jobs", _refused)
    summary = stages.audit(own_warehouse, reports_dir=tmp_path)
    assert summary.written.get("director_audit", 0) > 0
    assert not audit._PREPARED and not figures._PENDING
