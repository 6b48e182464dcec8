"""The canonical results CSV reader, plus the CSV and notation helpers the other readers share.

A results CSV has a header row naming (case-insensitively) ``event_id, session, section,
round, table, board, ns_pair, ew_pair, contract, declarer, tricks, score``; ``section``,
``round``, ``table`` and ``score`` may be left out. Every value is read as text: the
reader only trims it and writes contracts, declarers and scores in the canonical
notation of :mod:`pipelines.formats.model`. It never scores, range-checks or drops a row.

The normal path is vectorised (Polars): the file is split into physical lines, blank
lines are dropped, rows whose field count differs from the header's are set aside as
rejects, and the rest is parsed by :func:`polars.read_csv`. Only a file with a quoted
value spanning several lines falls back to the :mod:`csv` module, row by row.

An inbox's results files are read together (:func:`read_results_csvs`): the lines of every
file looked at in one query and the files of one header parsed as one CSV, each file given
exactly what reading it alone gives. A file with a mistake (a row of another width, a value
over two lines, no board numbers) is read alone, where its rejections are worked out.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import polars as pl

from pipelines.formats.model import (
    REJECT_COLUMNS,
    RESULT_COLUMNS,
    RESULT_CSV_HEADER,
    ReadResult,
    frame,
)

#: Longest ``raw`` text kept in a reject row.
RAW_LIMIT = 300

#: Hidden column holding the physical line number of each CSV row.
LINE_COL = "__line"

#: A file whose lines are mostly not rows of its header — more than half of them, and more
#: than this many — is refused whole ("not a table of that header"), not rejected line by
#: line: a few bad rows are a club's mistakes, each shown at its line; megabytes of them are
#: a damaged file or not the file meant, and listing each would cost memory without end.
GARBAGE_LINES = 10
#: Where a file read row by row (quoted values spanning lines) stops, once its bad lines are
#: this many and outnumber its rows: nothing after can make it a table.
GARBAGE_STOP = 10_000

#: The columns of a results CSV it may leave out.
RESULT_OPTIONAL: tuple[str, ...] = ("section", "round", "table", "score")
#: The columns a results CSV must have: its header but the optional ones.
RESULT_REQUIRED: tuple[str, ...] = tuple(c for c in RESULT_CSV_HEADER if c not in RESULT_OPTIONAL)
#: An individual event names the four players instead of two pairs (Law 89 events).
INDIVIDUAL_SEATS: tuple[str, ...] = ("north", "south", "east", "west")
#: The header of an individual event's results CSV: the four seats in place of the two pairs.
INDIVIDUAL_CSV_HEADER: tuple[str, ...] = (
    *RESULT_CSV_HEADER[: RESULT_CSV_HEADER.index("ns_pair")],
    *INDIVIDUAL_SEATS,
    *RESULT_CSV_HEADER[RESULT_CSV_HEADER.index("ew_pair") + 1 :],
)

_PASS_WORDS = ["P", "PASS", "PASSED", "AP", "ALLPASS", "PASSEDOUT"]
_SEAT_WORDS = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}
#: An artificial score: ``A`` + NS side + optional ``/`` or ``-`` + EW side (``A60/40``,
#: ``a60-40``, ``A 60/40``, Compscore's ``A6040``, ``A+/-``, ``A=/=``) once spaces are removed.
ARTIFICIAL_RE = r"^A(\d{2}|[+=\-])[/\-]?(\d{2}|[+=\-])$"
_ISO_DATE_IN_NAME = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")


# --------------------------------------------------------------------------- rejects


def clip(text: str | None) -> str | None:
    """Shorten ``text`` to :data:`RAW_LIMIT` characters (``None`` stays ``None``)."""
    if text is None or len(text) <= RAW_LIMIT:
        return text
    return text[: RAW_LIMIT - 1] + "…"


def reject(
    file: str, location: str, fld: str, reason: str, raw: str | None
) -> dict[str, str | None]:
    """One reject row (a dict with the :data:`REJECT_COLUMNS` keys), ``raw`` clipped."""
    return {"file": file, "location": location, "field": fld, "reason": reason, "raw": clip(raw)}


def file_failure(
    file: str, fmt: str, fld: str, reason: str, raw: str | None, rows_read: int = 0
) -> ReadResult:
    """A :class:`ReadResult` for a file that cannot be read at all: one ``file`` reject."""
    rej = frame([reject(file, "file", fld, reason, raw)], REJECT_COLUMNS)
    return ReadResult(file=file, format=fmt, rejected=rej, rows_read=rows_read)


# --------------------------------------------------------------------------- notation


def _squeezed_upper(expr: pl.Expr) -> pl.Expr:
    """Upper-cased text with all whitespace removed."""
    return expr.str.to_uppercase().str.replace_all(r"\s+", "")


def contract_expr(expr: pl.Expr) -> pl.Expr:
    """Canonical contract text: upper case, no spaces, ``3N`` → ``3NT``, pass words → ``PASS``.

    Anything else (``4HX``, ``7NTXX``, or garbage) is kept upper-cased for validation to judge.
    """
    c = _squeezed_upper(expr)
    return (
        pl.when(c.is_in(_PASS_WORDS))
        .then(pl.lit("PASS"))
        .otherwise(c.str.replace(r"^([1-7])N(X{0,2})$", "${1}NT${2}"))
    )


def declarer_expr(expr: pl.Expr) -> pl.Expr:
    """Canonical declarer: upper case; ``North``/``East``/``South``/``West`` → ``N E S W``."""
    return expr.str.to_uppercase().str.strip_chars().replace(_SEAT_WORDS)


def score_expr(expr: pl.Expr) -> pl.Expr:
    """Canonical score: artificial forms → ``A<ns>/<ew>``, ``np`` → ``NP``; others as written."""
    c = _squeezed_upper(expr)
    return (
        pl.when(c.str.contains(ARTIFICIAL_RE))
        .then(c.str.replace(ARTIFICIAL_RE, "A${1}/${2}"))
        .when(c.is_in(["NP", "N/P"]))
        .then(pl.lit("NP"))
        .otherwise(expr)
    )


def blank_to_null(expr: pl.Expr) -> pl.Expr:
    """Trim surrounding whitespace; an empty string becomes null."""
    s = expr.str.strip_chars()
    return pl.when(s != "").then(s)


def normalise_results(df: pl.DataFrame) -> pl.DataFrame:
    """Trim every Utf8 column (empty → null) and write contract, declarer, score canonically.

    Accepts a frame with (at least) the ``contract``, ``declarer`` and ``score`` columns;
    returns it with the same columns and order.
    """
    df = df.with_columns(blank_to_null(pl.col(c)) for c in df.columns if df[c].dtype == pl.Utf8)
    return df.with_columns(
        contract_expr(pl.col("contract")).alias("contract"),
        declarer_expr(pl.col("declarer")).alias("declarer"),
        score_expr(pl.col("score")).alias("score"),
    )


def date_from_name(path: Path) -> str | None:
    """The ISO date ``YYYY-MM-DD`` the file name contains, if it is a real date; else ``None``."""
    m = _ISO_DATE_IN_NAME.search(path.name)
    if not m:
        return None
    try:
        date.fromisoformat(m.group(1))
    except ValueError:
        return None
    return m.group(1)


# --------------------------------------------------------------------------- CSV tables


@dataclass
class CsvTable:
    """A CSV file read as text.

    ``frame`` has one Utf8 column per header name (trimmed, lower-cased; values trimmed,
    empty → null) plus :data:`LINE_COL` (``line N``); ``rejected`` holds ragged rows;
    ``rows_read`` counts non-blank data lines. ``failure`` is set (and ``frame`` is
    ``None``) when the file cannot be read at all.
    """

    header: list[str] = field(default_factory=list)
    header_raw: str = ""
    frame: pl.DataFrame | None = None
    rejected: list[dict[str, str | None]] = field(default_factory=list)
    rows_read: int = 0
    failure: dict[str, str | None] | None = None


def decode_utf8(data: bytes) -> tuple[str | None, str | None]:
    """Decode UTF-8 (an optional BOM removed). Returns ``(text, None)`` or ``(None, reason)``."""
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8"), None
    except UnicodeDecodeError as exc:
        offset = exc.start + bom
        line = data[:offset].count(b"\n") + 1
        return None, (
            f"the file is not UTF-8 text: byte 0x{data[offset]:02X} at byte offset {offset} "
            f"(line {line}) cannot be decoded; save the file as 'CSV UTF-8' and send it again"
        )


def _header_names(raw: str) -> list[str]:
    """Header field names (CSV-parsed), trimmed and lower-cased."""
    fields = next(csv.reader([raw]), [])
    return [f.strip().lower() for f in fields]


def _unique(names: list[str]) -> list[str]:
    """``names`` with repeats renamed ``name__duplicateN`` (the first one wins)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if n in seen:
            seen[n] += 1
            out.append(f"{n}__duplicate{seen[n]}")
        else:
            seen[n] = 0
            out.append(n)
    return out


