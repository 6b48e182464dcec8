"""The table registry (pipelines/tables.py) is the one description of the warehouse: a
warehouse built by a real run has exactly its tables, columns, types, nullability and keys,
and the Polars schemas the engine builds its frames with are the registry's."""

from __future__ import annotations

import duckdb
import polars as pl
import pytest

from pipelines import tables
from pipelines.tables import Column, Table, polars_schema
from pipelines.warehouse import Warehouse, Write, write


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> duckdb.DuckDBPyConnection:
    """A warehouse built by ``traveller run``'s runner from a generated inbox."""
    from pipelines.runner import run_inbox
    from pipelines.synth.inbox import generate_inbox

    tmp = tmp_path_factory.mktemp("registry")
    generate_inbox(tmp / "inbox", sessions=1, clubs=1, seed=5)
    run_inbox(tmp / "inbox", tmp / "w.duckdb")
    conn = duckdb.connect(str(tmp / "w.duckdb"), read_only=True)
    yield conn
    conn.close()


def test_the_warehouse_has_the_registry_tables(built):
    found = {r[0] for r in built.sql("SELECT table_name FROM information_schema.tables").fetchall()}
    assert found == {t.name for t in tables.TABLES} | {tables.META.name}


@pytest.mark.parametrize("table", [*tables.TABLES, tables.META], ids=lambda t: t.name)
def test_every_column_type_and_null_rule_agree(built, table: Table):
    rows = built.sql(
        "SELECT column_name, data_type, is_nullable = 'YES' FROM information_schema.columns "
        "WHERE table_name = $t ORDER BY ordinal_position",
        params={"t": table.name},
    ).fetchall()
    assert rows == [(c.name, c.type, not c.not_null) for c in table.columns]


@pytest.mark.parametrize("table", tables.TABLES, ids=lambda t: t.name)
def test_primary_keys_agree(built, table: Table):
    keys = built.sql(
        "SELECT constraint_column_names FROM duckdb_constraints() "
        "WHERE table_name = $t AND constraint_type = 'PRIMARY KEY'",
        params={"t": table.name},
    ).fetchall()
    assert [tuple(k[0]) for k in keys] == ([table.primary_key] if table.primary_key else [])


def test_the_engine_builds_its_frames_with_the_registry_schemas():
    from pipelines.inbox import FILES_SCHEMA
    from pipelines.scoring.events import EVENT_HOLD_COLUMNS, EVENTS_SCHEMA
    from pipelines.scoring.imp_standings import MATCH_SCHEMA
    from pipelines.scoring.rulings import APPEALS_SCHEMA, RULINGS_SCHEMA
    from pipelines.scoring.standings import STANDINGS_SCHEMA
    from pipelines.scoring.validate import VALIDATED_SCHEMA
    from pipelines.scoring.versions import ADJUSTMENTS_SCHEMA, CHANGES_SCHEMA

    assert FILES_SCHEMA == polars_schema("source_files")
    assert EVENTS_SCHEMA == polars_schema("events")
    assert MATCH_SCHEMA == polars_schema("matches")
    assert RULINGS_SCHEMA == polars_schema("rulings")
    assert APPEALS_SCHEMA == polars_schema("appeals")
    assert STANDINGS_SCHEMA == polars_schema("standings")
    assert VALIDATED_SCHEMA == polars_schema("validated_results")
    assert ADJUSTMENTS_SCHEMA == polars_schema("adjustments")
    assert CHANGES_SCHEMA == polars_schema("standings_changes")
    # in the table's order too (rulings are built from row tuples)
    assert list(RULINGS_SCHEMA) == tables.table("rulings").names
    assert list(EVENTS_SCHEMA) == tables.table("events").names
    # the readers' canonical frames are the text columns of the tables they fill
    from pipelines.formats import model

    assert model.RESULT_COLUMNS == tuple(tables.table("raw_results").names)
    assert model.CONTESTANT_COLUMNS == tuple(tables.table("contestants").names)
    assert model.SOURCE_STANDING_COLUMNS == tuple(tables.table("source_standings").names)
    assert model.WARNING_COLUMNS == tuple(tables.table("input_warnings").names)
    assert ("stage", "session_date", *model.REJECT_COLUMNS) == tuple(
        tables.table("rejected_inputs").names
    )
    assert EVENT_HOLD_COLUMNS == tuple(tables.table("event_holds").names)


