"""The PBN reader counts the rows the file holds, so none is lost without a word.

Planted: a blank line inside board 1's ScoreTable. A blank line ends a PBN record, so the
table row after it belongs to no record; it used to be dropped unseen, the count of rows read
being taken from the reader's own output. Expected: that row rejected at its line with the
reason; the file's rows read counted from the file — 2 + 1 rows of board 1's table, 2 of
board 2's, and the event's header: 6 = 4 results + 1 rejected + the header.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl

from pipelines.formats.pbn import read_pbn
from pipelines.inbox import scan

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
