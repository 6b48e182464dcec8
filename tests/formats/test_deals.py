"""Hand records: the deals each reader finds (USEBIO HANDSET, PBN [Deal], Bridgemate
HandRecord, a hand-record PBN in the inbox) and the check that keeps them (:mod:`pipelines.deals`).

The real files' hands are compared with the cards as the files write them (no names are read
or printed here); the check's rules (Law 1: 52 cards, 13 to each hand; Law 2 dealer and
vulnerability) are tested on constructed deals.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from pipelines.deals import checked, deal_problem, normal_hand
from pipelines.formats.bws import tables_to_result
from pipelines.formats.model import DEAL_COLUMNS
from pipelines.formats.pbn import pbn_hands, read_pbn
from pipelines.formats.usebio import read_usebio
from pipelines.inbox import scan
from tests.conftest import REALDATA, shared_file
from tests.formats.test_bws import MOVEMENT, full_session, tables, utf8

HOWELL = "compscore_usebio_mp_howell_12p.xml"
FFB = "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn"
REALBRIDGE = "realbridge_teams_imp_30teams_10b.pbn"

#: A constructed deal: each player holds one whole suit (North the spades ... West the clubs).
ONE_SUIT_EACH = {
    "north": "AKQJT98765432...",
    "east": ".AKQJT98765432..",
    "south": "..AKQJT98765432.",
    "west": "...AKQJT98765432",
}


def _deal(**kw: str | None) -> dict[str, str | None]:
    row: dict[str, str | None] = dict.fromkeys(DEAL_COLUMNS)
    row.update(file="f.pbn", location="record 1", event_id="E", session="1", board="1")
    row.update(ONE_SUIT_EACH)
    row.update(kw)
    return row


def _frame(*rows: dict[str, str | None]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema={c: pl.Utf8 for c in DEAL_COLUMNS})


# ------------------------------------------------------------------------- real files


def test_usebio_handset_gives_each_board_its_four_hands_as_written():
    path = shared_file(REALDATA / HOWELL)
    r = read_usebio(path, HOWELL)
    text = path.read_text(encoding="utf-8")
    # board 1's East hand as the file writes it, suit by suit
    handset = text[text.index("<HANDSET>") :]
    east = re.search(r"<DIRECTION>East</DIRECTION>(.*?)</HAND>", handset, re.S)
    assert east is not None
    suits = {s: re.search(rf"<{s}>(\w*)</{s}>", east.group(1)) for s in ("SPADES", "HEARTS")}
    suits |= {s: re.search(rf"<{s}>(\w*)</{s}>", east.group(1)) for s in ("DIAMONDS", "CLUBS")}
    written = ".".join(suits[s].group(1) for s in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"))
    assert written == "J5432.T8.K865.J2"
    first = r.deals.row(0, named=True)
    assert first["board"] == "1" and first["location"] == "HANDSET/BOARD[1]"
    assert first["east"] == written
    # the results' event session; no dealer or vulnerability in the file
    assert (first["event_id"], first["session"]) == (r.results["event_id"][0], "1")
    assert first["dealer"] is None and first["vulnerability"] is None
    kept, warned = checked(r.deals)
    assert kept.height == 27 and warned.height == 0
    # Law 2 fills in what the file does not state
    b = {row["board"]: row for row in kept.to_dicts()}
    assert (b[1]["dealer"], b[1]["vulnerability"]) == ("N", "None")
    assert (b[4]["dealer"], b[4]["vulnerability"]) == ("W", "Both")
    assert (b[16]["dealer"], b[16]["vulnerability"]) == ("W", "EW")


def test_usebio_results_are_read_as_before_the_deals():
    r = read_usebio(shared_file(REALDATA / HOWELL), HOWELL)
    assert r.results.height == 161 and r.rows_read == 161 + 12 + 1


def test_pbn_deal_starts_with_the_seat_it_names():
    path = shared_file(REALDATA / FFB)
    r = read_pbn(path, FFB)
    assert r.deals.height == 30
    # board 2: [Dealer "E"] [Vulnerable "NS"] [Deal "E:Q3.A92.A863.AQ97 T7.KT6.T94.KJT83 ..."]
    text = path.read_bytes().decode("latin-1")
    tag = re.search(r'\[Board "2"\].*?\[Deal "([^"]+)"\]', text, re.S)
    assert tag is not None and tag.group(1).startswith("E:Q3.A92.A863.AQ97 T7.KT6.T94.KJT83 ")
    b2 = r.deals.filter(pl.col("board") == "2").row(0, named=True)
    assert (b2["dealer"], b2["vulnerability"]) == ("E", "NS")
    assert b2["east"] == "Q3.A92.A863.AQ97" and b2["south"] == "T7.KT6.T94.KJT83"
    assert " ".join(b2[s] for s in ("east", "south", "west", "north")) == tag.group(1)[2:]
    kept, warned = checked(r.deals)
    assert kept.height == 30 and warned.height == 0


def test_pbn_records_of_one_board_at_every_table_are_one_deal():
    r = read_pbn(shared_file(REALDATA / REALBRIDGE), REALBRIDGE)
    assert r.deals.height == 299  # a record per table, the deal repeated
    kept, warned = checked(r.deals)
    assert sorted(kept["board"].to_list()) == list(range(11, 21)) and warned.height == 0


# ------------------------------------------------------------------------- constructed


def test_pbn_hands_in_every_starting_seat():
    assert pbn_hands("W:A.B.C.D E.F.G.H I.J.K.L M.N.O.P") == {
        "west": "A.B.C.D",
        "north": "E.F.G.H",
        "east": "I.J.K.L",
        "south": "M.N.O.P",
    }
    assert pbn_hands("N:- - - x.x.x.x")["north"] is None
    assert pbn_hands("not a deal")["east"] is None


def test_a_deal_of_the_pack_is_kept_and_the_files_dealer_and_vulnerability_too():
    kept, warned = checked(_frame(_deal(dealer="s", vulnerability="All")))
    assert warned.height == 0
    row = kept.row(0, named=True)
    assert (row["dealer"], row["vulnerability"], row["section"]) == ("S", "Both", None)
    kept, _ = checked(_frame(_deal(board="3", vulnerability="Love")))
    assert (kept["dealer"][0], kept["vulnerability"][0]) == ("S", "None")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"north": "AKQJT9876543..."}, "north", "12 cards, not 13"),
        ({"north": "AKQJT98765432.."}, "north", "not four suits"),
        ({"east": ".AKQJT9876543X.."}, "east", "not a rank"),
        ({"west": "..AKQJT98765432."}, "deal", "39 different cards"),
        ({"south": None}, "south", "not given"),
        ({"board": "x"}, "board", "not a number"),
    ],
)
def test_a_deal_that_is_not_one_of_the_pack_is_a_warning_naming_the_hand(change, field, words):
    kept, warned = checked(_frame(_deal(**change)))
    assert kept.height == 0 and warned.height == 1
    w = warned.row(0, named=True)
    assert (w["file"], w["location"], w["field"]) == ("f.pbn", "record 1", field)
    assert words in w["reason"] and "no diagram" in w["reason"]


def test_one_board_given_with_two_different_deals_keeps_neither():
    other = _deal(location="record 2", north="..AKQJT98765432.", south="AKQJT98765432...")
    same = _deal(location="record 3")
    kept, warned = checked(_frame(_deal(), other, same))
    assert kept.height == 0 and warned.height == 1
    assert "different cards at record 1" in warned["reason"][0]


def test_ten_written_10_and_lower_case_ranks_are_the_same_cards():
    assert normal_hand("k10.a2.qj3.t98765") == "KT.A2.QJ3.T98765"
    assert deal_problem({**ONE_SUIT_EACH}) is None


def test_bws_hand_record_gives_the_section_letter_and_law_2_dealer():
    t = tables(full_session())
    cols = ["Section", "Board"] + [
        f"{seat}{suit}"
        for seat in ("North", "East", "South", "West")
        for suit in ("Spades", "Hearts", "Diamonds", "Clubs")
    ]
    row = {"Section": "1", "Board": "2"}
    for seat, suit in (("North", "Spades"), ("East", "Hearts"), ("South", "Diamonds")):
        row[f"{seat}{suit}"] = "AKQJT98765432"
    row["WestClubs"] = "AKQJT98765432"
    t["HandRecord"] = utf8([row], cols)
    r = tables_to_result(t, "club.bws", "club")
    kept, warned = checked(r.deals)
    assert warned.height == 0
    deal = kept.row(0, named=True)
    assert (deal["section"], deal["board"], deal["dealer"], deal["vulnerability"]) == (
        "A",
        2,
        "E",
        "NS",
    )
    assert deal["north"] == "AKQJT98765432..." and deal["west"] == "...AKQJT98765432"
    # without a HandRecord table the file has no deals, and its results are unchanged
    without = tables_to_result(tables(full_session()), "club.bws", "club")
    assert without.deals.height == 0 and without.results.equals(r.results)


def test_a_hand_record_pbn_in_the_inbox_gives_deals_and_nothing_to_account_for(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results.csv").write_text(
        "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,"
        "tricks,score\nclub-night,1,A,1,1,1,1,2,4S,N,10,420\nclub-night,1,A,1,2,1,3,4,4S,N,9,-50\n",
        encoding="utf-8",
    )
    (inbox / "events.csv").write_text(
        "event_id,session,date\nclub-night,1,2026-03-05\n", encoding="utf-8"
    )
    hands = " ".join(ONE_SUIT_EACH[s] for s in ("north", "east", "south", "west"))
    (inbox / "hands.pbn").write_text(
        f'[Event "club-night"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        f'[Deal "N:{hands}"]\n',
        encoding="utf-8",
    )
    snap = scan(inbox)
    assert snap.rejected.height == 0
    assert snap.deals.select("event_id", "session", "section", "board").row(0) == (
        "club-night",
        1,
        None,
        1,
    )
    assert snap.events.height == 1  # the hand record names no event of its own


# ------------------------------------------------------------------------- .bws names


PLAYER_COLUMNS = ["Section", "Table", "Direction", "Number", "Name", "Updated", "Processed"]
PLAYER_COLUMNS += ["TimeLog", "Round"]


def test_bws_player_numbers_name_the_pairs_seated_there_by_round_data():
    t = tables(full_session())
    first = next(m for m in MOVEMENT if (m["Table"], m["Round"]) == ("1", "1"))
    t["PlayerNumbers"] = utf8(
        [
            {"Section": "1", "Table": "1", "Direction": "N", "Number": "9001", "Name": "Ann"},
            {"Section": "1", "Table": "1", "Direction": "S", "Number": "9002", "Name": None},
            {"Section": "1", "Table": "1", "Direction": "E", "Number": "9003", "Name": "<b>C</b>"},
            {"Section": "1", "Table": "1", "Direction": "W", "Number": None, "Name": None},
        ],
        PLAYER_COLUMNS,
    )
    t["PlayerNames"] = utf8([{"ID": "1", "Name": "Bob", "strID": "9002"}], ["ID", "Name", "strID"])
    r = tables_to_result(t, "club.bws", "club")
    got = {row["contestant"]: row for row in r.contestants.to_dicts()}
    assert got[first["NSPair"]]["names"] == "Ann & Bob"
    assert got[first["NSPair"]]["player_ids"] == "9001;9002"
    assert got[first["EWPair"]]["names"] == "<b>C</b>"
    assert {row["section"] for row in got.values()} == {"A"}
    # every contestant row is counted as read
    assert r.rows_read == len(full_session()) + 1 + 2
