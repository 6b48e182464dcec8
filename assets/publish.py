"""Publication asset: the results site, the federation exports and the season dashboard."""

import dagster as dg

from assets.audit import audit_marts, audit_reports, reconciliation
from assets.standings import standings
from pipelines import stages
from pipelines.publish import publish
from pipelines.resources import PublicationResource, WarehouseResource


# the last step of the whole-warehouse job: after the reconciliation, which may mark a
# file's sessions provisional or held, and after the audit and its reports
@dg.asset(
    deps=[standings, "events", audit_marts, reconciliation, audit_reports],
    group_name="publish",
    kinds={"html", "parquet", "xml"},
)
def publication(
    warehouse: WarehouseResource, publication: PublicationResource
) -> dg.MaterializeResult:
    """Write the results site (rankings, travellers, scorecards; status and versions), the
    USEBIO 1.2 and PBN exports, the Parquet exports partitioned by date and the season
    dashboard from the official standings of every date. Records that the audit and the
    publication are done for the results as they are (:func:`pipelines.stages.mark_step`):
    the whole-warehouse sensor then waits for new results."""
    out = publication.get()
    s = publish(warehouse.get().path, out)
    for step in stages.WHOLE_WAREHOUSE_STEPS:
        stages.mark_step(warehouse.get(), step)
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
