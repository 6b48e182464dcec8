"""Bridgemate scoring databases (``.bws``): Jet 3 (Access 97) and Jet 4 (Access 2000) files.

A ``.bws`` is the Access database that Bridgemate Control Software (BCS) and the
scoring programs write while a session is played. Reading happens in two steps,
so that the mapping can be tested without a database:

1. :func:`export_tables` runs Debian's ``mdbtools`` (``mdb-tables``, ``mdb-export``;
   both Jet versions) and parses each table's CSV with Polars, every column ``Utf8``;
2. :func:`tables_to_result` maps those frames to a :class:`ReadResult`; it is pure.

Tables used: ``ReceivedData`` (required: the results), ``Section`` (required: letters,
phantom pair, scoring type), ``Session`` (date, name, GUID) and ``RoundData`` (the
movement). A missing tool, an unreadable database or a missing required table rejects
the whole file with the reason.

Results (``ReceivedData``, one row per entry made at a table)
--------------------------------------------------------------
* **Superseded and erased entries.** Rows are grouped by (``Section``, ``Table``,
  ``Round``, ``Board``, the two pair numbers in either order); in each group only the
  row with the highest ``ID`` counts, and it is dropped if ``Erased`` is true. The pair
  numbers are part of the key because a re-entry at a table is for the same two pairs
  (the movement seats them), while a row naming other pairs at the same table, round
  and board is another result, not a correction (the bot-written Jet 4 file holds such
  rows; they are reported by the checks below). Every row is accounted for: a
  superseded or erased entry is not an error but the table's history, so it is reported
  as a warning with field ``superseded`` (location ``ReceivedData ID n``) and a reason
  naming the entry that replaced it; the registry counts these rows apart, so
  ``results + rejected + superseded`` covers every ``ReceivedData`` row.
* ``Contract`` ``"4 S x"`` → ``4SX``, ``"3 NT"`` → ``3NT``, ``"4 D xx"`` → ``4DXX``,
  ``PASS`` → ``PASS`` (no declarer, tricks or lead). Any other text is kept (spaces
  removed, upper case) for validation to judge.
* ``Result`` is relative to the contract (``=``, ``+1``, ``-2``): tricks = level + 6 +
  the difference. A ``Result`` in another form, or one giving tricks outside 0–13, is
  rejected.
* ``declarer`` is the seat in column ``NS/EW`` (``N E S W``). The ``Declarer`` column
  (a pair number) is never used: some writers fill it wrongly.
* ``Remarks`` (compared without case or surrounding spaces):

  - empty: an ordinary result; a row with neither contract nor remark is rejected;
  - ``Wrong direction``: the pairs sat the wrong way round: in a Howell section
    ``ns_pair`` and ``ew_pair`` are swapped (the seats of the contract stay as recorded)
    and the result is kept; in a Mitchell section (NS 2 and EW 2 are two pairs) the row is
    rejected: the pairs played the board as in an arrow switch, which a row cannot say;
  - ``Not played`` → score ``NP``;
  - ``<ns>%-<ew>%`` (``60%-40%``) → the director's table-level score ``A<ns>/<ew>``,
    written as the percentages say (``A55/45``); validation accepts only 60/50/40;
  - ``Arbitral score`` without percentages → rejected: the file does not say what the
    director gave, so the director must give the percentages. (TabScore's provisional
    ranking shows 50%/50% for any remark it cannot read, ``Not played`` included: a
    display fallback, not a score to publish.)
  - anything else → rejected, naming the remark.

  A remark other than empty or ``Wrong direction`` overrides a contract left in the
  row (as TabScore reads it); the contract is then ignored, with a warning.
* ``section`` is the ``Section.Letter`` of the row's section ID (a row whose section
  is not in ``Section`` is rejected); ``session`` is ``1``; ``session_date`` is
  ``Session.Date`` as ``YYYY-MM-DD`` on every row; ``lead`` is ``LeadCard`` as written
  (``SQ``, ``D10``); ``entered_at`` is ``DateLog``'s date + ``TimeLog``'s time
  (``YYYY-MM-DD HH:MM:SS``), null unless both are there; ``location`` is
  ``ReceivedData ID n``; ``format`` is ``bws``. The file carries no score: validation
  computes it (Law 77) from contract, declarer and tricks.

Consistency with ``RoundData``
------------------------------
``RoundData`` is used for a section when it seats at least one pair that the section's
results name and has a row for at least half the tables and rounds they name; otherwise it
describes another movement (a template left over, as in the bot-written file) or a part of
one (a later copy of the BCS file keeps one row of it, table 1 in round 1, beside 154
results at eight tables in eleven rounds): it is then not used for that section, and a
warning says so. Checked against a part of a movement, every result outside that part would
be rejected, the session lost for rows the file lacks.

* A result whose table and round are not in ``RoundData``, whose pairs are not the
  ``NSPair``/``EWPair`` there (in that order), or whose board is outside
  ``LowBoard``..``HighBoard`` (not checked when ``CustomBoards`` is given) is
  **rejected** with a reason stating what ``RoundData`` says.
* **Warnings** (kept rows; :data:`~pipelines.formats.model.WARNING_COLUMNS`):

  - a table with fewer results than its rounds require (every board
    ``LowBoard``..``HighBoard`` of every round), one warning per table listing what is
    missing; rounds where a pair is the section's phantom are left out. The phantom is
    ``Section.MissingPair``; when that is 0, a pair that ``RoundData`` seats but no
    ``ReceivedData`` row names is taken as the phantom, with a warning;
  - ``SuspiciousContract`` set on a result;
  - one table and round holding results of two different pairings;
  - ``RoundData`` not used for a section (see above), or absent;
  - a ``Section.ScoringType`` other than 1 (matchpoints); more than one ``Session`` row.

Event
-----
One event session per file (location ``Session``): ``event_id`` = ``Session.GUID``,
else the file's stem; ``name`` = ``Session.Name``; ``date`` = ``Session.Date``; form
``pairs``; scoring ``matchpoints`` when every section's ``ScoringType`` is 1, else left
to the defaults (warned); movement ``mitchell`` when in every section the NS pair at
each table is the same in every round, else ``howell`` — judged on ``RoundData`` where it
is used, else on the results; a file with a Mitchell section beside a Howell one has its
Mitchell sections' rows rejected with the reason (one movement per event session).

Names: ``PlayerNumbers`` (with ``PlayerNames``) give each pair its players' names, one
contestant row per pair (see :func:`_players`); the numbers are stored, never published.

``rows_read`` = ``ReceivedData`` rows + 1 (the event row) + the contestant rows.
"""

