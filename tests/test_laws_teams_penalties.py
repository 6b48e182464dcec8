"""Procedural penalties at teams (Law 90): an IMP penalty comes off the penalised team's
match in full; in a knockout the margin is the boards' margin less each team's own
penalties; a VP penalty in a knockout (which has no VPs) is refused; the standings say the
unit of their penalty column.

Every expected figure is worked by hand in the comments from the Law 78B scale and, for
VPs, from the WBF 2013 continuous 12-board table (``../shared/domain/vectors.json``,
``vp_wbf_continuous``: 9 IMPs -> 12.90, 12 IMPs -> 13.71, loser 20 - winner).
Board 1: nobody vulnerable; board 2: NS vulnerable (Law 2).
"""

from __future__ import annotations

from datetime import datetime

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.inbox import scan
from pipelines.scoring.day import score_day
from pipelines.scoring.imp_forms import TEAMS_DEN
from pipelines.scoring.imp_standings import matches
from pipelines.scoring.standings import PENALTIES_SCHEMA
from pipelines.scoring.versions import penalties_frame

HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
# T1-T2 (tables 1, 2):
#   board 1: T1 NS 4S N = +420, T2 NS 2S N +2 +170: 420 - 170 = 250 -> T1 +6
#   board 2 (NS vul): T1 NS 3NT S -1 -100; at table 2 T1 (EW) 2S E -1, NS +50:
#            -100 - 50 = -150 -> T1 -4.               T1 leads the match by 6 - 4 = 2 IMPs.
# T3-T4 (tables 3, 4): board 1 both +420 -> 0; board 2 T3 NS 4S N = +620, T4 NS 4S N -1
#   -100: 620 + 100 = 720 -> T3 +12.
RESULTS = HEADER + (
    "E,1,A,1,1,1,T1,T2,4S,N,10,420\n"
    "E,1,A,1,2,1,T2,T1,2S,N,10,170\n"
    "E,1,A,1,1,2,T1,T2,3NT,S,8,-100\n"
    "E,1,A,1,2,2,T2,T1,2S,E,7,50\n"
    "E,1,A,1,3,1,T3,T4,4S,N,10,420\n"
    "E,1,A,1,4,1,T4,T3,4S,N,10,420\n"
    "E,1,A,1,3,2,T3,T4,4S,N,10,620\n"
    "E,1,A,1,4,2,T4,T3,4S,N,9,-100\n"
)
RULING_HEADER = "ruling_id,event_id,session,round,kind,offending,penalized,penalty\n"

NOW = datetime(2026, 11, 30)


def events(stage: str, vp_scale: str) -> str:
    return (
        "event_id,session,date,form,scoring,boards_per_match,vp_scale,stage\n"
        f"E,1,2026-11-20,teams,imps,12,{vp_scale},{stage}\n"
    )


