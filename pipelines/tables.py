"""The warehouse's tables, declared once: names, columns, types, keys and slices.

The declarations are data, in ``pipelines/tables.toml`` beside this module; this module
loads them into :class:`Table` objects and checks them (types, identifiers, keys) on import.

Every statement that only restates a table is produced here from :data:`TABLES` — the
``CREATE TABLE`` (:meth:`Table.ddl`), the ``DROP``, the ``INSERT ... BY NAME`` of a frame, the
``DELETE`` of the slice a write replaces and the ``SELECT`` of an export — and the Polars
schema of the frames the engine builds for a table (:func:`polars_schema`). Identifiers come
only from this registry (checked against :data:`IDENTIFIER` when it is built), never from
input; values are always bound as parameters (``$session_date``, ``$event_id``, ...).

A table's *partition* names the columns a write replaces a slice by: the session date for
the results tables, the event for team matches, the stage (and date) for rejections; a table
without one is rewritten whole. A slice that is not a plain equality (the standings: a
session date's session rows and its events' event rows) is SQL that says something and
lives in ``sql/write/<delete>.delete.sql``.

The engine holds dates and times as ISO text (``DATE`` and ``TIMESTAMP`` columns are ``Utf8``
in its frames, DuckDB casts them on insert) and a list of dates as a list of text.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

# DuckDB column types used by the warehouse
VARCHAR = "VARCHAR"
INTEGER = "INTEGER"
BIGINT = "BIGINT"
TINYINT = "TINYINT"
DOUBLE = "DOUBLE"
BOOLEAN = "BOOLEAN"
DATE = "DATE"
TIMESTAMP = "TIMESTAMP"
DATE_LIST = "DATE[]"
VARCHAR_LIST = "VARCHAR[]"

#: ``NOT NULL`` (the third argument of :class:`Column`).
NOT_NULL = True

#: How the engine's frames hold each DuckDB type.
POLARS_TYPES: dict[str, pl.DataType] = {
    VARCHAR: pl.Utf8(),
    INTEGER: pl.Int32(),
    BIGINT: pl.Int64(),
    TINYINT: pl.Int8(),
    DOUBLE: pl.Float64(),
    BOOLEAN: pl.Boolean(),
    DATE: pl.Utf8(),
    TIMESTAMP: pl.Utf8(),
    DATE_LIST: pl.List(pl.Utf8),
    VARCHAR_LIST: pl.List(pl.Utf8),
}

#: A table or column name: lower-case letters, digits and underscores.
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")


def _quoted(name: str) -> str:
    if not IDENTIFIER.match(name):
        raise ValueError(f"not an identifier of the warehouse: {name!r}")
    return f'"{name}"'


def _literal(value: str) -> str:
    """A registry value as an SQL string literal (a plain word: letters, digits, ``_``)."""
    if not IDENTIFIER.match(value):
        raise ValueError(f"not a plain value of the registry: {value!r}")
    return f"'{value}'"


@dataclass(frozen=True)
class Column:
    """One column: its name, DuckDB type, whether it may be null, and what it holds."""

    name: str
    type: str
    not_null: bool = False
    doc: str = ""

    def __post_init__(self) -> None:
        _quoted(self.name)
        if self.type not in POLARS_TYPES:
            raise ValueError(f"column {self.name}: unknown type {self.type!r}")


@dataclass(frozen=True)
class Table:
    """A warehouse table and the statements that restate it."""

    name: str
    doc: str
    columns: tuple[Column, ...]
    #: columns a write replaces a slice by (``()``: the whole table)
    partition: tuple[str, ...] = ()
    primary_key: tuple[str, ...] = ()
    #: ``sql/write/<delete>.delete.sql`` when the slice is not an equality on ``partition``
    delete: str | None = None
    #: ``ORDER BY`` of the table's export (``()``: none, the table is not exported in order)
    export: tuple[str, ...] = ()
    #: columns that are never published (a director's note, membership numbers): kept in the
    #: warehouse, left out of every export (:meth:`export_sql` with ``public``)
    private: tuple[str, ...] = ()
    #: the director audit's (who ruled what, each director's rates: the audit report alone
    #: shows them; the public transparency report pseudonymises directors): ``audit_table``, a
    #: table never exported; ``audit``, columns left out of the public exports (a ruling's
    #: director — an event's director, shown on its pages, is not the audit's);
    #: ``audit_rows``, ``(column, value)``: the rows where ``column`` is ``value`` are left out
    #: (a mart's slice by director)
    audit_table: bool = False
    audit: tuple[str, ...] = ()
    audit_rows: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _quoted(self.name)
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: a column is declared twice")
        for key in (
            *self.partition,
            *self.primary_key,
            *self.export,
            *self.private,
            *self.audit,
            *self.audit_rows[:1],
        ):
            if key not in names:
                raise ValueError(f"table {self.name}: no column {key!r}")
        if self.audit_rows and len(self.audit_rows) != 2:
            raise ValueError(f"table {self.name}: audit_rows is [column, value]")

    @property
    def names(self) -> list[str]:
        """The column names, in order."""
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column:
        """The column ``name``."""
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(f"table {self.name} has no column {name!r}")

    def ddl(self) -> str:
        """``CREATE TABLE IF NOT EXISTS`` of the table."""
        lines = [
            f"    {_quoted(c.name)} {c.type}{' NOT NULL' if c.not_null else ''}"
            for c in self.columns
        ]
        if self.primary_key:
            lines.append(f"    PRIMARY KEY ({', '.join(map(_quoted, self.primary_key))})")
        return f"CREATE TABLE IF NOT EXISTS {_quoted(self.name)} (\n" + ",\n".join(lines) + "\n);"

    def drop_sql(self) -> str:
        """``DROP TABLE IF EXISTS`` of the table."""
        return f"DROP TABLE IF EXISTS {_quoted(self.name)};"

    def insert_sql(self, view: str = "incoming") -> str:
        """Copy the registered frame ``view`` into the table by column name."""
        return f"INSERT INTO {_quoted(self.name)} BY NAME SELECT * FROM {_quoted(view)};"

    def delete_sql(self, params: Mapping[str, Any] | None = None) -> str:
        """``DELETE`` of the slice chosen by ``params``: ``col = $col`` for the partition
        columns given (``col IN (...)`` for a list of values), the whole table when it has no
        partition.

        The partition columns go from the coarsest (``stage``, then ``session_date``): a write
        names the first one or more of them. Naming none of a partitioned table's, or a finer
        one without the coarser, is an error, never a wider delete."""
        if not self.partition:
            return f"DELETE FROM {_quoted(self.name)};"
        given = [k for k in self.partition if params and k in params]
        if not given or given != list(self.partition[: len(given)]):
            raise ValueError(
                f"a write to {self.name} must name its slice by {', '.join(self.partition)} "
                f"(from the first), not {', '.join(given) or 'nothing'}"
            )
        terms = []
        for k in given:
            if isinstance(params[k], list | tuple):  # type: ignore[index]
                terms.append(f"{_quoted(k)} IN (SELECT UNNEST(${k}::{self.column(k).type}[]))")
            else:
                terms.append(f"{_quoted(k)} = ${k}")
        return f"DELETE FROM {_quoted(self.name)} WHERE {' AND '.join(terms)};"

    @property
    def public_names(self) -> list[str]:
        """The column names that may be published (every one but the :attr:`private` and the
        :attr:`audit` ones)."""
        return [c for c in self.names if c not in self.private and c not in self.audit]

    def export_sql(
        self, public: bool = False, but_dates: bool = False, of_dates: bool = False
    ) -> str:
        """Every row of the table, in its export order, then by every other column: the
        order is total, so an export does not depend on the order rows were written in (an
        incremental run and a run from scratch write the same files). ``public``: only the
        columns and rows that may be published (the :attr:`private` and :attr:`audit` columns
        and the :attr:`audit_rows` left out); an :attr:`audit_table` has none. ``but_dates``:
        not the rows of the session dates bound as ``$dates``; ``of_dates``: only those rows,
        and the rows without a date when ``$undated`` is bound true."""
        if but_dates and of_dates:
            raise ValueError("an export is of some dates or of all but some, not both")
        if public and self.audit_table:
            raise ValueError(f"table {self.name} is the director audit's: it is never exported")
        hidden = public and (self.private or self.audit)
        cols = ", ".join(map(_quoted, self.public_names)) if hidden else "*"
        terms = []
        if public and self.audit_rows:
            column, value = self.audit_rows
            terms.append(f"{_quoted(column)} IS DISTINCT FROM {_literal(value)}")
        if but_dates:
            terms.append(f"{_quoted('session_date')} NOT IN (SELECT UNNEST($dates::DATE[]))")
        if of_dates:
            day = _quoted("session_date")
            terms.append(
                f"({day} IN (SELECT UNNEST($dates::DATE[])) OR ($undated AND {day} IS NULL))"
            )
        where = f" WHERE {' AND '.join(terms)}" if terms else ""
        if not self.export:
            return f"SELECT {cols} FROM {_quoted(self.name)}{where};"
        rest = [c for c in self.names if c not in self.export]
        order = ", ".join(map(_quoted, [*self.export, *rest]))
        return f"SELECT {cols} FROM {_quoted(self.name)}{where} ORDER BY {order};"

    def scan_sql(self) -> str:
        """Every row of the table in the order it holds them (the order they were inserted
        in: DuckDB keeps it for a scan), not the export order."""
        return f"SELECT * FROM {_quoted(self.name)};"

    def heads_sql(self, view: str = "incoming") -> str:
        """For each file of ``$files`` that a table of the read cache (partitioned by
        ``file``, each row with its ``ordinal`` in its file) holds rows of: how many
        (``rows``), and how many of them the registered frame ``view`` holds at the same
        ordinal with every column equal, nulls equal to nulls (``same``). The file's rows are
        the first rows of the frame's when both are equal (:mod:`pipelines.read_cache`)."""
        if tuple(self.partition[:1]) != ("file",) or "ordinal" not in self.names:
            raise ValueError(f"table {self.name} is not kept by file and ordinal")
        same = " AND ".join(f"o.{c} IS NOT DISTINCT FROM i.{c}" for c in map(_quoted, self.names))
        return (
            f"SELECT o.file, count(*) AS rows, count(i.ordinal) FILTER (WHERE {same}) AS same"
            f" FROM {_quoted(self.name)} AS o LEFT JOIN {_quoted(view)} AS i"
            " ON o.file = i.file AND o.ordinal = i.ordinal"
            " WHERE o.file IN (SELECT UNNEST($files::VARCHAR[])) GROUP BY o.file;"
        )

    def date_counts_sql(self, public: bool = False) -> str:
        """``session_date`` (text, ``NULL`` for rows without one) and ``rows``: how many rows
        of the table (``public``: of those :meth:`export_sql` publishes) each date holds."""
        where = ""
        if public and self.audit_rows:
            column, value = self.audit_rows
            where = f" WHERE {_quoted(column)} IS DISTINCT FROM {_literal(value)}"
        day = _quoted("session_date")
        return (
            f"SELECT CAST({day} AS VARCHAR) AS session_date, count(*) AS rows"
            f" FROM {_quoted(self.name)}{where} GROUP BY 1 ORDER BY 1;"
        )

    def date_digests_sql(self, public: bool = False) -> str:
        """:meth:`date_counts_sql` with ``digest``: the sum of each row's DuckDB ``hash`` of
        the columns :meth:`export_sql` exports, as text — the same rows give the same digest
        whatever order they were written in, and another row, another digest (but with the
        odds of two 64-bit hashes meeting). DuckDB only: what a date's export holds is
        known without reading its rows out."""
        where = ""
        if public and self.audit_rows:
            column, value = self.audit_rows
            where = f" WHERE {_quoted(column)} IS DISTINCT FROM {_literal(value)}"
        names = self.public_names if public else self.names
        cols = ", ".join(map(_quoted, names))
        day = _quoted("session_date")
        return (
            f"SELECT CAST({day} AS VARCHAR) AS session_date, count(*) AS rows,"
            f" CAST(sum(CAST(hash({cols}) AS HUGEINT)) AS VARCHAR) AS digest"
            f" FROM {_quoted(self.name)}{where} GROUP BY 1 ORDER BY 1;"
        )

    def polars_schema(self, drop: Sequence[str] = ()) -> dict[str, pl.DataType]:
        """The schema of the engine's frames for this table (``drop``: columns it adds later)."""
        return {c.name: POLARS_TYPES[c.type] for c in self.columns if c.name not in drop}


