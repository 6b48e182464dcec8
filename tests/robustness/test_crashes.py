"""Values that used to stop the whole run become a located rejection of their row or file.

Planted next to a good event of the same evening: a session, board, round or table number
above 2**31 - 1 (results and ``events.csv``), a file name that is not UTF-8, a symbolic
link in the inbox, a 300-character event id and title, ``$...$`` in a club and a director's
name. Run by ``traveller run``. Expected: that row or file rejected with its location, field
and what to do, one line on the command line; exit 3 (a file refused), 4 (a result or
``events.csv`` row of an event refused: that event held) or 0 (nothing wrong: published);
the good event Final."""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl
import pytest

from pipelines.cli import EXIT_BLOCKED, EXIT_REJECTED
from pipelines.publish.site import slug
from pipelines.reports.season import _bars, _rejections_chart
from tests.robustness.conftest import (
    EVENTS_HEADER,
    RESULTS,
    published,
    rows,
    status,
    traveller_run,
)

BIG = "3000000000"  # above 2**31 - 1 = 2147483647
GOOD_LINE = "EV2,1,A,1,1,1,1,2,4S,N,10,420"
PLANTS = {
    "session": f"EV2,{BIG},A,1,1,1,1,2,4S,N,10,420",
    "round": f"EV2,1,A,{BIG},1,1,1,2,4S,N,10,420",
    "table": f"EV2,1,A,1,{BIG},1,1,2,4S,N,10,420",
    "board": f"EV2,1,A,1,1,{BIG},1,2,4S,N,10,420",
}


def _inbox(tmp: Path) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    return inbox


@pytest.mark.parametrize("field", sorted(PLANTS))
def test_a_number_above_32_bits_rejects_its_row(tmp_path: Path, field: str):
    inbox = _inbox(tmp_path)
    good = RESULTS.format(e="EV2")
    assert GOOD_LINE in good
    (inbox / "results-2026-11-21-b.csv").write_text(good.replace(GOOD_LINE, PLANTS[field]))
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output  # EV2 would miss a result: held
    [(file, loc, fld, reason)] = rows(
        wh, "SELECT file, location, field, reason FROM rejected_inputs"
    )
    assert (file, loc, fld) == ("results-2026-11-21-b.csv", "line 2", field)
    assert f"{field} '{BIG}' is larger than 2147483647" in reason and "correct the row" in reason
    assert f"results-2026-11-21-b.csv:line 2: {field}: {reason}" in ran.output.splitlines()
    assert "Traceback" not in ran.output
    # the other five results of EV2 and all six of OK1 were scored
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 5),
        ("OK1", 6),
    ]
    assert status(tmp_path / "site", "OK1") == "Final"
    assert not published(tmp_path / "site", "EV2")


@pytest.mark.parametrize("field", ["session", "correction_minutes", "expected_results"])
def test_a_number_above_32_bits_in_events_csv_rejects_its_row(tmp_path: Path, field: str):
    inbox = _inbox(tmp_path)
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="EV2"))
    cols = [*EVENTS_HEADER.split(","), "correction_minutes"]
    values = dict(zip(cols, ["EV2", "1", "2026-11-21", "B", "howell", "wbf", "", ""], strict=True))
    values[field] = BIG
    (inbox / "events.csv").write_text(",".join(cols) + "\n" + ",".join(values.values()) + "\n")
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output  # EV2's row rejected: EV2 held
    [(file, loc, fld, reason)] = rows(
        wh, "SELECT file, location, field, reason FROM rejected_inputs"
    )
    assert (file, loc, fld) == ("events.csv", "line 2", field)
    assert f"{field} '{BIG}' is larger than 2147483647" in reason
    assert f"events.csv:line 2: {field}: {reason}" in ran.output.splitlines()
    assert "Traceback" not in ran.output
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 6),
        ("OK1", 6),
    ]
    assert status(tmp_path / "site", "OK1") == "Final"


