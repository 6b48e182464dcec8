"""The one Dagster ``Definitions`` of Traveller (``dagster dev -m pipelines.definitions``)."""

from __future__ import annotations

import dagster as dg

from assets import audit, inbox, publish, results, standings
from assets.automation import inbox_sensor, nightly, nightly_job
from pipelines.resources import (
    InboxResource,
    PublicationResource,
    WarehouseResource,
    default_inbox,
    default_publication,
    default_warehouse,
)

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
        audit.audit_report,
        audit.transparency_report,
        publish.publication,
    ],
    asset_checks=[
        inbox.rows_accounted_on_read,
        results.rows_accounted,
        results.score_contract_agreement,
        results.matchpoints_conserved,
        results.rulings_applicable,
        results.ruling_rows_accounted,
        standings.victory_points_balanced,
        audit.audit_rates_in_range,
        audit.audit_counts_reconcile,
    ],
    jobs=[nightly_job],
    schedules=[nightly],
    sensors=[inbox_sensor],
    resources={
        "warehouse": WarehouseResource(path=default_warehouse()),
        "inbox": InboxResource(path=default_inbox()),
        "publication": PublicationResource(path=default_publication()),
    },
    executor=dg.in_process_executor,
)
