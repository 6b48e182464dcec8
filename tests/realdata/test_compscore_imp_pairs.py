"""Compscore3 (ABF) Butler and cross-IMP pairs: every datum, line and total reproduced.

Butler (``compscore_usebio_butler_mitchell_14p.xml``, 14 pairs, 35 boards, 245 lines):
the datum (``BOARD_AVERAGE``, which our USEBIO reader does not read, so it is parsed
here) is the mean of the board's scores after dropping the single top and the single
bottom result, rounded to 10 (convention ``"compscore"``); the ``A5050`` line takes no
part in it and scores 0/0 (average). NS gets IMP(score − datum), EW the negation; each
pair's ``TOTAL_SCORE`` is the plain sum of its Butler IMPs.

Cross-IMPs (``compscore_usebio_cross_imp_howell_9p.xml``, 9 pairs, 27 boards of 4
results): each line is the *average* of the IMPs against the 3 other results, shown to 2
decimals; each ``TOTAL_SCORE`` is the exact sum of a pair's averages rounded to 2
decimals (not the sum of the displayed figures).
"""

from __future__ import annotations

from fractions import Fraction

import defusedxml.ElementTree as SafeET
import polars as pl

from pipelines.formats import read_file
from pipelines.laws.imp_pairs import (
    BUTLER_CONVENTIONS,
    butler_datum,
    butler_frame,
    cross_imps,
    cross_imps_frame,
)
from pipelines.laws.rounding import round_fraction
from tests.conftest import REALDATA, shared_file

BUTLER = "compscore_usebio_butler_mitchell_14p.xml"
CROSS = "compscore_usebio_cross_imp_howell_9p.xml"
_ART = {"60": "+", "50": "=", "40": "-"}


def _lines(name: str) -> pl.DataFrame:
    path = shared_file(REALDATA / name)
    res = read_file(path, REALDATA).results
    art = pl.col("score").str.extract(r"^A(\d+)/(\d+)$", 1)
    art_ew = pl.col("score").str.extract(r"^A(\d+)/(\d+)$", 2)
    return res.select(
        pl.col("board").cast(pl.Int64),
        "ns_pair",
        "ew_pair",
        "score",
        pl.col("score").cast(pl.Int64, strict=False).alias("ns_score"),
        art.replace_strict(_ART, default=None).alias("ns_art"),
        art_ew.replace_strict(_ART, default=None).alias("ew_art"),
        pl.col("source_ns_mp").alias("official_ns"),
        pl.col("source_ew_mp").alias("official_ew"),
    )


def _board_averages(name: str) -> dict[int, int]:
    root = SafeET.parse(shared_file(REALDATA / name)).getroot()
    out = {}
    for board in root.iter("BOARD"):
        avg = board.findtext("BOARD_AVERAGE")
        if avg is not None:
            out[int(board.findtext("BOARD_NUMBER"))] = int(avg)
    return out


def _official_totals(name: str) -> dict[tuple[str | None, str], str]:
    path = shared_file(REALDATA / name)
    st = read_file(path, REALDATA).source_standings
    return {(r["direction"], r["contestant"]): r["total"] for r in st.iter_rows(named=True)}


def test_every_butler_datum_is_the_mean_without_top_and_bottom():
    averages = _board_averages(BUTLER)
    assert len(averages) == 35
    lines = _lines(BUTLER)
    compscore = BUTLER_CONVENTIONS["compscore"]
    for (board,), g in lines.group_by(["board"]):
        real = g["ns_score"].drop_nulls().to_list()
        assert butler_datum(real, **compscore) == averages[board], board
    out = butler_frame(lines, group=["board"], convention="compscore")
    per_board = dict(out.select("board", "datum").unique().iter_rows())
    assert per_board == averages
    # the untrimmed mean is not Compscore's datum: board 1 (-450/7 -> -60, official -30)
    b1 = lines.filter(pl.col("board") == 1)["ns_score"].to_list()
    assert butler_datum(b1) == -60 != averages[1]


def test_every_butler_line_and_total_reproduced():
    lines = _lines(BUTLER)
    assert lines.height == 245
    out = butler_frame(lines, group=["board"], convention="compscore")
    off = out.filter(
        (pl.col("ns_imps") != pl.col("official_ns").cast(pl.Int64))
        | (pl.col("ew_imps") != pl.col("official_ew").cast(pl.Int64))
    )
    assert off.height == 0
    art = out.filter(pl.col("ns_score").is_null())
    assert art.height == 1 and art.row(0, named=True)["score"] == "A50/50"
    assert (art["ns_imps"].to_list(), art["ew_imps"].to_list()) == ([0], [0])
    ns = out.group_by("ns_pair").agg(pl.col("ns_imps").sum())
    ew = out.group_by("ew_pair").agg(pl.col("ew_imps").sum())
    ours = {("NS", p): t for p, t in ns.iter_rows()} | {("EW", p): t for p, t in ew.iter_rows()}
    official = _official_totals(BUTLER)
    assert len(official) == 14
    assert {k: Fraction(v) for k, v in official.items()} == ours


def test_every_cross_imp_line_is_the_average_shown_to_two_decimals():
    lines = _lines(CROSS)
    assert lines.height == 108
    assert lines.group_by("board").len()["len"].unique().to_list() == [4]
    out = cross_imps_frame(lines, group=["board"], mode="average")
    for r in out.iter_rows(named=True):
        exact = Fraction(r["ns_imps_num"], r["imps_den"])
        shown = round_fraction(exact, 2, "half_even")
        assert shown == Fraction(r["official_ns"]), r
        assert -shown == Fraction(r["official_ew"]), r
    # the scalar rule agrees, board by board
    for (_,), g in out.group_by(["board"]):
        want = cross_imps(g["ns_score"].to_list(), "average")
        got = [Fraction(n, d) for n, d in zip(g["ns_imps_num"], g["imps_den"], strict=True)]
        assert got == want
    # thirds never fall on a half, so the display rule for halves is not exercised
    assert set(out["imps_den"].unique().to_list()) <= {1, 3}


def test_cross_imp_totals_are_exact_sums_rounded_to_two_decimals():
    out = cross_imps_frame(_lines(CROSS), group=["board"], mode="average")
    exact: dict[str, Fraction] = {}
    shown: dict[str, Fraction] = {}
    for r in out.iter_rows(named=True):
        v = Fraction(r["ns_imps_num"], r["imps_den"])
        for pair, sign, col in (
            (r["ns_pair"], 1, "official_ns"),
            (r["ew_pair"], -1, "official_ew"),
        ):
            exact[pair] = exact.get(pair, Fraction(0)) + sign * v
            shown[pair] = shown.get(pair, Fraction(0)) + Fraction(r[col])
    official = {c: Fraction(t) for (_, c), t in _official_totals(CROSS).items()}
    assert len(official) == 9
    assert {p: round_fraction(v, 2, "half_even") for p, v in exact.items()} == official
    # the displayed lines do not add up to the total: pair 2 has 91/3 = 30.33, lines 30.34
    assert exact["2"] == Fraction(91, 3) and official["2"] == Fraction(3033, 100)
    assert shown["2"] == Fraction(3034, 100)
