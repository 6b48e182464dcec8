"""The audit through Dagster on the bundled sample: marts in the warehouse, their checks,
the reports (assets and command line), re-runs, and no names or ID numbers in public."""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from pipelines import stages
from pipelines.cli import app
from pipelines.resources import SAMPLE_INBOX
from pipelines.runner import run_inbox
from pipelines.warehouse import Warehouse

MARTS = ("penalty_stats", "appeal_stats", "director_audit", "ruling_discrepancies")


def q(db: Path, sql: str) -> pl.DataFrame:
    with duckdb.connect(str(db), read_only=True) as c:
        return c.sql(sql).pl()


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("audit")
    inbox = base / "inbox"
    shutil.copytree(SAMPLE_INBOX, inbox)
    db = base / "w.duckdb"
    report = run_inbox(inbox, db)
    assert report.failed_checks == []
    return inbox, db


def test_marts_are_written_and_reconcile(sample):
    _, db = sample
    for mart in MARTS:
        assert q(db, f"SELECT count(*) n FROM {mart}")["n"].item() >= 0
    rulings = q(db, "SELECT count(*) n FROM rulings")["n"].item()
    audited = q(
        db,
        "SELECT sum(rulings) n FROM director_audit "
        "WHERE period_kind = 'season' AND measure = 'adjustment_rate'",
    )["n"].item()
    assert audited == rulings > 0
    bar = q(
        db,
        "SELECT appeals, boards_played, board_appeal_ratio FROM appeal_stats "
        "WHERE period_kind = 'season' AND dimension = 'all'",
    ).row(0)
    assert bar[0] == q(db, "SELECT count(*) n FROM appeals")["n"].item()
    assert (
        bar[1]
        == q(db, "SELECT count(*) n FROM scored_results WHERE kind <> 'not_played'")["n"].item()
    )
    assert bar[2] == pytest.approx(bar[0] * 1000 / bar[1])
    wh = Warehouse(db)
    assert stages.check(wh, "audit_rates_in_range")[0]
    assert stages.check(wh, "audit_counts_reconcile")[0]
    controls = q(db, "SELECT DISTINCT controls FROM director_audit")["controls"].to_list()
    assert controls == ["level, form, scoring"]


def test_a_report_made_again_draws_no_kept_panel_and_is_the_same_file(
    sample, tmp_path, monkeypatch, nothing_remembered
):
    """Each report keeps its funnel panels (and the transparency report its monthly trend)
    beside it (``reports/.charts/<kind>``); made again from the same warehouse it draws none
    of them and is byte for byte the same file."""
    from pipelines.reports import plots

    _, db = sample
    reports = db.parent / "reports"
    out = tmp_path / "reports"
    shutil.copytree(reports, out)
    drawn = []
    panel, trend = plots._panel, plots.trend_svg
    monkeypatch.setattr(plots, "_panel", lambda *a: drawn.append(a[1]) or panel(*a))
    monkeypatch.setattr(plots, "trend_svg", lambda m: drawn.append("trend") or trend(m))
    for kind in ("audit", "transparency"):
        assert list((reports / ".charts" / kind).glob("*.json"))
        stages.report(Warehouse(db), kind, out)
        assert (out / f"{kind}.html").read_bytes() == (reports / f"{kind}.html").read_bytes()
    assert drawn == []
    # with nothing kept, every panel is drawn: the same file again
    shutil.rmtree(out / ".charts")
    stages.report(Warehouse(db), "audit", out)
    assert drawn and (out / "audit.html").read_bytes() == (reports / "audit.html").read_bytes()


def test_reports_made_on_kept_charts_a_night_later_are_the_reports_made_from_scratch(
    sample, tmp_path
):
    """The reports of the first evening, then of both evenings into the same folder (the
    second drawing only the charts whose data changed), are byte for byte the reports of
    both evenings made into an empty folder."""
    _, db = sample
    wh = Warehouse(db)
    first = wh.query("read/dates")["session_date"].min()
    kept, fresh = tmp_path / "kept", tmp_path / "fresh"
    stages.reports(wh, ("audit", "transparency"), kept, date_to=str(first))
    stages.reports(wh, ("audit", "transparency"), kept)
    stages.reports(wh, ("audit", "transparency"), fresh)
    for kind in ("audit", "transparency"):
        assert (kept / f"{kind}.html").read_bytes() == (fresh / f"{kind}.html").read_bytes()
        charts = sorted(p.name for p in (kept / ".charts" / kind).iterdir())
        assert charts == sorted(p.name for p in (fresh / ".charts" / kind).iterdir())


def test_the_reports_are_one_step_reading_the_warehouse_once(sample, tmp_path, monkeypatch):
    """The two reports are one step (``audit_reports``): the audit's inputs are read once and
    the marts of their window computed once, not once per report, and each report is byte
    for byte the one made alone from scratch; asked for one report, the step makes it alone."""
    import dagster as dg

    import pipelines.reports.audit as reports
    from assets.audit import audit_reports
    from pipelines.resources import PublicationResource, WarehouseResource

    _, db = sample
    folder = tmp_path / "w"
    folder.mkdir()
    shutil.copy(db, folder / "w.duckdb")
    alone = tmp_path / "alone"
    for kind in ("audit", "transparency"):
        stages.report(Warehouse(folder / "w.duckdb"), kind, alone)
    calls: list[str] = []
    read, build = stages.audit_inputs, reports.build_marts
    monkeypatch.setattr(
        stages, "audit_inputs", lambda *a, **k: calls.append("read") or read(*a, **k)
    )
    monkeypatch.setattr(
        reports, "build_marts", lambda *a, **k: calls.append("marts") or build(*a, **k)
    )
    resources = {
        "warehouse": WarehouseResource(path=str(folder / "w.duckdb")),
        "publication": PublicationResource(path=str(tmp_path / "published")),
    }
    assert dg.materialize([audit_reports], resources=resources).success
    assert calls == ["read", "marts"]
    for kind in ("audit", "transparency"):
        made = (folder / "reports" / f"{kind}.html").read_bytes()
        assert made == (alone / f"{kind}.html").read_bytes(), kind
    shutil.rmtree(folder / "reports")
    calls.clear()
    one = dg.materialize([audit_reports], selection=["transparency_report"], resources=resources)
    assert one.success and calls == ["read", "marts"]
    assert sorted(p.name for p in (folder / "reports").glob("*.html")) == ["transparency.html"]