from __future__ import annotations

import io
import os
import re
import resource
import selectors
import shutil
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipelines.formats.canonical_csv import clip, file_failure, normalise_results, reject
from pipelines.formats.model import (
    CONTESTANT_COLUMNS,
    DEAL_COLUMNS,
    EVENT_COLUMNS,
    REJECT_COLUMNS,
    RESULT_COLUMNS,
    WARNING_COLUMNS,
    ReadResult,
    frame,
)

FORMAT = "bws"

#: The tables read, and those without which the file is rejected.
TABLES: tuple[str, ...] = (
    "ReceivedData",
    "Section",
    "Session",
    "RoundData",
    "HandRecord",
    "PlayerNumbers",
    "PlayerNames",
)
REQUIRED_TABLES: tuple[str, ...] = ("ReceivedData", "Section")

#: ``ReceivedData`` columns the reader needs (others are optional: ``LeadCard``,
#: ``DateLog``, ``TimeLog``, ``SuspiciousContract``).
RECEIVED_COLUMNS: tuple[str, ...] = (
    "ID",
    "Section",
    "Table",
    "Round",
    "Board",
    "PairNS",
    "PairEW",
    "NS/EW",
    "Contract",
    "Result",
    "Remarks",
    "Erased",
)

#: Why a ``.bws`` cannot be read on a machine without mdbtools.
MISSING_TOOL = (
    "reading .bws files needs mdbtools (mdb-export); install it with: apt-get install mdbtools"
)

#: Seconds one mdbtools call may take before the file is given up.
TIMEOUT_SECONDS = 120

#: The most one ``mdb-export`` may print, as a multiple of the database's size (at least
#: :data:`MIN_OUTPUT_BYTES`): a table's text is of the order of the pages that hold it, so a
#: database whose pages claim more rows than the file can hold (damaged, or made to) is
#: refused once its text passes this, never read whole into memory.
OUTPUT_PER_BYTE = 16
MIN_OUTPUT_BYTES = 16 * 1024 * 1024

#: The address space an mdbtools process may take: it reads a database page by page.
TOOL_MEMORY_BYTES = 1024 * 1024 * 1024

_DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_CONTRACT = re.compile(r"^([1-7])\s*(NT|N|S|H|D|C)\s*(X{0,2})$")
_RESULT = re.compile(r"^(=|[+-]\d{1,2})$")
_PERCENT = re.compile(r"^(\d{1,3}(?:[.,]\d+)?)\s*%?\s*-\s*(\d{1,3}(?:[.,]\d+)?)\s*%?$")
_ISO_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})")
_ISO_TIME = re.compile(r"(\d{2}:\d{2}:\d{2})$")
_TRUE = {"1", "-1", "true", "yes"}

Row = dict[str, str | None]


class BwsReadError(Exception):
    """The database could not be exported; the message is the reason for the reject."""


# --------------------------------------------------------------------------- step 1: export


def export_tables(path: Path, names: tuple[str, ...] = TABLES) -> dict[str, pl.DataFrame]:
    """Export the tables ``names`` that the database at ``path`` holds, as all-Utf8 frames.

    Tables the database lacks are left out of the result. Raises :class:`BwsReadError`
    when mdbtools is missing, fails, or reports a problem on stderr (a truncated file can
    make ``mdb-export`` print an empty table, exit 0 and complain only on stderr).
    """
    if shutil.which("mdb-export") is None or shutil.which("mdb-tables") is None:
        raise BwsReadError(MISSING_TOOL)
    limit = max(MIN_OUTPUT_BYTES, OUTPUT_PER_BYTE * path.stat().st_size)
    listed = _run(["mdb-tables", "-1", str(path)], limit)
    present = {line.strip() for line in listed.splitlines() if line.strip()}
    tables: dict[str, pl.DataFrame] = {}
    for name in names:
        if name not in present:
            continue
        out = _run(
            ["mdb-export", "-D", _DATETIME_FORMAT, "-T", _DATETIME_FORMAT, str(path), name],
            limit,
            f"table {name}",
        )
        tables[name] = _parse_csv(out, name)
    return tables


def _limit_memory() -> None:  # pragma: no cover - runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (TOOL_MEMORY_BYTES, TOOL_MEMORY_BYTES))


def _run(args: list[str], limit: int = MIN_OUTPUT_BYTES, what: str = "") -> str:
    """Run one mdbtools command; its stdout (UTF-8), or :class:`BwsReadError`. The command
    may print at most ``limit`` bytes, take :data:`TIMEOUT_SECONDS` and
    :data:`TOOL_MEMORY_BYTES` of memory: a damaged (or hostile) database is refused with
    the reason, never read without bound."""
    try:
        proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limit_memory
        )
    except FileNotFoundError as exc:
        raise BwsReadError(MISSING_TOOL) from exc
    out, err, why = _bounded(proc, limit)
    if why is not None:
        proc.kill()
        proc.wait()
        if why == "time":
            raise BwsReadError(
                f"{args[0]} did not finish within {TIMEOUT_SECONDS} s; the database may be damaged"
            )
        raise BwsReadError(
            f"{args[0]} printed more than {limit // 1048576} MB for {what or 'the database'} "
            "of a database this size: its pages claim more than the file can hold (damaged); "
            "copy it again from the scoring computer"
        )
    code = proc.wait()
    problem = " ".join(err.decode("utf-8", "replace").split())
    if code != 0 or problem:
        detail = problem or f"exit status {code}"
        raise BwsReadError(
            f"the Bridgemate database cannot be read ({args[0]}: {clip(detail)}); "
            "the file may be damaged or cut short: copy it again from the scoring computer"
        )
    return out.decode("utf-8", "replace")


