"""What a director's ruling may say, by the Laws' text: each illegal ruling is refused with a
located reason a director understands; the legal forms are scored exactly.

* Law 12C2(a): "a contestant directly at fault receives an artificial adjusted score of at
  most 40 %; a contestant only partially at fault at most 50 %" (paraphrase) — so an
  offending side never gets average-plus;
* Law 82C: the director awards an adjusted score "treating both sides as non-offending";
* Law 12C1(c): a weighted score may use any proportions that sum to the whole (33⅓ %);
* 2017 Law 12C2(d): other artificial scores where the Regulating Authority regulates them.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
import pytest

from pipelines import profiles
from tests.laws_engine import checked, result, ruling, run, session_events, validated

OTHERS = [620, 620, 650, 170, -100, 420]


def seven_tables() -> list[dict]:
    return [
        result(2, str(2 * t + 1), str(2 * t + 2), s, t + 2) for t, s in enumerate([*OTHERS, 100])
    ]


def reasons(rulings: list[dict]) -> list[str]:
    events = session_events()
    res = checked(validated(seven_tables(), events), events, rulings)
    return res.rejected.sort("location")["reason"].to_list()


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"offending": "EW"}, "Law 82C treats both sides as non-offending"),
        ({"ns_result": "A+", "ew_result": "A-"}, "at least average-plus"),
        ({"ns_result": "A50", "ew_result": "A+"}, "at least average-plus"),
    ],
)
def test_director_error_is_for_two_non_offending_sides(fields, why):
    got = reasons([ruling("R1", "director_error", 2, "13", "14", laws="82C", **fields)])
    assert any(why in reason for reason in got), got


@pytest.mark.parametrize(
    ("offending", "ns", "ew", "bad"),
    [
        ("NS", "A+", "A-", True),
        ("EW", "A+", "A-", False),
        ("EW", "A-", "A+", True),
        ("both", "A", "A", False),
        ("both", "A+", "A", True),
        ("NS", "A60", "A40", True),
        ("NS", "A50", "A60", False),
    ],
)
def test_average_plus_never_goes_to_an_offending_side(offending, ns, ew, bad):
    r = ruling("R1", "artificial", 2, "13", "14", ns_result=ns, ew_result=ew, offending=offending)
    got = reasons([r])
    assert bool(got) is bad
    if bad:
        assert "Law 12C2(a)" in got[0]


def test_weights_in_thirds_are_exact():
    """12C1(c), frequency form: the weighted table's matchpoints are Σ w_i MP(component_i).
    1/3 of +620 (8 MP against the six others) and 2/3 of -100 (1 MP: ties the -100) give
    8/3 + 2/3 = 10/3; the +650 table beats both components: 12; a +620 table ties 1/3 and
    beats 2/3: 2x3 + 1 (the other +620) + 1/3 + 4/3 = 26/3; the field still sums to 42."""
    r = ruling("R1", "weighted", 2, "13", "14", ns_result="1/3 4S N =; 2/3 4S N -1")
    s = run(seven_tables(), [r]).scored

    def mp(ns: str) -> Fraction:
        row = s.filter(pl.col("ns_pair") == ns).row(0, named=True)
        return Fraction(row["ns_mp_num"], row["mp_den"])

    assert mp("13") == Fraction(10, 3)
    assert mp("5") == 12
    assert mp("1") == Fraction(26, 3)
    assert sum(mp(str(2 * t + 1)) for t in range(7)) == 42


def test_weights_must_sum_to_the_whole():
    (reason,) = reasons(
        [
            ruling(
                "R1",
                "weighted",
                2,
                "13",
                "14",
                ns_result="33.33% 4S N =; 33.33% 4S N -1; 33.33% 3NT N =",
            )
        ]
    )
    assert "99.99%" in reason and "1/3" in reason


def test_other_artificial_percentages_need_the_regulation(monkeypatch):
    r = ruling("R1", "artificial", 2, "13", "14", ns_result="A55", ew_result="A45")
    got = reasons([r])
    assert len(got) == 2 and all("Law 12C2(d)" in reason for reason in got)
    real = profiles.load
    monkeypatch.setattr(
        profiles,
        "load",
        lambda name=None: real(name).with_settings(other_percentages=True),
    )
    s = run(seven_tables(), [r]).scored
    row = s.filter(pl.col("ns_pair") == "13").row(0, named=True)
    # 55 % and 45 % of the full top of 12
    assert Fraction(row["ns_mp_num"], row["mp_den"]) == Fraction(33, 5)
    assert Fraction(row["ew_mp_num"], row["mp_den"]) == Fraction(27, 5)
