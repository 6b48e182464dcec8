"""The distributed group: Dagster on PostgreSQL, as docs/deploy.md's one-server step runs it.

The Dagster daemon, on the instance of docs/deploy/dagster.postgres.yaml (the queued run
coordinator, here at most three runs at once), watches a generated inbox of four session
dates. Its inbox sensor asks for one run of ``nightly_results`` per date
(``$TRAVELLER_RANGE_RESULTS`` smaller than a date: each range is one date), the queue runs
three of them at once into a PostgreSQL warehouse, and once they have all finished the
``after_dates`` sensor runs ``audit_and_publication`` once. Every run succeeds and every
table equals the embedded single-process run (``traveller run``'s path) of the same inbox
into DuckDB, row for row.

Then a writer is killed with SIGKILL in the middle of a write: a Dagster run of one date,
stopped inside its validation's transaction (which first withdraws the date's scores and
standings, then replaces its validated results) by a lock the test holds on the last table
that transaction writes. While it waits, and after it is killed, every row of every table is
the very row version it was before (PostgreSQL's ``xmin``): nothing partial is visible. The
same run again completes, the whole-warehouse job after it, and the tables equal the embedded
run's again.

Skipped where PostgreSQL is not installed, failed instead under TRAVELLER_REQUIRE_POSTGRES=1
(``.ci/run``). Every process the test starts is killed at its end, pass or fail.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import psycopg
import pytest

from pipelines.partition_tags import DATES as DATES_TAG
from pipelines.partition_tags import range_tags
from tests.conftest import ROOT
from tests.postgres.conftest import NOW, assert_same_tables, new_database

pytestmark = pytest.mark.slow

DATES = ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"]
BIN = Path(sys.executable).parent
CONFIG = ROOT / "docs" / "deploy" / "dagster.postgres.yaml"
AT_ONCE = 3
#: What the validation of a date writes in one transaction (pipelines/stages.py: validate):
#: the date's standings, their changes, holds and completion withdrawn, its scores and
#: adjustments withdrawn, its validated results and their rejections replaced.
VALIDATION_WRITES = (
    "standings", "standings_changes", "holds", "dates_done", "scored_results", "adjustments",
    "validated_results", "rejected_inputs",
)  # fmt: skip
#: The Dagster pools of the assets (assets/inbox.py, assets/standings.py).
POOLS = ("inbox", "event_standings")
DATE_JOB, WHOLE_JOB = "nightly_results", "audit_and_publication"
FINISHED = {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED}


@pytest.fixture(scope="module")
def inbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated inbox of one club, four session dates (seeded: the same every time)."""
    out = tmp_path_factory.mktemp("inbox") / "inbox"
    subprocess.run(
        [BIN / "traveller", "generate", "--out", out, "--sessions", str(len(DATES)),
         "--clubs", "1", "--pairs-only", "--start-date", DATES[0]],
        check=True, capture_output=True,
    )  # fmt: skip
    return out


