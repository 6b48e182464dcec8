"""IMP awards at teams (2007 Law 86D: when the Director awards an adjusted score in a team
match and a result was obtained between the same contestants at the other table, he may
award an adjusted score in IMPs; 2017 Law 86B1: when that result is clearly favourable to
one side he awards an assigned adjusted score): a ruling of kind ``imp_award`` gives the
IMPs of a board of a match to the team seated NS at the table it names (``ns_result``,
e.g. ``+9 IMP``) and to the other team (``ew_result``; empty: the negation).

One match T1-T2 (T1 NS at table 1): board 1 T1 NS 4S N = +420, T2 NS 2S N +2 +170:
250 -> T1 +6 as played; board 2 flat (+620 both, NS vul). Figures by hand.
"""

from __future__ import annotations

from datetime import datetime

import polars as pl

from pipelines.inbox import scan
from pipelines.laws.teams import parse_imp_award
from pipelines.scoring.day import score_day
from pipelines.scoring.imp_standings import matches

HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
MATCH = HEADER + (
    "E,1,A,1,1,1,T1,T2,4S,N,10,420\n"
    "E,1,A,1,2,1,T2,T1,2S,N,10,170\n"
    "E,1,A,1,1,2,T1,T2,4S,N,10,620\n"
    "E,1,A,1,2,2,T2,T1,4S,N,10,620\n"
)
RULINGS = (
    "ruling_id,event_id,session,round,board,ns_pair,ew_pair,kind,offending,laws,"
    "ns_result,ew_result\n"
)

NOW = datetime(2026, 11, 30)


def events(
    form: str = "teams", scoring: str = "imps", stage: str = "round_robin", movement: str = ""
) -> str:
    return (
        "event_id,session,date,form,scoring,stage,movement\n"
        f"E,1,2026-11-20,{form},{scoring},{stage},{movement}\n"
    )


def scored(tmp_path, rulings: str, ev: str | None = None):
    (tmp_path / "results-2026-11-20.csv").write_text(MATCH)
    (tmp_path / "events.csv").write_text(ev or events())
    (tmp_path / "rulings.csv").write_text(RULINGS + rulings)
    snap = scan(tmp_path)
    day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
    assert day.rejected.height == 0, day.rejected.to_dicts()
    return snap, day


def checked(tmp_path, rulings: str, ev: str | None = None):
    snap, day = scored(tmp_path, rulings, ev)
    return snap, day.validated, day.rulings


def run(tmp_path, rulings: str, ev: str | None = None):
    _, day = scored(tmp_path, rulings, ev)
    rul = day.rulings
    assert rul.rejected.height == 0, rul.rejected.to_dicts()
    return day.dated


def board1(res) -> list[tuple[int, str, float, str, float]]:
    s = res.scored.filter(pl.col("board") == 1).sort("table")
    return list(
        zip(s["table"], s["ns_pair"], s["ns_imps"], s["ew_pair"], s["ew_imps"], strict=True)
    )


def test_the_notation():
    assert parse_imp_award("+9 IMP") == 9
    assert parse_imp_award("-2.5 IMPs") == -2.5
    assert parse_imp_award("3 imp") == 3
    for bad in ("+9", "9 VP", "A+", "four IMPs"):
        try:
            parse_imp_award(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_an_imp_award_replaces_the_board_of_the_match(tmp_path):
    # T1 (NS at table 1) is given +9 IMPs on board 1, T2 -9; both tables show it, the match
    # is T1 +9 + 0 = +9 instead of +6
    res = run(tmp_path, "R1,E,1,1,1,T1,T2,imp_award,EW,86B1,+9 IMP,\n")
    assert board1(res) == [(1, "T1", 9, "T2", -9), (2, "T2", -9, "T1", 9)]
    m = matches(res.scored).row(0, named=True)
    assert (m["home"], m["home_net"], m["away_net"]) == ("T1", 9, -9)
    # the table results are kept as played, for the record
    t1 = res.scored.filter((pl.col("board") == 1) & (pl.col("table") == 1)).row(0, named=True)
    assert (t1["contract"], t1["computed_score"], t1["adjustment"]) == ("4S", 420, "imp_award")
    adj = res.adjustments.filter((pl.col("contestant") == "T1") & (pl.col("role") == "table"))
    assert adj.select("unit", "score_before", "score_after", "change").row(0) == ("IMP", 6, 9, 3)


def test_the_award_follows_the_team_seated_ns_at_the_named_table(tmp_path):
    # named at table 2 (T2 NS): +2 IMPs to T2, -2 to T1
    res = run(tmp_path, "R1,E,1,1,1,T2,T1,imp_award,NS,86B1,+2 IMP,\n")
    assert board1(res) == [(1, "T1", -2, "T2", 2), (2, "T2", 2, "T1", -2)]


def test_a_non_balancing_award_outside_and_inside_a_knockout(tmp_path):
    # +9 to T1, -4 to T2: each keeps its own figure in a round robin (Law 12C1(b) split);
    # in a knockout both get the average (Law 86C 2017 / 86B 2007): (9 + 4) / 2 = 6.5
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    ruling = "R1,E,1,1,1,T1,T2,imp_award,EW,86B1,+9 IMP,-4 IMP\n"
    rr = run(tmp_path / "a", ruling)
    assert board1(rr)[0] == (1, "T1", 9, "T2", -4)
    ko = run(tmp_path / "b", ruling, events(stage="knockout"))
    assert board1(ko)[0] == (1, "T1", 6.5, "T2", -6.5)


def test_imp_award_is_validated(tmp_path):
    cases = {
        # not a teams event
        "R1,E,1,1,1,T1,T2,imp_award,EW,86B1,+9 IMP,\n": (
            events("pairs", "butler", "", "mitchell"),
            "kind",
        ),
        # no IMPs given
        "R2,E,1,1,1,T1,T2,imp_award,EW,86B1,,\n": (None, "ns_result"),
        # not IMPs
        "R3,E,1,1,1,T1,T2,imp_award,EW,86B1,+420,\n": (None, "ns_result"),
        # no board
        "R4,E,1,1,,T1,T2,imp_award,EW,86B1,+9 IMP,\n": (None, "board"),
        # no table
        "R5,E,1,1,1,,,imp_award,EW,86B1,+9 IMP,\n": (None, "ns_pair"),
    }
    for i, (ruling, (ev, field)) in enumerate(cases.items()):
        d = tmp_path / str(i)
        d.mkdir()
        _, _, rul = checked(d, ruling, ev)
        assert rul.rulings.height == 0, ruling
        bad = rul.rejected.row(0, named=True)
        assert (bad["field"], bad["location"]) == (field, "line 2"), (ruling, bad)
    _, _, rul = checked(tmp_path / "0", "R1,E,1,1,1,T1,T2,imp_award,EW,86B1,+9 IMP,\n", None)
    assert rul.rejected.height == 0
    assert rul.rulings.select("ns_result", "ew_result").row(0) == ("+9 IMP", None)


def test_the_traveller_explains_the_award():
    from pipelines.publish.explain import explain

    row = {
        "adjustment": "imp_award",
        "ruling_laws": "86B1",
        "effective_ns_result": "+9 IMP",
        "effective_ew_result": "-4 IMP",
        "ns_pair": "T1",
        "ew_pair": "T2",
    }
    assert explain(row) == "IMP award: T1 +9 IMP, T2 \u22124 IMP, Law 86B1"
    assert explain({**row, "effective_ew_result": None, "ruling_laws": None}) == (
        "IMP award: T1 +9 IMP, Law 86B1"
    )