def _bounded(proc: subprocess.Popen, limit: int) -> tuple[bytes, bytes, str | None]:
    """Read ``proc``'s stdout and stderr to their end: ``(stdout, stderr, None)``, or stop
    with ``"size"`` when stdout passes ``limit`` bytes (stderr: 64 KB) or ``"time"`` after
    :data:`TIMEOUT_SECONDS`."""
    deadline = time.monotonic() + TIMEOUT_SECONDS
    chunks: dict[int, list[bytes]] = {}
    sizes: dict[int, int] = {}
    caps = {}
    with selectors.DefaultSelector() as sel:
        for stream, cap in ((proc.stdout, limit), (proc.stderr, 65536)):
            assert stream is not None
            sel.register(stream, selectors.EVENT_READ)
            chunks[stream.fileno()], sizes[stream.fileno()] = [], 0
            caps[stream.fileno()] = cap
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return b"", b"", "time"
            for key, _ in sel.select(timeout=left):
                data = os.read(key.fd, 65536)
                if not data:
                    sel.unregister(key.fileobj)
                    continue
                sizes[key.fd] += len(data)
                if sizes[key.fd] > caps[key.fd]:
                    if key.fileobj is proc.stdout:
                        return b"", b"", "size"
                    continue  # stderr beyond its cap: its start says enough
                chunks[key.fd].append(data)
    assert proc.stdout is not None and proc.stderr is not None
    return (
        b"".join(chunks[proc.stdout.fileno()]),
        b"".join(chunks[proc.stderr.fileno()]),
        None,
    )


def _parse_csv(text: str, name: str) -> pl.DataFrame:
    """One table's ``mdb-export`` CSV as an all-Utf8 frame (trimmed; empty → null)."""
    if not text.strip():
        raise BwsReadError(f"mdb-export printed nothing for table {name}")
    df = pl.read_csv(io.StringIO(text), infer_schema=False, has_header=True)
    return df.with_columns(
        pl.when(pl.col(c).str.strip_chars() != "").then(pl.col(c).str.strip_chars()).alias(c)
        for c in df.columns
    )


def read_bws(path: Path, file: str) -> ReadResult:
    """Read a Bridgemate ``.bws`` into a :class:`ReadResult` (format ``bws``); see the module."""
    try:
        tables = export_tables(path)
    except BwsReadError as exc:
        return file_failure(file, FORMAT, "file", str(exc), None)
    return tables_to_result(tables, file, path.stem)


# --------------------------------------------------------------------------- step 2: mapping


def _text(value: object) -> str | None:
    """Trimmed text; empty or missing → ``None``."""
    if value is None:
        return None
    s = str(value).strip()
    return s or None


def _int(value: object) -> int | None:
    """A whole number from text (``"8"``, ``"-1"``), else ``None``."""
    s = _text(value)
    if s is None or not re.fullmatch(r"[+-]?\d+", s):
        return None
    return int(s)


def _true(value: object) -> bool:
    """An Access Boolean as mdb-export prints it (``1``; ``-1``/``TRUE`` accepted)."""
    return (_text(value) or "").lower() in _TRUE


def _iso_date(value: str | None) -> str | None:
    """The ``YYYY-MM-DD`` part of an exported DateTime; other text unchanged."""
    if value is None:
        return None
    m = _ISO_DATE.match(value)
    return m.group(1) if m else value


def _entered_at(date_log: str | None, time_log: str | None) -> str | None:
    """``DateLog``'s date + ``TimeLog``'s time (``YYYY-MM-DD HH:MM:SS``); null unless both."""
    d = _ISO_DATE.match(date_log or "")
    t = _ISO_TIME.search(time_log or "")
    return f"{d.group(1)} {t.group(1)}" if d and t else None


def _raw(row: Mapping[str, str | None]) -> str:
    """A row's values, comma-separated, in column order (the ``raw`` of a reject)."""
    return ",".join("" if v is None else v for v in row.values())


