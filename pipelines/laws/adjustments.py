"""Adjusted scores (Law 12C), director's error (82C) and fouled-board groups (87): the rules.

Notation of a side's result in a ruling (``ns_result`` / ``ew_result``):

* a contract result ``4S N =``, ``3NT S +1``, ``4HX E -2`` (level+strain+doubling, declarer's
  seat, tricks relative to the contract), or ``PASS``;
* an NS-signed score ``+620`` / ``-100``;
* a weighted score (Law 12C1(c)): components ``60% 4S N =; 40% 4S N -1`` whose weights are
  percentages (``33.3%`` allowed) or fractions (``1/3 4S N =; 2/3 4S N -1`` for 33⅓ %),
  summing exactly to 100 % (a whole);
* an artificial score (Law 12C2): ``A+``, ``A``, ``A-`` (variable: average-plus, average,
  average-minus, resolved by the session-percentage rule) or ``A60``, ``A50``, ``A40``
  (fixed percentages of the full top, never overridden); another fixed percentage such as
  ``A55`` (Law 12C2(d): regulated by the Regulating Authority) where the profile allows it;
* ``score stands`` (an appeal's decision): the side keeps the table result.

Rules:

* **Assigned** (12C1(b)): the assigned result replaces the table result and is compared with
  the field like a played score.
* **Split / non-balancing** (12C1(e), 79B3, 82C): the NS field uses the NS side's result and
  the EW field the EW side's; each field still sums correctly, the table need not.
* **Weighted** (12C1(c)): each component is scored against the field, then weighted; the other
  tables compare against each component with its weight (the frequency form of Law 78A,
  :func:`pipelines.laws.matchpoints.matchpoints_frequency`). Raw points are never averaged.
* **Artificial** (12C2(a)): a percentage of the full top, excluded from the other tables'
  comparisons. **Session-percentage rule** (2017 12C2(c); 2007 Law 88): a variable average-plus
  gives the non-offending contestant ``max(60 %, p)`` and, under the 2017 Laws, an
  average-minus gives the offending contestant ``min(40 %, p)``, where ``p`` is its percentage
  on the *other* boards of the session (every board on which it received an artificial score
  excluded). Under the 2007 Laws average-minus stays 40 %.
* **Director's error** (82C): both sides are treated as non-offending: typically ``A+``/``A+``,
  or each side's most favourable assigned result; the two may total more than 100 %.
* **Fouled board** (87): results are grouped by the version of the board played; each group is
  matchpointed within itself and factored to the full field. Small groups follow the profile:
  ``neuberg`` (a single result gets 60 %), ``ebu`` (White Book 4.2.3.3: a group of A = 2 or 3
  when E >= 3A scores ``60 % + (M - (A - 1)) x 5 %``, i.e. 65/55 and 70/60/50; a single result
  60 %), ``acbl`` (1991: Neuberg for groups of 4 or more and for a group of 3 that is the
  largest; otherwise 3 -> 70/60/50 %, 2 -> 65/55 %, 1 -> 60 %).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pipelines.laws.contract import SEATS, Contract, ns_score, parse_contract

_CONTRACT_RESULT = re.compile(
    r"^(?P<contract>[1-7](?:NT|C|D|H|S)(?:XX|X)?)\s+(?P<seat>[NESW])\s+(?P<rel>=|[+-][0-9]{1,2})$"
)
_SCORE = re.compile(r"^[+-]?[0-9]+$")
_WEIGHTED_PART = re.compile(
    r"^(?:(?P<pct>[0-9]{1,3}(?:\.[0-9]{1,4})?)\s*%|(?P<num>[0-9]{1,4})\s*/\s*(?P<den>[0-9]{1,4}))"
    r"\s+(?P<result>.+)$"
)
_ARTIFICIAL = re.compile(r"^A(?P<code>\+|-|=|[0-9]{1,3})?$")

#: The nominal fixed percentages of Law 12C2(a): average-plus, average, average-minus.
STANDARD_PERCENTAGES: tuple[str, ...] = ("60", "50", "40")

#: An appeal's (or a side's) decision that the table result stands.
STANDS = "score stands"

#: Fouled-board small-group rules a profile may choose.
FOULED_RULES: tuple[str, ...] = ("neuberg", "ebu", "acbl")


class ResultError(ValueError):
    """A side's result in a ruling is not legal notation (the message says why)."""


