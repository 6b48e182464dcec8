"""Magic Contest 4.13 (FFB), matchpoint pairs, 44 pairs, 30 boards, four adjusted lines.

Reproduced under the ``ffb`` profile: all 660 traveller lines (MP_NS, MP_EW) and all 44
totals, percentages and places, including the Tiebreak column. Magic Contest's rules,
as the file shows them (see shared/realdata/SOURCES.md):

* on a board where an artificial score replaced a result, the 21 played results are
  scaled *linearly* from top 40 to top 42 (x 1.05), not by Neuberg;
* matchpoints are shown to 0.1 with an exact half rounded towards the average (21):
  27 x 1.05 = 28.35 -> 28.3, 15 x 1.05 = 15.75 -> 15.8;
* totals are the sums of the shown matchpoints;
* pairs 44 and 1 tie on 593.2; pair 44 won their head-to-head boards (44.1 to 39.9),
  so it is placed 31st with tiebreak 2 and pair 1 32nd with 0.
"""

from __future__ import annotations

import polars as pl

from tests.realdata.scoring import score_file

FILE = "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn"


def test_every_traveller_line(tmp_path):
    s = score_file(FILE, tmp_path)
    assert s.lines.height == 660
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


def test_adjusted_boards_use_linear_factoring(tmp_path):
    s = score_file(FILE, tmp_path)
    adjusted = s.lines.filter(pl.col("kind") == "artificial")
    assert sorted(adjusted["board"].to_list()) == [1, 2, 9, 14]
    # A+ = 60 % of the full top 42; A- = 40 %
    assert sorted(
        set(adjusted["ns_mp_display"].to_list() + adjusted["ew_mp_display"].to_list())
    ) == [16.8, 25.2]
    played = s.lines.filter(pl.col("board").is_in([1, 2, 9, 14]) & (pl.col("kind") == "played"))
    assert played["factoring"].unique().to_list() == ["linear"]


def test_every_total_percentage_and_place(tmp_path):
    s = score_file(FILE, tmp_path, howell_directions=True)
    cmp = s.standings_vs_official()
    assert cmp.height == 44
    bad = cmp.filter(
        (pl.col("score_display") != pl.col("official_total"))
        | (pl.col("percentage_display") != pl.col("official_percentage"))
        | (pl.col("rank") != pl.col("official_place"))
        | pl.col("score_display").is_null()
        | pl.col("official_total").is_null()
    )
    assert bad.height == 0, bad


def test_head_to_head_tiebreak(tmp_path):
    s = score_file(FILE, tmp_path, howell_directions=True)
    cmp = s.standings_vs_official().filter(pl.col("official_tiebreak").is_not_null())
    assert sorted(cmp["contestant"].to_list()) == ["1", "44"]
    assert (cmp["tiebreak"] == cmp["official_tiebreak"]).all()
    assert sorted(cmp["rank"].to_list()) == [31, 32]


def test_the_broken_tie_is_said_in_words_next_to_the_place(tmp_path):
    """Pairs 44 and 1 are level on 47.08 %; Magic Contest places 44 ahead on the boards they
    played against each other (official Rank 31 and 32, Tiebreak 2 and 0). The ranking says
    so next to each place, with the profile setting that broke the tie."""
    from pipelines.publish.ties import tie_notes, tie_rule

    s = score_file(FILE, tmp_path, howell_directions=True)
    rows = s.standings.with_columns(pl.lit("ffb").alias("profile")).to_dicts()
    notes = tie_notes(rows, "ffb")
    assert notes == {
        ("44", ""): "ahead of 1 on the head-to-head matchpoints (equal percentages)",
        ("1", ""): "behind 44 on the head-to-head matchpoints (equal percentages)",
    }
    assert tie_rule("ffb", rows) == (
        "Contestants with equal percentages are placed by the head-to-head matchpoints "
        "(profile ffb, ranking.tiebreak = head_to_head); those still level share the place."
    )