def test_a_file_name_that_is_not_utf8_is_rejected(tmp_path: Path):
    inbox = _inbox(tmp_path)
    bad = os.path.join(os.fsencode(inbox), b"results-2026-11-21-\xff.csv")
    with open(bad, "w") as f:
        f.write(RESULTS.format(e="EV2"))
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_REJECTED, ran.output
    [(file, loc, reason)] = rows(wh, "SELECT file, location, reason FROM rejected_inputs")
    assert (file, loc) == ("results-2026-11-21-\\xff.csv", "file")
    assert "is not valid UTF-8: rename the file" in reason
    assert any(
        x.startswith("results-2026-11-21-\\xff.csv:file: ") and x.endswith(reason)
        for x in ran.output.splitlines()
    ), ran.output
    assert rows(wh, "SELECT DISTINCT event_id FROM validated_results") == [("OK1",)]
    assert status(tmp_path / "site", "OK1") == "Final"


def test_a_symbolic_link_is_refused_not_read_twice(tmp_path: Path):
    inbox = _inbox(tmp_path)
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="EV2"))
    (inbox / "results-2026-11-21-c.csv").symlink_to(inbox / "results-2026-11-21-b.csv")
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_REJECTED, ran.output
    [(file, loc, reason)] = rows(wh, "SELECT file, location, reason FROM rejected_inputs")
    assert (file, loc) == ("results-2026-11-21-c.csv", "file")
    assert "symbolic link" in reason and "copy the file into the inbox" in reason
    assert any(
        x.startswith("results-2026-11-21-c.csv:file: ") and x.endswith(reason)
        for x in ran.output.splitlines()
    ), ran.output
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 6),
        ("OK1", 6),
    ]
    site = tmp_path / "site"
    assert status(site, "OK1") == status(site, "EV2") == "Final"


def test_a_broken_symbolic_link_is_refused_not_skipped(tmp_path: Path):
    inbox = _inbox(tmp_path)
    (inbox / "results-2026-11-21-c.csv").symlink_to(tmp_path / "gone.csv")
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_REJECTED, ran.output
    [(file, loc, reason)] = rows(wh, "SELECT file, location, reason FROM rejected_inputs")
    assert (file, loc) == ("results-2026-11-21-c.csv", "file")
    assert "symbolic link" in reason and "gone.csv" in reason
    assert any(
        x.startswith("results-2026-11-21-c.csv:file: ") and x.endswith(reason)
        for x in ran.output.splitlines()
    ), ran.output
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL") == [("OK1", 6)]
    assert status(tmp_path / "site", "OK1") == "Final"


def test_a_300_character_event_id_and_title_are_published(tmp_path: Path):
    """With them, ``$...$`` in OK1's club and director: drawn in the season dashboard as
    written (matplotlib would read them as mathtext), never an error."""
    long_id = "E" + "x" * 299
    inbox = _inbox(tmp_path)
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e=long_id))
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER},club,director\n"
        f"OK1,1,2026-11-21,{'T' * 300},howell,wbf,,$\\frac$ club,$ally$\n"
    )
    ran = traveller_run(inbox, tmp_path / "w.duckdb")
    assert ran.exit_code == 0, ran.output
    assert "rejected   0 rows or files" in ran.output.splitlines()
    site = tmp_path / "site"
    assert status(site, "OK1") == status(site, long_id) == "Final"
    assert "$\\frac$ club" in (tmp_path / "season.html").read_text(encoding="utf-8")


def test_a_long_slug_is_bounded_stable_and_unique():
    a, b = "T" * 300, "T" * 299 + "U"
    assert len(slug(a)) <= 100 and slug(a) == slug("T" * 300) and slug(a) != slug(b)
    assert slug("2021 Online Qual: Open R2") == "2021-Online-Qual-Open-R2"


def test_dollars_in_a_club_name_are_drawn_not_typeset():
    clubs = pl.DataFrame(
        {"period": ["2026-11", "2026-11"], "club": ["$\\x$", "$ally"], "n": [3, 4]}
    )
    assert _bars(clubs, "n", "sessions", "sessions")
    rej = pl.DataFrame({"club": ["$\\frac$", "OK"], "rejected": [1, 2]})
    assert _rejections_chart(rej)
