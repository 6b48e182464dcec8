"""The Bridgemate ``.bws`` reader (:mod:`pipelines.formats.bws`).

The reader works in two steps: (1) ``export_tables`` runs mdbtools and turns each table
into an all-Utf8 frame; (2) ``tables_to_result`` maps those frames to a ``ReadResult``
and is pure. mdbtools can read but not write Access databases, so the cases the two real
files do not hold (the ``Remarks`` cases, erased and superseded entries, disagreement
with ``RoundData``, tables short of results) are tested on step (2) with small hand-made
frames shaped exactly as ``mdb-export`` prints the tables. The two real files in
``../shared/realdata`` (a BCS-written Jet 3 file and a bot-written Jet 4 file) test steps
(1) + (2) end to end, and through the whole pipeline into the warehouse.

No real names are asserted or printed: the tables read here hold pair numbers only.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.formats import bws as bws_module
from pipelines.formats import read_file
from pipelines.formats.bws import MISSING_TOOL, tables_to_result
from pipelines.formats.model import RESULT_COLUMNS, WARNING_COLUMNS, ReadResult
from pipelines.runner import run_inbox
from pipelines.warehouse import Warehouse
from tests.conftest import REALDATA, shared_file

BCS = "bridgemate_bcs_jet3_howell_15p_22b_erased_result.bws"
BOT = "bridgemate_botwritten_jet4_howell_7p_21b.bws"

RECEIVED_HEADER = (
    "ID,Section,Table,Round,Board,PairNS,PairEW,Declarer,NS/EW,Contract,Result,LeadCard,"
    "Remarks,DateLog,TimeLog,Processed,Processed1,Processed2,Processed3,Processed4,Erased,"
    "ExternalUpdate,SuspiciousContract"
).split(",")


# --------------------------------------------------------------------------- hand-made frames


def utf8(rows: list[dict[str, str | None]], columns: list[str]) -> pl.DataFrame:
    """An all-Utf8 frame, as the export step produces (missing keys → null)."""
    return pl.DataFrame(
        {c: [r.get(c) for r in rows] for c in columns}, schema={c: pl.Utf8 for c in columns}
    )


def entry(ident: int, table: int, rnd: int, board: int, ns: int, ew: int, **kw: str | None):
    """One ReceivedData row: ``4 S =`` by N unless overridden; not erased, not suspicious."""
    row: dict[str, str | None] = {
        "ID": str(ident),
        "Section": "1",
        "Table": str(table),
        "Round": str(rnd),
        "Board": str(board),
        "PairNS": str(ns),
        "PairEW": str(ew),
        "Declarer": str(ns),
        "NS/EW": "N",
        "Contract": "4 S",
        "Result": "=",
        "LeadCard": None,
        "Remarks": None,
        "DateLog": "2026-03-05 00:00:00",
        "TimeLog": "1899-12-30 19:30:00",
        "Erased": "0",
        "SuspiciousContract": "0",
    }
    for k in ("Processed", "Processed1", "Processed2", "Processed3", "Processed4"):
        row[k] = "0"
    row["ExternalUpdate"] = "0"
    row.update(kw)
    return row


#: A four-pair movement on two tables, two rounds, two boards a round:
#: table 1 keeps pair 1 NS (1 v 2, then 1 v 3); table 2 has 3 v 4, then 2 v 4.
MOVEMENT = [
    {"Table": "1", "Round": "1", "NSPair": "1", "EWPair": "2", "LowBoard": "1", "HighBoard": "2"},
    {"Table": "2", "Round": "1", "NSPair": "3", "EWPair": "4", "LowBoard": "3", "HighBoard": "4"},
    {"Table": "1", "Round": "2", "NSPair": "1", "EWPair": "3", "LowBoard": "3", "HighBoard": "4"},
    {"Table": "2", "Round": "2", "NSPair": "2", "EWPair": "4", "LowBoard": "1", "HighBoard": "2"},
]


def full_session() -> list[dict[str, str | None]]:
    """Every board of :data:`MOVEMENT` played once, IDs 100.."""
    rows, ident = [], 100
    for m in MOVEMENT:
        for b in range(int(m["LowBoard"]), int(m["HighBoard"]) + 1):
            rows.append(
                entry(
                    ident, int(m["Table"]), int(m["Round"]), b, int(m["NSPair"]), int(m["EWPair"])
                )
            )
            ident += 1
    return rows


def tables(
    received: list[dict[str, str | None]],
    *,
    movement: list[dict[str, str]] | None = None,
    missing_pair: str = "0",
    scoring_type: str = "1",
    guid: str | None = "0123456789ABCDEF0123456789ABCDEF",
) -> dict[str, pl.DataFrame]:
    """The four tables of a one-section file (Section ID 1, letter A)."""
    seats = MOVEMENT if movement is None else movement
    rounds = [{"Section": "1", "CustomBoards": None, **m} for m in seats]
    return {
        "ReceivedData": utf8(received, RECEIVED_HEADER),
        "Section": utf8(
            [
                {
                    "ID": "1",
                    "Letter": "A",
                    "Tables": "2",
                    "MissingPair": missing_pair,
                    "EWMoveBeforePlay": "0",
                    "Session": "1",
                    "ScoringType": scoring_type,
                    "Winners": "0",
                }
            ],
            [
                "ID",
                "Letter",
                "Tables",
                "MissingPair",
                "EWMoveBeforePlay",
                "Session",
                "ScoringType",
                "Winners",
            ],
        ),
        "Session": utf8(
            [
                {
                    "ID": "1",
                    "Name": "Club night",
                    "Date": "2026-03-05 00:00:00",
                    "Time": "1899-12-30 19:00:00",
                    "GUID": guid,
                    "Status": "0",
                    "ShowInApp": "0",
                }
            ],
            ["ID", "Name", "Date", "Time", "GUID", "Status", "ShowInApp"],
        ),
        "RoundData": utf8(
            rounds,
            [
                "Section",
                "Table",
                "Round",
                "NSPair",
                "EWPair",
                "LowBoard",
                "HighBoard",
                "CustomBoards",
            ],
        ),
    }


def read(received: list[dict[str, str | None]], **kw) -> ReadResult:
    return tables_to_result(tables(received, **kw), "club.bws", "club")


def by_location(df: pl.DataFrame) -> dict[str, dict]:
    return {r["location"]: r for r in df.iter_rows(named=True)}


def superseded(r: ReadResult) -> dict[str, dict]:
    """The superseded/erased entries (warnings with field ``superseded``), by location."""
    return by_location(r.warnings.filter(pl.col("field") == "superseded"))


def accounted(r: ReadResult) -> bool:
    """Every row read is a result, a rejected row, a superseded entry (distinct locations)
    or the event row."""
    rejected = r.rejected["location"].n_unique() if r.rejected.height else 0
    return r.rows_read == r.results.height + rejected + len(superseded(r)) + r.events.height


# --------------------------------------------------------------------------- step 2: mapping


def test_a_clean_session_maps_every_field():
    rows = full_session()
    rows[0].update(
        {
            "LeadCard": "D10",
            "NS/EW": "E",
            "Declarer": "1",
            "Contract": "4 S x",
            "Result": "=",
            "TimeLog": "1899-12-30 19:31:07",
        }
    )
    r = read(rows)
    assert r.format == "bws"
    assert r.results.columns == list(RESULT_COLUMNS)
    assert r.results.height == 8 and r.rejected.height == 0 and r.warnings.height == 0
    first = r.results.row(0, named=True)
    assert first == {
        "file": "club.bws",
        "location": "ReceivedData ID 100",
        "format": "bws",
        "event_id": "0123456789ABCDEF0123456789ABCDEF",
        "session": "1",
        "section": "A",
        "round": "1",
        "table": "1",
        "board": "1",
        "ns_pair": "1",
        "ew_pair": "2",
        "contract": "4SX",
        "declarer": "E",  # from NS/EW, not from the Declarer column (a pair number)
        "tricks": "10",
        "score": None,
        "source_ns_mp": None,
        "source_ew_mp": None,
        "session_date": "2026-03-05",
        "lead": "D10",
        "entered_at": "2026-03-05 19:31:07",
        "north": None,
        "south": None,
        "east": None,
        "west": None,
    }
    ev = r.events.row(0, named=True)
    assert ev["location"] == "Session" and ev["event_id"] == first["event_id"]
    assert (ev["session"], ev["date"], ev["name"]) == ("1", "2026-03-05", "Club night")
    assert (ev["form"], ev["scoring"], ev["movement"]) == ("pairs", "matchpoints", "howell")
    assert r.rows_read == 9 and accounted(r)


@pytest.mark.parametrize(
    ("contract", "result", "want", "tricks"),
    [
        ("4 S x", "=", "4SX", "10"),
        ("3 NT", "-2", "3NT", "7"),
        ("4 D xx", "+1", "4DXX", "11"),
        ("1 C", "+6", "1C", "13"),
        ("7 NT", "-7", "7NT", "6"),
    ],
)
def test_contract_and_relative_result(contract, result, want, tricks):
    rows = full_session()
    rows[0].update({"Contract": contract, "Result": result})
    res = read(rows).results.row(0, named=True)
    assert (res["contract"], res["tricks"]) == (want, tricks)


def test_pass_out_has_no_declarer_tricks_or_lead():
    rows = full_session()
    rows[0].update({"Contract": "PASS", "Result": None, "NS/EW": None, "LeadCard": "SA"})
    res = read(rows).results.row(0, named=True)
    assert (res["contract"], res["declarer"], res["tricks"], res["lead"]) == (
        "PASS",
        None,
        None,
        None,
    )


def test_result_that_is_not_relative_or_gives_impossible_tricks_is_rejected():
    rows = full_session()
    rows[0].update({"Result": "10"})
    rows[1].update({"Contract": "6 NT", "Result": "+2"})
    r = read(rows)
    rej = by_location(r.rejected)
    assert rej["ReceivedData ID 100"]["field"] == "tricks"
    assert "'10' is not '=' or +n / -n" in rej["ReceivedData ID 100"]["reason"]
    assert "14 tricks, outside 0-13" in rej["ReceivedData ID 101"]["reason"]
    assert r.results.height == 6 and accounted(r)


def test_not_played_becomes_np():
    rows = full_session()
    rows[0].update({"Contract": None, "Result": None, "NS/EW": None, "Remarks": "Not played"})
    res = read(rows).results.row(0, named=True)
    assert (res["contract"], res["declarer"], res["tricks"], res["score"]) == (
        None,
        None,
        None,
        "NP",
    )


@pytest.mark.parametrize(
    ("remark", "score"),
    [("60%-40%", "A60/40"), ("50%-50%", "A50/50"), ("55%-45%", "A55/45"), ("40% - 40%", "A40/40")],
)
def test_percentages_become_the_directors_artificial_score(remark, score):
    rows = full_session()
    rows[0].update({"Contract": None, "Result": None, "NS/EW": None, "Remarks": remark})
    r = read(rows)
    res = r.results.row(0, named=True)
    assert (res["contract"], res["score"]) == (None, score)
    assert r.warnings.height == 0


def test_arbitral_score_without_percentages_is_rejected_with_the_reason():
    rows = full_session()
    rows[0].update({"Contract": None, "Result": None, "NS/EW": None, "Remarks": "Arbitral score"})
    r = read(rows)
    rej = r.rejected.row(0, named=True)
    assert (rej["location"], rej["field"]) == ("ReceivedData ID 100", "score")
    assert "the director must give the NS and EW percentages" in rej["reason"]
    assert r.results.height == 7 and accounted(r)


def test_wrong_direction_swaps_the_pairs_and_keeps_the_result():
    rows = full_session()
    rows[0].update({"Remarks": "Wrong direction", "NS/EW": "S", "Contract": "3 NT", "Result": "+1"})
    r = read(rows)
    res = r.results.row(0, named=True)
    assert (res["ns_pair"], res["ew_pair"]) == ("2", "1")
    assert (res["contract"], res["declarer"], res["tricks"]) == ("3NT", "S", "10")
    assert r.rejected.height == 0


def test_a_remark_overrides_a_leftover_contract_with_a_warning():
    rows = full_session()
    rows[0].update({"Remarks": "Not played"})  # the 4 S = of the default row is left in place
    r = read(rows)
    assert r.results.row(0, named=True)["score"] == "NP"
    assert r.results.row(0, named=True)["contract"] is None
    w = r.warnings.row(0, named=True)
    assert w["location"] == "ReceivedData ID 100" and "contract '4 S' ignored" in w["reason"]


def test_unknown_remark_and_empty_entry_are_rejected():
    rows = full_session()
    rows[0].update({"Contract": None, "Remarks": "Board fouled?"})
    rows[1].update({"Contract": None, "Result": None, "NS/EW": None})
    r = read(rows)
    rej = by_location(r.rejected)
    assert (
        "remark 'Board fouled?' is not one this reader knows"
        in rej["ReceivedData ID 100"]["reason"]
    )
    assert rej["ReceivedData ID 101"]["reason"].startswith("no contract and no remark")
    assert accounted(r)


def test_last_entry_counts_and_superseded_and_erased_entries_are_history():
    rows = full_session()  # ID 101 is table 1 round 1 board 2 (1 v 2)
    rows += [
        entry(120, 1, 1, 2, 1, 2, Contract="4 NT", Result="-1", **{"NS/EW": "W"}),
        entry(
            121,
            1,
            1,
            2,
            1,
            2,
            Contract="4 NT",
            Result="-1",
            Erased="1",
            Remarks="Result erased",
            **{"NS/EW": "W"},
        ),
        entry(123, 1, 1, 2, 1, 2, Contract="4 NT", Result="+1", **{"NS/EW": "E"}),
    ]
    r = read(rows)
    kept = r.results.filter(pl.col("board") == "2", pl.col("table") == "1")
    assert kept.select("location", "contract", "declarer", "tricks").row(0) == (
        "ReceivedData ID 123",
        "4NT",
        "E",
        "11",
    )
    rej = superseded(r)
    assert set(rej) == {"ReceivedData ID 101", "ReceivedData ID 120", "ReceivedData ID 121"}
    assert r.rejected.height == 0
    assert rej["ReceivedData ID 120"]["reason"] == (
        "superseded by a later entry (ID 123) for section A table 1 round 1 board 2"
    )
    assert rej["ReceivedData ID 121"]["reason"].startswith("erase record (result erased")
    assert r.results.height == 8 and r.rows_read == 12 and accounted(r)


def test_an_erased_last_entry_leaves_no_result():
    rows = full_session()
    rows.append(entry(130, 1, 1, 1, 1, 2, Erased="1", Remarks="Result erased"))
    r = read(rows)
    rej = superseded(r)
    assert rej["ReceivedData ID 130"]["reason"] == (
        "result erased at the table and not entered again (section A table 1 round 1 board 1)"
    )
    assert "superseded by a later entry (ID 130)" in rej["ReceivedData ID 100"]["reason"]
    assert r.results.height == 7 and accounted(r)
    # ... and the table is now one result short
    short = r.warnings.filter(pl.col("field") == "table").row(0, named=True)
    assert short["location"] == "RoundData section A table 1"
    assert short["reason"] == (
        "table 1 of section A has 3 results where its 2 rounds require 4: "
        "missing round 1 board(s) 1"
    )


def test_results_that_disagree_with_round_data_are_rejected_naming_it():
    rows = full_session()
    rows[0].update({"PairNS": "2", "PairEW": "1"})  # pairs the other way round, no remark
    rows[1].update({"Board": "7"})  # board outside 1-2
    rows[2].update({"Round": "5"})  # no round 5 at table 2
    r = read(rows)
    rej = by_location(r.rejected)
    assert rej["ReceivedData ID 100"]["field"] == "ns_pair"
    assert rej["ReceivedData ID 100"]["reason"] == (
        "RoundData seats pair 1 NS v pair 2 EW at section A table 1 round 1; "
        "this result names 2 NS v 1 EW"
    )
    assert rej["ReceivedData ID 101"]["reason"] == (
        "RoundData gives boards 1-2 at section A table 1 round 1; this result is for board 7"
    )
    assert rej["ReceivedData ID 102"]["reason"] == (
        "RoundData has no section A table 2 round 5: the movement has no such table and round"
    )
    assert r.results.height == 5 and accounted(r)


def test_missing_results_are_warnings_per_table():
    rows = [r for r in full_session() if r["ID"] not in ("104", "105", "107")]
    r = read(rows)
    assert r.rejected.height == 0 and r.results.height == 5
    warn = {w["location"]: w["reason"] for w in r.warnings.iter_rows(named=True)}
    assert warn == {
        "RoundData section A table 1": (
            "table 1 of section A has 2 results where its 2 rounds require 4: "
            "missing round 2 board(s) 3-4"
        ),
        "RoundData section A table 2": (
            "table 2 of section A has 3 results where its 2 rounds require 4: "
            "missing round 2 board(s) 2"
        ),
    }
    assert r.warnings.columns == list(WARNING_COLUMNS)


def test_rounds_against_the_phantom_are_not_missing_results():
    # pair 4 is the phantom: table 2 plays no board at all
    rows = [r for r in full_session() if r["Table"] == "1"]
    r = read(rows, missing_pair="4")
    assert r.warnings.height == 0 and r.rejected.height == 0
    # with MissingPair 0, a seated pair that no result names is taken as the phantom: warned
    r = read(rows, missing_pair="0")
    (w,) = r.warnings.iter_rows(named=True)
    assert w["field"] == "MissingPair" and w["reason"].startswith(
        "pair 4 of section A is seated by RoundData but named in no result"
    )


def test_suspicious_contract_is_a_warning_and_the_result_is_kept():
    rows = full_session()
    rows[3].update({"SuspiciousContract": "1", "Contract": "2 S", "Result": "-1"})
    r = read(rows)
    assert r.results.height == 8 and r.rejected.height == 0
    (w,) = r.warnings.iter_rows(named=True)
    assert (w["location"], w["field"]) == ("ReceivedData ID 103", "SuspiciousContract")
    assert "2 S -1 by N at table 2 round 1 board 4" in w["reason"]


def test_round_data_of_another_movement_is_not_used_and_says_so():
    other = [
        {**m, "NSPair": str(300 + int(m["NSPair"])), "EWPair": str(300 + int(m["EWPair"]))}
        for m in MOVEMENT
    ]
    rows = full_session()
    rows[0].update({"Board": "9"})
    r = read(rows, movement=other)
    assert r.rejected.height == 0 and r.results.height == 8
    (w,) = r.warnings.iter_rows(named=True)
    assert w["field"] == "RoundData"
    assert w["reason"].startswith(
        "RoundData of section A seats pairs 301-304 but the results name pairs 1-4"
    )


def test_round_data_holding_a_part_of_the_movement_is_not_used_and_says_so():
    # one row of the movement (table 1, round 1) beside results at both tables in both
    # rounds, as in a later copy of the real BCS file: checked against it, the six results
    # elsewhere would be rejected ("no such table and round")
    r = read(full_session(), movement=MOVEMENT[:1])
    assert r.rejected.height == 0 and r.results.height == 8 and accounted(r)
    (w,) = r.warnings.iter_rows(named=True)
    assert (w["location"], w["field"]) == ("Section ID 1", "RoundData")
    assert w["reason"].startswith(
        "RoundData of section A has rows for 1 of the 4 tables and rounds its results name"
    )
    # half of them is enough to take it as the movement: what it lacks is then rejected
    r = read(full_session(), movement=MOVEMENT[:2])
    assert r.results.height == 4 and set(r.rejected["field"]) == {"round"}


def test_two_pairings_at_one_table_and_round_are_warned():
    rows = full_session()
    rows.append(entry(140, 1, 1, 1, 3, 4))  # also a 3 v 4 on table 1 in round 1
    r = read(rows, movement=[])  # no RoundData: nothing to reject against
    assert r.results.height == 9
    reasons = [w["reason"] for w in r.warnings.iter_rows(named=True)]
    assert any(
        "table 1 round 1 holds results of 2 different pairings (1 v 2, 3 v 4)" in x for x in reasons
    )
    assert any(x.startswith("RoundData has no rows for section A") for x in reasons)


#: A Mitchell on two tables: each table keeps its NS pair, the EW pairs move.
MITCHELL = [
    {"Table": "1", "Round": "1", "NSPair": "1", "EWPair": "1", "LowBoard": "1", "HighBoard": "2"},
    {"Table": "2", "Round": "1", "NSPair": "2", "EWPair": "2", "LowBoard": "3", "HighBoard": "4"},
    {"Table": "1", "Round": "2", "NSPair": "1", "EWPair": "2", "LowBoard": "3", "HighBoard": "4"},
    {"Table": "2", "Round": "2", "NSPair": "2", "EWPair": "1", "LowBoard": "1", "HighBoard": "2"},
]


def _played(movement: list[dict[str, str]], first: int = 1, section: str = "1") -> list[dict]:
    rows, ident = [], first
    for m in movement:
        for b in range(int(m["LowBoard"]), int(m["HighBoard"]) + 1):
            rows.append(
                entry(
                    ident,
                    int(m["Table"]),
                    int(m["Round"]),
                    b,
                    int(m["NSPair"]),
                    int(m["EWPair"]),
                    Section=section,
                )
            )
            ident += 1
    return rows


def test_wrong_direction_in_a_mitchell_is_rejected_as_an_arrow_switch():
    """In a Mitchell NS 2 and EW 2 are two pairs: a result entered 'Wrong direction' cannot be
    turned round by swapping the numbers (NS 2 v EW 1 would become NS 1 v EW 2, and NS 1
    played boards 1-2 at table 1 already). The row is rejected with the reason; every other
    row is read as it is."""
    rows = _played(MITCHELL)
    rows[-1]["Remarks"] = "Wrong direction"  # table 2, round 2: NS 2 v EW 1, board 2
    r = read(rows, movement=MITCHELL)
    assert r.events["movement"].item() == "mitchell"
    assert r.results.height == len(rows) - 1
    bad = r.rejected.row(0, named=True)
    assert r.rejected.height == 1 and bad["location"] == f"ReceivedData ID {rows[-1]['ID']}"
    assert "'Wrong direction' in Mitchell section A" in bad["reason"]
    assert "arrow switch" in bad["reason"]


def test_a_mitchell_section_beside_a_howell_one_is_rejected_with_the_reason():
    """Section A a Mitchell, section B the Howell of :data:`MOVEMENT`: one event session has
    one movement (a Howell, where NS 1 and EW 1 of section A would be one pair): section A's
    rows are rejected naming the two movements, section B's are read."""
    t = tables(_played(MITCHELL) + _played(MOVEMENT, first=100, section="2"))
    rounds = [{"Section": "1", "CustomBoards": None, **m} for m in MITCHELL]
    rounds += [{"Section": "2", "CustomBoards": None, **m} for m in MOVEMENT]
    t["RoundData"] = utf8(rounds, list(t["RoundData"].columns))
    section = t["Section"].row(0, named=True)
    t["Section"] = utf8([section, {**section, "ID": "2", "Letter": "B"}], t["Section"].columns)
    r = tables_to_result(t, "club.bws", "club")
    assert r.events["movement"].item() == "howell"
    assert set(r.results["section"]) == {"B"} and r.results.height == 8
    assert r.rejected.height == 8
    assert all(
        "section A is a Mitchell" in x and "section(s) B a Howell" in x
        for x in r.rejected["reason"]
    )


