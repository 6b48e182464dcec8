"""Victory points: the WBF 2013 IMP-to-VP scales (20 VPs a match).

Source: WBF Scoring Panel technical report (2013) as summarised in
``../shared/domain/scoring-rules.md`` §7; published checks in ``vectors.json``
(``vp_wbf_continuous``, ``vp_wbf_discrete``, ``vp_formula``). VPs are not a Law: the
Tournament Organizer chooses the scale (Law 78D lets the regulating authority prescribe
the scoring method) [reg].

All VPs here are **integers in hundredths** (10.36 VP is ``1036``), so that the winner's
and the loser's VPs always add up to exactly ``2000``.

**Continuous scale** (``"wbf2013"``). For a match of ``N`` boards, blitz ``B = 15·√N``
(not an integer in general), ``τ = (√5 − 1)/2``, ``R = τ³``, the winner of an integer IMP
margin ``I ≥ 0`` gets ``V(I) = min(20, 10 + 10·(1 − R^(I/B))/(1 − R))``, rounded to 2
decimals (half-up), for ``I = 0 … ⌈B⌉``. Then the **concavity correction**: while an
interior point has ``V[I+1] − V[I] > V[I] − V[I−1]``, add 0.01 to ``V[I]``; this changes a
few entries (12 boards: I = 42, 44, 49) and is needed to reproduce the published tables.
``I ≥ B`` gives 20.00; the loser gets ``20 − V``; a draw is 10.00–10.00.

**Discrete scale** (``"wbf2013_discrete"``, integer VPs, here multiples of 100). Derived
from the same curve: the first IMP margin worth ``k`` VPs (``k = 11 … 20``) is the real
margin at which the *unrounded* curve reaches ``k − ½``,
``x_k = B·ln(1 − (k − 10.5)(1 − R)/10)/ln R``, rounded to the nearest integer. The IMP
ranges are then smoothed so that each range is at least as wide as the one below it (the
draw range ``0 … c₁₁−1`` counts as ``2c₁₁ − 1`` IMPs wide, since it spans −(c₁₁−1) to
c₁₁−1): while a range is wider than the next, its upper cut-off moves down by one IMP.
A tie is always 10–10 (``c₁₁ ≥ 1``). This reproduces every published check (20 boards
0–1 → 10, 2–5 → 11, 6–9 → 12; 10 boards 1–3 → 11, 23–27 → 17; plain rounding of the
continuous table would give 10 boards 1 IMP → 10). **[uncertain]**: the published checks
do not reach any range the smoothing changes; the smoothing rule is ours, from the
report's statement that the IMP range is non-decreasing for each subsequent VP.

**Fractional margins** (Butler or cross-IMP averages) are not covered by the WBF tables;
the regulation must say [reg]. ``fractional`` names the rule applied to ``|margin|``:

* ``"round_half_up"`` (default): round to the nearest integer, halves away from zero,
  then look up. This is the EBU guidance (EBU forum, scoring-rules §7: round to the
  nearest integer before look-up, so ``|margin| < ½`` is a 10–10 draw); the EBU does
  not state what happens to an exact half, away from zero is our choice;
* ``"round_half_even"``: the same with halves to the even integer;
* ``"interpolate"``: linear between the two integer margins' table entries, rounded to
  0.01 half-up; a margin at or beyond the blitz ``B`` gets 20.00.

**Knockouts** have no VPs: ``scale="none"`` raises :class:`ValueError` (the caller
decides on the match by the IMP total, so a VP request there is a profile error).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

import numpy as np

SCALES: tuple[str, ...] = ("wbf2013", "wbf2013_discrete")
FRACTIONAL: tuple[str, ...] = ("round_half_up", "round_half_even", "interpolate")
FULL: int = 2000  # 20.00 VP in hundredths: winner + loser
DRAW: int = 1000


def blitz_margin(boards: int) -> int:
    """``⌈B⌉ = ⌈15·√N⌉``, the smallest integer IMP margin worth 20 VPs (exact).

    >>> blitz_margin(12), blitz_margin(16), blitz_margin(20)
    (52, 60, 68)
    """
    if boards < 1:
        raise ValueError(f"a match needs at least one board, not {boards}")
    sq = 225 * boards
    r = math.isqrt(sq)
    return r if r * r == sq else r + 1


def _check_scale(scale: str) -> None:
    if scale == "none":
        raise ValueError("scale 'none': knockout matches are decided on IMPs, not VPs")
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, not {scale!r}")


def _curve(boards: int) -> tuple[Decimal, Decimal]:
    """``(B, ln R)`` to 60 significant digits (call inside a 60-digit context)."""
    five = Decimal(5)
    r = ((five.sqrt() - 1) / 2) ** 3
    return 15 * Decimal(boards).sqrt(), r.ln()


def _continuous(boards: int) -> tuple[int, ...]:
    top = blitz_margin(boards)
    with localcontext() as ctx:
        ctx.prec = 60
        b, ln_r = _curve(boards)
        r = ln_r.exp()
        v = []
        for i in range(top + 1):
            raw = 1000 + 1000 * (1 - (i / b * ln_r).exp()) / (1 - r)
            v.append(min(FULL, int(raw.quantize(Decimal(1), rounding=ROUND_HALF_UP))))
    v[top] = FULL
    changed = True
    while changed:  # concavity correction
        changed = False
        for i in range(1, top):
            if v[i + 1] - v[i] > v[i] - v[i - 1]:
                v[i] += 1
                changed = True
    return tuple(v)


def discrete_cutoffs(boards: int) -> tuple[int, ...]:
    """First IMP margin worth 11, 12, …, 20 VPs on the WBF 2013 discrete scale.

    See the module docstring for the derivation (half-points, rounding, smoothing).

    >>> discrete_cutoffs(20)[:3], discrete_cutoffs(10)[:1]
    ((2, 6, 10), (1,))
    """
    with localcontext() as ctx:
        ctx.prec = 60
        b, ln_r = _curve(boards)
        one_minus_r = 1 - ln_r.exp()
        cuts = []
        for k in range(11, 21):
            x = b * (1 - (Decimal(k) - Decimal("10.5")) * one_minus_r / 10).ln() / ln_r
            cuts.append(int(x.quantize(Decimal(1), rounding=ROUND_HALF_UP)))
    cuts[0] = max(cuts[0], 1)  # a tie is always a draw
    for j in range(1, len(cuts)):  # every VP gets at least one IMP margin
        cuts[j] = max(cuts[j], cuts[j - 1] + 1)

    def width(j: int) -> int:  # range of 10 + j VPs (j = 0: the draw, both signs)
        return 2 * cuts[0] - 1 if j == 0 else cuts[j] - cuts[j - 1]

    changed = True
    while changed:  # smoothing: IMP ranges non-decreasing with the VPs
        changed = False
        for j in range(0, len(cuts) - 1):
            if width(j) > width(j + 1):
                cuts[j] -= 1
                changed = True
                break
    return tuple(cuts)


@lru_cache(maxsize=256)
def vp_table(boards: int, scale: str = "wbf2013") -> tuple[int, ...]:
    """Winner's VPs in hundredths for the integer IMP margins ``0 … ⌈15√N⌉`` (last = 2000).

    >>> t = vp_table(12)
    >>> t[0], t[1], t[42], t[51], t[52], len(t)
    (1000, 1036, 1902, 1992, 2000, 53)
    >>> vp_table(20, "wbf2013_discrete")[:7]
    (1000, 1000, 1100, 1100, 1100, 1100, 1200)
    """
    _check_scale(scale)
    if scale == "wbf2013":
        return _continuous(boards)
    cuts = discrete_cutoffs(boards)
    top = blitz_margin(boards)
    return tuple(100 * (10 + sum(1 for c in cuts if c <= i)) for i in range(top + 1))


def _winner(a: Fraction, boards: int, scale: str, fractional: str) -> int:
    """Winner's VPs (hundredths) for a non-negative margin ``a``."""
    t = vp_table(boards, scale)
    top = len(t) - 1
    if fractional == "interpolate":
        if a * a >= 225 * boards:  # at or beyond the blitz B = 15·√N
            return FULL
        f = math.floor(a)
        if f >= top:
            return FULL
        part = (t[f + 1] - t[f]) * (a - f)
        return t[f] + math.floor(part + Fraction(1, 2))
    if fractional == "round_half_up":
        i = math.floor(a + Fraction(1, 2))
    elif fractional == "round_half_even":
        i = round(a)  # Fraction.__round__ rounds halves to even
    else:
        raise ValueError(f"fractional must be one of {FRACTIONAL}, not {fractional!r}")
    return t[min(i, top)]


