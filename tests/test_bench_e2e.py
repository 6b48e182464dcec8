"""The end-to-end benchmark's plumbing: sizing, adding an evening as a scorer would, the report.

The timings themselves are measurements (printed by ``traveller bench --end-to-end``), not
assertions; a whole run of the benchmark is too slow for the suite.
"""

from __future__ import annotations

import csv
from datetime import date

import pytest

from pipelines.bench_e2e import (
    RESULTS_PER_SESSION,
    EndToEndReport,
    PhaseReport,
    add_evening,
    plan,
)
from pipelines.inbox import scan
from pipelines.synth.inbox import generate_inbox


def rows(path):
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_plan_spreads_the_results_over_the_dates():
    sessions, clubs = plan(100_000, 20)
    assert sessions == clubs * 20
    assert 95_000 <= sessions * RESULTS_PER_SESSION <= 105_000 + RESULTS_PER_SESSION * 20
    assert plan(1, 1) == (1, 1)
    with pytest.raises(ValueError):
        plan(0, 5)


def test_an_added_evening_appends_to_the_shared_files(tmp_path):
    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=2, clubs=2, seed=3, other_forms=False)
    before = {n: rows(inbox / n) for n in ("events.csv", "rulings.csv", "appeals.csv")}
    alone, added = add_evening(inbox, date(2026, 12, 1), 2, 4, tmp_path)
    assert added > 0
    after = {n: rows(inbox / n) for n in before}
    for name, old in before.items():
        assert after[name][: len(old)] == old  # appended, nothing rewritten
    new_events = after["events.csv"][len(before["events.csv"]) :]
    assert {r["date"] for r in new_events} == {"2026-12-01"}
    ids = [r["ruling_id"] for r in after["rulings.csv"]]
    assert len(ids) == len(set(ids))  # the evening's R0001 is not the first R0001
    appealed = {r["ruling_id"] for r in after["appeals.csv"]}
    assert appealed <= set(ids)
    # the inbox reads: every result of the evening dated on it
    snap = scan(inbox)
    assert (snap.results["session_date"] == "2026-12-01").sum() == added
    assert (alone / "events.csv").is_file()


def test_report_lines_name_every_phase_and_the_ratio():
    first = PhaseReport(
        "first load",
        results=1000,
        dates=2,
        wall=10.0,
        peak_mb=300,
        seconds={"inbox": 1.0, "results": 6.0},
        steps={"standings": 3.0},
    )
    r = EndToEndReport(requested=1000, generated=1000, dates=2, phases=[first], kernel_rate=50_000)
    text = "\n".join(r.lines())
    assert "first load" in text and "100 results/s" in text and "peak 300 MB" in text
    assert "1 : 500" in text  # 50,000 / 100
    assert "floor" not in text  # not run
    r.floor_seconds, r.floor_results = 0.4, 990
    text = "\n".join(r.lines())
    assert "hand-written Polars job" in text and "990 results" in text
    assert "first load / floor   25.0 times" in text  # 10 s / 0.4 s


def test_the_floor_runs_as_its_own_process(tmp_path):
    from pipelines.bench_e2e import run_floor

    inbox = tmp_path / "inbox"
    summary = generate_inbox(inbox, sessions=3, clubs=3, seed=2)
    seconds, scored = run_floor(inbox, tmp_path / "floor")
    assert seconds > 0 and 0 < scored <= summary.results
    assert (tmp_path / "floor" / "standings.parquet").is_file()


def test_report_times_each_stage_and_the_run_without_the_site():
    steps = {
        "inbox_tables": 1.0,
        "raw_results": 0.5,
        "validated_results": 1.0,
        "validated_results_rows_accounted": 0.25,
        "rulings": 0.75,
        "scored_results": 2.0,
        "scored_results_matchpoints_conserved": 0.5,
        "standings": 1.5,
        "audit_marts": 0.5,
        "director_audit_audit_rates_in_range": 0.25,
        "audit_reports": 0.25,
        "publication": 4.0,
    }
    p = PhaseReport("first load", results=12_000, dates=3, wall=15.0, steps=steps)
    assert p.stages() == {
        "read": 1.5,
        "validate": 2.0,
        "score": 2.5,
        "rank": 1.5,
        "audit": 1.0,
        "publish": 4.0,
        "start-up and the rest": 2.5,
    }
    assert p.without_site == 11.0
    text = "\n".join(EndToEndReport(12_000, 12_000, 3, phases=[p]).lines())
    assert "  without the site         11.00 s         1,091 results/s" in text
    assert "  score                     2.50 s         4,800 results/s" in text
    assert "  start-up and the rest     2.50 s" in text


