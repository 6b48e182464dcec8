"""The ``traveller`` command line: run, validate, generate, bench — good and bad input."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli import EXIT_BLOCKED, EXIT_REJECTED, app

runner = CliRunner()

GOOD = """event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score
E1,1,A,1,1,1,1,2,4S,N,10,420
E1,1,A,1,2,1,3,4,4S,N,11,450
E1,1,A,1,3,1,5,6,3NT,S,9,400
E1,1,A,2,1,2,1,4,2H,E,8,-110
E1,1,A,2,2,2,3,6,2H,E,9,-140
E1,1,A,2,3,2,5,2,PASS,,,0
"""


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.slow
def test_generate_then_run_clean_inbox(tmp_path):
    out = tmp_path / "inbox"
    r = runner.invoke(app, ["generate", "--out", str(out), "--sessions", "2", "--clubs", "2"])
    assert r.exit_code == 0, r.output
    assert "wrote" in r.output and (out / "events.csv").exists()
    r = runner.invoke(app, ["run", "--inbox", str(out), "--warehouse", str(tmp_path / "w.duckdb")])
    assert r.exit_code == 0, r.output
    assert "rejected   0 rows or files" in r.output
    assert (tmp_path / "w.duckdb").exists()


def test_run_with_rejected_rows_processes_the_rest(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    write(inbox, "results-2026-11-20.csv", GOOD + "E1,1,A,2,4,2,7,8,9NT,N,10,\n")
    write(inbox, "notes.txt", "nothing to see\n")
    r = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.db")])
    assert (
        "results-2026-11-20.csv:line 8: contract: contract '9NT' is not a legal contract"
        in r.output
    )
    assert "notes.txt:file: file: the file's format was not recognised" in r.output
    assert "scored     6 table results" in r.output
    # the table whose result was rejected is missing from E1's standings: held, not Final
    assert r.exit_code == EXIT_BLOCKED, r.output
    assert (
        "held E1: results-2026-11-20.csv:line 8: contract: the standings would miss this "
        "result, rejected: contract '9NT' is not a legal contract"
    ) in r.output


def test_run_holds_the_event_of_a_score_that_disagrees_with_its_contract(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    write(inbox, "results-2026-11-20.csv", GOOD.replace("4S,N,10,420", "4S,N,10,450"))
    r = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.db")])
    assert r.exit_code == EXIT_BLOCKED, r.output
    assert "held       1 event(s) not published, the rest of their date is: E1 [2026-11-20]" in (
        r.output
    )
    assert (
        "held E1: results-2026-11-20.csv:line 2: score: stated score 450 but 4S by N taking 10 "
        "tricks on board 1 scores 420 for NS (Law 77)"
    ) in r.output
    # kept in the warehouse (6 pairs), not published
    assert "standings  6 session rows" in r.output
    assert "0 sessions final, 0 provisional, 1 held" in r.output


def test_run_rejects_undated_results(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    write(inbox, "results.csv", GOOD)
    r = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.db")])
    assert r.exit_code == EXIT_REJECTED, r.output
    assert "no date for event E1 session 1" in r.output


def test_run_missing_inbox(tmp_path):
    r = runner.invoke(app, ["run", "--inbox", str(tmp_path / "nope")])
    assert r.exit_code == 2
    assert "inbox folder not found" in r.output


def test_validate_good_file(tmp_path):
    p = write(tmp_path, "results-2026-11-02.csv", GOOD)
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 0, r.output
    assert "no problems" in r.output


def test_validate_reports_every_problem(tmp_path):
    bad = GOOD.replace("3NT,S,9,400", "3NT,S,9,430").replace("2H,E,8,-110", "2H,Q,15,-110")
    bad += "E1,1,A,2,4,2,7\n"
    p = write(tmp_path, "results-2026-11-02.csv", bad)
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert f"{p}:line 8: row: row has 7 fields, the header has 12" in lines
    assert f"{p}:line 5: declarer: declarer must be N, E, S or W, not 'Q'" in lines
    assert (
        f"{p}:line 5: tricks: tricks must be the tricks taken by declarer, 0 to 13, not '15'"
    ) in lines
    assert (
        f"{p}:line 4: score: stated score 430 but 3NT by S taking 9 tricks on board 1 scores "
        "400 for NS (Law 77): correct the file"
    ) in lines
    assert "held: a run would not publish the official standings of 1 event(s)" in r.output


def test_validate_unsafe_xml(tmp_path):
    p = write(
        tmp_path,
        "bomb.xml",
        """<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
