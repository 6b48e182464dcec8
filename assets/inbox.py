"""Inbox assets: the file registry and the reference tables read from it (unpartitioned)."""

import dagster as dg

from assets.partitions import asset_specs
from pipelines import stages
from pipelines.resources import InboxResource, WarehouseResource

INBOX_SPECS = asset_specs(
    "inbox",
    {"duckdb"},
    {"source_files": "Registry of inbox files: format, sha256, dates, row accounting."},
) + asset_specs(
    "inbox",
    {"duckdb"},
    {
        "events": "Each event session's details: events.csv over file headers over defaults.",
        "contestants": "Contestants' names (player ids stored, never published).",
        "source_standings": "Official figures computed by the exporting program, as given.",
    },
    deps=["source_files"],
)


# Every run of dates reads the inbox first: with several at once (a PostgreSQL warehouse),
# one at a time does (the pool `inbox`, limit 1): the first reads the new files into the read
# cache and the others find them there, instead of all reading and analysing the same new
# files and deals side by side
@dg.multi_asset(specs=INBOX_SPECS, pool="inbox")
def inbox_tables(warehouse: WarehouseResource, inbox: InboxResource):
    """Read the inbox's new or changed files (formats recognised by content; the others come
    from the read cache), resolve every file's rows and rewrite the reference tables (each
    table whole, all of them in one transaction: a run reading them sees the inbox before
    or after another run's reading, never half of it)."""
    s = stages.ingest(inbox.get(), warehouse.get())
    meta = {
        "files": s.figures["files"],
        # the read cache: only new or changed files are read
        "files_read": s.figures["files_read"],
        "files_unchanged": s.figures["files_unchanged"],
        "files_forgotten": s.figures["files_forgotten"],
        "dates": len(s.figures["dates"]),
        "first_date": s.figures["dates"][0] if s.figures["dates"] else "",
        "last_date": s.figures["dates"][-1] if s.figures["dates"] else "",
        "rows_rejected_reading": s.figures["rows_rejected"],
    }
    for key in ("source_files", "events", "contestants", "source_standings"):
        yield dg.MaterializeResult(
            asset_key=key,
            metadata={
                "dagster/row_count": s.written.get(key, 0),
                **(meta if key == "source_files" else {}),
            },
        )
