"""A one-winner Mitchell from Compscore (USEBIO ``WINNER_TYPE`` 1, pairs numbered ``1NS`` …
``21EW``), with arrow-switched rounds: scored as a Howell of those 42 pairs, one ranking.

The file is the real 42-pair two-winner Mitchell with ``WINNER_TYPE`` 1 and two rounds
arrow-switched at some tables (tests/realdata/one_winner.py): on those lines an EW pair sits
NS (``NS_PAIR_NUMBER`` ``14EW``) and the seat's score and matchpoints are its own. Every
figure asserted comes from the file: each line's ``NS_MATCH_POINTS``/``EW_MATCH_POINTS``, and
each pair's total as the sum, over its lines, of the figures of the seat it sat in. The
file's three oddities (test_compscore_mitchell.py) are on boards 1, 3 and 4, which no switch
touches: board 1's average is inserted as there; boards 3 and 4 keep their documented
differences, and the expected totals take those two lines as the Laws score them, from the
file's own figures (an A5050 is half the board's top; equal scores earn equal matchpoints).
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.scoring.day import score_day
from pipelines.scoring.reconcile import reconcile
from tests.conftest import REALDATA, shared_file
from tests.realdata.one_winner import MITCHELL, Line, build
from tests.realdata.scoring import score_file, score_inbox_day

AVERAGE_INSERTED = {
    (1, "1NS", "1EW"): {"score": "A50/50", "contract": None, "declarer": None, "tricks": None}
}
ODDITIES = {(3, "1NS", "1EW"), (4, "1NS", "21EW")}
PAIRS = {f"{n}{d}" for n in range(1, 22) for d in ("NS", "EW")}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, list[Line]]:
    return build(tmp_path_factory.mktemp("one_winner"))


@pytest.fixture(scope="module")
def scored(built, tmp_path_factory):
    path, _ = built
    return score_file(
        path.name, tmp_path_factory.mktemp("scored"), edit=AVERAGE_INSERTED, source=path
    )


def _key(frame: pl.DataFrame) -> dict[tuple[int, str, str], dict]:
    return {(r["board"], r["ns_pair"], r["ew_pair"]): r for r in frame.iter_rows(named=True)}


def test_pairs_keep_their_direction_in_their_id_and_play_both_ways(built, scored):
    _, lines = built
    assert set(scored.lines["movement"]) == {"howell"}
    assert set(scored.lines["ns_pair"]) | set(scored.lines["ew_pair"]) == PAIRS
    ours = _key(scored.lines)
    assert len(ours) == len(lines) == 567
    moved = [x for x in lines if x.switched]
    assert len(moved) == 42
    for x in moved:  # the EW pair at NS, as the file names it
        assert x.ns.endswith("EW") and x.ew.endswith("NS")
        assert (x.board, x.ns, x.ew) in ours


def test_every_line_is_the_files_but_the_documented_oddities(built, scored):
    _, lines = built
    ours = _key(scored.lines)
    off = set()
    for x in lines:
        r = ours[(x.board, x.ns, x.ew)]
        assert (r["source_ns_mp"], r["source_ew_mp"]) == (x.ns_mp, x.ew_mp)
        if (r["ns_mp_display"], r["ew_mp_display"]) != (x.ns_mp, x.ew_mp):
            off.add((x.board, x.ns, x.ew))
    assert off == ODDITIES


def _expected_figures(lines: list[Line]) -> dict[tuple[int, str, str], tuple[float, float]]:
    """Each line's figures from the file; the two oddities as the Laws score them, from the
    file: board 3's A5050 half the top (2 per result beaten: 2 x (results - 1)), board 4's
    -650 what every other -650 of the board shows."""
    out = {(x.board, x.ns, x.ew): (x.ns_mp, x.ew_mp) for x in lines}
    board3 = [x for x in lines if x.board == 3]
    half = (len(board3) - 1) * 1.0
    out[(3, "1NS", "1EW")] = (half, half)
    same = {
        (x.ns_mp, x.ew_mp)
        for x in lines
        if x.board == 4 and x.score == "-650" and (x.ns, x.ew) != ("1NS", "21EW")
    }
    assert len(same) == 1
    out[(4, "1NS", "21EW")] = same.pop()
    return out


def test_each_total_is_the_files_figures_for_the_seats_the_pair_sat_in(built, scored):
    _, lines = built
    figures = _expected_figures(lines)
    # a board factored (Neuberg) shows its figures rounded to 0.1: one with a fraction
    factored = {b for (b, _, _), f in figures.items() if any(v != int(v) for v in f)}
    total = dict.fromkeys(PAIRS, 0.0)
    shown = dict.fromkeys(PAIRS, 0)  # the pair's lines on factored boards
    for (board, ns, ew), (ns_mp, ew_mp) in figures.items():
        total[ns] += ns_mp
        total[ew] += ew_mp
        shown[ns] += board in factored
        shown[ew] += board in factored
    st = scored.standings
    assert st.height == 42 and set(st["contestant"]) == PAIRS
    for r in st.iter_rows(named=True):
        # each figure shown to 0.1 (half even) may be 0.05 off the exact one
        tol = 0.05 * shown[r["contestant"]] + 0.005
        assert math.isclose(r["score_display"], total[r["contestant"]], abs_tol=tol), r
        assert r["boards"] == 27


def test_one_ranking_of_all_42_pairs_by_percentage(built, scored):
    st = scored.standings.sort("rank")
    assert st["direction"].null_count() == 42  # one field: no ranking per direction
    assert st["rank"].to_list()[0] == 1 and st["rank"].max() <= 42
    pct = st["percentage_display"].to_list()
    assert pct == sorted(pct, reverse=True)
    for r in st.iter_rows(named=True):  # a place is one more than the pairs above it
        assert r["rank"] == 1 + sum(p > r["percentage_display"] for p in pct)
    # both directions are in the one ranking, each pair under the number Compscore gives it
    top = st.head(10)["contestant"].to_list()
    assert any(c.endswith("NS") for c in top) and any(c.endswith("EW") for c in top)


def test_reconciliation_compares_every_line_by_the_seat(tmp_path):
    """With the program's (stale, two-winner) totals left out, the reconciliation lists the
    same lines as for the original file, each with its reason, and none unexplained."""
    inbox = tmp_path / "inbox"
    path, _ = build(inbox, totals=False)
    res, snap = score_inbox_day(inbox)
    diffs, files = reconcile(res.scored, res.standings, snap.source_standings)
    mine = diffs.filter(pl.col("file") == path.name)
    assert mine.filter(pl.col("code") == "unknown").height == 0
    assert set(mine["what"]) == {"line"}
    assert sorted(set(mine["board"])) == ["1", "3", "4"]
    by = {(r["board"], r["contestant"]): r["code"] for r in mine.iter_rows(named=True)}
    assert by[("1", "1NS-1EW")] == "average_over_played_score"
    assert by[("3", "1NS-1EW")] == "artificial_not_on_top"
    assert by[("4", "1NS-21EW")] == "swapped"
    summary = files.row(0, named=True)
    assert summary["compared"] == 567 and summary["unexplained"] == 0


def _day(inbox: Path):
    snap = scan(inbox)
    return score_day(
        snap.results,
        snap.rulings,
        snap.appeals,
        snap.events,
        now=datetime(2026, 11, 30),
        contestants=snap.contestants,
        lists=snap.contestants,
    )


def test_two_winners_with_switched_lines_are_still_rejected_as_arrow_switches(tmp_path):
    _, lines = build(tmp_path / "inbox", winner="2")
    day = _day(tmp_path / "inbox")
    reasons = day.rejected["reason"].to_list()
    assert len(reasons) == sum(x.switched for x in lines) == 42
    assert all("a pair of the other direction: an arrow-switched line" in r for r in reasons)
    # pairs of a two-winner Mitchell are numbered per direction, without the suffix
    assert set(day.validated["ns_pair"]) == {str(n) for n in range(1, 22)}


def test_events_csv_saying_mitchell_holds_the_switched_lines_with_the_fix(tmp_path):
    """``events.csv`` overrides the file's movement: two fields, in which a pair keeps its
    direction, so the switched lines are rejected (the event held) with a reason naming
    what to correct — never scored as two contestants of one pair."""
    inbox = tmp_path / "inbox"
    _, lines = build(inbox)
    (inbox / "events.csv").write_text("event_id,session,movement\n2074-3228,1,mitchell\n")
    day = _day(inbox)
    reasons = day.rejected["reason"].to_list()
    assert len(reasons) == sum(x.switched for x in lines)
    assert all("arrow-switched line" in r and "events.csv" in r for r in reasons)
    assert re.search(r"WINNER_TYPE 1", reasons[0])


def test_the_untouched_two_winner_file_reads_as_before(tmp_path):
    s = score_file(MITCHELL, tmp_path)
    assert set(s.lines["movement"]) == {"mitchell"}
    assert set(s.lines["ns_pair"]) == set(s.lines["ew_pair"]) == {str(n) for n in range(1, 22)}
    assert shared_file(REALDATA / MITCHELL).exists()
