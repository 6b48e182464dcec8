"""A rejected ``events.csv`` row holds back its event instead of scoring it on defaults.

Planted: in an ``events.csv`` describing two events of the same evening, one row with a
movement typo, a profile that does not exist, an impossible date, ``expected_results`` 0, or
(another file) a renamed column; run by ``traveller run``. Expected: that row rejected with
its reason, that event's standings held with the reason, never published (exit 4, the
rejection and the hold one line each); the other event published Final; the held event's
rulings still dated by the row's valid date and checked (one kept, one rejected for its own
reason, none for "no date")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.cli import EXIT_BLOCKED
from tests.robustness.conftest import (
    EVENTS_HEADER,
    HELD_EV2,
    RESULTS,
    RULINGS_HEADER,
    published,
    rows,
    status,
    traveller_run,
)

GOOD_ROW = "OK1,1,2026-11-21,Monday pairs,howell,wbf,"
BAD_ROWS = {
    "movement": (
        "EV2,1,2026-11-21,Monday B,mitchel,wbf,",
        "movement must be one of howell, mitchell, not 'mitchel'",
    ),
    "profile": (
        "EV2,1,2026-11-21,Monday B,howell,wbff,",
        "profile must be one of",
    ),
    "date": (
        "EV2,1,2026-02-30,Monday B,howell,wbf,",
        "date must be a calendar date YYYY-MM-DD, not '2026-02-30'",
    ),
    "expected_results": (
        "EV2,1,2026-11-21,Monday B,howell,wbf,0",
        "expected_results must be a whole number >= 1, not '0'",
    ),
}


def _inbox(tmp: Path, bad_row: str, dated_names: bool) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "events.csv").write_text(f"{EVENTS_HEADER}\n{GOOD_ROW}\n{bad_row}\n")
    # undated file names: the events.csv row is the only source of the date
    a, b, log = (
        ("results-2026-11-21-a.csv", "results-2026-11-21-b.csv", "rulings-2026-11-21.csv")
        if dated_names
        else ("club-a.csv", "club-b.csv", "rulings-b.csv")
    )
    (inbox / a).write_text(RESULTS.format(e="OK1"))
    (inbox / b).write_text(RESULTS.format(e="EV2"))
    (inbox / log).write_text(
        f"{RULINGS_HEADER}\n"
        "R1,EV2,1,1,3,4,assigned,EW,4S N +1,\n"  # NS 3 v EW 4 played board 1: applies
        "R2,EV2,1,1,3,5,assigned,EW,4S N +1,\n"  # 3 never met 5 on board 1: unknown table
    )
    return inbox


@pytest.mark.parametrize("field", sorted(BAD_ROWS))
def test_a_rejected_event_row_holds_that_event(tmp_path: Path, field: str):
    bad_row, why = BAD_ROWS[field]
    inbox = _inbox(tmp_path, bad_row, dated_names=True)
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    rejected = rows(
        wh, "SELECT field, reason FROM rejected_inputs WHERE file = 'events.csv' ORDER BY ALL"
    )
    assert [f for f, _ in rejected] == [field]
    assert why in rejected[0][1]
    holds = rows(wh, "SELECT event_id, file, location, field, reason FROM holds ORDER BY ALL")
    assert ("EV2", "events.csv", "line 3", field) in [h[:4] for h in holds]
    [reason] = [h[4] for h in holds if h[1] == "events.csv"]
    assert why in reason and "correct the row" in reason
    lines = ran.output.splitlines()
    assert any(x.startswith(f"events.csv:line 3: {field}: ") and why in x for x in lines), lines
    assert f"held EV2: events.csv:line 3: {field}: {reason}" in lines
    assert HELD_EV2 in lines
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")
    assert rows(wh, "SELECT DISTINCT event_id, status FROM standings ORDER BY ALL") == [
        ("EV2", "held"),
        ("OK1", "final"),
    ]
    # OK1's six results scored, and EV2's too (kept, not published)
    assert rows(wh, "SELECT event_id, count(*) FROM scored_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 6),
        ("OK1", 6),
    ]


def test_the_held_events_rulings_are_dated_by_its_row_and_checked(tmp_path: Path):
    inbox = _inbox(tmp_path, BAD_ROWS["movement"][0], dated_names=False)
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    assert "read       4 files, 16 rows, 1 session dates" in ran.output.splitlines()
    assert rows(wh, "SELECT ruling_id, applies FROM rulings") == [("R1", True)]
    [(loc, fld, reason)] = rows(
        wh, "SELECT location, field, reason FROM rejected_inputs WHERE file = 'rulings-b.csv'"
    )
    assert (loc, fld) == ("line 3", "board")
    assert "unknown table or board" in reason
    assert f"rulings-b.csv:line 3: board: {reason}" in ran.output.splitlines()
    assert "no date" not in ran.output
    assert HELD_EV2 in ran.output.splitlines()
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")


def test_a_renamed_events_column_holds_the_files_events(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "events.csv").write_text(f"{EVENTS_HEADER}\n{GOOD_ROW}\n")
    (inbox / "events-b.csv").write_text(
        "event_id,session,date,movment\nEV2,1,2026-11-21,mitchell\n"
    )
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="EV2"))
    r = traveller_run(inbox, tmp_path / "w.duckdb")
    assert r.exit_code == EXIT_BLOCKED, r.output
    assert HELD_EV2 in r.output.splitlines()
    assert (
        "held EV2: events-b.csv:line 2: movment: the file has a column 'movment' that is not "
        "an events.csv column (a renamed header?)"
    ) in r.output
    assert "status     1 sessions final, 0 provisional, 1 held" in r.output
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")


def test_a_files_own_detail_rejected_is_given_by_events_csv_and_holds_nothing(tmp_path: Path):
    # A USEBIO file whose EVENT_TYPE names a form Traveller does not score: the file's
    # scoring is rejected and the event held, the hold saying where to state it. Stated in
    # events.csv (keyed by the file), the stronger row gives the detail: the event is scored
    # and published, the file's own value still listed as rejected.
    from tests.formats.test_usebio import usebio

    pairs = "".join(
        f"<PAIR><PAIR_NUMBER>{n}{d}</PAIR_NUMBER><DIRECTION>{d}</DIRECTION></PAIR>"
        for n in (1, 2)
        for d in ("NS", "EW")
    )
    line = (
        "<TRAVELLER_LINE><NS_PAIR_NUMBER>{t}NS</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{t}EW"
        "</EW_PAIR_NUMBER><CONTRACT>{c}</CONTRACT><PLAYED_BY>{by}</PLAYED_BY>"
        "<TRICKS>{k}</TRICKS><SCORE>{s}</SCORE></TRAVELLER_LINE>"
    )
    boards = "".join(
        f"<BOARD><BOARD_NUMBER>{b}</BOARD_NUMBER>"
        + "".join(line.format(t=t, c=c, by=by, k=k, s=s) for t, k, s in results)
        + "</BOARD>"
        for b, c, by, results in (
            (1, "4H", "S", ((1, 10, 420), (2, 11, 450))),  # none vulnerable
            (2, "3N", "N", ((1, 9, 600), (2, 10, 630))),  # NS vulnerable
        )
    )
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    body = f"<PARTICIPANTS>{pairs}</PARTICIPANTS>{boards}"
    (inbox / "club.xml").write_text(usebio(body, event_type="SWISS_PAIRS"))
    ran = traveller_run(inbox, tmp_path / "w1.duckdb")
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    holds = rows(tmp_path / "w1.duckdb", "SELECT event_id, field, reason FROM holds")
    assert [(e, f) for e, f, _ in holds] == [("77-501", "scoring")]
    assert holds[0][2].endswith("give this detail in an events.csv row for the file or the event")

    (inbox / "events.csv").write_text("event_id,session,scoring\nclub.xml,,matchpoints\n")
    wh = tmp_path / "w2.duckdb"
    ran = traveller_run(inbox, wh)
    assert rows(wh, "SELECT count(*) FROM holds") == [(0,)], ran.output
    assert rows(wh, "SELECT file, field FROM rejected_inputs") == [("club.xml", "scoring")]
    assert rows(wh, "SELECT DISTINCT status FROM standings") == [("final",)]
    assert published(tmp_path / "site", "77-501")