#: The warehouse's own bookkeeping: the fingerprint of the definitions it was built with.
META = Table(
    "warehouse_meta",
    "The fingerprint of the table definitions this warehouse was built with.",
    (Column("schema_version", VARCHAR, NOT_NULL),),
)

#: Where the registry's tables are declared.
TABLES_FILE = Path(__file__).with_name("tables.toml")


def _column(spec: Sequence[str], where: str) -> Column:
    """A column from its declaration ``[name, "TYPE[ NOT NULL]", doc]`` (the doc optional)."""
    if not 2 <= len(spec) <= 3:
        raise ValueError(f"{where}: a column is [name, type, doc], not {spec!r}")
    name, kind, *doc = spec
    base = kind.removesuffix(" NOT NULL")
    return Column(name, base, base != kind, doc[0] if doc else "")


def _table(spec: dict[str, Any], groups: Mapping[str, tuple[Column, ...]]) -> Table:
    """A table from its ``[[table]]`` entry: the columns of its ``include`` group first (with
    the docs named in ``docs`` replaced), then its own ``columns``."""
    spec = dict(spec)
    name = spec.pop("name")
    where = f"{TABLES_FILE.name}: table {name}"
    head: tuple[Column, ...] = ()
    if "include" in spec:
        head = groups[spec.pop("include")]
    docs = spec.pop("docs", {})
    if set(docs) - {c.name for c in head}:
        raise ValueError(f"{where}: docs for columns it does not include: {sorted(docs)}")
    head = tuple(
        Column(c.name, c.type, c.not_null, docs[c.name]) if c.name in docs else c for c in head
    )
    own = tuple(_column(c, where) for c in spec.pop("columns", ()))
    keys = {
        k: tuple(spec.pop(k))
        for k in ("partition", "primary_key", "export", "private", "audit", "audit_rows")
        if k in spec
    }
    doc, delete = spec.pop("doc"), spec.pop("delete", None)
    audit_table = spec.pop("audit_table", False)
    if spec:
        raise ValueError(f"{where}: unknown keys {sorted(spec)}")
    return Table(name, doc, (*head, *own), delete=delete, audit_table=audit_table, **keys)


