"""The checks of the nightly run, as data: which asset each guards, the SQL model it reads,
whether a failure blocks what comes after, and what a failure means (no Dagster here).

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

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from pipelines.scoring.conservation import breaches


@dataclass(frozen=True)
class CheckSpec:
    """One asset check.

    ``sql`` is the model (``sql/<sql>.sql``) whose rows the check examines, with
    ``$session_date`` bound when the check is ``partitioned``. The offending rows are those
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


#: Every check of the run, by the asset it guards in run order.
CHECKS: tuple[CheckSpec, ...] = (
    CheckSpec(
        "rows_accounted_on_read",
        asset="source_files",
        sql="checks/rows_accounted_read",
        blocking=True,
        description="Per file: rows read = reference rows + dated results + rejected.",
        partitioned=False,
        rows_key="unbalanced_files",
        balanced="balanced",
    ),
    CheckSpec(
        "rows_accounted",
        asset="validated_results",
        sql="checks/rows_accounted_date",
        blocking=True,
        description="Per file: rows of the date read = validated + rejected.",
        partitioned=True,
        rows_key="unbalanced_files",
        balanced="balanced",
    ),
    CheckSpec(
        "score_contract_agreement",
        asset="validated_results",
        sql="checks/score_disagreements",
        blocking=False,
        description="Law 77: every stated score equals the score of its contract. A "
        "disagreement is kept and holds its event's standings (status held, not published) "
        "until corrected; the date's other events go on.",
        partitioned=True,
        rows_key="lines",
        count_key="disagreements",
        holds_events=True,
    ),
    CheckSpec(
        "rulings_applicable",
        asset="rulings",
        sql="checks/rulings_rejected",
        blocking=False,
        description="Every ruling and appeal of the date could be applied; one that cannot "
        "holds its event's standings (status held, not published) until corrected; the date's "
        "other events go on.",
        partitioned=True,
        rows_key="rows",
        count_key="rejected",
        holds_events=True,
    ),
    CheckSpec(
        "ruling_rows_accounted",
        asset="rulings",
        sql="checks/rows_accounted_rulings",
        blocking=True,
        description="Per file: rulings and appeals of the date read = accepted + rejected.",
        partitioned=True,
        rows_key="unbalanced_files",
        balanced="balanced",
    ),
    CheckSpec(
        "matchpoints_conserved",
        asset="scored_results",
        sql="read/scored_for_date",
        blocking=True,
        description="Law 78A: on every board NS + EW = top and each field sums to "
        "k(k-1), or n(N-1) when factored.",
        partitioned=True,
        rows_key="boards_off",
        offending=breaches,
    ),
    CheckSpec(
        "victory_points_balanced",
        asset="standings",
        sql="checks/vp_balance",
        blocking=True,
        description="Team matches: on a match whose boards balanced, the two teams' victory "
        "points sum to 20 (WBF 2013 scale, loser = 20 - winner).",
        partitioned=True,
        rows_key="matches_off",
    ),
    CheckSpec(
        "audit_rates_in_range",
        asset="director_audit",
        sql="checks/audit_rates_in_range",
        blocking=True,
        description="Every rate, target, funnel limit and shrunken rate of the marts is in [0, 1].",
        partitioned=False,
        rows_key="out_of_range",
    ),
    CheckSpec(
        "audit_counts_reconcile",
        asset="director_audit",
        sql="checks/audit_counts_reconcile",
        blocking=True,
        description="Per season, the marts' rulings, penalties and appeals reconcile with the "
        "rulings and appeals tables.",
        partitioned=False,
        rows_key="differences",
    ),
)

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
