"""The PBN reader counts the rows the file holds, so none is lost without a word.

Planted: a blank line inside board 1's ScoreTable. A blank line ends a PBN record, so the
table row after it belongs to no record; it used to be dropped unseen, the count of rows read
being taken from the reader's own output. Expected: that row rejected at its line with the
reason; the file's rows read counted from the file — 2 + 1 rows of board 1's table, 2 of
board 2's, and the event's header: 6 = 4 results + 1 rejected + the header. Run by
``traveller run`` beside OK1: the row's line on the command line, the file's event held (its
standings would miss that table's result), exit 4; OK1 Final.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl

from pipelines.cli import EXIT_BLOCKED
from pipelines.formats.pbn import read_pbn
from pipelines.inbox import scan
from tests.robustness.conftest import RESULTS, published, rows, status, traveller_run

SCORE_HEADER = (
    '[ScoreTable "Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\3L;Declarer\\1R;'
    'Result\\2R;Score_NS\\6R;Score_EW\\6R"]'
)
PBN = f"""% PBN 2.0
[Event "Club pairs"]
[Date "2026.11.21"]
[Board "1"]
{SCORE_HEADER}
 1  1  1  2 4S N 10 "420"     -
 2  1  3  4 4S N 11 "450"     -

 3  1  5  6 3N S  9 "400"     -

[Event "#"]
[Date "#"]
[Board "2"]
{SCORE_HEADER}
 1  2  1  4 2H E  8     -  "110"
 2  2  3  6 2H E  9     -  "140"
"""


def test_a_row_after_a_blank_line_in_a_score_table_is_rejected_not_lost(tmp_path: Path):
    path = tmp_path / "club-2026-11-21.pbn"
    path.write_text(PBN, encoding="utf-8")
    r = read_pbn(path, path.name)
    assert r.results.height == 4
    [rej] = r.rejected.to_dicts()
    assert (rej["location"], rej["field"]) == ("line 9", "row")
    assert rej["reason"].startswith("this line belongs to no record or table")
    assert rej["raw"] == '3  1  5  6 3N S  9 "400"     -'
    assert r.rows_read == 6


def test_the_inbox_accounts_for_every_row_of_the_file(tmp_path: Path):
    (tmp_path / "club-2026-11-21.pbn").write_text(PBN, encoding="utf-8")
    snap = scan(tmp_path, today=date(2026, 11, 30))
    reg = snap.files.row(0, named=True)
    assert (reg["rows_read"], reg["rows_dated"], reg["rows_rejected"]) == (6, 4, 1)
    assert snap.rejected.filter(pl.col("location") == "line 9").height == 1


def test_a_run_holds_the_event_that_lost_a_row_and_publishes_the_other(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "club-2026-11-21.pbn").write_text(PBN, encoding="utf-8")
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_BLOCKED, ran.output  # its event held: a result not read
    assert "Traceback" not in ran.output
    [(file, loc, field, reason)] = rows(
        wh, "SELECT file, location, field, reason FROM rejected_inputs"
    )
    assert (file, loc, field) == ("club-2026-11-21.pbn", "line 9", "row")
    assert reason.startswith("this line belongs to no record or table")
    assert f"{file}:{loc}: {field}: {reason}" in ran.output.splitlines()
    [(event, *held)] = rows(wh, "SELECT event_id, file, location, field, reason FROM holds")
    assert (event, *held[:3]) == ("Club pairs", file, loc, field)
    assert (
        held[3] == f"the standings may miss a result of this file, a row of it not read: {reason}"
    )
    assert f"held {event}: {file}:{loc}: {field}: {held[3]}" in ran.output.splitlines()
    # the file's four other results and OK1's six scored; the row accounted
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY 1") == [
        ("Club pairs", 4),
        ("OK1", 6),
    ]
    assert rows(
        wh, "SELECT rows_read, rows_rejected FROM source_files WHERE file = 'club-2026-11-21.pbn'"
    ) == [(6, 1)]
    assert status(tmp_path / "site", "OK1") == "Final"
    assert not published(tmp_path / "site", "Club pairs")