def _tidy(df: pl.DataFrame, names: list[str], lines: list[int]) -> pl.DataFrame:
    """Name the columns, trim values (empty → null), add ``line N`` locations."""
    df.columns = _unique(names)
    df = df.with_columns(blank_to_null(pl.col(c)) for c in df.columns)
    line_col = pl.Series(LINE_COL, lines, dtype=pl.Int64).cast(pl.Utf8)
    return df.with_columns(pl.concat_str(pl.lit("line "), line_col).alias(LINE_COL))


def _odd_quotes() -> pl.Expr:
    """``odd``: whether a line (``raw``) holds an odd number of quotes — a quoted value left
    open, which goes on on the next line (the file is then read row by row)."""
    return (pl.col("raw").str.count_matches('"') % 2 == 1).alias("odd")


def _field_count() -> pl.Expr:
    """``fields``: how many fields a line (``raw``) splits into at its commas outside quotes."""
    return (pl.col("raw").str.replace_all(r'"[^"]*"', "").str.count_matches(",") + 1).alias(
        "fields"
    )


def load_csv_table(path: Path, file: str, whole: str | None = None) -> CsvTable:
    """Read ``path`` as a UTF-8 CSV with a header row; ``file`` labels reject rows.

    ``whole`` names a column every row holds a whole number in (a results file's
    ``board``): when most of the first :data:`GARBAGE_STOP` rows do not, the file is refused
    before the rest is parsed (:func:`no_numbers`)."""
    data = path.read_bytes()
    text, problem = decode_utf8(data)
    if text is None:
        n_lines = sum(1 for ln in data.split(b"\n") if ln.strip())
        return CsvTable(
            rows_read=max(n_lines - 1, 0),
            failure=reject(file, "file", "file", problem or "not UTF-8", None),
        )
    # every non-blank line with its number (0-based), whether it holds an odd number of
    # quotes, and how many fields it splits into outside quotes: one query, not one per
    # question (a small file's reading is mostly the cost of each query)
    info = (
        pl.LazyFrame({"raw": text.split("\n")}, schema={"raw": pl.Utf8})
        .with_row_index("i")
        .with_columns(pl.col("raw").str.strip_suffix("\r"))
        .filter(pl.col("raw").str.strip_chars() != "")
        .with_columns(_odd_quotes(), _field_count())
        .collect()
    )
    if info.height == 0:
        return CsvTable(failure=reject(file, "file", "file", "the file is empty", None))
    header_raw = info["raw"][0]
    table = CsvTable(header_raw=header_raw, header=_header_names(header_raw))
    if info["odd"].any():
        return _load_with_csv_module(text, file, table)
    rows = info.slice(1)
    width = len(table.header)
    table.rows_read = rows.height
    ragged = rows.filter(pl.col("fields") != width)
    bad = ragged.height
    if garbage(bad, table.rows_read):
        first = int(ragged["i"][0]) + 1
        table.failure = _not_a_table(file, bad, table.rows_read, width, first)
        return table
    for i, raw, n in ragged.select("i", "raw", "fields").iter_rows():
        table.rejected.append(_ragged(file, int(i) + 1, n, width, raw))
    body = rows.filter(pl.col("fields") == width) if bad else rows
    idx = body["i"]
    good_body = body["raw"]
    if whole in table.header and body.height >= GARBAGE_STOP:
        probe = good_body.head(GARBAGE_STOP)
        sample = "\n".join([table.header_raw, *probe.to_list()]) + "\n"
        try:
            first = pl.read_csv(
                io.BytesIO(sample.encode("utf-8")), has_header=True, infer_schema=False
            ).to_series(table.header.index(whole))
        except (pl.exceptions.PolarsError, IndexError):
            first = None  # judged on the whole file below
        if first is not None:
            lines_of = (idx + 1).head(GARBAGE_STOP).cast(pl.Utf8)
            failure = no_numbers(file, first, lines_of, whole, "the first ")
            if failure is not None:
                table.failure = failure
                return table
    good_lines = [i + 1 for i in idx.to_list()]
    csv_text = "\n".join([table.header_raw, *good_body.to_list()]) + "\n"
    try:
        df = pl.read_csv(io.BytesIO(csv_text.encode("utf-8")), has_header=True, infer_schema=False)
    except pl.exceptions.PolarsError:
        df = None
    if df is None or df.height != len(good_lines) or df.width != len(table.header):
        table.rejected.clear()
        return _load_with_csv_module(text, file, table)
    table.frame = _tidy(df, table.header, good_lines)
    return table


