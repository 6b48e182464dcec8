"""The session-average rule everywhere (2017 Law 12C2(c); 2007 Law 88): a non-offending
contestant given average-plus gets the better of 60 % and its percentage on the other boards
of the session; under the 2017 Laws an offending one given average-minus the worse of 40 %
and that percentage; "or the IMP equivalent" at IMPs.

* in an individual (Law 89) the contestant is the player: each member of the side gets his
  own percentage, not the partnership's;
* the artificial side of a split score (its other side assigned a result) follows it too;
* at IMPs (Butler, cross-IMPs) under a profile whose ``imp_session_average`` is set: the
  better of +3 IMPs (Law 12C2(b)) and the contestant's average IMPs per board on its other
  boards (the worse of -3 and that for an offender under the 2017 Laws); otherwise +/-3.

Every expected figure is worked by hand below (Law 78A: 2 per result beaten, 1 per tie;
Neuberg for a board short of results; the Law 78B IMP scale).
"""

from __future__ import annotations

import shutil
from datetime import datetime
from fractions import Fraction

import polars as pl
import pytest

from pipelines import profiles
from pipelines.inbox import scan
from pipelines.scoring.day import score_day

PAIRS_HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
RULINGS = "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result\n"


def run(tmp_path, results: str, events: str, rulings: str = ""):
    (tmp_path / "results-2026-11-20.csv").write_text(results)
    (tmp_path / "events.csv").write_text(events)
    if rulings:
        (tmp_path / "rulings.csv").write_text(RULINGS + rulings)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    assert day.rejected.height == 0, day.rejected.to_dicts()
    assert day.rulings.rejected.height == 0, day.rulings.rejected.to_dicts()
    return day.dated


def scores(res) -> dict[str, float]:
    st = res.standings.filter(pl.col("scope") == "session")
    return dict(zip(st["contestant"], st["score"], strict=True))


# ------------------------------------------------------------------------- individual

# Eight players, two tables, three boards (two results a board: top 2).
# Board 1: T1 N P1 S P2 E P3 W P4 +420; T2 N P5 S P6 E P7 W P8 +400.
#          NS P1 P2: 2, EW P3 P4: 0; NS P5 P6: 0, EW P7 P8: 2.
# Board 2: T1 N P1 S P5 E P2 W P6 1NT N = +90; T2 N P3 S P7 E P4 W P8 2S N +1 +140.
#          NS P1 P5: 0, EW P2 P6: 2; NS P3 P7: 2, EW P4 P8: 0.
# Board 3: T1 N P1 S P2 E P3 W P4: artificial A+ (NS) / A- (EW); T2 P5 P6 / P7 P8 -50 alone
#          on the board (n = 1, N = 2: Neuberg (0 + 1) x 2 / 1 - 1 = 1 each side).
# Other boards: P1 2 + 0 of 4 = 50 % -> A+ = max(60, 50) = 60 % = 1.2 MP
#               P2 2 + 2 of 4 = 100 % -> A+ = 100 % = 2 MP        (the partnership P1/P2 only
#               played board 1 together: 100 %, which would give P1 2 MP: wrong)
#               P3 0 + 2 of 4 = 50 % -> A- = min(40, 50) = 40 % = 0.8 MP
#               P4 0 + 0 of 4 = 0 %  -> A- = min(40, 0) = 0 MP (2017 Laws)
INDIVIDUAL = (
    "event_id,session,board,north,south,east,west,contract,declarer,tricks,score\n"
    "I,1,1,P1,P2,P3,P4,4S,N,10,420\n"
    "I,1,1,P5,P6,P7,P8,3NT,N,9,400\n"
    "I,1,2,P1,P5,P2,P6,1NT,N,7,90\n"
    "I,1,2,P3,P7,P4,P8,2S,N,9,140\n"
    "I,1,3,P1,P2,P3,P4,,,,A+/-\n"
    "I,1,3,P5,P6,P7,P8,4S,N,9,-50\n"
)


def individual_events(laws: str = "2017") -> str:
    return (
        f"event_id,session,date,form,scoring,laws\nI,1,2026-11-20,individual,matchpoints,{laws}\n"
    )


def test_individual_each_player_gets_his_own_session_percentage(tmp_path):
    got = scores(run(tmp_path, INDIVIDUAL, individual_events()))
    assert got["P1"] == pytest.approx(2 + 0 + 1.2)
    assert got["P2"] == 2 + 2 + 2
    assert got["P3"] == pytest.approx(0 + 2 + 0.8)
    assert got["P4"] == 0
    assert (got["P5"], got["P6"], got["P7"], got["P8"]) == (
        0 + 0 + 1,
        0 + 2 + 1,
        2 + 2 + 1,
        2 + 0 + 1,
    )


