"""Property-based tests (hypothesis) of the scoring invariants, on random sessions.

* Law 78A: on every board NS + EW = top for each played result, and each field sums to
  ``k(k-1)`` (``n(N-1)`` when factored): matchpoints are conserved.
* The vectorised scorer equals the scalar rules (matchpoints, Neuberg, linear, 12C2).
* Neuberg keeps each group's average: a group of n sums to n(N-1).
* Standings: a contestant's score is the exact sum of its board scores; equal
  percentages share a place and nothing else does.

The IMP/VP invariant (VP pairs sum to 20) and "penalties never touch other contestants"
belong to the teams and Laws-engine issues and are tested there.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines import profiles
from pipelines.laws.matchpoints import artificial, linear, matchpoints, neuberg, top
from pipelines.scoring.standings import session_standings
from tests.builders import score_row, scored

SCORES = [-200, -100, -50, 0, 50, 90, 110, 140, 420, 450, 620, 650]
ART = ["A60/40", "A40/60", "A50/50", "A60/60", "A+/-", "A=/=", "A-/+"]

result = st.one_of(
    st.sampled_from(SCORES).map(str),
    st.sampled_from(ART),
    st.just("NP"),
)


@st.composite
def sessions(draw):
    boards = draw(st.integers(1, 4))
    tables = draw(st.integers(1, 9))
    rows = []
    for b in range(1, boards + 1):
        present = draw(st.integers(1, tables))  # some tables may have no row at all
        outcome = draw(st.lists(result, min_size=present, max_size=present))
        if all(o.startswith("A") or o == "NP" for o in outcome):
            outcome[0] = "420"
        for t, o in enumerate(outcome):
            rows.append(score_row(b, str(2 * t + 1), str(2 * t + 2), o, line=len(rows) + 2))
    profile = draw(st.sampled_from(["wbf", "ebu", "acbl", "abf", "ffb"]))
    return rows, profile


def _exact(row: dict, side: str) -> Fraction:
    return Fraction(row[f"{side}_mp_num"], row["mp_den"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_matchpoints_conserved_and_equal_to_scalar_rules(case):
    rows, name = case
    prof = profiles.load(name)
    s = scored(rows, profile=name)
    for (b,), grp in s.group_by(["board"]):
        recs = grp.to_dicts()
        played = [r for r in recs if r["kind"] == "played"]
        n, big_n = len(played), recs[0]["expected"]
        full_top = top(big_n, prof.scale)
        assert all(r["top"] == full_top for r in recs)
        raw = matchpoints([r["ns_score"] for r in played])  # 2/1 scale
        has_art = any(r["kind"] == "artificial" for r in recs)
        method = (
            "none"
            if n == big_n
            else (prof.factoring_adjusted if has_art else prof.factoring_missing)
        )
        for r, m in zip(played, raw, strict=True):
            want = {"none": m, "neuberg": neuberg(m, n, big_n), "linear": linear(m, n, big_n)}[
                method
            ] * (1 if prof.scale == "2/1" else Fraction(1, 2))
            assert _exact(r, "ns") == want, (b, r)
            assert _exact(r, "ns") + _exact(r, "ew") == full_top
        if played:
            assert sum(_exact(r, "ns") for r in played) == n * full_top / 2
            assert sum(_exact(r, "ew") for r in played) == n * full_top / 2
        pct = {"+": prof.average_plus, "=": prof.average, "-": prof.average_minus}
        for r in recs:
            if r["kind"] == "artificial":
                ns = pct.get(r["ns_art"]) or int(r["ns_art"])
                ew = pct.get(r["ew_art"]) or int(r["ew_art"])
                assert _exact(r, "ns") == artificial(ns, big_n, prof.scale)
                assert _exact(r, "ew") == artificial(ew, big_n, prof.scale)


@given(st.lists(st.sampled_from(SCORES), min_size=1, max_size=15), st.integers(0, 10))
def test_neuberg_group_sums(scores, extra):
    n = len(scores)
    big_n = n + extra
    assert sum(neuberg(m, n, big_n) for m in matchpoints(scores)) == n * (big_n - 1)
    assert sum(neuberg(m, n, big_n, "1/0.5") for m in matchpoints(scores, "1/0.5")) == Fraction(
        n * (big_n - 1), 2
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_standings_sum_board_scores_and_rank_exactly(case):
    rows, name = case
    prof = profiles.load(name)
    if prof.sitout != "none" or prof.count != "exact" or prof.tiebreak != "none":
        name = "wbf"
    s = scored(rows, profile=name)
    st_ = session_standings(s)
    totals: dict[str, Fraction] = defaultdict(Fraction)
    tops: dict[str, Fraction] = defaultdict(Fraction)
    for r in s.filter(pl.col("kind") != "not_played").iter_rows(named=True):
        for side, pair in (("ns", r["ns_pair"]), ("ew", r["ew_pair"])):
            totals[pair] += _exact(r, side)
            tops[pair] += Fraction(r["top"])
    got = {r["contestant"]: r for r in st_.iter_rows(named=True)}
    assert set(got) == set(totals)
    pct = {}
    for pair, r in got.items():
        assert Fraction(r["score_num"], r["score_den"]) == totals[pair]
        assert Fraction(r["top_num"], r["top_den"]) == tops[pair]
        # a contestant whose boards all had a single result (top 0) stands at 50 %
        pct[pair] = totals[pair] / tops[pair] if tops[pair] else Fraction(1, 2)
        assert abs(r["percentage"] - float(100 * pct[pair])) < 1e-9
    for pair, r in got.items():
        assert r["rank"] == 1 + sum(1 for p in pct.values() if p > pct[pair])
        assert r["tied"] == (sum(1 for p in pct.values() if p == pct[pair]) > 1)