def no_numbers(
    file: str, values: pl.Series, lines: pl.Series, column: str, which: str = ""
) -> dict[str, str | None] | None:
    """The file-level reject of a file whose rows mostly hold no whole number in ``column``
    (``values``, at ``lines``: no results file), or ``None``."""
    bad = ~values.fill_null("").str.strip_chars().str.contains(r"^\d+$")
    n = int(bad.sum())
    if not garbage(n, values.len()):
        return None
    first = lines.filter(bad)[0]
    where = first if str(first).startswith("line") else f"line {first}"
    return reject(
        file,
        "file",
        column,
        f"{n} of {which or 'its '}{values.len()} rows (the first at {where}) have no {column} "
        "number: this is no results file (a damaged file, or not the file meant), so none of "
        "it is read; send the file again",
        None,
    )


def garbage(bad: int, rows: int) -> bool:
    """Whether ``bad`` lines of ``rows`` make a file no table of its header
    (:data:`GARBAGE_LINES`)."""
    return bad > GARBAGE_LINES and 2 * bad > rows


def _refuse(table: CsvTable, file: str, width: int) -> CsvTable:
    """``table`` refused whole: its lines are mostly not rows (:func:`_not_a_table`)."""
    first = int((table.rejected[0]["location"] or "line 0").split()[-1])
    table.failure = _not_a_table(file, len(table.rejected), table.rows_read, width, first)
    table.rejected.clear()
    table.frame = None
    return table


