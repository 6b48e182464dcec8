"""Every older version of the sessions with decisions scored in one pass
(:func:`pipelines.scoring.versions._older_versions`) gives the standings and the changes that
scoring each version on its own gives, row for row and in the same order: a generated season
(pairs, teams, Butler, cross-IMPs, individuals; rulings, appeals, score corrections) run both
ways."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.runner import run_inbox
from pipelines.scoring import versions
from pipelines.synth.inbox import generate_inbox


def _tables(warehouse: Path) -> dict[str, pl.DataFrame]:
    with duckdb.connect(str(warehouse), read_only=True) as c:
        return {t: c.sql(f"SELECT * FROM {t}").pl() for t in ("standings", "standings_changes")}


def test_versions_scored_together_are_those_scored_one_at_a_time(tmp_path: Path, monkeypatch):
    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=60, clubs=6, seed=5)
    monkeypatch.setenv("TRAVELLER_NOW", "2027-01-01 12:00")
    passes: list[int] = []
    scored_once = versions.score_state

    def counted(*args, **kwargs):
        passes.append(args[0]["event_id"].str.contains("\x1f", literal=True).any())
        return scored_once(*args, **kwargs)

    monkeypatch.setattr(versions, "score_state", counted)
    run_inbox(inbox, tmp_path / "together.duckdb", publish_to=tmp_path / "p1")
    together = _tables(tmp_path / "together.duckdb")
    assert any(passes)  # versions were scored together
    # an event id holding the mark: every version scored on its own (the generator's ids
    # all hold a dash)
    monkeypatch.setattr(versions, "_VERSION_MARK", "-")
    passes.clear()
    run_inbox(inbox, tmp_path / "alone.duckdb", publish_to=tmp_path / "p2")
    alone = _tables(tmp_path / "alone.duckdb")
    assert passes and not any(passes)
    # sessions with two decisions or more: three versions and more
    assert alone["standings"]["version"].max() >= 3
    assert alone["standings_changes"].height > 0
    for table, frame in alone.items():
        assert together[table].equals(frame), table


@pytest.mark.parametrize("mark_in_id", [False, True])
def test_marks_are_taken_off(mark_in_id: bool, monkeypatch):
    """The version a row was scored as is read back from its event id, and the mark taken
    off; an id that holds the mark itself is never marked; versions that together hold more
    rows than the date are scored in several passes."""
    made = pl.DataFrame(
        {"event_id": ["a\x1fb" if mark_in_id else "a"], "session": [1], "__n": [2]},
        schema={"event_id": pl.Utf8, "session": pl.Int64, "__n": pl.Int32},
    )
    seen: list[list[str]] = []

    def fake_state(validated, in_effect, contestants, standings=True, *, profs=None):
        seen.append(validated["event_id"].to_list())
        return validated, validated.select("event_id", pl.lit(1).alias("session"))

    monkeypatch.setattr(versions, "score_state", fake_state)
    no_ruling = pl.DataFrame(schema={"event_id": pl.Utf8})
    monkeypatch.setattr(versions, "rulings_in_effect", lambda *a, **k: no_ruling)
    monkeypatch.setattr(versions, "superseded", lambda _rulings: set())
    # a session without decisions beside it: the date holds more rows than both versions
    # of the other (versions are scored together up to the date's number of rows)
    ident = made["event_id"][0]
    validated = pl.DataFrame({"event_id": [ident, "z", "z"], "session": [1, 1, 1]})
    rulings = pl.DataFrame(
        {"event_id": made["event_id"], "session": [1], "ruling_id": ["r"]},
        schema={"event_id": pl.Utf8, "session": pl.Int64, "ruling_id": pl.Utf8},
    )
    out = versions._older_versions(
        validated, rulings, pl.DataFrame(), None, {}, made, 2, versions.ProfileSet()
    )
    assert [f["version"].to_list() for f in out] == [[1], [2]]
    assert [f["event_id"].to_list() for f in out] == [made["event_id"].to_list()] * 2
    if mark_in_id:
        assert seen == [["a\x1fb"], ["a\x1fb"]]  # one at a time, never marked
    else:
        assert seen == [["a\x1f1", "a\x1f2"]]  # together, each version marked
    seen.clear()
    versions._older_versions(
        validated.head(1), rulings, pl.DataFrame(), None, {}, made, 2, versions.ProfileSet()
    )
    # two versions of a date of one row: one at a time
    assert seen == ([["a\x1fb"], ["a\x1fb"]] if mark_in_id else [["a\x1f1"], ["a\x1f2"]])