def victory_points(
    margin: Fraction | int,
    boards: int,
    scale: str = "wbf2013",
    fractional: str = "round_half_up",
) -> tuple[int, int]:
    """``(home, away)`` VPs in hundredths for the home side's IMP ``margin`` (may be < 0).

    The winner's VPs come from :func:`vp_table` (fractional margins by ``fractional``,
    see the module docstring); the loser gets exactly ``2000 −`` that.

    >>> victory_points(7, 14), victory_points(-2, 20), victory_points(60, 12)
    ((1216, 784), (945, 1055), (2000, 0))
    >>> victory_points(Fraction(1, 3), 12)
    (1000, 1000)
    >>> victory_points(Fraction(1, 2), 12, fractional="interpolate")
    (1018, 982)
    """
    _check_scale(scale)
    if fractional not in FRACTIONAL:
        raise ValueError(f"fractional must be one of {FRACTIONAL}, not {fractional!r}")
    m = Fraction(margin)
    w = _winner(abs(m), boards, scale, fractional)
    return (w, FULL - w) if m >= 0 else (FULL - w, w)


def victory_points_array(
    margins: np.ndarray,
    boards: int,
    scale: str = "wbf2013",
    fractional: str = "round_half_up",
    den: np.ndarray | int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`victory_points` over a round: ``(home, away)`` int64 arrays.

    The home margins are the exact fractions ``margins / den`` (integer numerators, and a
    positive integer denominator, scalar or per match); all arithmetic is in integers.
    """
    _check_scale(scale)
    if fractional not in FRACTIONAL:
        raise ValueError(f"fractional must be one of {FRACTIONAL}, not {fractional!r}")
    num = np.asarray(margins, dtype=np.int64)
    d = np.broadcast_to(np.asarray(den, dtype=np.int64), num.shape)
    if np.any(d <= 0):
        raise ValueError("denominators must be positive")
    t = np.asarray(vp_table(boards, scale), dtype=np.int64)
    top = len(t) - 1
    a = np.abs(num)
    if fractional == "interpolate":
        f = np.minimum(a // d, top)
        r = np.where(a // d >= top, 0, a % d)
        nxt = np.minimum(f + 1, top)
        w = t[f] + ((t[nxt] - t[f]) * r * 2 + d) // (2 * d)
        w = np.where(a * a >= 225 * boards * d * d, FULL, w)
    else:
        q, r = a // d, a % d
        if fractional == "round_half_up":
            q = q + (2 * r >= d)
        else:
            q = q + ((2 * r > d) | ((2 * r == d) & (q % 2 == 1)))
        w = t[np.minimum(q, top)]
    home = np.where(num >= 0, w, FULL - w)
    return home, FULL - home
