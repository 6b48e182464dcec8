"""The engine's one entry point: a day's results, rulings and appeals in, everything official out.

:func:`score_day` runs the chain every caller needs, in the order the Laws impose it:

1. :func:`~pipelines.scoring.validate.validate_results`: every result row checked (Law 77:
   the stated score is the contract's), the bad ones rejected with their reason;
2. :func:`~pipelines.scoring.rulings.validate_rulings`: every ruling and appeal checked against
   the validated results (Laws 82-93), the ones that cannot be applied as written rejected;
3. :func:`~pipelines.scoring.versions.score_newest`: the board scores of the newest version
   (every decision made, every ruling in effect applied; Laws 12, 78, 86, 87) and the
   adjustments (each contestant's score before and after each applied ruling);
4. :func:`~pipelines.scoring.versions.session_versions`: every version of every session's
   standings from those scored lines (older versions, one per later decision, Laws 79C, 92,
   93), their status (provisional, final, superseded) at ``now`` and what each version changed.

It is pure: frames in, frames out; no Dagster, no warehouse, no clock (``now`` is given; the
step timings of :attr:`DayResult.seconds` are measurements, not inputs). The
stages of the nightly run (:mod:`pipelines.stages`) run the same steps one asset each, through
:func:`validate_day`, :func:`validate_logs`, :func:`~pipelines.scoring.versions.score_newest`
and :func:`~pipelines.scoring.versions.session_versions`; the standings stage ranks the scored
lines the score stage stored. The benchmark, the tests and their round trips call
:func:`score_day`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

import polars as pl

from pipelines.profiles import ProfileSet
from pipelines.scoring.completeness import unknown_contestants
from pipelines.scoring.rulings import RulingsResult, validate_rulings
from pipelines.scoring.validate import validate_results
from pipelines.scoring.versions import (
    DateResults,
    Decision,
    event_versions,
    score_newest,
    session_versions,
)


@dataclass
class DayResult:
    """Everything :func:`score_day` computed for the day's results."""

    validated: pl.DataFrame  # the result rows that passed validation (VALIDATED_SCHEMA)
    rejected: pl.DataFrame  # the result rows rejected, with file, location, field, reason
    rulings: RulingsResult  # the checked rulings and appeals, and the rejected ones
    scored: pl.DataFrame  # the newest version's board scores (scored lines)
    adjustments: pl.DataFrame  # one row per contestant per applied ruling (newest version)
    standings: pl.DataFrame  # every version of every session of the day, with its status
    changes: pl.DataFrame  # what each later version changed, and why
    versions: list[Decision]  # the decisions that made the later versions, in time order
    contestants: pl.DataFrame | None = None
    #: seconds spent in each step: ``validate``, ``rulings``, ``score``, ``standings``
    seconds: dict[str, float] = field(default_factory=dict)
    profiles: ProfileSet | None = None  # the profiles the day was scored with
    #: the event sessions the events state (``event_id``, ``session``): an event one of
    #: whose sessions has no results is not final (:func:`~.versions.event_versions`)
    declared: pl.DataFrame | None = None

    @property
    def dated(self) -> DateResults:
        """The scores, standings, changes, adjustments and decisions as one
        :class:`~pipelines.scoring.versions.DateResults`."""
        return DateResults(
            self.scored, self.standings, self.changes, self.adjustments, self.versions
        )

    def event_versions(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Every version of each event's standings over the day's sessions, and the changes
        between them (:func:`~pipelines.scoring.versions.event_versions`); an event with
        sessions on other days needs those too (the standings stage adds them)."""
        return event_versions(
            self.standings,
            self.versions,
            self.scored,
            self.contestants,
            profs=self.profiles,
            declared=self.declared,
        )


def validate_day(
    results: pl.DataFrame,
    events: pl.DataFrame,
    profs: ProfileSet | None = None,
    lists: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Step 1: the day's canonical result rows checked against the resolved ``events``:
    ``(validated, rejected)`` (:func:`~pipelines.scoring.validate.validate_results`); with
    the events' contestant ``lists``, a result naming a contestant its event's list does not
    know is rejected too (:func:`~pipelines.scoring.completeness.unknown_contestants`)."""
    validated, rejected = validate_results(results, events, profs=profs)
    validated, unknown = unknown_contestants(validated, lists)
    if unknown.height:
        rejected = pl.concat([rejected, unknown])
    return validated, rejected


def validate_logs(
    rulings: pl.DataFrame | None,
    appeals: pl.DataFrame | None,
    validated: pl.DataFrame,
    events: pl.DataFrame,
    profs: ProfileSet | None = None,
) -> RulingsResult:
    """Step 2: the day's ruling and appeal log rows checked against its validated results
    (:func:`~pipelines.scoring.rulings.validate_rulings`); no log is an empty one."""
    from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS

    def empty(columns: list[str], extra: dict[str, pl.DataType]) -> pl.DataFrame:
        return pl.DataFrame(schema={**dict.fromkeys(columns, pl.Utf8), **extra})

    if rulings is None:
        rulings = empty(RULING_COLUMNS, {"session_date": pl.Utf8})
    if appeals is None:
        appeals = empty(
            APPEAL_COLUMNS, {"session_date": pl.Utf8, "event_id": pl.Utf8, "session": pl.Utf8}
        )
    if rulings.height == 0 and appeals.height == 0:
        # nothing to check against the results: skip indexing their tables (same frames)
        return validate_rulings(rulings, appeals, None, events, profs=profs)
    return validate_rulings(rulings, appeals, validated, events, profs=profs)


@contextmanager
def _timed(seconds: dict[str, float], step: str) -> Iterator[None]:
    t = time.perf_counter()
    yield
    seconds[step] = time.perf_counter() - t


def score_day(
    results: pl.DataFrame,
    rulings: pl.DataFrame | None,
    appeals: pl.DataFrame | None,
    events: pl.DataFrame,
    profiles: ProfileSet | None = None,
    now: datetime | None = None,
    *,
    contestants: pl.DataFrame | None = None,
    lists: pl.DataFrame | None = None,
) -> DayResult:
    """Validate, check the rulings, score and rank one day's results (module docstring).

    ``results`` are canonical result rows (:data:`pipelines.formats.model.RESULT_COLUMNS`),
    ``rulings`` / ``appeals`` the day's log rows with their ``session_date`` (``None``: no
    log), ``events`` the resolved event sessions (each names its ``profile``); ``profiles``
    the profiles they are scored with (default: those the events name, each loaded once,
    :meth:`~pipelines.profiles.ProfileSet.of_events`), passed down to every step; ``now``
    the time the standings are judged provisional or final at (Laws 79C, 92B; default:
    every period over). ``contestants`` names the players; ``lists``, the contestants of the
    events that list them all (``sql/read/contestant_lists.sql``), rejects a result naming
    one its event does not know.
    """
    profs = ProfileSet.of_events(events) if profiles is None else profiles
    when = now or datetime.max
    seconds: dict[str, float] = {}
    with _timed(seconds, "validate"):
        validated, rejected = validate_day(results, events, profs, lists)
    del results  # not needed again: a caller that kept no reference frees it now
    with _timed(seconds, "rulings"):
        checked = validate_logs(rulings, appeals, validated, events, profs)
    with _timed(seconds, "score"):
        scored, adjustments = score_newest(
            validated, checked.rulings, checked.appeals, contestants, profs=profs
        )
    with _timed(seconds, "standings"):
        standings, changes, decisions = session_versions(
            scored,
            validated,
            checked.rulings,
            checked.appeals,
            events,
            contestants,
            when,
            profs=profs,
        )
    return DayResult(
        validated=validated,
        rejected=rejected,
        rulings=checked,
        scored=scored,
        adjustments=adjustments,
        standings=standings,
        changes=changes,
        versions=decisions,
        contestants=contestants,
        seconds=seconds,
        profiles=profs,
        declared=events.select("event_id", "session") if events.height else None,
    )
