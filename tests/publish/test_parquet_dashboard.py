"""Parquet exports partitioned by date read back whole; the season dashboard is one
self-contained page (charts inline, nothing fetched) with the season's figures."""

from __future__ import annotations

import re

import duckdb
import polars as pl

from pipelines.reports.season import monthly, with_period
from tests.publish.conftest import Sample


def count(sample: Sample, table: str, where: str = "") -> int:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.execute(f"SELECT count(*) FROM {table} {where}").fetchone()[0]


def test_parquet_partitioned_by_date_reads_back(sample: Sample):
    root = sample.exports / "parquet"
    for table in (
        "standings",
        "scored_results",
        "adjustments",
        "standings_changes",
        "rulings",
        "matches",
    ):
        parts = sorted(p.name for p in (root / table).iterdir())
        assert parts == ["session_date=2026-11-02", "session_date=2026-11-03"], table
        df = pl.read_parquet(root / table, hive_partitioning=True)
        assert df.height == count(sample, table), table
    standings = pl.read_parquet(root / "standings", hive_partitioning=True)
    assert set(standings["status"].unique()) >= {"final", "provisional", "superseded"}
    # the statistics without their slices by director: those are the director audit's, which
    # is never exported (nor are its own marts)
    for mart in ("penalty_stats", "appeal_stats"):
        parts = {p.name.split("=")[0] for p in (root / mart).iterdir()}
        assert parts == {"period"}, mart
        public = count(sample, mart, "WHERE dimension <> 'director'")
        assert public < count(sample, mart)
        assert pl.read_parquet(root / mart, hive_partitioning=True).height == public
    for mart in ("director_audit", "ruling_discrepancies"):
        assert count(sample, mart) and not (root / mart).exists()
    season = pl.read_parquet(root / "season_sessions", hive_partitioning=True)
    assert season.height == count(sample, "events")
    assert season["month"].unique().to_list() == ["2026-11"]


def test_season_dashboard_is_self_contained(sample: Sample):
    page = (sample.out / "season.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert len(sources) >= 4  # activity, field size, rates and BAR, rejections or more
    assert re.search(r'<img src="data:[^"]+" alt="[^"]{10,}"', page)
    # a sentence under each chart says what to read from it
    captions = re.findall(r'<img [^>]+><figcaption class="muted">([^<]+)</figcaption>', page)
    assert len(captions) == len(sources) and all(c.startswith("Read: ") for c in captions)
    assert "Board-Appeal Ratio" in page and f"{count(sample, 'events')}</strong> sessions" in page


def test_season_figures():
    sessions = pl.DataFrame(
        {
            "club": ["C1", "C1", "C2"],
            "month": ["2026-09", "2026-10", "2026-11"],
            "date": ["2026-09-01", "2026-10-01", "2026-11-01"],
            "tables": [7, 8, 10],
            "contestants": [14, 16, 20],
            "results": [196, 224, 300],
            "adjusted_results": [2, 0, 3],
            "penalties": [1, 0, 0],
            "appeals": [1, 0, 0],
        }
    )
    per, unit = with_period(sessions)
    assert unit == "month"
    m = monthly(per, by_club=False).row(0, named=True)
    assert m["period"] == "2026-09" and m["avg_field"] == 14
    assert abs(m["bar_per_1000_boards"] - 1000 / 196) < 1e-12
    assert abs(m["adjusted_per_100"] - 200 / 196) < 1e-12
    assert m["penalties_per_10_sessions"] == 10
    _, unit = with_period(sessions.head(2))
    assert unit == "day"


def _files(root) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        # a folder's seal holds its folders' times on the disk, not what was published
        if p.is_file() and not p.name.endswith(".seal.json")
    }