def test_movement_is_mitchell_when_every_table_keeps_its_ns_pair():
    mitchell = [
        {
            "Table": "1",
            "Round": "1",
            "NSPair": "1",
            "EWPair": "1",
            "LowBoard": "1",
            "HighBoard": "2",
        },
        {
            "Table": "2",
            "Round": "1",
            "NSPair": "2",
            "EWPair": "2",
            "LowBoard": "3",
            "HighBoard": "4",
        },
        {
            "Table": "1",
            "Round": "2",
            "NSPair": "1",
            "EWPair": "2",
            "LowBoard": "3",
            "HighBoard": "4",
        },
        {
            "Table": "2",
            "Round": "2",
            "NSPair": "2",
            "EWPair": "1",
            "LowBoard": "1",
            "HighBoard": "2",
        },
    ]
    rows, ident = [], 1
    for m in mitchell:
        for b in range(int(m["LowBoard"]), int(m["HighBoard"]) + 1):
            rows.append(
                entry(
                    ident, int(m["Table"]), int(m["Round"]), b, int(m["NSPair"]), int(m["EWPair"])
                )
            )
            ident += 1
    r = read(rows, movement=mitchell)
    assert r.events["movement"].item() == "mitchell"
    assert r.rejected.height == 0 and r.warnings.height == 0