@pytest.mark.slow
def test_every_generated_date_is_scored(tmp_path, monkeypatch):
    """The generated season lies in the past (it ends the day before yesterday, the new date
    is yesterday): no row is rejected as dated after tomorrow, every generated result of the
    first load and of the new date is scored. (A season starting on a fixed date once ran
    into the future and a month of it was rejected unseen.)"""
    from datetime import date

    import duckdb

    from pipelines.bench_e2e import _dates, run_end_to_end

    monkeypatch.delenv("TRAVELLER_NOW", raising=False)
    report = run_end_to_end(300, 2, work=tmp_path, kernel=False, progress=lambda _m: None)
    first, new = report.phases[0], report.phases[1]
    assert max(_dates(tmp_path / "inbox")) < date.today()
    with duckdb.connect(str(tmp_path / "warehouse.duckdb"), read_only=True) as c:
        [(rejected,)] = c.sql("SELECT count(*) FROM rejected_inputs").fetchall()
        [(scored,)] = c.sql("SELECT count(*) FROM validated_results").fetchall()
    assert rejected == 0
    assert scored == first.results + new.results
    # a publication this small is made in the run's process alone, its dashboard drawn by a
    # process beside the whole run's: at once, the drawing process's peak and the run's at
    # its stop (the run's end), at most the two peaks added
    assert first.helper_peak_mb == 0 and first.peak_mb > 0
    if first.drawing_peak_mb:  # a machine with a second processor
        assert first.peak_mb < first.peak_together_mb <= first.peak_mb + first.drawing_peak_mb
        assert first.peak_together_mb > first.drawing_peak_mb
    else:
        assert first.peak_together_mb == first.peak_mb


def test_a_run_started_by_the_benchmark_reports_its_own_peak_memory():
    """The peak memory of a run started by a process holding much more is the run's own
    (``VmHWM``), not the parent's size, which ``ru_maxrss`` keeps across ``exec``."""
    import subprocess
    import sys

    from pipelines.bench import peak_rss_mb

    held = bytearray(300 << 20)
    for i in range(0, len(held), 4096):
        held[i] = 1
    assert peak_rss_mb() >= 300
    code = "from pipelines.bench import peak_rss_mb; print(peak_rss_mb())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert float(done.stdout) < 200
    del held


def test_a_peak_counted_again_is_the_peak_of_what_follows():
    """After :func:`~pipelines.bench.reset_peak_rss`, the peak is that of what follows, not
    the process's since it began (Linux's ``VmHWM``, reset through ``clear_refs``)."""
    from pipelines.bench import peak_rss_mb, reset_peak_rss

    held = bytearray(300 << 20)
    for i in range(0, len(held), 4096):
        held[i] = 1
    before = peak_rss_mb()
    del held
    if not reset_peak_rss():
        pytest.skip("this system cannot start a process's peak memory again")
    assert peak_rss_mb() < before - 250


def test_the_peak_together_adds_the_helpers_to_the_peak_while_they_ran():
    """A run's memory with its publication's helpers: the larger of its own peak and, while
    its helpers ran, its peak then with each helper's added (the figures of the 1M first load
    of 6 December 2026 at 14:18 UTC: the run's own peak 1,598 MB after its helper had ended,
    1,100 MB while its helper (678 MB) ran). Where that was not measured, the two peaks are
    added whole."""
    from pipelines.bench_e2e import _peak
    from pipelines.publish import SharedPeak

    window = SharedPeak(before=1_412, during=1_100, helpers=[678])
    assert window.together == 1_778
    assert SharedPeak(before=900, during=700, helpers=[300, 250]).together == 1_250
    p = PhaseReport("first load", results=1_067_927, wall=448.1, peak_mb=1_598,
                    helper_peak_mb=678, together_mb=max(1_598, window.together))  # fmt: skip
    r = EndToEndReport(1_000_000, 1_067_927, 365, phases=[p])
    assert p.peak_together_mb == 1_778 and _peak(r) == ("1,778 MB", True)
    assert "publication helper 678 MB; at once at most 1,778 MB" in "\n".join(r.lines())
    old = PhaseReport("first load", peak_mb=1_598, helper_peak_mb=678)  # an older report's
    assert old.peak_together_mb == 2_276


