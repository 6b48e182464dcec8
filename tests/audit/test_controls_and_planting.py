"""The audit's controls (events' club and level) and the planted effects of the generator."""

from __future__ import annotations

import csv
from pathlib import Path

import polars as pl

from pipelines.formats.model import EVENT_COLUMNS
from pipelines.scoring.events import EVENTS_SCHEMA, resolve_events, with_defaults
from pipelines.synth.inbox import generate_inbox
from pipelines.synth.pairs import DIRECTORS, Planted


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _events(rows: list[dict[str, str | None]]) -> pl.DataFrame:
    frame = pl.DataFrame(
        {c: [r.get(c) for r in rows] for c in EVENT_COLUMNS},
        schema={c: pl.Utf8 for c in EVENT_COLUMNS},
    ).with_columns(pl.lit(0).alias("priority"))
    return frame


def test_club_and_level_default_from_the_event_id():
    ok, rejected = resolve_events(
        _events(
            [
                {"file": "e", "location": "line 2", "event_id": "CLUB7-2026-01-05", "session": "1"},
                {
                    "file": "e",
                    "location": "line 3",
                    "event_id": "CONG-2026",
                    "session": "1",
                    "club": "Velmoor",
                    "level": "congress",
                },
            ]
        )
    )
    assert rejected.height == 0
    out = with_defaults(ok).sort("event_id")
    assert list(out.columns) == list(EVENTS_SCHEMA)
    assert out["club"].to_list() == ["CLUB7", "Velmoor"]
    assert out["level"].to_list() == ["club", "congress"]


def test_an_unknown_level_is_rejected():
    _, rejected = resolve_events(
        _events(
            [{"file": "e", "location": "line 2", "event_id": "X-1", "session": "1", "level": "pub"}]
        )
    )
    assert rejected["field"].to_list() == ["level"]
    assert "club, congress, national" in rejected["reason"].item()


def test_planted_effects_change_only_the_directors_logs(tmp_path: Path):
    plain = generate_inbox(tmp_path / "plain", sessions=120, clubs=4, seed=5, other_forms=False)
    again = generate_inbox(
        tmp_path / "none", sessions=120, clubs=4, seed=5, planted=Planted(), other_forms=False
    )
    planted = Planted(overturned=DIRECTORS[0], no_procedural_penalties=DIRECTORS[1])
    summary = generate_inbox(
        tmp_path / "planted", sessions=120, clubs=4, seed=5, planted=planted, other_forms=False
    )
    assert plain == again
    for name in ("events.csv", "contestants.csv", "results-club1-2026-11-02.csv"):
        assert (tmp_path / "plain" / name).read_bytes() == (
            tmp_path / "planted" / name
        ).read_bytes()
    before = _rows(tmp_path / "plain" / "rulings.csv")
    after = _rows(tmp_path / "planted" / "rulings.csv")
    pp = [r for r in before if r["kind"] == "procedural_penalty" and r["director"] == DIRECTORS[1]]
    assert pp, "the season must have procedural penalties by that director to remove"
    assert summary.rulings == len(before) - len(pp) == len(after)
    assert not [
        r for r in after if r["kind"] == "procedural_penalty" and r["director"] == DIRECTORS[1]
    ]
