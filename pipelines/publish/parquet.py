"""Parquet exports for BI tools: the standings and the analytics marts, partitioned by date.

Each table is written as a Hive-partitioned dataset, ``<out>/<table>/session_date=YYYY-MM-DD/
*.parquet`` (the season mart by ``month=YYYY-MM``, the audit marts by their ``period``), so a
tool reads one night or the whole season. The tables: every version of the standings
(``status`` tells the newest), the travellers (``scored_results``), ``adjustments``,
``standings_changes``, ``rulings``, ``appeals``, the team ``matches``, the season mart (one row
per event session with tables, field, adjusted results, penalties, appeals) and the penalty
and appeal statistics (``penalty_stats``, ``appeal_stats``) when the warehouse has them.
Nothing private is exported: each table without the columns the registry declares
``private`` (a director's or committee's ``note`` — the ``public_note`` is exported —;
``contestants.player_ids``, the national membership numbers, is never read), and a frame that
still holds one is refused. Nor is the director audit: its marts (``director_audit``,
``ruling_discrepancies``) are never exported, a ruling's ``director`` and the statistics'
slices by director are left out (the registry's ``audit`` declarations).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl

from pipelines import tables as registry
from pipelines.publish.data import has_table, refuse_private
from pipelines.warehouse import Warehouse, export, query

#: Tables exported in their registry order (:meth:`pipelines.tables.Table.export_sql`),
#: partitioned by date.
TABLES: tuple[str, ...] = (
    "standings",
    "scored_results",
    "adjustments",
    "standings_changes",
    "rulings",
    "appeals",
    "matches",
)
#: Analytics marts exported when present, without their slices by director (the registry's
#: ``audit_rows``). The director audit's own marts (``director_audit``,
#: ``ruling_discrepancies``: ``audit_table``) are never exported: they name directors, and
#: the audit report alone shows them (the public transparency report pseudonymises them).
MARTS: tuple[str, ...] = tuple(
    t for t in ("penalty_stats", "appeal_stats") if not registry.table(t).audit_table
)


def _write(df: pl.DataFrame, path: Path, by: str) -> int:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    if not df.height:
        return 0
    if by in df.columns:
        df = df.with_columns(pl.col(by).cast(pl.Utf8).fill_null("unknown"))
        df.write_parquet(path, partition_by=by)
    else:
        df.write_parquet(path / "data.parquet")
    return df.height


def write_parquet(warehouse: Path | str, out: Path) -> dict[str, int]:
    """Write every export table under ``out``; rows written per table."""
    counts: dict[str, int] = {}
    with Warehouse(warehouse).connect(read_only=True) as conn:
        frames = {t: export(conn, t, public=True) for t in TABLES}
        frames["season_sessions"] = query(conn, "reports/season_sessions")
        for mart in MARTS:
            if has_table(conn, mart):
                frames[mart] = export(conn, mart, public=True)
    refuse_private(frames)
    for name, df in frames.items():
        by = {"season_sessions": "month"}.get(name, "period" if name in MARTS else "session_date")
        counts[name] = _write(df, out / name, by)
    return counts
