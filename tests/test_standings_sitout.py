"""A contestant that missed boards under ``totals.sitout = "scale_to_full"`` (Compscore).

The program scales such a total to the boards the fullest contestant of its ranking group
played, never to the boards of the whole section: in Compscore3's USEBIO files of
seven-table Mitchells with one EW pair missing (abftech/cobalt's test files
``mp_pairs_mitchell_03.xml``: every NS pair played 18 of the 21 boards and its
``TOTAL_SCORE`` is its matchpoints, over a top of 180) and of an eight-table Mitchell
whose fullest pairs played 17 of the 24 boards (``mp_pairs_mitchell_04.xml``: a pair
that played 15 has its total scaled by 17/15, its percentage over 170). Each case below
is small enough to score by hand; the expected figures are worked out in the comments.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
import pytest

from tests.builders import score_row, scored, standings


def _row(board: int, ns: int, ew: int, score: int) -> dict:
    return score_row(board, str(ns), str(ew), str(score), line=board * 10 + ns)


def _totals(rows: list[dict]) -> dict[tuple[str, str], tuple[Fraction, Fraction, int]]:
    st = standings(scored(rows, profile="abf", movement="mitchell"))
    return {
        (r["contestant"], r["direction"]): (
            Fraction(r["score_num"], r["score_den"]),
            Fraction(r["top_num"], r["top_den"]),
            r["boards"],
        )
        for r in st.iter_rows(named=True)
    }


# Three NS pairs, two EW pairs (the third EW pair missing): one board a round, each NS pair
# sits out one round. Round 1 (board 1): 1NS-1EW, 2NS-2EW; round 2 (board 2): 2NS-1EW,
# 3NS-2EW; round 3 (board 3): 3NS-1EW, 1NS-2EW. Two results a board: a top of 2.
SAT_OUT = [
    _row(1, 1, 1, 100),  # 1NS 2, 2NS 0; 1EW 0, 2EW 2
    _row(1, 2, 2, -100),
    _row(2, 2, 1, 200),  # 2NS 2, 3NS 0; 1EW 0, 2EW 2
    _row(2, 3, 2, 100),
    _row(3, 3, 1, 50),  # a tie: 1 each
    _row(3, 1, 2, 50),
]


def test_a_field_whose_every_pair_sat_out_a_round_is_not_scaled():
    # Every NS pair played 2 of the 3 boards: the fullest NS pair played 2, so no NS total
    # is scaled (scaled to the section's 3 boards, 1NS would have 4.5 of 6).
    t = _totals(SAT_OUT)
    assert t[("1", "NS")] == (3, 4, 2)
    assert t[("2", "NS")] == (2, 4, 2)
    assert t[("3", "NS")] == (1, 4, 2)
    assert t[("1", "EW")] == (1, 6, 3)
    assert t[("2", "EW")] == (5, 6, 3)


def test_a_pair_that_missed_more_is_scaled_to_its_fullest_rival_not_the_section():
    # The same session without 3NS-2EW on board 2 (a result never played). Board 2 now has
    # one result, 2NS-1EW, Neuberg-factored to the board's two expected results:
    # (0 + 1) x 2/1 - 1 = 1 each. NS: 1NS 2 + 1 = 3 on boards 1 and 3; 2NS 0 + 1 = 1 on
    # boards 1 and 2; 3NS 1 on board 3 alone. The fullest NS pair played 2 boards, so 3NS
    # is scaled by 2/1: 2 over a top of 4 (50 %); the others are not scaled. EW: 1EW played
    # all three (0 + 1 + 1 = 2 of 6); 2EW missed board 2: 2 + 1 = 3 scaled by 3/2, 4.5 of 6.
    rows = [r for r in SAT_OUT if (r["board"], r["ns_pair"]) != ("2", "3")]
    t = _totals(rows)
    assert t[("1", "NS")] == (3, 4, 2)
    assert t[("2", "NS")] == (1, 4, 2)
    assert t[("3", "NS")] == (2, 4, 1)
    assert t[("1", "EW")] == (2, 6, 3)
    assert t[("2", "EW")] == (Fraction(9, 2), 6, 2)


def test_percentages_are_over_the_boards_played_either_way():
    # scaling changes the total, never the percentage: 3NS's 1 of 2 is 50 %
    rows = [r for r in SAT_OUT if (r["board"], r["ns_pair"]) != ("2", "3")]
    st = standings(scored(rows, profile="abf", movement="mitchell"))
    pct = dict(zip(st["contestant"] + st["direction"], st["percentage"], strict=True))
    assert pct == pytest.approx({"1NS": 75, "2NS": 25, "3NS": 50, "1EW": 100 / 3, "2EW": 75})


def test_the_rule_is_a_profile_setting():
    # wbf counts what was earned: 3NS keeps its 1 matchpoint on its one board
    rows = [r for r in SAT_OUT if (r["board"], r["ns_pair"]) != ("2", "3")]
    st = standings(scored(rows, profile="wbf", movement="mitchell"))
    r = st.filter((pl.col("contestant") == "3") & (pl.col("direction") == "NS")).row(0, named=True)
    assert Fraction(r["score_num"], r["score_den"]) == 1
