"""The asset checks of the run, made from their specs (:data:`pipelines.check_specs.CHECKS`):
one Dagster asset check per spec, guarding its asset, blocking or not as the spec says, and
reporting the offending rows (and their number) as metadata."""

import dagster as dg

from assets.metadata import table
from assets.partitions import SESSION_DATES
from pipelines import stages
from pipelines.check_specs import CHECKS, CheckSpec
from pipelines.resources import WarehouseResource


def asset_check(spec: CheckSpec) -> dg.AssetChecksDefinition:
    """The Dagster asset check of ``spec`` (partitioned by session date when the spec is)."""

    @dg.asset_check(
        name=spec.name,
        asset=spec.asset,
        blocking=spec.blocking,
        description=spec.description,
        partitions_def=SESSION_DATES if spec.partitioned else None,
    )
    def _check(
        context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
    ) -> dg.AssetCheckResult:
        session_date = context.partition_key if spec.partitioned else None
        ok, bad = stages.check(warehouse.get(), spec.name, session_date)
        metadata: dict[str, object] = {spec.count_key: bad.height} if spec.count_key else {}
        metadata[spec.rows_key] = table(bad)
        return dg.AssetCheckResult(passed=ok, metadata=metadata)

    return _check


#: Every asset check of the Definitions, in the order of :data:`CHECKS`.
ASSET_CHECKS: list[dg.AssetChecksDefinition] = [asset_check(s) for s in CHECKS]
