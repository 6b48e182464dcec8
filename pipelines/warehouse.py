"""The DuckDB warehouse: schema, partition writes in one transaction, reads into Polars.

The tables are declared once, in :mod:`pipelines.tables`, which produces their DDL and the
statements that only restate a table (create, drop, insert by name, delete of a slice,
export); every other statement — the reads, checks, reports, marts' reads, exports and
deletes with logic — is a model in ``sql/`` (one statement per file). Everything runs with
bound parameters; nothing here formats a value into SQL text, and identifiers come only
from the registry. Frames are handed to DuckDB by registering them as the view
``incoming``, then copied in by column name.

Writes replace a slice of a table — a whole reference table, one session date, the events
of a date — as ``DELETE`` (the registry's slice, or ``sql/write/<delete>.delete.sql``) then
``INSERT``, all the writes of one call in a single transaction, so re-running the same
inputs leaves the same warehouse and a failure leaves the previous one intact.

Reads go through ``conn.sql(query, params=...).pl()``: DuckDB 2.x removed the
``.arrow()`` method that ``dagster-duckdb-polars`` relies on to load inputs, so
Traveller does its own reading and writing here and its assets return
``MaterializeResult`` metadata rather than frames for an IO manager.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from pipelines import tables as registry
from pipelines.sql_files import sql
from pipelines.sql_files import sql_dir as _sql_dir
from pipelines.writes import Write
from pipelines.writes import bound as _bound

__all__ = ["Write", "_sql_dir", "sql"]

#: Table names in dependency order (declared in :mod:`pipelines.tables`).
TABLES: tuple[str, ...] = tuple(t.name for t in registry.TABLES)

#: Default warehouse file, relative to the working directory.
DEFAULT_PATH = Path("data/warehouse.duckdb")

#: DuckDB files this process keeps open for a run (:meth:`Warehouse.kept_open`): resolved
#: path -> (the keeping connection, how many holds).
_KEPT: dict[str, tuple[duckdb.DuckDBPyConnection, int]] = {}


#: How long a run waits, after its publication's helper processes read the file it keeps
#: open (:meth:`Warehouse.open_to_readers`), for another reader to let it open the file for
#: writing again (seconds).
REOPEN_WAIT = 120.0

#: A value with a URL scheme (``postgresql://…``, and what ``Path`` makes of it,
#: ``postgresql:/…``); a drive letter (``C:/``) is a path.
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:/")


def not_a_path(value: str | Path) -> str | None:
    """Why ``value`` cannot be the warehouse, or None: a DuckDB file path or a PostgreSQL URL
    (``postgresql://…``, :mod:`pipelines.pg_warehouse`); any other URL (which would otherwise
    become a folder named ``s3:``) is refused rather than taken as a path."""
    if _URL.match(str(value)) and not is_postgres(value):
        return (
            f"the warehouse '{value}' is a URL that is not PostgreSQL's: the warehouse is a "
            "DuckDB file (e.g. data/warehouse.duckdb) or postgresql://user:pw@host:5432/db"
        )
    return None


def is_postgres(value: str | Path) -> bool:
    """Whether ``value`` names a PostgreSQL warehouse (``postgresql://…``)."""
    from pipelines.pg_warehouse import is_url

    return is_url(value)


class Warehouse:
    """A DuckDB warehouse file (created on first use), or a PostgreSQL database when given a
    ``postgresql://`` URL (:mod:`pipelines.pg_warehouse`: same tables, same models)."""

    def __init__(self, path: str | Path = DEFAULT_PATH) -> None:
        if not_a_path(path):
            raise ValueError(not_a_path(path))
        #: the PostgreSQL URL, or None for a DuckDB file
        self.url: str | None = None
        if is_postgres(path):
            from pipelines.pg_warehouse import normalise_url

            self.url = normalise_url(path)
        self.path = Path(path)

    @property
    def folder(self) -> Path:
        """Where the reports and publication of this warehouse go by default: the DuckDB
        file's folder, or for PostgreSQL ``$TRAVELLER_PUBLISH`` (default ``data``)."""
        if self.url is not None:
            import os

            return Path(os.environ.get("TRAVELLER_PUBLISH", "data"))
        return self.path.parent

    def _key(self) -> str:
        return str(self.path.resolve())

    def keep_open(self) -> None:
        """Keep the DuckDB file open until :meth:`release` (re-entrant within the process).

        Opening a DuckDB file reads its catalogue, and closing its last connection writes a
        checkpoint: a run whose stages each open and close the file pays both many times
        over. A run (``traveller run``, a Dagster run holding the run lock) keeps it open from
        its first stage to its last; every :meth:`connect` in between is a cursor on that
        database (same transactions, same isolation as a connection of its own). A
        PostgreSQL warehouse is left as it is (a connection per stage, pooled by the server).
        """
        if self.url is not None:
            return
        key = self._key()
        if key in _KEPT:
            conn, n = _KEPT[key]
            _KEPT[key] = (conn, n + 1)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = duckdb.connect(str(self.path))
        try:
            ensure_schema(conn)
        except BaseException:
            conn.close()
            raise
        _KEPT[key] = (conn, 1)

    def release(self) -> None:
        """Give back one hold of :meth:`keep_open`; the last closes the file (checkpoint)."""
        if self.url is not None:
            return
        key = self._key()
        if key not in _KEPT:
            return
        conn, n = _KEPT[key]
        if n > 1:
            _KEPT[key] = (conn, n - 1)
            return
        del _KEPT[key]
        conn.close()

    @contextmanager
    def open_to_readers(self) -> Iterator[Warehouse]:
        """For the block, the file this process keeps open (:meth:`keep_open`) is closed, so
        that other processes may read it (DuckDB lets many processes read a file only while
        none writes it: a publication's helper processes read it beside the run's); it is
        opened again after, held as many times as before. Meanwhile this process's
        :meth:`connect` opens a connection of its own each time (read-only ones, beside the
        readers). A file not kept open, or a PostgreSQL warehouse, is left as it is."""
        key = None if self.url is not None else self._key()
        if key is None or key not in _KEPT:
            yield self
            return
        conn, n = _KEPT.pop(key)
        conn.close()
        try:
            yield self
        finally:
            _KEPT[key] = (self._reopen(), n)

    def _reopen(self) -> duckdb.DuckDBPyConnection:
        """Open the file for writing again after :meth:`open_to_readers`: another process
        may be reading it at that moment (a sensor, a report, a ``traveller publish`` — the
        file was open to them), which DuckDB refuses a writer; it is tried again until it
        has finished, :data:`REOPEN_WAIT` seconds at most, then the lock error is raised."""
        import time

        deadline = time.monotonic() + REOPEN_WAIT
        while True:
            try:
                return duckdb.connect(str(self.path))
            except duckdb.IOException as e:
                # DuckDB's lock error names the other process (pipelines.run_lock.holder_of)
                if "Conflicting lock" not in str(e) or time.monotonic() >= deadline:
                    raise
            time.sleep(0.2)

    @contextmanager
    def kept_open(self) -> Iterator[Warehouse]:
        """The warehouse kept open for the block (:meth:`keep_open`)."""
        self.keep_open()
        try:
            yield self
        finally:
            self.release()

    @contextmanager
    def connect(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        """Open the warehouse (creating the file and the schema if needed); closes on exit.
        While the file is kept open (:meth:`keep_open`) this is a cursor on it."""
        if self.url is not None:
            from pipelines import pg_warehouse

            with pg_warehouse.connect(self.url, read_only) as pg:
                yield pg  # type: ignore[misc]
            return
        kept = _KEPT.get(self._key()) if _KEPT else None
        if kept is not None:
            cursor = kept[0].cursor()
            try:
                yield cursor
            finally:
                cursor.close()
            return
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
    """A fingerprint of every table definition of the registry (changes when one does)."""
    return registry.schema_version()


def ensure_schema(conn: duckdb.DuckDBPyConnection) -> None:
    """Create every table that does not exist yet, rebuilding all of them when the registry's
    definitions changed (:func:`pipelines.tables.sync_schema`)."""
    registry.sync_schema(conn, lambda table: conn.execute(table.ddl()))


def query(
    conn: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None
) -> pl.DataFrame:
    """Run the model ``sql/<name>.sql`` with bound ``params`` (those it names); the result as
    a Polars frame."""
    if not isinstance(conn, duckdb.DuckDBPyConnection):
        from pipelines import pg_warehouse

        return pg_warehouse.query(conn, name, sql(name), params)
    text = sql(name)
    return conn.sql(text, params=_bound(text, params)).pl()


def export(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    public: bool = False,
    but_dates: Sequence[str] | None = None,
    of_dates: Sequence[str | None] | None = None,
) -> pl.DataFrame:
    """Every row of ``table`` in its export order (:meth:`pipelines.tables.Table.export_sql`);
    ``public``: without its private columns (a director's note, membership numbers);
    ``but_dates``: not the rows of those session dates; ``of_dates``: only those (``None``
    among them: the rows without a date)."""
    statement = registry.table(table).export_sql(
        public, but_dates=but_dates is not None, of_dates=of_dates is not None
    )
    params: dict[str, Any] | None = None
    if but_dates is not None:
        params = {"dates": list(but_dates)}
    elif of_dates is not None:
        days = list(of_dates)
        params = {"dates": [d for d in days if d is not None], "undated": None in days}
    if not isinstance(conn, duckdb.DuckDBPyConnection):
        return conn.frame(statement, params)
    return conn.sql(statement, params=params).pl()


def kept_heads(
    conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame, files: Sequence[str]
) -> dict[str, int]:
    """The files of ``files`` whose rows in the read cache's ``table`` are, row for row and
    column for column, the first rows of ``frame``'s (the same file and ordinal): how many
    (:meth:`pipelines.tables.Table.heads_sql`). On PostgreSQL none (every file's rows are
    replaced)."""
    if not isinstance(conn, duckdb.DuckDBPyConnection) or not files:
        return {}
    t = registry.table(table)
    incoming = _as_held(frame, t)
    if incoming is None:
        return {}
    conn.register("incoming", incoming)
    try:
        found = conn.execute(t.heads_sql(), {"files": list(files)}).fetchall()
    finally:
        conn.unregister("incoming")
    return {file: rows for file, rows, same in found if rows and same == rows}


def date_counts(
    conn: duckdb.DuckDBPyConnection, table: str, public: bool = False
) -> list[tuple[str | None, int]]:
    """``(session_date, rows)`` of ``table`` (``public``: of the rows :func:`export` publishes),
    by date in order, ``None`` for the rows without a date
    (:meth:`pipelines.tables.Table.date_counts_sql`)."""
    statement = registry.table(table).date_counts_sql(public)
    if not isinstance(conn, duckdb.DuckDBPyConnection):
        return conn.frame(statement).rows()
    return conn.sql(statement).fetchall()


def date_digests(
    conn: duckdb.DuckDBPyConnection, table: str, public: bool = False
) -> list[tuple[str | None, int, str]] | None:
    """``(session_date, rows, digest)`` of ``table`` by date in order (``public``: of the
    rows :func:`export` publishes; :meth:`pipelines.tables.Table.date_digests_sql`): whether a
    date's export changed, without reading its rows. ``None`` on PostgreSQL (no such hash):
    the caller reads the rows."""
    if not isinstance(conn, duckdb.DuckDBPyConnection):
        return None
    return conn.sql(registry.table(table).date_digests_sql(public)).fetchall()


def write(conn: duckdb.DuckDBPyConnection, writes: Sequence[Write]) -> dict[str, int]:
    """Apply ``writes`` in one transaction (delete the slice, insert the frame; a whole table
    whose rows begin the frame kept, :attr:`Write.keep_head`); each table's rows written."""
    if not isinstance(conn, duckdb.DuckDBPyConnection):
        from pipelines import pg_warehouse

        return pg_warehouse.write(conn, writes, _delete_text)
    counts: dict[str, int] = {}
    conn.execute("BEGIN TRANSACTION")
    try:
        for w in writes:
            table = registry.table(w.table)
            frame = w.frame
            head = _kept_head(conn, w, table)
            if head is None:
                delete = _delete_text(w, table)
                conn.execute(delete, _bound(delete, w.params))
            else:
                frame = frame.slice(head)
            if frame.height:
                conn.register("incoming", frame)
                try:
                    conn.execute(table.insert_sql())
                finally:
                    conn.unregister("incoming")
            counts[w.table] = counts.get(w.table, 0) + w.frame.height
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return counts


def _kept_head(conn: duckdb.DuckDBPyConnection, w: Write, table: registry.Table) -> int | None:
    """How many rows the table holds when ``w`` keeps them (:attr:`Write.keep_head`): all
    of them when they are, in the table's order, the first rows of ``w.frame`` (the same
    values of the same types, nulls equal); else ``None`` (the table is rewritten)."""
    if not w.keep_head or w.params or w.delete or table.partition or table.delete:
        return None
    held = _as_held(conn.sql(table.scan_sql()).pl(), table)
    if held is None or held.height > w.frame.height:
        return None
    head = _as_held(w.frame.head(held.height), table)
    return held.height if head is not None and head.equals(held, null_equal=True) else None


def _as_held(frame: pl.DataFrame, table: registry.Table) -> pl.DataFrame | None:
    """``frame`` as ``table`` holds it: its columns in the table's order, each of the table's
    type (a column it lacks, null; an insert matches columns by name); ``None`` when a value
    is not one of its column's type (an insert would refuse it: nothing is kept)."""
    try:
        return frame.select(
            (pl.col(c) if c in frame.columns else pl.lit(None)).cast(kind).alias(c)
            for c, kind in table.polars_schema().items()
        )
    except pl.exceptions.PolarsError:
        return None


def _delete_text(w: Write, table: registry.Table) -> str:
    """The statement deleting the slice ``w`` replaces (the registry's, or a delete model)."""
    model = w.delete or table.delete
    return sql(f"write/{model}.delete") if model else table.delete_sql(w.params)
