"""When Traveller runs: a nightly schedule and a sensor on the inbox folder (both on by default).

Each run processes a range of session dates (partitions) end to end in one pass, re-reading
the inbox first: one run for a night's new dates, one for a first load or a profile change
(:func:`pipelines.incremental.ranges`). Runs are queued one at a time (``dagster.yaml``):
one DuckDB writer at a time.
"""

import hashlib
import json

import dagster as dg

from pipelines import inbox as inbox_mod
from pipelines import incremental, stages
from pipelines.partition_tags import range_tags
from pipelines.resources import InboxResource, WarehouseResource

#: Every asset, for one session date (the unpartitioned inbox tables are refreshed too).
nightly_job = dg.define_asset_job(
    "nightly_results",
    selection=dg.AssetSelection.all(),
    description="Read the inbox, then validate, score and rank a range of session dates.",
)


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
    or appeal period — one run per range of due dates (:func:`pipelines.stages.due_ranges`)."""
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
    run per range of such dates.

    A run's key is the date and a digest of the new cursor (SHA-256, the same in every
    process: Python's ``hash()`` of a string changes from one process to the next), so the
    same inbox state never requests the same date twice, even after a restart."""
    old = json.loads(context.cursor) if context.cursor else {}
    new = incremental.watch_state(inbox.get())
    dates = incremental.changed_dates(old, new)
    cursor = json.dumps(new, sort_keys=True)
    if not dates:
        return dg.SensorResult(skip_reason="inbox unchanged", cursor=cursor)
    stamp = hashlib.sha256(cursor.encode()).hexdigest()[:16]
    spans = incremental.ranges(dates, [*old, *new])
    return dg.SensorResult(
        run_requests=[
            dg.RunRequest(run_key=f"inbox-{a}-{b}-{stamp}", tags=range_tags(a, b)) for a, b in spans
        ],
        cursor=cursor,
    )
