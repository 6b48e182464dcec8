"""Law 12C notation and rules, Law 87 small groups, Laws 90/91 penalties, Law 79C timing.

Figures come from ../shared/domain/scoring-rules.md (sections 4, 5, 8, 9) and vectors.json.
"""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction

import pytest

from pipelines.laws.adjustments import (
    Artificial,
    ResultError,
    fouled_group_percentage,
    other_boards_percentage,
    parse_side_result,
    resolve_artificial,
)
from pipelines.laws.corrections import correction_applies, standings_status
from pipelines.laws.matchpoints import neuberg
from pipelines.laws.penalties import PenaltyError, matchpoint_deduction, parse_penalty
from tests.conftest import VECTORS


@pytest.mark.parametrize(
    ("text", "board", "scores"),
    [
        ("4S N =", 1, [420]),
        ("3NT S +1", 2, [630]),  # NS vulnerable on board 2
        ("4HX E -2", 3, [500]),  # EW vulnerable on board 3: 4HX-2 = -500 for EW
        ("PASS", 7, [0]),
        ("+620", 1, [620]),
        ("-100", 1, [-100]),
        ("60% 4S N =; 40% 4S N -1", 2, [620, -100]),
    ],
)
def test_results(text, board, scores):
    got = parse_side_result(text, board)
    assert [c.ns_score for c in got] == scores
    assert sum(c.weight for c in got) == 1


def test_weighted_weights():
    got = parse_side_result("60% 4S N =; 40% 4S N -1", 2)
    assert [c.weight for c in got] == [Fraction(3, 5), Fraction(2, 5)]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("A+", "+"),
        ("A", "="),
        ("A-", "-"),
        ("A60", "60"),
        ("A50", "50"),
        ("A40", "40"),
        ("a +", "+"),
    ],
)
def test_artificial(text, code):
    assert parse_side_result(text, 1) == Artificial(code)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("60% 4S N =; 30% 4S N -1", "sum to 90%"),
        ("4S Q =", "is not a result"),
        ("8S N =", "is not a result"),
        ("7NT N +1", "tricks"),
        ("+625", "multiple of 10"),
        ("A170", "percentage 0-100"),
        ("", "empty"),
    ],
)
def test_illegal_results(text, why):
    with pytest.raises(ResultError, match=why):
        parse_side_result(text, 1)


def test_session_percentage_rule_2017_12c2c():
    # scoring-rules.md section 5: 26 boards, 25 real at 64 % and one Av+ -> the NOS gets 64 %
    assert resolve_artificial("+", Fraction(64)) == 64
    assert resolve_artificial("+", Fraction(55)) == 60
    # offending side: min(40 %, p) under 2017; flat 40 % under the 2007 Laws (Law 88)
    assert resolve_artificial("-", Fraction(35)) == 35
    assert resolve_artificial("-", Fraction(35), laws="2007") == 40
    assert resolve_artificial("-", Fraction(45)) == 40
    assert resolve_artificial("=", Fraction(70)) == 50
    assert resolve_artificial("60", Fraction(70)) == 60  # fixed: never overridden


def test_ebu_identity_for_an_inserted_average_plus():
    # a program put 60 % on one of 26 boards; the session shows P; the other boards gave 64 %
    p = (25 * Fraction(64) + 60) / 26
    assert other_boards_percentage(p, 26, Fraction(60)) == 64


def test_ebu_small_subfield_vectors():
    data = json.loads(VECTORS.read_text())["ebu_small_subfield"]
    for c in data["cases"]:
        got = fouled_group_percentage("ebu", c["A"], 3 * c["A"], Fraction(c["M"]), False)
        assert got == c["percent"], c


def test_ebu_rule_only_when_the_field_is_large_enough():
    # 5 results split 3 + 2: E = 5 < 6 = 3A, so Neuberg: the 2-group bottom gets 1.5 MP
    assert fouled_group_percentage("ebu", 2, 5, Fraction(0), False) is None
    assert neuberg(0, 2, 5) == Fraction(3, 2)


def test_fouled_7_3_split_neuberg_and_ebu():
    # Board due 10 times, fouled 7/3. Neuberg (EBU article): 12 -> 17.6 ... 0 -> 0.4 and
    # 4 -> 15.7, 2 -> 9.0, 0 -> 2.3; groups sum to 63 and 27.
    assert [round(float(neuberg(m, 3, 10)), 1) for m in (4, 2, 0)] == [15.7, 9.0, 2.3]
    assert fouled_group_percentage("neuberg", 3, 10, Fraction(4), False) is None
    # EBU White Book 4.2.3.3: the group of 3 (E = 10 >= 9) gets 70/60/50 % of the top of 18
    pct = [fouled_group_percentage("ebu", 3, 10, Fraction(m), False) for m in (4, 2, 0)]
    assert pct == [70, 60, 50]
    assert [p * 18 / 100 for p in pct] == [Fraction(63, 5), Fraction(54, 5), 9]


def test_acbl_small_groups():
    assert fouled_group_percentage("acbl", 3, 10, Fraction(4), largest=True) is None
    assert fouled_group_percentage("acbl", 3, 10, Fraction(4), largest=False) == 70
    assert fouled_group_percentage("acbl", 2, 10, Fraction(0), largest=False) == 55
    assert fouled_group_percentage("acbl", 4, 10, Fraction(0), largest=False) is None
    for rule in ("neuberg", "ebu", "acbl"):
        assert fouled_group_percentage(rule, 1, 10, Fraction(0), False) == 60


def test_penalties():
    # EBU standard: 25 % of a top; 13-table board, top 24 -> 6 MP
    assert matchpoint_deduction(parse_penalty("25%", "25%"), Fraction(24)) == 6
    assert matchpoint_deduction(parse_penalty(None, "25%"), Fraction(24)) == 6
    assert matchpoint_deduction(parse_penalty("6 MP", "25%"), Fraction(24)) == 6
    assert parse_penalty("warning", "25%").is_warning
    assert parse_penalty("disqualified", "25%").status == "disqualified"
    with pytest.raises(PenaltyError):
        matchpoint_deduction(parse_penalty("3 IMP", "25%"), Fraction(24))
    with pytest.raises(PenaltyError):
        parse_penalty("lots", "25%")


def test_correction_period():
    published = datetime(2026, 11, 2, 22, 30)
    assert correction_applies(datetime(2026, 11, 2, 23, 0), published, 30, False)
    assert not correction_applies(datetime(2026, 11, 2, 23, 1), published, 30, False)
    assert correction_applies(datetime(2026, 11, 9, 12, 0), published, 30, True)
    assert standings_status(datetime(2026, 11, 2, 22, 59), published, 30, 0) == "provisional"
    assert standings_status(datetime(2026, 11, 2, 23, 1), published, 30, 0) == "final"
