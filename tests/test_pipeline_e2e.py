"""End to end through Dagster: materialise every asset on small inboxes, check the warehouse.

Uses the same runner as ``traveller run`` (in-process ``materialize`` with the one
``Definitions``), a real DuckDB file, and real files exported by real scoring programs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.runner import run_inbox
from pipelines.synth.inbox import generate_inbox
from tests.conftest import REALDATA, shared_file


def q(db: Path, sql: str, **params) -> pl.DataFrame:
    with duckdb.connect(str(db), read_only=True) as c:
        return c.sql(sql, params=params or None).pl()


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("gen")
    generate_inbox(base / "inbox", sessions=4, clubs=2, seed=7)
    db = base / "w.duckdb"
    report = run_inbox(base / "inbox", db)
    assert report.failed_checks == []
    # sessions with missing results, two-session events, teams and an individual: complete
    assert report.held_events == []
    # the run's timings (traveller bench --end-to-end reads them): every group, every asset
    assert set(report.seconds) == {"inbox", "results", "audit", "publish"}
    assert {"scored_results", "standings", "publication"} <= set(report.step_seconds)
    assert all(v >= 0 for v in [*report.seconds.values(), *report.step_seconds.values()])
    return base, db


def test_generated_inbox_scores_everything(generated):
    _, db = generated
    acc = q(db, "SELECT * FROM source_files")
    results_rows = acc.filter(pl.col("format") == "csv")["rows_read"].sum()
    assert q(db, "SELECT count(*) n FROM scored_results")["n"].item() == results_rows
    assert q(db, "SELECT count(*) n FROM rejected_inputs")["n"].item() == 0
    # one session standing per contestant per session, event standings for every event
    per_session = q(
        db,
        """SELECT event_id, session, count(*) n FROM standings
                           WHERE scope = 'session' GROUP BY ALL""",
    )
    assert per_session.height == q(db, "SELECT count(*) n FROM events")["n"].item()
    assert (
        q(db, "SELECT count(DISTINCT event_id) n FROM standings WHERE scope = 'event'")["n"].item()
        == q(db, "SELECT count(DISTINCT event_id) n FROM events")["n"].item()
    )


def test_every_file_accounted_for(generated):
    _, db = generated
    from pipelines.warehouse import Warehouse

    acc = Warehouse(db).query("reports/file_accounting")
    assert acc["balanced"].all()
    assert (acc["rows_read"] == acc["rows_accepted"] + acc["rows_rejected"]).all()


def test_matchpoints_conserved_in_the_warehouse(generated):
    _, db = generated
    # boards with no split, weighted or fouled result: one denominator, a simple sum
    bad = q(
        db,
        """
        SELECT event_id, session, section, board FROM scored_results
        GROUP BY ALL
        HAVING bool_and(kind <> 'adjusted' AND board_version = 'A')
           AND 2 * sum(ns_mp_num) FILTER (kind = 'played')
               <> count(*) FILTER (kind = 'played') * CAST(any_value(top) AS BIGINT)
                  * any_value(mp_den) FILTER (kind = 'played')
        """,
    )
    assert bad.height == 0
    # every board, exactly, field by field (the check the pipeline runs)
    from pipelines.scoring.conservation import breaches

    assert breaches(q(db, "SELECT * FROM scored_results")).height == 0


def test_multi_session_event_totals(generated):
    _, db = generated
    two = q(db, "SELECT event_id FROM events GROUP BY event_id HAVING count(*) = 2")
    assert two.height >= 1
    ev = two["event_id"][0]
    newest = "AND status <> 'superseded'"
    s = q(
        db,
        f"""SELECT contestant, sum(score) s, sum(top) t FROM standings
            WHERE scope = 'session' AND event_id = $ev {newest} GROUP BY contestant""",
        ev=ev,
    )
    e = q(
        db,
        f"""SELECT contestant, score, top, percentage FROM standings
            WHERE scope = 'event' AND event_id = $ev {newest}""",
        ev=ev,
    )
    j = s.join(e, on="contestant")
    assert j.height == e.height
    assert ((j["s"] - j["score"]).abs() < 1e-9).all()
    assert ((100 * j["s"] / j["t"] - j["percentage"]).abs() < 1e-9).all()


def test_rerunning_leaves_the_same_warehouse(generated):
    base, db = generated
    tables = [
        "source_files",
        "events",
        "contestants",
        "raw_results",
        "validated_results",
        "scored_results",
        "standings",
        "rejected_inputs",
    ]
    before = {t: q(db, f"SELECT * FROM {t}").sort(pl.all()) for t in tables}
    run_inbox(base / "inbox", db)
    for t in tables:
        after = q(db, f"SELECT * FROM {t}").sort(pl.all())
        assert after.equals(before[t]), t


@pytest.mark.slow
def test_real_files_through_dagster(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for f in sorted(shared_file(REALDATA).iterdir()):
        shutil.copy(f, inbox / f.name)
    db = tmp_path / "w.duckdb"
    report = run_inbox(inbox, db)
    # the Howell and Magic Contest standings equal the official ones, place for place
    cmp = q(
        db,
        """
        SELECT s.event_id, s.contestant, s.score_display, s.percentage_display, s.rank,
               o.total::DOUBLE AS total, o.percentage::DOUBLE AS pct, o.place::INT AS place
        FROM standings s JOIN source_standings o
          ON o.event_id = s.event_id AND o.contestant = s.contestant
         AND (s.direction IS NULL OR o.direction = s.direction)
        WHERE s.scope = 'session' AND s.event_id IN ('2074-3226', '29835')
    """,
    )
    assert cmp.height == 12 + 44
    assert (cmp["score_display"] == cmp["total"]).all()
    assert (cmp["percentage_display"] == cmp["pct"]).all()
    assert (cmp["rank"] == cmp["place"]).all()
    # Butler, cross-IMP and teams files are scored: nothing of them is rejected, and every
    # line's IMPs equal the exporting program's (the teams file: the 278 records with a
    # result at both tables of their match board)
    rej = q(
        db,
        "SELECT file, count(DISTINCT location) n, any_value(reason) r FROM "
        "rejected_inputs GROUP BY file",
    )
    by_file = {r["file"]: r for r in rej.iter_rows(named=True)}
    imp = q(
        db,
        """
        SELECT file, count(*) n,
               count(*) FILTER (WHERE ns_imps_display = source_ns_mp
                                  AND ew_imps_display = source_ew_mp) agree
        FROM scored_results WHERE scoring IN ('butler', 'cross_imps', 'imps')
          AND NOT coalesce(missing_result, false)
        GROUP BY file
        """,
    )
    assert {r["file"]: (r["n"], r["agree"]) for r in imp.iter_rows(named=True)} == {
        "compscore_usebio_butler_mitchell_14p.xml": (245, 245),
        "compscore_usebio_cross_imp_howell_9p.xml": (108, 108),
        "realbridge_teams_imp_30teams_10b.pbn": (278, 278),
    }
    for f in (
        "compscore_usebio_butler_mitchell_14p.xml",
        "compscore_usebio_cross_imp_howell_9p.xml",
        "realbridge_teams_imp_30teams_10b.pbn",
    ):
        assert f not in by_file
    ms = q(db, "SELECT * FROM matches")
    assert ms.height == 15 and ms.filter(pl.col("missing_boards") == 10).height == 1
    # both Bridgemate databases are read and scored; the BCS file's erased entry and its
    # erase record are history (warnings), not rejections
    assert "bridgemate_bcs_jet3_howell_15p_22b_erased_result.bws" not in by_file
    assert "bridgemate_botwritten_jet4_howell_7p_21b.bws" not in by_file
    bws = q(db, "SELECT file, count(*) n FROM scored_results WHERE format = 'bws' GROUP BY file")
    assert dict(bws.iter_rows()) == {
        "bridgemate_bcs_jet3_howell_15p_22b_erased_result.bws": 154,
        "bridgemate_botwritten_jet4_howell_7p_21b.bws": 63,
    }
    from pipelines.warehouse import Warehouse

    assert Warehouse(db).query("reports/file_accounting")["balanced"].all()
    assert report.failed_checks == []
    # a phantom's sit-outs, a result short, a match short of a record: nothing held
    assert report.held_events == []
