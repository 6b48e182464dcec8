"""Team events at IMPs through the engine (Laws 78B, 12C2(b), 86): match boards, VPs,
adjusted scores IMPed component by component, Law 86C in knockouts, carry-over, penalties.

Every expected figure is worked by hand from the Law 78B scale in the comments.
Board 1: nobody vulnerable; board 2: NS vulnerable (Law 2).
"""

from __future__ import annotations

from datetime import datetime

import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.scoring.day import score_day
from pipelines.scoring.imp_standings import matches

HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
# One round of two matches, T1-T2 (tables 1, 2) and T3-T4 (tables 3, 4), boards 1-2.
RESULTS = HEADER + (
    # T1 NS at table 1: 4S= +420; T2 NS at table 2: 2S+2 +170 -> T1 +250 -> +6
    "E,1,A,1,1,1,T1,T2,4S,N,10,420\n"
    "E,1,A,1,2,1,T2,T1,2S,N,10,170\n"
    # board 2 (NS vul): T1 NS 3NT S -1 -100; T2 NS 4S N = +620 -> T1 -720 -> -12
    "E,1,A,1,1,2,T1,T2,3NT,S,8,-100\n"
    "E,1,A,1,2,2,T2,T1,4S,N,10,620\n"
    # T3-T4: board 1 both 4S= +420 -> 0; board 2 T3 NS 4S= +620, T4 NS 4S-1 -100 -> +12
    "E,1,A,1,3,1,T3,T4,4S,N,10,420\n"
    "E,1,A,1,4,1,T4,T3,4S,N,10,420\n"
    "E,1,A,1,3,2,T3,T4,4S,N,10,620\n"
    "E,1,A,1,4,2,T4,T3,4S,N,9,-100\n"
)
EVENTS = (
    "event_id,session,date,form,scoring,boards_per_match,vp_scale,stage\n"
    "E,1,2026-11-20,teams,imps,2,wbf2013,{stage}\n"
)
RULING_HEADER = (
    "ruling_id,event_id,session,round,board,ns_pair,ew_pair,kind,offending,"
    "ns_result,ew_result,penalized,penalty\n"
)


def run(
    tmp_path,
    rulings: str = "",
    stage: str = "round_robin",
    results: str = RESULTS,
    header: str = RULING_HEADER,
):
    (tmp_path / "results-2026-11-20.csv").write_text(results)
    (tmp_path / "events.csv").write_text(EVENTS.format(stage=stage))
    if rulings:
        (tmp_path / "rulings.csv").write_text(header + rulings)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    rejected, checked = day.rejected, day.rulings
    assert rejected.height == 0, rejected.to_dicts()
    assert checked.rejected.height == 0, checked.rejected.to_dicts()
    res = day.dated
    return res


def board(res, table: int, b: int) -> dict:
    return res.scored.filter((pl.col("table") == table) & (pl.col("board") == b)).row(0, named=True)


def match(res, team: str) -> dict:
    ms = matches(res.scored)
    return ms.filter((pl.col("home") == team) | (pl.col("away") == team)).row(0, named=True)


def test_imps_per_board_and_match_totals(tmp_path):
    res = run(tmp_path)
    assert (board(res, 1, 1)["ns_imps"], board(res, 1, 1)["ew_imps"]) == (6, -6)
    assert (board(res, 2, 1)["ns_imps"], board(res, 2, 1)["ew_imps"]) == (-6, 6)
    assert board(res, 1, 2)["ns_imps"] == -12
    m = match(res, "T1")
    # T1: +6 -12 = -6 net; IMPs won 6, lost 12
    assert (m["home"], m["away"], m["boards"]) == ("T1", "T2", 2)
    assert (m["home_imps"], m["away_imps"], m["home_net"], m["away_net"]) == (6, 12, -6, 6)
    # WBF 2013 continuous scale, 2 boards (blitz 15 x sqrt 2 = 21.2): a 6-IMP margin
    # 10 + 10 (1 - 0.236068^(6/21.213)) / (1 - 0.236068) = 14.388 -> 14.39 to T2, 5.61 to T1
    assert (m["home_vp"], m["away_vp"]) == (5.61, 14.39)
    assert m["winner"] == "T2"
    m2 = match(res, "T3")
    assert (m2["home_net"], m2["winner"]) == (12, "T3")
    st = res.standings.filter(pl.col("scope") == "session").sort("rank")
    assert st["contestant"].to_list()[0] == "T3" and st["unit"].to_list() == ["VP"] * 4
    assert st["percentage"].null_count() == 4


