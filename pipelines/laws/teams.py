"""Team matches at IMPs: board results, artificial, weighted and non-balancing adjustments.

Sources: Laws 78B, 12C1(c), 12C2(b) and 86 (2017; 2007 86A/86B), as summarised in
``../shared/domain/scoring-rules.md`` §1, §5 and §6.

**A board of a match.** Team A sits NS at table 1 and EW at table 2 (team B the other way
round). With NS-signed scores ``t1`` and ``t2``, team A wins ``imps(t1 − t2)`` IMPs on the
board and team B the negation (Law 78B) — :func:`match_imps`. A board with a missing
score at either table (not played, or not recorded) has **no** result: it is ``None``
(null), never 0 IMPs, and needs a director's decision (Law 86, an artificial or assigned
score, or a substitute board).

**Artificial scores** (2017 Law 12C2(b); 2007 86A): average-plus / average /
average-minus at IMPs are +3 / 0 / −3 IMPs; the Tournament Organizer may vary the 3 with
the regulating authority's approval [reg] — :func:`artificial_imps`.

**Weighted (assigned) scores** (Law 12C1(c)): each component of the weighted score is
IMPed against the other table separately, then the IMPs are weighted. Weighting the points
first and IMPing the mean is wrong (scoring-rules §5: 0.6 × +620 and 0.4 × −100, the
other table NS +420, i.e. −420 to this team: +200 → +5 and −520 → −11 IMPs, so
0.6 × 5 + 0.4 × (−11) = −1.4 IMPs, not IMP(332 − 420) = −3) —
:func:`weighted_imps`.

**Non-balancing adjustments** (split scores: each side of a table assigned a different
result, 12C1(e), 79B3, 82C). Each team's IMPs are computed from *its own* assigned
scores at both tables:

* in a **non-knockout** match (round robin, Swiss) each team keeps its own IMPs, so the
  two teams' IMPs on the board need not add up to zero (and their VPs need not add up to
  20) — :func:`team_board_imps` with ``knockout=False``;
* in a **knockout** match (2017 Law 86C; 2007 Law 86B) each team's board score is
  computed separately and *each team gets the average* of the two, so the board balances
  (A gets ``(a + b)/2``, B its negation) — :func:`knockout_average`,
  :func:`knockout_board`. **[uncertain: the 2017 lettering of this clause, §11]**

**IMP awards** (2007 Law 86D: in team play, when the Director awards an adjusted score and a
result was obtained between the same contestants at the other table, he may award an
adjusted score in IMPs or total points — and should when that result favours the
non-offending side; 2017 Law 86B1: when the other table's result is clearly favourable to
one side he awards an assigned adjusted score): the Director gives the board of the match
a number of IMPs — :func:`parse_imp_award` reads ``+9 IMP``. The award replaces the
board's IMPs for the match; the table results stay on record.

**Artificial scores at both tables** (2017 Law 86B2; 2007 Law 86D): when both tables of a
match board receive an artificial score, the board has no comparable result and the Law
has the Director award adjusted scores *for the board*, not one per table. The 2017 text
(Law 86B2, "multiple results obtained at one or more tables", read in the Polish
Federation's 2017 edition https://www.pzbs.pl/sedziowie/mpb/2017/pl/p86.html, and
scoring-rules.md §1): (a) if no contestant is at fault the board is cancelled and
artificial adjusted scores are awarded (Law 12C2: average-plus to a contestant in no way
at fault); (b) if only one contestant is at fault, the non-offending side gets, per
board, average-plus (or an assigned score if better) and the offending side the
complement of its opponents' score; (c) if both are at fault, the board is cancelled and
artificial scores are awarded (Law 12C2: average-minus to a contestant directly at fault,
average to one partly at fault). A contestant here is the *team*: it is at fault on the
board when either of its pairs was (its least favourable code). So a team gets **one**
artificial score for the board, at most the profile's average-plus — never the sum of its
two tables (A+ at both tables is +3 IMPs, not +6) — :func:`cancelled_board`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import numpy as np
import polars as pl

from pipelines.laws.imps import imps, imps_array, imps_expr

ARTIFICIAL_CODES: dict[str, int] = {
    "+": 1, "=": 0, "-": -1,
    "A+": 1, "A=": 0, "A-": -1,
    "Av+": 1, "Av": 0, "Av-": -1,
}  # fmt: skip
"""Artificial-score codes (sign of the award): ``+``/``=``/``-`` for average-plus, average,
average-minus, also written ``A+``/``A=``/``A-`` or ``Av+``/``Av``/``Av-``."""

Weighted = Sequence[tuple[Fraction | int, int]]
"""A weighted assigned score: ``(weight, NS-signed score)`` components, weights summing to 1."""

SideScore = int | Weighted
"""One side's (NS-signed) score at a table: a single score, or weighted components."""


