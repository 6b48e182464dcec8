"""WBF 2013 IMP-to-VP scales against vectors.json and scoring-rules.md §7."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipelines.laws.victory_points import (
    blitz_margin,
    discrete_cutoffs,
    victory_points,
    victory_points_array,
    vp_table,
)
from tests.conftest import VECTORS


def vectors() -> dict:
    return json.loads(VECTORS.read_text())


def hundredths(vp: float) -> int:
    return round(vp * 100)


def test_full_twelve_board_table_exactly():
    (full,) = [v for v in vectors()["vp_wbf_continuous"] if "winner_vp_by_imp_margin" in v]
    assert full["boards"] == 12
    want = [hundredths(x) for x in full["winner_vp_by_imp_margin"]]
    assert list(vp_table(12)) == want
    assert len(want) == 53 and blitz_margin(12) == 52


def test_concavity_corrected_entries():
    (check,) = [v for v in vectors()["vp_wbf_continuous"] if v.get("check")]
    t = vp_table(check["boards"])
    for imp, pair in check["imp"].items():
        assert t[int(imp)] == hundredths(pair["official"]) != hundredths(pair["raw"])


def test_partial_published_tables_14_and_20_boards():
    partial = [v for v in vectors()["vp_wbf_continuous"] if "winner_vp" in v]
    assert {v["boards"] for v in partial} == {14, 20}
    for v in partial:
        t = vp_table(v["boards"])
        for imp, vp in v["winner_vp"].items():
            assert t[int(imp)] == hundredths(vp), (v["boards"], imp)
            assert victory_points(-int(imp), v["boards"])[1] == hundredths(vp)


def test_discrete_published_ranges():
    checks = vectors()["vp_wbf_discrete"]
    assert {v["boards"] for v in checks} == {10, 20}
    for v in checks:
        t = vp_table(v["boards"], "wbf2013_discrete")
        for rng in v["ranges"]:
            lo, hi = (int(x) for x in rng["imps"].split("-"))
            for i in range(lo, hi + 1):
                assert t[i] == 100 * rng["vp"], (v["boards"], i)
            # the range is exact: the margins either side score differently
            assert t[hi + 1] == 100 * (rng["vp"] + 1)
            if lo > 0:
                assert t[lo - 1] == 100 * (rng["vp"] - 1)


def test_draw_loser_and_blitz():
    assert victory_points(0, 12) == (1000, 1000)
    assert victory_points(52, 12) == (2000, 0)
    assert victory_points(-500, 12) == (0, 2000)
    # the 12-board table: 1 IMP -> 10.36 - 9.64
    assert victory_points(1, 12) == (1036, 964)
    assert victory_points(-1, 12) == (964, 1036)


def test_fractional_margins_ebu_rule_rounds_before_look_up():
    # EBU guidance (scoring-rules §7): round to the nearest integer first, so |m| < 0.5 draws
    assert victory_points(Fraction(49, 100), 12) == (1000, 1000)
    assert victory_points(Fraction(-49, 100), 12) == (1000, 1000)
    assert victory_points(Fraction(51, 100), 12) == (1036, 964)
    assert victory_points(Fraction(1, 2), 12) == (1036, 964)  # half away from zero (ours)
    assert victory_points(Fraction(-1, 2), 12) == (964, 1036)
    assert victory_points(Fraction(1, 2), 12, fractional="round_half_even") == (1000, 1000)
    assert victory_points(Fraction(3, 2), 12, fractional="round_half_even") == (1071, 929)
    # interpolate: halfway between 10.36 (1 IMP) and 10.71 (2 IMPs) is 10.535 -> 10.54
    assert victory_points(Fraction(3, 2), 12, fractional="interpolate") == (1054, 946)
    assert victory_points(Fraction(103, 2), 12, fractional="interpolate") == (1996, 4)


def test_knockouts_have_no_victory_points():
    with pytest.raises(ValueError, match="knockout"):
        victory_points(3, 12, scale="none")
    with pytest.raises(ValueError):
        vp_table(12, "old_wbf")
    with pytest.raises(ValueError):
        victory_points(3, 12, fractional="truncate")


@pytest.mark.parametrize("scale", ["wbf2013", "wbf2013_discrete"])
@pytest.mark.parametrize("fractional", ["round_half_up", "round_half_even", "interpolate"])
def test_array_twin_equals_scalar(scale, fractional):
    rng = np.random.default_rng(7)
    for boards in (1, 7, 12, 16, 20, 32):
        num = rng.integers(-200, 200, size=400)
        den = rng.integers(1, 7, size=400)
        num = np.concatenate([num, [0, 1, -1, 3, -3, 5, 104, -103]])
        den = np.concatenate([den, [1, 2, 2, 2, 2, 2, 2, 2]])
        home, away = victory_points_array(num, boards, scale, fractional, den=den)
        want = [
            victory_points(Fraction(int(n), int(d)), boards, scale, fractional)
            for n, d in zip(num, den, strict=True)
        ]
        assert list(zip(home.tolist(), away.tolist(), strict=True)) == want


@pytest.mark.parametrize("boards", range(1, 41))
def test_every_table_monotone_concave_and_complete(boards):
    t = vp_table(boards)
    assert t[0] == 1000 and t[-1] == 2000 and len(t) == blitz_margin(boards) + 1
    inc = [b - a for a, b in itertools.pairwise(t)]
    assert all(x >= 0 for x in inc)
    assert all(x >= y for x, y in itertools.pairwise(inc))
    d = vp_table(boards, "wbf2013_discrete")
    assert d[0] == 1000 and d[-1] == 2000 and all(x % 100 == 0 for x in d)
    assert all(a <= b <= a + 100 for a, b in itertools.pairwise(d))
    cuts = discrete_cutoffs(boards)
    widths = [2 * cuts[0] - 1] + [b - a for a, b in itertools.pairwise(cuts)]
    assert all(w >= 1 for w in widths)
    assert widths == sorted(widths)


@given(
    st.integers(1, 40),
    st.fractions(min_value=-150, max_value=150, max_denominator=12),
    st.sampled_from(["wbf2013", "wbf2013_discrete"]),
    st.sampled_from(["round_half_up", "round_half_even", "interpolate"]),
)
def test_pairs_sum_to_twenty_and_swap_with_the_sign(boards, margin, scale, fractional):
    home, away = victory_points(margin, boards, scale, fractional)
    assert home + away == 2000
    assert 0 <= home <= 2000
    assert victory_points(-margin, boards, scale, fractional) == (away, home)


@given(
    st.integers(1, 40),
    st.fractions(min_value=-150, max_value=150, max_denominator=12),
    st.fractions(min_value=0, max_value=20, max_denominator=12),
    st.sampled_from(["wbf2013", "wbf2013_discrete"]),
    st.sampled_from(["round_half_up", "round_half_even", "interpolate"]),
)
def test_monotone_in_the_margin(boards, margin, step, scale, fractional):
    lo = victory_points(margin, boards, scale, fractional)[0]
    hi = victory_points(margin + step, boards, scale, fractional)[0]
    assert lo <= hi
