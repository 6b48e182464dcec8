"""Readers for directors' ruling logs and appeal records (CSV or JSON Lines).

``rulings*.csv`` / ``rulings*.jsonl``: one ruling per row/line with the columns of
:data:`RULING_COLUMNS`; ``appeals*.csv`` / ``appeals*.jsonl``: one appeal per row/line with
:data:`APPEAL_COLUMNS`. As with every reader, values are kept as text (JSON numbers and
booleans are written out as text) with their lineage (``file``, ``location``: ``line N``);
validation against the results happens in :mod:`pipelines.scoring.rulings`.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import polars as pl

from pipelines.formats.canonical_csv import GARBAGE_STOP, garbage
from pipelines.formats.model import REJECT_COLUMNS, ReadResult, empty_frame, frame

#: Columns of a ruling (the optional ``approved`` flag marks a late score correction the
#: Tournament Organizer approved, Law 79C2; the optional ``supersedes`` names the ruling of the
#: same table and board this one replaces). ``note`` is the director's own, kept in the
#: warehouse for the audit and never published; the optional ``public_note`` is the one text
#: of the ruling the public pages and exports may show.
RULING_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "ruling_id",
    "event_id",
    "session",
    "section",
    "board",
    "round",
    "table",
    "ns_pair",
    "ew_pair",
    "director",
    "called_at",
    "ruled_at",
    "laws",
    "kind",
    "offending",
    "ns_result",
    "ew_result",
    "board_version",
    "penalized",
    "penalty",
    "approved",
    "note",
    "public_note",
    "supersedes",
)

#: Columns of an appeal (``penalty``: the new amount when an appeal changes a penalty;
#: ``note`` the committee's own, never published; ``public_note`` what may be published).
APPEAL_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "appeal_id",
    "ruling_id",
    "lodged_at",
    "lodged_by",
    "heard_by",
    "decided_at",
    "outcome",
    "ns_result",
    "ew_result",
    "penalty",
    "deposit_retained",
    "without_merit",
    "note",
    "public_note",
)

_LOG_COLUMNS = {"rulings": RULING_COLUMNS, "appeals": APPEAL_COLUMNS}
_REQUIRED = {
    "rulings": ("ruling_id", "event_id", "session", "kind"),
    "appeals": ("appeal_id", "ruling_id", "outcome"),
}


def _text(v: object) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    s = str(v).strip()
    return s or None


def read_log(path: Path, file: str, kind: str) -> tuple[pl.DataFrame, pl.DataFrame, int]:
    """Read a ruling (``kind="rulings"``) or appeal (``"appeals"``) log.

    Returns (rows, rejected, rows_read). A missing required column rejects the whole file;
    a line that is not a JSON object, or a CSV row with the wrong number of fields, is rejected
    on its own.
    """
    columns = _LOG_COLUMNS[kind]
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return _whole(file, "file", f"the file is not UTF-8 (byte {e.start})", 0)
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip()), "")
    if first.lstrip().startswith("{"):
        return _jsonl(lines, file, columns, kind)
    return _csv(text, file, columns, kind)


def _whole(file: str, field: str, reason: str, rows: int):
    rej = frame(
        [{"file": file, "location": "file", "field": field, "reason": reason}], REJECT_COLUMNS
    )
    return pl.DataFrame(), rej, rows


def _jsonl(lines: list[str], file: str, columns: tuple[str, ...], kind: str):
    rows, rejected = [], []
    read = 0
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        read += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            rejected.append(
                {
                    "file": file,
                    "location": f"line {i}",
                    "field": "row",
                    "reason": f"not valid JSON: {e.msg}",
                    "raw": line[:300],
                }
            )
            continue
        if not isinstance(obj, dict):
            rejected.append(
                {
                    "file": file,
                    "location": f"line {i}",
                    "field": "row",
                    "reason": "each line must be a JSON object",
                    "raw": line[:300],
                }
            )
            continue
        row = {c: _text(obj.get(c)) for c in columns[2:]}
        rows.append({"file": file, "location": f"line {i}", **row})
        if len(rejected) >= GARBAGE_STOP and garbage(len(rejected), read):
            break
    if garbage(len(rejected), read):
        return _not_a_log(file, rejected, read, kind)
    missing = [c for c in _REQUIRED[kind] if rows and all(r[c] is None for r in rows)]
    if missing:
        return _whole(
            file, ",".join(missing), f"no line gives {', '.join(missing)}: not a {kind} log", read
        )
    return frame(rows, columns), frame(rejected, REJECT_COLUMNS), read


def _csv(text: str, file: str, columns: tuple[str, ...], kind: str):
    plain = _plain_csv(text, file, columns, kind)
    if plain is not None:
        return plain
    import io

    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        return _whole(file, "file", "the file is empty", 0)
    missing = [c for c in _REQUIRED[kind] if c not in header]
    # each row with the file's line it starts on (a quoted field may span lines)
    # (a row is blank when its fields joined are: no field holds more than white space)
    body: list[list[str]] = []
    starts: list[int] = []
    ended = reader.line_num
    for r in reader:
        start, ended = ended + 1, reader.line_num
        if "".join(r).strip():
            body.append(r)
            starts.append(start)
    if missing:
        return _whole(
            file,
            ",".join(missing),
            f"the header lacks {', '.join(missing)}: not a {kind} log",
            len(body),
        )
    width = len(header)
    if all(len(r) == width for r in body):  # every row whole: none to reject
        return _columns(body, starts, header, file, columns), empty_frame(REJECT_COLUMNS), len(body)
    rows: list[list[str]] = []
    lines: list[int] = []
    rejected: list[dict] = []
    for k, (n, r) in enumerate(zip(starts, body, strict=True), start=1):
        if len(r) != len(header):
            rejected.append(
                {
                    "file": file,
                    "location": f"line {n}",
                    "field": "row",
                    "reason": f"row has {len(r)} fields, the header has {len(header)}",
                    "raw": ",".join(r)[:300],
                }
            )
            if len(rejected) >= GARBAGE_STOP and garbage(len(rejected), k):
                break
            continue
        rows.append(r)
        lines.append(n)
    if garbage(len(rejected), len(body)):
        return _not_a_log(file, rejected, len(body), kind)
    return _columns(rows, lines, header, file, columns), frame(rejected, REJECT_COLUMNS), len(body)


#: The longest field :mod:`csv` reads (its ``field_size_limit``): a line longer than this is
#: left to it (it refuses the field).
_CSV_FIELD_LIMIT = 131072
#: A field as :mod:`csv` writes one: quoted (a quote inside doubled), or without a quote or a
#: comma; after a comma (each line is read with one put before it).
_FIELD = r',("(?:[^"]|"")*"|[^",]*)'
#: A line of such fields only: nothing :mod:`csv` would read otherwise than they are written.
_WELL_FORMED = r'^(?:"(?:[^"]|"")*"|[^",]*)(?:,(?:"(?:[^"]|"")*"|[^",]*))*$'


def _plain_csv(text: str, file: str, columns: tuple[str, ...], kind: str):
    """:func:`_csv` of a log every line of which is a row of well-formed fields (quoted, a
    quote inside doubled, or without quote or comma: :data:`_WELL_FORMED`; a line ends with a
    newline, a carriage return before it or not), as wide as the header, in one vectorised
    pass — what :mod:`csv` reads of it: each line one row, a line whose fields hold nothing
    but white space left out (:data:`_BLANK`). ``None`` for any other log (a quoted field over
    two lines, a stray quote or carriage return, a NUL, a row to reject, a required column
    missing): :func:`_csv` reads it row by row."""
    if "\x00" in text or not text:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    lines = text.split("\n")
    if lines[-1] == "":  # the last line's end
        lines.pop()
    if not lines or max(map(len, lines)) >= _CSV_FIELD_LIMIT:
        return None
    frame = pl.DataFrame({"text": lines}, schema={"text": pl.Utf8}).with_row_index("line", offset=1)
    if not frame["text"].str.contains(_WELL_FORMED).all():
        return None
    first = next(csv.reader([lines[0]])) if lines[0] else []
    header = [h.strip().lower() for h in first]
    if [c for c in _REQUIRED[kind] if c not in header]:
        return None  # the whole file refused: the row-by-row reading says why
    body = frame.slice(1).filter(~pl.col("text").str.contains(_BLANK))
    # each line's fields as written (a quoted one with its quotes): split at the commas, or,
    # on a line with a quote, taken one after a comma (a comma put before the line)
    quoted = pl.col("text").str.contains('"', literal=True)
    fields = pl.concat(
        [
            body.filter(~quoted).select("line", pl.col("text").str.split(",").alias("f")),
            body.filter(quoted).select(
                "line",
                (pl.lit(",") + pl.col("text"))
                .str.extract_all(_FIELD)
                .list.eval(pl.element().str.slice(1))
                .alias("f"),
            ),
        ]
    ).sort("line")
    if fields.height and (fields["f"].list.len() != len(header)).any():
        return None  # rows to reject
    if not fields.height:
        return empty_frame(columns), empty_frame(REJECT_COLUMNS), 0
    last = {h: i for i, h in enumerate(header)}

    def value(i: int) -> pl.Expr:
        """Field ``i`` as :mod:`csv` reads it: a quoted one without its quotes, a quote
        inside undoubled."""
        raw = pl.col("f").list.get(i)
        unquoted = raw.str.slice(1, raw.str.len_chars() - 2).str.replace_all(
            '""', '"', literal=True
        )
        return pl.when(raw.str.starts_with('"')).then(unquoted).otherwise(raw)

    values = fields.select(
        *(value(last[c]).alias(c) for c in columns[2:] if c in last),
        *(pl.lit(None, pl.Utf8).alias(c) for c in columns[2:] if c not in last),
    ).select(columns[2:])
    rows = _log_frame(values, fields["line"].cast(pl.Int64), file, columns)
    return rows, empty_frame(REJECT_COLUMNS), fields.height


#: The characters Python's ``str.strip()`` removes (``str.isspace``): Unicode's white space
#: and the four ASCII separators ``\x1c``-``\x1f``, which Polars' default strip keeps.
PY_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)


#: A line :mod:`csv` reads as fields that hold nothing but white space (Python's): each
#: field empty or white space, quoted or not.
_WS = "".join(f"\\x{{{ord(c):x}}}" for c in PY_WHITESPACE)
_BLANK = rf'^(?:[{_WS}]*|"[{_WS}]*")(?:,(?:[{_WS}]*|"[{_WS}]*"))*$'


def _columns(
    rows: list[list[str]], lines: list[int], header: list[str], file: str, columns: tuple
) -> pl.DataFrame:
    """The log's rows (each as many fields as the header) as the frame of ``columns``: each
    value stripped as :func:`_text` strips it, empty as null; a column named twice in the
    header takes its last field (as a dict of the row would); a column it lacks, null. One
    list per column and vectorised strings, not a dict per row."""
    if not rows:
        return empty_frame(columns)
    last = {h: i for i, h in enumerate(header)}
    fields = list(zip(*rows, strict=True))  # one tuple per field of the header
    values = pl.DataFrame(
        {c: list(fields[last[c]]) if c in last else None for c in columns[2:]},
        schema={c: pl.Utf8 for c in columns[2:]},
    )
    return _log_frame(values, pl.Series(lines, dtype=pl.Int64), file, columns)


def _log_frame(values: pl.DataFrame, lines: pl.Series, file: str, columns: tuple) -> pl.DataFrame:
    """The frame of ``columns`` from the fields read (``values``, one text column per column
    of the log, a row per row, as :mod:`csv` gives them) and the line each row starts on:
    each value stripped as :func:`_text` strips it, empty as null."""
    stripped = [pl.col(c).str.strip_chars(PY_WHITESPACE) for c in columns[2:]]
    return values.select(
        pl.lit(file, pl.Utf8).alias("file"),
        pl.format("line {}", lines).alias("location"),
        *(
            pl.when(v == "").then(None).otherwise(v).cast(pl.Utf8).alias(c)
            for v, c in zip(stripped, columns[2:], strict=True)
        ),
    )


def _not_a_log(file: str, rejected: list[dict], read: int, kind: str):
    """A log whose lines are mostly not rows of it, refused whole
    (:data:`~pipelines.formats.canonical_csv.GARBAGE_LINES`)."""
    return _whole(
        file,
        "file",
        f"{len(rejected)} of its {read} lines (the first at {rejected[0]['location']}) are no "
        f"rows of a {kind} log: a damaged file, or not the file meant, so none of it is read; "
        "send the file again",
        read,
    )


def _read_log_file(path: Path, file: str, kind: str) -> ReadResult:
    """A ruling or appeal log (``kind`` ``rulings`` or ``appeals``, CSV or JSON Lines) in a
    :class:`ReadResult` (format ``kind``, the log as its field of that name)."""
    rows, rejected, n = read_log(path, file, kind)
    log = rows if rows.height else empty_frame(_LOG_COLUMNS[kind])
    return ReadResult(file=file, format=kind, rejected=rejected, rows_read=n, **{kind: log})


def read_rulings(path: Path, file: str) -> ReadResult:
    """Read a ruling log (CSV or JSON Lines) into a :class:`ReadResult` with ``rulings``."""
    return _read_log_file(path, file, "rulings")


def read_appeals(path: Path, file: str) -> ReadResult:
    """Read an appeal log (CSV or JSON Lines) into a :class:`ReadResult` with ``appeals``."""
    return _read_log_file(path, file, "appeals")
