"""Who takes part in each result (``completeness.sides``): one row per contestant of the
result, and its ``pairing`` — the ids of the contestants who sat at that table, sorted and
joined by ``|`` — by which the completeness checks tell one table from another."""

from __future__ import annotations

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from pipelines.scoring.completeness import sides

ids = st.one_of(st.none(), st.sampled_from(["1", "2", "9", "10", "T1", "T10", "a", "A"]))


def results(rows: list[tuple[str | None, ...]], form: str = "pairs") -> pl.DataFrame:
    """Results of one Howell session, one row per ``(ns_pair, ew_pair)`` or, for an
    individual, ``(north, south, east, west)``."""
    n = len(rows)
    seats = ["ns_pair", "ew_pair"] if form != "individual" else ["north", "south", "east", "west"]
    given = {c: [r[i] for r in rows] for i, c in enumerate(seats)}
    frame = {
        c: given.get(c, [None] * n)
        for c in ("ns_pair", "ew_pair", "north", "south", "east", "west")
    }
    return pl.DataFrame(
        {
            "event_id": ["E"] * n,
            "session": [1] * n,
            "section": ["A"] * n,
            "deal_round": [0] * n,
            "board": list(range(1, n + 1)),
            "round": [1] * n,
            "form": [form] * n,
            "movement": ["howell"] * n,
            "profile": ["wbf"] * n,
            "file": ["f.csv"] * n,
            "location": [f"line {i + 2}" for i in range(n)],
            **frame,
        },
        schema_overrides={
            c: pl.Utf8 for c in ("ns_pair", "ew_pair", "north", "south", "east", "west")
        },
    )


def by_hand(values: tuple[str | None, ...]) -> str:
    return "|".join(sorted(v for v in values if v is not None))


@given(st.lists(st.tuples(ids, ids), min_size=1, max_size=12))
def test_a_pairs_pairing_is_its_two_ids_sorted(rows):
    out = sides(results(rows))
    got = dict(zip(out["board"], out["pairing"], strict=True))
    for board, row in enumerate(rows, start=1):
        if any(v is not None for v in row):
            assert got[board] == by_hand(row)
    # one row per id given
    assert out.height == sum(v is not None for row in rows for v in row)


@given(st.lists(st.tuples(ids, ids, ids, ids), min_size=1, max_size=8))
def test_an_individuals_pairing_is_its_four_players_sorted(rows):
    out = sides(results(rows, form="individual"))
    got = dict(zip(out["board"], out["pairing"], strict=True))
    for board, row in enumerate(rows, start=1):
        if any(v is not None for v in row):
            assert got[board] == by_hand(row)


def test_pairs_and_individuals_together():
    both = pl.concat(
        [results([("10", "9")]), results([("P4", "P1", "P3", "P2")], form="individual")]
    ).with_columns(pl.Series("board", [1, 2]))
    out = sides(both)
    assert dict(zip(out["field"], out["pairing"], strict=True)) == {
        "ns_pair": "10|9",
        "ew_pair": "10|9",
        "north": "P1|P2|P3|P4",
        "south": "P1|P2|P3|P4",
        "east": "P1|P2|P3|P4",
        "west": "P1|P2|P3|P4",
    }
