"""Law 78A and 12C2 on whole boards, against the worked examples of scoring-rules.md.

The examples are published (or recomputed from published figures) in
../shared/domain/scoring-rules.md sections 3-5; the scorer under test is the
vectorised one the pipeline runs.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl

from pipelines.laws.matchpoints import (
    artificial,
    linear,
    matchpoints,
    matchpoints_frequency,
    neuberg,
)
from tests.builders import board, scored


def exact(df: pl.DataFrame, side: str = "ns") -> list[Fraction]:
    return [Fraction(n, d) for n, d in zip(df[f"{side}_mp_num"], df["mp_den"], strict=True)]


def test_published_board_of_eleven():
    # 11 results, top 20: +680 three times share (16+14+12)/3 = 14
    scores = [1430, 690, 680, 680, 680, 660, 660, 650, -100, -100, -200]
    s = scored(board(scores))
    assert exact(s) == [20, 18, 14, 14, 14, 9, 9, 6, 3, 3, 0]
    assert s["top"].unique().to_list() == [20.0]
    assert exact(s, "ew") == [20 - m for m in (20, 18, 14, 14, 14, 9, 9, 6, 3, 3, 0)]


def test_seven_tables_with_av_plus_av_minus():
    # scoring-rules.md section 5: table 7 Av+/Av-, the 6 real results Neuberg-factored to 7
    scores = [620, 620, 650, 170, -100, 420, "A+/-"]
    s = scored(board(scores))
    assert exact(s)[:6] == [
        Fraction(25, 3),
        Fraction(25, 3),
        Fraction(71, 6),
        Fraction(5, 2),
        Fraction(1, 6),
        Fraction(29, 6),
    ]
    assert [round(float(m), 2) for m in exact(s)[:6]] == [8.33, 8.33, 11.83, 2.5, 0.17, 4.83]
    assert exact(s)[6] == Fraction(36, 5) and exact(s, "ew")[6] == Fraction(24, 5)  # 7.2 / 4.8
    assert s["ns_mp_display"].to_list()[6] == 7.2


def test_artificial_scores_need_not_balance():
    s = scored(board([620, 620, 650, 170, -100, 420, "A60/60"]))
    art = s.filter(pl.col("kind") == "artificial").row(0, named=True)
    assert (art["ns_mp"], art["ew_mp"]) == (7.2, 7.2)


def test_fixed_artificial_percentages_of_the_full_top():
    assert artificial(60, 7) == Fraction(36, 5) and artificial(40, 7) == Fraction(24, 5)
    s = scored(board([100, 200, 300, "A50/40"]))
    art = s.filter(pl.col("kind") == "artificial").row(0, named=True)
    assert (art["ns_mp"], art["ew_mp"]) == (3.0, 2.4)  # top 6


def test_not_played_is_factored_for_everyone_else():
    # EBU: 11 tables, one result missing: a sole top of 18 becomes 19.9, a bottom 0.1
    scores = [100 * i for i in range(10)] + ["NP"]
    s = scored(board(scores))
    played = s.filter(pl.col("kind") == "played")
    assert played["factoring"].unique().to_list() == ["neuberg"]
    m = exact(played)
    assert max(m) == neuberg(18, 10, 11) == Fraction(199, 10)
    assert min(m) == Fraction(1, 10)
    np_row = s.filter(pl.col("kind") == "not_played").row(0, named=True)
    assert np_row["ns_mp"] is None and np_row["ew_mp"] is None


def test_missing_row_factored_to_the_largest_board():
    rows = board([420, 450, 400, 420]) + board([100, 50, -50], board_no=2)
    s = scored(rows)
    b2 = s.filter(pl.col("board") == 2)
    assert b2["expected"].unique().to_list() == [4]
    assert exact(b2) == [neuberg(m, 3, 4) for m in (4, 2, 0)]


def test_expected_results_from_the_event():
    s = scored(board([420, 450, 400]), expected=5)
    assert exact(s) == [neuberg(m, 3, 5) for m in (2, 4, 0)]
    assert s["top"].unique().to_list() == [8.0]


def test_linear_factoring_under_ffb():
    # Magic Contest: 27 on a top of 40 becomes 28.35 on 42 (shown 28.3, towards the average)
    scores = [420] * 14 + [400] + [170] + [50] * 5 + ["A+/+"]
    s = scored(board(scores), profile="ffb")
    top420 = s.filter(pl.col("ns_score") == 420).row(0, named=True)
    assert (
        Fraction(top420["ns_mp_num"], top420["mp_den"]) == linear(27, 21, 22) == Fraction(567, 20)
    )
    assert top420["ns_mp_display"] == 28.3 and top420["ew_mp_display"] == 13.7


def test_acbl_half_scale():
    # 1/0.5 scale: top = k - 1; Neuberg (M + 1/2) N/n - 1/2: M = 9 of 10 results, N = 11 -> 9.95
    scores = [10 * i for i in range(10)] + ["NP"]
    s = scored(board(scores), profile="acbl")
    best = s.filter(pl.col("ns_score") == 90).row(0, named=True)
    assert Fraction(best["ns_mp_num"], best["mp_den"]) == neuberg(Fraction(9), 10, 11, "1/0.5")
    assert float(neuberg(9, 10, 11, "1/0.5")) == 9.95
    assert best["top"] == 10.0


def test_frequency_form_matches_counting():
    scores = [620, 620, 650, 170, -100, 420]
    field = [(s, 1) for s in scores]
    assert [matchpoints_frequency(s, field) for s in scores] == matchpoints(scores)


def test_weighted_example_in_frequency_form():
    # scoring-rules.md section 5 (Law 12C1(c)): 60 % of +620, 40 % of -100, with the other six
    # tables; the weighted table earns 0.6 x 8 + 0.4 x 1 = 5.2 (applied by the Laws-engine issue)
    others = [620, 620, 650, 170, -100, 420]
    field = [(s, 1) for s in others] + [(620, Fraction(3, 5)), (-100, Fraction(2, 5))]
    weighted = Fraction(3, 5) * matchpoints_frequency(620, [*field[:6], (620, 1)]) + Fraction(
        2, 5
    ) * matchpoints_frequency(-100, [*field[:6], (-100, 1)])
    assert weighted == Fraction(26, 5)
    assert matchpoints_frequency(650, field) == 12
    assert matchpoints_frequency(620, field) == Fraction(42, 5)
