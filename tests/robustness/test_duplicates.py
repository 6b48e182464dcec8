"""Duplicates that cannot both be right are never settled by keeping the first.

Planted, each in one event of an evening with two events:
* a ruling id used twice in the event's log (two different rulings): the second is rejected
  and the event held (a director's decision not applied), the other event published Final;
* two different results for the same pair, table and board (4S= stated 420, and 4S-1
  stated -50, both agreeing with Law 77): both rejected, the event held;
* the same result sent twice (identical rows): one result, the repeat rejected, nothing held.
"""

from __future__ import annotations

from pathlib import Path

from pipelines.runner import run_inbox
from tests.robustness.conftest import RESULTS, RULINGS_HEADER, rows, status


def _two_events(tmp: Path, ev2: str) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-b.csv").write_text(ev2)
    return inbox


def test_a_ruling_id_used_twice_in_an_event_holds_that_event(tmp_path: Path):
    inbox = _two_events(tmp_path, RESULTS.format(e="EV2"))
    (inbox / "rulings-2026-11-21.csv").write_text(
        f"{RULINGS_HEADER}\n"
        "R1,EV2,1,1,3,4,assigned,EW,4S N +1,\n"
        "R1,EV2,1,2,1,4,assigned,NS,2H E =,\n"
    )
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert rows(wh, "SELECT location, field, reason FROM rejected_inputs") == [
        ("line 3", "ruling_id", "ruling id R1 is already used at rulings-2026-11-21.csv:line 2")
    ]
    assert report.held_events == [("2026-11-21", "EV2")]
    assert rows(wh, "SELECT event_id, file, location, field, reason FROM holds") == [
        (
            "EV2",
            "rulings-2026-11-21.csv",
            "line 3",
            "ruling_id",
            "ruling or appeal not applied: ruling id R1 is already used at "
            "rulings-2026-11-21.csv:line 2",
        )
    ]
    assert status(tmp_path / "out" / "site", "OK1") == "Final"
    assert not (tmp_path / "out" / "site" / "EV2").exists()


def test_two_different_results_for_a_table_reject_both_and_hold_the_event(tmp_path: Path):
    # the same table and board as line 2 (NS 1 v EW 2, board 1), another result
    other = "EV2,1,A,1,1,1,1,2,4S,N,9,-50\n"
    inbox = _two_events(tmp_path, RESULTS.format(e="EV2") + other)
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    got = rows(wh, "SELECT location, field, reason FROM rejected_inputs ORDER BY location")
    assert [(loc, fld) for loc, fld, _ in got] == [("line 2", "result"), ("line 8", "result")]
    assert got[0][2].startswith(
        "pair 1 has two different results on board 1 of this session (here and at "
        "results-2026-11-21-b.csv:line 8): both rejected and the event held"
    )
    assert "(here and at results-2026-11-21-b.csv:line 2)" in got[1][2]
    assert report.held_events == [("2026-11-21", "EV2")]
    assert [h[:3] for h in rows(wh, "SELECT event_id, location, field FROM holds ORDER BY 2")] == [
        ("EV2", "line 2", "result"),
        ("EV2", "line 8", "result"),
    ]
    # 5 of EV2's 7 rows were validated; OK1's 6 all
    assert rows(
        wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY ALL"
    ) == [("EV2", 5), ("OK1", 6)]
    assert status(tmp_path / "out" / "site", "OK1") == "Final"
    assert not (tmp_path / "out" / "site" / "EV2").exists()


def test_the_same_result_sent_twice_is_one_result(tmp_path: Path):
    again = "EV2,1,A,1,1,1,1,2,4S,N,10,420\n"  # line 2 once more
    inbox = _two_events(tmp_path, RESULTS.format(e="EV2") + again)
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    [(loc, fld, reason)] = rows(wh, "SELECT location, field, reason FROM rejected_inputs")
    assert (loc, fld) == ("line 8", "board")
    assert (
        "already has a result on board 1 of this session (at results-2026-11-21-b.csv:line 2)"
        in (reason)
    )
    assert report.held_events == []
    site = tmp_path / "out" / "site"
    assert status(site, "OK1") == "Final" and status(site, "EV2") == "Final"
