"""Board numbers that repeat from round to round: in a round robin or Swiss every round plays
boards 1..N with new deals, so a board of a team match is its event, session, **round** and
number (Law 86: the two tables of a match play the same board; another round's board 1 is
another deal). The same holds for pairs and individuals under a profile whose
``boards.redealt_per_round`` is set, when the round is given.

Figures by hand from the Law 78B scale (teams) and Law 78A (2 per result beaten, 1 per tie).
Board 1: nobody vulnerable; board 2: NS vulnerable (Law 2), whatever the round.
"""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from pipelines import profiles
from pipelines.inbox import scan
from pipelines.scoring.conservation import breaches
from pipelines.scoring.day import score_day
from pipelines.scoring.imp_standings import matches
from pipelines.scoring.rulings import validate_rulings
from pipelines.scoring.validate import validate_results

HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
# Round 1 (boards 1-2): T1-T2 at tables 1-2, T3-T4 at tables 3-4.
#   T1-T2 board 1: T1 NS 4S N = +420, T2 NS 2S N +2 +170: 250 -> T1 +6; board 2: both
#   +620 -> 0.  T3-T4: both boards flat.
# Round 2 (boards 1-2, new deals): T1-T3 at tables 1-2, T2-T4 at tables 3-4.
#   T1-T3 board 1: T1 NS 3NT N = +400, T3 NS 3NT N -1 -50: 450 -> T1 +10; board 2: T1 NS
#   passed out 0, T3 NS 1NT N = +90 (vul): -90 -> T1 -3.   T1 +7.  T2-T4: flat.
ROUND_1 = (
    "E,1,A,1,1,1,T1,T2,4S,N,10,420\n"
    "E,1,A,1,2,1,T2,T1,2S,N,10,170\n"
    "E,1,A,1,1,2,T1,T2,4S,N,10,620\n"
    "E,1,A,1,2,2,T2,T1,4S,N,10,620\n"
    "E,1,A,1,3,1,T3,T4,4S,N,10,420\n"
    "E,1,A,1,4,1,T4,T3,4S,N,10,420\n"
    "E,1,A,1,3,2,T3,T4,4S,N,10,620\n"
    "E,1,A,1,4,2,T4,T3,4S,N,10,620\n"
)
ROUND_2 = (
    "E,1,A,2,1,1,T1,T3,3NT,N,9,400\n"
    "E,1,A,2,2,1,T3,T1,3NT,N,8,-50\n"
    "E,1,A,2,1,2,T1,T3,PASS,,,0\n"
    "E,1,A,2,2,2,T3,T1,1NT,N,7,90\n"
    "E,1,A,2,3,1,T2,T4,4S,N,10,420\n"
    "E,1,A,2,4,1,T4,T2,4S,N,10,420\n"
    "E,1,A,2,3,2,T2,T4,4S,N,10,620\n"
    "E,1,A,2,4,2,T4,T2,4S,N,10,620\n"
)
# Round 3 (a double round robin meets T1-T2 again): board 1 T1 NS 4H N = +420, T2 NS 4H N
# -1 -50: 470 -> T1 +10; board 2 flat.
ROUND_3 = (
    "E,1,A,3,1,1,T1,T2,4H,N,10,420\n"
    "E,1,A,3,2,1,T2,T1,4H,N,9,-50\n"
    "E,1,A,3,1,2,T1,T2,4S,N,10,620\n"
    "E,1,A,3,2,2,T2,T1,4S,N,10,620\n"
)
TEAMS = "event_id,session,date,form,scoring,stage\nE,1,2026-11-20,teams,imps,round_robin\n"
RULINGS = (
    "ruling_id,event_id,session,round,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result\n"
)


def write_inbox(tmp_path: Path, results: str, events: str = TEAMS, rulings: str = "") -> Path:
    (tmp_path / "results-2026-11-20.csv").write_text(HEADER + results)
    (tmp_path / "events.csv").write_text(events)
    if rulings:
        (tmp_path / "rulings.csv").write_text(RULINGS + rulings)
    return tmp_path


def load(tmp_path: Path, results: str, events: str = TEAMS, rulings: str = ""):
    snap = scan(write_inbox(tmp_path, results, events, rulings))
    v, rejected = validate_results(snap.results, snap.events)
    return snap, v, rejected