def _ranges(numbers: list[int] | set[int]) -> str:
    """``[1, 2, 3, 7]`` → ``1-3, 7`` (sorted, runs joined)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _lacking(low: int, high: int, have: set[int]) -> list[tuple[int, int]]:
    """The runs of boards ``low``..``high`` that ``have`` lacks: ``[(3, 4), (9, 9)]``. Worked
    out from the boards there are, never by counting from ``low`` to ``high``: ``RoundData``
    states them, so they may be any size (a billion boards is a warning, read at once)."""
    runs, start = [], low
    for board in sorted(b for b in have if low <= b <= high):
        if board > start:
            runs.append((start, board - 1))
        start = board + 1
    if start <= high:
        runs.append((start, high))
    return runs


@dataclass
class _Section:
    """What the reader knows of one ``Section`` row."""

    ident: int
    letter: str
    missing_pair: int
    scoring_type: str | None
    session: int | None


@dataclass(frozen=True)
class _Seat:
    """One ``RoundData`` row: who sits where at a table in a round, and which boards."""

    ns: int | None
    ew: int | None
    low: int | None
    high: int | None
    custom: bool


@dataclass
class _Out:
    """Rows collected by the mapping."""

    file: str
    results: list[Row] = field(default_factory=list)
    rejected: list[Row] = field(default_factory=list)
    warnings: list[Row] = field(default_factory=list)

    def reject(self, location: str, fld: str, reason: str, raw: str | None) -> None:
        self.rejected.append(reject(self.file, location, fld, reason, raw))

    def warn(self, location: str, fld: str, reason: str, raw: str | None) -> None:
        self.warnings.append(reject(self.file, location, fld, reason, raw))


def tables_to_result(tables: Mapping[str, pl.DataFrame], file: str, stem: str) -> ReadResult:
    """Map exported ``.bws`` tables (all-Utf8 frames, as mdb-export prints them) to a result.

    ``tables`` maps table names to frames (absent tables may be left out); ``file`` labels
    every row; ``stem`` is the event id when ``Session`` has no GUID. Pure: the rules are
    those of the module docstring.
    """
    missing = [t for t in REQUIRED_TABLES if t not in tables]
    if missing:
        return file_failure(
            file,
            FORMAT,
            "file",
            f"the database has no {' or '.join(missing)} table: it is not a Bridgemate "
            "scoring database (.bws)",
            None,
        )
    received = tables["ReceivedData"]
    lacking = [c for c in RECEIVED_COLUMNS if c not in received.columns]
    if lacking:
        return file_failure(
            file,
            FORMAT,
            "ReceivedData",
            f"the ReceivedData table lacks the column(s) {', '.join(lacking)}",
            ",".join(received.columns),
            rows_read=received.height + 1,
        )
    out = _Out(file)
    sections = _sections(tables["Section"])
    session = _session(tables.get("Session"), sections, out)
    event_id = session.get("GUID") or stem
    session_date = _iso_date(session.get("Date"))
    rows = [dict(r) for r in received.iter_rows(named=True)]
    rounds = _round_data(tables.get("RoundData"))
    live = _latest(rows, sections, out)
    used = _rounds_used(rows, sections, rounds, out)
    common = {
        "file": file,
        "format": FORMAT,
        "event_id": event_id,
        "session": "1",
        "session_date": session_date,
    }
    for row in live:
        _result(row, sections[_int(row["Section"]) or 0], used, common, out)
    movement = _movement(used, out)
    _by_movement(_section_movements(used, out), sections, out)
    _table_warnings(rows, sections, used, out)
    _suspicious(rows, out)
    event: Row = {
        "file": file,
        "location": "Session",
        "event_id": event_id,
        "session": "1",
        "date": session_date,
        "name": session.get("Name"),
        "form": "pairs",
        "scoring": _scoring(sections, out),
        "movement": movement,
        "boards": _boards_in_play(used, {_int(r["Section"]) for r in live}),
        "source_event_id": session.get("GUID"),
    }
    results = normalise_results(frame(out.results, RESULT_COLUMNS))
    contestants = _players(
        tables.get("PlayerNumbers"),
        tables.get("PlayerNames"),
        sections,
        rounds,
        event["movement"] == "mitchell",
        {"file": file, "event_id": event_id},
    )
    return ReadResult(
        file=file,
        format=FORMAT,
        results=results,
        events=frame([event], EVENT_COLUMNS),
        contestants=frame(contestants, CONTESTANT_COLUMNS),
        rejected=frame(out.rejected, REJECT_COLUMNS),
        warnings=frame(out.warnings, WARNING_COLUMNS),
        deals=frame(_hand_record(tables.get("HandRecord"), sections, file, event_id), DEAL_COLUMNS),
        rows_read=received.height + 1 + len(contestants),
    )


def _players(
    numbers: pl.DataFrame | None,
    names: pl.DataFrame | None,
    sections: dict[int, _Section],
    rounds: dict[int, dict[tuple[int, int], _Seat]],
    mitchell: bool,
    common: Row,
) -> list[Row]:
    """The pairs' names from ``PlayerNumbers`` (a player entered at a table: ``Section``,
    ``Table``, ``Direction`` N E S W, ``Number``, ``Name``, ``Round``): a player sits in the
    pair that ``RoundData`` seats there in that round (round 1 when none is given), North and
    South the NS pair, East and West the EW pair. A player without a ``Name`` takes the one
    ``PlayerNames`` gives his number (``strID`` or ``ID``). The numbers are membership
    numbers: kept as ``player_ids``, never published. Rows naming nobody are ignored."""
    if numbers is None or not numbers.height:
        return []
    by_number: dict[str, str] = {}
    if names is not None:
        for r in names.iter_rows(named=True):
            name = _text(r.get("Name"))
            for key in (_text(r.get("strID")), _text(r.get("ID"))):
                if name and key:
                    by_number.setdefault(key, name)
    pairs: dict[tuple[str, int, str], dict[str, tuple[str | None, str | None]]] = {}
    where: dict[tuple[str, int, str], str] = {}
    sides: dict[tuple[str, int, str], str] = {}
    for r in numbers.iter_rows(named=True):
        seat = (_text(r.get("Direction")) or "").upper()[:1]
        sec_id, table = _int(r.get("Section")), _int(r.get("Table"))
        number = _text(r.get("Number"))
        name = _text(r.get("Name")) or (by_number.get(number) if number else None)
        sec = sections.get(sec_id or 0)
        if seat not in ("N", "E", "S", "W") or sec is None or table is None or not name:
            continue
        rnd = _int(r.get("Round")) or 1
        sitting = rounds.get(sec.ident, {}).get((table, rnd))
        pair = None if sitting is None else sitting.ns if seat in "NS" else sitting.ew
        if pair is None:
            continue
        side = "NS" if seat in "NS" else "EW"
        key = (sec.letter, pair, side if mitchell else "")
        if sides.setdefault(key, side) != side:
            continue  # a Howell pair entered again from its other side: named already
        pairs.setdefault(key, {})[seat] = (name, number)
        where.setdefault(key, f"PlayerNumbers section {sec.letter} table {table} round {rnd}")
    out: list[Row] = []
    for (letter, pair, side), seats in sorted(pairs.items()):
        order = [seats[s] for s in ("N", "S", "E", "W") if s in seats]
        out.append(
            {
                **common,
                "location": where[(letter, pair, side)],
                "contestant": str(pair),
                "direction": side or None,
                "names": " & ".join(n for n, _ in order if n),
                "player_ids": ";".join(i for _, i in order if i) or None,
                "section": letter,
            }
        )
    return out


_HAND_SEATS = ("North", "East", "South", "West")
_HAND_SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")


def _hand_record(
    df: pl.DataFrame | None, sections: dict[int, _Section], file: str, event_id: str
) -> list[Row]:
    """``HandRecord`` rows (the deals, where the club loaded them): per ``Section`` and
    ``Board`` the cards of each seat and suit (``NorthSpades`` ... ``WestClubs``). The file
    states no dealer or vulnerability: Law 2's apply."""
    if df is None:
        return []
    out: list[Row] = []
    for i, r in enumerate(df.iter_rows(named=True), start=1):
        sec = sections.get(_int(r.get("Section")) or 0)
        row: Row = {
            "file": file,
            "location": f"HandRecord row {i}",
            "event_id": event_id,
            "session": "1",
            "section": sec.letter if sec is not None else _text(r.get("Section")),
            "board": _text(r.get("Board")),
        }
        for seat in _HAND_SEATS:
            row[seat.lower()] = ".".join(
                (_text(r.get(f"{seat}{suit}")) or "") for suit in _HAND_SUITS
            )
        out.append(row)
    return out


