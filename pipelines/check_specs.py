"""The checks of the nightly run, as data (``pipelines/checks.toml``): which asset each
guards, the SQL model it reads, whether a failure blocks what comes after, and what a failure
means (no Dagster here).

One :class:`CheckSpec` per check; :func:`pipelines.stages.check` runs one against the
warehouse (rows offending, passed when there are none) and ``assets/checks.py`` makes the
Dagster asset checks from :data:`CHECKS`, so a check is declared once for the Dagster UI,
``traveller run`` and the tests.

A *blocking* check that fails stops its date before the standings (rows not accounted for,
matchpoints not conserved: nothing downstream can be trusted). A check that *holds events*
is not blocking: a stated score that disagrees with its contract (Law 77) or a ruling that
cannot be applied as given (Laws 82-93) holds back only the standings of the events
concerned (``holds``; status ``held``, never published); the date's other events go on.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines.scoring.conservation import breaches


@dataclass(frozen=True)
class CheckSpec:
    """One asset check.

    ``sql`` is the model (``sql/<sql>.sql``) whose rows the check examines, with ``$dates``
    (a list of session dates) bound when the check is ``partitioned``; its rows then carry
    their ``session_date``. The offending rows are those
    where the column ``balanced`` is false when it is given, the rows ``offending`` computes
    from them when that is given (an engine rule), else every row the model returns. The
    check passes when there are none. ``rows_key`` names them in the check's metadata, and
    ``count_key`` their number when the UI shows it."""

    name: str
    asset: str
    sql: str
    blocking: bool
    description: str
    partitioned: bool
    rows_key: str
    count_key: str | None = None
    balanced: str | None = None
    offending: Callable[[pl.DataFrame], pl.DataFrame] | None = None
    #: a failure holds back the standings of the events concerned, not the whole date
    holds_events: bool = False

    def __post_init__(self) -> None:
        if self.blocking and self.holds_events:
            raise ValueError(f"check {self.name}: a check that holds its events cannot block")
        if self.balanced and self.offending:
            raise ValueError(f"check {self.name}: give balanced or offending, not both")

    def failures(self, rows: pl.DataFrame) -> pl.DataFrame:
        """The offending rows among the ``rows`` the check's model returned."""
        if self.balanced:
            return rows.filter(~pl.col(self.balanced))
        if self.offending:
            return self.offending(rows)
        return rows


#: The metadata key of a check of dates listing the session dates it failed for (a run of a
#: range of dates evaluates the check once for all of them).
FAILED_DATES = "failed_dates"

#: Where the checks are declared.
CHECKS_FILE = Path(__file__).with_name("checks.toml")

#: The engine rules a check's ``offending`` may name: the offending rows of what its model
#: returned (Law 78A: the boards whose matchpoints are not conserved).
OFFENDING: dict[str, Callable[[pl.DataFrame], pl.DataFrame]] = {
    "matchpoint_breaches": breaches,
}


def load(path: Path = CHECKS_FILE) -> tuple[CheckSpec, ...]:
    """Every check declared in ``path``, in its order (``offending`` resolved by name in
    :data:`OFFENDING`; an unknown key or rule is an error naming the check)."""
    checks = []
    for entry in tomllib.loads(path.read_text(encoding="utf-8"))["check"]:
        entry = dict(entry)
        rule = entry.pop("offending", None)
        if rule is not None and rule not in OFFENDING:
            raise ValueError(f"{path.name}: check {entry.get('name')}: no rule {rule!r}")
        try:
            checks.append(CheckSpec(**entry, offending=OFFENDING[rule] if rule else None))
        except TypeError as e:
            raise ValueError(f"{path.name}: check {entry.get('name')}: {e}") from None
    return tuple(checks)


#: Every check of the run, by the asset it guards in run order.
CHECKS: tuple[CheckSpec, ...] = load()

#: The checks by name.
BY_NAME: dict[str, CheckSpec] = {c.name: c for c in CHECKS}

#: Checks whose failure holds back the events concerned (see ``holds``), not the whole date.
HOLDING_CHECKS: frozenset[str] = frozenset(c.name for c in CHECKS if c.holds_events)


def spec(name: str) -> CheckSpec:
    """The check ``name``."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no check {name!r}") from None
