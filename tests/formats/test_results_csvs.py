"""Many results CSVs read at once (:func:`pipelines.formats.canonical_csv.read_results_csvs`,
used by :func:`pipelines.inbox.read_all`) give each file exactly what reading it alone gives
(:func:`pipelines.formats.read_file`): the same rows, rejections, counts and refusals."""

from __future__ import annotations

import csv
import dataclasses
import io
from pathlib import Path

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.formats import read_file, results_csv_label
from pipelines.formats.canonical_csv import (
    GARBAGE_LINES,
    RESULT_REQUIRED,
    read_results_csvs,
)
from pipelines.formats.model import RESULT_CSV_HEADER
from pipelines.inbox import inbox_files, normalise_together, read_all

#: What a cell may hold: figures, contracts, names, white space, and what makes a CSV line
#: hard to read (a comma, a quote, a carriage return, a letter outside ASCII).
_CELL = st.one_of(
    st.sampled_from(["1", "2", "12", " 7 ", "", "3NT", "4Sx", "N", "E", "-420", "A60", "x"]),
    st.text(alphabet=st.sampled_from(list('ab ,"\r\té9')), max_size=4),
)
#: A cell of a file without mistakes: a comma or a quote only where a CSV writer quotes it.
_PLAIN_CELL = st.one_of(
    st.sampled_from(["1", "2", "12", " 7 ", "", "3NT", "4Sx", "N", "E", "-420", "A60", "x"]),
    st.text(alphabet=st.sampled_from(list("ab \té9")), max_size=4),
)
_QUOTED_CELL = st.one_of(_PLAIN_CELL, st.text(alphabet=st.sampled_from(list('ab ,"é')), max_size=4))


def _same(a, b) -> bool:
    """Two :class:`ReadResult` alike: every field, frames compared by schema and rows."""
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, pl.DataFrame) or isinstance(y, pl.DataFrame):
            if not (
                isinstance(x, pl.DataFrame)
                and isinstance(y, pl.DataFrame)
                and x.schema == y.schema
                and x.equals(y, null_equal=True)
            ):
                return False
        elif x != y:
            return False
    return True


@st.composite
def _results_file(draw) -> bytes:
    """One results CSV as a club might send it: the columns in any order (some optional ones
    left out, one named twice, one unknown, a required one sometimes missing, an
    individual's four seats), rows written by a CSV writer or joined by hand (stray
    quotes), rows of other widths, blank and white-space lines, CRLF line ends, a BOM,
    sometimes a byte that is not UTF-8, sometimes mostly rows without a board number."""
    seats = draw(st.booleans()) and draw(st.booleans())
    columns = list(RESULT_CSV_HEADER)
    if seats:
        at = columns.index("ns_pair")
        columns[at : at + 2] = ["north", "south", "east", "west"]
    columns = [c for c in columns if c in RESULT_REQUIRED or c in ("north", "south", "east",
               "west") or draw(st.booleans())]  # fmt: skip
    columns = draw(st.permutations(columns))
    if draw(st.integers(0, 9)) == 0:
        columns.remove(draw(st.sampled_from(columns)))  # a required column may go
    if draw(st.integers(0, 5)) == 0:
        columns.append(draw(st.sampled_from([*columns, "file", "remarks", "__line"])))
    header = [c.upper() if draw(st.integers(0, 5)) == 0 else c for c in columns]
    width = len(header)
    garbage_boards = draw(st.integers(0, 6)) == 0
    n_rows = draw(st.integers(0, 3 * GARBAGE_LINES if garbage_boards else 12))
    lines: list[str] = []
    by_writer = draw(st.booleans())
    messy = draw(st.integers(0, 3)) == 0  # a file with mistakes: else every line a row
    cell = _CELL if messy else _QUOTED_CELL if by_writer else _PLAIN_CELL
    for _ in range(n_rows):
        n = width if not messy or draw(st.integers(0, 7)) else draw(st.integers(1, width + 2))
        cells = draw(st.lists(cell, min_size=n, max_size=n))
        if "board" in columns and columns.index("board") < n:
            board = (
                draw(st.sampled_from(["x", "?"]))
                if garbage_boards
                else str(draw(st.integers(1, 36)))
            )
            cells[columns.index("board")] = board
        if by_writer:
            out = io.StringIO()
            csv.writer(out, lineterminator="").writerow(cells)
            lines.append(out.getvalue())
        else:
            lines.append(",".join(cells))
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", "   ", "\t"])))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join([",".join(header), *lines]) + (end if draw(st.booleans()) else "")
    data = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 19)) == 0:
        data = data + b"\xff,1\n"
    return data


def _inbox(folder: Path, files: list[bytes], dated: list[bool]) -> Path:
    for k, (data, has_date) in enumerate(zip(files, dated, strict=True)):
        name = f"results-club{k}-2026-10-{10 + k:02d}.csv" if has_date else f"club{k}.csv"
        (folder / name).write_bytes(data)
    return folder


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(files=st.lists(_results_file(), min_size=1, max_size=6), data=st.data())
def test_files_read_at_once_read_as_each_alone(tmp_path_factory, files, data):
    inbox = _inbox(
        tmp_path_factory.mktemp("inbox"),
        files,
        data.draw(st.lists(st.booleans(), min_size=len(files), max_size=len(files))),
    )
    paths = inbox_files(inbox)
    alone = [(p, read_file(p, inbox, normalise=False)) for p in paths]
    normalise_together([r for _, r in alone])
    together = read_all(inbox, paths)
    assert [p for p, _ in together] == paths
    for (_, a), (_, b) in zip(together, alone, strict=True):
        assert _same(a, b), a.file


def test_only_plain_files_are_read_at_once(tmp_path):
    """A file whose every line is a row is read with the others; one with a value over two
    lines, a row of another width, or mostly no board numbers is left to be read alone
    (``None``), and so is a file that is not UTF-8."""
    head = "event_id,session,board,ns_pair,ew_pair,contract,declarer,tricks"
    plain = f'{head}\nE1,1,1,1,2,3NT,N,9\nE1,1,2,"1",2,"4S",E,10\n'
    files = {
        "plain.csv": plain,
        "crlf.csv": plain.replace("\n", "\r\n"),
        "spanning.csv": f'{head}\nE1,1,1,1,2,"3NT\nx",N,9\n',
        "ragged.csv": f"{head}\nE1,1,1,1,2,3NT,N,9\nE1,1,2,1,2\n",
        "boards.csv": head + "\n" + "E1,1,x,1,2,3NT,N,9\n" * (GARBAGE_LINES + 1),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    (tmp_path / "latin.csv").write_bytes(plain.encode("utf-8") + b"E1,1,3,1,2,3NT,N,\xe9\n")
    items = [(p, results_csv_label(p, tmp_path)) for p in inbox_files(tmp_path)]
    read = {label: r for (_, label), r in zip(items, read_results_csvs(items), strict=True)}
    assert {label for label, r in read.items() if r is not None} == {"crlf.csv", "plain.csv"}
    assert read["plain.csv"].results.select("board", "ns_pair", "contract", "location").rows() == [
        ("1", "1", "3NT", "line 2"),
        ("2", "1", "4S", "line 3"),
    ]
