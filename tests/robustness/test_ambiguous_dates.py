"""A slashed date whose day and month could be swapped is an error unless its order is stated.

Planted: ``11/03/2026`` — 11 March day first, 3 November month first — as a USEBIO ``DATE``
and as the ``date`` of an ``events.csv`` row, beside an event dated without doubt. Expected
(pipelines/scoring/dates.py): with no order stated, the date rejected at its location with
both readings, its event held (placed on the earlier reading, never published) and the other
event Final; with the order stated by the profile (``date_order = "mdy"``, ACBL) or by an
unambiguous date of the same file (``11/17/2026``, ``27/03/2026``), read in that order; a
file contradicting itself rejected; unambiguous dates (``27/07/2022``, ``03/03/2026``, ISO)
read as before. The cases that publish are run by ``traveller run`` (exit 4 where an event is
held, 0 where nothing is); the readings are checked on the inbox's scan, and the scanned
cases run together once more (:func:`stated_orders`), where every event whose date is read
is published Final."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipelines.cli import EXIT_BLOCKED
from pipelines.inbox import scan
from tests.robustness.conftest import (
    EVENTS_HEADER,
    NOW,
    RESULTS,
    published,
    rows,
    status,
    traveller_run,
)

AMBIGUOUS = "11/03/2026"
DAY_FIRST, MONTH_FIRST = "2026-03-11", "2026-11-03"
REASON = (
    "date 11/03/2026 is ambiguous: 11 March or 3 November? write it 2026-03-11 or 2026-11-03 "
    '(YYYY-MM-DD), or state date_order ("dmy" or "mdy") in profile wbf'
)


def usebio(dates: list[str], program: str | None = None, ident: str = "502") -> str:
    """A USEBIO file of club 77's event ``ident``: one session per date, each the six-pair
    Howell of :data:`RESULTS` (every stated score Law 77's), no program unless ``program``."""
    lines = [r.split(",") for r in RESULTS.strip().splitlines()[1:]]
    boards = ""
    for board in ("1", "2"):
        boards += f"<BOARD><BOARD_NUMBER>{board}</BOARD_NUMBER>"
        for _e, _s, _sec, _rnd, _t, b, ns, ew, contract, decl, tricks, score in lines:
            if b == board:
                boards += (
                    f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER>"
                    f"<EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER><CONTRACT>{contract}</CONTRACT>"
                    f"<PLAYED_BY>{decl}</PLAYED_BY><TRICKS>{tricks}</TRICKS>"
                    f"<SCORE>{score}</SCORE></TRAVELLER_LINE>"
                )
        boards += "</BOARD>"
    prog = f"<PROGRAM_NAME>{program}</PROGRAM_NAME>" if program else ""
    if len(dates) == 1:
        body = f"<DATE>{dates[0]}</DATE>{boards}"
    else:
        body = "".join(
            f"<SESSION><SESSION_NUMBER>{n}</SESSION_NUMBER><DATE>{d}</DATE>{boards}</SESSION>"
            for n, d in enumerate(dates, start=1)
        )
    return (
        '<?xml version="1.0"?>\n<USEBIO Version="1.2"><CLUB><CLUB_ID_NUMBER>77</CLUB_ID_NUMBER>'
        f'</CLUB><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_IDENTIFIER>{ident}</EVENT_IDENTIFIER>'
        f"<EVENT_DESCRIPTION>Tuesday pairs</EVENT_DESCRIPTION>{prog}{body}</EVENT></USEBIO>\n"
    )


def _inbox(tmp: Path, xml: str, events_rows: str = "") -> Path:
    """The USEBIO file ``club-b.xml`` beside club A's CSV results of event OK1, dated
    11 March by ``events.csv`` (plus ``events_rows``)."""
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER}\nOK1,1,2026-03-11,Monday pairs,howell,wbf,\n{events_rows}"
    )
    (inbox / "club-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "club-b.xml").write_text(xml)
    return inbox


def test_an_ambiguous_usebio_date_is_rejected_and_holds_its_event(tmp_path: Path):
    inbox = _inbox(tmp_path, usebio([AMBIGUOUS]))
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    assert rows(wh, "SELECT file, location, field, reason, raw FROM rejected_inputs") == [
        ("club-b.xml", "EVENT", "date", REASON, AMBIGUOUS)
    ]
    # held, placed on the earlier reading; the other event of that date published Final
    [(file, location, field, reason)] = rows(
        wh, "SELECT file, location, field, reason FROM holds WHERE event_id = '77-502'"
    )
    assert (file, location, field) == ("club-b.xml", "EVENT", "date")
    assert reason == f"the event's date is not known: {REASON}"
    lines = ran.output.splitlines()
    assert f"club-b.xml:EVENT: date: {REASON}" in lines
    assert f"held 77-502: club-b.xml:EVENT: date: {reason}" in lines
    assert (
        f"held       1 event(s) not published, the rest of their date is: 77-502 [{DAY_FIRST}]"
    ) in lines
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "77-502")
    assert rows(wh, "SELECT DISTINCT event_id, status FROM standings ORDER BY ALL") == [
        ("77-502", "held"),
        ("OK1", "final"),
    ]


