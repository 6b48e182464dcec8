"""Property-based tests (hypothesis) of the Laws engine on random sessions and rulings.

* Each field sums correctly whatever rulings apply (assigned, split, weighted, artificial,
  fouled boards): Law 78A conservation, per field and per version group.
* A weighted table scores each component against the field and weights the results
  (Law 12C1(c)), never the averaged raw score: equal to the scalar frequency form.
* Penalties (Laws 90, 91) change the penalised contestant's total and nobody else's
  figures, in its own section and in any other.
* An appeal the Laws do not allow (late, Law 92B) changes nothing.
* Weights in any fractions (1/3, 2/7) are scored exactly, component by component.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.laws.matchpoints import matchpoints_frequency
from pipelines.scoring.conservation import breaches
from tests.laws_engine import appeal, result, ruling, run

SCORES = [-200, -100, 0, 110, 140, 420, 450, 620, 650]
CONTRACTS = ["4S N =", "4S N -1", "3NT S +1", "2H E =", "PASS", "+420", "-100"]


@st.composite
def sessions_with_rulings(draw):
    tables = draw(st.integers(2, 7))
    boards = draw(st.integers(1, 3))
    rows, rulings, line = [], [], 2
    for b in range(1, boards + 1):
        for t in range(tables):
            rows.append(
                result(b, str(2 * t + 1), str(2 * t + 2), draw(st.sampled_from(SCORES)), line)
            )
            line += 1
        for t in draw(st.sets(st.integers(0, tables - 1), max_size=2)):
            ns, ew = str(2 * t + 1), str(2 * t + 2)
            kind = draw(
                st.sampled_from(["assigned", "split", "weighted", "artificial", "fouled_board"])
            )
            rid = f"R{b}-{t}"
            if kind == "assigned":
                rulings.append(
                    ruling(rid, "assigned", b, ns, ew, ns_result=draw(st.sampled_from(CONTRACTS)))
                )
            elif kind == "split":
                a, c = draw(st.sampled_from(CONTRACTS)), draw(st.sampled_from(CONTRACTS))
                rulings.append(ruling(rid, "assigned", b, ns, ew, ns_result=a, ew_result=c))
            elif kind == "weighted":
                w = draw(st.integers(1, 99))
                a, c = draw(st.sampled_from(CONTRACTS)), draw(st.sampled_from(CONTRACTS))
                rulings.append(
                    ruling(rid, "weighted", b, ns, ew, ns_result=f"{w}% {a}; {100 - w}% {c}")
                )
            elif kind == "artificial":
                a = draw(st.sampled_from(["A+", "A", "A-", "A60", "A40"]))
                c = draw(st.sampled_from(["A+", "A", "A-", "A60", "A40"]))
                rulings.append(ruling(rid, "artificial", b, ns, ew, ns_result=a, ew_result=c))
            else:
                rulings.append(
                    ruling(
                        rid,
                        "fouled_board",
                        b,
                        ns,
                        ew,
                        board_version=draw(st.sampled_from(["B", "C"])),
                    )
                )
    profile = draw(st.sampled_from(["wbf", "acbl", "ffb", "abf"]))
    return rows, rulings, profile


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions_with_rulings())
def test_every_field_sums_correctly_under_any_rulings(case):
    from tests.laws_engine import session_events

    rows, rulings, profile = case
    res = run(rows, rulings, events=session_events(profile=profile))
    assert breaches(res.scored).height == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(SCORES), min_size=2, max_size=8),
    st.integers(1, 99),
    st.sampled_from(CONTRACTS),
    st.sampled_from(CONTRACTS),
)
def test_weighted_table_scores_each_component_then_weights(others, w, a, c):
    rows = [result(1, str(2 * t + 1), str(2 * t + 2), s, t + 2) for t, s in enumerate(others)]
    k = len(others)
    rows.append(result(1, str(2 * k + 1), str(2 * k + 2), 0, k + 2))
    rul = ruling(
        "R1", "weighted", 1, str(2 * k + 1), str(2 * k + 2), ns_result=f"{w}% {a}; {100 - w}% {c}"
    )
    res = run(rows, [rul])
    from pipelines.laws.adjustments import parse_side_result

    comps = parse_side_result(f"{w}% {a}; {100 - w}% {c}", 1)
    want = sum(
        (
            comp.weight
            * matchpoints_frequency(comp.ns_score, [(s, 1) for s in others] + [(comp.ns_score, 1)])
            for comp in comps
        ),
        Fraction(0),
    )
    r = res.scored.filter(pl.col("ns_pair") == str(2 * k + 1)).row(0, named=True)
    assert Fraction(r["ns_mp_num"], r["mp_den"]) == want
    # and every other table compares with each component at its weight
    for t, s in enumerate(others):
        field = [(x, 1) for i, x in enumerate(others) if i != t] + [(s, 1)]
        field += [(comp.ns_score, comp.weight) for comp in comps]
        got = res.scored.filter(pl.col("ns_pair") == str(2 * t + 1)).row(0, named=True)
        assert Fraction(got["ns_mp_num"], got["mp_den"]) == matchpoints_frequency(s, field)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions_with_rulings(), st.data())
def test_penalties_touch_nobody_else(case, data):
    rows, rulings, _ = case
    pairs = sorted({r["ns_pair"] for r in rows} | {r["ew_pair"] for r in rows}, key=int)
    victim = data.draw(st.sampled_from(pairs))
    amount = data.draw(st.sampled_from(["25%", "3 MP", "10%", "warning"]))
    before = run(rows, rulings).standings
    pen = ruling("P1", "procedural_penalty", penalized=victim, penalty=amount, laws="90")
    after = run(rows, [*rulings, pen]).standings
    j = before.join(after, on="contestant", suffix="_after")
    others = j.filter(pl.col("contestant") != victim)
    assert (others["score"] == others["score_after"]).all()
    assert (others["percentage"] == others["percentage_after"]).all()
    me = j.filter(pl.col("contestant") == victim).row(0, named=True)
    assert me["score_after"] <= me["score"]
    assert abs(me["score"] - me["score_after"] - me["penalties_after"]) < 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions_with_rulings(), sessions_with_rulings(), st.data())
def test_penalties_touch_nobody_else_in_any_section(a, b, data):
    """Two sections numbering their pairs alike: a penalty on pair p of one section changes
    that contestant's total only — never pair p of the other section (Laws 90, 91)."""
    rows, rulings = [], []
    for sec, (r_rows, r_rulings, _) in (("A", a), ("B", b)):
        rows += [{**r, "section": sec, "location": f"{sec} {r['location']}"} for r in r_rows]
        rulings += [{**r, "section": sec, "ruling_id": f"{sec}{r['ruling_id']}"} for r in r_rulings]
    section = data.draw(st.sampled_from(["A", "B"]))
    pairs = sorted(
        {r["ns_pair"] for r in rows if r["section"] == section}
        | {r["ew_pair"] for r in rows if r["section"] == section},
        key=int,
    )
    victim = data.draw(st.sampled_from(pairs))
    pen = ruling("P1", "procedural_penalty", penalized=victim, section=section, penalty="25%")
    before = run(rows, rulings).standings
    after = run(rows, [*rulings, pen]).standings
    j = before.join(after, on=["section", "contestant"], suffix="_after")
    hit = (pl.col("section") == section) & (pl.col("contestant") == victim)
    others = j.filter(~hit)
    assert (others["score"] == others["score_after"]).all()
    me = j.filter(hit).row(0, named=True)
    assert me["score"] - me["score_after"] == pytest.approx(me["penalties_after"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions_with_rulings(), st.data())
def test_appeals_the_laws_do_not_allow_change_nothing(case, data):
    """A late appeal (Law 92B), whatever it decided, leaves every figure as it was."""
    rows, rulings, _ = case
    if not rulings:
        return
    target = data.draw(st.sampled_from(rulings))
    late = appeal(
        "A1",
        target["ruling_id"],
        "changed",
        ns_result=data.draw(st.sampled_from(CONTRACTS)),
        lodged_at="2026-11-03 09:00",
    )
    before = run(rows, rulings).standings
    after = run(rows, rulings, [late]).standings
    assert after["version"].max() == before["version"].max()
    cols = ["section", "contestant", "direction", "score", "percentage", "rank", "status"]
    assert after.select(cols).sort(cols[:3]).equals(before.select(cols).sort(cols[:3]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(SCORES), min_size=2, max_size=6),
    st.integers(1, 6),
    st.integers(2, 7),
    st.sampled_from(CONTRACTS),
    st.sampled_from(CONTRACTS),
)
def test_weights_in_any_fractions_score_each_component(others, num, den, a, c):
    """Law 12C1(c) with weights such as 1/3 or 2/7: still Σ w_i MP(component_i), exact."""
    num = min(num, den - 1)
    rows = [result(1, str(2 * t + 1), str(2 * t + 2), s, t + 2) for t, s in enumerate(others)]
    k = len(others)
    rows.append(result(1, str(2 * k + 1), str(2 * k + 2), 0, k + 2))
    text = f"{num}/{den} {a}; {den - num}/{den} {c}"
    res = run(rows, [ruling("R1", "weighted", 1, str(2 * k + 1), str(2 * k + 2), ns_result=text)])
    from pipelines.laws.adjustments import parse_side_result

    comps = parse_side_result(text, 1)
    want = sum(
        (
            comp.weight
            * matchpoints_frequency(comp.ns_score, [(s, 1) for s in others] + [(comp.ns_score, 1)])
            for comp in comps
        ),
        Fraction(0),
    )
    r = res.scored.filter(pl.col("ns_pair") == str(2 * k + 1)).row(0, named=True)
    assert Fraction(r["ns_mp_num"], r["mp_den"]) == want
    assert breaches(res.scored).height == 0
