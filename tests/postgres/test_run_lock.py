"""A PostgreSQL warehouse's run lock: runs of session dates share it, a run of the
whole-warehouse steps holds it alone; whoever holds it is named; a killed holder's lock is
dropped by the server. And a new run's first connection never waits for a reader."""

from __future__ import annotations

import subprocess
import sys
import time

import psycopg
import pytest

from pipelines import pg_warehouse, run_lock
from pipelines.warehouse import Warehouse
from tests.conftest import ROOT

_HOLD = """
import sys, time
from pipelines import run_lock
run_lock.acquire_run(sys.argv[1], 0, shared=sys.argv[2] == "shared", holder=sys.argv[3])
print("held", flush=True)
time.sleep(600)
"""


def _holder(url: str, mode: str, name: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLD, url, mode, name],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_runs_of_dates_share_it_the_whole_warehouse_run_holds_it_alone(pg_url: str):
    dates = _holder(pg_url, "shared", "run of 2026-11-02")
    try:
        # another run of dates goes on beside it
        run_lock.acquire_run(pg_url, 0, shared=True, holder="run of 2026-11-03")
        run_lock.release_run(pg_url)
        # the audit does not, and names who holds the warehouse; it waits as long as told
        with pytest.raises(run_lock.WarehouseBusy, match="run of 2026-11-02"):
            run_lock.acquire_run(pg_url, 0, shared=False, holder="audit")
        t = time.monotonic()
        with pytest.raises(run_lock.WarehouseBusy, match="waited 1 s"):
            run_lock.acquire_run(pg_url, 1, shared=False, holder="audit")
        assert time.monotonic() - t >= 1
    finally:
        dates.kill()  # SIGKILL: the server drops the dead session's lock
        dates.wait(10)
    run_lock.acquire_run(pg_url, 10, shared=False, holder="audit")
    try:
        # while the audit runs, a run of dates waits (here: not at all, so it is refused)
        probe = subprocess.run(
            [sys.executable, "-c", _HOLD, pg_url, "shared", "run of 2026-11-04"],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert probe.returncode != 0 and "audit" in probe.stderr and "alone" in probe.stderr
        # re-entrant within the process that holds it
        run_lock.acquire_run(pg_url, 0, shared=True, holder="audit")
        run_lock.release_run(pg_url)
    finally:
        run_lock.release_run(pg_url)
    assert pg_warehouse._RUN_LOCKS == {}


def test_a_new_run_checks_the_schema_without_waiting_for_a_reader(pg_url: str, monkeypatch):
    """A dashboard's long query holds its tables; a run starting meanwhile checks that the
    warehouse's tables exist without a statement that would wait for it (and make every
    later reader wait behind that statement)."""
    with Warehouse(pg_url).connect():
        pass  # the tables created
    with psycopg.connect(pg_url) as reader:
        reader.execute("SELECT count(*) FROM standings").fetchone()  # its transaction stays open
        pg_warehouse._schema_ok.clear()  # as in a new process
        monkeypatch.setenv("PGOPTIONS", "-c lock_timeout=3000")
        with Warehouse(pg_url).connect() as conn:
            assert conn.execute("SELECT count(*) FROM standings").fetchone() == (0,)
