"""Slashed dates (``11/03/2026``): which field is the day is stated, never guessed.

A club program writes a session's date as the scorer's computer is set: ``27/07/2022``
day first (UK, Australia, France), ``07/27/2022`` month first (US). The readers keep the
date as written (USEBIO ``DATE``, the ``date`` of ``events.csv``); the rule is applied
here, where the event's profile is known, once for every format.

The rule, for a date ``A/B/YYYY``:

* **unambiguous** — only one reading is a calendar date (``27/07/2022``: there is no month
  27), or both readings are the same day (``03/03/2026``): it is that date, whatever the
  profile says. ISO dates (``2026-03-11``) are not slashed and are left as written;
* **ambiguous** — both ``A`` and ``B`` could be the month and they differ (``11/03/2026``:
  11 March or 3 November). It is read in the order that is **stated**:

  1. by the file: an unambiguous slashed date elsewhere in the same file (``27/07/2022``
     says the program writes day first) fixes that file's order;
  2. else by the event's profile, ``date_order = "dmy" | "mdy"`` (the federation's
     documented convention; :mod:`pipelines.profiles`).

  With neither, the date is an **error**: the row is rejected at its location with both
  readings, and its event is held (never published on a guessed date) until the file says
  ``2026-03-11`` or the profile states the order.
* a file whose slashed dates **contradict** each other (one only valid day first, another
  only month first) states no order: each of its slashed dates whose fields differ is an
  error, and holds its event.

A rejected date still places the held event: on its only reading, or on the earlier of its
two readings (held there, not published, until corrected; stating the order moves it to its
date). A date that dates nothing (a file header's date where ``events.csv`` gives the
event's date) is not used and is no error. A slashed text that is a date in neither order
(``31/31/2026``) is written ``YYYY-MM-DD`` day first, as before, for the calendar check to
reject. Pure Python and Polars: no Dagster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import polars as pl

#: The orders a profile or a file may state: day/month/year or month/day/year.
ORDERS: tuple[str, ...] = ("dmy", "mdy")

_SLASHED = re.compile(r"^\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*$")
#: The months' names, as messages and pages write them (not the locale's).
MONTH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_FIRST = {"dmy": "day first", "mdy": "month first"}


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


@dataclass(frozen=True)
class Slashed:
    """A date written ``A/B/YYYY`` and its readings (``None`` where not a calendar date)."""

    text: str
    dmy: str | None
    mdy: str | None
    #: the text day first, ``YYYY-MM-DD`` (not a date when neither reading is one)
    as_written_dmy: str

    @property
    def ambiguous(self) -> bool:
        """Both readings are dates, and different ones."""
        return self.dmy is not None and self.mdy is not None and self.dmy != self.mdy

    @property
    def only(self) -> str | None:
        """The order this date alone proves (``dmy``: ``27/07/2022``), else ``None``."""
        if self.dmy is not None and self.mdy is None:
            return "dmy"
        if self.mdy is not None and self.dmy is None:
            return "mdy"
        return None

    def reading(self, order: str | None) -> str | None:
        """The ISO date in ``order``, or the one reading that needs none; ``None`` if
        ambiguous and no order is given."""
        if not self.ambiguous:
            return self.dmy or self.mdy
        return {"dmy": self.dmy, "mdy": self.mdy}.get(order or "")

    def placed(self) -> str:
        """Where a rejected date places its held event: its one reading, else the earlier
        of the two (else as written day first)."""
        found = [d for d in (self.dmy, self.mdy) if d is not None]
        return min(found) if found else self.as_written_dmy

    def ambiguous_reason(self, profile: str | None) -> str:
        """Why an ambiguous date with no order stated is rejected, in the scorer's words."""
        assert self.dmy is not None and self.mdy is not None
        d, m = date.fromisoformat(self.dmy), date.fromisoformat(self.mdy)
        where = f"in profile {profile}" if profile else "in the profile"
        return (
            f"date {self.text} is ambiguous: {d.day} {MONTH_NAMES[d.month - 1]} or "
            f"{m.day} {MONTH_NAMES[m.month - 1]}? write it {self.dmy} or {self.mdy} (YYYY-MM-DD), "
            f'or state date_order ("dmy" or "mdy") {where}'
        )


def slashed(text: str | None) -> Slashed | None:
    """``text`` read as a slashed date ``A/B/YYYY``; ``None`` when it is not one.

    >>> s = slashed("11/03/2026"); (s.dmy, s.mdy, s.ambiguous)
    ('2026-03-11', '2026-11-03', True)
    >>> slashed("27/07/2022").only, slashed("03/03/2026").ambiguous, slashed("2026-03-11")
    ('dmy', False, None)
    """
    m = _SLASHED.match(text or "")
    if m is None:
        return None
    a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return Slashed(
        text=(text or "").strip(),
        dmy=_iso(y, b, a),
        mdy=_iso(y, a, b),
        as_written_dmy=f"{y:04d}-{b:02d}-{a:02d}",
    )


