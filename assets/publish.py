"""Publication asset: the results site, the federation exports and the season dashboard."""

import dagster as dg

from assets.audit import audit_marts
from assets.standings import standings
from pipelines.publish import publish
from pipelines.resources import PublicationResource, WarehouseResource


@dg.asset(
    deps=[standings, "events", audit_marts],
    group_name="publish",
    kinds={"html", "parquet", "xml"},
)
def publication(
    warehouse: WarehouseResource, publication: PublicationResource
) -> dg.MaterializeResult:
    """Write the results site (rankings, travellers, scorecards; status and versions), the
    USEBIO 1.2 and PBN exports, the Parquet exports partitioned by date and the season
    dashboard from the official standings of every date."""
    out = publication.get()
    s = publish(warehouse.get().path, out)
    return dg.MaterializeResult(
        metadata={
            "site": dg.MetadataValue.path(str(out / "site" / "index.html")),
            "pages": s.pages,
            "pages_changed": s.pages_changed,
            "pages_removed": s.pages_removed,
            "sessions_rendered": s.sessions_rendered,
            "sessions_kept": s.sessions_kept,
            "events_kept": s.events_kept,
            "sessions": s.sessions,
            "usebio_files": len(s.usebio),
            "pbn_files": len(s.pbn),
            "team_pbn_files": len(s.pbn_teams),
            "parquet_rows": sum(s.parquet.values()),
            "dashboard": dg.MetadataValue.path(str(s.dashboard)),
        }
    )