def test_artificial_scores_at_teams_are_plus_minus_three_imps(tmp_path):
    # Law 12C2(b): Av+ = +3 IMPs to T1 (NS at table 1), Av- = -3 to T2, whatever table 2 did
    res = run(tmp_path, "R1,E,1,1,1,T1,T2,artificial,EW,A+,A-,,\n")
    b = board(res, 1, 1)
    assert (b["ns_imps"], b["ew_imps"]) == (3, -3)
    assert (board(res, 2, 1)["ns_imps"], board(res, 2, 1)["ew_imps"]) == (-3, 3)
    # the adjustments table shows the change in IMPs: T1 had +6 on the board, now +3
    adj = res.adjustments.filter(pl.col("contestant") == "T1").row(0, named=True)
    assert (adj["unit"], adj["score_before"], adj["score_after"], adj["change"]) == (
        "IMP",
        6,
        3,
        -3,
    )
    assert adj["mp_change"] is None and adj["percentage_points"] is None


def test_weighted_score_is_imped_component_by_component(tmp_path):
    # Law 12C1(c): board 2 table 1 becomes 60 % 4S N = (+620) and 40 % 4S N -1 (-100);
    # table 2 (NS vul) +620: +620-620 = 0 -> 0 IMPs; -100-620 = -720 -> -12 IMPs;
    # 0.6 x 0 + 0.4 x -12 = -4.8 IMPs (the IMPs of the weighted score, 332-620 = -288,
    # would be -7: never that)
    res = run(tmp_path, "R1,E,1,1,2,T1,T2,weighted,EW,60% 4S N =; 40% 4S N -1,,,\n")
    assert board(res, 1, 2)["ns_imps"] == pytest.approx(-4.8)
    assert board(res, 1, 2)["ns_imps_num"] * 10 == -48 * board(res, 1, 2)["imps_den"]


SPLIT = "R1,E,1,1,1,T1,T2,assigned,EW,4S N =,4S N +2,,\n"


def test_split_score_outside_a_knockout_each_team_keeps_its_own(tmp_path):
    # Law 12C1(b) split at table 1 of board 1: T1 (NS) +420, T2 (EW) as if +480 (4S+2).
    # T1's view: 420 - 170 = 250 -> +6; T2's: 170 - 480 = -310 -> -7. Not zero-sum.
    res = run(tmp_path, SPLIT)
    b = board(res, 1, 1)
    assert (b["ns_imps"], b["ew_imps"]) == (6, -7)


def test_split_score_in_a_knockout_both_get_the_average(tmp_path):
    # Law 86C (2017) / 86B (2007): the average of the two views, (6 + 7) / 2 = 6.5 to T1,
    # -6.5 to T2
    res = run(tmp_path, SPLIT, stage="knockout")
    b = board(res, 1, 1)
    assert (b["ns_imps"], b["ew_imps"]) == (6.5, -6.5)
    m = match(res, "T1")
    assert m["home_vp"] is None and m["home_net"] + m["away_net"] == 0


def test_procedural_penalty_in_imps_comes_off_the_offending_team_only(tmp_path):
    # Law 90: 3 IMPs off T3's match margin (+12 -> +9); T4 keeps its -12
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = run(tmp_path / "a")
    pen = run(tmp_path / "b", "P1,E,1,1,,,,procedural_penalty,NS,,,T3,3 IMP\n")
    assert matches(pen.scored).filter(pl.col("home") == "T3")["home_net"].item() == 12
    st0 = plain.standings.filter(pl.col("scope") == "session")
    st1 = pen.standings.filter(pl.col("scope") == "session")
    both = st0.join(st1, on="contestant", suffix="_p")
    changed = both.filter(pl.col("score") != pl.col("score_p"))["contestant"].to_list()
    assert changed == ["T3"]


def knockout_matches(tmp_path, segment1: list[str]) -> pl.DataFrame:
    """The matches the pipeline scores from a knockout of two segments: the result lines
    ``segment1`` (session 1) played again as session 2, same rounds and teams."""
    segment2 = [line.replace("E,1,", "E,2,", 1) for line in segment1]
    (tmp_path / "results-2026-11-20.csv").write_text(HEADER + "".join(segment1 + segment2))
    (tmp_path / "events.csv").write_text(
        "event_id,session,date,form,scoring,boards_per_match,vp_scale,stage\n"
        "E,1,2026-11-20,teams,imps,2,none,knockout\n"
        "E,2,2026-11-20,teams,imps,2,none,knockout\n"
    )
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    return matches(day.dated.scored)


