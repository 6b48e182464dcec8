"""The readers on real exported files (../shared/realdata, described in its SOURCES.md).

The files hold real player names and national membership numbers: these tests only
count them or check a decoded accent, computing the check into a plain number first so
a failing assertion never echoes personal data.
"""

from __future__ import annotations

import re

import polars as pl
import pytest

from pipelines.formats import detect_format, read_file
from pipelines.formats.model import ReadResult
from pipelines.profiles import detect
from tests.conftest import REALDATA, shared_file

CANONICAL_CONTRACT = re.compile(r"^([1-7](C|D|H|S|NT)(X|XX)?|PASS)$")

HOWELL = "compscore_usebio_mp_howell_12p.xml"
MITCHELL = "compscore_usebio_mp_mitchell_42p_adjusted.xml"
BUTLER = "compscore_usebio_butler_mitchell_14p.xml"
CROSS_IMP = "compscore_usebio_cross_imp_howell_9p.xml"
MAGIC = "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn"
TEAMS = "realbridge_teams_imp_30teams_10b.pbn"


def real(name: str) -> ReadResult:
    """Read one real file (skipping the test when the shared data is absent)."""
    path = shared_file(REALDATA / name)
    return read_file(path, REALDATA)


def adjusted(result: ReadResult) -> list[dict]:
    """The artificial-score lines (no personal data in these columns)."""
    cols = [
        "location",
        "board",
        "ns_pair",
        "ew_pair",
        "contract",
        "score",
        "source_ns_mp",
        "source_ew_mp",
    ]
    return result.results.filter(pl.col("score").str.starts_with("A")).select(cols).to_dicts()


def all_contracts_canonical(result: ReadResult) -> bool:
    """Every non-null contract is in canonical notation."""
    contracts = result.results["contract"].drop_nulls()
    return all(CANONICAL_CONTRACT.match(c) is not None for c in contracts)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        (HOWELL, "usebio"),
        (MITCHELL, "usebio"),
        (BUTLER, "usebio"),
        (CROSS_IMP, "usebio"),
        (MAGIC, "pbn"),
        (TEAMS, "pbn"),
        ("bridgemate_bcs_jet3_howell_15p_22b_erased_result.bws", "bws"),
        ("bridgemate_botwritten_jet4_howell_7p_21b.bws", "bws"),
        ("SOURCES.md", "unknown"),
    ],
)
def test_detects_real_files(name: str, fmt: str) -> None:
    path = shared_file(REALDATA / name)
    assert detect_format(path) == fmt


def test_compscore_howell() -> None:
    r = real(HOWELL)
    assert (r.format, r.rejected.height) == ("usebio", 0)
    assert (r.results.height, r.contestants.height, r.source_standings.height) == (161, 12, 12)
    assert r.rows_read == 161 + 12 + 1
    event = r.events.row(0, named=True)
    # the DATE as written; read day first by the ABF profile (test_compscore_dates_...)
    assert (event["event_id"], event["session"], event["date"]) == ("2074-3226", "1", "27/07/2022")
    assert (event["form"], event["scoring"], event["movement"]) == (
        "pairs",
        "matchpoints",
        "howell",
    )
    assert (event["program"], detect(event["program"])) == ("Compscore3", "abf")
    assert r.results["session_date"].unique().to_list() == ["27/07/2022"]
    assert adjusted(r) == [
        {
            "location": "EVENT/BOARD[26]/TRAVELLER_LINE[3]",
            "board": "26",
            "ns_pair": "5",
            "ew_pair": "10",
            "contract": None,
            "score": "A50/50",
            "source_ns_mp": "5",
            "source_ew_mp": "5",
        }
    ]
    assert r.results["board"].n_unique() == 27
    assert r.contestants["direction"].null_count() == 12
    assert sorted(r.contestants["contestant"].to_list(), key=int) == [str(i) for i in range(1, 13)]
    assert all_contracts_canonical(r)
    first = r.results.row(0, named=True)
    assert (
        first["board"],
        first["ns_pair"],
        first["ew_pair"],
        first["contract"],
        first["declarer"],
        first["tricks"],
        first["score"],
    ) == ("1", "3", "11", "5C", "W", "11", "-400")
    assert (first["source_ns_mp"], first["source_ew_mp"]) == ("0", "10")


