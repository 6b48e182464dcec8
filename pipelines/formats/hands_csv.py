"""The hand-record CSV (``hands*.csv``): the deal of each board, for the board pages.

A header row naming (case-insensitively) ``event_id, board, north, east, south, west`` and
optionally ``session`` (default 1), ``section`` (empty: that board's deal in every section),
``dealer`` (``N``/``North`` ...) and ``vulnerability`` (``None``/``Love``, ``NS``, ``EW``,
``Both``/``All``; both empty: Law 2's for the board number). Each hand is written as PBN
writes one, ``spades.hearts.diamonds.clubs`` (``AKQ.JT9.876.5432``, ``10`` or ``T`` for the
ten, a void empty), as the hand records the clubs' dealing machines print.

A row that is not a deal of the pack is rejected at its line with the field and the reason:
an event or a board missing or not a number, a hand that is not 13 cards of four suits, four
hands that are not the 52 cards once each (Law 1), a dealer or a vulnerability that is none
of the words above, the same board given again in the file. Rows kept are checked again with
every other hand record of the inbox (:func:`pipelines.deals.checked`).
"""

from __future__ import annotations

from pathlib import Path

from pipelines.deals import SEATS, deal_problem, dealer_of, normal_hand, vulnerability_of
from pipelines.formats.canonical_csv import (
    load_csv_table,
    missing_columns_failure,
    reject,
    select_columns,
    table_failure,
)
from pipelines.formats.model import DEAL_COLUMNS, REJECT_COLUMNS, ReadResult, frame

FORMAT = "hands_csv"
#: The columns a hand-record CSV must have.
HANDS_REQUIRED: tuple[str, ...] = ("event_id", "board", *SEATS)
#: Its header as Traveller writes it (the optional columns included).
HANDS_CSV_HEADER: tuple[str, ...] = (
    "event_id",
    "session",
    "section",
    "board",
    "dealer",
    "vulnerability",
    *SEATS,
)


def _number(value: str | None) -> int | None:
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return n if 1 <= n <= 2_147_483_647 else None


def row_problem(row: dict[str, str | None]) -> tuple[str, str] | None:
    """``(field, reason)`` when ``row`` (a hand-record row, values as written) cannot be a
    board's deal; ``None`` when it can."""
    if not (row.get("event_id") or "").strip():
        return "event_id", "the event is not given"
    if row.get("session") is not None and _number(row["session"]) is None:
        return "session", f"session {row['session']!r} is not a number from 1"
    if _number(row.get("board")) is None:
        return "board", f"board {row.get('board')!r} is not a number from 1"
    if dealer_of(row.get("dealer")) is None:
        return "dealer", f"dealer {row['dealer']!r} is not N, E, S or W"
    if vulnerability_of(row.get("vulnerability")) is None:
        return (
            "vulnerability",
            f"vulnerability {row['vulnerability']!r} is not None, NS, EW or Both",
        )
    problem = deal_problem({s: normal_hand(row.get(s)) for s in SEATS})
    if problem is not None:
        return problem[0], problem[1] + " (a deal is 13 cards to each hand, the 52 once: Law 1)"
    return None


def read_hands_csv(path: Path, file: str) -> ReadResult:
    """Read a ``hands*.csv`` into ``ReadResult.deals`` (format ``hands_csv``); every row
    not kept is in ``ReadResult.rejected`` with its line, field and reason."""
    table = load_csv_table(path, file)
    failed = table_failure(file, FORMAT, table)
    if failed is not None:
        return failed
    missing = missing_columns_failure(file, table, HANDS_REQUIRED, "hand-record")
    if missing is not None:
        return ReadResult(
            file=file,
            format=FORMAT,
            rejected=frame([missing], REJECT_COLUMNS),
            rows_read=table.rows_read,
        )
    assert table.frame is not None
    rows = select_columns(table.frame, DEAL_COLUMNS, {"file": file}).to_dicts()
    rejected = list(table.rejected)
    kept: list[dict[str, str | None]] = []
    seen: dict[tuple, str] = {}
    for row in rows:
        problem = row_problem(row)
        key = (
            (row.get("event_id") or "").strip(),
            _number(row.get("session") or "1"),
            (row.get("section") or "").strip(),
            _number(row.get("board")),
        )
        if problem is None and key in seen:
            problem = (
                "board",
                f"board {key[3]} of session {key[1]} is given already at {seen[key]}",
            )
        raw = ",".join(str(row.get(c) or "") for c in DEAL_COLUMNS[2:])
        if problem is not None:
            rejected.append(reject(file, str(row["location"]), problem[0], problem[1], raw))
            continue
        seen[key] = str(row["location"])
        kept.append(
            {
                **row,
                "session": row.get("session") or "1",
                "dealer": dealer_of(row.get("dealer")) or None,
                "vulnerability": vulnerability_of(row.get("vulnerability")) or None,
            }
        )
    return ReadResult(
        file=file,
        format=FORMAT,
        deals=frame(kept, DEAL_COLUMNS),
        rejected=frame(rejected, REJECT_COLUMNS),
        rows_read=table.rows_read,
    )
