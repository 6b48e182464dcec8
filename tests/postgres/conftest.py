"""A throw-away PostgreSQL cluster for the tests of the PostgreSQL deployment.

One cluster per test session (:mod:`pipelines.pg_local`, in a temporary folder, on a free
port, stopped at the end) — or the one ``.ci/run`` started for the whole suite
(``TRAVELLER_TEST_PG_DIR``, ``TRAVELLER_TEST_PG_PORT``; left running, CI stops it); each test
that asks for ``pg_url`` gets a database of its own.
Where the server binaries are absent the tests skip, unless ``TRAVELLER_REQUIRE_POSTGRES=1``
(set by ``.ci/run``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipelines.pg_local import Cluster, pg_bin


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A running cluster (skipped, or failed under TRAVELLER_REQUIRE_POSTGRES=1, without
    PostgreSQL)."""
    if pg_bin() is None:
        if os.environ.get("TRAVELLER_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL is not installed (TRAVELLER_REQUIRE_POSTGRES=1)")
        pytest.skip("PostgreSQL is not installed")
    if os.environ.get("TRAVELLER_TEST_PG_DIR") and os.environ.get("TRAVELLER_TEST_PG_PORT"):
        yield Cluster(
            Path(os.environ["TRAVELLER_TEST_PG_DIR"]), int(os.environ["TRAVELLER_TEST_PG_PORT"])
        ).start()  # already running: start() only checks the database is there
        return
    base = Path(tempfile.mkdtemp(prefix="traveller-pg-", dir="/tmp"))
    cluster = Cluster(base, _free_port())
    try:
        yield cluster.start()
    finally:
        cluster.stop(immediate=True)
        shutil.rmtree(base, ignore_errors=True)


def new_database(cluster: Cluster) -> str:
    """A new empty database in ``cluster``; its URL."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return cluster.url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of a database of this test's own."""
    return new_database(pg_cluster)


def run_sample(warehouse: str | Path, publish_to: Path) -> None:
    """The embedded single-process run of the sample inbox into ``warehouse``."""
    import dagster as dg

    from pipelines.resources import SAMPLE_INBOX
    from pipelines.runner import run_inbox

    mp = pytest.MonkeyPatch()
    mp.setenv("TRAVELLER_PUBLISH", str(publish_to))  # a PostgreSQL warehouse's reports
    try:
        run_inbox(
            SAMPLE_INBOX,
            Path(warehouse),
            instance=dg.DagsterInstance.ephemeral(),
            publish_to=publish_to,
        )
    finally:
        mp.undo()


#: The clock the sample runs are judged at (provisional / final), the same for every run.
NOW = "2026-12-01 12:00"


@pytest.fixture(scope="session")
def duckdb_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample inbox run once, embedded, into a DuckDB file (the reference)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TRAVELLER_NOW", NOW)
    try:
        base = tmp_path_factory.mktemp("duckdb-sample")
        run_sample(base / "warehouse.duckdb", base / "published")
        return base / "warehouse.duckdb"
    finally:
        mp.undo()


def tables_of(warehouse: str | Path) -> dict[str, object]:
    """Every table of the warehouse as a Polars frame, rows sorted by every column."""
    from pipelines.warehouse import TABLES, Warehouse, export

    with Warehouse(warehouse).connect(read_only=True) as conn:
        frames = {t: export(conn, t) for t in TABLES}
    return {t: f.sort(f.columns, nulls_last=True) for t, f in frames.items()}


def assert_same_tables(a: str | Path, b: str | Path) -> None:
    """Same tables, same column types, same rows (every value equal)."""
    ta, tb = tables_of(a), tables_of(b)
    assert ta.keys() == tb.keys()
    for name in ta:
        fa, fb = ta[name], tb[name]
        assert fa.schema == fb.schema, name
        assert fa.height == fb.height, f"{name}: {fa.height} rows vs {fb.height}"
        assert fa.equals(fb), f"{name}: the rows differ"
