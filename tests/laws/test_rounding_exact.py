"""Rounding rules and exact arithmetic: vectorised equals scalar; ties tie exactly."""

from __future__ import annotations

from fractions import Fraction

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipelines.laws.exact import ExactArithmeticOverflow, exact_rank, sum_by
from pipelines.laws.rounding import MODES, round_expr, round_fraction


@pytest.mark.parametrize(
    ("value", "mode", "expected"),
    [
        # Compscore (half to even): 37.85 -> 37.8, 2.15 -> 2.2
        (Fraction(3785, 100), "half_even", Fraction(378, 10)),
        (Fraction(215, 100), "half_even", Fraction(22, 10)),
        # Magic Contest (half towards the average 21): 28.35 -> 28.3, 15.75 -> 15.8
        (Fraction(2835, 100), "half_toward_average", Fraction(283, 10)),
        (Fraction(1575, 100), "half_toward_average", Fraction(158, 10)),
        (Fraction(3675, 100), "half_toward_average", Fraction(367, 10)),
        (Fraction(2835, 100), "half_up", Fraction(284, 10)),
        (Fraction(2835, 100), "truncate", Fraction(283, 10)),
    ],
)
def test_published_roundings(value, mode, expected):
    assert round_fraction(value, 1, mode, Fraction(21)) == expected


@given(
    num=st.integers(-(10**9), 10**9),
    den=st.integers(1, 10**4),
    decimals=st.integers(0, 3),
    mode=st.sampled_from(MODES),
    avg=st.integers(0, 100),
)
def test_vectorised_rounding_equals_scalar(num, den, decimals, mode, avg):
    want = round_fraction(Fraction(num, den), decimals, mode, Fraction(avg))
    got = pl.select(
        round_expr(pl.lit(num, pl.Int64), pl.lit(den, pl.Int64), decimals, mode, pl.lit(float(avg)))
    ).item()
    assert Fraction(got, 10**decimals) == want


fractions = st.lists(
    st.tuples(st.integers(0, 400), st.sampled_from([1, 2, 3, 5, 6, 7, 10, 11, 20, 100])),
    min_size=1,
    max_size=40,
)


@given(fractions)
def test_exact_rank_ties_exactly(values):
    df = pl.DataFrame(
        {
            "g": [1] * len(values),
            "n": [v[0] for v in values],
            "d": [v[1] for v in values],
            "i": list(range(len(values))),
        }
    )
    ranked = exact_rank(df, "n", "d", ["g"]).sort("i")
    fr = [Fraction(n, d) for n, d in values]
    for i, f in enumerate(fr):
        assert ranked["rank"][i] == 1 + sum(1 for g in fr if g > f)
        assert ranked["tied"][i] == (sum(1 for g in fr if g == f) > 1)


def test_exact_rank_separates_what_floats_cannot():
    # two fractions equal as float64 but not exactly: never tied, ranked correctly
    a = Fraction(2**60 + 1, 2**60 + 3)
    b = Fraction(2**60 + 2, 2**60 + 4)
    assert float(a) == float(b) and a != b
    df = pl.DataFrame(
        {"g": [1, 1], "n": [a.numerator, b.numerator], "d": [a.denominator, b.denominator]}
    )
    r = exact_rank(df, "n", "d", ["g"])
    assert sorted(r["rank"].to_list()) == [1, 2]
    assert not r["tied"].any()
    assert r.filter(pl.col("n") == b.numerator)["rank"].item() == 1  # b > a


@given(fractions)
def test_sum_by_is_exact(values):
    df = pl.DataFrame(
        {
            "g": [1] * len(values),
            "k": [i % 3 for i in range(len(values))],
            "n": [v[0] for v in values],
            "d": [v[1] for v in values],
        }
    )
    out = sum_by(df, "n", "d", ["g", "k"], ["g"])
    for row in out.iter_rows(named=True):
        want = sum(
            (Fraction(n, d) for i, (n, d) in enumerate(values) if i % 3 == row["k"]), Fraction(0)
        )
        assert Fraction(row["n"], row["d"]) == want


def test_overflow_is_an_error_not_a_wrong_answer():
    big = 2**61
    df = pl.DataFrame({"g": [1, 1, 1], "k": [1, 1, 1], "n": [big, big, big], "d": [1, 3, 7]})
    with pytest.raises(ExactArithmeticOverflow):
        sum_by(df, "n", "d", ["g", "k"], ["g"])