def _sections(df: pl.DataFrame) -> dict[int, _Section]:
    """``Section`` rows by ID; the letter defaults to the ID when empty."""
    out: dict[int, _Section] = {}
    for r in df.iter_rows(named=True):
        ident = _int(r.get("ID"))
        if ident is None:
            continue
        out[ident] = _Section(
            ident=ident,
            letter=_text(r.get("Letter")) or str(ident),
            missing_pair=abs(_int(r.get("MissingPair")) or 0),
            scoring_type=_text(r.get("ScoringType")),
            session=_int(r.get("Session")),
        )
    return out


def _boards_in_play(
    used: dict[int, dict[tuple[int, int], _Seat]], played: set[int | None]
) -> str | None:
    """How many boards each section's movement plays (the union of the ``LowBoard``..
    ``HighBoard`` of its rounds), when ``RoundData`` is used for every section with results
    and gives the same number for each (``CustomBoards``: not stated); else ``None``. The
    ranges are merged, never counted board by board: a file states them, so they may be any
    size (a false one is then a session short of its movement, held with the reason)."""
    if not played or not played <= set(used):
        return None
    counts = set()
    for ident in played:
        seats = used[ident or 0].values()
        if any(s.custom for s in seats):
            return None
        spans = sorted((s.low, s.high) for s in seats if s.low is not None and s.high is not None)
        total, end = 0, None
        for low, high in spans:
            if high < low:
                continue
            if end is None or low > end:
                total += high - low + 1
                end = high
            elif high > end:
                total += high - end
                end = high
        counts.add(total)
    return str(counts.pop()) if len(counts) == 1 and 0 not in counts else None


def _session(
    df: pl.DataFrame | None, sections: dict[int, _Section], out: _Out
) -> dict[str, str | None]:
    """The ``Session`` row of this file: the one the sections name, else the lowest ID."""
    if df is None or df.height == 0:
        out.warn(
            "Session",
            "Session",
            "the database has no Session row: no session date, name or GUID "
            "(give the date in events.csv, for the event named after the file)",
            None,
        )
        return {}
    rows = sorted(
        df.iter_rows(named=True), key=lambda r: (_int(r.get("ID")) is None, _int(r.get("ID")) or 0)
    )
    wanted = {s.session for s in sections.values() if s.session is not None}
    chosen = next((r for r in rows if _int(r.get("ID")) in wanted), rows[0])
    if len(rows) > 1:
        out.warn(
            "Session",
            "Session",
            f"the Session table has {len(rows)} rows; session ID {chosen.get('ID')} is used "
            "for the date, name and GUID of the whole file",
            None,
        )
    guid = _text(chosen.get("GUID"))
    return {
        "GUID": guid.strip("{}") if guid else None,
        "Date": _text(chosen.get("Date")),
        "Name": _text(chosen.get("Name")),
    }


def _round_data(df: pl.DataFrame | None) -> dict[int, dict[tuple[int, int], _Seat]]:
    """``RoundData`` by section ID, then (table, round)."""
    out: dict[int, dict[tuple[int, int], _Seat]] = {}
    if df is None:
        return out
    for r in df.iter_rows(named=True):
        section, table, rnd = _int(r.get("Section")), _int(r.get("Table")), _int(r.get("Round"))
        if section is None or table is None or rnd is None:
            continue
        out.setdefault(section, {})[(table, rnd)] = _Seat(
            ns=_int(r.get("NSPair")),
            ew=_int(r.get("EWPair")),
            low=_int(r.get("LowBoard")),
            high=_int(r.get("HighBoard")),
            custom=_text(r.get("CustomBoards")) is not None,
        )
    return out


def _where(sec: _Section | str, table: object, rnd: object, board: object | None = None) -> str:
    """``section A table 8 round 10 board 12``."""
    letter = sec.letter if isinstance(sec, _Section) else sec
    text = f"section {letter} table {table} round {rnd}"
    return f"{text} board {board}" if board is not None else text


