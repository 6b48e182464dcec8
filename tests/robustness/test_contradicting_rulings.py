"""Rulings that contradict each other, or whose times cannot be, are never settled in silence.

Planted in one event (EV2) of an evening with two, on board 1 (unvulnerable, Law 2) at the
table NS 3 v EW 4, which played 4S by N making 11 tricks (+450), and run by ``traveller run``:
* two assigned scores for that table (4S N +1 and 4S N =), neither superseding the other:
  both rejected with the reason, EV2 held, OK1 published Final; exit 4;
* the same two, the second naming the first in ``supersedes``: the first kept but not
  applied ("superseded by ruling R2"), the table scored 4S N = (+420, Law 77), nothing held,
  both events Final; exit 0;
* a ruling made before the director was called, and an appeal decided before it was
  lodged: each rejected with the times named, EV2 held, OK1 Final; exit 4.
"""

from __future__ import annotations

from pathlib import Path

from pipelines.cli import EXIT_BLOCKED
from tests.robustness.conftest import HELD_EV2, RESULTS, published, rows, status, traveller_run

HEADER = (
    "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result,"
    "called_at,ruled_at,supersedes"
)
APPEALS = "appeal_id,ruling_id,lodged_at,heard_by,decided_at,outcome,ns_result,ew_result"
#: What ``traveller run`` says when EV2 alone is held.


def _inbox(tmp: Path, rulings: str, appeals: str | None = None) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="EV2"))
    (inbox / "rulings-2026-11-21.csv").write_text(f"{HEADER}\n{rulings}")
    if appeals is not None:
        (inbox / "appeals-2026-11-21.csv").write_text(f"{APPEALS}\n{appeals}")
    return inbox


def _held_ev2_only(tmp: Path, code: int, output: str) -> None:
    """EV2 held (exit 4, said so), OK1 published Final with its six results scored."""
    assert code == EXIT_BLOCKED, output
    assert HELD_EV2 in output.splitlines()
    assert "status     1 sessions final, 0 provisional, 1 held" in output.splitlines()
    site = tmp / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")
    wh = tmp / "w.duckdb"
    assert rows(wh, "SELECT DISTINCT event_id, status FROM standings ORDER BY ALL") == [
        ("EV2", "held"),
        ("OK1", "final"),
    ]
    # every result of both events was scored: the held one is kept, only not published
    assert rows(wh, "SELECT event_id, count(*) FROM scored_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 6),
        ("OK1", 6),
    ]


def test_two_rulings_on_a_table_without_supersedes_are_both_rejected(tmp_path: Path):
    inbox = _inbox(
        tmp_path,
        "R1,EV2,1,1,3,4,assigned,EW,4S N +1,,2026-11-21 20:00,2026-11-21 20:10,\n"
        "R2,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:30,\n",
    )
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    got = rows(wh, "SELECT location, field, reason FROM rejected_inputs ORDER BY location")
    assert [(loc, fld) for loc, fld, _ in got] == [("line 2", "ruling_id"), ("line 3", "ruling_id")]
    why = (
        "rulings {} and {} both decide board 1 at the table NS 3 v EW 4 (event EV2 session 1) "
        "and none supersedes the other: all rejected, since the log's order does not say "
        "which stands; give the later one supersedes"
    )
    assert got[0][2].startswith(why.format("R1", "R2"))
    assert got[1][2].startswith(why.format("R2", "R1"))
    assert rows(wh, "SELECT count(*) FROM rulings") == [(0,)]
    # one line each on the command line: the rejected rulings, and the hold they cause
    lines = ran.output.splitlines()
    for loc, (a, b) in (("line 2", ("R1", "R2")), ("line 3", ("R2", "R1"))):
        said = f"rulings-2026-11-21.csv:{loc}: ruling_id: {why.format(a, b)}"
        assert any(x.startswith(said) for x in lines), lines
        assert any(
            x.startswith(
                f"held EV2: rulings-2026-11-21.csv:{loc}: ruling_id: ruling or appeal "
                f"not applied: {why.format(a, b)}"
            )
            for x in lines
        ), lines
    _held_ev2_only(tmp_path, ran.exit_code, ran.output)
    [(reason,)] = rows(wh, "SELECT DISTINCT field FROM holds")
    assert reason == "ruling_id"