def test_the_checks_catch_a_mart_that_does_not_reconcile(sample, tmp_path):
    _, db = sample
    copy = tmp_path / "w.duckdb"
    shutil.copy(db, copy)
    with duckdb.connect(str(copy)) as c:
        c.execute(
            "UPDATE director_audit SET rulings = rulings + 1 WHERE measure = 'adjustment_rate'"
        )
        c.execute("UPDATE director_audit SET rate = 1.5 WHERE n > 0")
    wh = Warehouse(copy)
    ok, bad = stages.check(wh, "audit_counts_reconcile")
    assert not ok and "director_audit.rulings" in bad["what"].to_list()
    ok, bad = stages.check(wh, "audit_rates_in_range")
    assert not ok and (bad["value"] == 1.5).all()


def test_reports_are_materialised_beside_the_warehouse(sample):
    _, db = sample
    for kind in ("audit", "transparency"):
        html = (db.parent / "reports" / f"{kind}.html").read_text(encoding="utf-8")
        assert html.startswith("<!DOCTYPE html>")
        assert "<svg" in html and "How to read a funnel plot" in html
        # self-contained: nothing is fetched when it is opened
        assert not re.search(r"""(src|href)=["']?https?:""", html)
        assert "<script" not in html
        # each chart has a sentence under it saying what to read from it
        charts = re.findall(r'<div class="plot">.*?</div>\s*(<p[^>]*>[^<]*)', html, re.S)
        assert charts and len(charts) == html.count('<div class="plot">')
        assert all(c.split(">", 1)[1].startswith("Read: ") for c in charts)
        # the control limits explained, a rate of 1.000 above a limit of 0.999 included
        assert "The control limits used" in html and "0.999 where the target is 1.000" in html


def test_rerunning_gives_the_same_marts(sample):
    _, db = sample
    before = {m: q(db, f"SELECT * FROM {m}") for m in MARTS}
    stages.audit(Warehouse(db))
    for m in MARTS:
        assert q(db, f"SELECT * FROM {m}").equals(before[m]), m


def _private_words(inbox: Path) -> set[str]:
    words: set[str] = set()
    with (inbox / "contestants.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            words.update(n.strip() for n in row["names"].split("&"))
            words.update(row["player_ids"].split(";"))
    with (inbox / "rulings.csv").open(encoding="utf-8") as fh:
        words.update(r["director"] for r in csv.DictReader(fh))
    with (inbox / "events.csv").open(encoding="utf-8") as fh:
        words.update(r["director"] for r in csv.DictReader(fh))
    return {w for w in words if w}


@pytest.mark.slow
def test_report_commands_and_the_public_version_names_nobody(sample, tmp_path):
    inbox, db = sample
    runner = CliRunner()
    out = tmp_path / "out"
    r = runner.invoke(
        app,
        ["report", "audit", "--out", str(out), "--warehouse", str(db), "--from", "2026-11-02"],
    )
    assert r.exit_code == 0, r.output
    assert "directors" in r.output and (out / "audit.html").is_file()
    audit = (out / "audit.html").read_text(encoding="utf-8")
    assert "TD " in audit  # internal: directors are named
    r = runner.invoke(app, ["report", "transparency", "--out", str(out), "--warehouse", str(db)])
    assert r.exit_code == 0, r.output
    public = (out / "transparency.html").read_text(encoding="utf-8")
    assert "Director A" in public
    leaked = [w for w in _private_words(inbox) if w in public]
    assert leaked == []
    assert not re.search(r"X\d{6}", public)  # no membership number of any form
    r = runner.invoke(
        app, ["report", "audit", "--out", str(out), "--warehouse", str(db), "--to", "x"]
    )
    assert r.exit_code == 2
    r = runner.invoke(
        app, ["report", "audit", "--out", str(out), "--warehouse", str(tmp_path / "no")]
    )
    assert r.exit_code == 2 and "warehouse not found" in r.output


def test_audit_assets_come_after_the_standings():
    import dagster as dg

    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    for mart in MARTS:
        node = graph.get(dg.AssetKey(mart))
        assert dg.AssetKey("standings") in node.parent_keys
        assert node.partitions_def is None  # the whole warehouse, every night
    for report in ("audit_report", "transparency_report"):
        assert dg.AssetKey("director_audit") in graph.get(dg.AssetKey(report)).parent_keys


@pytest.mark.slow
def test_reports_are_deterministic(sample, tmp_path):
    _, db = sample
    wh = Warehouse(db)
    for kind in ("audit", "transparency"):
        a = Path(stages.report(wh, kind, tmp_path / "a").figures["path"]).read_bytes()
        b = Path(stages.report(wh, kind, tmp_path / "b").figures["path"]).read_bytes()
        assert a == b, kind
