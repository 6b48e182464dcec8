"""Individual events (Law 89): four players per table, each player receives his side's
score; an adjusted score applies equally to both members of a side; a procedural penalty
can name the one responsible player only."""

from __future__ import annotations

from datetime import datetime

import polars as pl

from pipelines.inbox import scan
from pipelines.scoring.day import score_day

RESULTS = """event_id,session,board,north,south,east,west,contract,declarer,tricks,score
I1,1,1,P1,P2,P3,P4,4S,N,10,420
I1,1,1,P5,P6,P7,P8,4S,N,9,-50
I1,1,1,P9,P10,P11,P12,3NT,S,9,400
I1,1,2,P1,P3,P2,P5,2H,E,8,-110
I1,1,2,P4,P6,P9,P8,2H,E,9,-140
I1,1,2,P7,P10,P11,P12,PASS,,,0
"""
EVENTS = "event_id,session,date,form,scoring\nI1,1,2026-11-20,individual,matchpoints\n"


def session(tmp_path, rulings: str | None = None, extra: str = ""):
    (tmp_path / "results-2026-11-20.csv").write_text(RESULTS + extra)
    (tmp_path / "events.csv").write_text(EVENTS)
    if rulings:
        (tmp_path / "rulings.csv").write_text(rulings)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    rejected, checked = day.rejected, day.rulings
    assert checked.rejected.height == 0, checked.rejected.to_dicts()
    res = day.dated
    return res, rejected


def score_of(standings: pl.DataFrame, player: str) -> float:
    return standings.filter(pl.col("contestant") == player)["score"].item()


def test_each_player_gets_his_side_score(tmp_path):
    res, rejected = session(tmp_path)
    assert rejected.height == 0
    st = res.standings
    assert st.height == 12 and st["direction"].null_count() == 12  # one field of players
    # board 1: 420 beats -50 and 400 (4 MP), board 2 NS -110 beats -140 and loses to 0 (2 MP)
    assert score_of(st, "P1") == 4 + 2
    assert score_of(st, "P2") == 4 + (4 - 2)  # P2 sat EW with P5 on board 2
    assert score_of(st, "P3") == 0 + 2  # EW on board 1 against 420 (0), NS with P1 on board 2
    assert score_of(st, "P12") == 2 + 0  # EW on both boards: vs 400 (2 MP), vs PASS (0)
    assert set(st["boards"].to_list()) == {2}  # every player played both boards


def test_an_adjusted_score_applies_to_both_members_of_the_side(tmp_path):
    rulings = (
        "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result\n"
        "R1,I1,1,1,P5/P6,P7/P8,assigned,EW,+450\n"
    )
    plain, _ = session(tmp_path)
    res, _ = session(tmp_path, rulings)
    table = res.adjustments.filter(pl.col("role") == "table").sort("contestant")
    assert table["contestant"].to_list() == ["P5", "P6", "P7", "P8"]
    after = dict(zip(table["contestant"], table["score_after"], strict=True))
    assert after["P5"] == after["P6"] == 4  # +450 is now the top for both NS players
    assert after["P7"] == after["P8"] == 0  # and the bottom for both EW players
    gain = {
        p: score_of(res.standings, p) - score_of(plain.standings, p)
        for p in ("P5", "P6", "P7", "P8")
    }
    assert gain["P5"] == gain["P6"] == 4 and gain["P7"] == gain["P8"] == -4


def test_a_procedural_penalty_names_one_player(tmp_path):
    plain, _ = session(tmp_path)
    rulings = (
        "ruling_id,event_id,session,kind,offending,penalized,penalty\n"
        "P1,I1,1,procedural_penalty,NS,P1,25%\n"
    )
    pen, _ = session(tmp_path, rulings)
    a = plain.standings.select("contestant", "score")
    b = pen.standings.select("contestant", "score")
    changed = a.join(b, on="contestant", suffix="_p").filter(pl.col("score") != pl.col("score_p"))
    assert changed["contestant"].to_list() == ["P1"]  # not P2, P1's partner on board 1


def test_a_player_plays_each_board_once(tmp_path):
    _, rejected = session(tmp_path, extra="I1,1,2,P12,P13,P14,P1,PASS,,,0\n")
    assert "player P1 already has a result on board 2" in rejected["reason"].item()


def test_individual_at_butler_each_player_gets_his_side_imps(tmp_path):
    # Butler (profile wbf: ACBL datum, 5 % of 3 results trims none, mean rounded to 10):
    # board 1: 420, -50, 400 -> mean 256.7 -> datum 260; NS at 420 (P1, P2) +160 -> +4 IMPs
    # board 2: -110, -140, 0 -> mean -83.3 -> datum -80; P1 (N) at -110: -30 -> -1 IMP;
    # P2 (E) there: +1.  P1: 4 - 1 = 3; P2: 4 + 1 = 5.
    (tmp_path / "results-2026-11-20.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(EVENTS.replace("matchpoints", "butler"))
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    rejected = day.rejected
    assert rejected.height == 0
    res = day.dated
    st = res.standings
    assert set(st["unit"].to_list()) == {"IMP"}
    assert score_of(st, "P1") == 3 and score_of(st, "P2") == 5
    assert res.scored.filter(pl.col("board") == 1)["datum"].unique().to_list() == [260]