def test_dates_and_times_are_text_in_the_engine_frames():
    assert polars_schema("rulings")["session_date"] == pl.Utf8
    assert polars_schema("rulings")["called_at"] == pl.Utf8
    assert polars_schema("source_files")["dates"] == pl.List(pl.Utf8)
    assert polars_schema("validated_results")["tricks"] == pl.Int8


def test_generic_statements():
    t = tables.table("scored_results")
    assert t.insert_sql() == 'INSERT INTO "scored_results" BY NAME SELECT * FROM "incoming";'
    assert t.drop_sql() == 'DROP TABLE IF EXISTS "scored_results";'
    assert (
        t.delete_sql({"session_date": "2026-11-02", "event_ids": ["x"]})
        == 'DELETE FROM "scored_results" WHERE "session_date" = $session_date;'
    )
    assert tables.table("events").delete_sql() == 'DELETE FROM "events";'
    assert (
        tables.table("matches").delete_sql({"event_id": ["a", "b"]})
        == 'DELETE FROM "matches" WHERE "event_id" IN (SELECT UNNEST($event_id::VARCHAR[]));'
    )
    assert (
        tables.table("rejected_inputs").delete_sql({"stage": "read"})
        == 'DELETE FROM "rejected_inputs" WHERE "stage" = $stage;'
    )


def test_a_partitioned_table_never_loses_more_than_its_slice():
    with pytest.raises(ValueError, match="must name its slice"):
        tables.table("scored_results").delete_sql({})
    # a date without the stage would delete every stage's rejections of the date
    with pytest.raises(ValueError, match="must name its slice"):
        tables.table("rejected_inputs").delete_sql({"session_date": "2026-11-02"})


def test_identifiers_come_only_from_the_registry():
    with pytest.raises(ValueError, match="not an identifier"):
        Column('x"; DROP TABLE events; --', tables.VARCHAR)
    with pytest.raises(ValueError, match="unknown type"):
        Column("x", "TEXT; DROP TABLE events")
    with pytest.raises(ValueError, match="no column"):
        Table("t", "", (Column("a", tables.VARCHAR),), partition=("b",))
    with pytest.raises(KeyError):
        tables.table("no_such_table")


def test_a_write_replaces_its_slice_only(tmp_path):
    rows = {"stage": ["validate"], "session_date": ["2026-11-02"], "file": ["f"]}
    frame = pl.DataFrame(
        {**rows, "location": ["line 2"], "field": ["x"], "reason": ["r"], "raw": [None]},
        schema_overrides={"raw": pl.Utf8},
    )
    read = frame.with_columns(
        pl.lit("read").alias("stage"), pl.lit(None, pl.Utf8).alias("session_date")
    )
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        write(conn, [Write("rejected_inputs", read, {"stage": "read"})])
        write(
            conn,
            [Write("rejected_inputs", frame, {"stage": "validate", "session_date": "2026-11-02"})],
        )
        write(
            conn,
            [Write("rejected_inputs", frame, {"stage": "validate", "session_date": "2026-11-02"})],
        )
        stages = conn.sql("SELECT stage FROM rejected_inputs ORDER BY stage").fetchall()
    assert stages == [("read",), ("validate",)]


def test_every_sql_model_left_is_used():
    """sql/ keeps only models the code runs: each is named by a string of pipelines/ or
    assets/ (``"read/events"``), or by its last part where the code builds the path
    (``f"publish/{name}"``, a write's ``delete="standings_of_date"``), or by a check declared in
    ``pipelines/checks.toml``."""
    import ast

    from pipelines.check_specs import load as load_checks
    from tests.conftest import ROOT

    strings: set[str] = set()
    for folder in ("pipelines", "assets"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    strings.add(node.value)
    # the checks are declared as data: the model each examines is named there
    strings |= {c.sql for c in load_checks()}
    unused = []
    for path in sorted((ROOT / "sql").rglob("*.sql")):
        model = path.relative_to(ROOT / "sql").with_suffix("").as_posix()
        last = model.split("/", 1)[1].removesuffix(".delete")
        if model not in strings and last not in strings:
            unused.append(model)
    assert unused == []


def test_a_declared_table_with_an_unknown_key_is_an_error(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('[[table]]\nname = "t"\ndoc = ""\ncolumns = [["a", "VARCHAR"]]\nkeys = 1\n')
    with pytest.raises(ValueError, match="unknown keys"):
        tables.load(path)
    path.write_text('[[table]]\nname = "t"\ndoc = ""\ncolumns = [["a", "TEXT NOT NULL"]]\n')
    with pytest.raises(ValueError, match="unknown type"):
        tables.load(path)
