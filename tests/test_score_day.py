"""The engine's entry point :func:`pipelines.scoring.day.score_day`: the profiles it is given
are the ones every step scores with, and the standings stage ranks the scored lines the score
stage stored instead of scoring the date again."""

from __future__ import annotations

from datetime import datetime

import polars as pl
import pytest

from pipelines import stages
from pipelines.inbox import scan
from pipelines.profiles import ProfileSet, load
from pipelines.scoring import versions
from pipelines.scoring.day import score_day
from pipelines.warehouse import Warehouse

DAY = "2026-11-20"
HEADER = "event_id,session,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
# Four pairs, two boards, two results a board: a top is 2 matchpoints (Law 78A, 2 per result
# beaten, 1 per tie). Board 1: pair 1 (NS) +420 beats pair 3 (NS) -50: 1 gets 2, 3 gets 0; EW
# 4 gets 2, 2 gets 0. Board 2: both tables 3NT S = +400: 1 each. Totals of 4: pair 1 and 4
# 3 (75 %), pairs 2 and 3 1 (25 %).
RESULTS = HEADER + (
    "E,1,1,1,2,4S,N,10,420\nE,1,1,3,4,4S,N,9,-50\nE,1,2,1,4,3NT,S,9,400\nE,1,2,3,2,3NT,S,9,400\n"
)
EVENTS = f"event_id,session,date,form,scoring\nE,1,{DAY},pairs,matchpoints\n"
DQ = (
    "ruling_id,event_id,session,kind,penalized,penalty,laws,ruled_at\n"
    f"D1,E,1,disciplinary_penalty,1,disqualified,91B,{DAY} 21:00\n"
)
NOW = datetime(2026, 11, 30)


def inbox(tmp_path, rulings: str | None = None):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / f"results-{DAY}.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(EVENTS)
    if rulings:
        (tmp_path / "rulings.csv").write_text(rulings)
    return tmp_path


def percentages(standings: pl.DataFrame) -> dict[str, float]:
    newest = standings.filter(pl.col("status") != "superseded")
    return dict(zip(newest["contestant"], newest["percentage"], strict=True))


def test_score_day_scores_ranks_and_reports_each_step(tmp_path):
    snap = scan(inbox(tmp_path))
    day = score_day(snap.results, snap.rulings, snap.appeals, snap.events, now=NOW)
    assert day.rejected.height == 0 and day.rulings.rejected.height == 0
    assert percentages(day.standings) == {"1": 75.0, "2": 25.0, "3": 25.0, "4": 75.0}
    assert set(day.seconds) == {"validate", "rulings", "score", "standings"}
    assert day.versions == [] and day.adjustments.height == 0  # no ruling, no adjustment


def test_the_profiles_given_are_the_ones_scored_with(tmp_path):
    # Law 91: a disqualified contestant is shown without a place, or left out, as the
    # profile's penalties.sanctioned says; the profile passed down decides, not the file.
    snap = scan(inbox(tmp_path, DQ))
    args = (snap.results, snap.rulings, snap.appeals, snap.events)
    assert load("wbf").penalties.sanctioned == "unranked"
    shown = score_day(*args, now=NOW).standings
    assert shown.filter(pl.col("contestant") == "1")["rank"].item() is None
    excluded = ProfileSet({"wbf": load("wbf").with_settings(sanctioned="excluded")})
    left_out = score_day(*args, excluded, now=NOW).standings
    assert "1" not in left_out["contestant"].to_list() and left_out.height == 3


def test_the_standings_stage_ranks_the_stored_scored_lines(tmp_path, monkeypatch):
    folder = inbox(tmp_path / "inbox")
    wh = Warehouse(tmp_path / "w.duckdb")
    stages.ingest(folder, wh)
    stages.build_raw(folder, wh, DAY)
    stages.build_ruling_log(folder, wh, DAY)
    stages.validate(wh, DAY)
    stages.rulings(wh, DAY)
    stages.score(wh, DAY)

    def scored_again(*args, **kwargs):
        raise AssertionError("the standings stage scored the date again")

    monkeypatch.setattr(versions, "score_state", scored_again)
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    stages.standings(wh, DAY)
    with wh.connect() as conn:
        rows = conn.sql("SELECT * FROM standings WHERE scope = 'session'").pl()
    assert percentages(rows) == {"1": 75.0, "2": 25.0, "3": 25.0, "4": 75.0}
    with pytest.raises(AssertionError, match="scored the date again"):
        stages.score(wh, DAY)  # the score stage does score