def test_a_profile_stating_month_first_reads_it_month_first(tmp_path: Path):
    # events.csv gives club-b.xml's events the ACBL profile, whose date_order is "mdy"
    inbox = _inbox(tmp_path, usebio([AMBIGUOUS]), "club-b.xml,,,,,acbl,\n")
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == 0, ran.output
    assert "rejected   0 rows or files" in ran.output.splitlines()
    assert rows(wh, "SELECT * FROM rejected_inputs") == []
    assert rows(wh, "SELECT event_id, CAST(date AS VARCHAR), profile FROM events ORDER BY 1") == [
        ("77-502", MONTH_FIRST, "acbl"),
        ("OK1", DAY_FIRST, "wbf"),
    ]
    site = tmp_path / "site"
    assert status(site, "77-502") == status(site, "OK1") == "Final"


def test_the_usebio_file_states_its_order_by_another_date(tmp_path: Path):
    # session 2 on 11/17/2026 has no month 17: the file writes month first
    snap = scan(_inbox(tmp_path, usebio([AMBIGUOUS, "11/17/2026"])))
    assert snap.rejected.height == 0 and snap.event_holds.height == 0
    ev = snap.events.filter(pl.col("event_id") == "77-502").sort("session")
    assert ev["date"].to_list() == [MONTH_FIRST, "2026-11-17"]
    assert sorted(snap.results["session_date"].unique()) == [DAY_FIRST, MONTH_FIRST, "2026-11-17"]


def test_an_ambiguous_events_csv_date_is_rejected_and_holds_its_event(tmp_path: Path):
    inbox = _inbox(tmp_path, usebio(["27/07/2022"], ident="503"), "EV2,1,11/03/2026,B,howell,,\n")
    (inbox / "club-c.csv").write_text(RESULTS.format(e="EV2"))
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    assert rows(wh, "SELECT file, location, field, reason FROM rejected_inputs") == [
        ("events.csv", "line 3", "date", REASON)
    ]
    lines = ran.output.splitlines()
    assert f"events.csv:line 3: date: {REASON}" in lines
    assert (
        f"held       1 event(s) not published, the rest of their date is: EV2 [{DAY_FIRST}]"
    ) in lines
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    assert not published(site, "EV2")
    # 27/07/2022 has no month 27: read day first, as before, and published
    assert rows(wh, "SELECT CAST(date AS VARCHAR) FROM events WHERE event_id = '77-503'") == [
        ("2022-07-27",)
    ]
    assert status(site, "77-503") == "Final"


def test_the_events_csv_states_its_order_by_another_date(tmp_path: Path):
    # 27/03/2026 has no month 27: the file writes day first, so EV2's 11/03/2026 is 11 March
    inbox = _inbox(tmp_path, usebio(["27/07/2022"]), "EV2,1,11/03/2026,B,howell,,\n")
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER}\nOK1,1,27/03/2026,A,howell,wbf,\nEV2,1,11/03/2026,B,howell,,\n"
    )
    (inbox / "club-c.csv").write_text(RESULTS.format(e="EV2"))
    snap = scan(inbox)
    assert snap.rejected.height == 0 and snap.event_holds.height == 0
    dates = dict(snap.events.select("event_id", "date").rows())
    assert dates == {"OK1": "2026-03-27", "EV2": DAY_FIRST, "77-502": "2022-07-27"}


def test_a_file_writing_both_orders_is_rejected(tmp_path: Path):
    inbox = _inbox(tmp_path, usebio(["03/03/2026"]))
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER}\nOK1,1,2026-03-11,A,howell,wbf,\n"
        "EV2,1,27/03/2026,B,howell,acbl,\nEV3,1,03/28/2026,C,howell,ebu,\n"
    )
    (inbox / "club-c.csv").write_text(RESULTS.format(e="EV2"))
    (inbox / "club-d.csv").write_text(RESULTS.format(e="EV3"))
    snap = scan(inbox)
    why = (
        "cannot be read: this file writes dates both day first (27/03/2026) and month first "
        "(03/28/2026); write its dates YYYY-MM-DD"
    )
    assert snap.rejected.select("location", "field", "reason").rows() == [
        ("line 3", "date", f"date 27/03/2026 {why}"),
        ("line 4", "date", f"date 03/28/2026 {why}"),
    ]
    assert snap.event_holds.select("event_id", "location").rows() == [
        ("EV2", "line 3"),
        ("EV3", "line 4"),
    ]
    # equal day and month (03/03/2026) reads the same in both orders: dated as before
    assert snap.events.filter(pl.col("event_id") == "77-502")["date"].to_list() == ["2026-03-03"]