def test_individual_exact_figures_and_the_south_players_own(tmp_path):
    res = run(tmp_path, INDIVIDUAL, individual_events())
    b3 = res.scored.filter((pl.col("board") == 3) & (pl.col("north") == "P1")).row(0, named=True)
    assert Fraction(b3["ns_mp_num"], b3["mp_den"]) == Fraction(6, 5)  # north P1: 60 % of 2
    assert Fraction(b3["south_mp_num"], b3["mp_den"]) == 2  # south P2: 100 % of 2
    assert Fraction(b3["ew_mp_num"], b3["mp_den"]) == Fraction(4, 5)  # east P3: 40 %
    assert b3["west_mp_num"] == 0  # west P4: 0 %
    assert (b3["south_pct"], b3["west_pct"]) == (100, 0)


def test_individual_under_the_2007_laws_average_minus_stays_40(tmp_path):
    # 2007 Law 88 gives only the non-offender's rule: P3 and P4 get 40 % = 0.8 each
    got = scores(run(tmp_path, INDIVIDUAL, individual_events("2007")))
    assert got["P3"] == pytest.approx(2.8) and got["P4"] == pytest.approx(0.8)
    assert got["P1"] == pytest.approx(3.2) and got["P2"] == 6


# ------------------------------------------------------ split score with one artificial side

# Six pairs, three tables (1 v 2, 3 v 4, 5 v 6), three boards, top 4.
# Board 1 (none vul): +450, +420, +400 -> NS 1: 4, 3: 2, 5: 0; EW 2: 0, 4: 2, 6: 4.
# Board 2 (NS vul):   +140, +110, +110 -> NS 1: 4, 3: 1, 5: 1; EW 2: 0, 4: 3, 6: 3.
# Board 3 (EW vul): table 1 director's error (Law 82C): NS (pair 1) A+, EW (pair 2) as if
#   NS made 4S N = (+420); tables 2, 3: +450, +400.
#   Pair 1's percentage on its other boards: 8 of 8 = 100 % -> A+ = max(60, 100) = 4 MP
#   (not the fixed 60 % = 2.4 MP). NS field: 450, 400 (n = 2, N = 3): raw 2, 0 -> Neuberg
#   (2 + 1) 3 / 2 - 1 = 3.5 and (0 + 1) 3 / 2 - 1 = 0.5. EW field: -420, -450, -400 -> pair
#   2: 2, pair 4: 0, pair 6: 4.
SPLIT = PAIRS_HEADER + (
    "S,1,A,1,1,1,1,2,4S,N,11,450\n"
    "S,1,A,1,2,1,3,4,4S,N,10,420\n"
    "S,1,A,1,3,1,5,6,3NT,N,9,400\n"
    "S,1,A,1,1,2,1,2,2S,N,9,140\n"
    "S,1,A,1,2,2,3,4,2S,N,8,110\n"
    "S,1,A,1,3,2,5,6,2S,N,8,110\n"
    "S,1,A,1,1,3,1,2,2S,N,8,110\n"
    "S,1,A,1,2,3,3,4,4S,N,11,450\n"
    "S,1,A,1,3,3,5,6,3NT,N,9,400\n"
)
PAIRS_EVENTS = "event_id,session,date,form,scoring\nS,1,2026-11-20,pairs,matchpoints\n"


def test_the_artificial_side_of_a_split_score_gets_its_own_session_percentage(tmp_path):
    res = run(tmp_path, SPLIT, PAIRS_EVENTS, "R1,S,1,3,1,2,director_error,none,A+,4S N =\n")
    t1 = res.scored.filter((pl.col("board") == 3) & (pl.col("ns_pair") == "1")).row(0, named=True)
    assert t1["kind"] == "adjusted"
    assert Fraction(t1["ns_mp_num"], t1["mp_den"]) == 4  # 100 %, not 60 %
    assert Fraction(t1["ew_mp_num"], t1["mp_den"]) == 2  # the assigned side as scored
    got = scores(res)
    assert got["1"] == 12 and got["2"] == 0 + 0 + 2
    assert (got["3"], got["5"]) == (2 + 1 + 3.5, 0 + 1 + 0.5)


def test_82c_average_plus_to_both_sides_each_its_own(tmp_path):
    # A+/A+ at table 1 of board 3: pair 1 100 % -> 4; pair 2's other boards 0 of 8 -> 60 %
    # = 2.4. The table totals 160 % (Law 82C: both non-offending).
    res = run(tmp_path, SPLIT, PAIRS_EVENTS, "R1,S,1,3,1,2,director_error,none,A+,A+\n")
    t1 = res.scored.filter((pl.col("board") == 3) & (pl.col("ns_pair") == "1")).row(0, named=True)
    assert Fraction(t1["ns_mp_num"], t1["mp_den"]) == 4
    assert Fraction(t1["ew_mp_num"], t1["mp_den"]) == Fraction(12, 5)


