"""Audit assets: the penalty and appeal statistics, the director-consistency audit and the
discrepancy cases (unpartitioned, recomputed whole after the standings; their checks are made
in ``assets/checks.py``);
the audit and transparency reports written beside the warehouse, in ``reports/``, in one
step."""

from pathlib import Path

import dagster as dg

from assets.partitions import asset_specs
from pipelines import stages
from pipelines.publish.files import PublicationError, refuse_exposed
from pipelines.resources import PublicationResource, WarehouseResource

MART_SPECS = asset_specs(
    "audit",
    {"duckdb", "polars"},
    {
        "penalty_stats": "Procedural (Law 90, by category B1-B8) and disciplinary (Law 91) "
        "penalties per 1,000 boards, by season/month, event, event type, level, club, director, "
        "law.",
        "appeal_stats": "Appeals lodged, Board-Appeal Ratio (per 1,000 boards), outcomes, "
        "deposits retained, appeals without merit, median time to decision; same dimensions.",
        "director_audit": "Per director and season, within level x form x scoring: volume, mix "
        "of rulings and four rates with funnel limits (95 %, 99.8 %), over-dispersion, shrunken "
        "rate; flagged only outside 99.8 %. No rankings.",
        "ruling_discrepancies": "Pairs of rulings by different directors with materially "
        "different outcomes on the same board or the same law in an event, side by side.",
    },
    deps=["standings", "rulings", "events"],
)


@dg.multi_asset(specs=MART_SPECS)
def audit_marts(warehouse: WarehouseResource, publication: PublicationResource):
    """Recompute the four audit marts from the warehouse (pipelines/audit/marts.py); the
    reports' charts handed to the run's drawing process, if any (pipelines/reports/audit.py)."""
    try:
        reports = _reports_dir(warehouse, publication)
    except PublicationError:  # refused, and said, by the reports' asset: the marts go on
        reports = None
    s = stages.audit(warehouse.get(), reports)
    for key in ("penalty_stats", "appeal_stats", "director_audit", "ruling_discrepancies"):
        yield dg.MaterializeResult(
            asset_key=key,
            metadata={
                "dagster/row_count": s.written.get(key, 0),
                **(s.figures if key == "director_audit" else {}),
            },
        )


@dg.asset(
    deps=["standings", "source_standings"],
    group_name="audit",
    kinds={"duckdb", "polars"},
)
def reconciliation(
    warehouse: WarehouseResource, publication: PublicationResource
) -> dg.MaterializeResult:
    """Every official figure of the files (the exporting program's traveller figures,
    totals, percentages, places) that Traveller does not reproduce, with both values and
    the reason; one summary row per file (pipelines/scoring/reconcile.py)."""
    s = stages.reconcile(warehouse.get(), _reports_dir(warehouse, publication))
    return dg.MaterializeResult(
        metadata={"dagster/row_count": s.written.get("reconciliation", 0), **s.figures}
    )


def _reports_dir(warehouse: WarehouseResource, publication: PublicationResource) -> Path:
    """Reports are written beside the warehouse file, in ``reports/``: private (the director
    audit names directors), so never inside the folders publication serves — a warehouse
    kept there is refused before anything is written
    (:func:`pipelines.publish.files.exposed`)."""
    folder = warehouse.get().folder
    refuse_exposed(publication.get(), folder)
    return folder.resolve() / "reports"


REPORT_SPECS = asset_specs(
    "audit",
    {"html"},
    {
        "audit_report": "The director-consistency audit (HTML, self-contained): funnel plots, "
        "audit table, discrepancy cases, how to read a funnel plot. Internal: directors are "
        "named.",
        "transparency_report": "The public transparency report (HTML): rulings by law and "
        "kind, appeals by outcome, Board-Appeal Ratio by month; directors pseudonymised, no "
        "player names or ID numbers.",
    },
    deps=["penalty_stats", "appeal_stats", "director_audit", "ruling_discrepancies"],
)


@dg.multi_asset(specs=REPORT_SPECS, can_subset=True)
def audit_reports(
    context: dg.AssetExecutionContext,
    warehouse: WarehouseResource,
    publication: PublicationResource,
):
    """The audit and the transparency reports selected, from one reading of the warehouse and
    one computation of their marts (:func:`pipelines.stages.reports`)."""
    selected = {k.to_user_string() for k in context.selected_asset_keys}
    kinds = [kind for kind in ("audit", "transparency") if f"{kind}_report" in selected]
    done = stages.reports(warehouse.get(), kinds, _reports_dir(warehouse, publication))
    for kind, s in done.items():
        yield dg.MaterializeResult(
            asset_key=f"{kind}_report",
            metadata={**s.figures, "path": dg.MetadataValue.path(str(s.figures["path"]))},
        )