def test_compscore_mitchell() -> None:
    r = real(MITCHELL)
    assert (r.results.height, r.contestants.height, r.rejected.height) == (567, 42, 0)
    assert r.rows_read == 567 + 42 + 1
    event = r.events.row(0, named=True)
    assert (event["event_id"], event["date"], event["movement"]) == (
        "2074-3228",
        "28/07/2022",
        "mitchell",
    )
    directions = r.contestants["direction"].value_counts().sort("direction").rows()
    assert directions == [("EW", 21), ("NS", 21)]
    per_direction = r.contestants.group_by("direction").agg(pl.col("contestant").n_unique())
    assert per_direction["contestant"].to_list() == [21, 21]
    assert adjusted(r) == [
        {
            "location": "EVENT/BOARD[2]/TRAVELLER_LINE[9]",
            "board": "2",
            "ns_pair": "9",
            "ew_pair": "8",
            "contract": None,
            "score": "A60/60",
            "source_ns_mp": "24",
            "source_ew_mp": "24",
        },
        {
            "location": "EVENT/BOARD[3]/TRAVELLER_LINE[1]",
            "board": "3",
            "ns_pair": "1",
            "ew_pair": "1",
            "contract": None,
            "score": "A50/50",
            "source_ns_mp": "23",
            "source_ew_mp": "11",
        },
    ]
    assert r.results["contract"].str.ends_with("X").sum() > 0
    assert "4HX" in r.results["contract"].to_list()
    assert all_contracts_canonical(r)
    standing = r.source_standings.row(0, named=True)
    assert (
        standing["contestant"],
        standing["direction"],
        standing["total"],
        standing["percentage"],
        standing["place"],
    ) == ("1", "NS", "485.00", "44.91", "15")


def test_compscore_butler_and_cross_imps() -> None:
    butler = real(BUTLER)
    assert (butler.results.height, butler.contestants.height) == (245, 14)
    assert butler.events["scoring"][0] == "butler"
    assert butler.events["movement"][0] == "mitchell"
    assert [a["score"] for a in adjusted(butler)] == ["A50/50"]
    assert butler.results["source_ns_mp"].null_count() == 0
    cross = real(CROSS_IMP)
    assert (cross.results.height, cross.contestants.height) == (108, 9)
    assert (cross.events["scoring"][0], cross.events["movement"][0]) == ("cross_imps", "howell")
    assert cross.results["source_ns_mp"][0] == "3.67"
    assert "PASS" in cross.results["contract"].to_list()


def test_magic_contest_pbn() -> None:
    r = real(MAGIC)
    assert (r.format, r.rejected.height) == ("pbn", 0)
    assert (r.results.height, r.source_standings.height, r.contestants.height) == (660, 44, 44)
    assert r.rows_read == 660 + 44 + 1
    event = r.events.row(0, named=True)
    assert (event["event_id"], event["session"], event["date"]) == ("29835", "1", "2022-02-06")
    assert (event["form"], event["scoring"], event["movement"]) == (
        "pairs",
        "matchpoints",
        "howell",
    )
    assert (event["program"], detect(event["program"])) == ("Magic Contest France 4.13.3.4", "ffb")
    assert "Séance 1" in event["name"]
    per_board = r.results.group_by("board").len()
    assert (per_board.height, per_board["len"].unique().to_list()) == (30, [22])
    adj = adjusted(r)
    assert [a["board"] for a in adj] == ["1", "2", "9", "14"]
    assert [a["score"] for a in adj] == ["A+/+", "A+/+", "A-/+", "A+/+"]
    assert [(a["source_ns_mp"], a["source_ew_mp"]) for a in adj][2] == ("16.8", "25.2")
    assert all(a["contract"] is None for a in adj)
    assert all_contracts_canonical(r)
    assert "3NT" in r.results["contract"].to_list()
    first = r.results.row(0, named=True)
    assert (
        first["location"],
        first["table"],
        first["round"],
        first["ns_pair"],
        first["ew_pair"],
        first["score"],
        first["source_ns_mp"],
    ) == ("board 1 ScoreTable row 1", "3", "1", "3", "42", "420", "28.3")
    ew_scored = r.results.filter(pl.col("location") == "board 1 ScoreTable row 17")
    assert ew_scored["score"].to_list() == ["-50"]
    # Latin-1 decoded: accented names present, no UTF-8 mojibake; counts only.
    names = r.contestants["names"]
    accented = int(names.str.contains("é").sum())
    mojibake = int(names.str.contains("Ã").sum())
    assert accented >= 1
    assert mojibake == 0
    ids_per_pair = r.contestants["player_ids"].str.split(";").list.len().unique().to_list()
    assert ids_per_pair == [2]
    stand = r.source_standings
    assert stand["direction"].unique().sort().to_list() == ["EW", "NS"]
    assert sorted(stand["place"].cast(pl.Int64).to_list()) == list(range(1, 45))
    assert stand["tiebreak"].drop_nulls().sort().to_list() == ["0", "2"]