def _not_a_table(file: str, bad: int, rows: int, width: int, first: int) -> dict[str, str | None]:
    """The file-level reject of a file whose lines are mostly not rows of its header."""
    return reject(
        file,
        "file",
        "file",
        f"{bad} of its {rows} lines (the first at line {first}) do not have the header's "
        f"{width} fields: this is no table of that header (a damaged file, or not the file "
        "meant), so none of it is read; send the file again",
        None,
    )


def _ragged(file: str, line: int, n: int, width: int, raw: str) -> dict[str, str | None]:
    """The reject row for a line with ``n`` fields where the header has ``width``."""
    return reject(file, f"line {line}", "row", f"row has {n} fields, the header has {width}", raw)


def _load_with_csv_module(text: str, file: str, table: CsvTable) -> CsvTable:
    """Row-by-row fallback for files whose quoted values span lines (or confuse the fast path)."""
    reader = csv.reader(io.StringIO(text))
    width = len(table.header)
    columns: list[list[str]] = [[] for _ in range(width)]
    lines: list[int] = []
    seen_header = False
    table.rows_read = 0
    while True:
        start = reader.line_num + 1
        try:
            rec = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            reason = f"the CSV cannot be parsed near line {reader.line_num}: {exc}"
            table.failure = reject(file, "file", "file", reason, None)
            return table
        if not rec or (len(rec) == 1 and not rec[0].strip()):
            continue
        if not seen_header:
            seen_header = True
            continue
        table.rows_read += 1
        if len(rec) != width:
            table.rejected.append(_ragged(file, start, len(rec), width, ",".join(rec)))
            # judged on the whole file below; once the bad lines outnumber the rows by the
            # thousands, no end of the file can make it a table: stop reading there
            if len(table.rejected) >= GARBAGE_STOP and garbage(
                len(table.rejected), table.rows_read
            ):
                return _refuse(table, file, width)
            continue
        lines.append(start)
        for col, value in zip(columns, rec, strict=True):
            col.append(value)
    if garbage(len(table.rejected), table.rows_read):
        return _refuse(table, file, width)
    df = pl.DataFrame(
        {f"c{i}": col for i, col in enumerate(columns)},
        schema={f"c{i}": pl.Utf8 for i in range(width)},
    )
    table.frame = _tidy(df, table.header, lines)
    return table


