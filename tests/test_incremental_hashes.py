"""The fingerprints that decide what an incremental run redoes (pipelines.incremental):
a date's outcome hash ignores how its frames were built and in which order their rows come,
and changes with any stored value; the results fingerprint the audit and the site are keyed
on changes exactly when a date's inputs, its outcome or the inbox's content do."""

from __future__ import annotations

import polars as pl

from pipelines.incremental import outputs_hash, results_fingerprint


def _holds(rows: list[tuple[str, str, str]]) -> pl.DataFrame:
    return pl.DataFrame(
        rows, schema={"session_date": pl.Utf8, "event_id": pl.Utf8, "reason": pl.Utf8}, orient="row"
    )


ROWS = [("2026-11-02", "E1", "Law 77: score differs"), ("2026-11-02", "E2", "ruling R3")]


def test_the_outcome_hash_ignores_row_order_and_how_a_frame_was_built():
    a = _holds(ROWS)
    shuffled = _holds(ROWS[::-1])
    as_dates = a.with_columns(pl.col("session_date").str.to_date())
    reordered = a.select("reason", "event_id", "session_date")
    h = outputs_hash({"holds": a})
    assert outputs_hash({"holds": shuffled}) == h
    assert outputs_hash({"holds": as_dates}) == h
    assert outputs_hash({"holds": reordered}) == h


def test_the_outcome_hash_changes_with_any_value_and_with_the_row_count():
    h = outputs_hash({"holds": _holds(ROWS)})
    assert outputs_hash({"holds": _holds([ROWS[0], (*ROWS[1][:2], "ruling R4")])}) != h
    assert outputs_hash({"holds": _holds(ROWS[:1])}) != h
    assert outputs_hash({"holds": _holds([])}) != h
    # the same rows under another table are another outcome
    empty = outputs_hash({"holds": _holds([]), "standings": pl.DataFrame()})
    assert empty != outputs_hash({"holds": _holds([])})


def test_the_results_fingerprint_follows_inputs_outcomes_and_content():
    done = [("2026-11-02", "in1", "out1"), ("2026-11-03", "in2", "out2")]
    fp = results_fingerprint("content", done)
    assert results_fingerprint("content", done[::-1]) == fp
    assert results_fingerprint("content", [done[0], ("2026-11-03", "in2", "out3")]) != fp
    assert results_fingerprint("content", [done[0], ("2026-11-03", "in3", "out2")]) != fp
    assert results_fingerprint("content", done[:1]) != fp  # a date withdrawn
    assert results_fingerprint("other content", done) != fp