@contextmanager
def _started(args: list[object], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    """A process in a session of its own, and everything it starts (the daemon's code server
    and run workers), killed when the block ends, however it ends."""
    with open(log, "w") as err:
        proc = subprocess.Popen(
            [str(a) for a in args], env=env, cwd=log.parent, start_new_session=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
        )  # fmt: skip
    try:
        yield proc
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                continue
        # the group may outlive its leader: a run worker still writing
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _most_at_once(records: list) -> int:
    """The most runs that were running at the same moment (from their start and end times)."""
    edges = sorted(
        [(r.start_time, 1) for r in records] + [(r.end_time, -1) for r in records],
        key=lambda e: (e[0], e[1]),
    )
    most = now = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


def _row_versions(url: str) -> dict[str, list[tuple[str, int]]]:
    """Every table's rows as PostgreSQL versions them: ``(xmin, rowid)``, sorted. A row
    rewritten — even with the same values — has another transaction's xmin and a new rowid."""
    from pipelines.warehouse import TABLES

    with psycopg.connect(url, autocommit=True) as raw:
        return {
            t: sorted(raw.execute(f'SELECT xmin::text, rowid FROM "{t}"').fetchall())
            for t in TABLES
        }


def test_four_dates_three_runs_at_once_equal_the_embedded_run_and_a_killed_writer_leaves_nothing(
    pg_cluster, inbox: Path, tmp_path: Path, monkeypatch
):
    started = time.monotonic()
    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    # the reference: the embedded single-process run (traveller run's path) into DuckDB
    from pipelines.runner import run_inbox

    reference = tmp_path / "embedded" / "warehouse.duckdb"
    monkeypatch.setenv("TRAVELLER_PUBLISH", str(tmp_path / "embedded"))
    run_inbox(inbox, reference, instance=dg.DagsterInstance.ephemeral())
    monkeypatch.delenv("TRAVELLER_PUBLISH")

    home = tmp_path / "dagster_home"
    home.mkdir()
    config = CONFIG.read_text(encoding="utf-8")
    assert "max_concurrent_runs: 4" in config
    (home / "dagster.yaml").write_text(
        config.replace("max_concurrent_runs: 4", f"max_concurrent_runs: {AT_ONCE}"),
        encoding="utf-8",
    )
    warehouse = new_database(pg_cluster)
    env = {
        **os.environ,
        **pg_cluster.env,
        "DAGSTER_PG_DB": new_database(pg_cluster).rsplit("/", 1)[1],
        "DAGSTER_HOME": str(home),
        "TRAVELLER_WAREHOUSE": warehouse,
        "TRAVELLER_INBOX": str(inbox),
        "TRAVELLER_PUBLISH": str(tmp_path / "published"),
        "TRAVELLER_NOW": NOW,
        # a range holds one date: the backlog is one run per date, which the queue runs
        # side by side (docs/deploy.md, "Concurrent runs")
        "TRAVELLER_RANGE_RESULTS": "1",
        "PYTHONPATH": str(ROOT),
    }
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    instance = dg.DagsterInstance.get()
    # the pools' limits, set once per instance as docs/deploy.md says (`dagster instance
    # concurrency set event_standings 1`): left to the default limit, runs starting together
    # each create the pool's row and all but one fail (dagster-io/dagster#33552)
    for pool in POOLS:
        instance.event_log_storage.set_concurrency_slots(pool, 1)
    try:
        with _started(
            [BIN / "dagster-daemon", "run", "-m", "pipelines.definitions"],
            env,
            tmp_path / "daemon.log",
        ):
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                runs = instance.get_runs()
                whole = [r for r in runs if r.job_name == WHOLE_JOB]
                if whole and all(r.status in FINISHED for r in runs):
                    break
                time.sleep(1)
            log = (tmp_path / "daemon.log").read_text(errors="replace")[-4000:]
            records = instance.get_run_records()
            dated = [r for r in records if r.dagster_run.job_name == DATE_JOB]
            whole = [r for r in records if r.dagster_run.job_name == WHOLE_JOB]
            # one run per date, asked for by the inbox sensor; one whole-warehouse run
            assert sorted(r.dagster_run.tags.get(DATES_TAG) for r in dated) == [
                f"{d}..{d}" for d in DATES
            ], log
            assert len(whole) == 1, [
                (r.dagster_run.job_name, r.dagster_run.status) for r in records
            ]
            assert all(r.dagster_run.status == dg.DagsterRunStatus.SUCCESS for r in records), [
                (r.dagster_run.tags.get(DATES_TAG), r.dagster_run.status) for r in records
            ]
            # three at once (the queue's limit), and the audit after the last of them
            assert _most_at_once(dated) == AT_ONCE
            assert whole[0].start_time >= max(r.end_time for r in dated)
        batch = time.monotonic() - started
        assert_same_tables(reference, warehouse)
        assert (tmp_path / "published" / "site" / "index.html").is_file()

        # ---- SIGKILL a writer in the middle of a write -----------------------------------
        day = DATES[1]
        tags = json.dumps(range_tags(day, day))
        run_date = [BIN / "dagster", "job", "execute", "-m", "pipelines.definitions",
                    "-j", DATE_JOB, "--tags", tags]  # fmt: skip
        before = _row_versions(warehouse)
        with psycopg.connect(warehouse) as blocker:
            # the validation's transaction deletes the date's standings, scores and
            # adjustments, then waits here, before replacing its validated results
            blocker.execute("LOCK TABLE validated_results IN SHARE MODE")
            with _started(run_date, env, tmp_path / "killed.log") as writer:
                with psycopg.connect(warehouse, autocommit=True) as watch:
                    mid_write = None
                    deadline = time.monotonic() + 180
                    while mid_write is None and time.monotonic() < deadline:
                        assert writer.poll() is None, (tmp_path / "killed.log").read_text()
                        mid_write = watch.execute(
                            "SELECT a.pid FROM pg_stat_activity a WHERE a.datname = "
                            "current_database() AND a.wait_event_type = 'Lock' "
                            "AND a.backend_xid IS NOT NULL AND a.query ILIKE 'DELETE%%'"
                        ).fetchone()
                        time.sleep(0.5)
                    assert mid_write is not None, "the writer never reached the blocked write"
                    # it has deleted the date's standings in its transaction...
                    held = watch.execute(
                        "SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                        "WHERE l.pid = %s AND l.mode = 'RowExclusiveLock' AND l.granted",
                        mid_write,
                    ).fetchall()
                    assert {"standings", "scored_results"} <= {r[0] for r in held}
                    # ... and a reader sees every row of what it writes as it was (its
                    # earlier steps, reading the inbox and the date's rows, have committed)
                    during = _row_versions(warehouse)
                    for table in VALIDATION_WRITES:
                        assert during[table] == before[table], table
                    assert watch.execute(
                        "SELECT count(*) FROM standings WHERE session_date = %s", (day,)
                    ).fetchone()[0]
                    os.killpg(writer.pid, signal.SIGKILL)
                    writer.wait(10)
            blocker.rollback()  # the blocked statement goes on, finds its client gone
        with psycopg.connect(warehouse, autocommit=True) as watch:
            deadline = time.monotonic() + 60
            while watch.execute(
                "SELECT 1 FROM pg_stat_activity WHERE pid = %s", mid_write
            ).fetchone():
                assert time.monotonic() < deadline, "the killed writer's session stayed"
                time.sleep(0.2)
        assert _row_versions(warehouse) == during, "a killed writer left part of its write"

        # the same run again completes (its run lock was dropped with the killed process),
        # then the whole-warehouse job; the tables equal the embedded run's again
        subprocess.run([str(a) for a in run_date], env=env, cwd=tmp_path, check=True,
                       capture_output=True)  # fmt: skip
        subprocess.run(
            [BIN / "dagster", "job", "execute", "-m", "pipelines.definitions", "-j", WHOLE_JOB],
            env=env, cwd=tmp_path, check=True, capture_output=True,
        )  # fmt: skip
        assert _row_versions(warehouse) != before  # rewritten: it did run
        assert_same_tables(reference, warehouse)
    finally:
        instance.dispose()
    print(
        f"\ndistributed: the batch of {len(DATES)} dates in {batch:.0f} s, "
        f"everything in {time.monotonic() - started:.0f} s"
    )
