"""The traveller and scorecard pages made in columns are the pages made row by row, byte for
byte.

The site (:mod:`pipelines.publish.site`, its rows by :mod:`pipelines.publish.rows`) and the
former site (:class:`tests.publish.page_oracles.RowByRowSite`: each line a Python dict
printed by a Jinja loop) publish the same snapshot into two folders, and every file of the
two is compared. The snapshot is the published sample's (rulings, appeals, a changed
version, a hostile name) with lines changed by Hypothesis: every kind of line (played,
passed out, not played, artificial, adjusted), every adjustment and ruling kind, a line
without a score (as the IMP forms leave it), a fouled board's versions, boards re-dealt per
round, a Mitchell and an individual, pairs the standings do not name, a line without its
table, texts that need escaping (``& < > ' "``), a ruling's public note, and figures that
round half to even or
are missing, NaN or ``-0.0``.
"""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.publish import load
from pipelines.publish import site as site_module
from pipelines.publish.common import fmt
from pipelines.publish.data import Published
from pipelines.publish.rows import figures, result_text, score_cells
from pipelines.publish.site import Site
from tests.publish import page_oracles as oracle
from tests.publish.conftest import Sample

_TEXTS = ["1", "12", "A&B", "<x>", 'q"t', "it's", "", None]
_CONTRACTS = ["4S", "3NT", "PASS", "7CXX", "1H", None, ""]
_RESULTS = ["4S N =", "3NT E -2", "PASS", " 4hx  w +1 ", "60% 4S N =; 40% 4S N -1", "A+",
            "A60", "", None]  # fmt: skip
_FIGURES = [None, 0.0, -0.0, 0.125, 2.675, 1.5, 2.5, 10.0, -3.25, 49.5, float("nan")]
_ADJUSTMENTS = [None, None, None, "assigned", "score_correction", "director_error",
                "artificial", "weighted", "split", "score_stands", "fouled_board"]  # fmt: skip
_RULINGS = [None, None, "assigned", "score_stands", "fouled_board", "imp_award",
            "director_error", "procedural_penalty"]  # fmt: skip


@pytest.fixture(scope="module")
def snapshot(sample: Sample) -> Published:
    """The published sample's snapshot, two of its events (their sessions, standings and
    results): what each example changes."""
    data = load(sample.warehouse)
    events = data.sessions["event_id"].unique(maintain_order=True).to_list()[:2]
    keep = pl.col("event_id").is_in(events)
    return dataclasses.replace(
        data,
        sessions=data.sessions.filter(keep),
        standings=data.standings.filter(keep),
        results=data.results.filter(keep),
        changes=data.changes.filter(keep),
        penalties=data.penalties.filter(keep),
        extra={
            k: (v.filter(keep) if v is not None and "event_id" in v.columns else v)
            for k, v in data.extra.items()
        },
    )


@st.composite
def changes(draw, rows: int) -> list[tuple[int, dict]]:
    """Lines of the results to change, and their new fields."""
    out = []
    for _ in range(draw(st.integers(1, 14))):
        at = draw(st.integers(0, rows - 1))
        fields = {
            "kind": draw(
                st.sampled_from(["played"] * 3 + ["not_played", "artificial", "adjusted", None])
            ),
            "adjustment": draw(st.sampled_from(_ADJUSTMENTS)),
            "ruling_kind": draw(st.sampled_from(_RULINGS)),
            "ruling_laws": draw(st.sampled_from([None, "12C1(b)", "16B1;12C1(b)", "87A"])),
            "ruling_public_note": draw(st.sampled_from([None, "", "agreed & <noted>"])),
            "effective_ns_result": draw(st.sampled_from(_RESULTS)),
            "effective_ew_result": draw(st.sampled_from(_RESULTS)),
            "contract": draw(st.sampled_from(_CONTRACTS)),
            "declarer": draw(st.sampled_from(["N", "E", "S", "W", None, ""])),
            "tricks": draw(st.one_of(st.none(), st.integers(0, 13))),
            "ns_score": draw(st.sampled_from([None, 0, 420, -50, 1430, -2210])),
            "computed_score": draw(st.sampled_from([None, 0, 420, -100])),
            "ns_art": draw(st.sampled_from(["+", "=", "-", "60", "", None])),
            "ew_art": draw(st.sampled_from(["+", "=", "-", "40", "", None])),
            "ns_mp_display": draw(st.sampled_from(_FIGURES)),
            "ew_mp_display": draw(st.sampled_from(_FIGURES)),
            "ns_pct": draw(st.sampled_from(_FIGURES)),
            "ew_pct": draw(st.sampled_from(_FIGURES)),
            "ns_imps": draw(st.sampled_from(_FIGURES)),
            "ns_imps_display": draw(st.sampled_from(_FIGURES)),
            "board_version": draw(st.sampled_from([None, "A", "B"])),
            "changed_on_appeal": draw(st.sampled_from([None, True, False])),
            "correction_id": draw(st.sampled_from([None, "C1"])),
            "recorded_score": draw(st.sampled_from([None, 420, -50])),
        }
        if draw(st.booleans()):
            fields["ns_pair"] = draw(st.sampled_from([*_TEXTS[:-1], "99"]))
        if draw(st.booleans()):
            fields["deal_round"] = draw(st.sampled_from([0, 2, None]))
        if draw(st.booleans()):
            fields["movement"] = draw(st.sampled_from(["mitchell", "howell", None]))
        if draw(st.booleans()):
            fields["table"] = draw(st.sampled_from([None, 1, 3]))
        if draw(st.booleans()):
            fields["datum"] = draw(st.sampled_from([None, 120, -40]))
        out.append((at, fields))
    return out


