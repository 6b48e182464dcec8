"""The hand-record CSV (``hands*.csv``): recognised by its header, each row a board's deal,
every row that is not a deal of the pack rejected at its line with the field and the reason
(Law 1: 13 cards to each hand, the 52 once; Law 2: the dealer and vulnerability of the board
number where the file gives none), and the rows accounted for in the inbox."""

from __future__ import annotations

from pathlib import Path

from pipelines.formats import detect_format, read_file
from pipelines.inbox import scan

# board 1 of a real dealing: each hand 13 cards, the 52 once
N1, E1, S1, W1 = "JT65.T96.86.K974", "Q987.AJ32.J52.A2", "AK.874.743.QJ853", "432.KQ5.AKQT9.T6"
HEADER = "event_id,session,section,board,dealer,vulnerability,north,east,south,west\n"


def _deal(n: str = N1, e: str = E1, s: str = S1, w: str = W1) -> str:
    return f"{n},{e},{s},{w}"


def write(tmp_path: Path, text: str, name: str = "hands-e1.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_hand_record_csv_is_read_as_deals(tmp_path: Path) -> None:
    text = (
        HEADER
        + f"E1,1,,1,,,{_deal()}\n"  # no dealer, no vulnerability: Law 2's from the number
        + f"E1,1,A,2,East,n-s,{_deal(n=N1.replace('T', '10'))}\n"  # 10 for the ten
    )
    path = write(tmp_path, text)
    assert detect_format(path) == "hands_csv"
    r = read_file(path, tmp_path)
    assert r.format == "hands_csv" and r.rows_read == 2 and r.rejected.height == 0
    rows = r.deals.to_dicts()
    assert [(d["location"], d["board"], d["section"]) for d in rows] == [
        ("line 2", "1", None),
        ("line 3", "2", "A"),
    ]
    assert (rows[1]["dealer"], rows[1]["vulnerability"]) == ("E", "NS")
    assert rows[0]["dealer"] is None and rows[0]["vulnerability"] is None


def test_a_results_file_naming_the_four_players_is_not_a_hand_record(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "event_id,session,board,north,south,east,west,contract,declarer,tricks\n"
        "I1,1,1,P1,P2,P3,P4,4S,N,10\n",
        "results.csv",
    )
    assert detect_format(path) == "results_csv"


def test_every_row_that_is_not_a_deal_is_rejected_at_its_line(tmp_path: Path) -> None:
    twelve = N1[:-1]  # North's last club gone: 12 cards
    dup_spade = _deal(e=E1.replace("Q987", "J987"))  # East holds North's jack of spades
    text = (
        HEADER
        + f"E1,1,,1,,,{_deal()}\n"  # line 2: kept
        + f",1,,2,,,{_deal()}\n"  # 3: no event
        + f"E1,1,,two,,,{_deal()}\n"  # 4: board not a number
        + f"E1,x,,3,,,{_deal()}\n"  # 5: session not a number
        + f"E1,1,,4,Z,,{_deal()}\n"  # 6: no such dealer
        + f"E1,1,,5,,Some,{_deal()}\n"  # 7: no such vulnerability
        + f"E1,1,,6,,,{_deal(n=twelve)}\n"  # 8: 12 cards
        + f"E1,1,,7,,,{dup_spade}\n"  # 9: the jack of spades twice, the queen nowhere
        + f"E1,1,,8,,,{_deal(w=W1.replace('T6', 'X6'))}\n"  # 10: X is not a rank
        + f"E1,1,,1,,,{_deal()}\n"  # 11: board 1 again
        + "E1,1,,9,,\n"  # 12: ragged
    )
    r = read_file(write(tmp_path, text), tmp_path)
    assert r.rows_read == 11
    assert [d["location"] for d in r.deals.to_dicts()] == ["line 2"]
    got = {x["location"]: (x["field"], x["reason"]) for x in r.rejected.to_dicts()}
    assert set(got) == {f"line {n}" for n in range(3, 13)}
    assert got["line 3"][0] == "event_id"
    assert got["line 4"] == ("board", "board 'two' is not a number from 1")
    assert got["line 5"][0] == "session"
    assert got["line 6"] == ("dealer", "dealer 'Z' is not N, E, S or W")
    assert got["line 7"][0] == "vulnerability"
    assert got["line 8"][0] == "north" and "holds 12 cards, not 13" in got["line 8"][1]
    assert got["line 9"][0] == "deal"
    assert "51 different cards, not the 52 of the pack" in got["line 9"][1]
    assert got["line 10"][0] == "west" and "'X'" in got["line 10"][1]
    assert got["line 11"] == ("board", "board 1 of session 1 is given already at line 2")


def test_the_inbox_accounts_for_every_row_of_a_hand_record(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    write(inbox, HEADER + f"E1,1,,1,,,{_deal()}\nE1,1,,2,,,{_deal(n=N1[:-1])}\n")
    snap = scan(inbox)
    files = snap.files.to_dicts()[0]
    assert (files["rows_read"], files["rows_reference"], files["rows_rejected"]) == (2, 1, 1)
    assert snap.deals.height == 1
    # Law 2 for board 1: North deals, nobody vulnerable
    assert snap.deals.select("dealer", "vulnerability").row(0) == ("N", "None")
