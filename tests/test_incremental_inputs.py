"""Incremental runs after changes the date fingerprints once missed: each chain of runs
leaves the warehouse (every table) and the published files a run from scratch on the final
inbox leaves (``tests/test_incremental.py``'s comparison).

* a line of a results file that cannot be read as a row holds its event; the line taken out
  again (nothing else changed) releases it;
* an event whose every file left the inbox keeps no team matches;
* a club file's official figures changed alone (the results the same): the reconciliation's
  line on the ranking page follows them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from pipelines.runner import run_inbox
from pipelines.settings import SAMPLE_INBOX
from tests.test_incremental import LATE, _keep, _rows, _same

pytestmark = pytest.mark.slow


def _inbox(folder: Path, clubs: tuple[str, ...]) -> Path:
    """The clubs' results files of the bundled sample with their rows of the shared files."""
    folder.mkdir(parents=True)
    for club in clubs:
        for p in SAMPLE_INBOX.glob(f"results-{club}-*.csv"):
            shutil.copy(p, folder / p.name)
    events = set()
    for p in folder.glob("results-*.csv"):
        events |= {r["event_id"] for r in _rows(p)[1]}
    for name in ("events.csv", "contestants.csv", "rulings.csv", "appeals.csv"):
        shutil.copy(SAMPLE_INBOX / name, folder / name)
    for name in ("events.csv", "contestants.csv", "rulings.csv"):
        _keep(folder / name, lambda r: r["event_id"] in events)
    rulings = {r["ruling_id"] for r in _rows(folder / "rulings.csv")[1]}
    _keep(folder / "appeals.csv", lambda r: r["ruling_id"] in rulings)
    return folder


def _run(inbox: Path, folder: Path):
    return run_inbox(inbox, folder / "w.duckdb", publish_to=folder)


def test_an_unreadable_line_taken_out_releases_its_event(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", LATE)
    inbox = _inbox(tmp_path / "inbox", ("club1",))
    path = inbox / "results-club1-2026-11-03.csv"
    whole = path.read_text(encoding="utf-8")
    path.write_text(whole + "a line of three values,1,2\n", encoding="utf-8")
    ours = tmp_path / "ours"
    held = _run(inbox, ours)
    assert ("2026-11-03", "CLUB1-2026-11-02") in held.held_events
    path.write_text(whole, encoding="utf-8")  # the club sends the file again, that line gone
    again = _run(inbox, ours)
    assert again.plan.dates == ["2026-11-03"] and again.held_events == []
    _run(inbox, tmp_path / "fresh")
    _same(ours, tmp_path / "fresh")
    # and the other way: the line comes (the rows the same), and holds the event
    path.write_text(whole + "a line of three values,1,2\n", encoding="utf-8")
    assert _run(inbox, ours).plan.dates == ["2026-11-03"]
    _run(inbox, tmp_path / "fresh-2")
    _same(ours, tmp_path / "fresh-2")


def test_an_event_whose_files_all_left_keeps_no_matches(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", LATE)
    inbox = _inbox(tmp_path / "inbox", ("club1", "club6"))
    ours = tmp_path / "ours"
    _run(inbox, ours)
    for p in inbox.glob("results-club6-*.csv"):
        p.unlink()  # the knockout's two evenings, its rows left in the shared files
    _run(inbox, ours)
    with duckdb.connect(str(ours / "w.duckdb"), read_only=True) as c:
        assert c.execute("SELECT count(*) FROM matches").fetchall() == [(0,)]
    assert not list((ours / "exports" / "parquet").glob("matches/*/*.parquet"))
    _run(inbox, tmp_path / "fresh")
    _same(ours, tmp_path / "fresh")


def test_official_figures_changed_alone_are_reconciled_on_the_page(tmp_path, monkeypatch):
    """A club's USEBIO file (here Traveller's own export, read back) sent again with other
    official figures and the same results: the ranking page says how many figures differ
    now, as a run from scratch says."""
    monkeypatch.setenv("TRAVELLER_NOW", LATE)
    source = tmp_path / "source"
    _run(_inbox(tmp_path / "sample", ("club2",)), source)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for p in (source / "exports" / "usebio").glob("*.xml"):
        shutil.copy(p, inbox / p.name)
    shutil.copy(source / "exports" / "events.csv", inbox / "events.csv")
    ours = tmp_path / "ours"
    _run(inbox, ours)
    path = inbox / "CLUB2-2026-11-03.xml"
    text = path.read_text(encoding="utf-8")
    assert text.count("<PERCENTAGE>") > 4
    path.write_text(text.replace("<PERCENTAGE>", "<PERCENTAGE>1"), encoding="utf-8")
    _run(inbox, ours)
    _run(inbox, tmp_path / "fresh")
    _same(ours, tmp_path / "fresh")
