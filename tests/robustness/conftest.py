"""Shared inputs of the robustness tests: small files whose right answers follow from the Laws.

Board 1 is unvulnerable and board 2 North-South vulnerable (Law 2): 4S by N taking 10
tricks scores 420, 11 tricks 450, 3NT by S taking 9 tricks 400; 2H by E taking 8 tricks
is -110 for NS, 9 tricks -140 (Law 77)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import Result
from typer.testing import CliRunner

HEADER = "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score"
#: One Howell session of six pairs, two boards; every stated score agrees with Law 77.
RESULTS = (
    HEADER
    + """
{e},1,A,1,1,1,1,2,4S,N,10,420
{e},1,A,1,2,1,3,4,4S,N,11,450
{e},1,A,1,3,1,5,6,3NT,S,9,400
{e},1,A,2,1,2,1,4,2H,E,8,-110
{e},1,A,2,2,2,3,6,2H,E,9,-140
{e},1,A,2,3,2,5,2,PASS,,,0
"""
)
EVENTS_HEADER = "event_id,session,date,name,movement,profile,expected_results"
RULINGS_HEADER = (
    "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result"
)
#: After the correction period of the 2026-11 sessions: what is published is Final.
NOW = "2026-11-30 12:00"


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", NOW)


def rows(warehouse: Path, sql: str) -> list[tuple]:
    """The rows of a query on the warehouse (read only)."""
    with duckdb.connect(str(warehouse), read_only=True) as conn:
        return conn.sql(sql).fetchall()


def status(site: Path, event: str, session: int = 1) -> str:
    """The status shown on a published session's ranking page (Final, Provisional, ...)."""
    from pipelines.publish.site import session_dir

    page = (site / session_dir(event, session) / "index.html").read_text(encoding="utf-8")
    return page.split('id="status"><strong>', 1)[1].split("<", 1)[0]


#: The run summary's line when EV2, the second event of the evening, is held and OK1 is not.
HELD_EV2 = "held       1 event(s) not published, the rest of their date is: EV2 [2026-11-21]"


def traveller_run(inbox: Path, warehouse: Path, *more: str) -> Result:
    """``traveller run --inbox INBOX --warehouse WAREHOUSE`` as a scorer types it (the command
    line, in-process): its ``exit_code`` and its ``output`` (stderr included). It publishes
    beside the warehouse: the site in ``warehouse.parent / "site"``."""
    from pipelines.cli import app

    return CliRunner().invoke(
        app, ["run", "--inbox", str(inbox), "--warehouse", str(warehouse), *more]
    )


def published(site: Path, event: str) -> bool:
    """Whether the site has any page of ``event`` (a held event has none)."""
    from pipelines.publish.site import event_dir

    return (site / event_dir(event)).exists()