# --------------------------------------------------------------------------- at IMPs


@pytest.fixture
def imp_average_profile(tmp_path_factory, monkeypatch):
    """A profile ``impavg``: wbf with ``imps.imp_session_average = true``."""
    folder = tmp_path_factory.mktemp("profiles")
    shutil.copytree(
        profiles.PROFILE_DIR,
        folder,
        ignore=shutil.ignore_patterns("*.py", "__*"),
        dirs_exist_ok=True,
    )
    text = (
        (folder / "wbf.toml")
        .read_text()
        .replace("imp_session_average = false", "imp_session_average = true")
    )
    (folder / "impavg.toml").write_text(text)
    monkeypatch.setattr(profiles, "PROFILE_DIR", folder)
    profiles.load.cache_clear()
    yield "impavg"
    profiles.load.cache_clear()


# Eight pairs, four tables (1 v 2, 3 v 4, 5 v 6, 7 v 8), three boards; Butler, ACBL datum
# (5 % of 4 results trims none; mean rounded to 10, a final 5 to even).
# Board 1 (none vul): pair 1 6S N = +980, the others 4S N = +420: mean (980 + 1260) / 4 = 560:
#   pair 1 +420 -> +9 IMPs; the others -140 -> -4.
# Board 2 (NS vul): pair 1 6S N = +1430, the others 4S N +1 +650: mean 845 -> 840: pair 1
#   +590 -> +11; the others -190 -> -5.
# Board 3: table 1 artificial A+ (pair 1) / A- (pair 2); the others +420: datum 420, 0 each.
#   Pair 1's average IMPs on its other boards (9 + 11) / 2 = 10 -> Av+ = max(3, 10) = 10;
#   pair 2's (-9 - 11) / 2 = -10 -> Av- = min(-3, -10) = -10 (2017 Laws).
BUTLER = PAIRS_HEADER + (
    "B,1,A,1,1,1,1,2,6S,N,12,980\n"
    "B,1,A,1,2,1,3,4,4S,N,10,420\n"
    "B,1,A,1,3,1,5,6,4S,N,10,420\n"
    "B,1,A,1,4,1,7,8,4S,N,10,420\n"
    "B,1,A,1,1,2,1,2,6S,N,12,1430\n"
    "B,1,A,1,2,2,3,4,4S,N,11,650\n"
    "B,1,A,1,3,2,5,6,4S,N,11,650\n"
    "B,1,A,1,4,2,7,8,4S,N,11,650\n"
    "B,1,A,1,1,3,1,2,,,,A+/-\n"
    "B,1,A,1,2,3,3,4,4S,N,10,420\n"
    "B,1,A,1,3,3,5,6,4S,N,10,420\n"
    "B,1,A,1,4,3,7,8,4S,N,10,420\n"
)


def imp_events(scoring: str, profile: str, laws: str = "2017") -> str:
    return (
        "event_id,session,date,form,scoring,profile,laws\n"
        f"B,1,2026-11-20,pairs,{scoring},{profile},{laws}\n"
    )


def board3(res) -> tuple[Fraction, Fraction]:
    r = res.scored.filter((pl.col("board") == 3) & (pl.col("ns_pair") == "1")).row(0, named=True)
    return Fraction(r["ns_imps_num"], r["imps_den"]), Fraction(r["ew_imps_num"], r["imps_den"])


def test_butler_average_plus_is_the_better_of_3_and_the_average_imps(tmp_path, imp_average_profile):
    res = run(tmp_path, BUTLER, imp_events("butler", imp_average_profile))
    assert board3(res) == (10, -10)
    got = scores(res)
    assert got["1"] == 9 + 11 + 10 and got["2"] == -9 - 11 - 10
    assert got["3"] == -4 - 5 + 0


def test_butler_under_the_2007_laws_average_minus_stays_fixed(tmp_path, imp_average_profile):
    res = run(tmp_path, BUTLER, imp_events("butler", imp_average_profile, "2007"))
    assert board3(res) == (10, -3)


def test_without_the_profile_setting_the_fixed_imps_of_law_12c2b(tmp_path):
    assert board3(run(tmp_path, BUTLER, imp_events("butler", "wbf"))) == (3, -3)


def test_cross_imps_average_plus_is_the_better_of_3_and_the_average(tmp_path, imp_average_profile):
    # cross-IMPs, average form: board 1 pair 1 against each of three +420: +560 -> 11 each,
    # average 11; board 2 against +650: +780 -> 13; board 3 Av+ = max(3, (11 + 13) / 2) = 12.
    # Pair 2 (EW): -11 and -13 -> Av- = min(-3, -12) = -12.
    res = run(tmp_path, BUTLER, imp_events("cross_imps", imp_average_profile))
    assert board3(res) == (12, -12)
