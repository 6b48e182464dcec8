"""Artificial scores at both tables of a team match (2017 Law 86B2; 2007 Law 86D).

The text followed (Law 86B2, 2017; the Polish Federation's edition
https://www.pzbs.pl/sedziowie/mpb/2017/pl/p86.html and ../shared/domain/scoring-rules.md §1):
when two or more incomparable results are obtained between the same contestants, or the
Director must award more than one adjusted score, (a) if no contestant is at fault the
board is cancelled and artificial scores awarded (Law 12C2: average-plus to a contestant in
no way at fault); (b) if only one contestant is at fault the non-offending side gets
average-plus for the board and the offending side the complement; (c) if both are at
fault the board is cancelled and artificial scores awarded (average-minus to a contestant
directly at fault, average to one partly at fault). The contestant is the team, at fault
when either of its pairs is. Av+ / Av / Av- at IMPs are +3 / 0 / -3 (Law 12C2(b), profile
``wbf``), so every figure below follows from the codes alone.

One match T1-T2: T1 sits NS at table 1 and EW at table 2. Board 1 carries the artificial
scores; board 2 is played (T1 NS +420 at table 1, T2 NS +420 at table 2: 0 IMPs).
"""

from __future__ import annotations

from datetime import datetime

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.laws.teams import cancelled_board
from pipelines.scoring.events import EVENTS_SCHEMA, with_defaults
from tests.laws_engine import ruling, scored_day


def team_events(stage: str = "round_robin") -> pl.DataFrame:
    rows = {c: [None] for c in EVENTS_SCHEMA}
    rows.update(
        event_id=["E"],
        session=[1],
        date=["2026-11-02"],
        form=["teams"],
        scoring=["imps"],
        stage=[stage],
        vp_scale=["none" if stage == "knockout" else "wbf2013"],
        published_at=["2026-11-02 22:30"],
    )
    return with_defaults(pl.DataFrame(rows, schema=EVENTS_SCHEMA))


def row(table: int, board: int, ns: str, ew: str, score: str, line: int) -> dict:
    played = not score.startswith("A")
    return dict(
        file="r.csv",
        location=f"line {line}",
        event_id="E",
        session="1",
        section="A",
        round="1",
        table=str(table),
        board=str(board),
        ns_pair=ns,
        ew_pair=ew,
        contract="4S" if played else None,
        declarer="N" if played else None,
        tricks="10" if played else None,
        score=score,
        session_date="2026-11-02",
    )


def match(t1_board1: str = "420", t2_board1: str = "420") -> list[dict]:
    return [
        row(1, 1, "T1", "T2", t1_board1, 2),
        row(2, 1, "T2", "T1", t2_board1, 3),
        row(1, 2, "T1", "T2", "620", 4),
        row(2, 2, "T2", "T1", "620", 5),
    ]


def score(rows: list[dict], rulings: list[dict] | None = None, stage: str = "round_robin"):
    events = team_events(stage)
    return scored_day(rows, events, rulings or [], now=datetime(2026, 11, 30))


def board1(res) -> tuple[float, float]:
    """(T1's IMPs, T2's IMPs) on board 1, read at both tables (they must agree)."""
    s = res.scored.filter(pl.col("board") == 1)
    t1 = s.filter(pl.col("table") == 1).row(0, named=True)
    t2 = s.filter(pl.col("table") == 2).row(0, named=True)
    assert (t1["ns_imps"], t1["ew_imps"]) == (t2["ew_imps"], t2["ns_imps"])
    return t1["ns_imps"], t1["ew_imps"]


def art(table: int, ns: str, ew: str, ns_res: str, ew_res: str, offending: str) -> dict:
    return ruling(
        f"R{table}",
        "artificial",
        1,
        ns,
        ew,
        line=table + 1,
        round="1",
        ns_result=ns_res,
        ew_result=ew_res,
        offending=offending,
    )


def test_average_plus_at_both_tables_is_one_average_plus_not_two():
    # 86B2(a): nobody at fault (e.g. the board was fouled for both tables): board cancelled,
    # each team Av+ = +3 IMPs for the board. Summing the two tables would give +6.
    res = score(
        match(),
        [art(1, "T1", "T2", "A+", "A+", "none"), art(2, "T2", "T1", "A+", "A+", "none")],
    )
    assert board1(res) == (3, 3)


