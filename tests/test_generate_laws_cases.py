"""The generator produces the team and individual cases of the Laws the engine applies: a
round robin whose rounds each play boards 1..N (new deals), a director's error at both
tables of a match board (Law 86B2), an IMP award (Law 86B1), a knockout IMP penalty
(Law 90; never a VP penalty in a knockout) and an individual's variable artificial score
(Law 89 with 12C2(c))."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.scoring.day import score_day
from pipelines.scoring.imp_standings import matches
from pipelines.scoring.versions import penalties_frame
from pipelines.synth.inbox import generate_inbox


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory):
    out: Path = tmp_path_factory.mktemp("cases")
    generate_inbox(out, sessions=6, clubs=3, seed=2026)
    snap = scan(out)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 12, 1)
    )
    v, rejected, rul = day.validated, day.rejected, day.rulings
    assert rejected.height == 0, rejected.head(5).to_dicts()
    assert rul.rejected.height == 0, rul.rejected.head(5).to_dicts()
    res = day.dated
    return v, rul.rulings, res


def test_round_robin_rounds_each_play_boards_1_to_4(scored):
    v, _, _ = scored
    rr = v.filter(pl.col("event_id").str.starts_with("TEAMS"))
    per_round = rr.group_by("round").agg(pl.col("board").unique().sort())
    assert per_round.height == 5
    assert all(b.to_list() == [1, 2, 3, 4] for b in per_round["board"])
    assert rr["deal_round"].n_unique() == 5


def test_director_error_at_both_tables_is_scored_once(scored):
    _, rulings, res = scored
    de = rulings.filter(
        pl.col("event_id").str.starts_with("TEAMS") & (pl.col("kind") == "director_error")
    )
    assert de.height >= 2
    both = de.group_by("round", "board").agg(pl.len()).filter(pl.col("len") == 2)
    assert both.height == 1
    rnd, board = both["round"].item(), both["board"].item()
    rows = res.scored.filter(
        pl.col("event_id").str.starts_with("TEAMS")
        & (pl.col("round") == int(rnd))
        & (pl.col("board") == board)
        & pl.col("ruling_id").is_in(de["ruling_id"].to_list())
    )
    assert rows.height == 2
    # Law 86B2(a): nobody at fault, each team Av+ (+3 IMPs) once, never +6
    assert set(rows["ns_imps"].to_list()) | set(rows["ew_imps"].to_list()) == {3.0}


def test_an_imp_award_is_generated_and_applied(scored):
    _, rulings, res = scored
    award = rulings.filter(pl.col("kind") == "imp_award").row(0, named=True)
    assert award["event_id"].startswith("SWISS")
    want = Fraction(award["ns_result"].split()[0])
    row = res.scored.filter(pl.col("ruling_id") == award["ruling_id"]).row(0, named=True)
    assert Fraction(row["ns_imps_num"], row["imps_den"]) == want
    assert Fraction(row["ew_imps_num"], row["imps_den"]) == -want


def test_knockout_penalty_is_in_imps_and_comes_off_in_full(scored):
    _, rulings, res = scored
    ko = rulings.filter(pl.col("event_id").str.starts_with("KO"))
    pens = ko.filter(pl.col("kind") == "procedural_penalty")
    assert "3 IMP" in pens["penalty"].to_list()
    assert not any(p.endswith("VP") for p in pens["penalty"].drop_nulls().to_list())
    ms = matches(res.scored, penalties_frame(rulings, res.scored))
    final = ms.filter(pl.col("event_id").str.starts_with("KO") & (pl.col("session") == 2))
    m = final.row(0, named=True)
    margin = (m["home_imps"] - m["home_penalties"]) - (m["away_imps"] - m["away_penalties"])
    assert m["home_penalties"] + m["away_penalties"] >= 3
    assert m["winner"] == (m["home"] if margin > 0 else m["away"] if margin < 0 else None)


def test_individual_variable_average_goes_to_each_player(scored):
    _, _, res = scored
    ind = res.scored.filter(pl.col("form") == "individual")
    art = ind.filter(pl.col("score_stated") == "A+/-")
    assert art.height == 1
    r = art.row(0, named=True)
    # Av+ to north and south, each at least 60 % of the top (Law 12C2(c)); Av- at most 40 %
    top = Fraction(2 * (r["expected"] - 1))

    def own(side: str, seat: str | None = None) -> Fraction:
        """A player's figure: the side's, or the south/west player's own where he has one."""
        mine = r[f"{seat}_mp_num"] if seat else None
        return Fraction(mine if mine is not None else r[f"{side}_mp_num"], r["mp_den"])

    north, south = own("ns"), own("ns", "south")
    east, west = own("ew"), own("ew", "west")
    assert min(north, south) >= top * 6 / 10 and max(east, west) <= top * 4 / 10