@dataclass(frozen=True)
class FileOrder:
    """What a file's unambiguous slashed dates say of its order: one example of each order
    found (``dmy``: ``27/07/2022``)."""

    examples: dict[str, str]

    @property
    def order(self) -> str | None:
        """The order the file states (``None``: none, or a contradiction)."""
        return next(iter(self.examples)) if len(self.examples) == 1 else None

    @property
    def contradicts(self) -> bool:
        return len(self.examples) > 1

    def contradiction(self, text: str) -> str:
        """Why a slashed date of a self-contradicting file is rejected."""
        return (
            f"date {text} cannot be read: this file writes dates both day first "
            f"({self.examples['dmy']}) and month first ({self.examples['mdy']}); "
            "write its dates YYYY-MM-DD"
        )


def file_orders(dates: dict[str, list[str | None]]) -> dict[str, FileOrder]:
    """Per file (``file`` → the date texts it writes), the order its unambiguous slashed
    dates state."""
    out: dict[str, FileOrder] = {}
    for file, texts in dates.items():
        examples: dict[str, str] = {}
        for text in texts:
            s = slashed(text)
            if s is not None and s.only is not None:
                examples.setdefault(s.only, s.text)
        out[file] = FileOrder(dict(sorted(examples.items())))
    return out


def session_key(session: object) -> str | None:
    """A session number as text without leading zeros (``"01"`` → ``"1"``); ``None`` when it
    is not a whole number (the key of :func:`read_dates`'s ``date_order``)."""
    text = str(session).strip() if session is not None else ""
    return str(int(text)) if text.isdigit() else None


#: Columns of the event-session rows :func:`read_dates` returns as held (the ``event_holds``
#: columns) and rejected (``rejected_inputs``).
HOLD_COLUMNS: tuple[str, ...] = ("event_id", "session", "file", "location", "field", "reason")
REJECT_COLUMNS: tuple[str, ...] = ("file", "location", "field", "reason", "raw")


def read_dates(
    rows: pl.DataFrame,
    date_order: dict[tuple[str | None, str | None], str | None],
    profile_of: dict[tuple[str | None, str | None], str | None],
    written: dict[str, list[str | None]] | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Read every slashed ``date`` of event-session ``rows`` (``file``, ``location``,
    ``event_id``, ``session``, ``date``, ``priority``: 0 for ``events.csv``, 1 a file's
    header) by the rule of the module docstring; returns ``(rows, rejected, held)``.

    ``date_order`` gives the order the profile of each ``(event_id, session)`` states
    (``None``: not stated), ``profile_of`` its profile's name (for the message), and
    ``written`` (file → date texts) the dates a file writes beyond its rows' (a USEBIO
    ``EVENT`` date under sessions of their own). ``rows`` come back with ``date`` in ISO
    wherever a slashed date was read, placed (:meth:`Slashed.placed`) where it was rejected,
    and emptied where a stronger source dates the event."""
    empty_rej = pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    empty_held = pl.DataFrame(schema={c: pl.Utf8 for c in HOLD_COLUMNS})
    if rows.height == 0:
        return rows, empty_rej, empty_held
    texts: dict[str, list[str | None]] = {}
    for file, text in zip(rows["file"].to_list(), rows["date"].to_list(), strict=True):
        texts.setdefault(file, []).append(text)
    for file, more in (written or {}).items():
        texts.setdefault(file, []).extend(more)
    orders = file_orders(texts)
    # the source that dates an event session: its strongest row giving a date
    strongest: dict[tuple[str | None, str | None], int] = {}
    records = [
        (file, location, event, session_key(session), text, prio)
        for file, location, event, session, text, prio in rows.select(
            "file", "location", "event_id", "session", "date", "priority"
        ).rows()
    ]
    for _, _, event, session, text, prio in records:
        if text is not None:
            key = (event, session)
            strongest[key] = min(prio, strongest.get(key, prio))
    dates: list[str | None] = []
    rejected: list[dict[str, str | None]] = []
    held: list[dict[str, str | None]] = []
    for file, location, event, session, text, prio in records:
        s = slashed(text)
        if s is None:
            dates.append(text)
            continue
        key = (event, session)
        fo = orders[file]
        reason = None
        if fo.contradicts and s.dmy != s.mdy and (s.ambiguous or s.only is not None):
            reason = fo.contradiction(s.text)
        elif s.ambiguous and fo.order is None and date_order.get(key) is None:
            reason = s.ambiguous_reason(profile_of.get(key))
        if reason is None:
            dates.append(s.reading(fo.order or date_order.get(key)) or s.as_written_dmy)
            continue
        if prio > strongest.get(key, prio):
            dates.append(None)  # a stronger source dates the event: this date is not used
            continue
        dates.append(s.placed())
        rejected.append(
            {"file": file, "location": location, "field": "date", "reason": reason, "raw": text}
        )
        if event is not None:
            held.append(
                {
                    "event_id": event,
                    "session": session,
                    "file": file,
                    "location": location,
                    "field": "date",
                    "reason": f"the event's date is not known: {reason}",
                }
            )
    out = rows.with_columns(pl.Series("date", dates, dtype=pl.Utf8))
    rej = pl.DataFrame(rejected, schema=empty_rej.schema) if rejected else empty_rej
    hold = pl.DataFrame(held, schema=empty_held.schema) if held else empty_held
    return out, rej, hold
