"""The USEBIO XML reader on small inline files, including hostile and broken XML."""

from __future__ import annotations

import time
from pathlib import Path

from pipelines.formats import read_file
from pipelines.formats.usebio import event_form_scoring, read_usebio
from pipelines.profiles import detect

PAIRS = """
<PARTICIPANTS>
  <PAIR><PAIR_NUMBER>1NS</PAIR_NUMBER><DIRECTION>NS</DIRECTION><TOTAL_SCORE>12.5</TOTAL_SCORE>
    <PERCENTAGE>62.50</PERCENTAGE><PLACE>1</PLACE>
    <PLAYER><PLAYER_NAME>Ann Example</PLAYER_NAME><NATIONAL_ID_NUMBER>11</NATIONAL_ID_NUMBER>
    </PLAYER>
    <PLAYER><PLAYER_NAME>Bob Example</PLAYER_NAME><NATIONAL_ID_NUMBER>22</NATIONAL_ID_NUMBER>
    </PLAYER></PAIR>
  <PAIR><PAIR_NUMBER>1EW</PAIR_NUMBER><DIRECTION>EW</DIRECTION><TOTAL_SCORE>7.5</TOTAL_SCORE>
    <PLACE>2</PLACE><PLAYER><PLAYER_NAME>Cat Example</PLAYER_NAME></PLAYER></PAIR>
</PARTICIPANTS>
"""

BOARDS = """
<BOARD EVENT_TYPE="MP_PAIRS"><BOARD_NUMBER>1</BOARD_NUMBER>
  <TRAVELLER_LINE><NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>
    <CONTRACT>4Hx</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>10</TRICKS><SCORE>590</SCORE>
    <NS_MATCH_POINTS>2</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE>
  <TRAVELLER_LINE><NS_PAIR_NUMBER>2NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2EW</EW_PAIR_NUMBER>
    <SCORE>A4060</SCORE><NS_MATCH_POINTS>0.8</NS_MATCH_POINTS>
    <EW_MATCH_POINTS>1.2</EW_MATCH_POINTS></TRAVELLER_LINE>
</BOARD>
<BOARD><BOARD_NUMBER>2</BOARD_NUMBER>
  <TRAVELLER_LINE><NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER>
    <CONTRACT>3N</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>9</TRICKS><SCORE>400</SCORE>
    </TRAVELLER_LINE>
</BOARD>
"""


def usebio(body: str, event_type: str = "MP_PAIRS", header: str = "") -> str:
    """A small USEBIO document with ``body`` inside its EVENT."""
    return f"""<?xml version="1.0"?>
<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">
<USEBIO Version="1.2">
<CLUB><CLUB_ID_NUMBER>77</CLUB_ID_NUMBER></CLUB>
<EVENT EVENT_TYPE="{event_type}">
  <EVENT_IDENTIFIER>501</EVENT_IDENTIFIER>
  <EVENT_DESCRIPTION>Tuesday Pairs</EVENT_DESCRIPTION>
  <PROGRAM_NAME>Compscore3</PROGRAM_NAME>
  <WINNER_TYPE>2</WINNER_TYPE>
  <DATE>05/03/2024</DATE>{header}
  {body}
</EVENT>
<HANDSET><BOARD><BOARD_NUMBER>1</BOARD_NUMBER></BOARD></HANDSET>
</USEBIO>
"""


