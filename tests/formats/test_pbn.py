"""The PBN reader on small inline files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.formats import read_file
from pipelines.formats.pbn import (
    movement_from_ranking,
    parse_pbn,
    read_pbn,
    side_score,
    table_score,
    tokens,
)
from pipelines.profiles import detect

SCORE_HEADER = (
    '[ScoreTable "Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\3L;Declarer\\1R;'
    'Result\\2R;Lead\\3L;Score_NS\\6R;Score_EW\\6R;MP_NS\\4R;MP_EW\\4R"]'
)
TOTAL_HEADER = (
    '[TotalScoreTable "Rank\\2R;PairId\\2R;Table\\2R;Direction\\5R;TotalScoreMP\\5R;'
    'TotalPercentage\\5R;Tiebreak\\3L;Names\\40L;NrBoards\\2R;MemberID1\\10R;MemberID2\\10R"]'
)

PAIRS_PBN = f"""% PBN 2.0
% <META  name=Generator                  content="Magic Contest France">
% <META  name=ContestID                  content="4711">
% <META  name=CRSession                  content="2">
% <META  name=ScoringType                content="MatchPoints;MP1">

[Event "Club Séance"]
[Date "2024.03.05"]
[Board "1"]
[Scoring "MatchPoints;MP1"]
[Competition "Pairs"]
{TOTAL_HEADER}
 1  1  1 "N-S" 10.0 62.50 -   "Anne ÉTÉ - Bob B"   2 "001" "002"
 1  2  1 "E-W"  8.0 50.00 "1" "Cat C - Dan D"     2 "003" "004"
 2  3  2 "N-S"  6.0 37.50 "0" "Eve E - Fay F"     2 "005" -
{SCORE_HEADER}
 1  1  1  2 3N  S  9 D3   "400"      -  2.0  0.0
 2  1  3  4 4SX W 10 -        -    "590"  0.0  2.0
 3  1  5  6 -   -  - -     "A+"   "A-"  1.2  0.8
 4  1  7  8 Pass - - -       "0"      -  1.0  1.0
 5  1  9 10 4S  N
[OptimumScore "NS 420"]
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N  S 10

[Event "#"]
[Date "#"]
[Board "2"]
{SCORE_HEADER}
 1  1  1  2 1N  S  7 D3       -   "50"  1.0  1.0
 2  1  3  4 -   -  - -     "A60"  "A40"  1.2  0.8
