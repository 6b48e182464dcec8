"""A session's ranking rows counted and ordered in Python (:func:`~pipelines.publish.site.
spans`, :func:`~pipelines.publish.site.in_place_order`) exactly as the queries they replace
(``with_span``, ``DataFrame.sort(["rank", "contestant"], nulls_last=True,
maintain_order=True)``), on rankings with shared places, unranked contestants, sections,
directions and a missing direction."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.publish.site import in_place_order, spans, with_span

ROW = st.fixed_dictionaries(
    {
        "section": st.sampled_from([None, "A", "B"]),
        "direction": st.sampled_from([None, "", "NS", "EW"]),
        "rank": st.one_of(st.none(), st.integers(1, 6)),
        "contestant": st.one_of(st.none(), st.sampled_from(["1", "2", "10", "11", "9", "3EW"])),
        "seen": st.integers(0, 10**6),
    }
)
SCHEMA = {
    "section": pl.String,
    "direction": pl.String,
    "rank": pl.Int64,
    "contestant": pl.String,
    "seen": pl.Int64,
}


@settings(max_examples=300, deadline=None)
@given(st.lists(ROW, max_size=30))
def test_spans_count_as_the_window_query(rows):
    frame = pl.DataFrame(rows, schema=SCHEMA)
    expected = [r["span"] for r in with_span(frame).to_dicts()]
    assert [r["span"] for r in spans(frame.to_dicts())] == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(ROW, max_size=30))
def test_place_order_is_the_stable_sort_of_the_query(rows):
    frame = pl.DataFrame(rows, schema=SCHEMA)
    expected = frame.sort(["rank", "contestant"], nulls_last=True, maintain_order=True)
    assert in_place_order(frame.to_dicts()) == expected.to_dicts()


def test_a_shared_place_spans_its_contestants_in_their_section_and_direction_only():
    """Two pairs 2nd NS of section A share the place (span 2); the 2nd EW, the 2nd of
    section B and a pair without a direction do not count with them."""
    rows = [
        {"section": "A", "direction": "NS", "rank": 2, "contestant": "3"},
        {"section": "A", "direction": "NS", "rank": 2, "contestant": "5"},
        {"section": "A", "direction": "EW", "rank": 2, "contestant": "3"},
        {"section": "B", "direction": "NS", "rank": 2, "contestant": "1"},
        {"section": "A", "direction": None, "rank": 2, "contestant": "7"},
        {"section": "A", "direction": "", "rank": 2, "contestant": "8"},
    ]
    assert [r["span"] for r in spans(rows)] == [2, 2, 1, 1, 2, 2]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([None, "A", "B"]),
            st.sampled_from([None, "NS", "EW"]),
            st.one_of(st.none(), st.sampled_from(["1", "2", "10", "11", "9"])),
        ),
        unique=True,
        max_size=30,
    )
)
def test_a_versions_changes_are_listed_in_the_querys_order(keys):
    """A version's changed contestants (one row each) are listed by section, direction and
    contestant, nulls first, as the query sorted them."""
    from pipelines.publish.site import _by_section_direction_contestant

    frame = pl.DataFrame(
        [dict(zip(("section", "direction", "contestant"), k, strict=True)) for k in keys],
        schema={"section": pl.String, "direction": pl.String, "contestant": pl.String},
    )
    expected = frame.sort(["section", "direction", "contestant"]).to_dicts()
    assert sorted(frame.to_dicts(), key=_by_section_direction_contestant) == expected