def test_the_targets_are_judged_on_the_phases_measured():
    """The nightly-scale targets against the figures of the 1M benchmark of 6 December 2026
    (code b8c2d32, README): the first load 384.96 s for 1,067,927 results, its publication
    237.48 s, peak 1,710 MB and its helper's 675 MB; the floor 3.357 s; one new date 16.3 s,
    the date alone 8.1 s; nothing new 0.8 s, writing nothing."""
    first = PhaseReport(
        "first load",
        results=1_067_927,
        wall=384.96,
        steps={"publication": 237.48},
        peak_mb=1_710,
        helper_peak_mb=675,
    )
    r = EndToEndReport(
        1_000_000,
        1_067_927,
        365,
        phases=[
            first,
            PhaseReport("one new date", results=3_115, wall=16.3),
            PhaseReport("that date alone", results=3_115, wall=8.1),
            PhaseReport("nothing new", wall=0.8),
        ],
        floor_seconds=3.357,
        nothing_new_changed=[],
    )
    assert r.targets() == [
        ("first load without the site >= 250,000 results/s", "7,241/s", False),
        ("first load with the site >= 25,000 results/s", "2,774/s", False),
        ("first load <= 25 times the floor", "114.7 times", False),
        ("one new date <= 10 s", "16.3 s", False),
        ("one new date <= 1.5 times that date alone", "2.01 times", False),
        ("nothing new <= 3 s", "0.8 s", True),
        ("nothing new writes nothing", "0 file(s)", True),
        ("first load's peak (with its helpers, at once) <= 2 GB", "2,385 MB", False),
    ]
    text = "\n".join(r.lines())
    assert "targets (nightly scale)" in text
    assert "  nothing new <= 3 s" in text and text.count(" not met") == 6
    # a file the run with nothing new wrote is counted; a phase not run is left out
    r.nothing_new_changed = ["warehouse.duckdb"]
    r.phases = [first]
    r.floor_seconds = 0.0
    assert [(label, met) for label, _, met in r.targets()] == [
        ("first load without the site >= 250,000 results/s", False),
        ("first load with the site >= 25,000 results/s", False),
        ("nothing new writes nothing", False),
        ("first load's peak (with its helpers, at once) <= 2 GB", False),
    ]


def test_a_tree_state_shows_what_a_run_wrote(tmp_path):
    import os

    from pipelines.bench_e2e import changed, tree_state

    (tmp_path / "site" / "events").mkdir(parents=True)
    (tmp_path / "inbox").mkdir()
    page, kept = tmp_path / "site" / "events" / "a.html", tmp_path / "w.duckdb"
    page.write_text("a")
    kept.write_text("w")
    (tmp_path / "inbox" / "r.csv").write_text("r")
    before = tree_state(tmp_path, skip=("inbox",))
    assert sorted(before) == ["site/events/a.html", "w.duckdb"]
    assert changed(before, tree_state(tmp_path, skip=("inbox",))) == []
    st = page.stat()
    page.write_text("b")  # the same size, a new time
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    (tmp_path / "site" / "new.html").write_text("n")
    kept.unlink()
    (tmp_path / "inbox" / "r.csv").write_text("changed, but not looked at")
    assert changed(before, tree_state(tmp_path, skip=("inbox",))) == [
        "site/events/a.html",
        "site/new.html",
        "w.duckdb",
    ]


def test_the_benchmark_times_runs_of_compiled_modules():
    """Before it times a run, the benchmark compiles the project's modules as an install
    does: each module a run imports has bytecode no older than its source, which a fresh
    Python reads instead of compiling the source again."""
    import importlib.util
    import os
    from pathlib import Path

    from pipelines.bench_e2e import compile_bytecode

    root = Path(__file__).resolve().parent.parent
    if not os.access(root / "pipelines", os.W_OK):
        pytest.skip("a read-only checkout: its bytecode cannot be written")
    assert compile_bytecode() == ["pipelines", "assets"]
    for module in ("pipelines/cli.py", "pipelines/runner.py", "assets/publish.py"):
        source = root / module
        cached = Path(importlib.util.cache_from_source(os.fspath(source))).read_bytes()
        # the header Python checks before it uses the bytecode (PEP 552): this version's
        # magic number, then the source's time stamp and size, or the source's hash
        assert cached[:4] == importlib.util.MAGIC_NUMBER
        flags = int.from_bytes(cached[4:8], "little")
        if flags & 1:
            assert cached[8:16] == importlib.util.source_hash(source.read_bytes())
        else:
            stat = source.stat()
            assert int.from_bytes(cached[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
            assert int.from_bytes(cached[12:16], "little") == stat.st_size & 0xFFFFFFFF
