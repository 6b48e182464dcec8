"""A warehouse held by another run or program: the run waits if asked, else stops at once
with one line naming the holder, exit 5, and nothing written; never two runs interleaved."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import duckdb
import pytest
from typer.testing import CliRunner

from pipelines import run_lock
from pipelines.cli import EXIT_BUSY, app
from pipelines.definitions import defs
from pipelines.resources import InboxResource, PublicationResource, WarehouseResource
from tests.conftest import ROOT
from tests.robustness.conftest import RESULTS, rows


def _inbox(tmp_path: Path) -> Path:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="OK1"))
    return inbox


@contextmanager
def _holder(code: str) -> Iterator[subprocess.Popen]:
    """Another process running ``code`` while the block runs (it prints ``ready`` once it
    holds what it holds); killed (``kill -9``) at the end."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code + "\nprint('ready', flush=True)\nimport time; time.sleep(60)"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield proc
    finally:
        proc.kill()
        proc.wait()


def _run(inbox: Path, warehouse: Path, *more: str):
    return CliRunner().invoke(
        app, ["run", "--inbox", str(inbox), "--warehouse", str(warehouse), *more]
    )


def test_a_duckdb_shell_holding_the_warehouse_stops_the_run_with_one_line(tmp_path: Path):
    inbox, wh = _inbox(tmp_path), tmp_path / "w.duckdb"
    duckdb.connect(str(wh)).close()
    before = wh.read_bytes()
    with _holder(f"import duckdb; c = duckdb.connect({str(wh)!r})") as proc:
        r = _run(inbox, wh)
    assert r.exit_code == EXIT_BUSY, r.output
    line = f"the warehouse is in use by {Path(sys.executable).name}"
    assert r.output.count("\n") == 1 and line in r.output, r.output
    assert f"(process {proc.pid})" in r.output and "nothing was written" in r.output
    assert "Traceback" not in r.output
    assert wh.read_bytes() == before


def test_a_second_run_refuses_while_the_first_holds_the_warehouse(tmp_path: Path):
    inbox, wh = _inbox(tmp_path), tmp_path / "w.duckdb"
    code = f"from pipelines import run_lock\nrun_lock.acquire({str(wh)!r})"
    with _holder(code) as proc:
        r = _run(inbox, wh)
    assert r.exit_code == EXIT_BUSY, r.output
    assert f"in use by traveller run, process {proc.pid}" in r.output
    assert not wh.exists()  # stopped before anything was written
    # the holder was killed (kill -9 keeps no stale lock): the next run goes ahead
    r = _run(inbox, wh)
    assert r.exit_code == 0, r.output
    assert rows(wh, "SELECT count(*) FROM standings WHERE event_id = 'OK1'")[0][0] > 0


def test_a_run_asked_to_wait_goes_ahead_once_the_warehouse_is_free(tmp_path: Path):
    inbox, wh = _inbox(tmp_path), tmp_path / "w.duckdb"
    code = (
        "import threading, os\n"
        "from pipelines import run_lock\n"
        f"run_lock.acquire({str(wh)!r})\n"
        "threading.Timer(2.0, lambda: os._exit(0)).start()"
    )
    with _holder(code):
        t = time.monotonic()
        r = _run(inbox, wh, "--wait", "1m")
        assert time.monotonic() - t >= 1.0
    assert r.exit_code == 0, r.output
    assert "waiting up to 60 s" in r.output


def test_a_dagster_run_refuses_while_a_traveller_run_holds_the_warehouse(tmp_path: Path):
    """``make dev``'s sensor starting a run during a command-line run: the Dagster run fails
    before its first step, naming the holder; nothing of it is written."""
    inbox, wh = _inbox(tmp_path), tmp_path / "w.duckdb"
    with _holder(f"from pipelines import run_lock\nrun_lock.acquire({str(wh)!r})") as proc:
        with pytest.raises(dg.DagsterResourceFunctionError) as failed:
            dg.materialize(
                [*defs.assets],  # type: ignore[misc]
                selection=dg.AssetSelection.groups("inbox"),
                resources={
                    "warehouse": WarehouseResource(path=str(wh)),
                    "inbox": InboxResource(path=str(inbox)),
                    "publication": PublicationResource(path=str(tmp_path / "out")),
                },
                instance=dg.DagsterInstance.ephemeral(),
            )
    busy = failed.value.__cause__
    assert isinstance(busy, run_lock.WarehouseBusy)
    assert f"in use by traveller run, process {proc.pid}" in str(busy)
    assert not wh.exists()


def test_the_run_lock_is_reentrant_in_one_process_and_released_at_the_end(tmp_path: Path):
    wh = tmp_path / "w.duckdb"
    with run_lock.holding(wh), run_lock.holding(wh):  # the CLI's run, then Dagster's
        assert run_lock.lock_path(wh).read_text().strip().isdigit()
    # released: another process takes it at once
    done = subprocess.run(
        [sys.executable, "-c", f"from pipelines import run_lock; run_lock.acquire({str(wh)!r})"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert run_lock.lock_path("postgresql://u@h/db") is None
    assert [run_lock.parse_wait(w) for w in ("30", "30s", "5m", "1h", None)] == [
        30,
        30,
        300,
        3600,
        0,
    ]
    with pytest.raises(ValueError, match="--wait takes a duration"):
        run_lock.parse_wait("soon")


def test_a_postgres_warehouse_has_no_lock_file_however_it_is_named(tmp_path: Path, monkeypatch):
    # Postgres serialises its own writes; a Path made of the URL has lost a slash, and must
    # not become a folder named "postgresql:" with a lock file in it
    from pipelines import run_lock

    monkeypatch.chdir(tmp_path)
    for url in ("postgresql://u@127.0.0.1:5432/t", Path("postgresql://u@127.0.0.1:5432/t")):
        assert run_lock.lock_path(url) is None
        run_lock.acquire(url)
        run_lock.release(url)
    assert list(tmp_path.iterdir()) == []
