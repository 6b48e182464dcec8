"""Law 78B: the International Match Point (IMP) scale.

A point difference ``d`` between two scores is converted to IMPs on the scale of
Law 78B (identical in the 2007 and 2017 Laws; ``../shared/domain/scoring-rules.md``
§6, ``vectors.json`` ``imp_bands``)::

    0-10: 0   20-40: 1   50-80: 2   90-120: 3   130-160: 4   170-210: 5   220-260: 6
    270-310: 7   320-360: 8   370-420: 9   430-490: 10   500-590: 11   600-740: 12
    750-890: 13   900-1090: 14   1100-1290: 15   1300-1490: 16   1500-1740: 17
    1750-1990: 18   2000-2240: 19   2250-2490: 20   2500-2990: 21   3000-3490: 22
    3500-3990: 23   4000 and more: 24

The sign of the IMPs follows the sign of ``d`` (``imps(-d) = -imps(d)``).

**Lookup.** Table differences are multiples of 10, so the IMPs of ``d`` are the number
of band upper bounds :data:`IMP_BOUNDS` (10, 40, 80, ..., 3990) *strictly below* ``|d|``.

**Gaps.** A difference that is not a multiple of 10 (an un-rounded Butler datum, an
average of several results) falls between two bands, and the Law does not say where it
belongs: the regulation must [reg]. Two conventions are offered through ``gaps``:

* ``"strict"`` (default): any amount over a band's upper bound moves to the next band
  (15 -> 1 IMP, 10 -> 0);
* ``"midpoint"``: each gap is split at its midpoint, the midpoint itself staying in the
  lower band: 0-15 -> 0, 16-45 -> 1, 46-85 -> 2, ... (bounds 15, 45, 85, ..., 3995).

On multiples of 10 both conventions agree. Every function here has the same result for
the same input: :func:`imps` (exact, for ``int`` and :class:`~fractions.Fraction`),
:func:`imps_array` (numpy) and :func:`imps_expr` (Polars); the tests check them equal.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction

import numpy as np
import polars as pl

IMP_BOUNDS: tuple[int, ...] = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890,
    1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)  # fmt: skip
"""Upper bounds of the IMP bands 0..23 (Law 78B); 4000 and more is 24 IMPs."""

MAX_IMPS: int = len(IMP_BOUNDS)  # 24

GAPS: tuple[str, ...] = ("strict", "midpoint")


def bounds(gaps: str = "strict") -> tuple[int, ...]:
    """The band bounds used under a ``gaps`` convention (see module docstring).

    >>> bounds("midpoint")[:3]
    (15, 45, 85)
    """
    if gaps == "strict":
        return IMP_BOUNDS
    if gaps == "midpoint":
        return tuple(b + 5 for b in IMP_BOUNDS)
    raise ValueError(f"gaps must be one of {GAPS}, not {gaps!r}")


def imps(diff: int | Fraction, gaps: str = "strict") -> int:
    """IMPs for a point difference ``diff`` (Law 78B); the sign follows ``diff``.

    >>> imps(280), imps(-280), imps(10), imps(20), imps(4000)
    (7, -7, 0, 1, 24)
    >>> imps(15), imps(15, gaps="midpoint"), imps(16, gaps="midpoint")
    (1, 0, 1)
    """
    b = bounds(gaps)
    n = bisect_left(b, abs(diff))
    return -n if diff < 0 else n


def imps_array(diff: np.ndarray, gaps: str = "strict") -> np.ndarray:
    """Vectorised :func:`imps` over an array of differences (ints or floats): ``int64``.

    ``np.searchsorted(bounds, |d|, side="left")`` counts the bounds strictly below ``|d|``.
    """
    d = np.asarray(diff)
    b = np.asarray(bounds(gaps), dtype=d.dtype if d.dtype.kind == "f" else np.int64)
    n = np.searchsorted(b, np.abs(d), side="left").astype(np.int64)
    return np.where(d < 0, -n, n)


def imps_expr(expr: pl.Expr, gaps: str = "strict") -> pl.Expr:
    """Polars twin of :func:`imps`: an ``Int64`` expression; nulls stay null.

    The IMPs are the number of bounds strictly below ``|d|``, summed as 24 comparisons.
    """
    a = expr.abs()
    n = pl.sum_horizontal([(a > b).cast(pl.Int64) for b in bounds(gaps)])
    return (
        pl.when(expr.is_null())
        .then(pl.lit(None, dtype=pl.Int64))
        .when(expr < 0)
        .then(-n)
        .otherwise(n)
    )
