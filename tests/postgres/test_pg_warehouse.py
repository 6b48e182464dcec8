"""The PostgreSQL warehouse: the registry's tables and sql/'s models, translated, give the
DuckDB warehouse's results; a partition write is one transaction."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import psycopg
import pytest

from pipelines import pg_warehouse
from pipelines.warehouse import Warehouse, Write, _sql_dir, write
from tests.postgres.conftest import NOW, assert_same_tables, run_sample


def _models() -> list[str]:
    root = _sql_dir()
    return sorted(str(p.relative_to(root))[: -len(".sql")] for p in root.rglob("*.sql"))


@pytest.mark.parametrize("name", _models())
def test_every_model_translates_or_runs_in_duckdb(name: str):
    from pipelines.warehouse import sql

    if name in pg_warehouse.IN_DUCKDB:
        assert pg_warehouse._tables_read(sql(name))
    else:
        text = pg_warehouse.translate(sql(name))
        assert "$" not in text.replace("$$", "")  # every parameter bound the psycopg way


def test_urls_select_postgres_and_paths_duckdb():
    url = "postgresql://scorer@db.example.org:5432/traveller"
    assert Warehouse(url).url == url
    assert Warehouse(Path(url)).url == url  # what a Path option makes of it
    assert Warehouse("postgresql+psycopg2://u@h/db").url == "postgresql://u@h/db"
    assert Warehouse("data/warehouse.duckdb").url is None


@pytest.mark.slow
def test_the_sample_gives_the_same_tables_in_both(
    pg_url: str, duckdb_sample: Path, tmp_path: Path, monkeypatch
):
    """The sample inbox, run embedded into a DuckDB file and into PostgreSQL: identical
    tables, row for row."""
    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    run_sample(pg_url, tmp_path / "published")
    assert_same_tables(duckdb_sample, pg_url)
    # the event standings add up from their sessions, in both; a version that does not (one
    # contestant's event boards one short, as a run ranking the event without one of its
    # sessions would leave) fails the check, naming that contestant
    from pipelines import stages

    dates = Warehouse(pg_url).query("read/dates")["session_date"].to_list()
    for wh in (Warehouse(duckdb_sample), Warehouse(pg_url)):
        assert all(stages.check(wh, "event_standings_consistent", d)[0] for d in dates)
    with psycopg.connect(pg_url, autocommit=True) as raw:
        event_id, session_date, contestant = raw.execute(
            "SELECT event_id, session_date::text, contestant FROM standings "
            "WHERE scope = 'event' AND status <> 'superseded' ORDER BY 1, 3 LIMIT 1"
        ).fetchone()
        raw.execute(
            "UPDATE standings SET boards = boards - 1 WHERE scope = 'event' "
            "AND event_id = %s AND contestant = %s",
            (event_id, contestant),
        )
    ok, bad = stages.check(Warehouse(pg_url), "event_standings_consistent", session_date)
    assert not ok and set(bad["contestant"]) == {contestant}


TABLE = "input_warnings"


def _rows(n: int) -> pl.DataFrame:
    """``n`` rows of ``TABLE`` (every text column ``w<i>``, every other one 0 or false)."""
    schema = pg_warehouse.registry.polars_schema(TABLE)
    return pl.DataFrame(
        {
            c: [f"w{i}" if t == pl.Utf8 else (False if t == pl.Boolean else 0) for i in range(n)]
            for c, t in schema.items()
        },
        schema=schema,
    )


def _count(conn) -> int:
    return conn.execute(f'SELECT count(*) FROM "{TABLE}"').fetchone()[0]


def test_a_failed_write_leaves_the_previous_state(pg_url: str):
    """Delete-then-insert is one transaction: a write failing half way (its second frame has a
    column the table lacks, after the first emptied the table) leaves the table as it was."""
    wh = Warehouse(pg_url)
    with wh.connect() as conn:
        write(conn, [Write(TABLE, _rows(3))])
    bad = _rows(1).with_columns(pl.lit(1).alias("no_such_column"))
    with wh.connect() as conn, pytest.raises(ValueError, match="no_such_column"):
        write(conn, [Write(TABLE, pl.DataFrame()), Write(TABLE, bad)])
    with wh.connect() as conn:
        assert _count(conn) == 3


def test_readers_see_the_last_commit_while_a_write_is_open(pg_url: str):
    """A reader connected while a writer's transaction is open sees the previous rows, and
    the new ones once it commits (PostgreSQL's MVCC)."""
    wh = Warehouse(pg_url)
    with wh.connect() as conn:
        write(conn, [Write(TABLE, _rows(2))])
    writer = psycopg.connect(pg_url)
    try:
        writer.execute(f'DELETE FROM "{TABLE}"')
        with wh.connect(read_only=True) as conn:
            assert _count(conn) == 2
        writer.commit()
    finally:
        writer.close()
    with wh.connect(read_only=True) as conn:
        assert _count(conn) == 0


def test_the_lean_read_cache_quotes_rejected_rows_from_postgres(pg_url: str, tmp_path: Path):
    """The read cache in PostgreSQL gives the lean result rows and, for the rows a date
    rejection quotes, the whole rows: the snapshot is that of every file read."""
    from datetime import date

    from pipelines import inbox as inbox_mod
    from pipelines import read_cache
    from pipelines.incremental import date_inputs
    from pipelines.synth.inbox import generate_inbox

    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=2, clubs=1, seed=5, other_forms=False)
    (inbox / "results-stray.csv").write_text(
        "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
        "NOWHERE,1,A,1,1,1,1,2,3NT,N,9,400\n",
        encoding="utf-8",
    )
    wh = Warehouse(pg_url)
    with wh.connect() as conn:
        read_cache.refresh(inbox, conn)
    with wh.connect() as conn:
        reads, again = read_cache.refresh(inbox, conn)
        assert again.read == [] and reads.results_of is not None
        cached = inbox_mod.assemble(reads, date.today())
    scanned = inbox_mod.scan(inbox, date.today())
    quoted = cached.rejected.filter(pl.col("file") == "results-stray.csv")
    assert quoted["raw"].to_list() == ["NOWHERE,1,A,1,1,1,1,2,3NT,N,9,400"]
    assert cached.rejected.equals(scanned.rejected)
    assert date_inputs(cached).equals(date_inputs(scanned))
