"""Duplicates that cannot both be right are never settled by keeping the first.

Planted, each in one event (EV2) of an evening with two events, and run by ``traveller run``:
* a ruling id used twice in the event's log (two different rulings): the second is rejected
  and the event held (a director's decision not applied), exit 4; the first applied, the
  other event (OK1) published Final;
* two different results for the same pair, table and board (4S= stated 420, and 4S-1
  stated -50, both agreeing with Law 77): both rejected, the event held, exit 4; its five
  other results and OK1's six validated, OK1 Final;
* the same result sent twice (identical rows): one result, the repeat rejected, nothing
  held, exit 3; both events Final.
"""

from __future__ import annotations

from pathlib import Path

from pipelines.cli import EXIT_BLOCKED, EXIT_REJECTED
from tests.robustness.conftest import (
    HELD_EV2,
    RESULTS,
    RULINGS_HEADER,
    published,
    rows,
    status,
    traveller_run,
)


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
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    why = "ruling id R1 is already used at rulings-2026-11-21.csv:line 2"
    assert rows(wh, "SELECT location, field, reason FROM rejected_inputs") == [
        ("line 3", "ruling_id", why)
    ]
    assert rows(wh, "SELECT event_id, file, location, field, reason FROM holds") == [
        (
            "EV2",
            "rulings-2026-11-21.csv",
            "line 3",
            "ruling_id",
            f"ruling or appeal not applied: {why}",
        )
    ]
    lines = ran.output.splitlines()
    assert f"rulings-2026-11-21.csv:line 3: ruling_id: {why}" in lines
    assert HELD_EV2 in lines
    assert (
        f"held EV2: rulings-2026-11-21.csv:line 3: ruling_id: ruling or appeal not applied: {why}"
    ) in lines
    # the first R1 (line 2) is read and applied; every result of both events scored
    assert rows(wh, "SELECT ruling_id, location, applies FROM rulings") == [("R1", "line 2", True)]
    assert rows(wh, "SELECT event_id, count(*) FROM scored_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 6),
        ("OK1", 6),
    ]
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")


def test_two_different_results_for_a_table_reject_both_and_hold_the_event(tmp_path: Path):
    # the same table and board as line 2 (NS 1 v EW 2, board 1), another result
    other = "EV2,1,A,1,1,1,1,2,4S,N,9,-50\n"
    inbox = _two_events(tmp_path, RESULTS.format(e="EV2") + other)
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    got = rows(wh, "SELECT location, field, reason FROM rejected_inputs ORDER BY location")
    assert [(loc, fld) for loc, fld, _ in got] == [("line 2", "result"), ("line 8", "result")]
    why = (
        "pair 1 has two different results on board 1 of this session (here and at "
        "results-2026-11-21-b.csv:line {}): both rejected and the event held"
    )
    assert got[0][2].startswith(why.format(8))
    assert got[1][2].startswith(why.format(2))
    assert [h[:3] for h in rows(wh, "SELECT event_id, location, field FROM holds ORDER BY 2")] == [
        ("EV2", "line 2", "result"),
        ("EV2", "line 8", "result"),
    ]
    lines = ran.output.splitlines()
    for loc, there in (("line 2", 8), ("line 8", 2)):
        said = f"results-2026-11-21-b.csv:{loc}: result: {why.format(there)}"
        assert any(x.startswith(said) for x in lines), lines
        assert any(x.startswith(f"held EV2: {said}") for x in lines), lines
    assert HELD_EV2 in lines
    # 5 of EV2's 7 rows were validated; OK1's 6 all
    assert rows(
        wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY ALL"
    ) == [("EV2", 5), ("OK1", 6)]
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")


def test_the_same_result_sent_twice_is_one_result(tmp_path: Path):
    again = "EV2,1,A,1,1,1,1,2,4S,N,10,420\n"  # line 2 once more
    inbox = _two_events(tmp_path, RESULTS.format(e="EV2") + again)
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_REJECTED, ran.output
    [(loc, fld, reason)] = rows(wh, "SELECT location, field, reason FROM rejected_inputs")
    assert (loc, fld) == ("line 8", "board")
    why = (
        "pair 1 already has a result on board 1 of this session (at "
        "results-2026-11-21-b.csv:line 2)"
    )
    assert why in reason
    assert any(
        x.startswith(f"results-2026-11-21-b.csv:line 8: board: {why}")
        for x in ran.output.splitlines()
    ), ran.output
    assert not any(x.startswith("held") for x in ran.output.splitlines())
    assert rows(wh, "SELECT count(*) FROM holds") == [(0,)]
    assert rows(
        wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY ALL"
    ) == [("EV2", 6), ("OK1", 6)]
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final" and status(site, "EV2") == "Final"
