"""The one Dagster ``Definitions`` of Traveller (``dagster dev -m pipelines.definitions``)."""

from __future__ import annotations

import dagster as dg

from assets import audit, inbox, publish, results, standings
from assets.automation import after_dates, inbox_sensor, nightly, nightly_job, warehouse_job
from assets.checks import ASSET_CHECKS
from pipelines.resources import (
    InboxResource,
    PublicationResource,
    WarehouseResource,
    default_inbox,
    default_warehouse,
)
from pipelines.settings import default_publication

defs = dg.Definitions(
    assets=[
        inbox.inbox_tables,
        results.raw_results,
        results.ruling_log,
        results.rulings,
        results.validated_results,
        results.scored_results,
        standings.standings,
        audit.audit_marts,
        audit.reconciliation,
        audit.audit_reports,
        publish.publication,
    ],
    asset_checks=ASSET_CHECKS,
    jobs=[nightly_job, warehouse_job],
    schedules=[nightly],
    sensors=[inbox_sensor, after_dates],
    resources={
        "warehouse": WarehouseResource(path=default_warehouse()),
        "inbox": InboxResource(path=default_inbox()),
        "publication": PublicationResource(path=default_publication()),
    },
    executor=dg.in_process_executor,
)