"""


def read(tmp_path: Path, text: str, encoding: str = "utf-8", name: str = "s.pbn"):
    """Write ``text`` in ``encoding`` and read it with the PBN reader."""
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return read_pbn(path, name)


def test_score_tables_become_results(tmp_path: Path) -> None:
    result = read(tmp_path, PAIRS_PBN)
    assert result.format == "pbn"
    rows = result.results.to_dicts()
    assert [r["location"] for r in rows] == [
        "board 1 ScoreTable row 1",
        "board 1 ScoreTable row 2",
        "board 1 ScoreTable row 3",
        "board 1 ScoreTable row 4",
        "board 2 ScoreTable row 1",
        "board 2 ScoreTable row 2",
    ]
    assert [r["contract"] for r in rows] == ["3NT", "4SX", None, "PASS", "1NT", None]
    assert [r["declarer"] for r in rows] == ["S", "W", None, None, "S", None]
    assert [r["tricks"] for r in rows] == ["9", "10", None, None, "7", None]
    assert [r["score"] for r in rows] == ["400", "-590", "A+/-", "0", "-50", "A60/40"]
    assert [r["board"] for r in rows] == ["1", "1", "1", "1", "2", "2"]
    assert [(r["table"], r["round"], r["ns_pair"], r["ew_pair"]) for r in rows][1] == (
        "2",
        "1",
        "3",
        "4",
    )
    assert [r["source_ns_mp"] for r in rows][:3] == ["2.0", "0.0", "1.2"]
    assert {r["event_id"] for r in rows} == {"4711"}
    assert {r["session"] for r in rows} == {"2"}
    assert {r["session_date"] for r in rows} == {"2024-03-05"}
    rej = result.rejected.to_dicts()
    assert [r["location"] for r in rej] == ["board 1 ScoreTable row 5"]
    assert rej[0]["reason"] == "ScoreTable row has 6 values, the header names 12 columns"
    assert result.rows_read == 6 + 1 + 3 + 1


def test_event_row_from_header(tmp_path: Path) -> None:
    event = read(tmp_path, PAIRS_PBN).events.row(0, named=True)
    assert event["location"] == "header"
    assert (event["event_id"], event["session"], event["date"]) == ("4711", "2", "2024-03-05")
    assert event["name"] == "Club Séance"
    assert (event["form"], event["scoring"], event["program"]) == (
        "pairs",
        "matchpoints",
        "Magic Contest France",
    )
    assert detect(event["program"]) == "ffb"
    assert event["movement"] == "mitchell"


def test_total_score_table_gives_standings_and_contestants(tmp_path: Path) -> None:
    result = read(tmp_path, PAIRS_PBN)
    stand = result.source_standings.to_dicts()
    assert [
        (s["contestant"], s["direction"], s["total"], s["percentage"], s["place"], s["tiebreak"])
        for s in stand
    ] == [
        ("1", "NS", "10.0", "62.50", "1", None),
        ("2", "EW", "8.0", "50.00", "1", "1"),
        ("3", "NS", "6.0", "37.50", "2", "0"),
    ]
    cont = result.contestants.to_dicts()
    assert cont[0]["names"] == "Anne ÉTÉ - Bob B"
    assert [c["player_ids"] for c in cont] == ["001;002", "003;004", "005"]
    assert cont[0]["location"] == "board 1 TotalScoreTable row 1"


def test_latin1_file_is_decoded(tmp_path: Path) -> None:
    result = read(tmp_path, PAIRS_PBN, encoding="latin-1")
    assert result.contestants["names"][0] == "Anne ÉTÉ - Bob B"
    assert result.events["name"][0] == "Club Séance"


def test_meta_less_file_uses_event_tag_and_session_one(tmp_path: Path) -> None:
    text = "\n".join(ln for ln in PAIRS_PBN.splitlines() if not ln.startswith("%"))
    event = read(tmp_path, text).events.row(0, named=True)
    assert (event["event_id"], event["session"], event["profile"]) == ("Club Séance", "1", None)
    assert event["program"] is None
    assert event["scoring"] == "matchpoints"


TEAMS_PBN = """% PBN 2.1
[Event "Online Teams"]
[Date "2021.08.23"]
[Board "11"]
[Scoring "IMP"]
[Declarer "N"]
[Contract "1NT"]
[Result "8"]
[Auction "S"]
1C Pass 1NT Pass
Pass Pass
[Score "NS 120"]
[Table "4"]
[HomeTeam "RED"]
[VisitTeam "BLUE"]
[ScoreIMP "NS 1 EW -1"]
[Competition "Teams"]

[Event "Online Teams"]
[Board "11"]
[Declarer "E"]
[Contract "4Sx"]
[Result "9"]
[Score "EW -100"]
[Table "5"]
[HomeTeam "BLUE"]
[VisitTeam "RED"]

[Event "Online Teams"]
[Board "12"]
[Declarer ""]
[Contract "Pass"]
[Result ""]
[Table "5"]
[HomeTeam "GREEN"]
[VisitTeam "WHITE"]