def _changed(data: Published, edits: list[tuple[int, dict]], individual: bool,
             names: str | None) -> Published:  # fmt: skip
    rows = data.results.to_dicts()
    for at, fields in edits:
        rows[at].update(fields)
    results = pl.DataFrame(rows, schema=data.results.schema)
    if individual:  # the first event an individual (Law 89): four players a table
        first = data.sessions["event_id"][0]
        results = results.with_columns(
            pl.when(pl.col("event_id") == first).then(pl.lit("individual"))
            .otherwise(pl.col("form")).alias("form")
        )  # fmt: skip
    standings = data.standings
    if names is not None:
        standings = standings.with_columns(
            pl.when(pl.col("contestant") == "1").then(pl.lit(names)).otherwise(pl.col("names"))
            .alias("names")
        )  # fmt: skip
    return dataclasses.replace(data, results=results, standings=standings)


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_pages_in_columns_are_the_pages_row_by_row(snapshot: Published, data) -> None:
    edits = data.draw(changes(snapshot.results.height))
    individual = data.draw(st.booleans())
    names = data.draw(st.sampled_from([None, "", "O'Neil & <Sons>", 'the "best"']))
    changed = _changed(snapshot, edits, individual, names)
    with tempfile.TemporaryDirectory() as tmp:
        columns, rows = Path(tmp) / "columns", Path(tmp) / "rows"
        Site(changed, columns).render()
        oracle.RowByRowSite(changed, rows).render()
        made, expected = _files(columns), _files(rows)
    assert made.keys() == expected.keys()
    differing = [p for p in expected if made[p] != expected[p]]
    assert not differing, (differing[0], made[differing[0]][:3000])


@pytest.mark.parametrize("at_once", [1, 500, 20_000])
def test_the_sample_site_is_the_site_made_row_by_row(
    sample: Sample, tmp_path, monkeypatch, at_once: int
) -> None:
    """The whole published sample (its four forms of line, rulings, appeals, a changed
    version), made both ways; the rows made for each session alone, for a few sessions at
    once and for all at once (:data:`~pipelines.publish.site.ROWS_AT_ONCE`)."""
    monkeypatch.setattr(site_module, "ROWS_AT_ONCE", at_once)
    data = load(sample.warehouse)
    Site(data, tmp_path / "columns").render()
    oracle.RowByRowSite(data, tmp_path / "rows").render()
    made, expected = _files(tmp_path / "columns"), _files(tmp_path / "rows")
    assert made == expected
    assert any(b'class="adjusted"' in v for v in made.values())  # adjusted lines shown


@given(
    values=st.lists(
        st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)), max_size=30
    ),
    places=st.lists(st.integers(0, 3), min_size=30, max_size=30),
)
def test_figures_are_fmt_of_each_value(values, places) -> None:
    series = pl.Series(values, dtype=pl.Float64)
    own = pl.Series(places[: len(values)], dtype=pl.Int64)
    assert figures(series, own).to_list() == [
        fmt(v, p) for v, p in zip(values, places, strict=False)
    ]
    assert figures(series, 2).to_list() == [fmt(v, 2) for v in values]


@given(
    rows=st.lists(
        st.fixed_dictionaries({
            "kind": st.sampled_from(["played", "artificial", "not_played", "adjusted", None]),
            "ns_art": st.sampled_from(["+", "60", "", None]),
            "ew_art": st.sampled_from(["-", "40", "", None]),
            "ns_score": st.one_of(st.none(), st.integers(-7600, 7600)),
            "contract": st.sampled_from(_CONTRACTS),
            "tricks": st.one_of(st.none(), st.integers(0, 13)),
        }),
        max_size=30,
    )
)  # fmt: skip
def test_cells_and_results_are_the_row_by_row_ones(rows) -> None:
    frame = pl.DataFrame(
        rows,
        schema={"kind": pl.String, "ns_art": pl.String, "ew_art": pl.String,
                "ns_score": pl.Int64, "contract": pl.String, "tricks": pl.Int8},
    )  # fmt: skip
    ns, ew = score_cells(pl.col("kind"), pl.col("ns_art"), pl.col("ew_art"), pl.col("ns_score"))
    result = result_text(pl.col("contract"), pl.col("tricks"))
    made = frame.select(ns.alias("ns"), ew.alias("ew"), result.alias("result"))
    assert made.rows() == [(*oracle._score_cells(r), oracle.result_cell(r)) for r in rows]


@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["a", "b", None]),
            st.one_of(st.none(), st.integers(-5, 5)),
            st.one_of(st.none(), st.floats(allow_nan=True)),
            st.one_of(st.none(), st.text(max_size=5)),
        ),
        max_size=40,
    )
)
def test_row_hashes_are_row_local(rows) -> None:
    """A row's hash is its own, whatever frame it is hashed in: a part's digest from its
    frame's hashes (:class:`~pipelines.publish.files.RowHashes`) is the part's."""
    from pipelines.publish.files import RowHashes, digest

    frame = pl.DataFrame(
        rows,
        schema={"k": pl.String, "i": pl.Int64, "f": pl.Float64, "t": pl.String},
        orient="row",
    )
    hashed = RowHashes.parts(frame, ["k"])
    for key, part in frame.partition_by(["k"], as_dict=True).items():
        assert digest(hashed[key]) == digest(part)
