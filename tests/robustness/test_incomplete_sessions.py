"""A session short of its movement is held, never published as official standings.

One evening (2026-11-21) of nine events, read in one run (``traveller run``), beside the
good event OK1 of ``conftest.RESULTS``. The movements are the circle Howell and the Mitchell of
:mod:`pipelines.synth.pairs` (8 pairs: 7 rounds of 3 boards; 16 pairs: 15 rounds of 2 boards;
a Mitchell of 6 tables: 5 rounds of 2 boards); every result is 3NT by South, its score left
for Law 77 to compute. Planted:

* ``CUT``: the round-ordered file of an 8-pair Howell cut at a line end after two tables of
  round 6: round 6 misses tables 3 and 4, where pairs 1 v 4 and 3 v 2 sat (each pair plays
  every round: 8 pairs, an even number, have no sit-out);
* ``GAP``: a 16-pair Howell that plays 30 boards (``events.csv`` ``boards``) whose boards
  18-30 are missing;
* ``LIST``: ``contestants.csv`` lists pairs 1-8; one result names NS pair 70 (a typo for 7):
  that row is rejected, the event held;
* ``PHANTOM``: the same typo with no list: pair 70 played 1 board where the others played 21,
  and ``events.csv`` says 8 pairs where 9 have results;
* ``MIDBOARD``: the board-ordered file of a 6-table Mitchell cut after the first result of
  board 12: 1 of its 5 results;
* ``SITOUT7``: the 8-pair Howell with pair 8 absent (7 pairs, one sits out each round) and one
  result not entered; ``SITOUT9``: the Mitchell with EW pair 5 absent (the NS pair it would
  meet sits out); ``TWO``: a Howell in two sections, each complete. None of these is held.

Expected: the run exits 4 (standings held back); each planted event held with its reason
located (file, line or round or board, field, what to do), in the warehouse's ``holds`` and
as one line ``held EVENT: file:location: field: reason`` on the command line; every other row
of it validated; OK1, SITOUT7, SITOUT9 and TWO scored whole and published Final."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli import EXIT_BLOCKED, app
from pipelines.publish.site import session_dir
from pipelines.synth.pairs import howell_schedule, mitchell_schedule
from tests.robustness.conftest import HEADER, NOW, RESULTS, rows, status

DAY = "2026-11-21"


def howell(event: str, pairs: int, rounds: int, per_round: int, section: str = "A") -> list[str]:
    """Result lines of a Howell, round by round, table by table."""
    out = []
    for rnd, table, ns, ew in howell_schedule(pairs, rounds):
        for j in range(per_round):
            board = (rnd - 1) * per_round + j + 1
            out.append(f"{event},1,{section},{rnd},{table},{board},{ns},{ew},3NT,S,9,")
    return out


def mitchell(event: str, tables: int, rounds: int, per_round: int) -> list[str]:
    """Result lines of a Mitchell (NS pair t at table t), round by round."""
    out = []
    for rnd, table, ns, ew, bset in mitchell_schedule(tables, rounds):
        for j in range(per_round):
            board = (bset - 1) * per_round + j + 1
            out.append(f"{event},1,A,{rnd},{table},{board},{ns},{ew},3NT,S,9,")
    return out


def by_board(lines: list[str]) -> list[str]:
    """The same lines as a program that writes board by board."""
    return sorted(lines, key=lambda line: (int(line.split(",")[5]), int(line.split(",")[4])))


def _csv(lines: list[str]) -> str:
    return HEADER + "\n" + "\n".join(lines) + "\n"


def _typo(lines: list[str], event: str) -> tuple[list[str], int]:
    """``lines`` with NS pair 7's first result given to pair 70; its line in the file."""
    i = next(k for k, line in enumerate(lines) if line.split(",")[6] == "7")
    parts = lines[i].split(",")
    parts[6] = "70"
    return [*lines[:i], ",".join(parts), *lines[i + 1 :]], i + 2


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The evening's inbox run once; ``(inbox, warehouse, site, exit code, output, lines)``."""
    base = tmp_path_factory.mktemp("incomplete")
    inbox = base / "inbox"
    inbox.mkdir()
    files: dict[str, list[str]] = {}
    cut = howell("CUT", 8, 7, 3)
    files["CUT"] = cut[: 5 * 4 * 3 + 2 * 3]  # rounds 1-5 whole, round 6 tables 1-2
    gap = howell("GAP", 16, 15, 2)
    files["GAP"] = [line for line in gap if int(line.split(",")[5]) <= 17]
    files["LIST"], list_line = _typo(howell("LIST", 8, 7, 3), "LIST")
    files["PHANTOM"], phantom_line = _typo(howell("PHANTOM", 8, 7, 3), "PHANTOM")
    mid = by_board(mitchell("MIDBOARD", 6, 5, 2))
    first_of_12 = next(k for k, line in enumerate(mid) if line.split(",")[5] == "12")
    files["MIDBOARD"] = mid[: first_of_12 + 1]
    sitout7 = [line for line in howell("SITOUT7", 8, 7, 3) if "8" not in line.split(",")[6:8]]
    files["SITOUT7"] = sitout7[:10] + sitout7[11:]  # and one result never entered
    files["SITOUT9"] = [line for line in mitchell("SITOUT9", 5, 5, 3) if line.split(",")[7] != "5"]
    files["TWO"] = howell("TWO", 8, 7, 3, "A") + howell("TWO", 8, 7, 3, "B")
    for event, lines in files.items():
        (inbox / f"results-{DAY}-{event.lower()}.csv").write_text(_csv(lines))
    (inbox / f"results-{DAY}-ok1.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "events.csv").write_text(
        "event_id,session,date,movement,boards,pairs\n"
        f"GAP,1,{DAY},howell,30,\n"
        f"PHANTOM,1,{DAY},howell,,8\n"
        f"MIDBOARD,1,{DAY},mitchell,,\n"
        f"SITOUT9,1,{DAY},mitchell,,\n"
    )
    (inbox / "contestants.csv").write_text(
        "event_id,contestant,direction,names\n"
        + "".join(f"LIST,{p},,Pair {p}\n" for p in range(1, 9))
    )
    wh = base / "w.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TRAVELLER_NOW", NOW)
        r = CliRunner().invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(wh)])
    lines = {"LIST": list_line, "PHANTOM": phantom_line}
    return inbox, wh, base / "site", r.exit_code, r.output, lines, files