[Event "Online Teams"]
[Board "13"]
[Deal "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"]
[Contract ""]
"""


def test_teams_records_become_results(tmp_path: Path) -> None:
    result = read(tmp_path, TEAMS_PBN)
    rows = result.results.to_dicts()
    assert [r["location"] for r in rows] == ["record 1", "record 2", "record 3"]
    assert [(r["ns_pair"], r["ew_pair"], r["table"]) for r in rows] == [
        ("RED", "BLUE", "4"),
        ("BLUE", "RED", "5"),
        ("GREEN", "WHITE", "5"),
    ]
    # record 3: "Pass" with no Score and no Result is a table that recorded nothing (a real
    # pass-out carries [Score "NS 0"]): kept as not played, with a warning
    assert [r["contract"] for r in rows] == ["1NT", "4SX", None]
    assert [r["declarer"] for r in rows] == ["N", "E", None]
    assert [r["tricks"] for r in rows] == ["8", "9", None]
    assert [r["score"] for r in rows] == ["120", "100", "NP"]
    warned = result.warnings.to_dicts()
    assert [(w["location"], w["field"]) for w in warned] == [("record 3", "Score")]
    assert "not played" in warned[0]["reason"]
    assert [r["source_ns_mp"] for r in rows] == ["1", None, None]
    event = result.events.row(0, named=True)
    assert (event["form"], event["scoring"], event["date"]) == ("teams", "imps", "2021-08-23")
    assert event["movement"] is None
    assert result.rows_read == 3 + 0 + 1


def test_parser_details() -> None:
    assert tokens(' 1  2 "A B" - "x\\"y"') == ["1", "2", "A B", "-", 'x"y']
    pbn = parse_pbn('[Event "E"]\n{ a comment\n[Board "9"]\n}\n[Board "1"]\n\n[Event "#"]\n')
    assert [r.tags for r in pbn.records] == [{"Event": "E", "Board": "1"}, {"Event": "E"}]


@pytest.mark.parametrize(
    ("ns", "ew", "expected"),
    [
        ("420", "-", "420"),
        ("-", "50", "-50"),
        ("-", "-50", "50"),
        ("-", "0", "0"),
        ("A+", "A+", "A+/+"),
        ("A-", "A+", "A-/+"),
        ("A=", "A=", "A=/="),
        ("A", "A", "A=/="),
        ("A", "A+", "A=/+"),
        ("A-", "A", "A-/="),
        ("A60", "A40", "A60/40"),
        ("-", "-", None),
        ("A60", "-", "A60"),
    ],
)
def test_table_score(ns: str, ew: str, expected: str | None) -> None:
    assert table_score(ns, ew) == expected


def test_side_score_and_movement() -> None:
    assert side_score("NS 420") == "420"
    assert side_score("EW 420") == "-420"
    assert side_score("EW -50") == "50"
    assert side_score("") is None
    one_field = [{"Rank": str(i), "Direction": "N-S" if i % 2 else "E-W"} for i in range(1, 7)]
    assert movement_from_ranking(one_field) == "howell"
    two_fields = [{"Rank": str(i), "Direction": d} for d in ("N-S", "E-W") for i in (1, 2, 3)]
    assert movement_from_ranking(two_fields) == "mitchell"
    assert movement_from_ranking([]) is None


def test_pbn_without_records_is_rejected(tmp_path: Path) -> None:
    result = read(tmp_path, "% PBN 2.1\n% nothing here\n")
    assert result.rejected["location"].to_list() == ["file"]


def test_read_file_dispatches_pbn_by_content(tmp_path: Path) -> None:
    path = tmp_path / "results.txt"
    path.write_text(TEAMS_PBN, encoding="utf-8")
    assert read_file(path, tmp_path).format == "pbn"


def test_a_file_without_a_date_tag_is_dated_by_its_name(tmp_path: Path) -> None:
    # as every format: "put the date (YYYY-MM-DD) in the file name" dates an undated file
    undated = PAIRS_PBN.replace('[Date "2024.03.05"]\n', "")
    event = read(tmp_path, undated, name="club-2024-03-06.pbn").events.row(0, named=True)
    assert event["date"] == "2024-03-06"
    assert read(tmp_path, undated, name="club.pbn").events.row(0, named=True)["date"] is None
    tagged = read(tmp_path, PAIRS_PBN, name="club-2024-03-06.pbn").events.row(0, named=True)
    assert tagged["date"] == "2024-03-05"  # the file's own Date tag comes first


def _section_record(section: str, scores: tuple[str, str], names: str) -> str:
    return f"""[Event "#"]
[Date "#"]
[Board "1"]
[Section "{section}"]
{TOTAL_HEADER}
 1  1  1 "N-S"  1.0 100.00 -   "{names} One"   1 - -
 1  1  1 "E-W"  1.0 100.00 -   "{names} Two"   1 - -
 2  2  2 "N-S"  0.0   0.00 -   "{names} Three" 1 - -
 2  2  2 "E-W"  0.0   0.00 -   "{names} Four"  1 - -
{SCORE_HEADER}
 1  1  1  1 4S  N {TRICKS[scores[0]]} -   "{scores[0]}"  -  1.0  0.0
 2  1  2  2 4S  N {TRICKS[scores[1]]} -   "{scores[1]}"  -  0.0  1.0