def test_realbridge_teams_pbn() -> None:
    r = real(TEAMS)
    assert (r.format, r.rejected.height) == ("pbn", 0)
    assert r.results.height == 299
    assert r.rows_read == 299 + 1
    assert r.results["location"].to_list() == [f"record {i}" for i in range(1, 300)]
    event = r.events.row(0, named=True)
    assert (event["form"], event["scoring"], event["date"]) == ("teams", "imps", "2021-08-23")
    assert event["event_id"] == "2021 Online Qual: Open R2"
    assert r.contestants.height == 0
    # WALES-ITALY (tables 1 and 17): "Pass" with no Score tag on all 20 records, a match
    # with no result: kept as not played (NP), each with a warning; the one real pass-out
    # (board 11, table 11) carries [Score "NS 0"]
    missing = r.results.filter(pl.col("score") == "NP")
    assert missing.height == 20 == r.warnings.height
    assert set(missing["table"].to_list()) == {"1", "17"}
    assert missing["contract"].null_count() == 20
    assert r.results.filter(pl.col("contract") == "PASS").height == 1
    assert all_contracts_canonical(r)
    first = r.results.row(0, named=True)
    assert (first["board"], first["table"], first["contract"], first["score"]) == (
        "11",
        "11",
        "PASS",
        "0",
    )
    second = r.results.row(1, named=True)
    assert (second["contract"], second["declarer"], second["tricks"], second["score"]) == (
        "1NT",
        "N",
        "8",
        "120",
    )


@pytest.mark.parametrize("name", [HOWELL, MITCHELL, MAGIC, TEAMS])
def test_reading_is_deterministic(name: str) -> None:
    first, second = real(name), real(name)
    same = all(
        getattr(first, f).equals(getattr(second, f))
        for f in ("results", "events", "contestants", "source_standings", "rejected")
    )
    assert same


def test_compscore_dates_are_read_day_first_as_before(tmp_path) -> None:
    """The four Compscore3 files' DATEs, one of them ambiguous (11/03/2026), read as the ABF
    writes dates (profile abf, ``date_order = "dmy"``): the dates of the files' events, with
    nothing rejected or held for a date."""
    import shutil

    from pipelines.inbox import scan

    for name in (HOWELL, MITCHELL, BUTLER, CROSS_IMP):
        shutil.copy(shared_file(REALDATA / name), tmp_path / name)
    snap = scan(tmp_path)
    dated = dict(snap.events.select("event_id", "date").rows())
    written = {
        real(n).events["event_id"][0]: real(n).events["date"][0]
        for n in (HOWELL, MITCHELL, BUTLER, CROSS_IMP)
    }
    assert sorted(written.values()) == ["02/02/2026", "11/03/2026", "27/07/2022", "28/07/2022"]
    day_first = {"27/07/2022": "2022-07-27", "28/07/2022": "2022-07-28"}
    day_first |= {"11/03/2026": "2026-03-11", "02/02/2026": "2026-02-02"}
    assert dated == {ident: day_first[text] for ident, text in written.items()}
    assert snap.rejected.filter(pl.col("field") == "date").height == 0
    assert snap.event_holds.height == 0
    assert set(snap.events["profile"]) == {"abf"}
