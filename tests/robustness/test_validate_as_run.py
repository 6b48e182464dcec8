"""``traveller validate`` finds what ``traveller run`` finds, in the same words.

Planted in one inbox, each in its own event of one evening with a good event beside them:
a ruling id used twice (the event held), two different results for one table and board
(both rejected, the event held), an ``events.csv`` row with a movement typo (the row
rejected, its event held) and a stated score that is not its contract's (Law 77: 4S by N
taking 10 tricks scores 420, not 450). ``validate`` of the folder must list exactly the
run's rejected rows and holds (file, location, field, reason), name the held events and exit
1; a folder of good files gives "no problems" and exit 0, and so does the run (everything
Final). ``validate`` leaves no warehouse behind and touches none."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.runner import run_inbox
from tests.robustness.conftest import EVENTS_HEADER, RESULTS, RULINGS_HEADER, rows, status

runner = CliRunner()


def _planted(tmp: Path) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-ok.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-dup.csv").write_text(
        RESULTS.format(e="DUP") + "DUP,1,A,1,1,1,1,2,4S,N,9,-50\n"
    )
    (inbox / "results-2026-11-21-rid.csv").write_text(RESULTS.format(e="RID"))
    (inbox / "results-2026-11-21-mov.csv").write_text(RESULTS.format(e="MOV"))
    (inbox / "results-2026-11-21-l77.csv").write_text(
        RESULTS.format(e="L77").replace("4S,N,10,420", "4S,N,10,450")
    )
    (inbox / "rulings-2026-11-21.csv").write_text(
        f"{RULINGS_HEADER}\n"
        "R1,RID,1,1,3,4,assigned,EW,4S N +1,\n"
        "R1,RID,1,2,1,4,assigned,NS,2H E =,\n"
    )
    (inbox / "events.csv").write_text(
        f"{EVENTS_HEADER}\nMOV,1,2026-11-21,Monday pairs,howel,wbf,\n"
    )
    return inbox


def _lines(output: str) -> set[str]:
    return {line for line in output.splitlines() if ":line " in line or ":file:" in line}


def test_validate_lists_what_the_run_rejects_and_holds(tmp_path: Path):
    inbox = _planted(tmp_path)
    checked = runner.invoke(app, ["validate", str(inbox)])
    assert checked.exit_code == 1, checked.output
    assert not list(tmp_path.rglob("*.duckdb"))  # nothing written beside the files

    wh = tmp_path / "w.duckdb"
    run_inbox(inbox, wh, publish_to=tmp_path / "out")
    found = rows(
        wh,
        "SELECT file, location, field, reason FROM rejected_inputs "
        "UNION SELECT file, location, field, reason FROM holds",
    )
    run_lines = {f"{inbox}/{f}:{loc}: {field}: {reason}" for f, loc, field, reason in found}
    assert _lines(checked.output) == run_lines
    # each planted fault is named, as a scorer reads it
    out = checked.output
    assert "rulings-2026-11-21.csv:line 3: ruling_id: ruling id R1 is already used at" in out
    assert "results-2026-11-21-dup.csv:line 8: result:" in out
    assert "events.csv:line 2: movement:" in out
    assert (
        "results-2026-11-21-l77.csv:line 2: score: stated score 450 but 4S by N taking 10 "
        "tricks on board 1 scores 420 for NS (Law 77): correct the file"
    ) in out
    held = next(x for x in out.splitlines() if x.startswith("held:"))
    for event in ("DUP", "L77", "MOV", "RID"):
        assert f"{event} [2026-11-21]" in held
    assert "OK1" not in held
    assert status(tmp_path / "out" / "site", "OK1") == "Final"


def test_validate_of_good_files_says_no_problems_as_the_run_publishes_them(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="OK2"))
    checked = runner.invoke(app, ["validate", str(inbox)])
    assert checked.exit_code == 0, checked.output
    assert "2 file(s), 12 rows: no problems" in checked.output
    run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert status(tmp_path / "out" / "site", "OK1") == status(tmp_path / "out" / "site", "OK2")
    assert status(tmp_path / "out" / "site", "OK1") == "Final"


def test_validate_of_a_rejected_events_row_with_rulings_does_not_crash(tmp_path: Path):
    # an events.csv row rejected (profile typo) for an event that has a ruling log: the run
    # holds the event; validate used to stop with a traceback in the rulings check
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="EV1"))
    (inbox / "events.csv").write_text(f"{EVENTS_HEADER}\nEV1,1,2026-11-21,Pairs,howell,wbff,\n")
    (inbox / "rulings-2026-11-21.csv").write_text(
        f"{RULINGS_HEADER}\nR1,EV1,1,1,3,4,assigned,EW,4S N +1,\n"
    )
    checked = runner.invoke(app, ["validate", str(inbox)])
    assert checked.exit_code == 1, checked.output
    assert checked.exception is None or isinstance(checked.exception, SystemExit)
    assert "events.csv:line 2: profile:" in checked.output
    assert "EV1 [2026-11-21]" in checked.output


def test_validate_of_a_missing_file_is_one_line(tmp_path: Path):
    r = runner.invoke(app, ["validate", str(tmp_path / "nope.xml")])
    assert r.exit_code == 1
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert f"{tmp_path / 'nope.xml'}: file: no such file or folder" in r.output
    assert "Traceback" not in r.output
