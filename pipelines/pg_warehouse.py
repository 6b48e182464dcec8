"""The PostgreSQL warehouse: the same tables and the same SQL models as the DuckDB file.

``TRAVELLER_WAREHOUSE=postgresql://user:pw@host:5432/db`` (or ``postgres://``) selects it.
Nothing here is a second copy of the SQL: the tables' DDL and slices come from the registry
(:mod:`pipelines.tables`) and the models from ``sql/``, all written in DuckDB's dialect and
translated to PostgreSQL's once per statement text by `sqlglot <https://sqlglot.com>`_ (a
maintained SQL transpiler), cached. Bound parameters stay bound: ``$name`` becomes psycopg's
``%(name)s``; no value is ever formatted into SQL text.

DuckDB constructs that sqlglot does not write for PostgreSQL are rewritten on the parsed
statement, with the registry's columns: ``*`` and ``alias.*`` over a table become its columns
(``EXCLUDE (...)`` leaving some out, ``REPLACE (expr AS col)`` replacing one), ``GROUP BY ALL``
the select list's non-aggregate expressions, ``ORDER BY ALL`` every column in order, ``ANTI
JOIN`` / ``SEMI JOIN`` ``[NOT] EXISTS``, ``round(double, n)`` a round of the NUMERIC, and a
subquery in ``FROM`` gets the alias PostgreSQL requires. DuckDB's ``rowid`` (insertion order)
is a hidden identity column of each PostgreSQL table, and text columns collate ``"C"`` (byte
order, as DuckDB's). A read model that still cannot be translated (``UNPIVOT``) is named in
:data:`IN_DUCKDB` and runs in an in-memory DuckDB over a snapshot of the tables it reads
(one ``REPEATABLE READ`` transaction): same SQL, same result, at the price of reading those
tables whole — they are the small audit marts.

Writes: every :class:`~pipelines.writes.Write` of one call is one PostgreSQL transaction
(the slice deleted, the frame copied in with ``COPY``), so a writer that is killed leaves
nothing half-written and every reader sees the previous committed state until the commit
(PostgreSQL's MVCC; readers never block the writer nor the writer them). Concurrent runs of
different session dates write disjoint slices; the event standings, which read the other
dates of the event, are serialised by the Dagster pool ``event_standings`` and, in the write
itself, by a transaction-level advisory lock per event (:func:`write`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

import polars as pl

from pipelines import tables as registry

if TYPE_CHECKING:
    import psycopg

    from pipelines.writes import Write

#: A PostgreSQL URL, and what :class:`pathlib.Path` makes of one (``postgresql:/u@h/db``).
_PG_URL = re.compile(r"^(postgresql|postgres)(\+[a-z0-9]+)?:/+", re.I)

#: Read models run in DuckDB over a snapshot of the tables they read: statements sqlglot
#: cannot write for PostgreSQL (``UNPIVOT``), each with the reason.
IN_DUCKDB: dict[str, str] = {
    "checks/audit_rates_in_range": "UNPIVOT of the director_audit mart's rate columns",
}

#: Registry types in PostgreSQL (the DDL is otherwise translated by sqlglot).
_PG_LOCK_SCHEMA = 7_450_001  # advisory lock key: one schema check at a time


def is_url(value: object) -> bool:
    """Whether ``value`` names a PostgreSQL warehouse (a URL, or a Path made of one)."""
    return bool(_PG_URL.match(str(value)))


def normalise_url(value: object) -> str:
    """A libpq URL: ``postgresql://…`` whatever driver suffix or Path-collapsed slashes the
    value was given with (``postgresql+psycopg2://``, ``postgresql:/u@h/db``)."""
    text = str(value)
    return _PG_URL.sub("postgresql://", text, count=1)


# ------------------------------------------------------------------------------ translation


def _parameter_names(text: str) -> list[str]:
    return re.findall(r"\$([A-Za-z_]\w*)", text)


@cache
def _columns_of() -> dict[str, list[str]]:
    return {t.name: t.names for t in (registry.META, *registry.TABLES)}


def _expand_stars(tree: Any) -> None:
    """``*`` and ``a.*`` over a warehouse table → its columns (the registry's), so that the
    PostgreSQL tables' hidden ``rowid`` is never selected; DuckDB's ``* EXCLUDE (x)`` leaves
    out x and ``* REPLACE (expr AS x)`` puts expr in x's place."""
    from sqlglot import exp

    for select in list(tree.find_all(exp.Select)):
        source = select.args.get("from_") or select.args.get("from")
        if source is None:
            continue
        sources = [source.this, *(j.this for j in select.args.get("joins") or [])]
        aliases = {
            t.alias_or_name: t.name
            for t in sources
            if isinstance(t, exp.Table) and t.name in _columns_of()
        }
        new: list[exp.Expression] = []
        changed = False
        for e in select.expressions:
            if isinstance(e, exp.Star):
                star, qualifier = e, None
                only = sources[0] if len(sources) == 1 else None
                table = aliases.get(only.alias_or_name) if isinstance(only, exp.Table) else None
            elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
                star, qualifier = e.this, e.table
                table = aliases.get(qualifier)
            else:
                new.append(e)
                continue
            if table is None:
                if star.args.get("except_") or star.args.get("replace"):
                    raise NotImplementedError("EXCLUDE / REPLACE on a star that is not a table's")
                new.append(e)
                continue
            dropped = {c.name for c in star.args.get("except_") or []}
            replaced = {r.alias: r for r in star.args.get("replace") or []}
            for c in _columns_of()[table]:
                if c in dropped:
                    continue
                new.append(
                    replaced[c].copy()
                    if c in replaced
                    else exp.column(c, table=qualifier, quoted=True)
                )
            changed = True
        if changed:
            select.set("expressions", new)


def _expand_group_by_all(tree: Any) -> None:
    """``GROUP BY ALL`` → ``GROUP BY`` the select list's expressions without an aggregate."""
    from sqlglot import exp

    for select in tree.find_all(exp.Select):
        group = select.args.get("group")
        if group is None or not group.args.get("all"):
            continue
        keys = []
        for e in select.expressions:
            inner = e.this if isinstance(e, exp.Alias) else e
            if not inner.find(exp.AggFunc):
                keys.append(inner.copy())
        select.set("group", exp.Group(expressions=keys))


def _anti_semi_joins(tree: Any) -> None:
    """``a ANTI JOIN b USING (k)`` / ``SEMI JOIN`` → ``WHERE [NOT] EXISTS (SELECT 1 FROM b
    WHERE b.k = a.k)`` (the rows of ``a`` with no / some match in ``b``)."""
    from sqlglot import exp

    for select in list(tree.find_all(exp.Select)):
        joins = select.args.get("joins") or []
        kept = []
        for j in joins:
            kind = (j.args.get("kind") or "").upper()
            if kind not in {"ANTI", "SEMI"}:
                kept.append(j)
                continue
            source = select.args.get("from_") or select.args.get("from")
            left = source.this.alias_or_name
            right = j.this.alias_or_name
            if j.args.get("using"):
                cond = exp.and_(
                    *(
                        exp.column(i.name, table=right).eq(exp.column(i.name, table=left))
                        for i in j.args["using"]
                    )
                )
            else:
                cond = j.args["on"]
            sub = exp.select("1").from_(j.this.copy()).where(cond)
            test = exp.Exists(this=sub)
            select.where(exp.Not(this=test) if kind == "ANTI" else test, copy=False)
        select.set("joins", kept or None)


def _alias_subqueries(tree: Any) -> None:
    """A subquery in ``FROM`` or a join without an alias gets one (PostgreSQL requires it)."""
    from sqlglot import exp

    for n, sub in enumerate(list(tree.find_all(exp.Subquery))):
        if not sub.alias and isinstance(sub.parent, exp.From | exp.Join):
            sub.set("alias", exp.TableAlias(this=exp.to_identifier(f"_sub{n}")))


def _round_doubles(tree: Any) -> None:
    """``round(x, n)``: PostgreSQL rounds to n places only a NUMERIC; DuckDB's rounds the
    double (half away from zero, as NUMERIC's does) and gives a double."""
    from sqlglot import exp

    for r in list(tree.find_all(exp.Round)):
        if r.args.get("decimals") is None:
            continue
        inner = exp.Round(
            this=exp.cast(r.this.copy(), "NUMERIC"), decimals=r.args["decimals"].copy()
        )
        r.replace(exp.cast(inner, "DOUBLE"))


def _order_by_all(tree: Any) -> None:
    """``ORDER BY ALL`` → ``ORDER BY 1, 2, …`` (every column of the select list, in order)."""
    from sqlglot import exp

    for select in list(tree.find_all(exp.Select)):
        order = select.args.get("order")
        if order is None or len(order.expressions) != 1:
            continue
        o = order.expressions[0]
        if isinstance(o.this, exp.Var) and o.this.name.upper() == "ALL":
            keys = [
                exp.Ordered(this=exp.Literal.number(i), desc=o.args.get("desc"))
                for i in range(1, len(select.expressions) + 1)
            ]
            select.set("order", exp.Order(expressions=keys))


@cache
def translate(text: str) -> str:
    """The PostgreSQL text of a DuckDB statement, its ``$name`` parameters as ``%(name)s``."""
    import sqlglot

    marked = re.sub(r"\$([A-Za-z_]\w*)", r":\1", text)
    trees = [t for t in sqlglot.parse(marked, read="duckdb") if t is not None]
    if len(trees) != 1:
        raise ValueError(f"one statement expected, found {len(trees)}")
    tree = trees[0]
    _expand_stars(tree)
    _expand_group_by_all(tree)
    _anti_semi_joins(tree)
    _alias_subqueries(tree)
    _round_doubles(tree)
    _order_by_all(tree)
    out = tree.sql(dialect="postgres", unsupported_level=sqlglot.ErrorLevel.RAISE)
    # psycopg reads %(name)s; every other % is a literal one
    out = out.replace("%", "%%")
    return re.sub(r"%%\((\w+)\)s", r"%(\1)s", out)


def _params(text: str, params: dict[str, Any] | None) -> dict[str, Any]:
    names = set(_parameter_names(text))
    return {k: v for k, v in (params or {}).items() if k in names}


# ------------------------------------------------------------------------------- the types


@cache
def _tinyint_names() -> frozenset[str]:
    return frozenset(
        c.name for t in registry.TABLES for c in t.columns if c.type == registry.TINYINT
    )


def _polars_type(oid: int) -> pl.DataType | None:
    from psycopg.postgres import types

    info = types.get(oid)
    # an array type is found under its element's entry: its name gets the "_" of pg_type
    name = ("_" if info and oid == info.array_oid else "") + info.name if info else ""
    return {
        "bool": pl.Boolean(),
        "int2": pl.Int16(),
        "int4": pl.Int32(),
        "int8": pl.Int64(),
        "float4": pl.Float32(),
        "float8": pl.Float64(),
        "text": pl.Utf8(),
        "varchar": pl.Utf8(),
        "bpchar": pl.Utf8(),
        "date": pl.Date(),
        "timestamp": pl.Datetime("us"),
        "_date": pl.List(pl.Date()),
        "_text": pl.List(pl.Utf8()),
        "_varchar": pl.List(pl.Utf8()),
        "_int4": pl.List(pl.Int32()),
        "_int8": pl.List(pl.Int64()),
    }.get(name)


def _frame(cur: Any) -> pl.DataFrame:
    """The rows of a psycopg cursor as the frame DuckDB's ``.pl()`` gives for the same query:
    SMALLINT read back as Int8 where the registry declares TINYINT, a NUMERIC (PostgreSQL's
    sum of BIGINTs) as Int64 when whole, else Float64."""
    if cur.description is None:
        return pl.DataFrame()
    names = [d.name for d in cur.description]
    rows = cur.fetchall()
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    series = []
    for d, name, values in zip(cur.description, names, columns, strict=True):
        dtype = _polars_type(d.type_code)
        if dtype is None:  # numeric, unknown: Python values decide
            if any(isinstance(v, Decimal) for v in values):
                whole = all(v is None or v == v.to_integral_value() for v in values)
                values = [None if v is None else (int(v) if whole else float(v)) for v in values]
                dtype = pl.Int64() if whole else pl.Float64()
            s = pl.Series(name, list(values), dtype=dtype, strict=False)
        else:
            s = pl.Series(name, list(values), dtype=dtype)
        if dtype == pl.Int16() and name in _tinyint_names():
            s = s.cast(pl.Int8)
        series.append(s)
    return pl.DataFrame(series)


# ---------------------------------------------------------------------------- connections


class PgConnection:
    """A warehouse connection (psycopg 3, autocommit: every read sees the last commit; a
    write is one explicit transaction). ``execute`` takes DuckDB text and ``$name``
    parameters, as :class:`duckdb.DuckDBPyConnection` does."""

    def __init__(self, raw: psycopg.Connection) -> None:
        self.raw = raw

    def execute(self, text: str, params: dict[str, Any] | None = None) -> Any:
        """Run one DuckDB-dialect statement; the cursor (``fetchall``, ``fetchone``)."""
        return self.raw.execute(translate(text), _params(text, params))

    def frame(self, text: str, params: dict[str, Any] | None = None) -> pl.DataFrame:
        """Run a read statement; the result as a Polars frame."""
        with self.raw.cursor() as cur:
            cur.execute(translate(text), _params(text, params))
            return _frame(cur)

    def close(self) -> None:
        """Close the connection."""
        self.raw.close()


@contextmanager
def connect(url: str, read_only: bool = False) -> Iterator[PgConnection]:
    """A connection to the warehouse at ``url`` (schema created or rebuilt when writing)."""
    import psycopg

    # client-side binding (psycopg's ClientCursor quotes each value as a literal of its type):
    # PostgreSQL cannot infer the type of a server-side parameter that is only tested for
    # NULL (``$date_from IS NULL OR …``), which DuckDB's models do
    raw = psycopg.connect(normalise_url(url), autocommit=True, cursor_factory=psycopg.ClientCursor)
    conn = PgConnection(raw)
    try:
        if read_only:
            raw.execute("SET default_transaction_read_only = on")
        else:
            ensure_schema(conn)
        yield conn
    finally:
        conn.close()


schema_version = registry.schema_version

_schema_ok: set[str] = set()


def _ddl(table: registry.Table) -> str:
    """The table's DDL in PostgreSQL; text columns compare byte by byte (``COLLATE "C"``),
    as DuckDB's do, so that every ``ORDER BY`` orders as in the DuckDB warehouse whatever the
    server's default locale."""
    return re.sub(
        r'("\w+" TEXT)(?!\[)', r'\1 COLLATE "C"', translate(table.ddl()).replace("%%", "%")
    )


def ensure_schema(conn: PgConnection) -> None:
    """Create the tables that do not exist, or drop and recreate them all when the registry
    changed (the warehouse is derived from the inbox, so it is rebuilt, not migrated). One
    process at a time (an advisory lock): concurrent runs starting together do not race."""
    dsn = conn.raw.info.dsn
    if dsn in _schema_ok:
        return

    def create(table: registry.Table) -> None:
        # a table that exists with its rowid is left alone, without a statement that locks
        # it: an ALTER TABLE, even one with nothing to do, waits for every reader of the
        # table (a dashboard's long query) and makes every later reader wait behind it
        exists = conn.raw.execute(
            "SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass(%s) "
            "AND attname = 'rowid' AND NOT attisdropped",
            (f'"{table.name}"',),
        ).fetchone()
        if exists:
            return
        conn.raw.execute(_ddl(table))
        conn.raw.execute(
            f'ALTER TABLE "{table.name}" ADD COLUMN IF NOT EXISTS '
            '"rowid" BIGINT GENERATED ALWAYS AS IDENTITY'
        )

    with conn.raw.transaction():
        conn.raw.execute("SELECT pg_advisory_xact_lock(%s)", (_PG_LOCK_SCHEMA,))
        row = conn.raw.execute(
            "SELECT schema_version FROM warehouse_meta"
            if conn.raw.execute("SELECT to_regclass('warehouse_meta')").fetchone()[0]
            else "SELECT NULL"
        ).fetchone()
        if row and row[0] is not None and row[0] != schema_version():
            _drop_views(conn, keep=())  # the tables they read are about to be dropped
        registry.sync_schema(conn, create)
        ensure_views(conn)
    _schema_ok.add(dsn)


# ------------------------------------------------------------------------------ dashboards

#: The schemas of the dashboards' views: ``dashboards`` for the federation's public
#: dashboards, ``dashboards_audit`` for the audit (directors named) — one view per model
#: ``sql/<schema>/<view>.sql``. A role reading a schema's views reads nothing else: a view
#: reads its tables with its owner's rights (the writer's), so no table is granted to it.
VIEW_SCHEMAS = ("dashboards", "dashboards_audit")

#: How a view made by Traveller is marked (its comment, followed by a digest of its text).
_VIEW_MARK = "traveller view "


def views() -> list[tuple[str, str, str]]:
    """``(schema, view, PostgreSQL SELECT)`` of every dashboards' view, from its model in
    ``sql/`` (DuckDB's dialect, translated as every model is)."""
    from pipelines.sql_files import sql, sql_dir

    root = sql_dir()
    return [
        (schema, p.stem, translate(sql(f"{schema}/{p.stem}")).replace("%%", "%"))
        for schema in VIEW_SCHEMAS
        for p in sorted((root / schema).glob("*.sql"))
    ]


def _drop_views(conn: PgConnection, keep: Sequence[tuple[str, str]]) -> None:
    """Drop the views Traveller made in :data:`VIEW_SCHEMAS`, except ``keep``."""
    made = conn.raw.execute(
        "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind = 'v' AND n.nspname = ANY(%s) "
        "AND coalesce(obj_description(c.oid, 'pg_class'), '') LIKE %s",
        (list(VIEW_SCHEMAS), _VIEW_MARK + "%"),
    ).fetchall()
    for schema, name in made:
        if (schema, name) not in keep:
            conn.raw.execute(f'DROP VIEW IF EXISTS "{schema}"."{name}"')


def ensure_views(conn: PgConnection) -> None:
    """Create the dashboards' views that are missing or whose text changed (the schemas
    too, when the writer may: a database administrator may have made them, owned by the
    writer, as ``docs/deploy.md`` shows), and drop those no model makes any more. A view
    that is as it should be is not touched (replacing it would wait for its readers). Its
    readers' grants come from the schema's default privileges (``docs/deploy.md``)."""
    import hashlib

    wanted = views()
    _drop_views(conn, keep=[(s, v) for s, v, _ in wanted])
    for schema in VIEW_SCHEMAS:
        if conn.raw.execute("SELECT to_regnamespace(%s)", (schema,)).fetchone()[0] is None:
            conn.raw.execute(f'CREATE SCHEMA "{schema}"')
    for schema, name, body in wanted:
        mark = _VIEW_MARK + hashlib.sha256(body.encode()).hexdigest()[:16]
        have = conn.raw.execute(
            "SELECT obj_description(to_regclass(%s), 'pg_class')", (f'"{schema}"."{name}"',)
        ).fetchone()[0]
        if have == mark:
            continue
        conn.raw.execute(f'DROP VIEW IF EXISTS "{schema}"."{name}"')
        conn.raw.execute(f'CREATE VIEW "{schema}"."{name}" AS {body}')
        conn.raw.execute(f'COMMENT ON VIEW "{schema}"."{name}" IS \'{mark}\'')


# ---------------------------------------------------------------------------- reads, writes


def _tables_read(text: str) -> list[str]:
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(re.sub(r"\$([A-Za-z_]\w*)", r":\1", text), read="duckdb")
    ctes = {c.alias for c in tree.find_all(exp.CTE)}
    found = {t.name for t in tree.find_all(exp.Table)} - ctes
    return sorted(n for n in found if n in _columns_of())


def query(conn: PgConnection, name: str, text: str, params: dict[str, Any] | None) -> pl.DataFrame:
    """Run the model ``name`` (its DuckDB ``text``) with bound ``params``."""
    if name in IN_DUCKDB:
        return _in_duckdb(conn, text, params)
    return conn.frame(text, params)


def _in_duckdb(conn: PgConnection, text: str, params: dict[str, Any] | None) -> pl.DataFrame:
    """Run DuckDB ``text`` in memory over one consistent snapshot of the tables it reads."""
    import duckdb

    from pipelines.writes import bound as _bound

    frames = {}
    with conn.raw.transaction():
        conn.raw.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        for t in _tables_read(text):
            frames[t] = conn.frame(registry.table(t).export_sql())
    mem = duckdb.connect()
    try:
        for t, f in frames.items():
            mem.execute(registry.table(t).ddl())
            if f.height:
                mem.register("incoming", f)
                mem.execute(registry.table(t).insert_sql())
                mem.unregister("incoming")
        return mem.sql(text, params=_bound(text, params)).pl()
    finally:
        mem.close()


def _copy_in(conn: PgConnection, table: registry.Table, frame: pl.DataFrame) -> None:
    cols = [c for c in frame.columns if c in table.names]
    missing = [c for c in frame.columns if c not in table.names]
    if missing:
        raise ValueError(f"{table.name} has no column {', '.join(missing)}")
    names = ", ".join(f'"{c}"' for c in cols)
    with conn.raw.cursor() as cur, cur.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as cp:
        for row in frame.select(cols).iter_rows():
            cp.write_row(row)


def _event_ids(w: Write) -> list[str]:
    p = w.params or {}
    ids = p.get("event_ids", p.get("event_id"))
    if ids is None:
        return []
    return sorted(ids) if isinstance(ids, list | tuple) else [ids]


def _lock_keys(writes: Sequence[Write]) -> list[str]:
    """The advisory locks a write takes: one per slice it replaces (a table and the values
    naming the slice; two runs reading the inbox at once rewrite the same reference tables
    and the same read-stage rejections: without it their deletes of the same rows, table
    after table, deadlock) and one per event whose standings it writes (two runs never
    interleave their writes of one event's standings). Slices of different session dates
    are different locks: those writes go on side by side."""
    import json

    keys = {
        f"slice:{w.table}:{json.dumps(w.params or {}, sort_keys=True, default=str)}" for w in writes
    }
    keys |= {f"standings:{e}" for w in writes if w.table == "standings" for e in _event_ids(w)}
    return sorted(keys)


def write(conn: PgConnection, writes: Sequence[Write], delete_text: Any) -> dict[str, int]:
    """Apply ``writes`` in one transaction: delete each slice, copy each frame in.

    First the transaction takes its advisory locks (:func:`_lock_keys`, all at the start, in
    one global order: two writers can wait for each other, never deadlock); they go with the
    commit or the rollback."""
    counts: dict[str, int] = {}
    with conn.raw.transaction():
        for key in _lock_keys(writes):
            conn.raw.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
        for w in writes:
            table = registry.table(w.table)
            text = delete_text(w, table)
            conn.execute(text, w.params)
            if w.frame.height:
                _copy_in(conn, table, w.frame)
            counts[w.table] = counts.get(w.table, 0) + w.frame.height
    return counts


# ------------------------------------------------------------------------------- run lock

#: Advisory lock key of the run lock (:func:`hold_runs`).
_PG_LOCK_RUNS = 7_450_002

#: The run locks this process holds: URL -> (the connection holding them, modes taken,
#: ``True`` for shared, in order).
_RUN_LOCKS: dict[str, tuple[Any, list[bool]]] = {}


def _lock_function(shared: bool, try_only: bool) -> str:
    return ("pg_try_advisory_lock" if try_only else "pg_advisory_lock") + (
        "_shared" if shared else ""
    )


def run_lock_holders(raw: Any) -> list[str]:
    """Who holds the run lock, apart from ``raw``'s own session: each holder's name (its
    ``application_name``) and whether it holds it alone."""
    rows = raw.execute(
        "SELECT a.application_name, a.pid, l.mode FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = %s "
        "AND l.objsubid = 1 AND l.pid <> pg_backend_pid() "
        "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        "ORDER BY a.pid",
        (_PG_LOCK_RUNS,),
    ).fetchall()
    return [
        f"{name or 'a session'} (server process {pid}"
        + (", alone)" if mode == "ExclusiveLock" else ")")
        for name, pid, mode in rows
    ]


def hold_runs(url: str, shared: bool, wait: float, holder: str) -> list[str] | None:
    """Take the warehouse's **run lock**: ``shared`` for a run of session dates (any number
    of them at once), exclusive for a run of the whole-warehouse steps (the audit, the
    reconciliation and the publication read every date: no run of dates may write while
    they run). A PostgreSQL session-level advisory lock, held by a connection of its own
    named ``holder`` until :func:`release_runs` — or until the process dies, when the server
    drops it. A waiting exclusive request goes before shared requests made after it, so a
    stream of date runs never starves the audit. Waits up to ``wait`` seconds (0: not at
    all); ``None`` once held, else who holds it (:func:`run_lock_holders`). Re-entrant
    within a process (same connection: a session never conflicts with itself)."""
    import os

    import psycopg

    url = normalise_url(url)
    raw, modes = _RUN_LOCKS.get(url) or (None, [])
    if raw is None:
        raw = psycopg.connect(
            url, autocommit=True, application_name=f"{holder} (process {os.getpid()})"[:63]
        )
    got = raw.execute(
        f"SELECT {_lock_function(shared, try_only=True)}(%s)", (_PG_LOCK_RUNS,)
    ).fetchone()[0]
    if not got and wait > 0:
        raw.execute("SELECT set_config('lock_timeout', %s, false)", (f"{int(wait * 1000)}ms",))
        try:
            raw.execute(f"SELECT {_lock_function(shared, try_only=False)}(%s)", (_PG_LOCK_RUNS,))
            got = True
        except psycopg.errors.LockNotAvailable:
            got = False
    if not got:
        who = run_lock_holders(raw)
        if not modes:
            raw.close()
        return who or ["another run"]
    modes.append(shared)
    _RUN_LOCKS[url] = (raw, modes)
    return None


def release_runs(url: str) -> None:
    """Give back the last hold of the run lock taken by :func:`hold_runs`; the last one
    closes its connection."""
    url = normalise_url(url)
    if url not in _RUN_LOCKS:
        return
    raw, modes = _RUN_LOCKS[url]
    shared = modes.pop()
    try:
        unlock = "pg_advisory_unlock_shared" if shared else "pg_advisory_unlock"
        raw.execute(f"SELECT {unlock}(%s)", (_PG_LOCK_RUNS,))
    finally:
        if not modes:
            del _RUN_LOCKS[url]
            raw.close()