def score(tmp_path: Path, results: str, rulings: str = "", events: str = TEAMS):
    snap = scan(write_inbox(tmp_path, results, events, rulings))
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    assert day.rejected.height == 0, day.rejected.to_dicts()
    assert day.rulings.rejected.height == 0, day.rulings.rejected.to_dicts()
    return day.dated


def t1_net(res, rnd: int) -> float:
    ms = matches(res.scored).filter(pl.col("round") == rnd)
    m = ms.filter((pl.col("home") == "T1") | (pl.col("away") == "T1")).row(0, named=True)
    return m["home_net"] if m["home"] == "T1" else m["away_net"]


def test_every_round_plays_boards_1_to_n_with_new_deals(tmp_path):
    res = score(tmp_path, ROUND_1 + ROUND_2)
    assert res.scored.height == 16  # nothing rejected
    assert (t1_net(res, 1), t1_net(res, 2)) == (6, 7)
    # each round's board 1 is its own deal: IMPed within its match only
    b1 = res.scored.filter((pl.col("board") == 1) & (pl.col("ns_pair") == "T1"))
    assert dict(zip(b1["round"], b1["ns_imps"], strict=True)) == {1: 6, 2: 10}
    assert sorted(res.scored["deal_round"].unique().to_list()) == [1, 2]
    assert breaches(res.scored).height == 0


def test_a_second_result_in_the_same_round_is_still_refused(tmp_path):
    again = "E,1,A,1,5,1,T1,T4,4S,N,10,420\n"  # T1 NS on round 1's board 1 a second time
    _, _, rejected = load(tmp_path, ROUND_1 + ROUND_2 + again)
    # a different result from T1 NS's at table 1 (line 2) and T4 EW's at table 3 (line 6):
    # nothing says which is right, so all three are refused
    assert sorted(rejected["location"]) == ["line 18", "line 2", "line 6"]
    assert (rejected["field"] == "result").all()
    assert "pair T1 has two different results on board 1 of round 1 of this session" in (
        rejected.filter(pl.col("location") == "line 2")["reason"].item()
    )


def test_without_the_round_the_boards_cannot_be_told_apart(tmp_path):
    no_round = "".join(
        ",".join(p if i != 3 else "" for i, p in enumerate(line.split(","))) + "\n"
        for line in (ROUND_1 + ROUND_2).splitlines()
    )
    _, _, rejected = load(tmp_path, no_round)
    assert rejected.height > 0
    assert (
        rejected["reason"]
        .str.contains("already has a result on board|has two different results on board")
        .all()
    )


def test_a_ruling_names_a_table_met_once_without_the_round(tmp_path):
    # T1 (NS) v T3 (EW) meet only in round 2: the ruling needs no round; artificial A+/A-
    # at table 1 of round 2's board 1 decides it, +3 / -3 (Law 12C2(b)); round 1's board 1
    # (T1-T2, +6) is untouched
    res = score(tmp_path, ROUND_1 + ROUND_2, "R1,E,1,,1,T1,T3,artificial,EW,A+,A-\n")
    b1 = res.scored.filter((pl.col("board") == 1) & (pl.col("ns_pair") == "T1"))
    assert dict(zip(b1["round"], b1["ns_imps"], strict=True)) == {1: 6, 2: 3}
    assert res.scored.filter(pl.col("adjustment").is_not_null())["round"].to_list() == [2]


def test_a_ruling_on_a_table_met_in_two_rounds_must_give_the_round(tmp_path):
    snap, v, _ = load(
        tmp_path, ROUND_1 + ROUND_2 + ROUND_3, rulings="R1,E,1,,1,T1,T2,assigned,NS,4H N -1,\n"
    )
    rul = validate_rulings(snap.rulings, snap.appeals, v, snap.events)
    assert rul.rulings.height == 0
    bad = rul.rejected.row(0, named=True)
    assert bad["field"] == "round" and bad["location"] == "line 2"
    assert "played a board 1 in rounds 1, 3 of this session" in bad["reason"]
    assert "give the round" in bad["reason"]


