"""Law 78A: matchpoints; factoring boards with fewer results than expected.

**Matchpoints.** Each result on a board is compared with every other result
in the same field (NS with NS): 2 units for each result it beats, 1 for each
it ties, 0 for each that beats it. The units are matchpoints on the "2/1"
scale (WBF, EBU) or half-matchpoints on the "1/0.5" scale (ACBL: 1 per beat,
½ per tie). With ``k`` results the top is ``2(k-1)`` (``k-1`` on 1/0.5), the NS
matchpoints of a board sum to ``k(k-1)``, and on a balanced board
``NS + EW = top``.

**Frequency form.** With result frequencies ``f`` (possibly fractional, as for
weighted scores, Law 12C1(c)), a score ``s`` earns
``2·Σ_{t<s} f_t + f_s - 1`` on the 2/1 scale, where ``f_s`` includes itself.

**Neuberg** (WBF and ACBL 1991; EBU): when only ``n`` of the ``N`` expected
results exist, each actual result stands for ``N/n`` results:
``M' = (M + 1)·N/n - 1`` on 2/1 (``(M + ½)·N/n - ½`` on 1/0.5). Each group
keeps its average, so the factored group sums to ``n(N-1)``.

**Linear** factoring (Magic Contest, where an artificial score replaced a
result): scale the matchpoints by the ratio of tops, ``M' = M·(N-1)/(n-1)``.

All functions here return exact :class:`fractions.Fraction` values; the
vectorised scorer (:mod:`pipelines.scoring.score`) is tested against them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

SCALES: tuple[str, ...] = ("2/1", "1/0.5")


def _unit(scale: str) -> Fraction:
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, not {scale!r}")
    return Fraction(1) if scale == "2/1" else Fraction(1, 2)


def top(results: int, scale: str = "2/1") -> Fraction:
    """The top on a board with ``results`` results: ``2(k-1)`` on 2/1, ``k-1`` on 1/0.5.

    >>> top(11), top(11, "1/0.5")
    (Fraction(20, 1), Fraction(10, 1))
    """
    if results < 1:
        raise ValueError("a board needs at least one result")
    return 2 * (results - 1) * _unit(scale)


def matchpoints(scores: Sequence[int], scale: str = "2/1") -> list[Fraction]:
    """Matchpoints of each score against the others in ``scores`` (Law 78A).

    ``MP = 2·(#lower) + (#equal others)`` on 2/1; half that on 1/0.5.

    >>> [int(m) for m in matchpoints([400, 430, 150, -50])]
    [4, 6, 2, 0]
    """
    u = _unit(scale)
    ordered = sorted(scores)
    out = []
    for s in scores:
        lower = _count_below(ordered, s)
        equal = _count_below(ordered, s, inclusive=True) - lower
        out.append((2 * lower + equal - 1) * u)
    return out


def _count_below(ordered: list[int], s: int, inclusive: bool = False) -> int:
    from bisect import bisect_left, bisect_right

    return bisect_right(ordered, s) if inclusive else bisect_left(ordered, s)


def matchpoints_frequency(
    score: int, field: Sequence[tuple[int, Fraction | int]], scale: str = "2/1"
) -> Fraction:
    """Matchpoints of ``score`` against a ``field`` of ``(score, frequency)`` pairs.

    ``field`` includes the result itself (with its own frequency, usually 1).
    ``MP = 2·Σ_{t<s} f_t + f_s - 1`` on 2/1 (halved on 1/0.5). With all
    frequencies 1 this equals :func:`matchpoints`.

    >>> matchpoints_frequency(420, [(620, 1), (620, 1), (650, 1), (170, 1), (-100, 1), (420, 1)])
    Fraction(4, 1)
    """
    u = _unit(scale)
    below = sum((Fraction(f) for s, f in field if s < score), Fraction(0))
    same = sum((Fraction(f) for s, f in field if s == score), Fraction(0))
    return (2 * below + same - 1) * u


def neuberg(mp: Fraction | int, n: int, expected: int, scale: str = "2/1") -> Fraction:
    """Neuberg-factor matchpoints ``mp`` earned among ``n`` results to ``expected`` results.

    ``M' = (M + u)·N/n - u`` where ``u`` is 1 on 2/1 and ½ on 1/0.5.

    >>> float(neuberg(18, 10, 11))
    19.9
    """
    if not 1 <= n <= expected:
        raise ValueError(f"need 1 <= n <= expected, got n={n}, expected={expected}")
    u = _unit(scale)
    return (Fraction(mp) + u) * Fraction(expected, n) - u


def linear(mp: Fraction | int, n: int, expected: int, scale: str = "2/1") -> Fraction:
    """Scale matchpoints ``mp`` earned among ``n`` results linearly to the top of ``expected``.

    ``M' = M·(N-1)/(n-1)``; a single result (``n = 1``) gets half the full top.

    >>> float(linear(27, 21, 22))
    28.35
    """
    if not 1 <= n <= expected:
        raise ValueError(f"need 1 <= n <= expected, got n={n}, expected={expected}")
    if n == 1:
        return top(expected, scale) / 2
    return Fraction(mp) * Fraction(expected - 1, n - 1)


def artificial(percent: int | Fraction, expected: int, scale: str = "2/1") -> Fraction:
    """An artificial score of ``percent`` % of the *full* top (Law 12C2), never a factored top.

    >>> float(artificial(60, 7)), float(artificial(40, 7))
    (7.2, 4.8)
    """
    return Fraction(percent) / 100 * top(expected, scale)