def test_event_defaults_without_guid_and_unknown_scoring_type():
    r = read(full_session(), guid=None, scoring_type="2")
    ev = r.events.row(0, named=True)
    assert ev["event_id"] == "club" and ev["scoring"] is None
    assert set(r.results["event_id"]) == {"club"}
    (w,) = r.warnings.iter_rows(named=True)
    assert w["field"] == "ScoringType" and "Section.ScoringType is 2" in w["reason"]


def test_a_database_without_received_data_or_its_columns_is_rejected_whole():
    t = tables(full_session())
    del t["ReceivedData"]
    r = tables_to_result(t, "x.bws", "x")
    assert r.rejected.row(0, named=True)["location"] == "file"
    assert "no ReceivedData table" in r.rejected.row(0, named=True)["reason"]
    t = tables(full_session())
    t["ReceivedData"] = t["ReceivedData"].drop("NS/EW")
    r = tables_to_result(t, "x.bws", "x")
    assert "lacks the column(s) NS/EW" in r.rejected.row(0, named=True)["reason"]
    assert r.rows_read == 9


# --------------------------------------------------------------------------- the tool


def test_without_mdbtools_the_file_is_rejected_naming_the_tool(monkeypatch, tmp_path):
    path = tmp_path / "club.bws"
    path.write_bytes(b"\x00\x01\x00\x00Standard Jet DB\x00" + bytes(100))
    monkeypatch.setattr(bws_module.shutil, "which", lambda name: None)
    r = read_file(path, tmp_path)
    assert r.format == "bws"
    rej = r.rejected.row(0, named=True)
    assert (rej["location"], rej["reason"]) == ("file", MISSING_TOOL)
    assert "apt-get install mdbtools" in MISSING_TOOL


