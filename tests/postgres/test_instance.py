"""docs/deploy/dagster.postgres.yaml loads with the installed Dagster against a real
PostgreSQL: storage on it, the queued coordinator with threads, limits under concurrency."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest

from pipelines.pg_local import Cluster
from tests.conftest import ROOT
from tests.postgres.conftest import new_database

CONFIG = ROOT / "docs" / "deploy" / "dagster.postgres.yaml"


def postgres_instance(
    cluster: Cluster, home: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> dg.DagsterInstance:
    """The instance of ``CONFIG`` in ``home``, on the database ``url`` of ``cluster``."""
    home.mkdir(parents=True, exist_ok=True)
    shutil.copy(CONFIG, home / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    env = {**cluster.env, "DAGSTER_PG_DB": url.rsplit("/", 1)[1]}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return dg.DagsterInstance.get()


def test_the_postgres_instance_loads_on_postgres(pg_cluster, tmp_path, monkeypatch):
    url = new_database(pg_cluster)
    instance = postgres_instance(pg_cluster, tmp_path / "home", monkeypatch, url)
    try:
        from dagster._core.run_coordinator import QueuedRunCoordinator
        from dagster_postgres import PostgresRunStorage

        assert isinstance(instance.run_storage, PostgresRunStorage)
        assert isinstance(instance.run_coordinator, QueuedRunCoordinator)
        settings = instance.get_concurrency_config()
        assert settings.run_queue_config.max_concurrent_runs == 4
        assert settings.pool_config.default_pool_limit == 1
        assert instance.run_monitoring_enabled and instance.run_retries_enabled
        # Dagster's tables are in PostgreSQL: a run record written is read back
        assert instance.get_runs_count() == 0
        instance.event_log_storage.set_concurrency_slots("event_standings", 1)
        assert instance.event_log_storage.get_concurrency_info("event_standings").slot_count == 1
    finally:
        instance.dispose()


def test_make_dev_postgres_uses_this_config_and_pg_is_ignored():
    import subprocess

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "cp docs/deploy/dagster.postgres.yaml .dagster_home_pg/dagster.yaml" in makefile
    assert "pipelines.pg_local start .pg" in makefile
    for path in (".pg/data/PG_VERSION", ".dagster_home_pg/dagster.yaml"):
        r = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT)
        assert r.returncode == 0, f"{path} is not git-ignored"