def test_director_error_at_both_tables_gives_each_team_average_plus_once():
    # Law 82C treats both sides as non-offending (A+/A+ at each table): 86B2(a) again
    de = [
        ruling("R1", "director_error", 1, "T1", "T2", line=2, round="1"),
        ruling("R2", "director_error", 1, "T2", "T1", line=3, round="1"),
    ]
    assert board1(score(match(), de)) == (3, 3)


def test_one_team_at_fault_gets_the_complement():
    # 86B2(b): T2 at fault at table 1 (A+ to T1, A- to T2), nobody at table 2 (A+/A+):
    # only T2 is at fault: T1 (non-offending) Av+ +3, T2 the complement -3.
    # (Table by table: T1 +3 +3 = +6, T2 -3 +3 = 0.)
    res = score(
        match(),
        [art(1, "T1", "T2", "A+", "A-", "EW"), art(2, "T2", "T1", "A+", "A+", "none")],
    )
    assert board1(res) == (3, -3)


def test_both_teams_at_fault_each_gets_average_minus():
    # 86B2(c): T1 at fault at table 1, T2 at table 2: cancelled, each directly at fault: Av-
    res = score(
        match(),
        [art(1, "T1", "T2", "A-", "A+", "NS"), art(2, "T2", "T1", "A-", "A+", "NS")],
    )
    assert board1(res) == (-3, -3)


def test_both_partly_at_fault_each_gets_average():
    # 86B2(c): Av/Av at table 1 (both partly at fault), A+/A+ at table 2: both at fault,
    # each partly: Av = 0 IMPs (table by table it would be 0 + 3 = +3 each)
    res = score(
        match(), [art(1, "T1", "T2", "A", "A", "both"), art(2, "T2", "T1", "A+", "A+", "none")]
    )
    assert board1(res) == (0, 0)


def test_table_level_codes_of_the_results_file_follow_the_same_rule():
    # A60/60 at both tables (fixed average-plus at IMPs is +3): +3 each, not +6
    assert board1(score(match("A60/60", "A60/60"))) == (3, 3)
    # A+/- at table 1 (T2 at fault), A+/+ at table 2: T1 +3, T2 -3
    assert board1(score(match("A+/-", "A+/+"))) == (3, -3)


def test_artificial_at_one_table_only_still_decides_for_each_team():
    # one table artificial, the other played: the artificial score decides (Law 12C2(b))
    assert board1(score(match("A+/-", "420"))) == (3, -3)


def test_in_a_knockout_the_non_balancing_average_plus_is_averaged():
    # 86B2(a) gives +3 to each team; Law 86C (2017) / 86B (2007) then averages a
    # non-balancing knockout board: (3 - 3) / 2 = 0 to each
    res = score(match("A+/+", "A+/+"), stage="knockout")
    assert board1(res) == (0, 0)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        (["+", "+"], ["+", "+"], (3, 3)),
        (["+", "+"], ["-", "+"], (3, -3)),
        (["=", "+"], ["+", "+"], (-3, 3)),  # only A (partly) at fault: the complement
        (["-", "+"], ["+", "-"], (-3, -3)),
        (["=", "+"], ["+", "="], (0, 0)),
        (["=", "+"], ["-", "+"], (0, -3)),
        (["60", "60"], ["40", "60"], (3, -3)),
        ([], ["+", "+"], (None, 3)),
    ],
)
def test_cancelled_board_rule(a, b, want):
    assert cancelled_board(a, b) == want


CODES = ["+", "=", "-", "60", "50", "40"]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(CODES), st.sampled_from(CODES), st.sampled_from(CODES), st.sampled_from(CODES)
)
def test_both_tables_artificial_scored_as_the_rule_and_never_above_average_plus(a, b, c, d):
    # table 1: T1 (NS) code a, T2 (EW) b; table 2: T2 (NS) c, T1 (EW) d
    res = score(match(f"A{a}/{b}", f"A{c}/{d}"))
    t1, t2 = board1(res)
    assert (t1, t2) == cancelled_board([a, d], [b, c])
    assert t1 <= 3 and t2 <= 3