def load(path: Path = TABLES_FILE) -> tuple[Table, ...]:
    """Every table declared in ``path``, in its order, each checked as it is built."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    groups = {
        name: tuple(_column(c, f"{path.name}: group {name}") for c in columns)
        for name, columns in data.get("groups", {}).items()
    }
    return tuple(_table(t, groups) for t in data["table"])


#: Every table, in dependency order (created in this order, dropped in the reverse).
TABLES: tuple[Table, ...] = load()

#: The tables by name.
BY_NAME: dict[str, Table] = {t.name: t for t in TABLES}


def table(name: str) -> Table:
    """The table ``name`` of the registry."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no warehouse table {name!r}") from None


def polars_schema(name: str, drop: Sequence[str] = ()) -> dict[str, pl.DataType]:
    """The Polars schema of the engine's frames for the table ``name``."""
    return table(name).polars_schema(drop)


#: Every column any table declares private (never published), by name.
PRIVATE_COLUMNS: frozenset[str] = frozenset(c for t in TABLES for c in t.private)


def is_private(column: str) -> bool:
    """Whether a column of a frame on its way to publication holds what is never published:
    a private column of the registry under its own name or an alias that ends with it
    (``ruling_note``, ``appeal_note``, ``a_note``); ``public_note`` and its aliases
    (``ruling_public_note``) are what may be published."""
    for p in PRIVATE_COLUMNS:
        if column == p or column.endswith("_" + p):
            if column.endswith("public_" + p):
                continue
            return True
    return False


