"""The few distribution functions the audit needs, from :mod:`scipy.special` alone.

``scipy.stats`` takes about half a second to import, more than the audit's whole arithmetic;
its binomial, chi-squared and beta functions are thin layers over ufuncs of
:mod:`scipy.special`. These call the same ufuncs with the same rules at the edges of the
support as ``scipy.stats`` (``rv_discrete.cdf``, ``.sf``, ``.ppf`` and ``rv_continuous.ppf``),
so they give its values bit for bit (tested against it over a grid and at every edge):

* :func:`binom_cdf` ``P(X <= k)``: 0 below 0, 1 from ``n`` on;
* :func:`binom_sf` ``P(X > k)``: 1 below 0, 0 from ``n`` on;
* :func:`binom_ppf`: the least ``k`` with ``P(X <= k) >= q``; -1 at ``q = 0``, ``n`` at 1;
* :func:`chi2_ppf` (0 at ``q = 0``, infinite at 1) and :func:`beta_ppf` (on the open
  interval (0, 1)): the quantiles.

Arguments outside a distribution's parameters (``n`` not a whole number >= 0, ``p`` outside
[0, 1], ``q`` outside [0, 1]) give NaN, as in ``scipy.stats``.
"""

from __future__ import annotations

import numpy as np
from scipy import special
from scipy.special import _ufuncs


def _binom_args(n, p) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, p = np.asarray(n, dtype=float), np.asarray(p, dtype=float)
    ok = (n >= 0) & (n == np.floor(n)) & (p >= 0) & (p <= 1)
    return n, p, ok


def _binom_side(k, n, p, ufunc, below: float, above: float) -> np.ndarray:
    """``ufunc(k, n, p)`` on the support's inside (``0 <= k < n``), ``below`` under it and
    ``above`` from ``n`` on, NaN for arguments outside the parameters (``k`` floored)."""
    n, p, ok = _binom_args(n, p)
    k = np.floor(np.asarray(k, dtype=float))
    k, n, p, ok = np.broadcast_arrays(k, n, p, ok)
    out = np.where(k < 0, below, above)
    inside = ok & (k >= 0) & (k < n) & np.isfinite(k)
    out[inside] = ufunc(k[inside], n[inside], p[inside])
    out[~ok | np.isnan(k)] = np.nan
    return out


def binom_cdf(k, n, p) -> np.ndarray:
    """``P(X <= k)`` for X ~ Binomial(``n``, ``p``)."""
    return _binom_side(k, n, p, _ufuncs._binom_cdf, below=0.0, above=1.0)


def binom_sf(k, n, p) -> np.ndarray:
    """``P(X > k)`` for X ~ Binomial(``n``, ``p``)."""
    return _binom_side(k, n, p, _ufuncs._binom_sf, below=1.0, above=0.0)


def binom_ppf(q, n, p) -> np.ndarray:
    """The ``q`` quantile of Binomial(``n``, ``p``): the least ``k`` with ``P(X <= k) >= q``."""
    n, p, ok = _binom_args(n, p)
    q = np.asarray(q, dtype=float)
    q, n, p, ok = np.broadcast_arrays(q, n, p, ok)
    out = np.full(q.shape, np.nan)
    out[ok & (q == 0)] = -1.0
    top = ok & (q == 1)
    out[top] = n[top]
    inside = ok & (q > 0) & (q < 1)
    out[inside] = _ufuncs._binom_ppf(q[inside], n[inside], p[inside])
    return out


def chi2_ppf(q: float, df: float) -> float:
    """The ``q`` quantile of chi-squared with ``df`` degrees of freedom (0 at ``q = 0``,
    infinite at 1)."""
    if not df > 0 or not 0 <= q <= 1:
        return float("nan")
    if q in (0, 1):
        return 0.0 if q == 0 else float("inf")
    return float(2 * special.gammaincinv(df / 2, q))


def beta_ppf(q: float, a, b) -> np.ndarray:
    """The ``q`` quantile (0 < q < 1) of Beta(``a``, ``b``) (``a``, ``b`` > 0)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    a, b = np.broadcast_arrays(a, b)
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (b > 0) & (0 < q < 1)
    out[ok] = _ufuncs._beta_ppf(q, a[ok], b[ok])
    return out