def match_imps(ns_score_table1: int, ns_score_table2: int) -> int:
    """IMPs to the team sitting NS at table 1: ``imps(t1 − t2)`` (Law 78B).

    The team sitting EW at table 1 gets the negation.

    >>> match_imps(420, 170), match_imps(-100, 620)
    (6, -12)
    """
    return imps(ns_score_table1 - ns_score_table2)


def match_imps_array(ns_table1: np.ndarray, ns_table2: np.ndarray) -> np.ndarray:
    """Vectorised :func:`match_imps` (int64) over aligned arrays of the two tables' scores."""
    return imps_array(np.asarray(ns_table1, dtype=np.int64) - np.asarray(ns_table2, dtype=np.int64))


def match_imps_expr(ns_table1: pl.Expr, ns_table2: pl.Expr) -> pl.Expr:
    """Polars :func:`match_imps`: null when either table's score is missing (no result)."""
    return imps_expr(ns_table1.cast(pl.Int64) - ns_table2.cast(pl.Int64))


def artificial_imps(code: str, profile_value: int = 3) -> int:
    """IMPs for an artificial adjusted score (2017 Law 12C2(b); 2007 Law 86A).

    ``code`` is ``+`` (average-plus), ``=`` (average) or ``-`` (average-minus), or one of
    the other spellings of :data:`ARTIFICIAL_CODES`;
    ``profile_value`` is the regulation's value of average-plus (3 by default) [reg].

    >>> artificial_imps("+"), artificial_imps("="), artificial_imps("-")
    (3, 0, -3)
    """
    if code not in ARTIFICIAL_CODES:
        raise ValueError(f"artificial code must be one of {tuple(ARTIFICIAL_CODES)}, not {code!r}")
    return ARTIFICIAL_CODES[code] * profile_value


def _components(score: SideScore) -> list[tuple[Fraction, int]]:
    if isinstance(score, int):
        return [(Fraction(1), score)]
    parts = [(Fraction(w), int(s)) for w, s in score]
    if not parts or any(w < 0 for w, _ in parts) or sum(w for w, _ in parts) != 1:
        raise ValueError(f"weights must be non-negative and sum to 1: {score!r}")
    return parts


def weighted_imps(components: Weighted, other_table_ns: int) -> Fraction:
    """IMPs to the NS side of a table given a weighted score (Law 12C1(c)).

    Each ``(weight, ns_score)`` component is IMPed against ``other_table_ns`` and the
    IMPs are weighted: ``Σ w_i · imps(s_i − other)``. The weights must sum to 1.

    >>> weighted_imps([(Fraction(3, 5), 620), (Fraction(2, 5), -100)], 420)
    Fraction(-7, 5)
    """
    return _cross(_components(components), [(Fraction(1), other_table_ns)])


def _cross(a: list[tuple[Fraction, int]], b: list[tuple[Fraction, int]]) -> Fraction:
    """``Σ_i Σ_j a_w_i · b_w_j · imps(a_i − b_j)``: every component against every component."""
    return sum((wa * wb * imps(sa - sb) for wa, sa in a for wb, sb in b), Fraction(0))


def _sides(table: SideScore | tuple[SideScore, SideScore]) -> tuple[SideScore, SideScore]:
    """``(NS side, EW side)`` of a table: a 2-tuple of scores (ints or lists of weighted
    components) is a split result; anything else is the same score for both sides."""
    if (
        isinstance(table, tuple)
        and len(table) == 2
        and all(isinstance(x, int | list) for x in table)
    ):
        return table[0], table[1]
    return table, table  # type: ignore[return-value]


def knockout_average(view_a: Fraction | int, view_b: Fraction | int) -> Fraction:
    """Team A's IMPs on a non-balanced knockout board: the average of the two views.

    ``view_a`` is A's IMPs computed from A's own assigned scores, ``view_b`` is A's IMPs
    computed from B's assigned scores (i.e. the negation of B's own IMPs). Team B gets the
    negation of the result (2017 Law 86C; 2007 Law 86B).

    >>> knockout_average(6, 10)
    Fraction(8, 1)
    """
    return (Fraction(view_a) + Fraction(view_b)) / 2


def team_board_imps(
    table1: SideScore | tuple[SideScore, SideScore],
    table2: SideScore | tuple[SideScore, SideScore],
    *,
    knockout: bool = False,
) -> tuple[Fraction, Fraction]:
    """``(A's IMPs, B's IMPs)`` on one board; team A is NS at table 1 and EW at table 2.

    Each table is either one NS-signed score (a balanced result) or a pair
    ``(score for the NS side, score for the EW side)`` when the adjustment is split;
    either score may be weighted components (given as a *list* of ``(weight, score)``).
    Each team is scored from its own side's
    scores at both tables: A from table 1's NS-side score and table 2's EW-side score, B
    from table 1's EW-side score and table 2's NS-side score. Outside a knockout each
    team keeps its own IMPs (the two need not add to zero); in a knockout both get the
    average (:func:`knockout_average`) and the board balances.

    >>> team_board_imps((420, 620), 170)
    (Fraction(6, 1), Fraction(-10, 1))
    """
    t1_ns, t1_ew = _sides(table1)
    t2_ns, t2_ew = _sides(table2)
    a_own = _cross(_components(t1_ns), _components(t2_ew))
    a_by_b = _cross(_components(t1_ew), _components(t2_ns))  # = −(B's own IMPs)
    if knockout:
        a = knockout_average(a_own, a_by_b)
        return a, -a
    return a_own, -a_by_b