def real_path(name: str) -> Path:
    """A real file from ../shared/realdata; skip when it (or mdbtools) is absent."""
    path = shared_file(REALDATA / name)
    if shutil.which("mdb-export") is None:
        pytest.skip("mdbtools is not installed (make install or .ci/run installs it)")
    return path


@pytest.mark.parametrize("keep", [4096, 100_000])
def test_a_damaged_database_is_rejected_whole_with_mdbtools_message(tmp_path, keep):
    src = real_path(BCS)
    cut = tmp_path / "cut.bws"
    cut.write_bytes(src.read_bytes()[:keep])
    r = read_file(cut, tmp_path)
    assert r.format == "bws" and r.results.height == 0
    rej = r.rejected.row(0, named=True)
    assert rej["location"] == "file"
    assert rej["reason"].startswith("the Bridgemate database cannot be read (mdb-")


# --------------------------------------------------------------------------- real files


@pytest.fixture(scope="module")
def bcs() -> ReadResult:
    return read_file(real_path(BCS), REALDATA)


@pytest.fixture(scope="module")
def bot() -> ReadResult:
    return read_file(real_path(BOT), REALDATA)


def test_bcs_jet3_file_gives_154_results_seven_a_board(bcs):
    r = bcs
    assert r.format == "bws" and r.rows_read == 157 and accounted(r)
    assert r.results.height == 154
    per_board = r.results.group_by("board").len()
    assert sorted(int(b) for b in per_board["board"]) == list(range(1, 23))
    assert set(per_board["len"]) == {7}
    assert set(r.results["section"]) == {"A"}
    assert set(r.results["session_date"]) == {"2019-04-26"}
    assert r.results["contract"].str.contains(r"^([1-7](C|D|H|S|NT)X{0,2}|PASS)$").all()
    assert r.results["entered_at"].str.contains(r"^2019-08-26 (19|2[0-2]):\d\d:\d\d$").all()
    ev = r.events.row(0, named=True)
    assert (ev["date"], ev["movement"], ev["scoring"], ev["form"]) == (
        "2019-04-26",
        "howell",
        "matchpoints",
        "pairs",
    )
    assert ev["event_id"] == "28A937506D0F4014BC868F53FBF4F9B9"


