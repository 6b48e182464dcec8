"""Only official standings are published. A stated score that disagrees with its contract
(Law 77), or a ruling that cannot be applied, holds back its own event's standings (status
``held``, the reason in ``holds``): no pages, no exports, not in the season dashboard; every
other event, of the same date or another, is published.

The figures are the Laws': board 1 is unvulnerable (Law 2), so 4S by N taking 10 tricks scores
420 for NS (Law 77), and a stated 450 disagrees with it."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli import EXIT_BLOCKED, app
from pipelines.publish.site import session_dir
from pipelines.runner import run_inbox

HEADER = "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score"
RESULTS = (
    HEADER
    + """
{e},1,A,1,1,1,1,2,4S,N,10,{s}
{e},1,A,1,2,1,3,4,4S,N,11,450
{e},1,A,1,3,1,5,6,3NT,S,9,400
{e},1,A,2,1,2,1,4,2H,E,8,-110
{e},1,A,2,2,2,3,6,2H,E,9,-140
{e},1,A,2,3,2,5,2,PASS,,,0
"""
)
RULINGS = (
    "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result\n"
    "R1,{e},1,1,3,4,assigned,EW,{result},\n"
)
#: After the correction period of the 2026-11 sessions: what is published is Final.
NOW = "2026-11-30 12:00"


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", NOW)


def _status(site: Path, event: str, session: int = 1) -> str:
    page = (site / session_dir(event, session) / "index.html").read_text(encoding="utf-8")
    return page.split('id="status"><strong>', 1)[1].split("<", 1)[0]


def _listings(site: Path) -> dict[str, str]:
    """The pages that list the published sessions: the index (the latest month) and every
    month's page, by path."""
    pages = [site / "index.html", *sorted((site / "months").glob("*.html"))]
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in pages}


def _holds(warehouse: Path) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        return conn.sql(
            "SELECT strftime(session_date, '%Y-%m-%d'), event_id, file, location, field, reason "
            "FROM holds ORDER BY ALL"
        ).fetchall()


def _statuses(warehouse: Path) -> dict[str, set[str]]:
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        rows = conn.sql("SELECT DISTINCT event_id, scope, status FROM standings").fetchall()
    out: dict[str, set[str]] = {}
    for event, scope, status in rows:
        out.setdefault(event, set()).add(f"{scope}:{status}")
    return out


def test_a_held_event_is_not_published_another_date_is(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="OK1", s=420))
    (inbox / "results-2026-11-21.csv").write_text(RESULTS.format(e="BAD2", s=450))
    report = run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert report.blocked_dates == []  # no whole date is stopped
    assert report.held_events == [("2026-11-21", "BAD2")]
    site = tmp_path / "out" / "site"
    assert _status(site, "OK1") == "Final"
    assert not (site / "BAD2").exists()
    listings = _listings(site)
    assert list(listings) == ["index.html", "months/2026-11.html"]
    for text in listings.values():
        assert "OK1" in text and "BAD2" not in text and "2026-11-21" not in text
    exports = tmp_path / "out" / "exports"
    assert [p.name for p in (exports / "usebio").iterdir()] == ["OK1.xml"]
    assert [p.name for p in (exports / "pbn").iterdir()] == ["OK1-s1.pbn"]
    season = (tmp_path / "out" / "season.html").read_text(encoding="utf-8")
    assert "BAD2" not in season


def test_a_disagreement_in_one_event_holds_that_event_only(tmp_path: Path):
    """Two clubs' files of the same evening; one states 450 for 4S= (420, Law 77)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1", s=420))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="BAD2", s=450))
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert report.blocked_dates == []
    assert report.held_events == [("2026-11-21", "BAD2")]
    site = tmp_path / "out" / "site"
    assert _status(site, "OK1") == "Final"
    assert not (site / "BAD2").exists()
    listings = _listings(site)
    assert list(listings) == ["index.html", "months/2026-11.html"]
    for text in listings.values():
        assert "OK1" in text and "BAD2" not in text
    exports = tmp_path / "out" / "exports"
    assert [p.name for p in (exports / "usebio").iterdir()] == ["OK1.xml"]
    assert [p.name for p in (exports / "pbn").iterdir()] == ["OK1-s1.pbn"]
    # kept in the warehouse, held, with the located reason; the other event is final
    assert _holds(wh) == [
        (
            "2026-11-21",
            "BAD2",
            "results-2026-11-21-b.csv",
            "line 2",
            "score",
            "stated score 450 but 4S by N taking 10 tricks on board 1 scores 420 for NS "
            "(Law 77): correct the file",
        )
    ]
    statuses = _statuses(wh)
    assert statuses["BAD2"] == {"session:held", "event:held"}
    assert statuses["OK1"] == {"session:final", "event:final"}


def test_the_run_summary_names_the_held_event_and_why(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1", s=420))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="BAD2", s=450))
    r = CliRunner().invoke(
        app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")]
    )
    assert r.exit_code == EXIT_BLOCKED, r.output
    assert "status     1 sessions final, 0 provisional, 1 held" in r.output
    assert "held       1 event(s) not published, the rest of their date is: BAD2 [2026-11-21]" in (
        r.output
    )
    assert (
        "held BAD2: results-2026-11-21-b.csv:line 2: score: stated score 450 but 4S by N "
        "taking 10 tricks on board 1 scores 420 for NS (Law 77)"
    ) in r.output
    assert "check score_contract_agreement failed on validated_results [2026-11-21]" in r.output
    assert "standings withheld" not in r.output  # no whole date is withheld


def test_a_ruling_that_cannot_be_applied_holds_its_event_only(tmp_path: Path):
    """'9S' is no contract (Law 18A: a bid names one to seven odd tricks): the ruling on OK2's
    board 1 cannot be applied as written, so OK2 is held; OK1, the same evening, is not."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1", s=420))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="OK2", s=420))
    (inbox / "rulings-2026-11-21.csv").write_text(RULINGS.format(e="OK2", result="9S N +1"))
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert report.held_events == [("2026-11-21", "OK2")]
    site = tmp_path / "out" / "site"
    assert _status(site, "OK1") == "Final"
    assert not (site / "OK2").exists()
    [(day, event, file, location, field, reason)] = _holds(wh)
    assert (day, event, file, location, field) == (
        "2026-11-21",
        "OK2",
        "rulings-2026-11-21.csv",
        "line 2",
        "ns_result",
    )
    assert reason.startswith("ruling or appeal not applied: '9S N +1' is not a result")


def test_a_session_held_on_one_date_holds_its_event_totals(tmp_path: Path):
    """A two-session event, its first session held: the second session's own standings are
    published, the event's totals (which include the first session) are not."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    two = RESULTS.format(e="EV", s=450)
    second = RESULTS.format(e="EV", s=420).replace("EV,1,", "EV,2,")
    (inbox / "results-2026-11-20.csv").write_text(two)
    (inbox / "results-2026-11-21.csv").write_text(second)
    wh = tmp_path / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert report.held_events == [("2026-11-20", "EV")]
    with duckdb.connect(str(wh), read_only=True) as conn:
        rows = conn.sql(
            "SELECT DISTINCT scope, session, status FROM standings ORDER BY ALL"
        ).fetchall()
    assert rows == [("event", None, "held"), ("session", 1, "held"), ("session", 2, "final")]
    site = tmp_path / "out" / "site"
    assert not (site / session_dir("EV", 1)).exists()
    assert _status(site, "EV", session=2) == "Final"