def knockout_board(
    table1: SideScore | tuple[SideScore, SideScore],
    table2: SideScore | tuple[SideScore, SideScore],
) -> tuple[Fraction, Fraction]:
    """``(A's IMPs, B's IMPs)`` on a knockout board: :func:`team_board_imps` averaged.

    scoring-rules §6: A (NS, table 1) assigned +420, B (EW, table 1) assigned as if NS
    made +620; at table 2, B (NS) +170. A's view +6, B's view gives A +10: A +8, B −8.

    >>> knockout_board((420, 620), 170)
    (Fraction(8, 1), Fraction(-8, 1))
    """
    return team_board_imps(table1, table2, knockout=True)


#: How far a side given an artificial score was at fault (Law 12C2(a)): average-plus (or a
#: fixed 60 %) in no way, average (50 %) partly, average-minus (40 %) directly.
FAULT: dict[str, int] = {"+": 0, "60": 0, "=": 1, "50": 1, "-": 2, "40": 2}


def cancelled_board(
    codes_a: Sequence[str],
    codes_b: Sequence[str],
    plus: int = 3,
    average: int = 0,
    minus: int = -3,
) -> tuple[int | None, int | None]:
    """``(A's IMPs, B's IMPs)`` on a match board whose two tables both received artificial
    scores (2017 Law 86B2; 2007 Law 86D; see the module docstring).

    ``codes_a`` are the artificial codes team A received on the board (one per table where
    its side got one: ``+ = -`` or ``60 50 40``), ``codes_b`` team B's; ``plus``,
    ``average``, ``minus`` are the profile's IMP values (Law 12C2(b): +3, 0, −3). A team
    is at fault by its least favourable code. Neither at fault (86B2(a)): both get
    average-plus. Only one at fault (86B2(b)): the other gets average-plus and it the
    complement, ``−plus``. Both at fault (86B2(c)): each the artificial score of its fault,
    average-minus (directly) or average (partly). A team that received no artificial score
    (its sides were assigned scores) gets ``None``: its results are scored as they are.

    >>> cancelled_board(["+", "+"], ["+", "+"])  # A+ at both tables: +3 each, not +6
    (3, 3)
    >>> cancelled_board(["+", "+"], ["-", "+"])  # B at fault at one table
    (3, -3)
    >>> cancelled_board(["-", "+"], ["+", "-"])  # both at fault
    (-3, -3)
    """
    faults = []
    for codes in (codes_a, codes_b):
        for c in codes:
            if c not in FAULT:
                raise ValueError(f"artificial code must be one of {tuple(FAULT)}, not {c!r}")
        faults.append(max((FAULT[c] for c in codes), default=None))

    def award(mine: int | None, theirs: int | None) -> int | None:
        if mine is None:
            return None
        if mine == 0:
            return plus
        if not theirs:  # only this team at fault: the complement of its opponents' Av+
            return -plus
        return average if mine == 1 else minus

    return award(faults[0], faults[1]), award(faults[1], faults[0])


_IMP_AWARD = re.compile(r"^(?P<sign>[+-]?)\s*(?P<n>[0-9]{1,3}(?:\.[0-9]{1,4})?)\s*IMPS?$", re.I)


def parse_imp_award(text: str) -> Fraction:
    """The IMPs of an IMP award (2007 Law 86D; 2017 86B1): ``+9 IMP``, ``-2.5 IMPs``, ``3 imp``.

    The sign is the IMPs' to the side named (won +, lost −); up to four decimals. Raises
    :class:`ValueError` for anything else (a score, VPs, an artificial score).

    >>> parse_imp_award("+9 IMP"), parse_imp_award("-2.5 IMPs")
    (Fraction(9, 1), Fraction(-5, 2))
    """
    m = _IMP_AWARD.match((text or "").strip())
    if not m:
        raise ValueError(
            f"'{text}' is not an IMP award: write the IMPs the side is given, "
            "like '+9 IMP' or '-2.5 IMP'"
        )
    n = Fraction(m["n"])
    return -n if m["sign"] == "-" else n


def imp_award_text(imps: Fraction) -> str:
    """Canonical text of an IMP award: ``+9 IMP``, ``-2.5 IMP``, ``0 IMP``.

    >>> imp_award_text(Fraction(-5, 2))
    '-2.5 IMP'
    """
    sign = "+" if imps > 0 else "-" if imps < 0 else ""
    a = abs(imps)
    n = format((Decimal(a.numerator) / Decimal(a.denominator)).normalize(), "f")
    return f"{sign}{n} IMP"