"""


TRICKS = {"420": 10, "450": 11}


def _two_sections() -> str:
    head = PAIRS_PBN[: PAIRS_PBN.index('[Event "Club')]
    return (
        head
        + '[Event "Club Séance"]\n[Date "2024.03.05"]\n[Scoring "MatchPoints;MP1"]\n'
        + '[Competition "Pairs"]\n'
        + _section_record("A", ("450", "420"), "Alpha")[len('[Event "#"]\n[Date "#"]\n') :]
        + "\n"
        + _section_record("B", ("420", "450"), "Beta")
    )


def test_a_section_tag_puts_each_records_rows_in_its_section(tmp_path: Path) -> None:
    """Two sections of one session, each its own records of board 1 with a ``[Section]`` tag
    (a PBN 2.x supplemental tag): each section's results, standings and pairs are its own,
    each row located in its section. (The tag was not read: section B's 1 NS was taken for
    section A's, its results rejected as a second result of one pair on one board and its
    pairs as listed twice.)"""
    result = read(tmp_path, _two_sections())
    assert result.rejected.height == 0, result.rejected.to_dicts()
    rows = result.results.to_dicts()
    assert [(r["section"], r["ns_pair"], r["score"]) for r in rows] == [
        ("A", "1", "450"),
        ("A", "2", "420"),
        ("B", "1", "420"),
        ("B", "2", "450"),
    ]
    assert len({r["location"] for r in rows}) == 4
    assert rows[2]["location"] == "section B board 1 ScoreTable row 1"
    cont = result.contestants.to_dicts()
    assert [(c["section"], c["names"]) for c in cont][::4] == [
        ("A", "Alpha One"),
        ("B", "Beta One"),
    ]
    assert len({c["location"] for c in cont}) == 8


def test_two_sections_of_a_pbn_file_are_ranked_apart(tmp_path: Path) -> None:
    """The run scores the two sections of the file above as two fields, nothing rejected:
    in A pair 1 NS made the better score, in B pair 2 NS; each pair has its own names."""
    import duckdb

    from pipelines.runner import run_inbox

    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "s.pbn").write_text(_two_sections(), encoding="utf-8")
    report = run_inbox(tmp_path / "inbox", tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert report.failed_checks == [] and report.held_events == []
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as c:
        assert c.sql("SELECT count(*) FROM rejected_inputs").fetchall() == [(0,)]
        got = c.sql(
            "SELECT section, contestant, names, percentage FROM standings "
            "WHERE scope = 'session' AND direction = 'NS' ORDER BY section, contestant"
        ).fetchall()
    assert got == [
        ("A", "1", "Alpha One", 100.0),
        ("A", "2", "Alpha Three", 0.0),
        ("B", "1", "Beta One", 0.0),
        ("B", "2", "Beta Three", 100.0),
    ]


PLAIN_AVERAGE_PBN = f"""% PBN 2.0
% <META  name=Generator                  content="Magic Contest France">
% <META  name=ContestID                  content="4712">
% <META  name=ScoringType                content="MatchPoints;MP1">

[Event "Club Séance"]
[Date "2024.03.05"]
[Board "1"]
[Scoring "MatchPoints;MP1"]
[Competition "Pairs"]
{SCORE_HEADER}
 1  1  1  2 3N  S  9 D3   "400"      -  4.0  0.0
 2  1  3  4 3N  S  8 D3       -   "50"  0.0  4.0
 3  1  5  6 -   -  - -      "A"    "A"  2.0  2.0
"""


def test_a_bare_a_is_an_average_and_is_scored(tmp_path: Path) -> None:
    """``"A"``/``"A"`` in a ScoreTable is an average (Law 12C2(a): 50 %), like ``A=``: the
    line is read as ``A=/=`` and scored 50 % of the full top of 4 (2.0 each); the two played
    results are compared with each other and scaled to that top (the ffb profile: linearly,
    2 and 0 on a top of 2 -> 4.0 and 0.0). (It was read as ``A/``, rejected as no score.)"""
    import polars as pl

    from pipelines.inbox import scan
    from pipelines.scoring.score import score_results
    from pipelines.scoring.validate import validate_results

    result = read(tmp_path, PLAIN_AVERAGE_PBN)
    assert result.results["score"].to_list() == ["400", "-50", "A=/="]
    snap = scan(tmp_path)
    validated, rejected = validate_results(snap.results, snap.events)
    assert rejected.height == 0, rejected
    scored = score_results(validated).sort("ns_pair")
    got = scored.select("ns_pair", "ns_mp_display", "ew_mp_display").rows()
    assert got == [("1", 4.0, 0.0), ("3", 0.0, 4.0), ("5", 2.0, 2.0)]
    assert scored.filter(pl.col("ns_pair") == "5")["kind"].to_list() == ["artificial"]
