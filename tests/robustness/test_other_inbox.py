"""A warehouse holds one inbox: a run naming another (or none, which would read the bundled
sample) refuses with one line saying which inbox the warehouse holds, and touches nothing;
``--new-inbox`` makes the new inbox the warehouse's, withdrawing the other's events."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import app
from tests.robustness.conftest import RESULTS, rows


def _inbox(tmp_path: Path, name: str, event: str) -> Path:
    inbox = tmp_path / name
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e=event))
    return inbox


def _run(warehouse: Path, *args: str):
    return CliRunner().invoke(app, ["run", "--warehouse", str(warehouse), *args])


def test_a_run_of_another_inbox_or_of_the_sample_refuses(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("TRAVELLER_INBOX", raising=False)
    club = _inbox(tmp_path, "club", "CLUB1")
    wh = tmp_path / "real.duckdb"
    assert _run(wh, "--inbox", str(club)).exit_code == 0
    before = wh.read_bytes()
    # no --inbox: the bundled sample must never be merged into a real warehouse
    r = _run(wh)
    assert r.exit_code == 2, r.output
    assert f"holds the results of the inbox {club.resolve()}" in r.output
    assert "no --inbox was given, so this run would read the bundled sample inbox" in r.output
    assert r.output.count("\n") == 1 and "Traceback" not in r.output
    other = _inbox(tmp_path, "other", "OTHER2")
    r = _run(wh, "--inbox", str(other))
    assert r.exit_code == 2 and f"this run names the inbox {other}" in r.output
    assert wh.read_bytes() == before  # nothing read or written
    # the same inbox again is fine
    assert _run(wh, "--inbox", str(club)).exit_code == 0


def test_new_inbox_makes_the_other_inbox_the_warehouses(tmp_path: Path):
    club = _inbox(tmp_path, "club", "CLUB1")
    wh = tmp_path / "w.duckdb"
    assert _run(wh, "--inbox", str(club)).exit_code == 0
    moved = _inbox(tmp_path, "moved", "MOVED1")
    r = _run(wh, "--inbox", str(moved), "--new-inbox")
    assert r.exit_code == 0, r.output
    events = rows(wh, "SELECT DISTINCT event_id FROM standings ORDER BY 1")
    assert events == [("MOVED1",)]  # the first inbox's event withdrawn, not kept half
    assert _run(wh, "--inbox", str(moved)).exit_code == 0
