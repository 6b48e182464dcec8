"""The ruling and appeal logs read as CSV: every value kept as text, stripped exactly as
Python strips it (the ASCII separators and Unicode's spaces too), empty as null; a column
named twice takes its last field; a column the header lacks is null; a row with the wrong
number of fields rejected on its own line, counted by the file's lines (a quoted field may
span two)."""

from __future__ import annotations

import csv
import io
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.formats.canonical_csv import garbage
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


# ------------------------------------------------------------------ any log, against an oracle

_QUOTED = st.text(alphabet=st.sampled_from(list('ab ,"\n\u3000\x1f')), max_size=6)
# without quotes nor line breaks (as most logs are): each line is one row
_PLAIN = st.text(alphabet=st.sampled_from(list("ab \u3000\x1f")), max_size=6)


def _oracle(text: str) -> tuple[list[dict], list[tuple[str, str]], int]:
    """The reader's rules written plainly: each CSV row with the line it starts on, rows whose
    fields hold only white space skipped, a row of another width rejected on its line, each
    column's last field stripped (empty: null)."""
    reader = csv.reader(io.StringIO(text))
    header = [h.strip().lower() for h in next(reader)]
    body, ended = [], reader.line_num
    for r in reader:
        start, ended = ended + 1, reader.line_num
        if any(x.strip() for x in r):
            body.append((start, r))
    rows, rejected = [], []
    for n, r in body:
        if len(r) != len(header):
            rejected.append((f"line {n}", "row"))
            continue
        d = dict(zip(header, r, strict=True))
        rows.append(
            {
                "location": f"line {n}",
                **{c: (d[c].strip() or None) if c in d else None for c in RULING_COLUMNS[2:]},
            }
        )
    return rows, rejected, len(body)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    extra=st.lists(st.sampled_from(["note", "kind", "director", "other"]), max_size=2),
    plain=st.booleans(),
    whole=st.booleans(),
    data=st.data(),
)
def test_any_csv_log_reads_as_its_rules_say(tmp_path, extra, plain, whole, data):
    """Random logs (quoted fields over two lines, blank and white-space rows, rows of other
    widths, columns named twice; or plain logs, each line one row, whose rows may all be
    whole): the reader gives the rows, rejections and count the rules give."""
    header = ["ruling_id", "event_id", "session", "kind", *extra]
    field = _PLAIN if plain else _QUOTED
    width = st.just(len(header)) if whole else st.integers(3, 7)
    body = data.draw(
        st.lists(width.flatmap(lambda n: st.lists(field, min_size=n, max_size=n)), max_size=12)
    )
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    text = out.getvalue()
    path = tmp_path / "rulings.csv"
    path.write_text(text, encoding="utf-8")
    rows, rejected, read = read_log(path, "rulings.csv", "rulings")
    want_rows, want_rejected, want_read = _oracle(text)
    assert read == want_read
    if garbage(len(want_rejected), want_read):
        assert rows.height == 0 and rejected["location"].to_list() == ["file"]
        return
    assert rejected.select("location", "field").rows() == want_rejected
    got = rows.drop("file").to_dicts() if rows.height else []
    assert got == want_rows