def missing_columns_failure(
    file: str, table: CsvTable, required: tuple[str, ...], kind: str
) -> dict[str, str | None] | None:
    """A file-level reject naming the required columns the header lacks, or ``None``."""
    missing = [c for c in required if c not in table.header]
    if not missing:
        return None
    names = ", ".join(missing)
    found = ", ".join(h for h in table.header if h) or "nothing"
    reason = (
        f"the header row is missing: {names}. A {kind} file needs the columns "
        f"{', '.join(required)} (this file has: {found})"
    )
    return reject(file, "file", names, reason, table.header_raw)


def table_failure(file: str, fmt: str, table: CsvTable) -> ReadResult | None:
    """The :class:`ReadResult` for a table that could not be read, or ``None`` if it was."""
    if table.failure is None:
        return None
    rej = frame([table.failure], REJECT_COLUMNS)
    return ReadResult(file=file, format=fmt, rejected=rej, rows_read=table.rows_read)


def select_columns(
    df: pl.DataFrame, columns: tuple[str, ...], fixed: dict[str, str | None]
) -> pl.DataFrame:
    """Project ``df`` onto ``columns``: ``fixed`` values first, then same-named columns, else null.

    ``location`` comes from :data:`LINE_COL`.
    """
    exprs = []
    for c in columns:
        if c in fixed:
            exprs.append(pl.lit(fixed[c], dtype=pl.Utf8).alias(c))
        elif c == "location":
            exprs.append(pl.col(LINE_COL).alias(c))
        elif c in df.columns:
            exprs.append(pl.col(c).cast(pl.Utf8))
        else:
            exprs.append(pl.lit(None, dtype=pl.Utf8).alias(c))
    return df.select(exprs)


# --------------------------------------------------------------------------- results reader


