"""Publication: the results site, the federation exports and the season dashboard.

:func:`publish` writes, from a warehouse, into one folder::

    <out>/site/               the results site (pipelines.publish.site)
    <out>/exports/usebio/     USEBIO 1.2 XML per event (pipelines.publish.usebio_writer)
    <out>/exports/pbn/        PBN with ScoreTable/TotalScoreTable per pairs session (pbn_writer)
    <out>/exports/pbn-teams/  PBN of each team session, a record per table as RealBridge
                              writes it (teams_pbn)
    <out>/exports/parquet/    standings and marts, partitioned by date (parquet)
    <out>/exports/events.csv  the events' details, so another Traveller re-imports the
                              exports under the same regulations (profile, movement, Laws)
    <out>/season.html         the season dashboard (pipelines.reports.season)

Only official standings are published: a date held back by a failed check has none, so it
does not appear. Player membership numbers are never read. The public reads ``<out>/site``
and ``<out>/exports``: a warehouse kept in one of them (with its ``reports/``, where the
director audit is written) would be published with them, so publication refuses it
(:func:`pipelines.publish.files.exposed`); the director audit's marts are never exported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipelines.formats.model import EVENT_COLUMNS
from pipelines.publish.data import event_keys, load
from pipelines.publish.files import prune, refuse_exposed
from pipelines.publish.parquet import write_parquet
from pipelines.publish.pbn_writer import write_pbn
from pipelines.publish.site import Site
from pipelines.publish.teams_pbn import write_teams_pbn
from pipelines.publish.usebio_writer import write_usebio
from pipelines.warehouse import Warehouse

#: Columns of the exported ``events.csv``: the inbox's own events file format (the event
#: columns a reader gives, less the lineage and what the exported results say themselves:
#: ``expected_results``, ``boards``, ``pairs``).
EVENT_CSV_COLUMNS: tuple[str, ...] = tuple(
    c
    for c in EVENT_COLUMNS
    if c not in ("file", "location", "expected_results", "boards", "pairs", "source_event_id")
)


@dataclass
class PublishSummary:
    """What :func:`publish` wrote."""

    out: Path
    pages: int = 0
    #: pages written because their content changed (the others were left as they were)
    pages_changed: int = 0
    #: pages of an earlier publication no longer published, removed
    pages_removed: int = 0
    #: sessions whose pages were rendered, and those whose inputs had not changed since the
    #: last publication (their pages kept as they were, not rendered again)
    sessions_rendered: int = 0
    sessions_kept: int = 0
    usebio: list[Path] = field(default_factory=list)
    pbn: list[Path] = field(default_factory=list)
    pbn_teams: list[Path] = field(default_factory=list)
    parquet: dict[str, int] = field(default_factory=dict)
    dashboard: Path | None = None
    sessions: int = 0
    #: events kept as the last publication made them (nothing read, rendered or written)
    events_kept: int = 0


def write_events_csv(sessions: pl.DataFrame, path: Path) -> Path:
    """The published event sessions as an ``events.csv`` Traveller's inbox reads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    cols = [c for c in EVENT_CSV_COLUMNS if c in sessions.columns]
    sessions.select(cols).write_csv(path)
    return path


def publish(warehouse: Path | str, out: Path | str, dashboard: bool = True) -> PublishSummary:
    """Write the site, the exports and (unless ``dashboard`` is false) the season dashboard.

    Publishing costs what changed: an event whose pages and files are made from what they
    were made from at the last publication (:func:`~pipelines.publish.data.event_keys`, with
    its folder) and are all still there is kept as it is — its rows are not read, its pages
    not rendered, its files not written; the others are made again, each page and file
    written only when its bytes changed, and what is no longer published removed."""
    out = Path(out)
    refuse_exposed(out, Warehouse(warehouse).folder)
    keys = event_keys(warehouse)
    site_dir = out / "site"
    folders = _folders(warehouse)
    keys = {e: f"{k}:{folders.get(e, '')}" for e, k in keys.items()}
    kept = Site.keepable(site_dir, keys)
    data = load(warehouse, skip=kept)
    summary = PublishSummary(out=out, sessions=data.sessions.height, events_kept=len(kept))
    site = Site(data, site_dir, keys=keys, kept=kept)
    summary.pages = len(site.render())
    summary.pages_changed, summary.pages_removed = len(site.changed), len(site.removed)
    summary.sessions_rendered, summary.sessions_kept = site.rendered, site.kept
    exports = out / "exports"
    summary.usebio = write_usebio(
        data.sessions, data.standings, data.results, exports / "usebio", kept
    )
    summary.pbn = write_pbn(data.sessions, data.standings, data.results, exports / "pbn", kept)
    summary.pbn_teams = write_teams_pbn(data.sessions, data.results, exports / "pbn-teams", kept)
    # each export file was written only if it changed; those of sessions withdrawn go
    prune(exports / "usebio", summary.usebio)
    prune(exports / "pbn", summary.pbn)
    prune(exports / "pbn-teams", summary.pbn_teams)
    summary.parquet = write_parquet(warehouse, exports / "parquet")
    write_events_csv(data.sessions, exports / "events.csv")
    if dashboard:
        from pipelines.reports.season import render_season

        summary.dashboard = render_season(warehouse, out / "season.html")
    return summary


def _folders(warehouse: Path | str) -> dict[str, str]:
    """Each published event's folder (:func:`~pipelines.publish.site.event_folders`): part of
    what its pages are made from (an event known only by a GUID may take another's title)."""
    from pipelines.publish.site import event_folders, readable
    from pipelines.warehouse import query

    with Warehouse(warehouse).connect(read_only=True) as conn:
        sessions = query(conn, "publish/sessions")
    return event_folders([readable(s) for s in sessions.to_dicts()])