def test_a_ruling_with_the_round_changes_that_round_only(tmp_path):
    # round 3, board 1: assigned 4H N -1 (-50) at table 1; table 2 also -50: 0 IMPs. Round
    # 1's board 1 between the same teams keeps its +6.
    res = score(tmp_path, ROUND_1 + ROUND_2 + ROUND_3, "R1,E,1,3,1,T1,T2,assigned,NS,4H N -1,\n")
    b1 = res.scored.filter((pl.col("board") == 1) & (pl.col("ns_pair") == "T1"))
    assert dict(zip(b1["round"], b1["ns_imps"], strict=True)) == {1: 6, 2: 10, 3: 0}
    adj = res.adjustments.filter(pl.col("role") == "table")
    assert set(adj["deal_round"].to_list()) == {3}


def test_a_ruling_naming_a_round_the_table_did_not_play_is_refused(tmp_path):
    snap, v, _ = load(tmp_path, ROUND_1 + ROUND_2, rulings="R1,E,1,2,1,T1,T2,assigned,NS,+420,\n")
    rul = validate_rulings(snap.rulings, snap.appeals, v, snap.events)
    assert "round 2: unknown table or board" in rul.rejected["reason"].item()


# ------------------------------------------------------------------ pairs re-dealt per round


@pytest.fixture
def redeal_profile(tmp_path, monkeypatch):
    """A profile ``redeal``: wbf with ``boards.redealt_per_round = true``."""
    folder = tmp_path / "profiles"
    shutil.copytree(profiles.PROFILE_DIR, folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    text = (
        (folder / "wbf.toml")
        .read_text()
        .replace("redealt_per_round = false", "redealt_per_round = true")
    )
    (folder / "redeal.toml").write_text(text)
    monkeypatch.setattr(profiles, "PROFILE_DIR", folder)
    profiles.load.cache_clear()
    yield "redeal"
    profiles.load.cache_clear()


# Six pairs, three tables, two rounds, each round its own board 1 (nobody vulnerable).
# Round 1: 1-2 +420, 3-4 +400, 5-6 +450.  NS: 1 beats 400: 2; 3: 0; 5: 4.  EW: 2: 2, 4: 4, 6: 0.
# Round 2: 1-4 +110, 3-6 +110, 5-2 -50.   NS: 1 beats -50, ties 110: 3; 3: 3; 5: 0.
#                                          EW: 4: 1, 6: 1, 2: 4.
# Totals (top 4 a board, 8 in all): 1: 5, 2: 6, 3: 3, 4: 5, 5: 4, 6: 1.
PAIRS = (
    "P,1,A,1,1,1,1,2,4S,N,10,420\n"
    "P,1,A,1,2,1,3,4,3NT,N,9,400\n"
    "P,1,A,1,3,1,5,6,4S,N,11,450\n"
    "P,1,A,2,1,1,1,4,2S,N,8,110\n"
    "P,1,A,2,2,1,3,6,2S,N,8,110\n"
    "P,1,A,2,3,1,5,2,2S,N,7,-50\n"
)


def pairs_events(profile: str) -> str:
    return (
        f"event_id,session,date,form,scoring,profile\nP,1,2026-11-20,pairs,matchpoints,{profile}\n"
    )


def test_pairs_under_a_profile_that_redeals_each_round(tmp_path, redeal_profile):
    res = score(tmp_path, PAIRS, events=pairs_events(redeal_profile))
    st = res.standings.filter(pl.col("scope") == "session")
    got = dict(zip(st["contestant"], st["score"], strict=True))
    assert got == {"1": 5, "2": 6, "3": 3, "4": 5, "5": 4, "6": 1}
    assert st.filter(pl.col("contestant") == "1")["percentage"].item() == 62.5
    assert breaches(res.scored).height == 0


def test_pairs_without_that_profile_play_a_board_once(tmp_path):
    _, _, rejected = load(tmp_path, PAIRS, pairs_events("wbf"))
    # round 2's board 1 is round 1's board 1 for every pair, each with another result:
    # all six results are refused (nothing says which of a pair's two is right)
    assert rejected.height == 6
    assert (rejected["field"] == "result").all()
    assert any(
        r.startswith("pair 1 has two different results on board 1 of this session")
        for r in rejected["reason"]
    )
