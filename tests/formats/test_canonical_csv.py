"""The canonical results CSV reader: lineage, rejects and notation."""

from __future__ import annotations

import time
from pathlib import Path

import polars as pl
import pytest

from pipelines.formats import read_file
from pipelines.formats.canonical_csv import read_results_csv
from pipelines.formats.model import RESULT_COLUMNS

HEADER = "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score"


def read(tmp_path: Path, text: str | bytes, name: str = "results.csv"):
    """Write ``text`` to ``tmp_path/name`` and read it with the results reader."""
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return read_results_csv(path, name)


def test_reads_a_clean_file(tmp_path: Path) -> None:
    result = read(
        tmp_path, HEADER + "\nE1,1,A,1,3,7,1,2,4S,N,10,420\nE1,1,A,1,3,7,3,4,4S,N,9,-50\n"
    )
    assert result.format == "csv"
    assert result.rows_read == 2
    assert result.rejected.height == 0
    assert result.results.columns == list(RESULT_COLUMNS)
    assert all(dtype == pl.Utf8 for dtype in result.results.dtypes)
    first = result.results.row(0, named=True)
    assert first == {
        "file": "results.csv",
        "location": "line 2",
        "format": "csv",
        "event_id": "E1",
        "session": "1",
        "section": "A",
        "round": "1",
        "table": "3",
        "board": "7",
        "ns_pair": "1",
        "ew_pair": "2",
        "contract": "4S",
        "declarer": "N",
        "tricks": "10",
        "score": "420",
        "source_ns_mp": None,
        "source_ew_mp": None,
        "session_date": None,
        "lead": None,
        "entered_at": None,
        "north": None,
        "south": None,
        "east": None,
        "west": None,
    }
    assert result.results["score"][1] == "-50"


@pytest.mark.parametrize(
    ("contract", "expected"),
    [
        ("3N", "3NT"),
        ("3nt", "3NT"),
        (" 4 h x ", "4HX"),
        ("4Hx", "4HX"),
        ("7nxx", "7NTXX"),
        ("p", "PASS"),
        ("Pass", "PASS"),
        ("PASSED", "PASS"),
        ("ap", "PASS"),
        ("", None),
        ("9Z", "9Z"),
        ("3 NT x", "3NTX"),
    ],
)
def test_contract_notation(tmp_path: Path, contract: str, expected: str | None) -> None:
    result = read(tmp_path, HEADER + f"\nE1,1,,,,1,1,2,{contract},n,9,1\n")
    assert result.results["contract"][0] == expected
    assert result.results["declarer"][0] == "N"


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        ("A60/40", "A60/40"),
        ("a60/40", "A60/40"),
        ("A 60/40", "A60/40"),
        ("A60-40", "A60/40"),
        ("A+/-", "A+/-"),
        ("a=/=", "A=/="),
        ("A+-", "A+/-"),
        ("A6040", "A60/40"),
        ("np", "NP"),
        ("NP", "NP"),
        ("-420", "-420"),
        ("", None),
        ("  110 ", "110"),
        ("abc", "abc"),
    ],
)
def test_score_notation(tmp_path: Path, score: str, expected: str | None) -> None:
    result = read(tmp_path, HEADER + f"\nE1,1,,,,1,1,2,,,,{score}\n")
    assert result.results["score"][0] == expected


def test_optional_columns_may_be_absent_and_extra_columns_are_ignored(tmp_path: Path) -> None:
    text = (
        "Board,EVENT_ID, Session ,ns_pair,ew_pair,contract,declarer,tricks,comment\n"
        "5,E1,2,1,2,3NT,S,9,great\n"
    )
    result = read(tmp_path, text)
    row = result.results.row(0, named=True)
    assert (row["board"], row["event_id"], row["session"]) == ("5", "E1", "2")
    assert row["section"] is None and row["round"] is None and row["table"] is None
    assert row["score"] is None
    assert "comment" not in result.results.columns


