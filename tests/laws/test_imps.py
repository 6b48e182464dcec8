"""Law 78B: the IMP scale, against vectors.json and scoring-rules.md §6.

The scalar rule (:func:`imps`) is checked on the published bands and examples; its numpy
and Polars twins are checked equal to it.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from pipelines.laws.imps import IMP_BOUNDS, MAX_IMPS, imps, imps_array, imps_expr
from tests.conftest import VECTORS


def vectors() -> dict:
    return json.loads(VECTORS.read_text())


def test_every_published_band_multiple_of_ten():
    bands = vectors()["imp_bands"]["bands"]
    assert len(bands) == 25
    for band in bands:
        hi = band["to"] if band["to"] is not None else band["from"] + 2000
        for d in range(band["from"], hi + 1, 10):
            assert imps(d) == band["imps"], (d, band)
            assert imps(-d) == -band["imps"], (d, band)


def test_bounds_are_the_published_band_tops():
    bands = vectors()["imp_bands"]["bands"]
    assert tuple(b["to"] for b in bands if b["to"] is not None) == IMP_BOUNDS
    assert MAX_IMPS == 24


def test_published_examples():
    examples = vectors()["imp_examples"]
    assert examples
    for v in examples:
        assert imps(v["diff"]) == v["imps"], v


def test_midpoint_gaps_as_in_the_rules_text():
    # scoring-rules.md §6: split each gap at its midpoint: 0-15 -> 0, 16-45 -> 1, 46-85 -> 2
    for d, want in [(0, 0), (15, 0), (16, 1), (45, 1), (46, 2), (85, 2)]:
        assert imps(d, gaps="midpoint") == want
        assert imps(-d, gaps="midpoint") == -want
    assert imps(Fraction(31, 2), gaps="midpoint") == 1
    # strict: anything over a band's top moves up
    assert (imps(15), imps(11), imps(Fraction(21, 2))) == (1, 1, 1)


def test_numpy_twin_on_every_multiple_of_ten_and_random_ints():
    d = np.arange(-5000, 5001, 10)
    assert imps_array(d).tolist() == [imps(int(x)) for x in d]
    rng = np.random.default_rng(78)
    r = rng.integers(-6000, 6000, size=5000)
    for gaps in ("strict", "midpoint"):
        assert imps_array(r, gaps).tolist() == [imps(int(x), gaps) for x in r]
    assert imps_array(d).dtype == np.int64
    halves = np.array([15.5, -15.5, 10.0, 45.0, 45.5])
    assert imps_array(halves, "midpoint").tolist() == [1, -1, 0, 1, 2]


def test_polars_twin_equal_and_nulls_stay_null():
    d = [*list(range(-5000, 5001, 10)), 15, -15, 16, 45, 46, None]
    df = pl.DataFrame({"d": d}, schema={"d": pl.Int64})
    for gaps in ("strict", "midpoint"):
        got = df.select(imps_expr(pl.col("d"), gaps).alias("i"))["i"]
        assert got.dtype == pl.Int64
        assert got.to_list() == [None if x is None else imps(x, gaps) for x in d]


@given(st.integers(-100_000, 100_000))
def test_antisymmetry(d):
    assert imps(-d) == -imps(d)
    assert imps(-d, "midpoint") == -imps(d, "midpoint")


@given(st.integers(-100_000, 100_000), st.integers(0, 10_000))
def test_monotone_and_bounded(d, step):
    assert imps(d) <= imps(d + step)
    assert -24 <= imps(d) <= 24
