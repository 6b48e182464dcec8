"""The tags of a Dagster run of a range of session dates (no Dagster import: plain strings)."""

#: Dagster's tags naming the first and last partition of a range run.
RANGE_START = "dagster/asset_partition_range_start"
RANGE_END = "dagster/asset_partition_range_end"


def range_tags(start: str, end: str) -> dict[str, str]:
    """The tags of a run of the session dates ``start`` to ``end`` (both included): the
    partitioned assets compute every date of the range in one pass
    (``BackfillPolicy.single_run``)."""
    return {RANGE_START: start, RANGE_END: end}
