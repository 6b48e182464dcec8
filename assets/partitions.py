"""The partitioning of every results asset (the session date), and the declarations the asset
modules share."""

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import dagster as dg

from pipelines.inbox import FIRST_DATE

#: One partition per session date; sessions of today and tomorrow (time zones) are accepted.
SESSION_DATES = dg.DailyPartitionsDefinition(start_date=FIRST_DATE.isoformat(), end_offset=2)

# Partitioned asset checks (one result per session date) are a Dagster preview feature in
# 1.13; Traveller relies on them deliberately (see docs/architecture.md), so the warning is
# silenced here rather than printed on every run.
warnings.filterwarnings(
    "ignore", message="Specifying a partitions_def on an AssetCheckSpec", category=Warning
)
# Likewise a results asset's backfill policy (one run computes a range of dates in one pass),
# beta in 1.13 and used deliberately.
warnings.filterwarnings("ignore", message="Parameter `backfill_policy`", category=Warning)


def dated_asset(*deps: object, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """The decorator of a results asset: one partition per session date, in the ``results``
    group, built with DuckDB and Polars, after ``deps`` (assets or their keys); ``options``
    go to ``dg.asset`` as given (e.g. a ``pool``).

    A backfill of many dates (a first load, a profile change, ``traveller run --all``) is one
    run over the range (``BackfillPolicy.single_run``): the asset computes every date of
    ``context.partition_keys`` in one vectorised pass, not one materialisation per date."""
    return dg.asset(
        partitions_def=SESSION_DATES,
        backfill_policy=dg.BackfillPolicy.single_run(),
        deps=list(deps),
        group_name="results",
        kinds={"duckdb", "polars"},
        **options,
    )


def asset_specs(
    group: str, kinds: set[str], descriptions: Mapping[str, str], deps: Sequence[str] = ()
) -> list[dg.AssetSpec]:
    """The specs of a multi-asset's assets, in order: one per ``descriptions`` entry (the
    asset's key and what it holds), each in ``group``, of ``kinds``, after ``deps``."""
    return [
        dg.AssetSpec(key, deps=list(deps), group_name=group, kinds=set(kinds), description=d)
        for key, d in descriptions.items()
    ]