def test_a_ruling_that_supersedes_another_replaces_it(tmp_path: Path):
    inbox = _inbox(
        tmp_path,
        "R1,EV2,1,1,3,4,assigned,EW,4S N +1,,2026-11-21 20:00,2026-11-21 20:10,\n"
        "R2,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:30,R1\n",
    )
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == 0, ran.output
    assert (
        "not applied: ruling R1 (rulings-2026-11-21.csv:line 2): superseded by ruling R2"
        in ran.output.splitlines()
    )
    assert "rejected   0 rows or files" in ran.output.splitlines()
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
    assert rows(wh, "SELECT count(*) FROM holds") == [(0,)]
    site = tmp_path / "site"
    assert status(site, "EV2") == status(site, "OK1") == "Final"


def test_a_ruling_made_before_the_call_is_rejected(tmp_path: Path):
    inbox = _inbox(
        tmp_path, "R1,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 21:00,2026-11-21 20:30,\n"
    )
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    [(loc, fld, reason)] = rows(wh, "SELECT location, field, reason FROM rejected_inputs")
    assert (loc, fld) == ("line 2", "ruled_at")
    why = "ruled at 2026-11-21 20:30:00, before the director was called at 2026-11-21 21:00:00"
    assert reason.startswith(why)
    lines = ran.output.splitlines()
    assert any(x.startswith(f"rulings-2026-11-21.csv:line 2: ruled_at: {why}") for x in lines)
    assert any(
        x.startswith("held EV2: rulings-2026-11-21.csv:line 2: ruled_at: ") and why in x
        for x in lines
    ), lines
    _held_ev2_only(tmp_path, ran.exit_code, ran.output)


def test_an_appeal_decided_before_it_was_lodged_is_rejected(tmp_path: Path):
    inbox = _inbox(
        tmp_path,
        "R1,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:10,\n",
        "A1,R1,2026-11-21 22:30,committee,2026-11-21 22:00,upheld,,\n",
    )
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    [(file, fld, reason)] = rows(wh, "SELECT file, field, reason FROM rejected_inputs")
    assert (file, fld) == ("appeals-2026-11-21.csv", "decided_at")
    why = "decided at 2026-11-21 22:00:00, before the appeal was lodged at 2026-11-21 22:30:00"
    assert reason.startswith(why)
    lines = ran.output.splitlines()
    assert any(x.startswith(f"appeals-2026-11-21.csv:line 2: decided_at: {why}") for x in lines)
    assert any(
        x.startswith("held EV2: appeals-2026-11-21.csv:line 2: decided_at: ") and why in x
        for x in lines
    ), lines
    _held_ev2_only(tmp_path, ran.exit_code, ran.output)


def test_a_ruling_that_can_be_placed_nowhere_holds_its_date(tmp_path: Path):
    """A ruling naming an event session with no results that day (``EV9``, a typo for EV2)
    cannot be placed: nothing says whose standings it changes, so every event of its date is
    held (``docs/inputs.md``: a ruling that names no event session with results holds every
    event of its date) — and the other ruling of the log, on EV2, is applied; the event of
    the evening before (OK0) is published Final."""
    inbox = _inbox(
        tmp_path,
        "R1,EV9,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:10,\n"
        "R2,EV2,1,2,1,4,assigned,NS,2H E =,,2026-11-21 20:20,2026-11-21 20:30,\n",
    )
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="OK0"))
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    [(loc, fld, reason)] = rows(wh, "SELECT location, field, reason FROM rejected_inputs")
    assert loc == "line 2" and "EV9" in reason
    lines = ran.output.splitlines()
    assert f"rulings-2026-11-21.csv:line 2: {fld}: {reason}" in lines
    assert (
        "held       2 event(s) not published, the rest of their date is: EV2 [2026-11-21], "
        "OK1 [2026-11-21]"
    ) in lines
    holds = rows(wh, "SELECT event_id, file, location, field FROM holds ORDER BY ALL")
    assert holds == [
        ("EV2", "rulings-2026-11-21.csv", "line 2", fld),
        ("OK1", "rulings-2026-11-21.csv", "line 2", fld),
    ]
    for event in ("EV2", "OK1"):
        assert any(x.startswith(f"held {event}: rulings-2026-11-21.csv:line 2: ") for x in lines)
    assert rows(wh, "SELECT ruling_id, applies FROM rulings") == [("R2", True)]
    assert rows(wh, "SELECT DISTINCT event_id, status FROM standings ORDER BY ALL") == [
        ("EV2", "held"),
        ("OK0", "final"),
        ("OK1", "held"),
    ]
    site = tmp_path / "site"
    assert status(site, "OK0") == "Final"
    assert not published(site, "EV2") and not published(site, "OK1")
