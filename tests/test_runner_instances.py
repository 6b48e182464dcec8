"""Where ``traveller run``'s Dagster runs are kept: under ``$DAGSTER_HOME`` in its instance
(``make dev`` shows them), one run per group — the inbox, each range of dates, the audit, the
publication —; without it in ephemeral instances, thrown away."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest

from pipelines.partition_tags import whole_warehouse_tags
from pipelines.runner import WHOLE_WAREHOUSE_GROUPS, _instances, run_inbox
from pipelines.settings import SAMPLE_INBOX


@pytest.mark.slow
def test_under_dagster_home_every_group_is_a_run_of_its_instance(tmp_path: Path, monkeypatch):
    home = tmp_path / "dagster_home"
    home.mkdir()
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    report = run_inbox(SAMPLE_INBOX, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert report.failed_checks == []
    runs = dg.DagsterInstance.get().get_runs()
    assert len(runs) == 4 and all(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
    # the whole-warehouse runs are tagged as the whole-warehouse job's (pipelines/run_lock.py)
    tagged = [r for r in runs if r.tags.items() >= whole_warehouse_tags().items()]
    assert len(tagged) == len(WHOLE_WAREHOUSE_GROUPS)


def test_without_dagster_home_the_whole_warehouse_runs_have_an_instance_of_their_own(
    monkeypatch,
):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    instance_for = _instances()
    dated = instance_for("inbox")
    assert dated.is_ephemeral and instance_for("results") is dated
    whole = instance_for("audit")
    assert whole.is_ephemeral and whole is not dated and instance_for("publish") is whole
