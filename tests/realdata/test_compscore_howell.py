"""Compscore3 (ABF), matchpoint pairs, Howell, 12 pairs, 27 boards, one A5050.

Reproduced under the ``abf`` profile: every traveller line's matchpoints, and every
pair's total, percentage and place, exactly as Compscore published them. The file
exercises three Compscore rules (see shared/realdata/SOURCES.md):

* board 12 was played 5 times (6 expected): the traveller shows it on its own top of
  8, but the totals use it Neuberg-factored to 6 results (0 -> 0.2, 5 -> 6.2, 8 -> 9.8);
* board 26 has an A5050: the other 5 results are Neuberg-factored on the traveller
  and shown to 0.1 (2 -> 2.6, 8 -> 9.8);
* pairs 1 and 3 missed board 12: their totals are scaled to 27 boards (124 x 27/26 =
  128.77).
"""

from __future__ import annotations

import polars as pl

from tests.realdata.scoring import score_file

FILE = "compscore_usebio_mp_howell_12p.xml"


def test_every_traveller_line(tmp_path):
    s = score_file(FILE, tmp_path)
    assert s.lines.height == 161
    off = s.lines.filter(
        (pl.col("ns_mp_display") != pl.col("source_ns_mp"))
        | (pl.col("ew_mp_display") != pl.col("source_ew_mp"))
    )
    assert off.height == 0, off.select(
        "board",
        "ns_pair",
        "ew_pair",
        "ns_mp_display",
        "source_ns_mp",
        "ew_mp_display",
        "source_ew_mp",
    )


def test_short_board_shown_unfactored_but_factored_in_totals(tmp_path):
    s = score_file(FILE, tmp_path)
    b12 = s.lines.filter(pl.col("board") == 12).sort("ns_pair")
    assert b12["top_display"].unique().to_list() == [8.0]
    assert b12["factoring"].unique().to_list() == ["neuberg"]
    # counted: (M + 1) x 6/5 - 1
    assert sorted(b12["ns_mp"].round(6).to_list()) == [0.2, 2.6, 6.2, 6.2, 9.8]


def test_every_total_percentage_and_place(tmp_path):
    s = score_file(FILE, tmp_path)
    cmp = s.standings_vs_official()
    assert cmp.height == 12
    assert (
        cmp.filter(pl.col("official_total").is_null() | pl.col("score_display").is_null()).height
        == 0
    )
    bad = cmp.filter(
        (pl.col("score_display") != pl.col("official_total"))
        | (pl.col("percentage_display") != pl.col("official_percentage"))
        | (pl.col("rank") != pl.col("official_place"))
    )
    assert bad.height == 0, bad


def test_sitout_pairs_scaled_to_full_session(tmp_path):
    s = score_file(FILE, tmp_path)
    p1 = s.standings.filter(pl.col("contestant") == "1").row(0, named=True)
    assert p1["boards"] == 26
    assert (p1["score_num"], p1["score_den"]) == (124 * 27 * 5, 26 * 5) or (
        p1["score_num"] * 26 == 124 * 27 * p1["score_den"]
    )
    assert p1["score_display"] == 128.77
