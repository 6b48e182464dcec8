"""Splitting a frame by key (:func:`pipelines.split.parts_by`) gives what Polars'
``partition_by(as_dict=True, maintain_order=True)`` gives: the same keys in the same order,
the same parts row for row, with or without their key columns, nulls among the keys."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.split import parts_by

rows = st.lists(
    st.tuples(
        st.one_of(st.none(), st.sampled_from(["a", "b", "B", "c10", "c9"])),
        st.one_of(st.none(), st.integers(-2, 3)),
        st.integers(-(2**40), 2**40),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(rows, st.sampled_from([["s"], ["i"], ["s", "i"], ["i", "s"], "s"]), st.booleans())
def test_parts_as_polars_splits_them(data, keys, include_key):
    frame = pl.DataFrame(data, schema={"s": pl.Utf8, "i": pl.Int64, "v": pl.Int64}, orient="row")
    got = parts_by(frame, keys, include_key=include_key)
    want = (
        frame.partition_by(keys, as_dict=True, maintain_order=True, include_key=include_key)
        if frame.height
        else {}
    )
    assert list(got) == list(want)
    for key, part in want.items():
        assert got[key].equals(part)
        assert got[key].columns == part.columns