@dataclass(frozen=True)
class Component:
    """One possible result of a table: its NS-signed score and its weight (a fraction of 1)."""

    ns_score: int
    weight: Fraction = Fraction(1)
    text: str = ""


@dataclass(frozen=True)
class Artificial:
    """An artificial score: ``code`` ``+``, ``=``, ``-`` (variable) or a fixed percentage."""

    code: str

    @property
    def variable(self) -> bool:
        """Whether the session-percentage rule may change it."""
        return self.code in ("+", "=", "-")

    def nominal(self, plus: int = 60, average: int = 50, minus: int = 40) -> int:
        """Its percentage before any session-percentage rule (Law 12C2(a))."""
        return {"+": plus, "=": average, "-": minus}.get(self.code) or int(self.code)


SideResult = tuple[Component, ...] | Artificial


def _contract_result(text: str, board: int) -> Component:
    t = " ".join(text.strip().upper().split())
    if t == "PASS":
        return Component(0, Fraction(1), "PASS")
    m = _CONTRACT_RESULT.match(t)
    if not m:
        raise ResultError(
            f"'{text}' is not a result: write a contract result like '4S N =', '3NT S +1', "
            "'4HX E -2', 'PASS', or an NS score like '+620'"
        )
    contract = parse_contract(m["contract"])
    assert isinstance(contract, Contract)
    rel = 0 if m["rel"] == "=" else int(m["rel"])
    tricks = contract.level + 6 + rel
    if not 0 <= tricks <= 13:
        raise ResultError(f"'{text}': {contract} {m['rel']} means {tricks} tricks, not 0-13")
    return Component(ns_score(contract, m["seat"], tricks, board), Fraction(1), t)


def parse_side_result(text: str, board: int) -> SideResult:
    """Parse one side's result in a ruling (see the module docstring) for ``board``.

    Scores are computed by Law 77 with the Law 2 vulnerability of ``board``.

    >>> parse_side_result("4S N =", 1)
    (Component(ns_score=420, weight=Fraction(1, 1), text='4S N ='),)
    >>> parse_side_result("A+", 1)
    Artificial(code='+')
    >>> [c.ns_score for c in parse_side_result("60% 4S N =; 40% 4S N -1", 2)]
    [620, -100]
    """
    t = text.strip()
    if not t:
        raise ResultError("the result is empty")
    art = _ARTIFICIAL.match(t.upper().replace(" ", ""))
    if art:
        code = art["code"] or "="
        if code not in ("+", "=", "-"):
            code = str(int(code))
            if not 0 <= int(code) <= 100:
                raise ResultError(f"'{text}': an artificial score is a percentage 0-100")
        return Artificial(code)
    if ";" in t or "%" in t or _WEIGHTED_PART.match(t):
        parts = [p.strip() for p in t.split(";") if p.strip()]
        comps = []
        for p in parts:
            m = _WEIGHTED_PART.match(p)
            if not m:
                raise ResultError(
                    f"'{p}' is not a weighted component like '60% 4S N =' or '1/3 4S N ='"
                )
            if m["pct"] is not None:
                weight = Fraction(m["pct"]) / 100
                shown = f"{m['pct']}%"
            else:
                if int(m["den"]) == 0:
                    raise ResultError(f"'{p}': a weight's denominator cannot be 0")
                weight = Fraction(int(m["num"]), int(m["den"]))
                shown = f"{m['num']}/{m['den']}"
            if not 0 < weight <= 1:
                raise ResultError(f"weight {shown} must be more than 0 and at most 100%")
            c = _single(m["result"], board)
            comps.append(Component(c.ns_score, weight, p))
        total = sum(c.weight for c in comps)
        if total != 1:
            raise ResultError(
                f"the weights of '{text}' sum to {_percent(total)}, not 100% (Law 12C1(c)); "
                "write thirds as fractions: '1/3 4S N =; 2/3 4S N -1'"
            )
        return tuple(comps)
    return (_single(t, board),)