def _latest(rows: list[Row], sections: dict[int, _Section], out: _Out) -> list[Row]:
    """The rows that count (last by ID of each group, not erased), in ID order; the others
    are reported as ``superseded`` warnings with the reason. Rows with no ID or no known
    section are rejected."""
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        loc = f"ReceivedData ID {row['ID']}"
        if _int(row["ID"]) is None:
            out.reject(loc, "row", f"ID '{row['ID']}' is not a whole number", _raw(row))
            continue
        sec = sections.get(_int(row["Section"]) or 0)
        if sec is None:
            out.reject(
                loc,
                "section",
                f"section ID '{row['Section']}' is not in the Section table",
                _raw(row),
            )
            continue
        pairs = tuple(sorted((row["PairNS"] or "", row["PairEW"] or "")))
        key = (sec.ident, row["Table"], row["Round"], row["Board"], pairs)
        groups.setdefault(key, []).append(row)
    kept: list[Row] = []
    for group in groups.values():
        group.sort(key=lambda r: _int(r["ID"]) or 0)
        last = group[-1]
        sec = sections[_int(last["Section"]) or 0]
        where = _where(sec, last["Table"], last["Round"], last["Board"])
        for row in group[:-1]:
            loc = f"ReceivedData ID {row['ID']}"
            if _true(row["Erased"]):
                reason = (
                    f"erase record (result erased at the table) superseded by a later entry "
                    f"(ID {last['ID']}) for {where}"
                )
            else:
                reason = f"superseded by a later entry (ID {last['ID']}) for {where}"
            out.warn(loc, "superseded", reason, _raw(row))
        if _true(last["Erased"]):
            out.warn(
                f"ReceivedData ID {last['ID']}",
                "superseded",
                f"result erased at the table and not entered again ({where})",
                _raw(last),
            )
        else:
            kept.append(last)
    return sorted(kept, key=lambda r: _int(r["ID"]) or 0)


def _rounds_used(
    rows: list[Row],
    sections: dict[int, _Section],
    rounds: dict[int, dict[tuple[int, int], _Seat]],
    out: _Out,
) -> dict[int, dict[tuple[int, int], _Seat]]:
    """The sections whose ``RoundData`` is used for the checks (see the module docstring)."""
    used: dict[int, dict[tuple[int, int], _Seat]] = {}
    for ident, sec in sorted(sections.items()):
        named = {
            p
            for r in rows
            if _int(r["Section"]) == ident
            for p in (_int(r["PairNS"]), _int(r["PairEW"]))
            if p is not None
        }
        if not named:
            continue
        seats = rounds.get(ident, {})
        seated = {p for s in seats.values() for p in (s.ns, s.ew) if p}
        played = _table_rounds(rows, ident)
        if not seats:
            out.warn(
                f"Section ID {ident}",
                "RoundData",
                f"RoundData has no rows for section {sec.letter}: its results were not "
                "checked against the movement, nor its tables for missing results",
                None,
            )
        elif not seated & named:
            out.warn(
                f"Section ID {ident}",
                "RoundData",
                f"RoundData of section {sec.letter} seats pairs {_ranges(seated)} but the "
                f"results name pairs {_ranges(named)}: it describes another movement, so the "
                "results were not checked against it, nor its tables for missing results",
                None,
            )
        elif 2 * len(played & seats.keys()) < len(played):
            out.warn(
                f"Section ID {ident}",
                "RoundData",
                f"RoundData of section {sec.letter} has rows for {len(played & seats.keys())} "
                f"of the {len(played)} tables and rounds its results name: it describes a part "
                "of the movement only, so the results were not checked against it, nor its "
                "tables for missing results",
                None,
            )
        else:
            used[ident] = seats
    return used


def _table_rounds(rows: list[Row], ident: int) -> set[tuple[int, int]]:
    """The (table, round) of every result of section ``ident`` that names both."""
    return {
        (t, r)
        for row in rows
        if _int(row["Section"]) == ident
        and (t := _int(row["Table"])) is not None
        and (r := _int(row["Round"])) is not None
    }


def _result(
    row: Row,
    sec: _Section,
    used: dict[int, dict[tuple[int, int], _Seat]],
    common: Row,
    out: _Out,
) -> None:
    """One counting ``ReceivedData`` row → a result row, or a reject (first reason only)."""
    loc = f"ReceivedData ID {row['ID']}"
    raw = _raw(row)
    table, rnd, board = row["Table"], row["Round"], row["Board"]
    ns, ew = row["PairNS"], row["PairEW"]
    if sec.ident in used:
        problem = _roundata_problem(row, sec, used[sec.ident])
        if problem is not None:
            out.reject(loc, problem[0], problem[1], raw)
            return
    remark = (row["Remarks"] or "").strip()
    kind = remark.lower()
    contract_text = _text(row["Contract"])
    result: Row = {
        **common,
        "location": loc,
        "_sid": str(sec.ident),
        "section": sec.letter,
        "round": rnd,
        "table": table,
        "board": board,
        "ns_pair": ns,
        "ew_pair": ew,
        "lead": _text(row.get("LeadCard")),
        "entered_at": _entered_at(row.get("DateLog"), row.get("TimeLog")),
    }
    if kind in ("", "wrong direction"):
        if contract_text is None:
            reason = (
                "no contract and no remark: nothing was entered for this board"
                if not remark
                else "remark 'Wrong direction' but no contract"
            )
            out.reject(loc, "contract", reason, raw)
            return
        played = _played(contract_text, row["NS/EW"], row["Result"])
        if isinstance(played, str):
            out.reject(loc, "tricks", played, raw)
            return
        result.update(played)
        if result["contract"] == "PASS":
            result["lead"] = None
        if kind == "wrong direction":
            result["_wrong"] = True  # turned round once the section's movement is known
        out.results.append(result)
        return
    percent = _PERCENT.match(remark)
    if kind == "not played":
        score = "NP"
    elif percent:
        score = f"A{percent.group(1).replace(',', '.')}/{percent.group(2).replace(',', '.')}"
    elif kind == "arbitral score":
        out.reject(
            loc,
            "score",
            "remark 'Arbitral score' without percentages: the file does not say what the "
            "director gave; the director must give the NS and EW percentages (e.g. 60%-40%)",
            raw,
        )
        return
    else:
        out.reject(
            loc,
            "score",
            f"remark '{remark}' is not one this reader knows (Not played, Arbitral score, "
            "NS%-EW% such as 60%-40%, Wrong direction)",
            raw,
        )
        return
    if contract_text is not None:
        out.warn(
            loc,
            "contract",
            f"contract '{contract_text}' ignored: the remark '{remark}' decides this result",
            raw,
        )
    result.update(
        {"contract": None, "declarer": None, "tricks": None, "score": score, "lead": None}
    )
    out.results.append(result)


