"""Which decisions make new versions, and which rulings are in effect once some are made
(``versions.decisions``, ``versions.rulings_in_effect``): the frames are filtered in columns
and only the few rulings an applied appeal changed are read one by one. They must give what
reading every ruling and appeal as a Python dict gave (the former code, kept below as the
oracle: frozen on purpose), on logs of every kind of ruling and appeal outcome, late and not
applying rulings, superseded ones, missing times and repeated ids."""

from __future__ import annotations

import dataclasses

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.laws.vocabulary import OVERTURNED, RulingKind
from pipelines.scoring import versions
from pipelines.scoring.rulings import decide

# --- the oracle: every ruling and appeal read as a dict -----------------------------------


def oracle_decisions(rulings: pl.DataFrame, appeals: pl.DataFrame) -> list[tuple]:
    out = []
    kinds = dict(zip(rulings["ruling_id"], rulings["kind"], strict=True))
    applies = "applies" in appeals.columns
    for a in appeals.iter_rows(named=True):
        if applies and a["applies"] is False:
            continue
        if a["outcome"] in OVERTURNED and a["ruling_id"] in kinds:
            out.append(
                (
                    a["decided_at"] or "",
                    "appeal",
                    a["appeal_id"],
                    a["ruling_id"],
                    a["event_id"],
                    a["session"],
                )
            )
    for r in rulings.iter_rows(named=True):
        if r["kind"] == RulingKind.SCORE_CORRECTION and r["applies"]:
            out.append(
                (
                    r["ruled_at"] or r["session_date"] or "",
                    "correction",
                    r["ruling_id"],
                    r["ruling_id"],
                    r["event_id"],
                    r["session"],
                )
            )
    return sorted(out, key=lambda d: (d[0], d[2]))


def oracle_in_effect(
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    applied: set[str],
    replaced: set[str] | None = None,
) -> pl.DataFrame:
    changes: dict[str, list[dict]] = {}
    for a in appeals.sort("decided_at", "appeal_id", nulls_last=True).iter_rows(named=True):
        if a["appeal_id"] in applied and a["outcome"] in OVERTURNED:
            changes.setdefault(a["ruling_id"], []).append(a)
    rows = []
    if replaced is None:
        replaced = set(rulings["supersedes"].drop_nulls().to_list())
    for r in rulings.sort("ruled_at", "ruling_id", nulls_last=True).iter_rows(named=True):
        if r["kind"] == RulingKind.SCORE_CORRECTION and r["ruling_id"] not in applied:
            continue
        if r.get("late") or r["ruling_id"] in replaced:
            continue
        d = decide(r, changes.get(r["ruling_id"], []))
        if not d.in_effect:
            continue
        rows.append(
            {
                **r,
                "ruled_kind": r["kind"],
                "kind": d.kind,
                "ns_result": d.ns_result,
                "ew_result": d.ew_result,
                "penalty": d.penalty,
                "appeal_id": d.appeal_id,
            }
        )
    schema = dict(rulings.schema) | {"appeal_id": pl.Utf8, "ruled_kind": pl.Utf8}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


# --- logs ---------------------------------------------------------------------------------

RULING_IDS = [f"R{i}" for i in range(1, 9)]
APPEAL_IDS = [f"A{i}" for i in range(1, 7)]
TIMES = [None, "", "2026-10-15 20:07", "2026-10-15 21:30", "2026-10-16 09:00"]
RESULTS = [None, "A+", "A-", "A60", "A", "3NT E +1", "4H N -2", "PASS", "+620"]
PENALTIES = [None, "25%", "warning", "6 MP", "3 IMP"]
BOARD_KINDS = ["assigned", "artificial", "weighted", "score_correction", "score_stands"]
KINDS = [*BOARD_KINDS, "director_error", "procedural_penalty", "disciplinary_penalty"]
OUTCOMES = [None, "changed", "changed_one_side", "upheld", "withdrawn", "referred_back"]
maybe_bool = st.sampled_from([None, True, False])


@st.composite
def ruling(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(KINDS))
    board = kind not in ("procedural_penalty", "disciplinary_penalty")
    return {
        "session_date": "2026-10-15",
        "ruling_id": draw(st.sampled_from(RULING_IDS)),
        "event_id": draw(st.sampled_from(["E1", "E2"])),
        "session": draw(st.sampled_from([1, 2])),
        "board": draw(st.integers(1, 3)) if board else None,
        "ruled_at": draw(st.sampled_from(TIMES)),
        "kind": kind,
        "ns_result": draw(st.sampled_from(RESULTS)) if board else None,
        "ew_result": draw(st.sampled_from(RESULTS)) if board else None,
        "penalty": None if board else draw(st.sampled_from(PENALTIES)),
        "late": draw(maybe_bool),
        "applies": draw(maybe_bool),
        "supersedes": draw(st.sampled_from([None, None, *RULING_IDS[:3]])),
    }


@st.composite
def appeal(draw: st.DrawFn) -> dict:
    return {
        "appeal_id": draw(st.sampled_from(APPEAL_IDS)),
        "ruling_id": draw(st.sampled_from([*RULING_IDS, "R99"])),
        "event_id": draw(st.sampled_from(["E1", "E2"])),
        "session": draw(st.sampled_from([1, 2])),
        "decided_at": draw(st.sampled_from(TIMES)),
        "outcome": draw(st.sampled_from(OUTCOMES)),
        "ns_result": draw(st.sampled_from(RESULTS)),
        "ew_result": draw(st.sampled_from(RESULTS)),
        "penalty": draw(st.sampled_from(PENALTIES)),
        "applies": draw(maybe_bool),
    }


