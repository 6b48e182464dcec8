"""Results assets, one partition per session date: raw -> validated -> scored, with their checks."""

import dagster as dg

from assets.metadata import table
from assets.partitions import SESSION_DATES
from pipelines import stages
from pipelines.resources import InboxResource, WarehouseResource


@dg.asset(
    partitions_def=SESSION_DATES,
    deps=["source_files", "events"],
    group_name="results",
    kinds={"duckdb", "polars"},
)
def raw_results(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource, inbox: InboxResource
) -> dg.MaterializeResult:
    """Table results of the session date, as read (canonical notation, with file and location)."""
    s = stages.build_raw(inbox.get(), warehouse.get(), context.partition_key)
    return dg.MaterializeResult(
        metadata={"dagster/row_count": s.written["raw_results"], "files": s.figures["files"]}
    )


@dg.asset(
    partitions_def=SESSION_DATES,
    deps=[raw_results, "events"],
    group_name="results",
    kinds={"duckdb", "polars"},
)
def validated_results(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Typed, checked results with the Law 77 score; bad rows go to rejected_inputs."""
    s = stages.validate(warehouse.get(), context.partition_key)
    return dg.MaterializeResult(
        metadata={"dagster/row_count": s.written["validated_results"], **s.figures}
    )


@dg.asset(
    partitions_def=SESSION_DATES,
    deps=["source_files", "events"],
    group_name="results",
    kinds={"duckdb", "polars"},
)
def ruling_log(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource, inbox: InboxResource
) -> dg.MaterializeResult:
    """Directors' rulings and appeal decisions of the session date, as read."""
    s = stages.build_ruling_log(inbox.get(), warehouse.get(), context.partition_key)
    return dg.MaterializeResult(
        metadata={
            "dagster/row_count": s.written["raw_rulings"],
            "appeals": s.written["raw_appeals"],
        }
    )


@dg.asset(
    partitions_def=SESSION_DATES,
    deps=[ruling_log, validated_results, "events"],
    group_name="results",
    kinds={"duckdb", "polars"},
)
def rulings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Rulings and appeals checked against the results, with their effective outcome (Laws
    12C, 82C, 87, 90, 91, 79C, 92, 93); rulings that cannot be applied are rejected."""
    s = stages.rulings(warehouse.get(), context.partition_key)
    return dg.MaterializeResult(metadata={"dagster/row_count": s.written["rulings"], **s.figures})


@dg.asset(
    partitions_def=SESSION_DATES,
    deps=[validated_results, rulings],
    group_name="results",
    kinds={"duckdb", "polars"},
)
def scored_results(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Matchpoints per table result with the rulings applied (Law 78A; Neuberg/linear
    factoring; Law 12C adjusted scores; Law 87 fouled boards), the official version."""
    s = stages.score(warehouse.get(), context.partition_key)
    return dg.MaterializeResult(
        metadata={"dagster/row_count": s.written["scored_results"], **s.figures}
    )


@dg.asset_check(
    asset=validated_results,
    blocking=True,
    partitions_def=SESSION_DATES,
    description="Per file: rows of the date read = validated + rejected.",
)
def rows_accounted(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
) -> dg.AssetCheckResult:
    ok, bad = stages.check_date_accounting(warehouse.get(), context.partition_key)
    return dg.AssetCheckResult(passed=ok, metadata={"unbalanced_files": table(bad)})


@dg.asset_check(
    asset=validated_results,
    blocking=False,
    partitions_def=SESSION_DATES,
    description="Law 77: every stated score equals the score of its contract. A "
    "disagreement is kept and holds its event's standings (status held, not published) until "
    "corrected; the date's other events go on.",
)
def score_contract_agreement(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
) -> dg.AssetCheckResult:
    ok, bad = stages.check_score_agreement(warehouse.get(), context.partition_key)
    return dg.AssetCheckResult(
        passed=ok,
        metadata={"disagreements": bad.height, "lines": table(bad)},
    )


@dg.asset_check(
    asset=scored_results,
    blocking=True,
    partitions_def=SESSION_DATES,
    description="Law 78A: on every board NS + EW = top and each field sums to "
    "k(k-1), or n(N-1) when factored.",
)
def matchpoints_conserved(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
) -> dg.AssetCheckResult:
    ok, bad = stages.check_conservation(warehouse.get(), context.partition_key)
    return dg.AssetCheckResult(passed=ok, metadata={"boards_off": table(bad)})


@dg.asset_check(
    asset=rulings,
    blocking=False,
    partitions_def=SESSION_DATES,
    description="Every ruling and appeal of the date could be applied; one that cannot holds "
    "its event's standings (status held, not published) until corrected; the date's other "
    "events go on.",
)
def rulings_applicable(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
) -> dg.AssetCheckResult:
    ok, bad = stages.check_rulings(warehouse.get(), context.partition_key)
    return dg.AssetCheckResult(passed=ok, metadata={"rejected": bad.height, "rows": table(bad)})


@dg.asset_check(
    asset=rulings,
    blocking=True,
    partitions_def=SESSION_DATES,
    description="Per file: rulings and appeals of the date read = accepted + rejected.",
)
def ruling_rows_accounted(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
) -> dg.AssetCheckResult:
    ok, bad = stages.check_ruling_accounting(warehouse.get(), context.partition_key)
    return dg.AssetCheckResult(passed=ok, metadata={"unbalanced_files": table(bad)})