def read_results_csv(path: Path, file: str, normalise: bool = True) -> ReadResult:
    """Read a canonical results CSV into a :class:`ReadResult` (format ``csv``).

    ``file`` is the lineage label (path relative to the inbox). Missing required columns
    or non-UTF-8 content reject the whole file; ragged rows are rejected one by one.
    ``normalise=False`` leaves the results as read, each value trimmed (empty → null), for
    the caller to write them canonically (:func:`normalise_results`) — for many files at
    once, what costs a small file most of its reading (``ReadResult.normalised``).
    """
    table = load_csv_table(path, file, whole="board")
    failed = table_failure(file, "csv", table)
    if failed is not None:
        return failed
    required = RESULT_REQUIRED
    if table.frame is not None and set(INDIVIDUAL_SEATS) <= set(table.frame.columns):
        # an individual: the four players' ids stand for the pairs; each side of the table
        # is named "north/south" and "east/west" so the board is compared as usual
        required = tuple(c for c in RESULT_REQUIRED if c not in ("ns_pair", "ew_pair"))
        required += INDIVIDUAL_SEATS
        table.frame = table.frame.with_columns(
            pl.concat_str([pl.col("north"), pl.col("south")], separator="/").alias("ns_pair"),
            pl.concat_str([pl.col("east"), pl.col("west")], separator="/").alias("ew_pair"),
        )
    missing = missing_columns_failure(file, table, required, "results")
    if missing is not None:
        rej = frame([missing], REJECT_COLUMNS)
        return ReadResult(file=file, format="csv", rejected=rej, rows_read=table.rows_read)
    assert table.frame is not None
    fixed = {
        "file": file,
        "format": "csv",
        "source_ns_mp": None,
        "source_ew_mp": None,
        "session_date": date_from_name(path),
    }
    results = select_columns(table.frame, RESULT_COLUMNS, fixed)
    if normalise:
        results = normalise_results(results)
    failure = no_numbers(file, results["board"], results["location"], "board")
    if failure is not None:
        rej = frame([failure], REJECT_COLUMNS)
        return ReadResult(file=file, format="csv", rejected=rej, rows_read=table.rows_read)
    return ReadResult(
        file=file,
        format="csv",
        results=results,
        rejected=frame(table.rejected, REJECT_COLUMNS),
        rows_read=table.rows_read,
        normalised=normalise,
    )


# ------------------------------------------------------------------ many results files at once


def read_results_csvs(items: list[tuple[Path, str]]) -> list[ReadResult | None]:
    """Read many results CSVs (``path, file`` each) at once: for each file, exactly the
    :class:`ReadResult` of ``read_results_csv(path, file, normalise=False)``, or ``None`` —
    a file this reading leaves to that one.

    A file read one by one costs mostly the few queries each question about it costs, not
    its rows: here every line of every file is split and looked at in one query, and the
    files of one header are parsed by one :func:`polars.read_csv`. Read so are the files
    whose every line is a row: UTF-8, no line with a quote left open (a value over two lines),
    none with a carriage return inside it, every row as many fields as its header, the
    header naming every column a results file needs (no individual's four seats), fewer rows
    than :data:`GARBAGE_STOP` (whose first rows alone are judged) and not mostly without a
    board number. The others — a club's mistakes, each rejected at its line, or a file
    refused — are left to :func:`read_results_csv`, which says why."""
    out: list[ReadResult | None] = [None] * len(items)
    texts: list[str] = []
    index: list[int] = []
    for k, (path, _) in enumerate(items):
        text, _problem = decode_utf8(path.read_bytes())
        if text is not None:
            texts.append(text)
            index.append(k)
    if not texts:
        return out
    lines = (
        pl.DataFrame({"f": index, "raw": texts}, schema={"f": pl.Int64, "raw": pl.Utf8})
        .lazy()
        .with_columns(pl.col("raw").str.split("\n"))
        .explode("raw")
        .with_columns(pl.int_range(pl.len()).over("f").alias("i"))  # each file's line, from 0
        .with_columns(pl.col("raw").str.strip_suffix("\r"))
        .filter(pl.col("raw").str.strip_chars() != "")
        .with_columns(
            pl.int_range(pl.len()).over("f").alias("k"),  # 0: the file's header
            _odd_quotes(),
            pl.col("raw").str.contains("\r", literal=True).alias("cr"),
            _field_count(),
        )
        .collect()
    )
    heads = lines.filter(pl.col("k") == 0).select("f", pl.col("raw").alias("header_raw"))
    widths = {raw: len(_header_names(raw)) for raw in heads["header_raw"].unique().to_list()}
    body = (
        lines.filter(pl.col("k") > 0)
        .join(heads, on="f", how="left")
        .with_columns(
            pl.col("header_raw").replace_strict(widths, return_dtype=pl.Int64).alias("width")
        )
    )
    per_file = (
        lines.group_by("f")
        .agg(pl.col("odd").any(), pl.col("cr").any(), (pl.len() - 1).alias("rows"))
        .join(
            body.group_by("f").agg((pl.col("fields") != pl.col("width")).any().alias("ragged")),
            on="f",
            how="left",
        )
        .join(heads, on="f", how="left")
    )
    plain = per_file.filter(
        ~pl.col("odd")
        & ~pl.col("cr")
        & ~pl.col("ragged").fill_null(False)
        & (pl.col("rows") < GARBAGE_STOP)
    )
    rows_of = dict(zip(plain["f"].to_list(), plain["rows"].to_list(), strict=True))
    for header_raw, files in plain.group_by("header_raw", maintain_order=True).agg("f").rows():
        header = _header_names(header_raw)
        if set(INDIVIDUAL_SEATS) <= set(_unique(header)) or any(
            c not in header for c in RESULT_REQUIRED
        ):
            continue  # read one by one: an individual's seats, a missing column refused
        its = body.filter(pl.col("f").is_in(files)).sort("f", "k")
        for k, results in _plain_results(items, header_raw, header, its, rows_of).items():
            out[k] = results
    return out


