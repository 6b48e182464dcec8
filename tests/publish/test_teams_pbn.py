"""Team sessions exported as PBN in RealBridge's per-record conventions
(:mod:`pipelines.publish.teams_pbn`) round-trip through Traveller's own PBN reader: every
``ScoreIMP`` written reads back exactly, and scoring the re-imported files gives the same IMPs
on every match board that no split or weighted score touched (those keep the result played at
the table; see :mod:`pipelines.publish.lines`)."""

from __future__ import annotations

import shutil

import duckdb
import polars as pl

from pipelines.formats.pbn import read_pbn
from tests.publish.conftest import Sample
from tests.publish.roundtrip import score_inbox

#: a match board: boards are numbered 1..N again in every round (re-dealt), so the round
#: is part of the key
ROW = ["event_id", "session", "round", "table", "board"]


def _ours(sample: Sample) -> pl.DataFrame:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(
            'SELECT event_id, session, round, "table", board, kind, adjustment, match_id, '
            "ns_imps_display, ew_imps_display FROM scored_results WHERE form = 'teams'"
        ).pl()


def _team_files(sample: Sample):
    teams = _ours(sample).select("event_id", "session").unique()
    names = {f"{e}-s{s}.pbn" for e, s in teams.iter_rows()}
    files = sorted(p for p in (sample.exports / "pbn-teams").glob("*.pbn") if p.name in names)
    assert len(files) == len(names) >= 4  # round robin, Swiss, the knockout's two sessions
    return files


def test_every_scoreimp_reads_back_exactly(sample: Sample):
    ours = _ours(sample)
    back = []
    for f in _team_files(sample):
        r = read_pbn(f, f.name)
        assert r.rejected.height == 0
        assert r.events["form"].to_list() == ["teams"]
        assert r.events["scoring"].to_list() == ["imps"]
        back.append(r.results)
    got = pl.concat(back).select(
        "event_id",
        pl.col("session").cast(pl.Int32),
        pl.col("round").cast(pl.Int32),
        pl.col("table").cast(pl.Int32),
        pl.col("board").cast(pl.Int32),
        pl.col("source_ns_mp").cast(pl.Float64),
        pl.col("source_ew_mp").cast(pl.Float64),
    )
    both = ours.join(got, on=ROW, how="full", coalesce=True)
    assert both.height == ours.height == got.height
    assert (both["source_ns_mp"] == both["ns_imps_display"]).all()
    assert (both["source_ew_mp"] == both["ew_imps_display"]).all()


def test_rescoring_the_team_exports_gives_the_same_imps(sample: Sample, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for f in [*_team_files(sample), sample.exports / "events.csv"]:
        shutil.copy(f, inbox / f.name)
    again = score_inbox(inbox)
    assert again.rejected.height == 0
    ours = _ours(sample)
    # match boards a split or weighted score touched keep the played result, and an IMP
    # award (Law 86B1) replaces the board's IMPs but not the results played: left out
    touched = (
        ours.filter((pl.col("kind") == "adjusted") | (pl.col("adjustment") == "imp_award"))
        .select("match_id", "round", "board")
        .unique()
    )
    clean = ours.join(touched, on=["match_id", "round", "board"], how="anti")
    assert clean.height > 0.9 * ours.height
    rescored = again.scored.select(
        *ROW, pl.col("ns_imps").alias("ns_again"), pl.col("ew_imps").alias("ew_again")
    )
    j = clean.join(rescored, on=ROW, how="left")
    assert j["ns_again"].null_count() == 0
    assert (j["ns_again"] == j["ns_imps_display"]).all()
    assert (j["ew_again"] == j["ew_imps_display"]).all()
    # the re-imported sessions keep their stage, VP scale and match length
    teams = again.snap.events.join(
        clean.select("event_id").unique(), on="event_id", how="semi"
    ).unique(["event_id", "session"])
    assert set(teams["stage"].to_list()) == {"round_robin", "swiss", "knockout"}
    assert teams["vp_scale"].null_count() == teams["boards_per_match"].null_count() == 0


def test_the_realbridge_file_round_trips(tmp_path):
    """The real RealBridge teams file, scored, exported and read back: the same 299 records,
    the same IMPs; re-scored, the same IMPs again (the WALES-ITALY match stays unplayed)."""
    from pipelines.publish import write_events_csv
    from pipelines.publish.teams_pbn import write_teams_pbn
    from tests.conftest import REALDATA, shared_file
    from tests.publish.roundtrip import as_published

    name = "realbridge_teams_imp_30teams_10b.pbn"
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(shared_file(REALDATA / name), src / name)
    ours = score_inbox(src)
    sessions, _, results = as_published(ours)
    files = write_teams_pbn(sessions, results, tmp_path / "out")
    assert len(files) == 1
    back = read_pbn(files[0], files[0].name)
    assert back.results.height == 299 and back.rejected.height == 0
    assert back.warnings.height == 20  # WALES-ITALY: Pass with no score, as RealBridge wrote it
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(files[0], inbox / files[0].name)
    write_events_csv(sessions, inbox / "events.csv")
    again = score_inbox(inbox)
    key = ["event_id", "session", "table", "board"]  # one round of boards 11-20
    a = ours.scored.select(*key, "ns_imps", "ew_imps", "missing_result")
    b = again.scored.select(*key, pl.col("ns_imps").alias("ns2"), pl.col("ew_imps").alias("ew2"))
    j = a.join(b, on=key, how="full", coalesce=True)
    assert j.height == 299
    assert (j["ns_imps"] == j["ns2"]).all() and (j["ew_imps"] == j["ew2"]).all()
