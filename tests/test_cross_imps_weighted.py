"""Cross-IMPs with a weighted score (Law 12C1(c)): every other table is IMPed against each
of the weighted table's components with its weight, as the weighted table is against them
(scoring-rules §5), so the board's IMPs sum to nought."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from pipelines.inbox import scan
from pipelines.scoring.day import score_day

# Board 1 (none vulnerable), four tables. Table 1 played 3NT+1 (+430); the director gave it
# 50 % of 3NT S +1 (+430) and 50 % of 3NT S -1 (-50). The others: +400, +300, +140.
# Average cross-IMPs, three comparisons each (IMP scale of Law 78B):
#   +300: v +400 -100 -3; v +140 +160 +4; v weighted 0.5 x (-130 -4) + 0.5 x (+350 +8) = +2
#         -> 3 / 3 = +1
#   +400: v +300 +3; v +140 +260 +6; v weighted 0.5 x (-30 -1) + 0.5 x (+450 +10) = +4.5
#         -> 13.5 / 3 = +4.5
#   +140: v +400 -6; v +300 -4; v weighted 0.5 x (-290 -7) + 0.5 x (+190 +5) = -1 -> -11/3
#   weighted: +430 v 400, 300, 140: +1 +4 +7 = 12; -50: -10 -8 -5 = -23;
#         0.5 x 12 + 0.5 x (-23) = -5.5 -> -11/6
RESULTS = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
    "CX,1,A,1,1,1,1,2,3NT,S,10,430\n"
    "CX,1,A,1,2,1,3,4,3NT,N,9,400\n"
    "CX,1,A,1,3,1,5,6,3SX,E,7,300\n"
    "CX,1,A,1,4,1,7,8,2S,N,9,140\n"
)
EVENTS = (
    "event_id,session,date,form,scoring,movement,profile,published_at\n"
    "CX,1,2026-11-02,pairs,cross_imps,howell,wbf,2026-11-02 22:00\n"
)
RULINGS = (
    "ruling_id,event_id,session,section,board,ns_pair,ew_pair,called_at,ruled_at,laws,kind,"
    "offending,ns_result\n"
    "C1,CX,1,A,1,1,2,2026-11-02 19:40,2026-11-02 19:45,73C;12C1(c),weighted,EW,"
    "50% 3NT S +1; 50% 3NT S -1\n"
)


def test_every_table_is_imped_against_the_weighted_components(tmp_path):
    (tmp_path / "results-2026-11-02.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(EVENTS)
    (tmp_path / "rulings.csv").write_text(RULINGS)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    assert day.rejected.height == 0 and day.rulings.rejected.height == 0
    got = {r["ns_pair"]: Fraction(r["ns_imps_num"], r["imps_den"]) for r in day.scored.to_dicts()}
    assert got == {
        "1": Fraction(-11, 6),
        "3": Fraction(9, 2),
        "5": Fraction(1),
        "7": Fraction(-11, 3),
    }
    assert sum(got.values()) == 0
