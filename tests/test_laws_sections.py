"""Penalties and rulings in a session of several sections: a pair number names a different
contestant in each section (and in each direction of a Mitchell), so a penalty touches the
one contestant it names (Laws 90, 91: "penalise the offending contestant"), with the top of
its own section, and never the pair of the same number in another section."""

from __future__ import annotations

import polars as pl

from tests.laws_engine import checked, result, ruling, run, session_events, validated


def two_sections() -> list[dict]:
    """Section A: 4 tables (top 6); section B: 3 tables (top 4); pairs 1..8 / 1..6."""
    rows, line = [], 2
    for sec, scores in (("A", [420, 450, 400, 420]), ("B", [100, 140, 170])):
        for b in (1, 2):
            for t, sc in enumerate(scores):
                rows.append(result(b, str(2 * t + 1), str(2 * t + 2), sc + b, line, sec))
                line += 1
    return rows


def score_of(st: pl.DataFrame, section: str, contestant: str) -> float:
    return st.filter((pl.col("section") == section) & (pl.col("contestant") == contestant))[
        "score"
    ].item()


def test_penalty_touches_only_its_section_and_uses_its_top():
    plain = run(two_sections(), []).standings
    pen = run(
        two_sections(),
        [ruling("P1", "procedural_penalty", penalized="3", section="B", penalty="25%")],
    ).standings
    # 25 % of section B's top of 4 is 1 MP, off pair 3 of B only
    assert score_of(plain, "B", "3") - score_of(pen, "B", "3") == 1.0
    assert score_of(plain, "A", "3") == score_of(pen, "A", "3")
    untouched = plain.join(pen, on=["section", "contestant"], suffix="_p").filter(
        pl.col("score") != pl.col("score_p")
    )
    assert untouched.select("section", "contestant").rows() == [("B", "3")]
    a = run(
        two_sections(),
        [ruling("P1", "procedural_penalty", penalized="3", section="A", penalty="25%")],
    ).standings
    assert score_of(plain, "A", "3") - score_of(a, "A", "3") == 1.5  # 25 % of A's top of 6
    assert score_of(plain, "B", "3") == score_of(a, "B", "3")


def test_penalty_without_section_is_refused_when_the_number_is_in_two_sections():
    events = session_events()
    v = validated(two_sections(), events)
    res = checked(v, events, [ruling("P1", "procedural_penalty", penalized="3", penalty="25%")])
    assert res.rulings.height == 0
    assert "give the section" in res.rejected["reason"].item()


def test_board_ruling_without_section_needs_one_when_the_table_is_in_two_sections():
    events = session_events()
    v = validated(two_sections(), events)
    r = ruling("R1", "assigned", 1, "1", "2", ns_result="+420")
    res = checked(v, events, [r])
    assert "give the section" in res.rejected["reason"].item()
    named = checked(v, events, [{**r, "section": "B"}])
    assert named.rejected.height == 0 and named.rulings["section"].item() == "B"
    scored = run(two_sections(), [{**r, "section": "B"}]).scored
    hit = scored.filter(pl.col("adjustment").is_not_null())
    assert hit.select("section", "ns_pair").rows() == [("B", "1")]


def test_mitchell_penalty_names_the_direction():
    events = session_events(movement="mitchell")
    rows = [
        result(b, str(t + 1), str(t + 1), 100 * t + b, 10 * b + t) for b in (1, 2) for t in range(3)
    ]
    plain = run(rows, [], events=events).standings
    pen = run(
        rows, [ruling("P1", "procedural_penalty", penalized="2EW", penalty="1 MP")], events=events
    ).standings
    diff = plain.join(pen, on=["contestant", "direction"], suffix="_p").filter(
        pl.col("score") != pl.col("score_p")
    )
    assert diff.select("contestant", "direction").rows() == [("2", "EW")]
