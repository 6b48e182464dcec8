"""Results assets, one partition per session date: raw -> validated -> scored (their checks
are made from their specs in ``assets/checks.py``). A run of a range of dates computes them
in one pass (``BackfillPolicy.single_run``, ``assets/partitions.py``)."""

import dagster as dg

from assets.metadata import materialized
from assets.partitions import dated_asset
from pipelines import stages
from pipelines.resources import InboxResource, WarehouseResource


@dated_asset("source_files", "events")
def raw_results(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource, inbox: InboxResource
) -> dg.MaterializeResult:
    """Table results of the session date, as read (canonical notation, with file and location)."""
    s = stages.build_raw(inbox.get(), warehouse.get(), context.partition_keys)
    return materialized(s.written["raw_results"], {"files": s.figures["files"]})


@dated_asset(raw_results, "events")
def validated_results(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Typed, checked results with the Law 77 score; bad rows go to rejected_inputs."""
    s = stages.validate(warehouse.get(), context.partition_keys)
    return materialized(s.written["validated_results"], s.figures)


@dated_asset("source_files", "events")
def ruling_log(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource, inbox: InboxResource
) -> dg.MaterializeResult:
    """Directors' rulings and appeal decisions of the session date, as read."""
    s = stages.build_ruling_log(inbox.get(), warehouse.get(), context.partition_keys)
    return materialized(s.written["raw_rulings"], {"appeals": s.written["raw_appeals"]})


@dated_asset(ruling_log, validated_results, "events")
def rulings(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Rulings and appeals checked against the results, with their effective outcome (Laws
    12C, 82C, 87, 90, 91, 79C, 92, 93); rulings that cannot be applied are rejected."""
    s = stages.rulings(warehouse.get(), context.partition_keys)
    return materialized(s.written["rulings"], s.figures)


@dated_asset(validated_results, rulings)
def scored_results(
    context: dg.AssetExecutionContext, warehouse: WarehouseResource
) -> dg.MaterializeResult:
    """Matchpoints per table result with the rulings applied (Law 78A; Neuberg/linear
    factoring; Law 12C adjusted scores; Law 87 fouled boards), the official version."""
    s = stages.score(warehouse.get(), context.partition_keys)
    return materialized(s.written["scored_results"], s.figures)
