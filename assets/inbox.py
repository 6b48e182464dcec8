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


@dg.multi_asset(specs=INBOX_SPECS)
def inbox_tables(warehouse: WarehouseResource, inbox: InboxResource):
    """Scan the whole inbox (formats recognised by content) and rewrite the reference tables."""
    s = stages.ingest(inbox.get(), warehouse.get())
    meta = {
        "files": s.figures["files"],
        "dates": ", ".join(s.figures["dates"]),
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
