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

import io
import json
from pathlib import Path

import polars as pl

from pipelines import tables as registry
from pipelines.batching import batches
from pipelines.publish.data import has_table, refuse_private
from pipelines.publish.files import digest, prune, put, record_of
from pipelines.settings import range_results
from pipelines.split import parts_by
from pipelines.warehouse import Warehouse, date_counts, date_digests, export, query

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


#: Tables each of whose date partitions is made from that date alone (its results, rulings
#: and appeals, as the date was computed): a date whose inputs and outputs (``dates_done``)
#: are those of the last publication keeps its files without its rows being read. The
#: others (the standings hold an event's totals on its last date, the marts span periods)
#: are read whole and each partition compared by its content.
DATE_LOCAL: frozenset[str] = frozenset({"scored_results", "adjustments", "rulings", "appeals"})

#: The other date-partitioned tables (an event's totals are on its last date) are digested
#: by date in DuckDB (:func:`~pipelines.warehouse.date_digests`): a date whose digest is
#: that of the last publication keeps its file without its rows being read; the others are
#: read and each partition compared by its content.

#: The file of each partition (Polars' name for a partition's first file).
PART_FILE = "00000000.parquet"


def _parts(df: pl.DataFrame, by: str) -> dict[str, pl.DataFrame]:
    """``df`` split by ``by`` (text, ``unknown`` when empty), each part keeping the column."""
    if not df.height:
        return {}
    df = df.with_columns(pl.col(by).cast(pl.Utf8).fill_null("unknown"))
    return {k[0]: part for k, part in parts_by(df, by).items()}


class _Record:
    """What each Parquet file was made from and how many rows it holds (``.manifests``), and
    the date keys the date-local tables were made from."""

    def __init__(self, out: Path) -> None:
        self.path = record_of(out)
        try:
            before = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            before = {}
        before = before if isinstance(before, dict) else {}
        self.files: dict[str, dict] = before.get("files") or {}
        self.dates: dict[str, str] = before.get("dates") or {}
        self.now_files: dict[str, dict] = {}

    def save(self, dates: dict[str, str]) -> None:
        text = json.dumps({"files": self.now_files, "dates": dates}, sort_keys=True)
        put(self.path, (text + "\n").encode())


def date_chunks(sizes: list[tuple[str | None, int]], budget: int) -> list[list[str | None]]:
    """The dates of ``sizes`` (``date, rows``, in order) in runs of at most ``budget`` rows
    each (a date alone may hold more; :func:`pipelines.batching.batches`): a table is
    exported a run at a time, so an export of years holds one run's rows in memory, not the
    whole table.

    >>> date_chunks([("2026-01-01", 60), ("2026-01-02", 50), ("2026-01-03", 70)], 120)
    [['2026-01-01', '2026-01-02'], ['2026-01-03']]
    """
    runs = batches(sizes, lambda size: size[1], budget)
    return [[day for day, _ in run] for run in runs]


def _unchanged(conn, name: str, out: Path, record: _Record) -> tuple[dict[str, str], set]:
    """The date digests of table ``name`` (:func:`~pipelines.warehouse.date_digests`, each
    with the engine's code: a new version makes every file again), by partition file, and
    the dates whose file the last publication made from the same digest and is still there
    (their rows are not read). On PostgreSQL: none known, every date read."""
    from pipelines.incremental import code_fingerprint

    found = date_digests(conn, name, public=True)
    if found is None:
        return {}, set()
    code = code_fingerprint()
    sums = {
        f"{name}/session_date={day or 'unknown'}/{PART_FILE}": (day, f"{code}:{rows}:{total}")
        for day, rows, total in found
    }
    same = {
        day
        for rel, (day, key) in sums.items()
        if record.files.get(rel, {}).get("sum") == key and (out / rel).is_file()
    }
    return {rel: key for rel, (_, key) in sums.items()}, same


def write_parquet(
    warehouse: Path | str, out: Path, season: pl.DataFrame | None = None
) -> dict[str, int]:
    """Write every export table under ``out`` (a Hive partition per date, month or period),
    each partition file only when its rows changed and atomically (:func:`~pipelines.publish.
    files.put`), the partitions no longer exported removed; rows exported per table.

    The date-partitioned tables are read a run of dates at a time
    (:func:`date_chunks`, at most :func:`~pipelines.settings.range_results` rows): the files
    are those of the whole table read at once, the memory that of one run. ``season``: the
    season mart (``sql/reports/season_sessions``) when the caller read it already."""
    counts: dict[str, int] = {}
    record = _Record(out)
    budget = range_results()

    def put_parts(name: str, df: pl.DataFrame, by: str, sums: dict[str, str] | None = None) -> None:
        refuse_private({name: df})
        for value, part in sorted(_parts(df, by).items()):
            rel = f"{name}/{by}={value}/{PART_FILE}"
            made_from = digest(part)
            if record.files.get(rel, {}).get("digest") != made_from or not (out / rel).is_file():
                buf = io.BytesIO()
                part.write_parquet(buf)
                put(out / rel, buf.getvalue())
            record.now_files[rel] = {"digest": made_from, "rows": part.height}
            if sums and rel in sums:
                record.now_files[rel]["sum"] = sums[rel]
            counts[name] += part.height

    with Warehouse(warehouse).connect(read_only=True) as conn:
        keys = {d: f"{fp}:{o or ''}" for d, fp, o in query(conn, "read/results_state").rows()}
        # the dates whose date-local files are kept: the same key, every file still there
        same = sorted(
            d
            for d, k in keys.items()
            if record.dates.get(d) == k
            and all(
                (out / rel).is_file()
                for t in DATE_LOCAL
                if (rel := f"{t}/session_date={d}/{PART_FILE}") in record.files
            )
        )
        for name in TABLES:
            counts[name] = 0
            skipped = set(same) if name in DATE_LOCAL else set()
            sums: dict[str, str] = {}
            if name not in DATE_LOCAL:
                sums, skipped = _unchanged(conn, name, out, record)
            for day in sorted(skipped, key=str):  # the dates not read keep their files
                rel = f"{name}/session_date={day or 'unknown'}/{PART_FILE}"
                entry = record.files.get(rel)
                if entry is not None:
                    record.now_files[rel] = entry
                    counts[name] += entry["rows"]
            sizes = [
                (day, rows)
                for day, rows in date_counts(conn, name, public=True)
                if day not in skipped
            ]
            for days in date_chunks(sizes, budget):
                put_parts(
                    name, export(conn, name, public=True, of_dates=days), "session_date", sums
                )
        if season is None:
            season = query(conn, "reports/season_sessions")
        small = {"season_sessions": season}
        for mart in MARTS:
            if has_table(conn, mart):
                small[mart] = export(conn, mart, public=True)
    for name, df in small.items():
        counts[name] = 0
        put_parts(name, df, "month" if name == "season_sessions" else "period")
    prune(out, {out / rel for rel in record.now_files})
    record.save(keys)
    return counts
