"""Law 79C: the correction period; the status of standings.

* A score correction (79C1) applies when it is made within the correction period: by default
  until 30 minutes after the official scores were made available, or a later time set by the
  Tournament Organizer (the event's ``correction_minutes``).
* After the period (79C2) a correction applies only when the Tournament Organizer approved it
  (the Director being satisfied beyond reasonable doubt that the record is wrong): the ruling's
  ``approved`` flag.
* Standings are ``provisional`` until the correction period has ended and every appeal is
  decided (Law 92B: the right to appeal also expires 30 minutes after the official scores are
  available, unless the TO sets otherwise); then ``final``.
"""

from __future__ import annotations

from datetime import datetime, timedelta


def correction_deadline(published_at: datetime, correction_minutes: int) -> datetime:
    """End of the correction period."""
    return published_at + timedelta(minutes=correction_minutes)


def correction_applies(
    ruled_at: datetime | None, published_at: datetime, correction_minutes: int, approved: bool
) -> bool:
    """Whether a score correction made at ``ruled_at`` applies (Law 79C1, 79C2).

    A correction without a time counts as made within the period only if approved.

    >>> p = datetime(2026, 11, 2, 22, 30)
    >>> correction_applies(datetime(2026, 11, 2, 22, 50), p, 30, False)
    True
    >>> correction_applies(datetime(2026, 11, 3, 10, 0), p, 30, False)
    False
    >>> correction_applies(datetime(2026, 11, 3, 10, 0), p, 30, True)
    True
    """
    if approved:
        return True
    if ruled_at is None:
        return False
    return ruled_at <= correction_deadline(published_at, correction_minutes)


def standings_status(
    now: datetime, published_at: datetime, correction_minutes: int, pending_appeals: int
) -> str:
    """``final`` once the correction period is over and no appeal is pending, else ``provisional``.

    >>> p = datetime(2026, 11, 2, 22, 30)
    >>> standings_status(datetime(2026, 11, 2, 22, 40), p, 30, 0)
    'provisional'
    >>> standings_status(datetime(2026, 11, 3, 9, 0), p, 30, 1)
    'provisional'
    >>> standings_status(datetime(2026, 11, 3, 9, 0), p, 30, 0)
    'final'
    """
    if pending_appeals or now < correction_deadline(published_at, correction_minutes):
        return "provisional"
    return "final"