def private_columns(columns: Sequence[str]) -> list[str]:
    """The columns of ``columns`` that :func:`is_private` refuses."""
    return [c for c in columns if is_private(c)]


def schema_version() -> str:
    """A fingerprint of every table definition of the registry (changes when one does)."""
    h = hashlib.sha256()
    for t in TABLES:
        h.update(t.ddl().encode())
    return h.hexdigest()[:16]


def sync_schema(conn: Any, create: Callable[[Table], object]) -> None:
    """Bring a warehouse's tables to the registry's definitions, on either backend.

    The warehouse is derived entirely from the inbox, so when the definitions change (a new
    version of Traveller) the old tables are dropped and created anew rather than migrated;
    the next run rebuilds them (``traveller run`` re-reads every date). ``conn`` runs SQL with
    named parameters (``execute(sql, params)``); ``create`` creates one table if it is absent
    (each backend's own DDL).
    """
    conn.execute(META.ddl())
    version = schema_version()
    row = conn.execute("SELECT schema_version FROM warehouse_meta").fetchone()
    if row is not None and row[0] != version:
        for t in reversed(TABLES):
            conn.execute(t.drop_sql())
        conn.execute(META.delete_sql())
        row = None
    for t in TABLES:
        create(t)
    if row is None:
        conn.execute("INSERT INTO warehouse_meta VALUES ($v)", {"v": version})
