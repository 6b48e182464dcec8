"""Where the inbox and the warehouse are, from the environment (no Dagster here, so that the
command line can answer before Dagster is loaded).

``dagster dev``, the schedule, the sensor and ``traveller run`` agree: ``TRAVELLER_INBOX``
(default: the bundled sample inbox) and ``TRAVELLER_WAREHOUSE`` (default
``data/warehouse.duckdb``, relative to the working directory); and the time standings are
judged provisional or final at (``TRAVELLER_NOW``, default the clock).
"""

from __future__ import annotations

import os
from datetime import date, datetime
from pathlib import Path

from pipelines.warehouse import DEFAULT_PATH

#: The generated sample inbox shipped with Traveller (no real names or ID numbers).
SAMPLE_INBOX = Path(__file__).resolve().parent / "sample" / "inbox"


def default_inbox() -> str:
    """``$TRAVELLER_INBOX`` or the bundled sample inbox."""
    return os.environ.get("TRAVELLER_INBOX", str(SAMPLE_INBOX))


def default_warehouse() -> str:
    """``$TRAVELLER_WAREHOUSE`` or ``data/warehouse.duckdb``."""
    return os.environ.get("TRAVELLER_WAREHOUSE", str(DEFAULT_PATH))


def default_publication() -> str:
    """``$TRAVELLER_PUBLISH`` or ``data``: where the site, exports and dashboard are written
    (the Dagster definitions' publication; ``traveller run`` publishes beside the warehouse)."""
    return os.environ.get("TRAVELLER_PUBLISH", "data")


def now() -> datetime:
    """The time standings are judged provisional or final at (Laws 79C, 92B):
    ``$TRAVELLER_NOW`` (``YYYY-MM-DD HH:MM[:SS]``, for reproducible runs and tests) or the
    clock."""
    fixed = (os.environ.get("TRAVELLER_NOW") or "").strip()
    if not fixed:
        return datetime.now()
    try:
        return datetime.fromisoformat(fixed)
    except ValueError:
        raise ValueError(
            f"TRAVELLER_NOW must be a date and time YYYY-MM-DD HH:MM, not {fixed!r}"
        ) from None


def today() -> date:
    """The day the inbox is read on: a result dated after the day after it is rejected as
    not yet played (:func:`pipelines.inbox.date_results`). The day of :func:`now`, so a run
    given ``$TRAVELLER_NOW`` reads the inbox as on that day too (reproducible in this as in
    its standings), else the clock's."""
    return now().date()


#: Table results one pass over a range of session dates computes at most (a date alone may be
#: more): about 5 kB of memory each at the peak of the scoring, so the default keeps a first
#: load of years of history under about 1 GB whatever its size.
RANGE_RESULTS_DEFAULT = 150_000


def range_results() -> int:
    """``$TRAVELLER_RANGE_RESULTS`` or :data:`RANGE_RESULTS_DEFAULT`: how many table results
    one pass over a range of dates computes at most (:func:`pipelines.incremental.ranges`)."""
    text = (os.environ.get("TRAVELLER_RANGE_RESULTS") or "").strip()
    if not text:
        return RANGE_RESULTS_DEFAULT
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"TRAVELLER_RANGE_RESULTS must be a whole number >= 1, not {text!r}")
    return int(text)


def publish_results() -> int:
    """How many scored results one batch of the publication reads and makes at most: half of
    :func:`range_results` (at least 1). A result costs the publication about twice what it
    costs the scoring at its peak (its rows, their split by session, the rows the pages are
    rendered from), so a batch of half the range holds about what a range holds."""
    return max(1, range_results() // 2)


def publish_workers() -> int:
    """``$TRAVELLER_PUBLISH_WORKERS`` or the processors this process may use (at most 4; a
    CPU quota without a CPU set is not seen: set the variable there): how many
    processes make a large publication's pages and files together (a first load, a season
    made again; a night's few events are made in one, see
    :data:`pipelines.publish.PARALLEL_FROM_RESULTS`; that night's season dashboard is drawn
    by a process of its own meanwhile, :mod:`pipelines.reports.drawing`). ``1`` makes every
    publication, its dashboard included, in the run's own process."""
    text = (os.environ.get("TRAVELLER_PUBLISH_WORKERS") or "").strip()
    if not text:
        # the processors this process may run on (a container's CPU set), not the host's
        usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        return max(1, min(4, usable or os.cpu_count() or 1))
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"TRAVELLER_PUBLISH_WORKERS must be a whole number >= 1, not {text!r}")
    return int(text)