def test_missing_required_column_rejects_the_whole_file(tmp_path: Path) -> None:
    result = read(
        tmp_path,
        "event_id,session,board,ns_pair,ew_pair,contract,tricks\n"
        "E1,1,1,1,2,3NT,9\nE1,1,2,1,2,3NT,9\n\n",
    )
    assert result.results.height == 0
    assert result.rows_read == 2
    assert result.rejected.height == 1
    rej = result.rejected.row(0, named=True)
    assert rej["location"] == "file"
    assert rej["field"] == "declarer"
    assert "missing: declarer" in rej["reason"]
    assert rej["raw"].startswith("event_id,session")


def test_ragged_row_is_rejected_and_the_others_kept(tmp_path: Path) -> None:
    result = read(
        tmp_path,
        HEADER + "\nE1,1,A,1,3,7,1,2,4S,N,10,420\n"
        "E1,1,A,1,3,7,1,2,4S\n"
        "E1,1,A,1,3,8,1,2,4S,N,10,420,extra\n"
        'E1,1,A,1,3,9,"1,x",2,4S,N,10,420\n',
    )
    assert result.rows_read == 4
    assert result.results["location"].to_list() == ["line 2", "line 5"]
    assert result.results["ns_pair"][1] == "1,x"
    rejected = result.rejected.to_dicts()
    assert [r["location"] for r in rejected] == ["line 3", "line 4"]
    assert rejected[0]["field"] == "row"
    assert rejected[0]["reason"] == "row has 9 fields, the header has 12"
    assert rejected[1]["reason"] == "row has 13 fields, the header has 12"
    assert rejected[0]["raw"] == "E1,1,A,1,3,7,1,2,4S"


def test_blank_lines_are_skipped_and_locations_are_physical_lines(tmp_path: Path) -> None:
    text = (
        "\ufeff" + HEADER + "\r\n\r\nE1,1,,,,1,1,2,3N,N,9,400\r\n   \r\nE1,1,,,,2,1,2,P,,,0\r\n\r\n"
    )
    result = read(tmp_path, text)
    assert result.rows_read == 2
    assert result.results["location"].to_list() == ["line 3", "line 5"]
    assert result.results["event_id"].to_list() == ["E1", "E1"]
    assert result.results["contract"].to_list() == ["3NT", "PASS"]


def test_not_utf8_is_a_file_reject_naming_the_byte_offset(tmp_path: Path) -> None:
    data = (
        HEADER + "\nE1,1,,,,1,1,2,3NT,N,9,400\n"
    ).encode() + b"E1,1,,,,2,Ren\xe9,2,3NT,N,9,400\n"
    result = read(tmp_path, data)
    offset = data.index(b"\xe9")
    assert result.results.height == 0
    assert result.rows_read == 2
    rej = result.rejected.row(0, named=True)
    assert rej["location"] == "file"
    assert f"byte offset {offset}" in rej["reason"]
    assert "(line 3)" in rej["reason"]
    assert "UTF-8" in rej["reason"]


def test_quoted_values_spanning_lines_use_the_fallback(tmp_path: Path) -> None:
    text = (
        HEADER + ',note\nE1,1,,,,1,1,2,3NT,N,9,400,"two\nlines"\n'
        "E1,1,,,,2,1,2,4S,N,10,420,ok\nE1,1,,,,3,1,2\n"
    )
    result = read(tmp_path, text)
    assert result.rows_read == 3
    assert result.results["location"].to_list() == ["line 2", "line 4"]
    assert result.results["board"].to_list() == ["1", "2"]
    assert result.rejected["location"].to_list() == ["line 5"]


def test_session_date_comes_from_an_iso_date_in_the_file_name(tmp_path: Path) -> None:
    body = HEADER + "\nE1,1,,,,1,1,2,3NT,N,9,400\n"
    assert read(tmp_path, body, "club 2024-03-05 pm.csv").results["session_date"][0] == "2024-03-05"
    assert read(tmp_path, body, "club 2024-13-45.csv").results["session_date"][0] is None
    assert read(tmp_path, body, "club.csv").results["session_date"][0] is None


def test_header_only_and_empty_files(tmp_path: Path) -> None:
    result = read(tmp_path, HEADER + "\n")
    assert (result.rows_read, result.results.height, result.rejected.height) == (0, 0, 0)
    empty = read(tmp_path, "", "empty.csv")
    assert empty.rejected["location"].to_list() == ["file"]