RULING_SCHEMA = {
    "session_date": pl.Utf8,  # ISO text, as the engine reads it (read/rulings_for_dates)
    "ruling_id": pl.Utf8,
    "event_id": pl.Utf8,
    "session": pl.Int64,
    "board": pl.Int64,
    "ruled_at": pl.Utf8,
    "kind": pl.Utf8,
    "ns_result": pl.Utf8,
    "ew_result": pl.Utf8,
    "penalty": pl.Utf8,
    "late": pl.Boolean,
    "applies": pl.Boolean,
    "supersedes": pl.Utf8,
}
APPEAL_SCHEMA = {
    "appeal_id": pl.Utf8,
    "ruling_id": pl.Utf8,
    "event_id": pl.Utf8,
    "session": pl.Int64,
    "decided_at": pl.Utf8,
    "outcome": pl.Utf8,
    "ns_result": pl.Utf8,
    "ew_result": pl.Utf8,
    "penalty": pl.Utf8,
    "applies": pl.Boolean,
}


def frame(rows: list[dict], schema: dict) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema, orient="row")


def _same(got, want) -> None:
    """``got`` and ``want`` (each a callable) give equal frames, or both raise the same error
    (an appeal's decision naming no result a board ruling can take)."""
    try:
        expected = want()
    except Exception as e:
        try:
            got()
        except type(e):
            return
        raise AssertionError(f"the oracle raised {e!r}, the code did not") from e
    result = got()
    assert result.schema == expected.schema
    assert result.equals(expected), (result, expected)


# --- the properties -----------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(
    st.lists(ruling(), max_size=10),
    st.lists(appeal(), max_size=8),
    st.sets(st.sampled_from([*RULING_IDS, *APPEAL_IDS])),
    st.one_of(st.none(), st.sets(st.sampled_from(RULING_IDS))),
)
def test_in_effect_as_read_row_by_row(rulings, appeals, applied, replaced):
    """The rulings in effect, with any decisions applied and any rulings replaced, are those
    the row-by-row reading gives: the same rows, values, order and column types."""
    r, a = frame(rulings, RULING_SCHEMA), frame(appeals, APPEAL_SCHEMA)
    _same(
        lambda: versions.rulings_in_effect(r, a, applied, replaced),
        lambda: oracle_in_effect(r, a, applied, replaced),
    )


@settings(max_examples=400, deadline=None)
@given(st.lists(ruling(), max_size=10), st.lists(appeal(), max_size=8))
def test_decisions_as_read_row_by_row(rulings, appeals):
    """The decisions (overturning appeals of known rulings that apply, score corrections
    that apply) and their order are those the row-by-row reading gives."""
    # ruling ids are unique in a validated log (the oracle's dict of them needs it)
    r = frame(rulings, RULING_SCHEMA).unique("ruling_id", keep="first", maintain_order=True)
    a = frame(appeals, APPEAL_SCHEMA)
    got = [dataclasses.astuple(d) for d in versions.decisions(r, a)]
    assert got == oracle_decisions(r, a)
    # the newest version: every decision made
    applied = {d[2] for d in got}
    _same(lambda: versions.latest_in_effect(r, a), lambda: oracle_in_effect(r, a, applied))


def test_an_appeal_withdrawing_a_penalty_takes_it_out_of_effect():
    """A penalty withdrawn on an applied appeal (a changed decision without a penalty) is not
    in effect; one changed to another amount carries that amount and the appeal's id; the
    ruling's own kind is kept as ``ruled_kind``, and a changed board ruling takes the kind its
    new results make (Law 93: the committee's decision replaces the director's)."""
    r = frame(
        [
            {**dict.fromkeys(RULING_SCHEMA), "ruling_id": "R1", "kind": "procedural_penalty"}
            | {"penalty": "25%", "applies": True, "event_id": "E1", "session": 1},
            {**dict.fromkeys(RULING_SCHEMA), "ruling_id": "R2", "kind": "procedural_penalty"}
            | {"penalty": "25%", "applies": True, "event_id": "E1", "session": 1},
            {**dict.fromkeys(RULING_SCHEMA), "ruling_id": "R3", "kind": "artificial"}
            | {"ns_result": "A+", "ew_result": "A-", "board": 2, "applies": True}
            | {"event_id": "E1", "session": 1},
        ],
        RULING_SCHEMA,
    )
    a = frame(
        [
            {**dict.fromkeys(APPEAL_SCHEMA), "appeal_id": "A1", "ruling_id": "R1"}
            | {"outcome": "changed", "decided_at": "2026-10-15 23:00"},
            {**dict.fromkeys(APPEAL_SCHEMA), "appeal_id": "A2", "ruling_id": "R2"}
            | {"outcome": "changed", "penalty": "10%", "decided_at": "2026-10-15 23:10"},
            {**dict.fromkeys(APPEAL_SCHEMA), "appeal_id": "A3", "ruling_id": "R3"}
            | {"outcome": "changed", "ns_result": "4H N -2", "decided_at": "2026-10-15 23:20"},
        ],
        APPEAL_SCHEMA,
    )
    before = versions.rulings_in_effect(r, a, set())
    assert before["ruling_id"].to_list() == ["R1", "R2", "R3"]
    assert before["appeal_id"].to_list() == [None, None, None]
    after = versions.rulings_in_effect(r, a, {"A1", "A2", "A3"})
    assert after.select("ruling_id", "kind", "ruled_kind", "penalty", "appeal_id").rows() == [
        ("R2", "procedural_penalty", "procedural_penalty", "10%", "A2"),
        ("R3", "assigned", "artificial", None, "A3"),
    ]
    assert after.filter(pl.col("ruling_id") == "R3")[["ns_result", "ew_result"]].row(0) == (
        "4H N -2",
        "4H N -2",
    )
