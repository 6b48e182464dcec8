"""The whole Dagster ``Definitions`` loads, and its wiring is what the design says."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import dagster as dg

from assets.automation import after_dates, inbox_sensor, nightly
from pipelines.definitions import defs
from pipelines.resources import InboxResource
from pipelines.runner import HOLDING_CHECKS
from pipelines.synth.inbox import generate_inbox
from tests.conftest import ROOT


def test_definitions_load():
    dg.Definitions.validate_loadable(defs)
    graph = defs.resolve_asset_graph()
    keys = {k.to_user_string() for k in graph.get_all_asset_keys()}
    assert keys == {
        "source_files",
        "events",
        "contestants",
        "source_standings",
        "raw_results",
        "ruling_log",
        "rulings",
        "validated_results",
        "scored_results",
        "standings",
        "penalty_stats",
        "appeal_stats",
        "director_audit",
        "ruling_discrepancies",
        "reconciliation",
        "audit_report",
        "transparency_report",
        "publication",
    }
    job = defs.resolve_job_def("nightly_results")
    assert job.partitions_def is not None
    assert job.executor_def.name == "in_process"


def test_the_dates_and_the_whole_warehouse_are_two_jobs():
    """``nightly_results`` computes session dates (the inbox read first); everything made
    from every date — the audit, the reconciliation, the reports, the publication — is
    ``audit_and_publication``, run once the dates are done, one run at a time (its tag),
    the publication last; both jobs together are every asset."""
    from pipelines.partition_tags import WAREHOUSE, WHOLE

    graph = defs.resolve_asset_graph()

    def keys(job: str) -> set[str]:
        return {
            k.to_user_string() for k in defs.resolve_job_def(job).asset_layer.executable_asset_keys
        }

    dates, whole = keys("nightly_results"), keys("audit_and_publication")
    groups = {k.to_user_string(): graph.get(k).group_name for k in graph.get_all_asset_keys()}
    assert {groups[k] for k in dates} == {"inbox", "results"}
    assert {groups[k] for k in whole} == {"audit", "publish"}
    assert dates.isdisjoint(whole) and dates | whole == set(groups)
    assert defs.resolve_job_def("audit_and_publication").tags == {WAREHOUSE: WHOLE}
    assert defs.resolve_job_def("audit_and_publication").partitions_def is None
    # the publication comes after the reconciliation (which may hold a file's sessions back)
    # and after the audit and its reports
    parents = {p.to_user_string() for p in graph.get(dg.AssetKey("publication")).parent_keys}
    assert whole - {"publication"} <= parents | {
        "penalty_stats", "appeal_stats", "ruling_discrepancies",
    }  # fmt: skip
    # every run reads the inbox one at a time; event standings are ranked one at a time
    pools = {k.to_user_string(): graph.get(k).pools for k in graph.get_all_asset_keys()}
    assert pools["source_files"] == {"inbox"} and pools["standings"] == {"event_standings"}


def test_blocking_checks_gate_standings_holding_checks_hold_events():
    names = {k.name for k in defs.resolve_asset_graph().asset_check_keys}
    assert {
        "score_contract_agreement",
        "rows_accounted",
        "matchpoints_conserved",
        "rows_accounted_on_read",
        "rulings_applicable",
        "ruling_rows_accounted",
        "victory_points_balanced",
        "event_standings_consistent",
        "standings_unique",
        "audit_rates_in_range",
        "audit_counts_reconcile",
    } <= names
    # A Law 77 disagreement or a ruling that cannot be applied holds back only its events'
    # standings (pipelines.stages.hold_events): the date's standings asset still runs. The
    # other checks of dates stop their date in the stages (stages.open_days), not through
    # Dagster, which would stop every date of a range run; the inbox's and the audit's
    # checks block in Dagster.
    from pipelines.check_specs import BY_NAME

    for ac in defs.asset_checks:
        for spec in ac.check_specs:
            c = BY_NAME[spec.name]
            assert c.blocking == (spec.name not in HOLDING_CHECKS), spec.name
            assert spec.blocking == (c.blocking and not c.partitioned), spec.name
    assert HOLDING_CHECKS == {"score_contract_agreement", "sessions_complete", "rulings_applicable"}


def test_every_check_spec_is_an_asset_check_of_the_definitions():
    """The asset checks are made from pipelines/check_specs.py, one per spec, as it says."""
    from assets.partitions import SESSION_DATES
    from pipelines.check_specs import CHECKS

    found = {spec.name: (spec, ac) for ac in defs.asset_checks for spec in ac.check_specs}
    assert set(found) == {c.name for c in CHECKS}
    graph_keys = {k.to_user_string() for k in defs.resolve_asset_graph().get_all_asset_keys()}
    for c in CHECKS:
        spec, ac = found[c.name]
        assert spec.asset_key == dg.AssetKey(c.asset) and c.asset in graph_keys, c.name
        assert spec.blocking == (c.blocking and not c.partitioned), c.name
        assert spec.description == c.description, c.name
        assert ac.partitions_def == (SESSION_DATES if c.partitioned else None), c.name
        assert (ROOT / "sql" / f"{c.sql}.sql").is_file(), c.name


def test_schedule_and_sensors_on_by_default():
    assert nightly.default_status == dg.DefaultScheduleStatus.RUNNING
    assert inbox_sensor.default_status == dg.DefaultSensorStatus.RUNNING
    assert after_dates.default_status == dg.DefaultSensorStatus.RUNNING
    assert after_dates.job_name == "audit_and_publication"
    assert nightly.job_name == inbox_sensor.job_name == "nightly_results"
    assert nightly.cron_schedule == "0 2 * * *"


def _span(request: dg.RunRequest) -> tuple[str, str]:
    """The range of session dates a run request asks for (one run computes them in one pass)."""
    r = request.partition_key_range
    assert r is not None and request.partition_key is None
    return r.start, r.end


def test_sensor_requests_the_dates_a_changed_file_touches(tmp_path):
    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=2, clubs=1, seed=3)
    res = {"inbox": InboxResource(path=str(inbox))}
    with dg.build_sensor_context(resources=res) as ctx:
        first = inbox_sensor(ctx)
    # the first evaluation: every date, as one range run
    assert [_span(r) for r in first.run_requests] == [("2026-11-02", "2026-11-03")]
    with dg.build_sensor_context(resources=res, cursor=first.cursor) as ctx:
        again = inbox_sensor(ctx)
    assert not again.run_requests
    changed = inbox / "results-club1-2026-11-03.csv"
    lines = changed.read_text().splitlines()
    changed.write_text("\n".join(lines[:-1]) + "\n")
    with dg.build_sensor_context(resources=res, cursor=again.cursor) as ctx:
        third = inbox_sensor(ctx)
    assert [_span(r) for r in third.run_requests] == [("2026-11-03", "2026-11-03")]
    # the cursor holds each date's fingerprint: only the changed date's is new
    before, after = json.loads(again.cursor), json.loads(third.cursor)
    assert sorted(after) == ["2026-11-02", "2026-11-03"]
    assert before["2026-11-02"] == after["2026-11-02"] != before["2026-11-03"]


def test_sensor_asks_one_run_per_date_when_a_range_holds_one(tmp_path, monkeypatch):
    """``$TRAVELLER_RANGE_RESULTS`` bounds a range by its table results, for the sensor as
    for the schedule: smaller than a date, each date is a run of its own (which an instance
    with a PostgreSQL warehouse runs side by side), each tagged with its dates."""
    from pipelines.partition_tags import DATES

    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=3, clubs=1, seed=3)
    monkeypatch.setenv("TRAVELLER_RANGE_RESULTS", "1")
    with dg.build_sensor_context(resources={"inbox": InboxResource(path=str(inbox))}) as ctx:
        got = inbox_sensor(ctx)
    days = ["2026-11-02", "2026-11-03", "2026-11-04"]
    assert sorted(_span(r) for r in got.run_requests) == [(d, d) for d in days]
    assert sorted(r.tags[DATES] for r in got.run_requests) == [f"{d}..{d}" for d in days]


def test_sensor_run_key_is_the_same_in_every_process(tmp_path):
    """The run key digests the cursor with SHA-256: two processes (different string-hash
    seeds) ask for the same key, so Dagster does not run the same inbox state twice."""
    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=1, clubs=1, seed=3)
    script = (
        "import dagster as dg\n"
        "from assets.automation import inbox_sensor\n"
        "from pipelines.resources import InboxResource\n"
        f"res = {{'inbox': InboxResource(path={str(inbox)!r})}}\n"
        "with dg.build_sensor_context(resources=res) as ctx:\n"
        "    print(*sorted(r.run_key for r in inbox_sensor(ctx).run_requests))\n"
    )
    keys = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        keys.append(done.stdout.split())
    res = {"inbox": InboxResource(path=str(inbox))}
    with dg.build_sensor_context(resources=res) as ctx:
        result = inbox_sensor(ctx)
    digest = hashlib.sha256(result.cursor.encode()).hexdigest()[:16]
    spans = sorted(_span(r) for r in result.run_requests)
    assert spans  # the first evaluation asks for every date of the inbox
    assert keys[0] == keys[1] == [f"inbox-{a}-{b}-{digest}" for a, b in spans]


def test_the_stages_of_a_date_run_in_the_order_of_their_assets():
    """``stages.DATE_STAGES`` (how ``traveller validate`` runs a date without Dagster) is the
    results group of the Definitions, each asset after every asset of the group it reads."""
    from pipelines.stages import DATE_STAGES

    graph = defs.resolve_asset_graph()
    order = [name for name, _ in DATE_STAGES]
    results = {
        k.to_user_string()
        for k in graph.get_all_asset_keys()
        if graph.get(k).group_name == "results"
    }
    assert set(order) == results
    for i, name in enumerate(order):
        parents = {p.to_user_string() for p in graph.get(dg.AssetKey(name)).parent_keys}
        assert parents & results <= set(order[:i]), name