def scored(tmp_path, rulings: str, stage: str, vp_scale: str):
    (tmp_path / "results-2026-11-20.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(events(stage, vp_scale))
    if rulings:
        (tmp_path / "rulings.csv").write_text(RULING_HEADER + rulings)
    snap = scan(tmp_path)
    day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
    assert day.rejected.height == 0, day.rejected.to_dicts()
    return snap, day


def checked(tmp_path, rulings: str, stage: str, vp_scale: str):
    snap, day = scored(tmp_path, rulings, stage, vp_scale)
    return snap, day.validated, day.rulings


def run(tmp_path, rulings: str = "", stage: str = "round_robin", vp_scale: str = "wbf2013"):
    _, day = scored(tmp_path, rulings, stage, vp_scale)
    rul = day.rulings
    assert rul.rejected.height == 0, rul.rejected.to_dicts()
    res = day.dated
    return res, rul


def knockout(tmp_path, rulings: str = ""):
    res, rul = run(tmp_path, rulings, stage="knockout", vp_scale="none")
    return matches(res.scored, penalties_frame(rul.rulings, res.scored)), res


def match_of(ms: pl.DataFrame, team: str) -> dict:
    return ms.filter((pl.col("home") == team) | (pl.col("away") == team)).row(0, named=True)


def session_row(res, team: str) -> dict:
    st = res.standings.filter((pl.col("scope") == "session") & (pl.col("contestant") == team))
    return st.row(0, named=True)


def test_knockout_imp_penalty_comes_off_in_full_and_turns_the_match(tmp_path):
    # Without penalty T1 leads by 2 and wins.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain, _ = knockout(tmp_path / "a")
    m = match_of(plain, "T1")
    assert (m["home"], m["home_net"], m["away_net"], m["winner"]) == ("T1", 2, -2, "T1")
    # Law 90: 3 IMPs off T1's side in full: 2 - 3 = -1, T2 wins by 1. (Halving the
    # penalty would leave T1 ahead by 0.5 and give it the match.)
    ms, res = knockout(tmp_path / "b", "P1,E,1,1,procedural_penalty,NS,T1,3 IMP\n")
    m = match_of(ms, "T1")
    assert m["winner"] == "T2"
    assert (m["home_net"], m["away_net"]) == (-1, -2)  # T2's own figure is untouched
    assert (m["home_penalties"], m["away_penalties"]) == (3, 0)
    assert (m["home_imps"], m["away_imps"]) == (6, 4)  # IMPs won on the boards, as played
    # knockout standings are net IMPs; the penalty column says 3 IMPs
    t1, t2 = session_row(res, "T1"), session_row(res, "T2")
    assert (t1["unit"], t1["score"], t1["penalties"], t1["penalty_unit"]) == ("IMP", -1, 3, "IMP")
    assert (t2["score"], t2["penalties"]) == (-2, 0)
    assert t1["vp_penalties"] is None  # a knockout has no VPs


def test_knockout_penalties_on_both_teams_each_come_off_its_own_side(tmp_path):
    # T1 +2 on the boards; T1 penalised 3 and T2 penalised 2: margin 2 - 3 + 2 = +1, T1 wins
    ms, _ = knockout(
        tmp_path,
        "P1,E,1,1,procedural_penalty,NS,T1,3 IMP\nP2,E,1,1,procedural_penalty,EW,T2,2 IMP\n",
    )
    m = match_of(ms, "T1")
    assert (m["home_net"], m["away_net"], m["winner"]) == (-1, -4, "T1")


def test_knockout_penalty_carries_into_the_next_segment(tmp_path):
    # Segment 1 as above (T1 +2, penalised 3: -1); segment 2 the same boards (T1 +2):
    # the running total after segment 2 is -1 + 2 = +1, T1 wins; the carry-over into
    # segment 2 is T1's -1.
    seg2 = "".join(RESULTS.replace("E,1,A,1,", "E,2,A,1,").splitlines(keepends=True)[1:])
    (tmp_path / "results-2026-11-20.csv").write_text(RESULTS + seg2)
    (tmp_path / "events.csv").write_text(
        "event_id,session,date,form,scoring,vp_scale,stage\n"
        "E,1,2026-11-20,teams,imps,none,knockout\nE,2,2026-11-20,teams,imps,none,knockout\n"
    )
    (tmp_path / "rulings.csv").write_text(
        RULING_HEADER + "P1,E,1,1,procedural_penalty,NS,T1,3 IMP\n"
    )
    snap = scan(tmp_path)
    day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
    rul, res = day.rulings, day.dated
    assert rul.rejected.height == 0
    ms = matches(res.scored, penalties_frame(rul.rulings, res.scored))
    t1 = ms.filter(pl.col("home") == "T1").sort("session")
    assert t1["home_carry_over"].to_list() == [0, -1]
    assert t1["winner"].to_list() == ["T2", "T1"]


def test_vp_penalty_in_a_knockout_is_refused_with_its_reason(tmp_path):
    _, _, rul = checked(tmp_path, "P1,E,1,1,procedural_penalty,NS,T1,1 VP\n", "knockout", "none")
    assert rul.rulings.height == 0
    bad = rul.rejected.row(0, named=True)
    assert bad["field"] == "penalty" and bad["location"] == "line 2"
    assert "knockout is decided on IMPs and has no victory points" in bad["reason"]
    assert bad["file"].endswith("rulings.csv")
    # an IMP penalty there is accepted
    (tmp_path / "rulings.csv").write_text(
        RULING_HEADER + "P1,E,1,1,procedural_penalty,NS,T1,3 IMP\n"
    )
    snap = scan(tmp_path)
    day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
    assert day.rulings.rejected.height == 0


def test_imp_penalty_naming_a_round_the_team_did_not_play_is_refused(tmp_path):
    """Law 90: a penalty in IMPs comes off the team's match of the round it names. T1 played
    round 1 only; a penalty naming round 2 (a bye, a slip) names no match: refused with the
    rounds T1 played — it was accepted and then dropped without a word (applies, yet no match
    and no standing carried it)."""
    _, _, rul = checked(
        tmp_path, "P1,E,1,2,procedural_penalty,NS,T1,3 IMP\n", "round_robin", "wbf2013"
    )
    assert rul.rulings.height == 0
    bad = rul.rejected.row(0, named=True)
    assert (bad["field"], bad["location"]) == ("round", "line 2")
    assert (
        "team T1 played no match in round 2 of session 1 of section A (it played rounds 1)"
        in bad["reason"]
    )
    assert "Law 90" in bad["reason"]
    # a round that is no whole number is refused too; the round it played, or none, is not
    for line, refused in (
        ("P1,E,1,one,procedural_penalty,NS,T1,3 IMP\n", ["round"]),
        ("P1,E,1,1,procedural_penalty,NS,T1,3 IMP\n", []),
        ("P1,E,1,,procedural_penalty,NS,T1,3 IMP\n", []),
    ):
        (tmp_path / "rulings.csv").write_text(RULING_HEADER + line)
        snap = scan(tmp_path)
        day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
        assert day.rulings.rejected["field"].to_list() == refused, line


def test_imp_penalty_where_the_results_give_no_round(tmp_path):
    """Results that give no round: a penalty in IMPs naming none comes off the team's match
    of the session (it matched no match and was dropped); one naming a round is refused, as
    the results name none."""
    no_rounds = RESULTS.replace("E,1,A,1,", "E,1,A,,")
    for rulings, refused in (
        ("P1,E,1,,procedural_penalty,NS,T1,3 IMP\n", []),
        ("P1,E,1,2,procedural_penalty,NS,T1,3 IMP\n", ["round"]),
    ):
        (tmp_path / "results-2026-11-20.csv").write_text(no_rounds)
        (tmp_path / "events.csv").write_text(events("knockout", "none"))
        (tmp_path / "rulings.csv").write_text(RULING_HEADER + rulings)
        snap = scan(tmp_path)
        day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
        assert day.rulings.rejected["field"].to_list() == refused, rulings
        if refused:
            assert "give no round" in day.rulings.rejected["reason"][0]
            continue
        res = day.dated
        ms = matches(res.scored, penalties_frame(day.rulings.rulings, res.scored))
        m = match_of(ms, "T1")
        # as with the round given: 3 IMPs off T1's 2-IMP lead, once
        assert (m["home_net"], m["away_net"], m["home_penalties"], m["winner"]) == (
            -1, -2, 3, "T2",
        )  # fmt: skip


def test_imp_penalty_at_a_vp_event_shows_in_imps_and_costs_vps(tmp_path):
    # T3 beat T4 by 12 IMPs: 13.71 - 6.29 on the 12-board scale. A 3-IMP penalty on T3
    # leaves it a 9-IMP margin: 12.90; T4 keeps 6.29.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain, _ = run(tmp_path / "a")
    pen, _ = run(tmp_path / "b", "P1,E,1,1,procedural_penalty,NS,T3,3 IMP\n")
    assert session_row(plain, "T3")["score"] == 13.71
    t3, t4 = session_row(pen, "T3"), session_row(pen, "T4")
    assert (t3["unit"], t3["score"]) == ("VP", 12.90)
    assert (t3["penalties"], t3["penalty_unit"], t3["vp_penalties"]) == (3, "IMP", 0)
    assert (t4["score"], t4["penalties"]) == (6.29, 0)
    ev = pen.standings  # the event's totals carry the same penalty
    assert ev.filter(pl.col("contestant") == "T3")["penalty_unit"].unique().to_list() == ["IMP"]


def test_vp_penalty_at_a_vp_event_shows_in_its_own_column(tmp_path):
    # 1 VP off T3's 13.71: 12.71; the IMP column shows no IMPs
    pen, _ = run(tmp_path, "P1,E,1,1,procedural_penalty,NS,T3,1 VP\n")
    t3 = session_row(pen, "T3")
    assert (t3["score"], t3["vp_penalties"], t3["penalties"]) == (12.71, 1, 0)


def test_matchpoint_penalty_column_is_in_mp():
    from tests.laws_engine import result, ruling
    from tests.laws_engine import run as mp_run

    rows = [result(1, str(2 * t + 1), str(2 * t + 2), s, t + 2) for t, s in enumerate([1, 2, 3])]
    st = mp_run(rows, [ruling("P1", "procedural_penalty", penalized="1", penalty="1 MP")])
    one = st.standings.filter((pl.col("scope") == "session") & (pl.col("contestant") == "1"))
    assert (one["penalties"].item(), one["penalty_unit"].item()) == (1, "MP")
    assert one["vp_penalties"].item() is None


# ----------------------------------------------------------------------- properties


def _match_frame(boards: list[int], stage: str = "knockout") -> pl.DataFrame:
    """One match T1 (home) - T2 with balanced boards: T1's IMPs on each board."""
    n = len(boards)
    common = {
        "event_id": ["E"] * n,
        "session": [1] * n,
        "section": ["A"] * n,
        "session_date": ["2026-11-20"] * n,
        "round": [1] * n,
        "match_id": ["m"] * n,
        "board": list(range(1, n + 1)),
        "missing_result": [False] * n,
        "home": ["T1"] * n,
        "away": ["T2"] * n,
        "stage": [stage] * n,
        "vp_scale": ["none" if stage == "knockout" else "wbf2013"] * n,
        "boards_per_match": [12] * n,
        "profile": ["wbf"] * n,
    }
    t1 = pl.DataFrame(
        {
            **common,
            "ns_pair": ["T1"] * n,
            "ew_pair": ["T2"] * n,
            "ns_imps_num": [b * TEAMS_DEN for b in boards],
            "ew_imps_num": [-b * TEAMS_DEN for b in boards],
        }
    )
    return t1


def _pens(amounts: dict[str, int]) -> pl.DataFrame:
    rows = [
        {
            "event_id": "E",
            "session": 1,
            "section": "A",
            "contestant": team,
            "direction": None,
            "penalty_num": a,
            "penalty_den": 1,
            "sanction": None,
            "unit": "IMP",
            "round": 1,
        }
        for team, a in amounts.items()
        if a
    ]
    return pl.DataFrame(rows, schema=PENALTIES_SCHEMA, orient="row")


boards = st.lists(st.integers(-24, 24), min_size=1, max_size=8)
penalty = st.integers(0, 12)


@settings(max_examples=60, deadline=None)
@given(boards, penalty, penalty)
def test_knockout_winner_is_the_team_ahead_after_full_penalties(b, p1, p2):
    m = matches(_match_frame(b), _pens({"T1": p1, "T2": p2})).row(0, named=True)
    margin = sum(b) - p1 + p2
    assert m["winner"] == ("T1" if margin > 0 else "T2" if margin < 0 else None)
    assert (m["home_net"], m["away_net"]) == (sum(b) - p1, -sum(b) - p2)


@settings(max_examples=60, deadline=None)
@given(boards, penalty, st.sampled_from(["knockout", "round_robin"]))
def test_an_imp_penalty_never_changes_the_other_teams_figures(b, p, stage):
    plain = matches(_match_frame(b, stage)).row(0, named=True)
    hit = matches(_match_frame(b, stage), _pens({"T1": p})).row(0, named=True)
    for c in ("away_net", "away_imps", "away_vp", "away_penalties", "home_imps"):
        assert hit[c] == plain[c], c
    assert hit["home_net"] == plain["home_net"] - p
