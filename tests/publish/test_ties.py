"""Shared places and broken ties in words (:mod:`pipelines.publish.ties`), from the profile
setting that placed them: equal percentages share the place unless the profile breaks ties
head to head (``ranking.tiebreak``); teams level on VPs are separated as
``imps.team_tiebreak`` says. The figures compared are the exact ones (Law 78A sums)."""

from __future__ import annotations

import polars as pl

from pipelines.publish.ties import tie_notes, tie_rule


def pair(contestant: str, rank: int, tied: bool, score: int, top: int = 240, **kw) -> dict:
    """A pairs standing: ``score`` matchpoints of a ``top`` (exact integers)."""
    return {
        "contestant": contestant,
        "direction": kw.get("direction"),
        "rank": rank,
        "tied": tied,
        "score_num": score,
        "score_den": 1,
        "top_num": top,
        "top_den": 1,
        "unit": "MP",
        "tiebreak": kw.get("tiebreak"),
    }


def test_equal_percentages_share_the_place_where_the_profile_breaks_no_tie():
    # 132/240 = 55 % and 66/120 = 55 % (a pair that sat out half the boards): level exactly
    rows = [pair("4", 1, False, 150), pair("9", 2, True, 132), pair("12", 2, True, 66, 120)]
    rows.append(pair("3", 4, False, 131))  # 54.58 %: not level with them
    notes = tie_notes(rows, "wbf")
    assert notes == {
        ("9", ""): "shared with 12: equal percentages",
        ("12", ""): "shared with 9: equal percentages",
    }
    assert tie_rule("wbf", rows) == (
        "Contestants with equal percentages share the place: ties are not broken "
        "(profile wbf, ranking.tiebreak = none)."
    )
    assert tie_notes(rows[:1] + rows[3:], "wbf") == {} and tie_rule("wbf", rows[3:]) is None


def test_three_level_pairs_placed_head_to_head_and_two_still_level():
    """Profile ffb (Magic Contest): 7 beat both others head to head, 2 and 5 level with each
    other there too: 7 is 3rd, 2 and 5 share 4th."""
    rows = [
        pair("7", 3, False, 120, tiebreak="4"),
        pair("2", 4, True, 120, tiebreak="1"),
        pair("5", 4, True, 120, tiebreak="1"),
    ]
    notes = tie_notes(rows, "ffb")
    assert (
        notes[("7", "")] == "ahead of 2 and 5 on the head-to-head matchpoints (equal percentages)"
    )
    assert notes[("2", "")] == (
        "behind 7 on the head-to-head matchpoints (equal percentages); shares the place with 5"
    )


def test_a_mitchell_pair_is_named_with_its_direction():
    rows = [pair("3", 5, True, 100, direction="NS"), pair("8", 5, True, 100, direction="NS")]
    assert tie_notes(rows, "abf")[("3", "NS")] == "shared with 8 NS: equal percentages"


def team(contestant: str, rank: int, vps: int, tiebreak: str | None = None) -> dict:
    return {
        "contestant": contestant,
        "direction": None,
        "rank": rank,
        "tied": False,
        "score_num": vps,
        "score_den": 1,
        "top_num": None,
        "top_den": None,
        "unit": "VP",
        "tiebreak": tiebreak,
    }


def test_teams_level_on_vps_placed_by_the_imp_quotient_or_their_match():
    rows = [team("K1", 1, 45, "IMP quotient 1.500"), team("K3", 2, 45, "IMP quotient 0.900")]
    notes = tie_notes(rows, "wbf")  # imps.team_tiebreak = imp_quotient
    assert notes[("K1", "")] == ("ahead of K3 on the IMP quotient (equal VPs); IMP quotient 1.500")
    assert notes[("K3", "")] == "behind K1 on the IMP quotient (equal VPs); IMP quotient 0.900"
    assert tie_rule("wbf", rows) == (
        "Contestants with equal VPs are placed by the IMP quotient (profile wbf, "
        "imps.team_tiebreak = imp_quotient); those still level share the place."
    )
    # acbl: head to head first; K3 won their match 12.5 VP to 7.5
    matches = pl.DataFrame({"home": ["K3"], "away": ["K1"], "home_vp": [12.5], "away_vp": [7.5]})
    swapped = [team("K3", 1, 45), team("K1", 2, 45)]
    notes = tie_notes(swapped, "acbl", matches)
    assert notes[("K3", "")] == "ahead of K1 on the VPs of their match (equal VPs)"


def test_knockout_teams_level_on_imps_placed_by_the_imp_quotient():
    """A knockout ranks its teams in IMPs, and breaks their ties as teams do
    (``imps.team_tiebreak``): the page says so, not that ties are not broken (the pairs'
    ``ranking.tiebreak``, which placed nothing here)."""
    rows = [
        {**team("K1", 1, 15, "IMP quotient 6.000"), "unit": "IMP", "movement": "teams"},
        {**team("K3", 2, 15, "IMP quotient 1.750"), "unit": "IMP", "movement": "teams"},
    ]
    notes = tie_notes(rows, "wbf")
    assert notes[("K1", "")] == "ahead of K3 on the IMP quotient (equal IMPs); IMP quotient 6.000"
    assert tie_rule("wbf", rows) == (
        "Contestants with equal IMPs are placed by the IMP quotient (profile wbf, "
        "imps.team_tiebreak = imp_quotient); those still level share the place."
    )
    # Butler pairs in IMPs are pairs: the pairs' setting says how their ties are placed
    butler = [{**r, "movement": "howell", "tiebreak": None} for r in rows]
    assert "ranking.tiebreak" in (tie_rule("wbf", butler) or "")
