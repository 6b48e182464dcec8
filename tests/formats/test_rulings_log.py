"""The ruling and appeal logs read as CSV: every value kept as text, stripped exactly as
Python strips it (the ASCII separators and Unicode's spaces too), empty as null; a column
named twice takes its last field; a column the header lacks is null; a row with the wrong
number of fields rejected on its own line, counted by the file's lines (a quoted field may
span two)."""

from __future__ import annotations

import sys

from pipelines.formats.rulings import PY_WHITESPACE, RULING_COLUMNS, read_log


def test_python_whitespace_is_every_character_str_strip_removes():
    every = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert set(PY_WHITESPACE) == every


def test_a_ruling_log_row_by_row(tmp_path):
    path = tmp_path / "rulings.csv"
    path.write_text(
        "Ruling_ID,event_id,session,kind,note,kind,director\n"
        "R1, EV1 ,1,first,\u3000 kept \x1f,score_stands,TD A\n"
        'R2,EV1,1,x,"two\nlines",assigned,\n'
        "R3,EV1,1\n"
        "\n"
        "R4,EV1,2,x,,weighted,\xa0\n",
        encoding="utf-8",
    )
    rows, rejected, read = read_log(path, "rulings.csv", "rulings")
    assert read == 4
    assert rows.columns == list(RULING_COLUMNS)
    assert rows.select("location", "ruling_id", "event_id", "kind", "note", "director").rows() == [
        ("line 2", "R1", "EV1", "score_stands", "kept", "TD A"),
        ("line 3", "R2", "EV1", "assigned", "two\nlines", None),
        ("line 7", "R4", "EV1", "weighted", None, None),
    ]
    assert rows["file"].unique().to_list() == ["rulings.csv"]
    assert rows["penalty"].null_count() == 3  # not in the header
    assert rejected.select("location", "field").rows() == [("line 5", "row")]
    assert "3 fields, the header has 7" in rejected["reason"][0]
