"""Readers for the reference CSV files a club sends with its results.

* ``events.csv``: ``event_id, session, date, name, form, scoring, movement, profile, laws,
  director, correction_minutes`` and optionally ``expected_results``, ``boards``, ``pairs``
  (what the session's movement holds: :mod:`pipelines.scoring.completeness`),
  ``published_at``, ``club``, ``level`` (club | congress | national) and ``compare``
  (``section`` | ``field``: a matchpoint session's sections compared apart or as one field,
  Law 78A); only ``event_id`` and ``session`` must be in the header.
* ``contestants*.csv``: ``event_id, contestant, direction, names, player_ids`` and optionally
  ``section`` (in a session of several sections a pair number names one contestant per
  section; empty: the contestant of that number in any section); ``direction``,
  ``player_ids`` and ``section`` may be left out of the header.

Same conventions as :mod:`pipelines.formats.canonical_csv`: UTF-8 only, every value text,
trimmed (empty → null), locations ``line N``, ragged rows rejected one by one. The
enumerated event fields (form, scoring, movement, profile) are lower-cased; dates are kept
as written (``2026-03-11``, ``11/03/2026``): a slashed date is read in the order the file or
the event's profile states (:mod:`pipelines.scoring.dates`); anything else is left for
validation.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.formats.canonical_csv import (
    load_csv_table,
    missing_columns_failure,
    select_columns,
    table_failure,
)
from pipelines.formats.model import (
    CONTESTANT_COLUMNS,
    EVENT_COLUMNS,
    REJECT_COLUMNS,
    ReadResult,
    frame,
)

EVENT_REQUIRED: tuple[str, ...] = ("event_id", "session")
EVENT_ENUMS: tuple[str, ...] = ("form", "scoring", "movement", "profile", "level", "compare")
CONTESTANT_REQUIRED: tuple[str, ...] = ("event_id", "contestant", "names")


def direction_expr(expr: pl.Expr) -> pl.Expr:
    """Contestant direction upper-cased without separators: ``N-S``, ``n/s`` → ``NS``."""
    return expr.str.to_uppercase().str.replace_all(r"[\s/\-]", "")


def _read(
    path: Path, file: str, fmt: str, required: tuple[str, ...], kind: str, columns: tuple[str, ...]
) -> tuple[ReadResult, pl.DataFrame | None, list[str]]:
    """Load a reference CSV; returns the result shell, the projected frame (or ``None``) and
    the header's columns."""
    table = load_csv_table(path, file)
    failed = table_failure(file, fmt, table)
    if failed is not None:
        return failed, None, table.header
    missing = missing_columns_failure(file, table, required, kind)
    if missing is not None:
        rej = frame([missing], REJECT_COLUMNS)
        return (
            ReadResult(file=file, format=fmt, rejected=rej, rows_read=table.rows_read),
            None,
            table.header,
        )
    assert table.frame is not None
    df = select_columns(table.frame, columns, {"file": file})
    result = ReadResult(
        file=file,
        format=fmt,
        rejected=frame(table.rejected, REJECT_COLUMNS),
        rows_read=table.rows_read,
    )
    return result, df, table.header


def read_events_csv(path: Path, file: str) -> ReadResult:
    """Read an ``events.csv`` into ``ReadResult.events`` (format ``events_csv``).

    A header column that is not an event column (``movment``, ``Profile name``) is named in
    ``unknown_columns`` and a warning: its values are not read, and the events of the file
    are held back (:func:`pipelines.scoring.events.event_holds`) rather than scored on
    defaults."""
    result, df, header = _read(path, file, "events_csv", EVENT_REQUIRED, "events", EVENT_COLUMNS)
    if df is not None:
        result.events = df.with_columns(
            *(pl.col(c).str.to_lowercase() for c in EVENT_ENUMS),
        )
        known = set(EVENT_COLUMNS[2:]) - {"source_event_id"}
        result.unknown_columns = tuple(h for h in header if h and h not in known)
        result.warnings = frame(
            [
                {
                    "file": file,
                    "location": "line 1",
                    "field": h,
                    "reason": f"column '{h}' is not an events.csv column: its values are not "
                    f"read and the file's events are held (columns: {', '.join(sorted(known))})",
                    "raw": ",".join(header)[:300],
                }
                for h in result.unknown_columns
            ],
            REJECT_COLUMNS,
        )
    return result


def read_contestants_csv(path: Path, file: str) -> ReadResult:
    """Read a ``contestants*.csv`` into ``ReadResult.contestants`` (format ``contestants_csv``)."""
    result, df, _ = _read(
        path, file, "contestants_csv", CONTESTANT_REQUIRED, "contestants", CONTESTANT_COLUMNS
    )
    if df is not None:
        result.contestants = df.with_columns(direction_expr(pl.col("direction")).alias("direction"))
    return result