def read(tmp_path: Path, text: str, name: str = "event.xml"):
    """Write ``text`` and read it with the USEBIO reader."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_usebio(path, name)


def test_flat_usebio_file(tmp_path: Path) -> None:
    result = read(tmp_path, usebio(PAIRS + BOARDS))
    assert result.format == "usebio"
    assert result.rejected.height == 0
    assert result.rows_read == 3 + 2 + 1
    event = result.events.row(0, named=True)
    assert event["location"] == "EVENT"
    # the date as written: its order is read with the event's profile (scoring/dates.py)
    assert (event["event_id"], event["session"], event["date"]) == ("77-501", "1", "05/03/2024")
    assert result.dates_written == ("05/03/2024",)
    assert (event["form"], event["scoring"], event["movement"], event["program"]) == (
        "pairs",
        "matchpoints",
        "mitchell",
        "Compscore3",
    )
    assert detect(event["program"]) == "abf"  # the profile is chosen from the program
    assert event["name"] == "Tuesday Pairs"
    res = result.results.to_dicts()
    assert [r["location"] for r in res] == [
        "EVENT/BOARD[1]/TRAVELLER_LINE[1]",
        "EVENT/BOARD[1]/TRAVELLER_LINE[2]",
        "EVENT/BOARD[2]/TRAVELLER_LINE[1]",
    ]
    assert [r["contract"] for r in res] == ["4HX", None, "3NT"]
    assert [r["score"] for r in res] == ["590", "A40/60", "400"]
    assert [(r["ns_pair"], r["ew_pair"]) for r in res] == [("1", "1"), ("2", "2"), ("1", "1")]
    assert [r["source_ns_mp"] for r in res] == ["2", "0.8", None]
    assert {r["session_date"] for r in res} == {"05/03/2024"}
    assert {r["format"] for r in res} == {"usebio"}
    cont = result.contestants.to_dicts()
    assert [(c["contestant"], c["direction"]) for c in cont] == [("1", "NS"), ("1", "EW")]
    assert cont[0]["names"] == "Ann Example & Bob Example"
    assert cont[0]["player_ids"] == "11;22"
    assert cont[1]["player_ids"] is None
    stand = result.source_standings.to_dicts()
    assert [(s["total"], s["percentage"], s["place"]) for s in stand] == [
        ("12.5", "62.50", "1"),
        ("7.5", None, "2"),
    ]
    assert stand[0]["location"] == "EVENT/PARTICIPANTS[1]/PAIR[1]"


def test_event_types_and_defaults(tmp_path: Path) -> None:
    assert event_form_scoring("BUTLER_PAIRS") == ("pairs", "butler")
    assert event_form_scoring("CROSS_IMP") == ("pairs", "cross_imps")
    assert event_form_scoring("SWISS_TEAMS") == ("teams", "imps")
    assert event_form_scoring("MP_PAIRS") == ("pairs", "matchpoints")
    text = (
        usebio(BOARDS)
        .replace("<WINNER_TYPE>2</WINNER_TYPE>", "")
        .replace("<PROGRAM_NAME>Compscore3</PROGRAM_NAME>", "<PROGRAM_NAME>EBUScore</PROGRAM_NAME>")
    )
    event = read(tmp_path, text).events.row(0, named=True)
    assert event["movement"] == "howell"
    assert event["profile"] is None and detect(event["program"]) == "ebu"


def test_event_id_falls_back_to_identifier_then_file_stem(tmp_path: Path) -> None:
    no_club = usebio(BOARDS).replace("<CLUB><CLUB_ID_NUMBER>77</CLUB_ID_NUMBER></CLUB>", "")
    assert read(tmp_path, no_club).events["event_id"][0] == "501"
    bare = no_club.replace("<EVENT_IDENTIFIER>501</EVENT_IDENTIFIER>", "")
    assert read(tmp_path, bare, "club night.xml").results["event_id"][0] == "club night"


def test_nested_sessions_and_sections(tmp_path: Path) -> None:
    body = (
        "<SESSION><SESSION_NUMBER>2</SESSION_NUMBER><DATE>06/03/2024</DATE>"
        "<SECTION><SECTION_ID>B</SECTION_ID>" + PAIRS + BOARDS + "</SECTION></SESSION>"
    )
    result = read(tmp_path, usebio(body))
    assert result.events["location"].to_list() == ["EVENT/SESSION[1]"]
    assert result.events["session"].to_list() == ["2"]
    assert result.events["date"].to_list() == ["06/03/2024"]
    assert result.dates_written == ("05/03/2024", "06/03/2024")
    res = result.results
    assert res["session"].unique().to_list() == ["2"]
    assert res["section"].unique().to_list() == ["B"]
    assert res["session_date"].unique().to_list() == ["06/03/2024"]
    assert res["location"][0] == "EVENT/SESSION[1]/SECTION[1]/BOARD[1]/TRAVELLER_LINE[1]"
    assert result.source_standings["section"].to_list() == ["B", "B"]
    assert result.rows_read == 3 + 2 + 1


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    entities = "".join(f'<!ENTITY e{i} "&e{i - 1};&e{i - 1};&e{i - 1};">' for i in range(1, 20))
    text = (
        f'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY e0 "lol">{entities}]>\n'
        "<USEBIO><EVENT><EVENT_DESCRIPTION>&e19;</EVENT_DESCRIPTION></EVENT></USEBIO>"
    )
    start = time.perf_counter()
    result = read(tmp_path, text)
    assert time.perf_counter() - start < 2
    assert result.results.height == 0 and result.events.height == 0
    rej = result.rejected.row(0, named=True)
    assert rej["location"] == "file"
    assert "declares entities: entities are refused for safety" in rej["reason"]


def test_external_entity_is_refused(tmp_path: Path) -> None:
    text = (
        '<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        "<USEBIO><EVENT><EVENT_DESCRIPTION>&x;</EVENT_DESCRIPTION></EVENT></USEBIO>"
    )
    result = read(tmp_path, text)
    reason = result.rejected["reason"][0]
    assert "declares an external entity (file:///etc/passwd)" in reason
    assert "external entities are refused for safety" in reason


def test_malformed_xml_names_line_and_column(tmp_path: Path) -> None:
    text = usebio(BOARDS).replace("</TRICKS><SCORE>400", "</TRICK><SCORE>400")
    result = read(tmp_path, text)
    assert result.results.height == 0
    rej = result.rejected.row(0, named=True)
    assert rej["location"] == "file"
    assert "malformed at line" in rej["reason"] and "column" in rej["reason"]
    assert "</TRICK>" in rej["raw"]


def test_other_root_is_rejected(tmp_path: Path) -> None:
    result = read(tmp_path, "<?xml version='1.0'?><RESULTS><EVENT/></RESULTS>")
    assert "not <USEBIO>" in result.rejected["reason"][0]


def test_read_file_dispatches_usebio_by_content(tmp_path: Path) -> None:
    path = tmp_path / "export.dat"
    path.write_text("\ufeff" + usebio(BOARDS), encoding="utf-8")
    result = read_file(path, tmp_path)
    assert result.format == "usebio"
    assert result.results.height == 3


ONE_WINNER = """
<PARTICIPANTS>
  <PAIR><PAIR_NUMBER>1NS</PAIR_NUMBER><DIRECTION>NS</DIRECTION><PLACE>1</PLACE></PAIR>
  <PAIR><PAIR_NUMBER>1 ew</PAIR_NUMBER><DIRECTION>EW</DIRECTION><PLACE>2</PLACE></PAIR>
  <PAIR><PAIR_NUMBER>2NS</PAIR_NUMBER><DIRECTION>NS</DIRECTION><PLACE>3</PLACE></PAIR>
  <PAIR><PAIR_NUMBER>2EW</PAIR_NUMBER><DIRECTION>EW</DIRECTION><PLACE>4</PLACE></PAIR>