def test_a_date_given_by_events_csv_leaves_the_files_header_date_unused(tmp_path: Path):
    # events.csv dates 77-502 (ISO): the USEBIO header's ambiguous date dates nothing
    inbox = _inbox(tmp_path, usebio([AMBIGUOUS]), "77-502,1,2026-11-03,,howell,,\n")
    snap = scan(inbox)
    assert snap.rejected.height == 0 and snap.event_holds.height == 0
    assert snap.events.filter(pl.col("event_id") == "77-502")["date"].to_list() == [MONTH_FIRST]


@pytest.fixture(scope="module")
def stated_orders(tmp_path_factory):
    """The scanned cases above in one inbox, run once by ``traveller run``: ``events.csv``
    stating day first by ``27/03/2026`` (EV2's ``11/03/2026`` is 11 March) and dating 77-504,
    whose USEBIO header is ambiguous, in ISO; ``events-both.csv`` writing both orders (EV3,
    EV4); the USEBIO file of 77-502 stating month first by ``11/17/2026``; 77-505 dated
    ``03/03/2026``. ``(warehouse, site, exit code, output)``."""
    base = tmp_path_factory.mktemp("stated")
    inbox = base / "inbox"
    inbox.mkdir()
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER}\nOK1,1,27/03/2026,A,howell,wbf,\nEV2,1,11/03/2026,B,howell,,\n"
        "77-504,1,2026-11-03,,howell,,\n"
    )
    (inbox / "events-both.csv").write_text(
        f"{EVENTS_HEADER}\nEV3,1,27/03/2026,C,howell,acbl,\nEV4,1,03/28/2026,D,howell,ebu,\n"
    )
    for event in ("OK1", "EV2", "EV3", "EV4"):
        (inbox / f"club-{event.lower()}.csv").write_text(RESULTS.format(e=event))
    (inbox / "club-b.xml").write_text(usebio([AMBIGUOUS, "11/17/2026"]))
    (inbox / "club-e.xml").write_text(usebio(["03/03/2026"], ident="505"))
    (inbox / "club-f.xml").write_text(usebio([AMBIGUOUS], ident="504"))
    wh = base / "w.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TRAVELLER_NOW", NOW)
        ran = traveller_run(inbox, wh)
    return wh, base / "site", ran.exit_code, ran.output


def test_stated_orders_are_published_and_a_file_writing_both_holds_only_its_events(
    stated_orders,
):
    wh, site, code, output = stated_orders
    assert code == EXIT_BLOCKED, output
    why = (
        "cannot be read: this file writes dates both day first (27/03/2026) and month first "
        "(03/28/2026); write its dates YYYY-MM-DD"
    )
    assert rows(wh, "SELECT file, location, field, reason FROM rejected_inputs ORDER BY 2") == [
        ("events-both.csv", "line 2", "date", f"date 27/03/2026 {why}"),
        ("events-both.csv", "line 3", "date", f"date 03/28/2026 {why}"),
    ]
    lines = output.splitlines()
    assert f"events-both.csv:line 2: date: date 27/03/2026 {why}" in lines
    assert f"events-both.csv:line 3: date: date 03/28/2026 {why}" in lines
    assert (
        "held       2 event(s) not published, the rest of their date is: EV3 [2026-03-27], "
        "EV4 [2026-03-28]"
    ) in lines
    assert rows(
        wh, "SELECT event_id, session, CAST(date AS VARCHAR) FROM events ORDER BY 1, 2"
    ) == [
        ("77-502", 1, MONTH_FIRST),
        ("77-502", 2, "2026-11-17"),
        ("77-504", 1, MONTH_FIRST),  # events.csv's ISO date, not the header's
        ("77-505", 1, "2026-03-03"),
        ("EV2", 1, DAY_FIRST),
        # held, placed on the one reading each has (no month 27, no month 28)
        ("EV3", 1, "2026-03-27"),
        ("EV4", 1, "2026-03-28"),
        ("OK1", 1, "2026-03-27"),
    ]
    for event, session in (("77-502", 1), ("77-502", 2), ("77-504", 1), ("77-505", 1)):
        assert status(site, event, session) == "Final", (event, session)
    assert status(site, "EV2") == status(site, "OK1") == "Final"
    assert not published(site, "EV3") and not published(site, "EV4")