def _plain_results(
    items: list[tuple[Path, str]],
    header_raw: str,
    header: list[str],
    body: pl.DataFrame,
    rows_of: dict[int, int],
) -> dict[int, ReadResult]:
    """The results of the files of ``body`` (the rows of files of one header, each a whole
    row: :func:`read_results_csvs`), parsed as one CSV and split by file again; none when
    the parse does not give one row per line (each file is then read on its own)."""
    if not body.height:  # a file of a header alone is read on its own
        return {}
    text = "\n".join([header_raw, *body["raw"].to_list()]) + "\n"
    try:
        df = pl.read_csv(io.BytesIO(text.encode("utf-8")), has_header=True, infer_schema=False)
    except pl.exceptions.PolarsError:
        return {}
    if df.height != body.height or df.width != len(header):
        return {}
    df.columns = _unique(header)
    df = df.with_columns(blank_to_null(pl.col(c)) for c in df.columns)
    f = body["f"]
    names = {k: items[k][1] for k in f.unique().to_list()}
    dates = {k: date_from_name(items[k][0]) for k in names}
    df = df.with_columns(
        pl.concat_str(pl.lit("line "), (body["i"] + 1).cast(pl.Utf8)).alias(LINE_COL)
    )
    fixed = {"format": "csv", "source_ns_mp": None, "source_ew_mp": None}
    results = select_columns(df, RESULT_COLUMNS, fixed).with_columns(
        f.replace_strict(names, return_dtype=pl.Utf8).alias("file"),
        f.replace_strict(dates, return_dtype=pl.Utf8).alias("session_date"),
    )
    bad = ~results["board"].fill_null("").str.strip_chars().str.contains(r"^\d+$")
    counts = pl.DataFrame({"f": f, "bad": bad}).group_by("f").agg(pl.col("bad").sum())
    numbered = {
        k for k, n in counts.rows() if not garbage(int(n), rows_of[k])
    }  # the others refused, one by one: no results file
    parts = results.with_columns(f.alias("__f")).partition_by(
        "__f", as_dict=True, maintain_order=True, include_key=False
    )
    none_rejected = frame([], REJECT_COLUMNS)  # one empty frame (frames are not changed)
    return {
        k: ReadResult(
            file=names[k],
            format="csv",
            results=parts[(k,)],
            rejected=none_rejected,
            rows_read=rows_of[k],
            normalised=False,
        )
        for k in names
        if k in numbered
    }
