"""Parquet exports for BI tools: the standings and the analytics marts, partitioned by date.

Each table is written as a Hive-partitioned dataset, ``<out>/<table>/session_date=YYYY-MM-DD/
*.parquet`` (the season mart by ``month=YYYY-MM``, the audit marts by their ``period``), so a
tool reads one night or the whole season. The tables: every version of the standings
(``status`` tells the newest), the travellers (``scored_results``), ``adjustments``,
``standings_changes``, ``rulings``, ``appeals``, the team ``matches``, the season mart (one row
per event session with tables, field, adjusted results, penalties, appeals) and the audit marts
(``penalty_stats``, ``appeal_stats``, ``director_audit``, ``ruling_discrepancies``) when the
warehouse has them. Nothing private is exported: each table without the columns the
registry declares ``private`` (a director's or committee's ``note`` — the ``public_note`` is
exported —, ``ruling_discrepancies.a_note`` / ``b_note``; ``contestants.player_ids``, the
national membership numbers, is never read), and a frame that still holds one is refused.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl

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
#: Analytics marts of the analytics issue, exported as they are when present.
MARTS: tuple[str, ...] = (
    "penalty_stats",
    "appeal_stats",
    "director_audit",
    "ruling_discrepancies",
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
