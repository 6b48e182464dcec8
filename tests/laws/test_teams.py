"""Team matches at IMPs (Laws 78B, 12C1(c), 12C2(b), 86) against scoring-rules.md §5-§6."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipelines.laws.imps import imps
from pipelines.laws.teams import (
    artificial_imps,
    knockout_average,
    knockout_board,
    match_imps,
    match_imps_array,
    match_imps_expr,
    team_board_imps,
    weighted_imps,
)

scores = st.integers(-7600, 7600).map(lambda x: 10 * x)


def test_match_imps_is_the_difference_of_the_two_tables():
    # Law 78B bands: 420 - 170 = 250 -> 6; -100 - 620 = -720 -> -12; 0-10 -> 0
    assert match_imps(420, 170) == 6
    assert match_imps(-100, 620) == -12
    assert match_imps(620, 630) == 0
    assert match_imps(2000, -2000) == 24  # 4000 and more


def test_artificial_scores_are_three_imps_by_default():
    # Law 12C2(b): Av+ / Av / Av- = +3 / 0 / -3 IMPs; the TO may vary the 3
    assert [artificial_imps(c) for c in "+=-"] == [3, 0, -3]
    assert [artificial_imps(c, profile_value=2) for c in "+=-"] == [2, 0, -2]
    assert [artificial_imps(c) for c in ("A+", "A-", "Av+", "Av", "Av-")] == [3, -3, 3, 0, -3]
    with pytest.raises(ValueError):
        artificial_imps("A60")


def test_weighted_score_imped_component_by_component():
    # scoring-rules §5: 60 % of +620 and 40 % of -100 against +420 at the other table:
    # +200 -> +5, -520 -> -11, so -1.4 IMPs; weighting the points first (+332) gives -3
    got = weighted_imps([(Fraction(6, 10), 620), (Fraction(4, 10), -100)], 420)
    assert got == Fraction(-14, 10)
    assert imps(332 - 420) == -3 != got
    with pytest.raises(ValueError):
        weighted_imps([(Fraction(1, 2), 620)], 420)


def test_knockout_example_averages_the_two_views():
    # scoring-rules §6: A (NS, table 1) assigned +420, B (EW, table 1) assigned as if NS
    # +620; table 2 B (NS) +170.  A's view +6, B's view gives A +10: A +8, B -8
    assert knockout_board((420, 620), 170) == (8, -8)
    assert knockout_average(6, 10) == 8
    # outside a knockout each team keeps its own IMPs: A +6, B -10 (not zero-sum)
    assert team_board_imps((420, 620), 170) == (6, -10)


def test_split_and_weighted_scores_together():
    # A's side weighted 60/40 (+620/-100), B's side +620; table 2 NS +420
    t1 = ([(Fraction(6, 10), 620), (Fraction(4, 10), -100)], 620)
    a, b = team_board_imps(t1, 420)
    assert a == Fraction(-14, 10) and b == -5
    ka, kb = team_board_imps(t1, 420, knockout=True)
    assert ka == (Fraction(-14, 10) + 5) / 2 == -kb


def test_twins_equal_and_a_missing_score_has_no_result():
    rng = np.random.default_rng(86)
    t1 = rng.integers(-760, 760, size=2000) * 10
    t2 = rng.integers(-760, 760, size=2000) * 10
    want = [match_imps(int(a), int(b)) for a, b in zip(t1, t2, strict=True)]
    assert match_imps_array(t1, t2).tolist() == want
    df = pl.DataFrame({"t1": [*t1.tolist(), None, 420], "t2": [*t2.tolist(), 170, None]})
    got = df.select(match_imps_expr(pl.col("t1"), pl.col("t2")).alias("i"))["i"].to_list()
    assert got == [*want, None, None]


@given(scores, scores)
def test_match_imps_antisymmetric(t1, t2):
    assert match_imps(t1, t2) == -match_imps(t2, t1)


@given(scores, scores, scores, scores)
def test_knockout_boards_balance(a_ns, a_ew, b_ns, b_ew):
    a, b = knockout_board((a_ns, a_ew), (b_ns, b_ew))
    assert a + b == 0
    own_a, own_b = team_board_imps((a_ns, a_ew), (b_ns, b_ew))
    assert a == (own_a - own_b) / 2


@given(scores, scores)
def test_balanced_boards_are_zero_sum_outside_knockouts(t1, t2):
    a, b = team_board_imps(t1, t2)
    assert a + b == 0 and a == match_imps(t1, t2)
    assert knockout_board(t1, t2) == (a, b)