def _roundata_problem(
    row: Row, sec: _Section, seats: dict[tuple[int, int], _Seat]
) -> tuple[str, str] | None:
    """``(field, reason)`` when the row disagrees with ``RoundData``; else ``None``."""
    table, rnd, board = _int(row["Table"]), _int(row["Round"]), _int(row["Board"])
    at = _where(sec, row["Table"], row["Round"])
    seat = seats.get((table, rnd)) if table is not None and rnd is not None else None
    if seat is None:
        return "round", f"RoundData has no {at}: the movement has no such table and round"
    if (_int(row["PairNS"]), _int(row["PairEW"])) != (seat.ns, seat.ew):
        return (
            "ns_pair",
            f"RoundData seats pair {seat.ns} NS v pair {seat.ew} EW at {at}; this result names "
            f"{row['PairNS']} NS v {row['PairEW']} EW",
        )
    if not seat.custom and seat.low is not None and seat.high is not None:
        if board is None or not seat.low <= board <= seat.high:
            return (
                "board",
                f"RoundData gives boards {seat.low}-{seat.high} at {at}; this result is for "
                f"board {row['Board']}",
            )
    return None


def _played(contract: str, seat: str | None, result: str | None) -> Row | str:
    """Contract, declarer and tricks of a played (or passed-out) board, or a reject reason."""
    c = re.sub(r"\s+", " ", contract.upper()).strip()
    if c.replace(" ", "") in ("PASS", "P", "AP", "ALLPASS"):
        return {"contract": "PASS", "declarer": None, "tricks": None, "score": None}
    declarer = (_text(seat) or "").upper() or None
    m = _CONTRACT.match(c)
    if not m:
        return {"contract": c.replace(" ", ""), "declarer": declarer, "tricks": None, "score": None}
    level, strain, doubled = m.groups()
    strain = "NT" if strain == "N" else strain
    rel = (_text(result) or "").replace(" ", "")
    if not _RESULT.match(rel):
        return f"Result '{result or ''}' is not '=' or +n / -n relative to the contract"
    tricks = int(level) + 6 + (0 if rel == "=" else int(rel))
    if not 0 <= tricks <= 13:
        return f"Result '{rel}' on {contract} means {tricks} tricks, outside 0-13"
    return {
        "contract": f"{level}{strain}{doubled}",
        "declarer": declarer,
        "tricks": str(tricks),
        "score": None,
    }


def _phantoms(
    ident: int, sec: _Section, rows: list[Row], seats: dict[tuple[int, int], _Seat], out: _Out
) -> set[int]:
    """The section's phantom pair(s): ``MissingPair``, else the seated pairs no row names."""
    if sec.missing_pair:
        return {sec.missing_pair}
    named = {
        p
        for r in rows
        if _int(r["Section"]) == ident
        for p in (_int(r["PairNS"]), _int(r["PairEW"]))
        if p is not None
    }
    seated = {p for s in seats.values() for p in (s.ns, s.ew) if p}
    absent = seated - named
    for pair in sorted(absent):
        out.warn(
            f"Section ID {ident}",
            "MissingPair",
            f"pair {pair} of section {sec.letter} is seated by RoundData but named in no "
            "result: taken as the sit-out (phantom) pair since Section.MissingPair is 0; its "
            "rounds are not counted as missing results",
            None,
        )
    return absent


def _table_warnings(
    rows: list[Row],
    sections: dict[int, _Section],
    used: dict[int, dict[tuple[int, int], _Seat]],
    out: _Out,
) -> None:
    """Tables short of results (RoundData used), and table-rounds with two pairings."""
    got: dict[tuple[int, int, int], set[int]] = {}
    pairings: dict[tuple[int, int, int], set[tuple[str, str]]] = {}
    for r in out.results:
        key = (_int(r["_sid"]) or 0, _int(r["table"]) or 0, _int(r["round"]) or 0)
        got.setdefault(key, set()).add(_int(r["board"]) or 0)
        pair = tuple(sorted((r["ns_pair"] or "", r["ew_pair"] or "")))
        pairings.setdefault(key, set()).add(pair)  # type: ignore[arg-type]
    for (ident, table, rnd), found in sorted(pairings.items()):
        if len(found) > 1:
            sec = sections[ident]
            names = ", ".join(f"{a} v {b}" for a, b in sorted(found))
            out.warn(
                f"ReceivedData {_where(sec, table, rnd)}",
                "table",
                f"{_where(sec, table, rnd)} holds results of {len(found)} different pairings "
                f"({names}); a table seats one pairing a round",
                None,
            )
    for ident, seats in sorted(used.items()):
        sec = sections[ident]
        phantoms = _phantoms(ident, sec, rows, seats, out)
        by_table: dict[int, list[tuple[int, list[int]]]] = {}
        for (table, rnd), seat in sorted(seats.items()):
            if seat.ns in phantoms or seat.ew in phantoms or not seat.ns or not seat.ew:
                continue
            if seat.low is None or seat.high is None or seat.custom:
                continue
            have = got.get((ident, table, rnd), set())
            by_table.setdefault(table, []).append((rnd, _lacking(seat.low, seat.high, have)))
        for table, per_round in sorted(by_table.items()):
            short = [(rnd, miss) for rnd, miss in per_round if miss]
            if not short:
                continue
            required = sum(
                seat.high - seat.low + 1
                for (t, _), seat in seats.items()
                if t == table
                and seat.low is not None
                and seat.high is not None
                and not seat.custom
                and seat.ns
                and seat.ew
                and seat.ns not in phantoms
                and seat.ew not in phantoms
            )
            n_missing = sum(b - a + 1 for _, m in short for a, b in m)
            detail = "; ".join(
                f"round {rnd} board(s) " + ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in m)
                for rnd, m in short
            )
            out.warn(
                f"RoundData section {sec.letter} table {table}",
                "table",
                f"table {table} of section {sec.letter} has {required - n_missing} results "
                f"where its {len(per_round)} rounds require {required}: missing {detail}",
                None,
            )


