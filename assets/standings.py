"""Standings asset: official session and event standings of the session date."""

import dagster as dg

from assets.metadata import materialized
from assets.partitions import dated_asset
from assets.results import rulings, scored_results
from pipelines import stages
from pipelines.resources import WarehouseResource


# event standings read the event's other dates: one run at a time ranks (the instance's
# pools default_limit 1, or `dagster instance concurrency set event_standings 1`)
@dated_asset(scored_results, rulings, "contestants", pool="event_standings")
def standings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Session standings of the date and event standings of every event with a session that day
    (exact totals and percentages; shared places for exact ties)."""
    s = stages.standings(warehouse.get(), context.partition_keys)
    return materialized(s.written["standings"], s.figures)
