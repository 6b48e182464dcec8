"""The DuckDB warehouse: schema, partition writes in one transaction, reads into Polars.

All SQL lives in ``sql/`` (one statement or model per file) and runs with bound
parameters; nothing here formats values into SQL text. Frames are handed to
DuckDB by registering them as the view ``incoming``, then
``sql/write/<table>.insert.sql`` copies them in by column name.

Writes replace a slice of a table — a whole reference table, or one session
date — as ``DELETE`` (``sql/write/<table>.delete.sql``) then ``INSERT``, all the
writes of one call in a single transaction, so re-running the same inputs
leaves the same warehouse and a failure leaves the previous one intact.

Reads go through ``conn.sql(query, params=...).pl()``: DuckDB 2.x removed the
``.arrow()`` method that ``dagster-duckdb-polars`` relies on to load inputs, so
Traveller does its own reading and writing here and its assets return
``MaterializeResult`` metadata rather than frames for an IO manager.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

#: Tables in dependency order (each has ``sql/schema/<table>.sql``).
TABLES: tuple[str, ...] = (
    "source_files",
    "events",
    "contestants",
    "source_standings",
    "rejected_inputs",
    "input_warnings",
    "event_holds",
    "raw_results",
    "raw_rulings",
    "raw_appeals",
    "validated_results",
    "rulings",
    "appeals",
    "scored_results",
    "adjustments",
    "standings",
    "standings_changes",
    "matches",
    "holds",
    # the audit marts (pipelines/audit), recomputed whole after the standings
    "penalty_stats",
    "appeal_stats",
    "director_audit",
    "ruling_discrepancies",
    # the official figures of the files against ours (pipelines/scoring/reconcile.py)
    "reconciliation",
    "reconciliation_files",
)

#: Default warehouse file, relative to the working directory.
DEFAULT_PATH = Path("data/warehouse.duckdb")


def _sql_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "sql", here / "_sql"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the sql/ folder was not found beside the pipelines package")


@cache
def sql(name: str) -> str:
    """The text of ``sql/<name>.sql`` (e.g. ``"read/events"``)."""
    path = _sql_dir() / f"{name}.sql"
    if not path.is_file():
        raise FileNotFoundError(f"no SQL model {name!r} at {path}")
    return path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Write:
    """Replace the rows of ``table`` chosen by ``sql/write/<delete>.delete.sql`` with ``frame``."""

    table: str
    frame: pl.DataFrame
    params: dict[str, Any] | None = None
    delete: str | None = None  # defaults to the table's own delete model


class Warehouse:
    """A DuckDB warehouse file (created on first use)."""

    def __init__(self, path: str | Path = DEFAULT_PATH) -> None:
        self.path = Path(path)

    @contextmanager
    def connect(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """Open the warehouse (creating the file and the schema if needed); closes on exit."""
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = duckdb.connect(str(self.path), read_only=read_only)
        try:
            if not read_only:
                ensure_schema(conn)
            yield conn
        finally:
            conn.close()

    def query(self, name: str, params: dict[str, Any] | None = None) -> pl.DataFrame:
        """Run the read model ``sql/<name>.sql`` and return a Polars frame."""
        with self.connect() as conn:
            return query(conn, name, params)


def schema_version() -> str:
    """A fingerprint of every table definition in ``sql/schema`` (changes when one does)."""
    h = hashlib.sha256()
    for table in TABLES:
        h.update(sql(f"schema/{table}").encode())
    return h.hexdigest()[:16]


def ensure_schema(conn: duckdb.DuckDBPyConnection) -> None:
    """Create every table that does not exist yet.

    The warehouse is derived entirely from the inbox, so when the table definitions change
    (a new version of Traveller) the old tables are dropped and created anew rather than
    migrated; the next run rebuilds them (``traveller run`` re-reads every date).
    """
    conn.execute(sql("schema/warehouse_meta"))
    version = schema_version()
    row = conn.execute("SELECT schema_version FROM warehouse_meta").fetchone()
    if row is not None and row[0] != version:
        for table in reversed(TABLES):
            conn.execute(sql(f"drop/{table}"))
        conn.execute("DELETE FROM warehouse_meta")
        row = None
    for table in TABLES:
        conn.execute(sql(f"schema/{table}"))
    if row is None:
        conn.execute("INSERT INTO warehouse_meta VALUES ($v)", {"v": version})


def query(
    conn: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None
) -> pl.DataFrame:
    """Run the model ``sql/<name>.sql`` with bound ``params``; the result as a Polars frame."""
    return conn.sql(sql(name), params=params or None).pl()


def _bound(text: str, params: dict[str, Any] | None) -> dict[str, Any] | None:
    """Only the parameters a statement names (DuckDB rejects unused named parameters)."""
    if not params:
        return None
    used = {k: v for k, v in params.items() if f"${k}" in text}
    return used or None


def write(conn: duckdb.DuckDBPyConnection, writes: Sequence[Write]) -> dict[str, int]:
    """Apply ``writes`` in one transaction (delete the slice, insert the frame); rows inserted."""
    counts: dict[str, int] = {}
    conn.execute("BEGIN TRANSACTION")
    try:
        for w in writes:
            delete = sql(f"write/{w.delete or w.table}.delete")
            conn.execute(delete, _bound(delete, w.params))
            if w.frame.height:
                conn.register("incoming", w.frame)
                try:
                    conn.execute(sql(f"write/{w.table}.insert"))
                finally:
                    conn.unregister("incoming")
            counts[w.table] = counts.get(w.table, 0) + w.frame.height
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return counts