def _suspicious(rows: list[Row], out: _Out) -> None:
    """A warning for each counting result that Bridgemate flagged ``SuspiciousContract``."""
    kept = {r["location"] for r in out.results}
    for row in rows:
        loc = f"ReceivedData ID {row['ID']}"
        flag = _int(row.get("SuspiciousContract"))
        if flag and loc in kept:
            out.warn(
                loc,
                "SuspiciousContract",
                f"Bridgemate flagged this contract as suspicious (SuspiciousContract = {flag}): "
                f"{row['Contract'] or ''} {row['Result'] or ''} by {row['NS/EW'] or '?'} at "
                f"table {row['Table']} round {row['Round']} board {row['Board']}; "
                "check it with the table",
                _raw(row),
            )


def _scoring(sections: dict[int, _Section], out: _Out) -> str | None:
    """``matchpoints`` when every section's ``ScoringType`` is 1; else None (defaults), warned."""
    if not sections:
        return None
    other = sorted({s.scoring_type for s in sections.values() if s.scoring_type not in ("1", None)})
    for value in other:
        out.warn(
            "Section",
            "ScoringType",
            f"Section.ScoringType is {value}, not 1 (matchpoints): this reader does not know "
            "what it means, so the session is scored with the defaults (matchpoints) unless "
            "events.csv gives its scoring",
            None,
        )
    if other or all(s.scoring_type is None for s in sections.values()):
        return None
    return "matchpoints"


def _movement(used: dict[int, dict[tuple[int, int], _Seat]], out: _Out) -> str | None:
    """``mitchell`` when in every section each table keeps its NS pair in every round."""
    found = _section_movements(used, out)
    if not found:
        return None
    return "mitchell" if all(m == "mitchell" for m in found.values()) else "howell"


def _by_movement(found: dict[int, str], sections: Mapping[int, _Section], out: _Out) -> None:
    """The results as their section's movement reads them (``found``, by section ID).

    * ``Wrong direction``: in a Howell the two pairs' numbers are swapped (a pair number is
      one pair whichever way it sits); in a Mitchell NS 2 and EW 2 are two pairs, so a pair
      that sat the other way round played the board as in an arrow switch, which a result
      row cannot say: the row is rejected with that reason (swapping the numbers gave the
      score to another pair, or a pair two results).
    * A file whose sections do not share one movement (a Mitchell section beside a Howell
      one): the event session has one movement, a Howell, under which NS 3 and EW 3 of the
      Mitchell section would be one pair: that section's rows are rejected with the reason.
    """
    mixed = len(set(found.values())) > 1
    kept: list[Row] = []
    for r in out.results:
        sid = _int(r["_sid"]) or 0
        movement = found.get(sid)
        letter = sections[sid].letter if sid in sections else r.get("section")
        raw = None
        if mixed and movement == "mitchell":
            others = sorted(
                {sections[i].letter for i, m in found.items() if m == "howell" and i in sections}
            )
            out.reject(
                r["location"],
                "section",
                f"section {letter} is a Mitchell (each table keeps its NS pair) and section(s) "
                f"{', '.join(map(str, others))} a Howell: Traveller scores an event session "
                "under one movement, and as a Howell this section's NS and EW pair of one "
                "number would be one pair; the event is held",
                raw,
            )
            continue
        if r.pop("_wrong", False):
            if movement == "mitchell":
                out.reject(
                    r["location"],
                    "Remarks",
                    f"remark 'Wrong direction' in Mitchell section {letter}: NS {r['ns_pair']} "
                    f"and EW {r['ew_pair']} sat the other way round, as in an arrow switch, "
                    "which Traveller does not score (in a Mitchell they are two pairs: "
                    "swapping their numbers would give the score to another pair); the event "
                    "is held",
                    raw,
                )
                continue
            r["ns_pair"], r["ew_pair"] = r["ew_pair"], r["ns_pair"]
        kept.append(r)
    out.results[:] = kept


def _section_movements(used: dict[int, dict[tuple[int, int], _Seat]], out: _Out) -> dict[int, str]:
    """Each section's movement (by section ID): ``mitchell`` when each of its tables keeps
    its NS pair in every round, else ``howell``."""
    ns_by_table: dict[tuple[int, int], set[str]] = {}
    for ident, seats in used.items():
        for (table, _), seat in seats.items():
            ns_by_table.setdefault((ident, table), set()).add(str(seat.ns))
    for r in out.results:
        ident = _int(r["_sid"]) or 0
        if ident not in used:
            key = (ident, _int(r["table"]) or 0)
            ns_by_table.setdefault(key, set()).add(r["ns_pair"] or "")
    found: dict[int, str] = {}
    for (ident, _), pairs in ns_by_table.items():
        if len(pairs) != 1 or found.get(ident) == "howell":
            found[ident] = "howell"
        else:
            found.setdefault(ident, "mitchell")
    return found
