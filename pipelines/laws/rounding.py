"""Rounding rules that regulations apply to *displayed* figures.

Traveller keeps every figure exact (:mod:`pipelines.laws.exact`); rounding is
applied only where a profile says so: for display, or (for programs that
count the rounded figure, as Magic Contest does) before totals are summed.
Each rule decides what happens to a value exactly halfway between two
representable figures:

* ``half_even``: to the even last digit (Compscore: 37.85 -> 37.8, 2.15 -> 2.2);
* ``half_up``: away from zero;
* ``half_down``: towards zero;
* ``half_toward_average``: towards the board's average, half the top (the EBU
  rule for factored matchpoints, and Magic Contest's: 28.35 -> 28.3 and
  15.75 -> 15.8 on a top of 42);
* ``truncate``: drop the extra digits.

Figures that are not exactly halfway round to the nearest value in every rule
except ``truncate``.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl

MODES: tuple[str, ...] = ("half_even", "half_up", "half_down", "half_toward_average", "truncate")


def round_fraction(
    value: Fraction, decimals: int, mode: str, average: Fraction | None = None
) -> Fraction:
    """Round an exact ``value`` to ``decimals`` places under ``mode`` (see module docstring).

    ``average`` is required for ``half_toward_average``.

    >>> float(round_fraction(Fraction(2835, 100), 1, "half_toward_average", Fraction(21)))
    28.3
    >>> float(round_fraction(Fraction(3785, 100), 1, "half_even"))
    37.8
    """
    if mode not in MODES:
        raise ValueError(f"unknown rounding mode {mode!r}; expected one of {MODES}")
    scale = 10**decimals
    x = value * scale
    sign = -1 if x < 0 else 1
    ax = abs(x)
    q, r = divmod(ax.numerator, ax.denominator)
    twice, den = 2 * r, ax.denominator
    if mode == "truncate" or twice < den:
        up = False
    elif twice > den:
        up = True
    elif mode == "half_even":
        up = q % 2 == 1
    elif mode == "half_up":
        up = True
    elif mode == "half_down":
        up = False
    else:
        if average is None:
            raise ValueError("half_toward_average needs the average")
        up = (value < average) == (sign > 0)
    return Fraction(sign * (q + (1 if up else 0)), scale)


def round_expr(
    num: pl.Expr, den: pl.Expr, decimals: int, mode: str, average: pl.Expr | None = None
) -> pl.Expr:
    """Vectorised :func:`round_fraction`: returns the rounded figure times ``10**decimals``
    as an ``Int64`` (exact); divide by ``10**decimals`` to display.

    ``num``/``den`` are integer expressions with ``den > 0``; ``average`` (a float
    expression: the average the value rounds towards) is required for
    ``half_toward_average``. Nulls propagate.
    """
    if mode not in MODES:
        raise ValueError(f"unknown rounding mode {mode!r}; expected one of {MODES}")
    scale = 10**decimals
    x = num.cast(pl.Int64) * scale
    d = den.cast(pl.Int64)
    neg = x < 0
    ax = x.abs()
    q = ax // d
    twice = 2 * (ax - q * d)
    if mode == "truncate":
        up = pl.lit(False)
    else:
        if mode == "half_even":
            tie_up = (q % 2) == 1
        elif mode == "half_up":
            tie_up = pl.lit(True)
        elif mode == "half_down":
            tie_up = pl.lit(False)
        else:
            if average is None:
                raise ValueError("half_toward_average needs the average")
            below = (num.cast(pl.Float64) / d.cast(pl.Float64)) < average
            tie_up = below != neg
        up = (twice > d) | ((twice == d) & tie_up)
    mag = q + up.cast(pl.Int64)
    return pl.when(neg).then(-mag).otherwise(mag)


def shown(scaled: pl.Expr, decimals: int) -> pl.Expr:
    """A rounded figure held as an integer times ``10**decimals`` (from :func:`round_expr`),
    as the float nearest its decimal notation (``283`` with 1 decimal -> ``28.3``)."""
    return (scaled.cast(pl.Float64) / float(10**decimals)).round(decimals)
