"""The asset checks of the run, made from their specs (:data:`pipelines.check_specs.CHECKS`):
one Dagster asset check per spec, guarding its asset, blocking or not as the spec says, and
reporting the offending rows (and their number) as metadata."""

import dagster as dg

from assets.metadata import table
from assets.partitions import SESSION_DATES
from pipelines import stages
from pipelines.check_specs import CHECKS, FAILED_DATES, CheckSpec
from pipelines.resources import WarehouseResource


def asset_check(spec: CheckSpec) -> dg.AssetChecksDefinition:
    """The Dagster asset check of ``spec`` (partitioned by session date when the spec is).

    A check of dates is evaluated for every date of the run (one date, or a range computed
    in one pass) and lists the dates it failed for (``failed_dates``). Its blocking is the
    stages' own (:func:`pipelines.stages.open_days`: a date that fails stops there, the other
    dates of the range go on), not Dagster's, which would stop every date of the run."""

    @dg.asset_check(
        name=spec.name,
        asset=spec.asset,
        blocking=spec.blocking and not spec.partitioned,
        description=spec.description,
        partitions_def=SESSION_DATES if spec.partitioned else None,
    )
    def _check(
        context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource
    ) -> dg.AssetCheckResult:
        days = list(context.partition_keys) if spec.partitioned else None
        ok, bad = stages.check(warehouse.get(), spec.name, days)
        metadata: dict[str, object] = {spec.count_key: bad.height} if spec.count_key else {}
        metadata[spec.rows_key] = table(bad)
        if spec.partitioned:
            metadata[FAILED_DATES] = ", ".join(sorted(stages.failed_dates(bad)))
        return dg.AssetCheckResult(passed=ok, metadata=metadata)

    return _check


#: Every asset check of the Definitions, in the order of :data:`CHECKS`.
ASSET_CHECKS: list[dg.AssetChecksDefinition] = [asset_check(s) for s in CHECKS]