def test_knockout_carry_over_between_segments(tmp_path):
    # a knockout match of two segments (sessions 1 and 2, same round and teams): the
    # second segment carries the first one's net IMPs forward
    both = knockout_matches(tmp_path, RESULTS.splitlines(keepends=True)[1:])
    ms = both.filter(pl.col("home") == "T1").sort("session")
    # segment 1: T1 -6; segment 2 starts at -6 and ends at -12: T2 leads throughout
    assert ms["home_carry_over"].to_list() == [0, -6]
    assert ms["winner"].to_list() == ["T2", "T2"]


def test_fouled_board_played_in_two_versions_counts_as_without_result(tmp_path):
    # Law 87: table 1 played board 1 in version B, table 2 the original: no comparison is
    # possible; each team gets the profile's missing-board score (wbf: Av = 0 IMPs)
    fouled = "R1,E,1,1,1,T1,T2,fouled_board,none,,,,,B\n"
    res = run(tmp_path, fouled, header=RULING_HEADER.rstrip("\n") + ",board_version\n")
    b = board(res, 1, 1)
    assert (b["ns_imps"], b["ew_imps"], b["missing_result"]) == (0, 0, True)
    assert match(res, "T1")["missing_boards"] == 1
    assert board(res, 3, 1)["missing_result"] is False  # the other match is untouched


def test_teams_level_on_vps_are_separated_by_imp_quotient():
    # profile wbf: team_tiebreak = imp_quotient. A and B both have 25.00 VPs; A won 40 IMPs
    # and lost 20 (quotient 2.0), B won 30 and lost 25 (1.2): A above B; C (20 VPs) third.
    from pipelines.scoring.imp_forms import TEAMS_DEN
    from pipelines.scoring.imp_standings import rank_by_score

    totals = pl.DataFrame(
        {
            "event_id": ["E"] * 3,
            "session": [1] * 3,
            "section": ["A"] * 3,
            "dir_key": [""] * 3,
            "contestant": ["B", "A", "C"],
            "score_num": [2500, 2500, 2000],
            "score_den": [100] * 3,
            "penalty_num": [0] * 3,
            "penalty_den": [1] * 3,
            "profile": ["wbf"] * 3,
            "__won": [30 * TEAMS_DEN, 40 * TEAMS_DEN, 10 * TEAMS_DEN],
            "__lost": [25 * TEAMS_DEN, 20 * TEAMS_DEN, 10 * TEAMS_DEN],
        }
    )
    ms = pl.DataFrame({"event_id": ["E"], "home": ["A"], "away": ["C"], "home_vp": [15.0]})
    ranked = rank_by_score(totals, ["event_id", "session", "section", "dir_key"], ms).sort("rank")
    assert ranked["contestant"].to_list() == ["A", "B", "C"]
    assert ranked["rank"].to_list() == [1, 2, 3]
    assert ranked["tied"].to_list() == [False, False, False]
    assert ranked["tiebreak"].to_list()[:2] == ["IMP quotient 2.000", "IMP quotient 1.200"]


def test_knockout_carry_over_stays_within_its_section(tmp_path):
    """Two sections play the same knockout pairing (teams T1 and T2 in each, two segments):
    each match carries its own first segment forward — T1 of section A starts segment 2 at
    −6, T1 of section B (who won its first segment by 6) at +6 — never the other section's.
    (The carry-over was summed over both sections' segments.)"""
    t1_t2 = RESULTS.splitlines(keepends=True)[1:5]  # section A's T1-T2 match, segment 1
    mirrored = [
        line.replace("E,1,A,", "E,1,B,").replace("T1", "Tx").replace("T2", "T1").replace("Tx", "T2")
        for line in t1_t2
    ]
    ms = knockout_matches(tmp_path, t1_t2 + mirrored)
    for section, margin in (("A", -6), ("B", 6)):
        m = ms.filter(pl.col("section") == section).sort("session")
        t1_home = [h == "T1" for h in m["home"].to_list()]
        # the carry-over in T1's view: the home team's, or the away team's
        carry = [
            (c if home else -c)
            for c, home in zip(m["home_carry_over"].to_list(), t1_home, strict=True)
        ]
        assert carry == [0, margin], (section, m.to_dicts())