def _holds(wh: Path, event: str) -> list[tuple]:
    return rows(
        wh,
        f"SELECT file, location, field, reason FROM holds WHERE event_id = '{event}' ORDER BY ALL",
    )


def _said(output: str, event: str, holds: list[tuple]) -> None:
    """Each of ``event``'s holds is one located line on the command line."""
    for file, loc, field, reason in holds:
        assert f"held {event}: {file}:{loc}: {field}: {reason}" in output.splitlines(), output


def _validated(wh: Path, event: str) -> int:
    return rows(wh, f"SELECT count(*) FROM validated_results WHERE event_id = '{event}'")[0][0]


def test_the_run_holds_the_short_sessions_and_publishes_the_rest(night):
    _, wh, site, code, output, _, _ = night
    assert code == EXIT_BLOCKED, output
    assert "Traceback" not in output
    assert (
        "held       5 event(s) not published, the rest of their date is: CUT [2026-11-21], "
        "GAP [2026-11-21], LIST [2026-11-21], MIDBOARD [2026-11-21], PHANTOM [2026-11-21]"
    ) in output
    assert "check sessions_complete failed on validated_results [2026-11-21] (its events held)" in (
        output
    )
    # every result of the good events scored: OK1's 6, the Howells' 7 rounds of 4 tables
    # (TWO: two sections), SITOUT7's 3 tables a round but one result never entered
    assert rows(
        wh,
        "SELECT event_id, count(*) FROM validated_results WHERE event_id IN "
        "('OK1', 'SITOUT7', 'SITOUT9', 'TWO') GROUP BY ALL ORDER BY 1",
    ) == [("OK1", 6), ("SITOUT7", 7 * 3 * 3 - 1), ("SITOUT9", 4 * 5 * 3), ("TWO", 2 * 7 * 4 * 3)]
    for event in ("OK1", "SITOUT7", "SITOUT9", "TWO"):
        assert status(site, event) == "Final", event
        assert _holds(wh, event) == [], event
    for event in ("CUT", "GAP", "LIST", "MIDBOARD", "PHANTOM"):
        assert rows(wh, f"SELECT DISTINCT status FROM standings WHERE event_id = '{event}'") == [
            ("held",)
        ]
        assert not (site / session_dir(event, 1)).exists(), event


def test_a_file_cut_at_a_line_end_misses_tables_of_its_last_round(night):
    _, wh, _, _, output, _, files = night
    [(file, loc, field, reason)] = _holds(wh, "CUT")
    _said(output, "CUT", [(file, loc, field, reason)])
    assert (file, loc, field) == (f"results-{DAY}-cut.csv", "section A round 6", "round")
    assert reason.startswith(
        "round 6 of section A: pair 1, pair 2, pair 3, pair 4 have no result, where the "
        "movement of its 8 pairs (8 fill 4 tables: no sit-out) seats every pair each round — "
        "tables missing from the file? send it whole"
    )
    assert _validated(wh, "CUT") == len(files["CUT"]) == 66


