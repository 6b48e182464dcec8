"""Butler and cross-IMP pairs against scoring-rules.md §6 and the ACBLscore manual text.

The scalar rules are checked on the figures the rules text states; the vectorised frames
are checked equal to the scalar rules on random boards.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipelines.laws.imp_pairs import (
    BUTLER_CONVENTIONS,
    artificial_imps,
    butler_datum,
    butler_frame,
    butler_imps,
    cross_imps,
    cross_imps_artificial,
    cross_imps_fouled,
    cross_imps_frame,
    trimmed_each_end,
)
from pipelines.laws.imps import imps

ACBL = BUTLER_CONVENTIONS["acbl"]
COMPSCORE = BUTLER_CONVENTIONS["compscore"]


def test_datum_rounds_to_ten_a_final_five_to_even():
    # scoring-rules §6 / ACBLscore: 425 -> 420, 435 -> 440
    assert butler_datum([425], **ACBL) == 420
    assert butler_datum([435], **ACBL) == 440
    assert butler_datum([420, 430]) == 420  # mean 425
    assert butler_datum([430, 440]) == 440  # mean 435
    assert butler_datum([-420, -430]) == -420
    assert butler_datum([424]) == 420 and butler_datum([426]) == 430
    assert butler_datum([420, 430], half="up") == 430
    assert butler_datum([-420, -430], half="away") == -430
    assert butler_datum([420, 430], round_to=None) == 425


def test_trimming_five_percent_each_end():
    # ACBL default: 5 % of the results high and low; 20 results -> one each end
    scores = [2000] + [100] * 18 + [-2000]
    assert trimmed_each_end(20, Fraction(1, 20), "round_half_up") == 1
    assert butler_datum(scores, **ACBL) == 100
    assert butler_datum(scores) == 90  # untrimmed: 1800 / 20
    assert butler_datum([2000] + [100] * 19, **ACBL) == 100  # the 2000 is dropped
    assert butler_datum([2000] + [100] * 19) == 200  # mean 195 -> 200 (even)


def test_compscore_drops_one_top_and_one_bottom():
    # the single top and bottom are dropped whatever the count (Compscore3, ABF)
    assert trimmed_each_end(7, count=1) == 1
    assert butler_datum([100, 200, 300, 5000], **COMPSCORE) == 250  # mean of 200, 300
    assert butler_datum([100, 5000], **COMPSCORE) == 2550  # two results: nothing dropped


def test_butler_imps_and_artificial_scores():
    assert butler_imps(620, 420) == imps(200) == 5
    assert butler_imps(-100, 420) == -11
    # Av = 0, Av+ = +3, Av- = -3 IMPs
    assert [artificial_imps(c) for c in "+=-"] == [3, 0, -3]
    with pytest.raises(ValueError):
        artificial_imps("A")


def test_cross_imp_artificial_and_fouled_rules():
    # ACBLscore: total Av+ = 3 x (results - 1); average Av+ = 3
    assert cross_imps_artificial("+", 8, "total") == 21
    assert cross_imps_artificial("=", 8, "total") == 0
    assert cross_imps_artificial("-", 8, "average") == -3
    # fouled: groups IMPed separately, totals factored by (N - 1)/(g - 1)
    g1, g2 = [420, 450, 420], [-100, 620, 170, 140, 140]
    total = cross_imps_fouled([g1, g2], "total")
    assert total[0] == [Fraction(7, 2) * x for x in cross_imps(g1, "total")]
    assert total[1] == [Fraction(7, 4) * x for x in cross_imps(g2, "total")]
    assert cross_imps_fouled([g1, g2], "average") == [cross_imps(g1), cross_imps(g2)]


def test_cross_imps_total_and_average_by_hand():
    # 4 results: -140 vs 50, 100, -420: -190 -> -5, -240 -> -6, +280 -> +7
    assert cross_imps([-140, 50, 100, -420], "total")[0] == -4
    assert cross_imps([-140, 50, 100, -420], "average")[0] == Fraction(-4, 3)
    assert cross_imps([620], "total") == [0]


def _random_boards(seed: int, art: bool = False) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for board in range(1, 60):
        n = int(rng.integers(1, 14))
        pool = rng.choice(np.arange(-200, 200) * 10, size=4)
        for t in range(n):
            s = int(rng.choice(pool)) if rng.random() < 0.7 else int(rng.integers(-300, 300)) * 5
            code = None
            if art and rng.random() < 0.1:
                s, code = None, str(rng.choice(["+", "=", "-"]))
            rows.append({"board": board, "table": t, "ns_score": s, "art": code})
    return pl.DataFrame(
        rows, schema={"board": pl.Int64, "table": pl.Int64, "ns_score": pl.Int64, "art": pl.String}
    )


@pytest.mark.parametrize(
    "convention",
    [
        ACBL,
        COMPSCORE,
        {**ACBL, "trim_rounding": "ceil"},
        {**ACBL, "trim_rounding": "floor"},
        {**COMPSCORE, "half": "up"},
        {**COMPSCORE, "half": "down"},
        {**COMPSCORE, "half": "away"},
        {**ACBL, "trim": Fraction(1, 5)},
        {**COMPSCORE, "round_to": None},
    ],
)
def test_butler_frame_equals_the_scalar_rules(convention):
    df = _random_boards(1, art=True).with_columns(
        ns_art=pl.col("art"), ew_art=pl.col("art").replace({"+": "-", "-": "+"})
    )
    out = butler_frame(df, group=["board"], convention=convention)
    for (board,), g in out.group_by(["board"]):
        real = [s for s in g["ns_score"].to_list() if s is not None]
        datum = butler_datum(real, **convention) if real else None
        for r in g.iter_rows(named=True):
            if convention["round_to"] is None and datum is not None:
                assert Fraction(r["datum_num"], r["datum_den"]) == datum
            elif datum is not None:
                assert r["datum"] == datum, (board, real)
            if r["ns_score"] is not None:
                assert r["ns_imps"] == butler_imps(r["ns_score"], datum) == -r["ew_imps"]
            else:
                assert r["ns_imps"] == artificial_imps(r["ns_art"])
                assert r["ew_imps"] == artificial_imps(r["ew_art"])


def test_butler_frame_by_name_and_unplayed_rows():
    df = pl.DataFrame({"board": [1, 1, 1, 1], "ns_score": [100, 200, 300, None]})
    out = butler_frame(df, group=["board"], convention="compscore")
    assert out["datum"].to_list() == [200] * 4
    assert out["ns_imps"].to_list() == [-3, 0, 3, None]
    assert out["ew_imps"].to_list() == [3, 0, -3, None]


@pytest.mark.parametrize("mode", ["total", "average"])
def test_cross_imps_frame_equals_the_scalar_rules(mode):
    df = _random_boards(2, art=True).with_columns(
        group=pl.col("table") % 2,
        expected=pl.len().over("board").cast(pl.Int64),
        ns_art=pl.col("art"),
        ew_art=pl.col("art").replace({"+": "-", "-": "+"}),
    )
    out = cross_imps_frame(df, group=["board", "group"], mode=mode, expected="expected")
    assert out.select(df.columns).equals(df)  # rows kept in the input's order
    for (_, _), g in out.group_by(["board", "group"]):
        real = [s for s in g["ns_score"].to_list() if s is not None]
        big = g["expected"][0]
        want = iter(cross_imps(real, mode, expected=big))
        for r in g.iter_rows(named=True):
            got_ns = Fraction(r["ns_imps_num"], r["imps_den"])
            got_ew = Fraction(r["ew_imps_num"], r["imps_den"])
            if r["ns_score"] is not None:
                w = next(want)
                assert got_ns == w and got_ew == -w
                assert r["ns_imps"] == pytest.approx(float(w))
                assert got_ns.denominator == r["imps_den"]  # lowest terms
            else:
                assert got_ns == cross_imps_artificial(r["ns_art"], big, mode)
                assert got_ew == cross_imps_artificial(r["ew_art"], big, mode)


scores = st.lists(st.integers(-300, 300).map(lambda x: 10 * x), min_size=1, max_size=16)


@given(scores, st.sampled_from(["total", "average"]))
def test_cross_imps_on_a_board_sum_to_zero(board, mode):
    assert sum(cross_imps(board, mode)) == 0


@given(
    st.integers(-300, 300).map(lambda x: 10 * x),
    st.lists(st.integers(0, 300).map(lambda x: 10 * x), min_size=0, max_size=8),
    st.booleans(),
    st.sampled_from(["acbl", "compscore", "none"]),
)
def test_butler_symmetric_board_is_zero_sum(mean, offsets, middle, name):
    # a board symmetric about a multiple of 10: datum = that mean exactly (trimming a
    # symmetric board keeps it symmetric), so the Butler IMPs cancel by antisymmetry.
    # Not true in general: a datum rounded away from the mean breaks the balance.
    board = [mean + d for d in offsets] + [mean - d for d in offsets] + ([mean] if middle else [])
    if not board:
        return
    conv = BUTLER_CONVENTIONS.get(name, {})
    datum = butler_datum(board, **conv)
    assert datum == mean
    assert sum(butler_imps(s, datum) for s in board) == 0
