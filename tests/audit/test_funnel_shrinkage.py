"""Funnel limits, over-dispersion and shrinkage against values computed by hand.

Every expected number below was worked out on paper (the working is in each docstring) from
the formulas of Spiegelhalter 2005 (funnel plots) and of the beta-binomial model; none was
produced by the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipelines.audit.funnel import (
    exact_limit,
    funnel,
    normal_limit,
    overdispersion,
    pooled_target,
    winsorise,
)
from pipelines.audit.shrinkage import between_variance, shrink


def test_pooled_target():
    """p0 = sum x / sum n = (2 + 5 + 0 + 9) / (10 + 20 + 5 + 30) = 16 / 65."""
    assert pooled_target([2, 5, 0, 9], [10, 20, 5, 30]) == pytest.approx(16 / 65)


def test_exact_upper_limit_n10_p02():
    """Binomial(10, 0.2): P(X=k) = C(10,k) 0.2^k 0.8^(10-k).

    F(0) = 0.8^10 = 0.1073742; P(1) = 10 x 0.2 x 0.8^9 = 0.2684355 -> F(1) = 0.3758096;
    P(2) = 45 x 0.04 x 0.8^8 = 0.3019899 -> F(2) = 0.6777995;
    P(3) = 120 x 0.008 x 0.8^7 = 0.2013266 -> F(3) = 0.8791261;
    P(4) = 210 x 0.0016 x 0.8^6 = 0.0880804 -> F(4) = 0.9672065;
    P(5) = 252 x 0.00032 x 0.8^5 = 0.0264241 -> F(5) = 0.9936306;
    P(6) = 210 x 0.000064 x 0.8^4 = 0.0055050 -> F(6) = 0.9991356.

    97.5 % limit: r = 5 (F(4) < 0.975 <= F(5)); alpha = 0.0186306 / 0.0264241
    = 0.705061; limit = (5 - 0.705061) / 10 = 0.4294939.
    99.9 % limit: r = 6; alpha = (0.9991356 - 0.999) / 0.0055050 = 0.024632;
    limit = (6 - 0.024632) / 10 = 0.5975368.
    2.5 % limit: r = 0 (F(0) = 0.107 >= 0.025); alpha = (0.1073742 - 0.025) / 0.1073742
    = 0.767169; (0 - 0.767) / 10 < 0, clipped to 0.
    """
    assert exact_limit(0.2, 10, 0.975)[0] == pytest.approx(0.4294939, abs=1e-6)
    assert exact_limit(0.2, 10, 0.999)[0] == pytest.approx(0.5975368, abs=1e-6)
    assert exact_limit(0.2, 10, 0.025)[0] == 0.0


def test_exact_limits_n2():
    """Binomial(2, 0.5): F(0) = 0.25, F(1) = 0.75, F(2) = 1.
    97.5 %: r = 2, alpha = (1 - 0.975) / (1 - 0.75) = 0.1, limit (2 - 0.1) / 2 = 0.95.

    Binomial(2, 0.9): F(0) = 0.01, F(1) = 0.01 + 2 x 0.9 x 0.1 = 0.19, F(2) = 1.
    2.5 %: r = 1 (F(0) = 0.01 < 0.025 <= 0.19), alpha = (0.19 - 0.025) / (0.19 - 0.01)
    = 0.916667, limit (1 - 0.916667) / 2 = 0.0416667.
    """
    assert exact_limit(0.5, 2, 0.975)[0] == pytest.approx(0.95)
    assert exact_limit(0.9, 2, 0.025)[0] == pytest.approx(0.0416667, abs=1e-6)
    assert math.isnan(exact_limit(0.5, 0, 0.975)[0])


def test_normal_limit():
    """p0 = 0.2, n = 100: se = sqrt(0.2 x 0.8 / 100) = 0.04; 0.2 + 1.96 x 0.04 = 0.2784 and
    0.2 - 3.09 x 0.04 = 0.0764."""
    assert normal_limit(0.2, 100, 1.96)[0] == pytest.approx(0.2784)
    assert normal_limit(0.2, 100, -3.09)[0] == pytest.approx(0.0764)


def test_winsorised_overdispersion_not_significant():
    """Four units of n = 100 with x = 10, 20, 30, 20: p0 = 80 / 400 = 0.2, se = 0.04,
    z = -2.5, 0, 2.5, 0. Sorted -2.5, 0, 0, 2.5; the 10 % point (position 0.3 of 3) is
    -2.5 + 0.3 x 2.5 = -1.75 and the 90 % point (position 2.7) 0 + 0.7 x 2.5 = 1.75, so the
    winsorised z are -1.75, 0, 1.75, 0 and phi = (3.0625 + 3.0625) / 4 = 1.53125.
    k phi = 6.125 < chi-squared(4) 95 % point 9.488: not over-dispersed."""
    z = winsorise(np.array([-2.5, 0.0, 2.5, 0.0]))
    assert z.tolist() == pytest.approx([-1.75, 0.0, 1.75, 0.0])
    phi, over = overdispersion([10, 20, 30, 20], [100] * 4, 0.2)
    assert phi == pytest.approx(1.53125)
    assert over is False


def test_overdispersion_widens_the_limits():
    """Two units of n = 100 with x = 10 and 30: p0 = 0.2, z = -2.5 and 2.5; the 10 % and 90 %
    points are -2.5 + 0.1 x 5 = -2 and 2, so phi = (4 + 4) / 2 = 4; k phi = 8 > 5.991
    (chi-squared(2) 95 %): over-dispersed, and every limit L becomes 0.2 + sqrt(4)(L - 0.2).
    Neither unit is flagged: 0.30 lies inside even the unwidened 99.8 % limit, about
    0.2 + 3.09 x 0.04 = 0.32."""
    f = funnel([10, 30], [100, 100])
    assert f.target == pytest.approx(0.2)
    assert f.phi == pytest.approx(4.0)
    assert f.over_dispersed
    assert f.upper998_widened == pytest.approx(0.2 + 2 * (f.upper998 - 0.2))
    assert f.lower95_widened == pytest.approx(np.clip(0.2 + 2 * (f.lower95 - 0.2), 0, 1))
    assert 0.31 < f.upper998[0] < 0.33
    assert not f.flagged.any()


def test_flag_needs_the_exact_tail_too():
    """One appeal out of one, changed, at a target of 4 / 9: the interpolated 99.9 % limit of
    n = 1 is (1 - alpha) with alpha = (1 - 0.999) / (1 - 5/9) = 0.00225, i.e. 0.99775, so the
    rate 1 lies above it; but P(X >= 1) = 4/9 is nothing unusual, so no flag.
    Nine units of n = 200, one with x = 0 and the others 10-12 (sum 89): the target is
    89 / 1800 = 0.04944 and P(X = 0) = (1 - 0.04944)^200 = exp(200 ln 0.95056) = exp(-10.14)
    = 4e-5 < 0.001, below the 99.8 % limit (about 0.0494 - 3.09 x 0.0153 = 0.002 > 0): flagged
    low. (Winsorising keeps phi small: the lone outlier's z of -3.2 is pulled in to about
    -0.6, the 10 % point.)"""
    f = funnel([1, 3], [1, 8])
    assert f.target == pytest.approx(4 / 9)
    assert f.upper998[0] == pytest.approx(0.99775, abs=1e-6)
    assert not f.flagged.any()
    x = [0, 12, 11, 10, 12, 11, 10, 12, 11]
    n = [200, 200, 200, 200, 200, 200, 200, 200, 200]
    g = funnel(x, n)
    assert g.target == pytest.approx(89 / 1800)
    assert g.flagged.tolist() == [True] + [False] * 8
    assert g.direction[0] == "low"


def test_shrinkage_by_hand():
    """x = 10 and 30 of n = 100 each. mu = 40 / 200 = 0.2.
    Q = sum n_i (p_i - mu)^2 = 100 x 0.01 + 100 x 0.01 = 2; (k - 1) mu (1 - mu) = 0.16;
    N = 200, sum n_i^2 / N = 20000 / 200 = 100, so tau2 = (2 - 0.16) / (200 - 100) = 0.0184.
    M = mu (1 - mu) / tau2 - 1 = 0.16 / 0.0184 - 1 = 7.695652; a = 0.2 M = 1.539130,
    b = 0.8 M = 6.156522.
    Shrunken rates: (1.539130 + 10) / (7.695652 + 100) = 11.539130 / 107.695652 = 0.1071457 and
    31.539130 / 107.695652 = 0.2928543 (both pulled towards 0.2)."""
    assert between_variance([10, 30], [100, 100]) == pytest.approx(0.0184)
    s = shrink([10, 30], [100, 100])
    assert s.prior_size == pytest.approx(7.695652, abs=1e-6)
    assert s.a == pytest.approx(1.539130, abs=1e-6)
    assert s.b == pytest.approx(6.156522, abs=1e-6)
    assert s.rate.tolist() == pytest.approx([0.1071457, 0.2928543], abs=1e-6)


def test_shrinkage_without_spread_pools_with_a_capped_prior():
    """x = 1 and 1 of n = 2: mu = 0.5 and both rates equal it, so Q = 0 and tau2 = 0; the
    prior size is capped at N = 4 (a = b = 2) and each posterior is Beta(2 + 1, 2 + 1) =
    Beta(3, 3), mean 0.5. Its CDF is 10t^3 - 15t^4 + 6t^5 (integrate 30 t^2 (1 - t)^2), so the
    interval ends are where that polynomial equals 0.025 and 0.975; by symmetry they add to 1.
    """
    s = shrink([1, 1], [2, 2])
    assert s.tau2 == 0.0 and s.prior_size == 4.0
    assert s.rate.tolist() == pytest.approx([0.5, 0.5])

    def cdf(t: float) -> float:
        return 10 * t**3 - 15 * t**4 + 6 * t**5

    assert cdf(float(s.lower[0])) == pytest.approx(0.025, abs=1e-9)
    assert cdf(float(s.upper[0])) == pytest.approx(0.975, abs=1e-9)
    assert float(s.lower[0] + s.upper[0]) == pytest.approx(1.0)


def test_small_samples_are_shrunk_hardest():
    """With the prior of test_shrinkage_by_hand's kind, a unit with n = 2 moves further
    towards mu than one with n = 200 at the same raw rate."""
    s = shrink([0, 20, 40, 60], [2, 200, 200, 200])
    mu = s.mu
    assert abs(s.rate[0] - mu) < abs(0.0 - mu)
    assert s.upper[0] - s.lower[0] > s.upper[1] - s.lower[1]
