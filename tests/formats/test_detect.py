"""Format detection by content: the file name is only a hint and never decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.formats import detect_format, read_file
from pipelines.formats.detect import detect_bytes

RESULTS_HEADER = "event_id,session,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8) to ``tmp_path/name`` and return the path."""
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x00\x01\x00\x00Standard Jet DB\x00\x01" + b"\x00" * 64, "bws"),
        (b"\x00\x01\x00\x00Standard ACE DB\x00\x01" + b"\x00" * 64, "bws"),
        (b'<?xml version="1.0"?>\n<USEBIO Version="1.2"><EVENT/></USEBIO>', "usebio"),
        (b'\xef\xbb\xbf  \n<?xml version="1.0"?><!-- c --><USEBIO/>', "usebio"),
        (b'<?xml version="1.0"?>\n<!DOCTYPE USEBIO SYSTEM "u.dtd">\n<USEBIO/>', "usebio"),
        (b'<?xml version="1.0"?>\n<html><body/></html>', "unknown"),
        (b"<NOTUSEBIO/>", "unknown"),
        (b'% PBN 2.1\n[Event "x"]\n', "pbn"),
        (b'\n\n[Event "Club night"]\n[Board "1"]\n', "pbn"),
        (b'{ Dealer output\nmore comment }\n[Event "x"]\n', "pbn"),
        (b"\xef\xbb\xbf" + RESULTS_HEADER.encode(), "results_csv"),
        (b" Board , NS_Pair,EW_PAIR ,Contract\n1,1,2,3NT\n", "results_csv"),
        (b"event_id,session,date,form\nE1,1,2024-01-02,pairs\n", "events_csv"),
        (b"event_id,session,date,name\nE1,1,2024-01-02,x\n", "events_csv"),
        (b"event_id,contestant,names\nE1,1,A & B\n", "contestants_csv"),
        (b"ruling_id,kind,board\nR1,score,3\n", "rulings_csv"),
        (b"appeal_id,ruling_id,decision\nA1,R1,upheld\n", "appeals_csv"),
        (b"", "unknown"),
        (b"just some text\nwith lines\n", "unknown"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "unknown"),
    ],
)
def test_detect_bytes(data: bytes, expected: str) -> None:
    assert detect_bytes(data) == expected


def test_a_txt_name_holding_a_results_csv_is_read_as_results(tmp_path: Path) -> None:
    path = write(tmp_path, "scores from tuesday.txt", RESULTS_HEADER + "E1,1,1,1,2,3NT,N,9,400\n")
    assert detect_format(path) == "results_csv"
    result = read_file(path, tmp_path)
    assert result.format == "csv"
    assert result.results.height == 1
    assert result.results["file"][0] == "scores from tuesday.txt"


def test_a_csv_name_holding_pbn_is_read_as_pbn(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "results.csv",
        '[Event "x"]\n[Board "1"]\n[Contract "3NT"]\n'
        '[Declarer "N"]\n[Result "9"]\n[Score "NS 400"]\n',
    )
    assert detect_format(path) == "pbn"


def test_a_non_utf8_results_csv_is_still_detected(tmp_path: Path) -> None:
    path = write(tmp_path, "r.csv", RESULTS_HEADER.encode() + b"E1,1,1,Andr\xe9,2,3NT,N,9,400\n")
    assert detect_format(path) == "results_csv"


def test_billion_laughs_usebio_is_detected_without_expanding(tmp_path: Path) -> None:
    entities = "".join(f'<!ENTITY e{i} "&e{i - 1};&e{i - 1};">' for i in range(1, 30))
    path = write(
        tmp_path,
        "x.xml",
        f'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY e0 "ha">'
        f"{entities}]><USEBIO>&e29;</USEBIO>",
    )
    assert detect_format(path) == "usebio"


def test_unknown_file_gives_one_file_reject(tmp_path: Path) -> None:
    path = write(tmp_path, "notes.csv", "name;age\nx;3\n")
    result = read_file(path, tmp_path)
    assert result.format == "unknown"
    assert result.rows_read == 0
    assert result.rejected.height == 1
    assert result.rejected["location"][0] == "file"
    assert "not recognised" in result.rejected["reason"][0]


def test_formats_without_a_reader_are_rejected_with_a_reason(tmp_path: Path) -> None:
    path = write(tmp_path, "s.bws", b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 100)
    result = read_file(path, tmp_path)
    assert result.format == "bws"
    assert result.rejected.height == 1
    assert "Bridgemate" in result.rejected["reason"][0]


def test_file_label_is_relative_to_the_inbox_as_posix(tmp_path: Path) -> None:
    (tmp_path / "club" / "2024").mkdir(parents=True)
    path = write(tmp_path, "club/2024/r.csv", RESULTS_HEADER + "E1,1,1,1,2,3NT,N,9,400\n")
    result = read_file(path, tmp_path)
    assert result.file == "club/2024/r.csv"
    assert result.results["file"].to_list() == ["club/2024/r.csv"]
