"""Rulings that contradict each other, or whose times cannot be, are never settled in silence.

Planted in one event (EV2) of an evening with two, on board 1 (unvulnerable, Law 2) at the
table NS 3 v EW 4, which played 4S by N making 11 tricks (+450):
* two assigned scores for that table (4S N +1 and 4S N =), neither superseding the other:
  both rejected with the reason, EV2 held, OK1 published Final;
* the same two, the second naming the first in ``supersedes``: the first kept but not
  applied ("superseded by ruling R2"), the table scored 4S N = (+420, Law 77), nothing held;
* a ruling made before the director was called, and an appeal decided before it was
  lodged: each rejected with the times named, EV2 held.
"""

from __future__ import annotations

from pathlib import Path

from pipelines.runner import run_inbox
from tests.robustness.conftest import RESULTS, rows, status

HEADER = (
    "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result,"
    "called_at,ruled_at,supersedes"
)
APPEALS = "appeal_id,ruling_id,lodged_at,heard_by,decided_at,outcome,ns_result,ew_result"


def _inbox(tmp: Path, rulings: str, appeals: str | None = None) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="EV2"))
    (inbox / "rulings-2026-11-21.csv").write_text(f"{HEADER}\n{rulings}")
    if appeals is not None:
        (inbox / "appeals-2026-11-21.csv").write_text(f"{APPEALS}\n{appeals}")
    return inbox


def _held_ev2_only(tmp: Path, report) -> None:
    assert report.held_events == [("2026-11-21", "EV2")]
    site = tmp / "out" / "site"
    assert status(site, "OK1") == "Final"
    assert not (site / "EV2").exists()


def test_two_rulings_on_a_table_without_supersedes_are_both_rejected(tmp_path: Path):
    inbox = _inbox(
        tmp_path,
        "R1,EV2,1,1,3,4,assigned,EW,4S N +1,,2026-11-21 20:00,2026-11-21 20:10,\n"
        "R2,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:30,\n",
    )
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    got = rows(wh, "SELECT location, field, reason FROM rejected_inputs ORDER BY location")
    assert [(loc, fld) for loc, fld, _ in got] == [("line 2", "ruling_id"), ("line 3", "ruling_id")]
    assert got[0][2].startswith(
        "rulings R1 and R2 both decide board 1 at the table NS 3 v EW 4 (event EV2 session 1) "
        "and none supersedes the other: all rejected"
    )
    assert rows(wh, "SELECT count(*) FROM rulings") == [(0,)]
    _held_ev2_only(tmp_path, report)
    [(reason,)] = rows(wh, "SELECT DISTINCT field FROM holds")
    assert reason == "ruling_id"


def test_a_ruling_that_supersedes_another_replaces_it(tmp_path: Path):
    inbox = _inbox(
        tmp_path,
        "R1,EV2,1,1,3,4,assigned,EW,4S N +1,,2026-11-21 20:00,2026-11-21 20:10,\n"
        "R2,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:30,R1\n",
    )
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert rows(wh, "SELECT count(*) FROM rejected_inputs") == [(0,)]
    assert rows(
        wh, "SELECT ruling_id, applies, not_applied_reason FROM rulings ORDER BY ruling_id"
    ) == [("R1", False, "superseded by ruling R2"), ("R2", True, None)]
    # 4S by N making 10 tricks, unvulnerable: +420 for NS (Law 77)
    assert rows(
        wh,
        "SELECT ns_score, adjustment, ruling_id FROM scored_results "
        "WHERE event_id = 'EV2' AND board = 1 AND ns_pair = '3'",
    ) == [(420, "assigned", "R2")]
    assert report.held_events == []
    assert status(tmp_path / "out" / "site", "EV2") == "Final"


def test_a_ruling_made_before_the_call_is_rejected(tmp_path: Path):
    inbox = _inbox(
        tmp_path, "R1,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 21:00,2026-11-21 20:30,\n"
    )
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    [(loc, fld, reason)] = rows(wh, "SELECT location, field, reason FROM rejected_inputs")
    assert (loc, fld) == ("line 2", "ruled_at")
    assert reason.startswith(
        "ruled at 2026-11-21 20:30:00, before the director was called at 2026-11-21 21:00:00"
    )
    _held_ev2_only(tmp_path, report)


def test_an_appeal_decided_before_it_was_lodged_is_rejected(tmp_path: Path):
    inbox = _inbox(
        tmp_path,
        "R1,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:10,\n",
        "A1,R1,2026-11-21 22:30,committee,2026-11-21 22:00,upheld,,\n",
    )
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    [(file, fld, reason)] = rows(wh, "SELECT file, field, reason FROM rejected_inputs")
    assert (file, fld) == ("appeals-2026-11-21.csv", "decided_at")
    assert reason.startswith(
        "decided at 2026-11-21 22:00:00, before the appeal was lodged at 2026-11-21 22:30:00"
    )
    _held_ev2_only(tmp_path, report)


def test_a_ruling_that_can_be_placed_nowhere_holds_its_date(tmp_path: Path):
    """A ruling naming an event session with no results that day (``EV9``, a typo for EV2)
    cannot be placed: nothing says whose standings it changes, so every event of its date is
    held (``docs/inputs.md``: a ruling that names no event session with results holds every
    event of its date) — and the other ruling of the log, on EV2, is applied."""
    inbox = _inbox(
        tmp_path,
        "R1,EV9,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:10,\n"
        "R2,EV2,1,2,1,4,assigned,NS,2H E =,,2026-11-21 20:20,2026-11-21 20:30,\n",
    )
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    [(loc, fld, reason)] = rows(wh, "SELECT location, field, reason FROM rejected_inputs")
    assert loc == "line 2" and "EV9" in reason
    assert report.held_events == [("2026-11-21", "EV2"), ("2026-11-21", "OK1")]
    holds = rows(wh, "SELECT event_id, file, location, field FROM holds ORDER BY ALL")
    assert holds == [
        ("EV2", "rulings-2026-11-21.csv", "line 2", fld),
        ("OK1", "rulings-2026-11-21.csv", "line 2", fld),
    ]
    assert rows(wh, "SELECT ruling_id, applies FROM rulings") == [("R2", True)]
    assert rows(wh, "SELECT DISTINCT status FROM standings") == [("held",)]
