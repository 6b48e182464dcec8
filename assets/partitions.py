"""The partitioning of every results asset: the session date."""

import warnings

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
