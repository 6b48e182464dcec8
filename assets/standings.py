"""Standings asset: official session and event standings of the session date."""

import dagster as dg

from assets.metadata import table
from assets.partitions import SESSION_DATES
from assets.results import rulings, scored_results
from pipelines import stages
from pipelines.resources import WarehouseResource


@dg.asset(
    partitions_def=SESSION_DATES,
    deps=[scored_results, rulings, "contestants"],
    group_name="results",
    kinds={"duckdb", "polars"},
)
def standings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Session standings of the date and event standings of every event with a session that day
    (exact totals and percentages; shared places for exact ties)."""
    s = stages.standings(warehouse.get(), context.partition_key)
    return dg.MaterializeResult(metadata={"dagster/row_count": s.written["standings"], **s.figures})


@dg.asset_check(
    asset=standings,
    blocking=True,
    partitions_def=SESSION_DATES,
    description="Team matches: on a match whose boards balanced, the two teams' victory points "
    "sum to 20 (WBF 2013 scale, loser = 20 - winner).",
)
def victory_points_balanced(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
) -> dg.AssetCheckResult:
    ok, bad = stages.check_vp_balance(warehouse.get(), context.partition_key)
    return dg.AssetCheckResult(passed=ok, metadata={"matches_off": table(bad)})
