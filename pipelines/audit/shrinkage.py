"""Empirical-Bayes (beta-binomial) shrunken rates.

A director's raw rate ``x / n`` on a handful of cases says little; the shrunken rate pulls it
towards the pooled rate by as much as its ``n`` is small compared with the spread of the true
rates between directors. Model: the true rate of director ``i`` is drawn from a
Beta(``a``, ``b``) prior and ``x_i ~ Binomial(n_i, p_i)``; the posterior is
Beta(``a + x_i``, ``b + n_i - x_i``) (conjugacy; e.g. Gelman et al., *Bayesian Data
Analysis*, ch. 5; Spiegelhalter 2005 section 4.3 on random-effects alternatives to funnel
limits).

The prior is estimated from all the directors compared, by moments:

* mean ``mu = sum(x) / sum(n)`` (the funnel's pooled target);
* between-director variance of the true rates
  ``tau2 = max(0, (sum n_i (p_i - mu)^2 - (k - 1) mu (1 - mu)) / (N - sum n_i^2 / N))``
  with ``N = sum n_i`` (the weighted method-of-moments estimator, as DerSimonian-Laird's);
* prior size ``M = a + b = mu (1 - mu) / tau2 - 1`` (a Beta's variance is
  ``mu (1 - mu) / (M + 1)``), capped at ``N`` (the prior never weighs more than all the data,
  so with no detectable spread the rates are pooled almost fully but keep an interval) and
  at least :data:`MIN_PRIOR`; ``a = mu M``, ``b = (1 - mu) M``.

The shrunken rate is the posterior mean ``(a + x_i) / (M + n_i)`` and its 95 % interval the
2.5 % and 97.5 % points of the posterior Beta.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipelines.audit.distributions import beta_ppf

#: The smallest prior size allowed (a nearly flat prior when directors differ wildly).
MIN_PRIOR = 1e-3


@dataclass(frozen=True)
class Shrinkage:
    """The fitted prior and the shrunken rates with their 95 % intervals (arrays per unit)."""

    mu: float
    tau2: float
    prior_size: float  # M = a + b
    a: float
    b: float
    rate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray


def between_variance(x: Sequence[int], n: Sequence[int]) -> float:
    """``tau2``, the method-of-moments between-director variance (module docstring)."""
    xa, na = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    keep = na > 0
    xa, na = xa[keep], na[keep]
    k, total = na.size, float(na.sum())
    if k < 2 or total <= 0:
        return 0.0
    mu = float(xa.sum()) / total
    q = float(np.sum(na * (xa / na - mu) ** 2))
    denom = total - float(np.sum(na**2)) / total
    if denom <= 0:
        return 0.0
    return max(0.0, (q - (k - 1) * mu * (1 - mu)) / denom)


def shrink(x: Sequence[int], n: Sequence[int], level: float = 0.95) -> Shrinkage:
    """Fit the Beta prior to all units and shrink each unit's rate (module docstring)."""
    xa, na = np.asarray(x, dtype=float), np.asarray(n, dtype=float)
    total = float(na.sum())
    nan = np.full(xa.shape, math.nan)
    if total <= 0:
        return Shrinkage(math.nan, 0.0, math.nan, math.nan, math.nan, nan, nan, nan)
    mu = float(xa.sum()) / total
    tau2 = between_variance(xa, na)
    size = mu * (1 - mu) / tau2 - 1 if tau2 > 0 else math.inf
    size = float(min(max(size, MIN_PRIOR), total))
    a, b = mu * size, (1 - mu) * size
    post_a, post_b = a + xa, b + na - xa
    rate = post_a / (size + na)
    if 0 < mu < 1:
        lower = beta_ppf((1 - level) / 2, post_a, post_b)
        upper = beta_ppf(1 - (1 - level) / 2, post_a, post_b)
    else:  # every unit at 0 (or at 1): the prior is a point mass there
        lower = upper = np.full(xa.shape, mu)
    return Shrinkage(mu, tau2, size, a, b, rate, np.asarray(lower), np.asarray(upper))
