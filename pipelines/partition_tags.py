"""The tags of Traveller's Dagster runs (no Dagster import: plain strings).

A run of session dates carries Dagster's range tags (the partitioned assets compute every
date of the range in one pass) and ``traveller/dates`` (``first..last``), on which an
instance limits runs of the same dates to one at a time. A run of the whole-warehouse steps
(the audit, the reconciliation, the reports and the publication) carries
``traveller/warehouse: whole``: an instance runs one at a time, and on a PostgreSQL warehouse
such a run holds the warehouse alone (:mod:`pipelines.run_lock`).
"""

#: Dagster's tags naming the first and last partition of a range run.
RANGE_START = "dagster/asset_partition_range_start"
RANGE_END = "dagster/asset_partition_range_end"

#: The session dates of a run, ``first..last`` (a tag an instance can limit per value).
DATES = "traveller/dates"

#: The tag of a run of the whole-warehouse steps, and its value.
WAREHOUSE = "traveller/warehouse"
WHOLE = "whole"


def range_tags(start: str, end: str) -> dict[str, str]:
    """The tags of a run of the session dates ``start`` to ``end`` (both included): the
    partitioned assets compute every date of the range in one pass
    (``BackfillPolicy.single_run``)."""
    return {RANGE_START: start, RANGE_END: end, DATES: f"{start}..{end}"}


def whole_warehouse_tags() -> dict[str, str]:
    """The tags of a run of the whole-warehouse steps (audit, reconciliation, reports,
    publication)."""
    return {WAREHOUSE: WHOLE}


def holds_whole_warehouse(tags: dict[str, str]) -> bool:
    """Whether a run with ``tags`` runs the whole-warehouse steps (it holds the warehouse
    alone), rather than session dates (which share it with other runs of dates)."""
    return tags.get(WAREHOUSE) == WHOLE