def test_same_file_gives_the_same_frames(tmp_path: Path) -> None:
    text = HEADER + "\n" + "\n".join(f"E1,1,,,,{b},1,2,3N,N,9,400" for b in range(1, 50)) + "\n"
    first, second = read(tmp_path, text), read(tmp_path, text)
    same = first.results.equals(second.results)
    assert same


def test_a_hundred_thousand_lines_read_quickly(tmp_path: Path) -> None:
    rows = [
        f"E1,1,A,{i % 9},{i % 7},{i % 27 + 1},{i % 13},{i % 11},3n,s,9,a60-40"
        for i in range(100_000)
    ]
    rows[500] = "E1,1,A,1,2"
    path = tmp_path / "big.csv"
    path.write_text(HEADER + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    start = time.perf_counter()
    result = read_file(path, tmp_path)
    elapsed = time.perf_counter() - start
    assert result.rows_read == 100_000
    assert result.results.height == 99_999
    assert result.rejected["location"].to_list() == ["line 502"]
    assert set(result.results["contract"].unique()) == {"3NT"}
    assert set(result.results["score"].unique()) == {"A60/40"}
    assert elapsed < 5, f"took {elapsed:.1f}s"


def test_an_unparseable_quoted_value_rejects_the_file(tmp_path: Path) -> None:
    result = read(tmp_path, HEADER + '\nE1,1,,,,1,1,2,"' + "x" * 200_000 + "\n")
    assert result.results.height == 0
    rej = result.rejected.row(0, named=True)
    assert rej["location"] == "file"
    assert "cannot be parsed" in rej["reason"]


def test_an_inbox_read_together_gives_each_file_s_rows_as_read_alone(tmp_path: Path) -> None:
    """:func:`pipelines.inbox.read_all` writes the results of many CSV files canonically in
    one pass: every file's rows, rejections and counts are what reading it alone gives —
    contracts, declarers and scores in every notation, blanks, an individual, a ragged row, a
    file refused whole, and the other formats beside them."""
    from pipelines.inbox import read_all
    from pipelines.resources import SAMPLE_INBOX

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    contracts = ["4s", "3 NT x", "ap", "", "7nxx", "pass", "2H"]
    scores = ["A60-40", "a=/=", "np", " 110 ", "-420", "", "A+-"]
    for k in range(5):
        lines = [HEADER] + [
            f"E{k},1,A,1,{t},{b},{t},{t + 10},{contracts[(k + b + t) % 7]},"
            f"{'nesw'[(b + t) % 4]},{6 + b % 7},{scores[(k * b + t) % 7]}"
            for b in range(1, 6)
            for t in range(1, 4)
        ]
        if k == 2:
            lines.append("E2,1,A,1,9,1,9")  # ragged
        (inbox / f"results-{k}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (inbox / "individual.csv").write_text(
        "event_id,session,board,north,south,east,west,contract,declarer,tricks,score\n"
        "I1,1,1,a,b,c,d,4s,s,10,420\nI1,1,1,e,f,g,h,3nt,w,9,-400\n",
        encoding="utf-8",
    )
    (inbox / "garbage.csv").write_text(
        HEADER + "\n" + "\n".join("x,1,,,,board,1,2,4S,N,10,420" for _ in range(30)) + "\n",
        encoding="utf-8",
    )
    for name in ("events.csv", "rulings.csv"):
        (inbox / name).write_bytes((SAMPLE_INBOX / name).read_bytes())
    together = read_all(inbox)
    alone = [read_file(path, inbox) for path, _ in together]
    assert len(together) == 9
    for (_, t), a in zip(together, alone, strict=True):
        assert t.normalised and a.normalised
        assert t.results.equals(a.results), t.file
        assert t.rejected.equals(a.rejected), t.file
        assert t.rows_read == a.rows_read
    contract = pl.concat([t.results for _, t in together])["contract"]
    assert {"4S", "3NTX", "PASS", "7NTXX"} <= set(contract.drop_nulls().to_list())
