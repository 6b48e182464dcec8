"""Batches of bounded weight (pipelines.batching): every item once, in order; no batch over
the budget but an item alone heavier than it; a batch closed only when the next item would
not fit."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from pipelines.batching import batches


def test_examples():
    assert batches(["a", "b", "c"], {"a": 60, "b": 50, "c": 70}.get, 120) == [["a", "b"], ["c"]]
    assert batches([300, 1, 1], lambda w: w, 100) == [[300], [1, 1]]
    assert batches([0, 0, 0], lambda w: w, 1) == [[0, 0, 0]]
    assert batches([], len, 1) == []


@given(st.lists(st.integers(0, 50), max_size=40), st.integers(1, 60))
def test_batches_keep_order_bound_weight_and_are_greedy(weights, budget):
    got = batches(list(enumerate(weights)), lambda item: item[1], budget)
    assert [item for b in got for item in b] == list(enumerate(weights))
    assert all(b for b in got)
    for b in got:
        total = sum(w for _, w in b)
        assert total <= budget or len(b) == 1
    for this, following in itertools.pairwise(got):
        assert sum(w for _, w in this) + following[0][1] > budget
