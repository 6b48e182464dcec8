"""Funnel plots for comparing directors' rates (Spiegelhalter 2005).

Source: D. J. Spiegelhalter, "Funnel plots for comparing institutional performance",
*Statistics in Medicine* 2005; 24:1185-1202 (doi:10.1002/sim.1970); summarised in
``shared/domain/scoring-rules.md`` section 9.

Each unit (a director) has ``x`` events out of ``n`` opportunities (e.g. appeals against his
rulings that were decided, of which ``x`` changed the ruling). The rate ``x / n`` is plotted
against ``n`` with:

* the **target** ``p0 = sum(x) / sum(n)`` (pooled over the units compared);
* **control limits** at 95 % and 99.8 % (two-sided): the exact binomial limits of
  Spiegelhalter's appendix A.1.1. For the ``P``-th limit (``P`` = 0.025, 0.975, 0.001,
  0.999) let ``r`` be the ``P`` quantile of Binomial(``n``, ``p0``): the smallest ``r`` with
  ``F(r) >= P``. Interpolating, ``alpha = (F(r) - P) / (F(r) - F(r - 1))`` and the limit is
  ``(r - alpha) / n`` (clipped to [0, 1]). For large ``n`` they approach the normal limits
  ``p0 +- z * sqrt(p0 (1 - p0) / n)`` (z = 1.96 and 3.09), also given here;
* the **over-dispersion factor** ``phi = (1/k) sum z_i^2`` with
  ``z_i = (x_i/n_i - p0) / sqrt(p0 (1 - p0) / n_i)`` winsorised at the 10 % and 90 % points
  (the most extreme tenth of the units at each end are brought in to the 10th/90th
  percentile, so that the outliers looked for do not inflate it). ``k * phi`` is compared
  with the 95 % point of chi-squared on ``k`` degrees of freedom; when it exceeds it the
  rates are over-dispersed and the limits are **widened** by ``sqrt(phi)`` about the target
  (multiplicative over-dispersion, Spiegelhalter section 4.2): each exact limit ``L``
  becomes ``p0 + sqrt(phi) * (L - p0)``, which for large ``n`` is the normal limit with
  variance ``phi * p0 (1 - p0) / n``.

A unit is **flagged only outside the 99.8 % limits** (the widened ones when the rates are
over-dispersed) **and** when its count is itself that extreme: the exact binomial tail
``P(X >= x)`` (high) or ``P(X <= x)`` (low) under Binomial(``n``, ``p0``) is below 0.1 %.
The second condition matters for tiny ``n``: the interpolated limit of a director with one
decided appeal lies just under 100 %, so one appeal out of one, changed, would be "outside"
although it happens 35 times in 100 at the target. With a dozen directors and four rates,
95 % limits would cry wolf in most seasons, hence 99.8 %. Rankings are never produced.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipelines.audit.distributions import binom_cdf, binom_ppf, binom_sf, chi2_ppf

#: Two-sided coverages of the limits drawn: 95 % (warning) and 99.8 % (alarm).
COVERAGES: tuple[float, float] = (0.95, 0.998)
#: Share of the units winsorised at each end when estimating the over-dispersion factor.
WINSOR = 0.10
#: Significance of the chi-squared test that declares the rates over-dispersed.
OVERDISPERSION_LEVEL = 0.05


def pooled_target(x: Sequence[int], n: Sequence[int]) -> float:
    """``p0 = sum(x) / sum(n)``; NaN when there are no opportunities at all."""
    total = float(np.sum(n))
    return float(np.sum(x)) / total if total > 0 else math.nan


def exact_limit(p0: float, n: int | np.ndarray, prob: float) -> np.ndarray:
    """The interpolated exact binomial control limit at probability ``prob`` (Spiegelhalter
    2005, appendix A.1.1): ``(r - alpha) / n`` with ``r`` the ``prob`` quantile of
    Binomial(``n``, ``p0``) and ``alpha = (F(r) - prob) / (F(r) - F(r - 1))``, clipped to
    [0, 1]. NaN where ``n`` is 0."""
    n_arr = np.atleast_1d(np.asarray(n, dtype=float))
    out = np.full(n_arr.shape, math.nan)
    ok = n_arr > 0
    if not ok.any() or not 0 <= p0 <= 1 or math.isnan(p0):
        return out
    nn = n_arr[ok]
    r = binom_ppf(prob, nn, p0)
    f_r = binom_cdf(r, nn, p0)
    f_below = binom_cdf(r - 1, nn, p0)
    step = f_r - f_below
    alpha = np.where(step > 0, (f_r - prob) / np.where(step > 0, step, 1.0), 0.0)
    out[ok] = np.clip((r - alpha) / nn, 0.0, 1.0)
    return out


def normal_limit(p0: float, n: int | np.ndarray, z: float) -> np.ndarray:
    """``p0 + z * sqrt(p0 (1 - p0) / n)`` (the large-sample limit; ``z`` negative for the
    lower one), clipped to [0, 1]."""
    n_arr = np.atleast_1d(np.asarray(n, dtype=float))
    with np.errstate(divide="ignore", invalid="ignore"):
        lim = p0 + z * np.sqrt(p0 * (1 - p0) / n_arr)
    return np.where(n_arr > 0, np.clip(lim, 0.0, 1.0), math.nan)


def z_scores(x: Sequence[int], n: Sequence[int], p0: float) -> np.ndarray:
    """``(x/n - p0) / sqrt(p0 (1 - p0) / n)`` per unit (NaN where ``n`` is 0 or ``p0`` is 0
    or 1)."""
    xa, na = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (xa / na - p0) / np.sqrt(p0 * (1 - p0) / na)
    return np.where((na > 0) & (0 < p0) & (p0 < 1), z, math.nan)


def winsorise(z: np.ndarray, share: float = WINSOR) -> np.ndarray:
    """``z`` with values below its ``share`` quantile raised to it and values above its
    ``1 - share`` quantile lowered to it (quantiles by linear interpolation, numpy's default)."""
    if z.size == 0:
        return z
    lo, hi = np.quantile(z, [share, 1 - share])
    return np.clip(z, lo, hi)


def overdispersion(x: Sequence[int], n: Sequence[int], p0: float) -> tuple[float, bool]:
    """``(phi, over_dispersed)``: ``phi = mean of the winsorised z_i^2`` over the units with
    ``n > 0``; over-dispersed when ``k * phi`` exceeds the 95 % point of chi-squared with
    ``k`` degrees of freedom. ``(1.0, False)`` with fewer than two units or a degenerate
    target."""
    z = z_scores(x, n, p0)
    z = z[~np.isnan(z)]
    k = z.size
    if k < 2:
        return 1.0, False
    phi = float(np.mean(winsorise(z) ** 2))
    return phi, bool(k * phi > chi2_ppf(1 - OVERDISPERSION_LEVEL, k))


@dataclass(frozen=True)
class Funnel:
    """The funnel of one rate over the units compared; arrays are per unit."""

    target: float
    phi: float
    over_dispersed: bool
    lower95: np.ndarray
    upper95: np.ndarray
    lower998: np.ndarray
    upper998: np.ndarray
    #: the limits widened by ``sqrt(phi)`` (equal to the exact ones when phi <= 1)
    lower998_widened: np.ndarray
    upper998_widened: np.ndarray
    lower95_widened: np.ndarray
    upper95_widened: np.ndarray
    flagged: np.ndarray  # bool: outside the 99.8 % limits in force, and the tail < 0.1 %
    direction: list[str | None]  # "high" | "low" | None


def widen(limit: np.ndarray, p0: float, phi: float) -> np.ndarray:
    """A limit widened about the target by ``sqrt(max(phi, 1))``, clipped to [0, 1]."""
    return np.clip(p0 + math.sqrt(max(phi, 1.0)) * (limit - p0), 0.0, 1.0)


def funnel(x: Sequence[int], n: Sequence[int]) -> Funnel:
    """The funnel of units with ``x`` events out of ``n`` (see the module docstring)."""
    xa, na = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    p0 = pooled_target(xa, na)
    phi, over = overdispersion(xa, na, p0)
    (lo95, hi95), (lo998, hi998) = (
        (exact_limit(p0, na, (1 - c) / 2), exact_limit(p0, na, 1 - (1 - c) / 2)) for c in COVERAGES
    )
    w_lo95, w_hi95, w_lo998, w_hi998 = (widen(v, p0, phi) for v in (lo95, hi95, lo998, hi998))
    lo, hi = (w_lo998, w_hi998) if over else (lo998, hi998)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(na > 0, xa / na, math.nan)
    alarm = (1 - COVERAGES[1]) / 2
    ok = (na > 0) & (0 <= p0 <= 1)
    high = ok & (rate > hi) & (binom_sf(xa - 1, na, p0) < alarm)
    low = ok & (rate < lo) & (binom_cdf(xa, na, p0) < alarm)
    direction = ["high" if h else "low" if lw else None for h, lw in zip(high, low, strict=True)]
    return Funnel(
        target=p0,
        phi=phi,
        over_dispersed=over,
        lower95=lo95,
        upper95=hi95,
        lower998=lo998,
        upper998=hi998,
        lower998_widened=w_lo998,
        upper998_widened=w_hi998,
        lower95_widened=w_lo95,
        upper95_widened=w_hi95,
        flagged=high | low,
        direction=direction,
    )


def funnel_curve(p0: float, phi: float, n_max: float, points: int = 200) -> dict[str, np.ndarray]:
    """The limits as curves over ``n`` = 1..``n_max`` for drawing (exact, and widened)."""
    n = np.unique(np.round(np.geomspace(1, max(n_max, 2), points)))
    out: dict[str, np.ndarray] = {"n": n}
    for c in COVERAGES:
        tag = "95" if c == 0.95 else "998"
        lo = exact_limit(p0, n, (1 - c) / 2)
        hi = exact_limit(p0, n, 1 - (1 - c) / 2)
        out[f"lower{tag}"], out[f"upper{tag}"] = lo, hi
        out[f"lower{tag}_widened"], out[f"upper{tag}_widened"] = (
            widen(lo, p0, phi),
            widen(hi, p0, phi),
        )
    return out