def _percent(w: Fraction) -> str:
    v = w * 100
    return f"{v.numerator}%" if v.denominator == 1 else f"{float(v):.4g}%"


def is_stands(text: str | None) -> bool:
    """Whether ``text`` says the table result stands (``score stands``, ``stands``)."""
    return " ".join((text or "").lower().split()) in (STANDS, "stands")


def _single(text: str, board: int) -> Component:
    t = text.strip()
    if _SCORE.match(t):
        score = int(t)
        if score % 10:
            raise ResultError(f"'{text}' is not a possible bridge score (not a multiple of 10)")
        return Component(score, Fraction(1), t)
    return _contract_result(t, board)


def resolve_artificial(
    code: str,
    p_other: Fraction | None,
    laws: str = "2017",
    plus: int = 60,
    average: int = 50,
    minus: int = 40,
) -> Fraction:
    """The percentage (0-100) an artificial score is worth (Law 12C2(a), (c); 2007 Law 88).

    ``code`` is ``+``, ``=``, ``-`` or a fixed percentage (``"60"``); ``p_other`` is the
    contestant's percentage on the other boards of the session (``None`` when it has no other
    board). Fixed percentages are never overridden.

    >>> resolve_artificial("+", Fraction(64))
    Fraction(64, 1)
    >>> resolve_artificial("-", Fraction(35)), resolve_artificial("-", Fraction(35), "2007")
    (Fraction(35, 1), Fraction(40, 1))
    """
    if code == "+":
        return max(Fraction(plus), p_other) if p_other is not None else Fraction(plus)
    if code == "-":
        if laws == "2017" and p_other is not None:
            return min(Fraction(minus), p_other)
        return Fraction(minus)
    if code == "=":
        return Fraction(average)
    return Fraction(int(code))


def other_boards_percentage(
    session_percent: Fraction, boards: int, artificial_percent: Fraction
) -> Fraction:
    """The EBU practical identity: percentage on the other boards, given a session result
    ``session_percent`` over ``boards`` boards of which one carried ``artificial_percent``.

    ``p_other = (P x b - A) / (b - 1)``.

    >>> other_boards_percentage(Fraction(6400 - 4, 100), 26, Fraction(60))  # doctest: +ELLIPSIS
    Fraction(...)
    """
    return (session_percent * boards - artificial_percent) / (boards - 1)


def fouled_group_percentage(
    rule: str, group_size: int, expected: int, mp: Fraction, largest: bool
) -> Fraction | None:
    """The percentage a result in a fouled-board group of ``group_size`` earns under ``rule``,
    or ``None`` when Neuberg factoring applies (Law 87 and the regulation the profile names).

    ``mp`` is the result's matchpoints within its group on the 2/1 scale (0 .. 2(A-1));
    ``expected`` is E, the results the board should have had.

    >>> fouled_group_percentage("ebu", 2, 10, Fraction(2), False)
    Fraction(65, 1)
    >>> fouled_group_percentage("ebu", 3, 10, Fraction(0), False)
    Fraction(50, 1)
    >>> fouled_group_percentage("ebu", 2, 5, Fraction(0), False) is None  # E < 3A: Neuberg
    True
    """
    if rule not in FOULED_RULES:
        raise ValueError(f"fouled-board rule must be one of {FOULED_RULES}, not {rule!r}")
    a = group_size
    if a == 1:
        return Fraction(60)
    if rule == "ebu" and a in (2, 3) and expected >= 3 * a:
        return 60 + (mp - (a - 1)) * 5
    if rule == "acbl" and (a == 2 or (a == 3 and not largest)):
        return 60 + (mp - (a - 1)) * 5
    return None


def seat_side(seat: str) -> str:
    """``NS`` for N/S, ``EW`` for E/W."""
    if seat not in SEATS:
        raise ValueError(f"not a seat: {seat!r}")
    return "NS" if seat in ("N", "S") else "EW"