def test_boards_18_to_30_missing_against_the_events_boards(night):
    _, wh, _, _, output, _, files = night
    [(file, loc, field, reason)] = _holds(wh, "GAP")
    _said(output, "GAP", [(file, loc, field, reason)])
    assert (file, loc, field) == ("events.csv", "line 2", "boards")
    assert reason.startswith(
        "section A has results on 17 board(s) (1-17) where the event states 30: boards 18-30 "
        "have no result — is the results file complete? send it whole, or correct boards"
    )
    assert _validated(wh, "GAP") == len(files["GAP"]) == 8 * 17


def test_a_pair_the_list_does_not_know_is_rejected_not_a_new_contestant(night):
    _, wh, _, _, output, lines, files = night
    where = f"line {lines['LIST']}"
    rejected = rows(
        wh, "SELECT file, location, field, reason FROM rejected_inputs WHERE file LIKE '%list%'"
    )
    for file, loc, field, reason in rejected:  # the rejection on the command line too
        assert f"{file}:{loc}: {field}: {reason}" in output.splitlines(), output
    assert rejected == [
        (
            f"results-{DAY}-list.csv",
            where,
            "ns_pair",
            "pair 70 is not a contestant of event LIST section A: its list of contestants (8 "
            "names) does not know it, so this is a mistyped number, not a new contestant; "
            "correct the row (or the list)",
        )
    ]
    [(file, loc, field, reason)] = _holds(wh, "LIST")
    _said(output, "LIST", [(file, loc, field, reason)])
    assert (file, loc, field) == (f"results-{DAY}-list.csv", where, "ns_pair")
    assert reason.startswith("the standings would miss this result, rejected: pair 70 is not")
    assert _validated(wh, "LIST") == len(files["LIST"]) - 1 == 83
    assert rows(wh, "SELECT count(DISTINCT contestant) FROM standings WHERE event_id = 'LIST'") == [
        (8,)
    ]


def test_a_mistyped_pair_without_a_list_is_no_contestant_of_the_movement(night):
    _, wh, _, _, output, lines, files = night
    got = _holds(wh, "PHANTOM")
    _said(output, "PHANTOM", got)
    assert [g[:3] for g in got] == [
        ("events.csv", "line 3", "pairs"),
        (f"results-{DAY}-phantom.csv", f"line {lines['PHANTOM']}", "ns_pair"),
    ]
    assert got[0][3] == (
        "9 pairs have results in the session where the event states 8: fewest boards, pair 70 "
        "(1) — a mistyped number?; correct the file or pairs"
    )
    assert got[1][3].startswith(
        "pair 70 played 1 board in section A where the session's fullest pair played 21: no "
        "movement seats a pair out for half a session (under 50 % of the boards: profile "
        "completeness.contestant_boards) — a mistyped number? correct the file"
    )
    assert _validated(wh, "PHANTOM") == len(files["PHANTOM"]) == 84


def test_a_board_cut_after_its_first_result_is_mostly_missing(night):
    _, wh, _, _, output, _, files = night
    [(file, loc, field, reason)] = _holds(wh, "MIDBOARD")
    _said(output, "MIDBOARD", [(file, loc, field, reason)])
    assert (file, loc, field) == (f"results-{DAY}-midboard.csv", "board 12", "board")
    assert reason.startswith(
        "board 12 (1 result) of section A: under 50 % of the results expected on a board (5, "
        "the most any board of section A has), a board mostly missing, not short of a result "
        "or two"
    )
    assert _validated(wh, "MIDBOARD") == len(files["MIDBOARD"]) == 56


def test_sit_outs_a_missing_result_and_two_sections_hold_nothing(night):
    _, wh, _, _, _, _, files = night
    # 7 pairs: each round one sits out; every other pair played all its boards but one result
    assert rows(
        wh,
        "SELECT min(boards), max(boards) FROM standings "
        "WHERE event_id = 'SITOUT7' AND scope = 'session'",
    ) == [(17, 18)]
    assert _validated(wh, "SITOUT9") == len(files["SITOUT9"]) == 60
    assert rows(wh, "SELECT DISTINCT event_id FROM incomplete_sessions ORDER BY 1") == [
        ("CUT",),
        ("GAP",),
        ("MIDBOARD",),
        ("PHANTOM",),
    ]
