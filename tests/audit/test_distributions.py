"""The audit's distribution functions give ``scipy.stats``' values bit for bit: over a grid
of parameters, at every edge of the support, and for arguments outside the parameters."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from pipelines.audit import distributions as d

NS = (0, 1, 2, 3, 5, 10, 37, 100, 1000, 12345, 2.5, -1)  # the last two are not counts
PS = (0, 1e-6, 0.001, 0.02, 0.1, 0.3, 0.5, 0.77, 0.999, 1, 1.5, -0.1, np.nan)
QS = (0, 1e-9, 0.001, 0.025, 0.5, 0.975, 0.999, 1 - 1e-12, 1, 1.2, -0.5, np.nan)


@pytest.mark.parametrize(("n", "p"), list(itertools.product(NS, PS)))
def test_binomial_functions_as_scipy_stats(n, p):
    ks = np.array([-2, -1, -0.5, 0, 1, 2, n - 1, n, n + 1, n / 2, 0.5, np.nan, np.inf, -np.inf])
    for ours, theirs in ((d.binom_cdf, stats.binom.cdf), (d.binom_sf, stats.binom.sf)):
        np.testing.assert_array_equal(ours(ks, n, p), theirs(ks, n, p))
    qs = np.array(QS)
    np.testing.assert_array_equal(d.binom_ppf(qs, n, p), stats.binom.ppf(qs, n, p))


def test_binomial_functions_broadcast_as_scipy_stats():
    """Arrays of counts against one target, as the funnel limits ask for them."""
    x = np.array([0, 1, 3, 7, 0, 12])
    n = np.array([0, 2, 10, 7, 1, 40])
    for p in (0.0, 0.05, 0.5, 1.0):
        np.testing.assert_array_equal(d.binom_sf(x - 1, n, p), stats.binom.sf(x - 1, n, p))
        np.testing.assert_array_equal(d.binom_cdf(x, n, p), stats.binom.cdf(x, n, p))
        for q in (0.001, 0.025, 0.975, 0.999):
            np.testing.assert_array_equal(d.binom_ppf(q, n, p), stats.binom.ppf(q, n, p))


@given(
    st.integers(0, 5000),
    st.floats(0, 1),
    st.floats(0, 1),
    st.integers(-3, 5003),
)
def test_binomial_functions_as_scipy_stats_anywhere(n, p, q, k):
    assert d.binom_cdf(k, n, p) == pytest.approx(stats.binom.cdf(k, n, p), abs=0, rel=0)
    assert d.binom_sf(k, n, p) == pytest.approx(stats.binom.sf(k, n, p), abs=0, rel=0)
    assert d.binom_ppf(q, n, p) == stats.binom.ppf(q, n, p)


@pytest.mark.parametrize("q", QS)
def test_chi_squared_quantile_as_scipy_stats(q):
    for df in (0, 0.5, 1, 2, 3, 7, 30, 59, 500, -1):
        np.testing.assert_array_equal(d.chi2_ppf(q, df), stats.chi2.ppf(q, df))


@given(st.floats(1e-3, 1e4), st.floats(1e-3, 1e4), st.sampled_from([0.025, 0.5, 0.975]))
def test_beta_quantile_as_scipy_stats(a, b, q):
    assert d.beta_ppf(q, a, b) == stats.beta.ppf(q, a, b)


def test_beta_quantile_outside_its_parameters_is_nan_as_in_scipy_stats():
    a, b = np.array([0.0, -1.0, 2.0, 2.0]), np.array([1.0, 1.0, 0.0, 3.0])
    np.testing.assert_array_equal(d.beta_ppf(0.975, a, b), stats.beta.ppf(0.975, a, b))
