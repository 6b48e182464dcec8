"""When Traveller runs: a nightly schedule and a sensor on the inbox folder for the session
dates, and a sensor that runs the whole-warehouse steps once the dates are done (all three on
by default).

Two jobs. ``nightly_results`` reads the inbox and computes a range of session dates
(partitions) end to end in one pass: one run for a night's new dates, one per range of a
first load or a profile change (:func:`pipelines.incremental.ranges`; a range holds at most
``$TRAVELLER_RANGE_RESULTS`` table results, so a backlog is several runs, which an instance
with a PostgreSQL warehouse runs side by side). ``audit_and_publication`` recomputes what is
made from every date — the audit marts and their reports, the reconciliation and the
publication — once the runs of dates have finished, one run at a time, holding the warehouse
alone (:mod:`pipelines.partition_tags`, :mod:`pipelines.run_lock`): a run of dates writing
while the audit reads would leave marts that do not add up (``audit_counts_reconcile``).
With a DuckDB file every run is queued one at a time (``dagster.yaml``): one writer.
"""

import hashlib
import json

import dagster as dg

from pipelines import inbox as inbox_mod
from pipelines import incremental, stages
from pipelines.partition_tags import range_tags, whole_warehouse_tags
from pipelines.resources import InboxResource, WarehouseResource
from pipelines.settings import range_results

#: The session dates: the inbox tables (unpartitioned, refreshed by every run) and every
#: results asset, for a range of dates.
nightly_job = dg.define_asset_job(
    "nightly_results",
    selection=dg.AssetSelection.groups("inbox", "results"),
    description="Read the inbox, then validate, score and rank a range of session dates.",
)

#: What is made from every date: the audit, the reconciliation, the reports, the publication.
warehouse_job = dg.define_asset_job(
    "audit_and_publication",
    selection=dg.AssetSelection.groups("audit", "publish"),
    tags=whole_warehouse_tags(),
    description="Once the session dates are done: the audit marts and reports, the "
    "reconciliation with the clubs' figures, the results site and the exports.",
)

#: A run that has not finished: it may still write session dates.
_UNFINISHED = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
    dg.DagsterRunStatus.CANCELING,
]


@dg.schedule(
    job=nightly_job,
    cron_schedule="0 2 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
)
def nightly(
    context: dg.ScheduleEvaluationContext, inbox: InboxResource, warehouse: WarehouseResource
):
    """At 02:00 UTC, process every session date that is due (:mod:`pipelines.incremental`):
    new, changed or withdrawn since it was last computed, or awaiting the end of a correction
    or appeal period — one run per range of due dates (:func:`pipelines.stages.due_ranges`).
    The audit and the publication follow (:func:`after_dates`)."""
    snap = inbox_mod.scan(inbox.get())
    due = stages.due_dates(warehouse.get(), incremental.date_inputs(snap))
    if not due.reasons:
        return dg.SkipReason("no session date is due: nothing new in the inbox")
    tick = context.scheduled_execution_time.strftime("%Y%m%d")
    return [
        dg.RunRequest(run_key=f"nightly-{tick}-{a}-{b}", tags=range_tags(a, b))
        for a, b in stages.due_ranges(warehouse.get(), due)
    ]


@dg.sensor(
    job=nightly_job, minimum_interval_seconds=60, default_status=dg.DefaultSensorStatus.RUNNING
)
def inbox_sensor(context: dg.SensorEvaluationContext, inbox: InboxResource):
    """Watch the inbox: a session date whose inputs are new, changed or gone is run again
    (the cursor holds each date's fingerprint, :func:`pipelines.incremental.watch_state`), one
    run per range of such dates (at most ``$TRAVELLER_RANGE_RESULTS`` table results each).

    A run's key is the date and a digest of the new cursor (SHA-256, the same in every
    process: Python's ``hash()`` of a string changes from one process to the next), so the
    same inbox state never requests the same date twice, even after a restart."""
    old = json.loads(context.cursor) if context.cursor else {}
    inputs = incremental.date_inputs(inbox_mod.scan(inbox.get()))
    new = dict(inputs.select("session_date", "fingerprint").iter_rows())
    dates = incremental.changed_dates(old, new)
    cursor = json.dumps(new, sort_keys=True)
    if not dates:
        return dg.SensorResult(skip_reason="inbox unchanged", cursor=cursor)
    stamp = hashlib.sha256(cursor.encode()).hexdigest()[:16]
    sizes = dict(inputs.select("session_date", "results").iter_rows())
    spans = incremental.ranges(dates, [*old, *new], sizes=sizes, budget=range_results())
    return dg.SensorResult(
        run_requests=[
            dg.RunRequest(run_key=f"inbox-{a}-{b}-{stamp}", tags=range_tags(a, b)) for a, b in spans
        ],
        cursor=cursor,
    )


@dg.sensor(
    job=warehouse_job, minimum_interval_seconds=15, default_status=dg.DefaultSensorStatus.RUNNING
)
def after_dates(context: dg.SensorEvaluationContext, warehouse: WarehouseResource):
    """Once no run of session dates is queued or running, run the audit, the reconciliation
    and the publication if what they are made from changed since they last completed
    (:func:`pipelines.stages.whole_warehouse_due`: the inbox's content and every date's
    outcome). Never while another such run is unfinished; the cursor holds the fingerprint
    last asked for, so a run that failed is not asked for again until something changes."""
    for job in (nightly_job.name, warehouse_job.name):
        busy = context.instance.get_runs_count(dg.RunsFilter(job_name=job, statuses=_UNFINISHED))
        if busy:
            return dg.SensorResult(
                skip_reason=f"{busy} run(s) of {job} not finished", cursor=context.cursor
            )
    fingerprint, steps = stages.whole_warehouse_due(warehouse.get())
    last = json.loads(context.cursor) if context.cursor else {}
    if fingerprint is None or not steps:
        return dg.SensorResult(
            skip_reason="the audit and the site are up to date", cursor=context.cursor
        )
    if fingerprint == last.get("fingerprint"):
        return dg.SensorResult(
            skip_reason="already asked for these results (see the last run)", cursor=context.cursor
        )
    n = int(last.get("requested", 0)) + 1
    return dg.SensorResult(
        run_requests=[dg.RunRequest(run_key=f"warehouse-{n}-{fingerprint[:16]}")],
        cursor=json.dumps({"fingerprint": fingerprint, "requested": n}),
    )
