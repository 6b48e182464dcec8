"""The generator's other forms (:mod:`pipelines.synth.forms`): team events (round robin,
Swiss, knockout), Butler and cross-IMP pairs and an individual, with directors' logs."""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.scoring.day import score_day
from pipelines.scoring.imp_standings import matches
from pipelines.scoring.rulings import validate_rulings
from pipelines.scoring.validate import validate_results
from pipelines.synth.forms import DECISIVE
from pipelines.synth.inbox import generate_inbox


@pytest.fixture(scope="module")
def inbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("forms")
    generate_inbox(out, sessions=6, clubs=3, seed=2026)
    return out


def _events(inbox: Path) -> list[dict]:
    with (inbox / "events.csv").open() as fh:
        return list(csv.DictReader(fh))


def test_every_form_is_generated(inbox):
    ev = _events(inbox)
    kinds = Counter((e["form"], e["scoring"], e["stage"]) for e in ev)
    assert kinds[("teams", "imps", "round_robin")] == 1
    assert kinds[("teams", "imps", "swiss")] == 1
    assert kinds[("teams", "imps", "knockout")] == 2  # semi-finals, then the final
    assert kinds[("pairs", "butler", "")] == 1 and kinds[("pairs", "cross_imps", "")] == 1
    assert kinds[("individual", "matchpoints", "")] == 1
    ko = [e for e in ev if e["stage"] == "knockout"]
    assert {e["vp_scale"] for e in ko} == {"none"}


def test_everything_validates_and_team_boards_pair_up(inbox):
    snap = scan(inbox)
    v, rejected = validate_results(snap.results, snap.events)
    assert rejected.height == 0, rejected.head(5).to_dicts()
    checked = validate_rulings(snap.rulings, snap.appeals, v, snap.events)
    assert checked.rejected.height == 0, checked.rejected.head(5).to_dicts()
    teams = v.filter(pl.col("form") == "teams")
    # each match board: at most two tables, the teams in swapped directions
    boards: dict[tuple, list[tuple[str, str]]] = defaultdict(list)
    for r in teams.iter_rows(named=True):
        pair = tuple(sorted((r["ns_pair"], r["ew_pair"])))
        boards[(r["event_id"], r["session"], r["round"], r["board"], pair)].append(
            (r["ns_pair"], r["ew_pair"])
        )
    assert all(len(t) <= 2 for t in boards.values())
    assert all(t[0] == t[1][::-1] for t in boards.values() if len(t) == 2)
    # rulings were made at the IMP events too, and their penalties are in IMPs or VPs
    r = checked.rulings.join(
        snap.events.select("event_id", "scoring").unique(), on="event_id", how="left"
    )
    at_imps = r.filter(pl.col("scoring").is_in(["imps", "butler", "cross_imps"]))
    assert at_imps.height > 0
    pens = at_imps.filter(pl.col("kind") == "procedural_penalty")["penalty"].to_list()
    assert all(p == "warning" or p.endswith(("IMP", "VP")) for p in pens)


def test_swiss_never_repeats_a_match_and_the_final_is_between_the_winners(inbox):
    snap = scan(inbox)
    ms = matches(_scored(snap))
    swiss = ms.filter(pl.col("stage") == "swiss")
    pairs = [frozenset((h, a)) for h, a in zip(swiss["home"], swiss["away"], strict=True)]
    assert len(pairs) == len(set(pairs)) == 12  # 8 teams, 3 rounds
    ko = ms.filter(pl.col("stage") == "knockout").sort("session")
    semis, final = ko.filter(pl.col("session") == 1), ko.filter(pl.col("session") == 2)
    # each semi-final is won by at least DECISIVE IMPs (module docstring)
    assert (semis["home_net"].abs() >= DECISIVE).all() and semis["winner"].null_count() == 0
    winners = set(semis["winner"].to_list())
    assert {final["home"].item(), final["away"].item()} == winners


def _scored(snap):
    """The inbox's results scored without its rulings."""
    return score_day(snap.results, None, None, snap.events, now=datetime(2026, 12, 1)).scored