def test_parquet_read_a_run_of_dates_at_a_time_writes_the_same_files(
    sample: Sample, tmp_path, monkeypatch
):
    """An export read a date at a time (a budget of one row per run) writes the files and
    the record an export read whole writes, byte for byte; the dates without rows of a
    table (a standing without a date) are exported too."""
    from pipelines.publish.parquet import write_parquet

    whole, runs = tmp_path / "whole", tmp_path / "runs"
    monkeypatch.setenv("TRAVELLER_RANGE_RESULTS", "100000000")
    counts = write_parquet(sample.warehouse, whole)
    monkeypatch.setenv("TRAVELLER_RANGE_RESULTS", "1")
    assert write_parquet(sample.warehouse, runs) == counts
    assert _files(runs) == _files(whole)
    assert counts["scored_results"] == count(sample, "scored_results")
    assert counts["standings"] == count(sample, "standings")


def test_date_chunks():
    from pipelines.publish.parquet import date_chunks

    assert date_chunks([], 10) == []
    assert date_chunks([("a", 5), ("b", 5), ("c", 1)], 10) == [["a", "b"], ["c"]]
    # a date alone over the budget is one run; a NULL date is a run's date like any other
    assert date_chunks([("a", 30), (None, 2)], 10) == [["a"], [None]]


def test_export_of_dates_names_the_rows_without_a_date(tmp_path):
    """``of_dates`` exports the rows of the dates given, and those without a date only when
    ``None`` is among them."""
    from pipelines.warehouse import Warehouse, export

    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        conn.execute(
            "INSERT INTO standings_changes "
            "(session_date, event_id, scope, session, version, cause, cause_id, contestant) "
            "VALUES ('2026-11-02', 'e', 'session', 1, 1, 'c', 'i', 'A'), "
            "(NULL, 'e', 'event', NULL, 1, 'c', 'i', 'A'), "
            "('2026-11-03', 'e', 'session', 2, 1, 'c', 'i', 'A')"
        )
        got = {
            tuple(days): export(conn, "standings_changes", of_dates=days)["scope"].to_list()
            for days in (["2026-11-02"], [None], ["2026-11-03", None], [])
        }
    assert got == {
        ("2026-11-02",): ["session"],
        (None,): ["event"],
        ("2026-11-03", None): ["session", "event"],
        (): [],
    }


def test_a_date_whose_standings_did_not_change_is_not_read_again(
    sample: Sample, tmp_path, monkeypatch
):
    """The standings (an event's totals on its last date: not made from that date alone) are
    digested by date in DuckDB: a second export reads none of their rows; after one date's
    standings changed, only that date is read, and the files are those an export from
    scratch writes, byte for byte."""
    import shutil

    from pipelines.publish import parquet

    wh = tmp_path / "w.duckdb"
    shutil.copy(sample.warehouse, wh)
    out = tmp_path / "parquet"
    parquet.write_parquet(wh, out)
    read: list[tuple[str, tuple]] = []
    real = parquet.export

    def spy(conn, table, public=False, but_dates=None, of_dates=None):
        read.append((table, tuple(of_dates or ())))
        return real(conn, table, public=public, but_dates=but_dates, of_dates=of_dates)

    monkeypatch.setattr(parquet, "export", spy)
    parquet.write_parquet(wh, out)
    assert [t for t, _ in read if t in ("standings", "standings_changes", "matches")] == []
    with duckdb.connect(str(wh)) as c:
        c.execute(
            "UPDATE standings SET names = names || ' (sub)' "
            "WHERE session_date = DATE '2026-11-03' AND names IS NOT NULL"
        )
    read.clear()
    parquet.write_parquet(wh, out)
    assert [d for t, d in read if t == "standings"] == [("2026-11-03",)]
    fresh = tmp_path / "fresh"
    monkeypatch.setattr(parquet, "export", real)
    parquet.write_parquet(wh, fresh)
    got = pl.read_parquet(out / "standings", hive_partitioning=True)
    assert got.filter(pl.col("names").str.ends_with(" (sub)")).height > 0
    assert _files(out) == _files(fresh)
