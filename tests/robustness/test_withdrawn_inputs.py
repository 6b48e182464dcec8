"""Inputs taken out of the inbox take their standings and pages with them, and the run says so.

An inbox of three evenings, run by ``traveller run``: KEEP0 on 2026-11-20; KEEP1 and OUT1 on
2026-11-21; OUT2 alone on 2026-11-22. OUT1 and OUT2 each have their results file, an
``events.csv`` row and a ruling log. Then every input of OUT2 (so of its whole date) and of
OUT1 (an event of a date that stays) leaves the inbox, and ``traveller run`` again: exit 0;
the summary's ``this run`` line says the files removed and the date withdrawn; no row of
OUT1 or OUT2 is left in the warehouse, no page, export or line of the season dashboard
names them; KEEP0 and KEEP1 stay published Final."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from tests.robustness.conftest import (
    EVENTS_HEADER,
    RESULTS,
    RULINGS_HEADER,
    published,
    rows,
    status,
    traveller_run,
)

KEPT = ("KEEP0", "KEEP1")
GONE = ("OUT1", "OUT2")
#: The tables that hold rows of an event (the inputs read, scored, ranked, ruled).
TABLES = ("events", "validated_results", "scored_results", "standings", "rulings")


def _event_rows(wh: Path, event: str) -> dict[str, int]:
    return {
        t: rows(wh, f"SELECT count(*) FROM {t} WHERE event_id = '{event}'")[0][0] for t in TABLES
    }


def test_inputs_removed_withdraw_their_date_and_event_and_the_run_says_so(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="KEEP0"))
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="KEEP1"))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="OUT1"))
    (inbox / "results-2026-11-22.csv").write_text(RESULTS.format(e="OUT2"))
    kept_row = "KEEP1,1,2026-11-21,Monday pairs,howell,wbf,"
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER}\n{kept_row}\n"
        "OUT1,1,2026-11-21,Monday B,howell,wbf,\nOUT2,1,2026-11-22,Tuesday pairs,howell,wbf,\n"
    )
    for event, day, rid in (("OUT1", "2026-11-21", "R1"), ("OUT2", "2026-11-22", "R2")):
        (inbox / f"rulings-{day}.csv").write_text(
            f"{RULINGS_HEADER}\n{rid},{event},1,1,3,4,assigned,EW,4S N =,\n"
        )
    wh = tmp_path / "w.duckdb"
    site = tmp_path / "site"
    first = traveller_run(inbox, wh)
    assert first.exit_code == 0, first.output
    for event in (*KEPT, *GONE):
        assert status(site, event) == "Final", event
    assert all(_event_rows(wh, "OUT2").values()) and all(_event_rows(wh, "OUT1").values())

    # every input of OUT2 (its date's only event) and of OUT1 leaves the inbox
    for name in (
        "results-2026-11-21-b.csv",
        "rulings-2026-11-21.csv",
        "results-2026-11-22.csv",
        "rulings-2026-11-22.csv",
    ):
        (inbox / name).unlink()
    (inbox / "events.csv").write_text(f"{EVENTS_HEADER}\n{kept_row}\n")
    again = traveller_run(inbox, wh)
    assert again.exit_code == 0, again.output
    lines = again.output.splitlines()
    # 4 files removed and events.csv changed; 2026-11-22 withdrawn, 2026-11-21 recomputed
    assert (
        "this run   1 changed, 4 removed file(s) → 2 date(s), 1 event(s) to recompute "
        "(inputs changed 1, withdrawn 1); audit and site redone"
    ) in lines, lines
    # KEEP0 and KEEP1: 6 results each, and KEEP1's events.csv row
    assert "read       3 files, 13 rows, 2 session dates" in lines
    assert "status     2 sessions final, 0 provisional" in lines
    assert "rejected   0 rows or files" in lines

    for event in GONE:
        assert _event_rows(wh, event) == dict.fromkeys(TABLES, 0), event
        assert not published(site, event), event
    assert rows(wh, "SELECT CAST(session_date AS VARCHAR) FROM dates_done ORDER BY 1") == [
        ("2026-11-20",),
        ("2026-11-21",),
    ]
    # nothing published names them: pages, USEBIO/PBN exports, events.csv, the dashboard
    texts = [tmp_path / "season.html"] + [
        p
        for folder in ("site", "exports")
        for p in (tmp_path / folder).rglob("*")
        if p.is_file() and p.suffix != ".parquet"
    ]
    assert len(texts) > 10 and any(p.suffix == ".xml" for p in texts)
    for path in texts:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not any(event in text for event in GONE), path
    parquet = pl.read_parquet(tmp_path / "exports" / "parquet" / "standings")
    assert sorted(parquet["event_id"].unique().to_list()) == list(KEPT)
    for event in KEPT:
        assert status(site, event) == "Final", event
        assert _event_rows(wh, event)["scored_results"] == 6
