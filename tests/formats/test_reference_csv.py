"""The events.csv and contestants*.csv readers."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.formats import read_file
from pipelines.formats.model import CONTESTANT_COLUMNS, EVENT_COLUMNS
from pipelines.formats.reference_csv import read_contestants_csv, read_events_csv


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write UTF-8 ``text`` to ``tmp_path/name``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


EVENTS = (
    "event_id,session,date,name,form,scoring,movement,profile,laws,director,correction_minutes\n"
    "E1,1,2024-03-05,Tuesday pairs,Pairs,MatchPoints,Mitchell,EBU,2017,A Director,30\n"
    "E1,2,5/3/2024,Tuesday pairs,pairs,matchpoints,howell,ebu,2017,,\n"
    "E2,1,March 5th,Teams,TEAMS,IMPs,,,,,\n"
    "E3,1,2024-03-05\n"
)


def test_events_are_read_lower_cased_with_dates_as_written(tmp_path: Path) -> None:
    path = write(tmp_path, "events.csv", EVENTS)
    result = read_file(path, tmp_path)
    assert result.format == "events_csv"
    assert result.rows_read == 4
    assert result.events.columns == list(EVENT_COLUMNS)
    rows = result.events.to_dicts()
    assert [r["location"] for r in rows] == ["line 2", "line 3", "line 4"]
    assert rows[0]["form"] == "pairs" and rows[0]["scoring"] == "matchpoints"
    assert rows[0]["movement"] == "mitchell" and rows[0]["profile"] == "ebu"
    assert rows[0]["correction_minutes"] == "30"
    assert rows[0]["expected_results"] is None
    # dates as written: a slashed one is read with the event's profile (scoring/dates.py)
    assert [r["date"] for r in rows] == ["2024-03-05", "5/3/2024", "March 5th"]
    assert rows[1]["director"] is None
    assert rows[2]["form"] == "teams" and rows[2]["scoring"] == "imps"
    assert result.rejected["location"].to_list() == ["line 5"]
    assert result.rejected["reason"][0] == "row has 3 fields, the header has 11"


def test_events_need_only_event_id_and_session(tmp_path: Path) -> None:
    path = write(tmp_path, "ev.csv", "session,event_id,expected_results\n1,E1,84\n")
    result = read_events_csv(path, "ev.csv")
    row = result.events.row(0, named=True)
    assert (row["event_id"], row["session"], row["expected_results"]) == ("E1", "1", "84")
    assert row["date"] is None


def test_events_without_session_are_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "ev.csv", "event_id,date,form\nE1,2024-01-01,pairs\n")
    result = read_events_csv(path, "ev.csv")
    assert result.events.height == 0
    assert result.rejected["field"].to_list() == ["session"]
    assert result.rows_read == 1


def test_contestants_are_read(tmp_path: Path) -> None:
    text = (
        "event_id,contestant,direction,names,player_ids\n"
        "E1,1,N-S,Ann Example & Bob Example,123;456\n"
        "E1,1,ew,Cat Example & Dan Example,\n"
    )
    path = write(tmp_path, "contestants_E1.csv", text)
    result = read_file(path, tmp_path)
    assert result.format == "contestants_csv"
    assert result.contestants.columns == list(CONTESTANT_COLUMNS)
    assert result.contestants["direction"].to_list() == ["NS", "EW"]
    assert result.contestants["player_ids"].to_list() == ["123;456", None]
    assert result.contestants["location"].to_list() == ["line 2", "line 3"]


def test_contestants_direction_and_ids_may_be_absent(tmp_path: Path) -> None:
    path = write(tmp_path, "c.csv", "event_id,contestant,names\nE1,7,A & B\n")
    result = read_contestants_csv(path, "c.csv")
    row = result.contestants.row(0, named=True)
    assert row["direction"] is None and row["player_ids"] is None
    assert row["contestant"] == "7"
    assert all(dtype == pl.Utf8 for dtype in result.contestants.dtypes)


def test_contestants_without_names_column_are_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "c.csv", "event_id,contestant,direction\nE1,7,NS\n")
    result = read_contestants_csv(path, "c.csv")
    assert result.contestants.height == 0
    assert result.rejected["location"].to_list() == ["file"]
    assert result.rejected["field"].to_list() == ["names"]


def test_reference_csv_not_utf8_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    data = b"event_id,contestant,names\nE1,7,Jos\xe9 & Ann\n"
    path.write_bytes(data)
    result = read_contestants_csv(path, "c.csv")
    assert result.contestants.height == 0
    offset = data.index(b"\xe9")
    assert f"byte offset {offset}" in result.rejected["reason"][0]