<USEBIO Version="1.2"><EVENT>&b;</EVENT></USEBIO>""",
    )
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1
    assert "refused for safety" in r.output


def test_validate_missing_file(tmp_path):
    r = runner.invoke(app, ["validate", str(tmp_path / "nope.csv")])
    assert r.exit_code == 1


def test_bench_small(tmp_path):
    r = runner.invoke(app, ["bench", "--results", "20000", "--deals", "4"])
    assert r.exit_code == 0, r.output
    assert "results/s" in r.output and "peak memory" in r.output
    assert re.search(r"double dummy \+ par +[\d.,]+ deals/s \(4 deals\)", r.output)


def test_generate_bad_date(tmp_path):
    r = runner.invoke(app, ["generate", "--out", str(tmp_path), "--start-date", "2026-13-01"])
    assert r.exit_code == 2


@pytest.mark.slow
def test_sample_inbox_is_clean(tmp_path):
    from pipelines.resources import SAMPLE_INBOX

    inbox = tmp_path / "inbox"
    shutil.copytree(SAMPLE_INBOX, inbox)
    r = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.db")])
    assert r.exit_code == 0, r.output


RULINGS = (
    (
        "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result,"
        "penalized,penalty\n"
    )
    + """R1,E1,1,1,3,4,assigned,EW,4S N +1,,,
R2,E1,1,,,,procedural_penalty,NS,,,5,25%
"""
)


def test_run_applies_rulings(tmp_path, monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    write(inbox, "results-2026-11-20.csv", GOOD)
    write(inbox, "rulings-2026-11-20.csv", RULINGS)
    r = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.db")])
    assert r.exit_code == 0, r.output
    assert "rulings    2 (0 not applied, 0 late), 1 results adjusted" in r.output
    assert "status     1 sessions final, 0 provisional" in r.output


def test_run_holds_the_event_of_a_ruling_that_cannot_apply(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    write(inbox, "results-2026-11-20.csv", GOOD)
    write(inbox, "rulings-2026-11-20.csv", RULINGS.replace("4S N +1", "9S N +1"))
    r = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.db")])
    assert r.exit_code == EXIT_BLOCKED, r.output
    assert "rulings-2026-11-20.csv:line 2: ns_result: '9S N +1' is not a result" in r.output
    assert "check rulings_applicable failed on rulings [2026-11-20] (its events held)" in r.output
    assert (
        "held E1: rulings-2026-11-20.csv:line 2: ns_result: ruling or appeal not applied: "
        "'9S N +1' is not a result"
    ) in r.output


def test_validate_a_ruling_log_with_and_without_results(tmp_path):
    res = write(tmp_path, "results-2026-11-20.csv", GOOD)
    log = write(
        tmp_path, "rulings-2026-11-20.csv", RULINGS.replace(",3,4,assigned", ",3,9,assigned")
    )
    alone = runner.invoke(app, ["validate", str(log)])
    assert alone.exit_code == 0, alone.output  # notation alone is fine
    both = runner.invoke(app, ["validate", str(res), str(log)])
    assert both.exit_code == 1
    assert "unknown table or board" in both.output


def test_validate_a_folder_checks_its_files(tmp_path):
    from pipelines.resources import SAMPLE_INBOX

    r = runner.invoke(app, ["validate", str(SAMPLE_INBOX)])
    assert r.exit_code == 0, r.output
    n = sum(1 for p in SAMPLE_INBOX.iterdir() if p.is_file())
    assert f"{n} file(s)" in r.output and "no problems" in r.output
    empty = tmp_path / "empty"
    empty.mkdir()
    r = runner.invoke(app, ["validate", str(empty)])
    assert r.exit_code == 1 and "no files to check" in r.output