</PARTICIPANTS>
<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
  <TRAVELLER_LINE><NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2EW</EW_PAIR_NUMBER>
    <SCORE>A5050</SCORE></TRAVELLER_LINE>
  <TRAVELLER_LINE><NS_PAIR_NUMBER>1ew</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2NS</EW_PAIR_NUMBER>
    <SCORE>A5050</SCORE></TRAVELLER_LINE>
</BOARD>
"""


def test_one_winner_pair_numbers_keep_their_direction(tmp_path: Path) -> None:
    """WINNER_TYPE 1 with numbers like 1NS: a one-winner Mitchell, read as a Howell whose
    pairs are 1NS ... (an arrow-switched line names 1EW at NS); each id normalised."""
    text = usebio(ONE_WINNER).replace("<WINNER_TYPE>2<", "<WINNER_TYPE>1<")
    result = read(tmp_path, text)
    assert result.events["movement"].to_list() == ["howell"]
    res = result.results.to_dicts()
    assert [(r["ns_pair"], r["ew_pair"]) for r in res] == [("1NS", "2EW"), ("1EW", "2NS")]
    assert [(c["contestant"], c["direction"]) for c in result.contestants.to_dicts()] == [
        ("1NS", "NS"),
        ("1EW", "EW"),
        ("2NS", "NS"),
        ("2EW", "EW"),
    ]
    assert result.source_standings["contestant"].to_list() == ["1NS", "1EW", "2NS", "2EW"]
    # two winners: numbers per direction, the own direction's suffix dropped (as before)
    two = read(tmp_path, usebio(ONE_WINNER), "two.xml")
    assert [(r["ns_pair"], r["ew_pair"]) for r in two.results.to_dicts()] == [
        ("1", "2"),
        ("1ew", "2NS"),  # an arrow-switched line: rejected as such when validated
    ]
    # one winner with plain numbers (a Howell): unchanged
    plain = usebio(BOARDS.replace("NS<", "<").replace("EW<", "<"))
    howell = read(tmp_path, plain.replace("<WINNER_TYPE>2<", "<WINNER_TYPE>1<"), "h.xml")
    assert {r["ns_pair"] for r in howell.results.to_dicts()} == {"1", "2"}