def test_bcs_erased_result_resolves_to_4nt_by_east_plus_one(bcs):
    line = bcs.results.filter(
        pl.col("board") == "12", pl.col("table") == "8", pl.col("round") == "10"
    )
    assert line.select(
        "location", "contract", "declarer", "tricks", "ns_pair", "ew_pair"
    ).rows() == [("ReceivedData ID 8863", "4NT", "E", "11", "11", "4")]
    assert bcs.rejected.height == 0
    rej = superseded(bcs)
    assert set(rej) == {"ReceivedData ID 8859", "ReceivedData ID 8861"}
    assert "superseded by a later entry (ID 8863)" in rej["ReceivedData ID 8859"]["reason"]
    assert "erase" in rej["ReceivedData ID 8861"]["reason"]


def test_bcs_warnings_suspicious_contract_and_the_unnumbered_phantom(bcs):
    warn = {(w["location"], w["field"]) for w in bcs.warnings.iter_rows(named=True)}
    assert warn == {
        ("ReceivedData ID 8754", "SuspiciousContract"),
        ("Section ID 1", "MissingPair"),
        ("ReceivedData ID 8859", "superseded"),
        ("ReceivedData ID 8861", "superseded"),
    }
    assert (
        bcs.warnings.filter(pl.col("field") == "MissingPair")["reason"]
        .item()
        .startswith("pair 16 of section A")
    )


