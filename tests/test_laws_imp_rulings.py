"""Rulings at IMP forms that go through the general machinery: weighted scores in fractions
at Butler (Law 12C1(c): score each component, then weight), the same refused at teams (a
team's board figure is exact over a fixed denominator only with whole percentages), an IMP
award changed on appeal (2007 Law 86D, Laws 92-93), a suspension from a round at Butler
pairs (Law 91A). Every figure is worked by hand from the Law 78B IMP scale."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

import polars as pl

from pipelines.inbox import scan
from pipelines.scoring.day import score_day

HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
RULINGS = (
    "ruling_id,event_id,session,round,board,ns_pair,ew_pair,kind,offending,laws,"
    "ns_result,ew_result,penalized,penalty,ruled_at\n"
)
APPEALS = "appeal_id,ruling_id,lodged_at,heard_by,decided_at,outcome,ns_result,ew_result\n"

NOW = datetime(2026, 11, 30)


def scored(tmp_path, results: str, events: str, rulings: str, appeals: str = ""):
    (tmp_path / "results-2026-11-20.csv").write_text(HEADER + results)
    (tmp_path / "events.csv").write_text(events)
    (tmp_path / "rulings.csv").write_text(RULINGS + rulings)
    if appeals:
        (tmp_path / "appeals.csv").write_text(APPEALS + appeals)
    snap = scan(tmp_path)
    day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
    assert day.rejected.height == 0, day.rejected.to_dicts()
    return snap, day


def checked(tmp_path, results: str, events: str, rulings: str, appeals: str = ""):
    snap, day = scored(tmp_path, results, events, rulings, appeals)
    return snap, day.validated, day.rulings


def run(tmp_path, results: str, events: str, rulings: str, appeals: str = ""):
    _, day = scored(tmp_path, results, events, rulings, appeals)
    rul = day.rulings
    assert rul.rejected.height == 0, rul.rejected.to_dicts()
    return day.dated


BUTLER = "event_id,session,date,form,scoring,movement\nB,1,2026-11-20,pairs,butler,mitchell\n"
# board 1 (none vul): three tables +420, +420, +450 and table 4 (pairs 4 v 4) +100.
BOARD = (
    "B,1,A,1,1,1,1,1,4S,N,10,420\n"
    "B,1,A,1,2,1,2,2,4S,N,10,420\n"
    "B,1,A,1,3,1,3,3,4S,N,11,450\n"
    "B,1,A,1,4,1,4,4,1NT,N,7,90\n"
)


def test_butler_weighted_in_thirds(tmp_path):
    """Datum: the played results +420, +420, +450 (the adjusted table has none) average 430;
    1/3 of 4S N +1 (+450: 20 over the datum, 1 IMP) and 2/3 of 4S N -1 (-50: 480 under it,
    -10 IMPs) give 1/3 - 20/3 = -19/3 IMPs."""
    rul = "R1,B,1,1,1,4,4,weighted,EW,16B1,1/3 4S N +1; 2/3 4S N -1,,,,2026-11-20 20:00\n"
    res = run(tmp_path, BOARD, BUTLER, rul)
    r = res.scored.filter(pl.col("ns_pair") == "4").row(0, named=True)
    assert r["datum"] == 430
    assert Fraction(r["ns_imps_num"], r["imps_den"]) == Fraction(-19, 3)
    assert Fraction(r["ew_imps_num"], r["imps_den"]) == Fraction(19, 3)


def test_butler_suspension_from_a_round(tmp_path):
    """Pair 1 NS suspended from round 2: its round-2 board does not count for it."""
    two = BOARD + (
        "B,1,A,2,1,2,1,2,3NT,N,9,400\n"
        "B,1,A,2,2,2,2,3,3NT,N,9,400\n"
        "B,1,A,2,3,2,3,4,3NT,N,10,430\n"
        "B,1,A,2,4,2,4,1,3NT,N,8,-50\n"
    )
    rul = "D1,B,1,2,,,,disciplinary_penalty,NS,91A,,,1NS,suspended,2026-11-20 21:00\n"
    st = run(tmp_path, two, BUTLER, rul).standings
    one = st.filter((pl.col("contestant") == "1") & (pl.col("direction") == "NS")).row(
        0, named=True
    )
    assert one["sanction"] == "suspended from round 2" and one["boards"] == 1
    # board 1 only: the four results average 345, a final 5 rounded to even under the ACBL
    # convention: datum 340; +420 is 80 over it: 2 IMPs
    assert one["score"] == 2


TEAMS = "event_id,session,date,form,scoring,stage\nE,1,2026-11-20,teams,imps,round_robin\n"
MATCH = (
    "E,1,A,1,1,1,T1,T2,4S,N,10,420\n"
    "E,1,A,1,2,1,T2,T1,2S,N,10,170\n"
    "E,1,A,1,1,2,T1,T2,4S,N,10,620\n"
    "E,1,A,1,2,2,T2,T1,4S,N,10,620\n"
)


def test_teams_weights_are_whole_percentages(tmp_path):
    rul = "R1,E,1,1,1,T1,T2,weighted,EW,16B1,1/3 4S N =; 2/3 4S N -1,,,,2026-11-20 20:00\n"
    _, _, res = checked(tmp_path, MATCH, TEAMS, rul)
    assert "whole percentages" in res.rejected["reason"].item()


def test_an_imp_award_changed_on_appeal(tmp_path):
    """The director awarded T1 +3 IMPs on board 1; the committee changes it to +5."""
    rul = "R1,E,1,1,1,T1,T2,imp_award,EW,86D,+3 IMP,,,,2026-11-20 20:00\n"
    app = "A1,R1,2026-11-20 22:00,committee,2026-11-21 10:00,changed,+5 IMP,\n"
    res = run(tmp_path, MATCH, TEAMS, rul, app)
    b1 = res.scored.filter((pl.col("board") == 1) & (pl.col("ns_pair") == "T1")).row(0, named=True)
    assert b1["ns_imps"] == 5 and b1["ew_imps"] == -5
    assert res.standings["version"].max() == 2
