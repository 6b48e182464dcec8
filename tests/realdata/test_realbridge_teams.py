"""RealBridge teams PBN (30 teams, 15 matches, boards 11-20): every ScoreIMP reproduced.

A match board is the two records with the same board and the same two teams; the team
sitting NS at one table sits EW at the other. The official ``[ScoreIMP "NS x EW -x"]``
of each record is :func:`match_imps` of its own NS score against the other table's: all
139 pairs (278 records) match. The 20 WALES-ITALY records (tables 1 and 17) have
Contract "Pass" but no ``[Score]`` tag; RealBridge shows ScoreIMP 0 for them, but they
are a missing score, not a passed-out board: we give them no result (null). The one
record left over (299 = 139 x 2 + 20 + 1) has no partner at the other table.
"""

from __future__ import annotations

import polars as pl

from pipelines.formats import read_file
from pipelines.laws.teams import match_imps, match_imps_expr
from tests.conftest import REALDATA, shared_file

FILE = "realbridge_teams_imp_30teams_10b.pbn"


def _records() -> pl.DataFrame:
    path = shared_file(REALDATA / FILE)
    df = read_file(path, REALDATA).results
    return df.select(
        "location",
        pl.col("table").cast(pl.Int64),
        pl.col("board").cast(pl.Int64),
        "ns_pair",
        "ew_pair",
        "contract",
        pl.col("score").cast(pl.Int64, strict=False),  # NP (no result) -> null
        pl.col("source_ns_mp").cast(pl.Int64).alias("official_ns"),
        pl.col("source_ew_mp").cast(pl.Int64).alias("official_ew"),
    ).with_columns(
        pl.min_horizontal("ns_pair", "ew_pair").alias("team_a"),
        pl.max_horizontal("ns_pair", "ew_pair").alias("team_b"),
    )


def _paired(df: pl.DataFrame) -> pl.DataFrame:
    """Each record beside the other table's record of the same match board."""
    other = df.select(
        "board",
        "team_a",
        "team_b",
        pl.col("table").alias("other_table"),
        pl.col("score").alias("other_score"),
        pl.col("ns_pair").alias("other_ns"),
    )
    return (
        df.join(other, on=["board", "team_a", "team_b"])
        .filter(pl.col("table") != pl.col("other_table"))
        .with_columns(match_imps_expr(pl.col("score"), pl.col("other_score")).alias("ns_imps"))
    )


def test_every_scoreimp_pair_reproduced():
    df = _records()
    assert df.height == 299
    p = _paired(df)
    # the team NS at one table is EW at the other
    assert (p["ns_pair"] != p["other_ns"]).all()
    scored = p.filter(pl.col("ns_imps").is_not_null())
    assert scored.height == 278  # 139 pairs, both records of each
    assert scored.filter(pl.col("ns_imps") != pl.col("official_ns")).height == 0
    assert (scored["official_ew"] == -scored["official_ns"]).all()
    pairs = {(r["board"], r["team_a"], r["team_b"]) for r in scored.iter_rows(named=True)}
    assert len(pairs) == 139
    # the scalar rule agrees with the vectorised one on every record
    for r in scored.iter_rows(named=True):
        assert match_imps(r["score"], r["other_score"]) == r["official_ns"]


def test_wales_italy_pass_without_score_is_a_missing_score():
    df = _records()
    wi = df.filter(pl.col("team_a").is_in(["ITALY"]) & pl.col("team_b").is_in(["WALES"]))
    assert wi.height == 20
    assert set(wi["table"].to_list()) == {1, 17}
    # the reader keeps them as not played (NP, no contract), each with a warning
    assert wi["contract"].is_null().all() and wi["score"].is_null().all()
    assert (wi["official_ns"] == 0).all()  # what RealBridge shows
    # a genuine pass-out elsewhere carries a score of 0, and is scored
    passed_out = df.filter(pl.col("contract") == "PASS")
    assert passed_out.height > 0 and (passed_out["score"] == 0).all()
    p = _paired(df).filter(pl.col("team_b") == "WALES")
    assert p.height == 20 and p["ns_imps"].is_null().all()  # no result, not 0 IMPs


def test_one_record_has_no_other_table():
    df = _records()
    p = _paired(df)
    lonely = df.join(p.select("location"), on="location", how="anti")
    assert lonely.height == 1


# ------------------------------------------------------------------ through the pipeline


def _scored(tmp_path):
    import shutil
    from datetime import datetime

    from pipelines.inbox import scan
    from pipelines.scoring.day import score_day
    from pipelines.scoring.imp_standings import matches

    shutil.copy(shared_file(REALDATA / FILE), tmp_path / FILE)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 11, 30)
    )
    rejected = day.rejected
    assert rejected.height == 0
    res = day.dated
    return res, matches(res.scored)


def test_pipeline_reproduces_every_scoreimp(tmp_path):
    """The scored_results of the teams file: ns_imps/ew_imps equal RealBridge's ScoreIMP on
    all 278 records of the 139 match boards with two results."""
    res, _ = _scored(tmp_path)
    sc = res.scored
    both = sc.filter(~pl.col("missing_result"))
    assert both.height == 278
    assert both.filter(pl.col("ns_imps") != pl.col("source_ns_mp")).height == 0
    assert both.filter(pl.col("ew_imps") != pl.col("source_ew_mp")).height == 0


def test_pipeline_reports_the_match_without_results(tmp_path):
    """WALES-ITALY recorded nothing: under the wbf profile (missing_board = average) each
    team gets Av = 0 IMPs a board (Law 12C2(b)), the match is reported with its 10 missing
    boards and is a 10-10 draw. The lone record (board 20, TURKEY-SWITZERLAND) has no other
    table: that board is missing for both teams."""
    res, ms = _scored(tmp_path)
    assert ms.height == 15
    wi = ms.filter(pl.col("home").is_in(["WALES", "ITALY"])).row(0, named=True)
    assert (wi["boards"], wi["missing_boards"], wi["home_vp"], wi["away_vp"]) == (10, 10, 10, 10)
    assert wi["winner"] is None
    ts = ms.filter(pl.col("home").is_in(["TURKEY", "SWITZERLAND"])).row(0, named=True)
    assert ts["missing_boards"] == 1
    others = ms.filter(pl.col("missing_boards") == 0)
    assert others.height == 13
    # balanced boards: the two teams' VPs sum to 20 and their net IMPs cancel
    assert ((others["home_vp"] + others["away_vp"]).round(2) == 20).all()
    assert ((others["home_net"] + others["away_net"]) == 0).all()
    # standings: every team once, by VPs
    st = res.standings
    assert st.height == 30 and set(st["unit"].to_list()) == {"VP"}
    assert st["percentage"].null_count() == 30