def test_bot_jet4_file_gives_63_results_declarer_from_ns_ew_and_leads(bot):
    r = bot
    assert r.rows_read == 64 and r.results.height == 63 and r.rejected.height == 0
    per_board = r.results.group_by("board").len()
    assert sorted(int(b) for b in per_board["board"]) == list(range(1, 22))
    assert set(per_board["len"]) == {3}
    assert r.results.filter(pl.col("declarer").is_in(["E", "W"])).height == 39
    assert r.results["lead"].null_count() == 1
    assert r.results["lead"].drop_nulls().str.contains(r"^[SHDC](A|K|Q|J|10|[2-9])$").all()
    assert r.results["entered_at"].null_count() == 63  # the file has no DateLog/TimeLog
    # its RoundData is another event's: not used, and said so
    assert "RoundData" in set(r.warnings["field"])
    assert r.events["movement"].item() == "howell"


# --------------------------------------------------------------------------- through the pipeline


def q(db: Path, sql: str) -> pl.DataFrame:
    with duckdb.connect(str(db), read_only=True) as c:
        return c.sql(sql).pl()


@pytest.fixture(scope="module")
def runs(tmp_path_factory, bcs) -> tuple[Path, Path]:
    """The BCS file through the pipeline, and the same accepted results as a results CSV."""
    base = tmp_path_factory.mktemp("bws_runs")
    bws_inbox, csv_inbox = base / "bws_inbox", base / "csv_inbox"
    bws_inbox.mkdir()
    csv_inbox.mkdir()
    shutil.copy(REALDATA / BCS, bws_inbox / BCS)
    cols = list(
        RESULT_COLUMNS[RESULT_COLUMNS.index("event_id") : RESULT_COLUMNS.index("score") + 1]
    )
    bcs.results.select(cols).write_csv(csv_inbox / "results-2019-04-26.csv")
    bws_db, csv_db = base / "bws.duckdb", base / "csv.duckdb"
    for inbox, db in ((bws_inbox, bws_db), (csv_inbox, csv_db)):
        report = run_inbox(inbox, db)
        assert report.failed_checks == []
    return bws_db, csv_db


def test_bcs_file_is_scored_and_every_row_accounted_for(runs):
    bws_db, _ = runs
    scored = q(bws_db, "SELECT count(*) n, count(DISTINCT board) b FROM scored_results")
    assert scored.row(0) == (154, 22)
    acc = Warehouse(bws_db).query("reports/file_accounting")
    row = acc.row(0, named=True)
    assert (row["file"], row["format"], row["rows_read"]) == (BCS, "bws", 157)
    assert (row["rows_accepted"], row["rows_scored"], row["rows_rejected"]) == (155, 154, 0)
    assert row["rows_superseded"] == 2  # IDs 8859 and 8861, replaced by 8863
    assert row["balanced"]
    raw = q(bws_db, "SELECT count(entered_at) n, count(lead) l FROM raw_results")
    assert raw.row(0) == (154, 0)


def test_bws_session_is_scored_and_ranked_exactly_like_the_same_results_as_csv(runs):
    bws_db, csv_db = runs
    sql = "SELECT * FROM standings ORDER BY scope, section, contestant"
    from_bws, from_csv = q(bws_db, sql), q(csv_db, sql)
    assert from_bws.height == 2 * 15  # 15 pairs, session and event standings
    assert from_bws.equals(from_csv)
