"""A ruling or appeal log read in one vectorised pass is what :mod:`csv` reads of it.

The logs without a quote, a carriage return or a NUL, every line as wide as its header, are
read by splitting lines and fields in Polars (:func:`pipelines.formats.rulings._plain_csv`);
any other log row by row with :mod:`csv`. Whatever the text, both must give the same rows,
rejections and count: the row-by-row reading is the oracle here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.formats import rulings
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS

KINDS = {"rulings": RULING_COLUMNS, "appeals": APPEAL_COLUMNS}

# header names: the log's own (some upper case or padded), others, and names given twice
NAMES = st.sampled_from(
    [*RULING_COLUMNS[2:], *APPEAL_COLUMNS[2:], "Ruling_ID", " kind ", "extra", "note", ""]
)
# field text: plain words, white space of every kind Python strips, Unicode; now and then a
# quote or a comma (the field then quoted, as csv writes it, or not: a stray quote)
TEXT = st.text(
    alphabet=st.sampled_from(
        [*"ab Z09-;_.", "\t", "\x0b", "\x1c", "\u2028", "\xa0", "é", '"', ","]
    ),
    max_size=6,
)


@st.composite
def field(draw) -> str:
    text = draw(TEXT)
    how = draw(st.sampled_from(["plain", "plain", "quoted", "raw"]))
    if how == "quoted":
        return '"' + text.replace('"', '""') + '"'
    if how == "plain":
        return text.replace('"', "").replace(",", "")
    return text  # as typed: a stray quote, a comma that makes another field


FIELD = field()


@st.composite
def logs(draw, kind: str) -> str:
    required = list(rulings._REQUIRED[kind])
    header = draw(st.lists(NAMES, max_size=6))
    if draw(st.booleans()):
        header = required + header  # mostly a log a reader takes
    width = len(header)
    lines = [",".join(header)]
    for _ in range(draw(st.integers(0, 8))):
        shape = draw(st.sampled_from(["row", "row", "row", "blank", "commas", "ragged"]))
        if shape == "row":
            lines.append(",".join(draw(st.lists(FIELD, min_size=width, max_size=width))))
        elif shape == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t", "\u2028", "\x1c", " \x1f,"])))
        elif shape == "commas":
            lines.append("," * max(0, width - 1) + draw(st.sampled_from(["", " ", "\x1c", "\xa0"])))
        else:
            n = draw(st.integers(0, width + 2))
            lines.append(",".join(draw(st.lists(FIELD, min_size=n, max_size=n))))
    text = draw(st.sampled_from(["\n", "\r\n"])).join(lines)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["\n", "\r\n"]))
    # now and then what only the row-by-row reading takes: a stray quote, a carriage return,
    # a line break inside a quoted field
    extra = draw(st.sampled_from(["", "", "", '"', "\r", '"\n', "\r\n"]))
    if extra:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + extra + text[at:]
    return text


def _read(text: str, kind: str):
    """What :func:`~pipelines.formats.rulings._csv` gives, or the error it raises (a lone
    carriage return is one to :mod:`csv`; the caller refuses the file for it)."""
    try:
        return rulings._csv(text, "log.csv", KINDS[kind], kind)
    except Exception as e:
        return repr(e)


def _both(text: str, kind: str, monkeypatch):
    got = _read(text, kind)
    with monkeypatch.context() as m:
        m.setattr(rulings, "_plain_csv", lambda *a: None)
        want = _read(text, kind)
    return got, want


@pytest.mark.parametrize("kind", ["rulings", "appeals"])
def test_the_plain_reading_is_the_csv_modules(kind, monkeypatch):
    @settings(max_examples=300, deadline=None)
    @given(text=logs(kind))
    def check(text):
        got, want = _both(text, kind, monkeypatch)
        if isinstance(want, str):
            assert got == want
            return
        (rows, rejected, n), (want_rows, want_rejected, want_n) = got, want
        assert n == want_n
        assert rows.equals(want_rows, null_equal=True), (rows, want_rows)
        assert rejected.equals(want_rejected, null_equal=True)

    check()


def test_a_plain_log_is_read_in_one_pass_and_an_odd_one_row_by_row():
    header = ",".join(rulings._REQUIRED["rulings"])
    plain = f"{header}\nR1,E1,1,assigned\n\n ,, ,\nR2,E1,2,score_stands\n"
    rows, rejected, n = rulings._plain_csv(plain, "log.csv", RULING_COLUMNS, "rulings")
    assert n == 2 and rejected.height == 0
    assert rows.select("location", "ruling_id", "session").rows() == [
        ("line 2", "R1", "1"),
        ("line 5", "R2", "2"),
    ]
    assert rows["board"].is_null().all()  # a column the header lacks
    quoted = plain.replace("R2,E1", '"R2","E1, the pairs"').replace("\n", "\r\n")
    rows, _, n = rulings._plain_csv(quoted, "log.csv", RULING_COLUMNS, "rulings")
    assert n == 2 and rows["event_id"].to_list() == ["E1", "E1, the pairs"]
    for odd in (
        plain.replace("R2", 'R"2'),  # a stray quote
        plain.replace("R2", '"R\n2"'),  # a quoted field over two lines
        plain.replace("\n", "\r"),  # carriage returns alone
        plain + "R3,E1\n",  # a row to reject
        "ruling_id,kind\nR1,x\n",  # a required column missing: refused whole
        "",
    ):
        assert rulings._plain_csv(odd, "log.csv", RULING_COLUMNS, "rulings") is None
