"""Rulings that were not applied are listed, each with its reason, not only counted.

Planted in one ruling log of an evening: R1 superseded by R2 (kept, not applied), R2
applied (4S by N making 10 tricks, unvulnerable: +420 for NS, Law 77), R3 on a board the
session did not play (board 7: rejected as written) and R4 naming a pair that did not play
the board (pair 9). ``traveller report rulings`` lists R1, R3 and R4 with their reasons and
not R2; ``--all`` adds R2 as applied; the run's summary lists the same rows."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import EXIT_BLOCKED, app
from tests.robustness.conftest import RESULTS, published, rows, status

runner = CliRunner()
HEADER = (
    "ruling_id,event_id,session,board,ns_pair,ew_pair,kind,offending,ns_result,ew_result,"
    "called_at,ruled_at,supersedes"
)
LOG = (
    "R1,EV2,1,1,3,4,assigned,EW,4S N +1,,2026-11-21 20:00,2026-11-21 20:10,\n"
    "R2,EV2,1,1,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:30,R1\n"
    "R3,EV2,1,7,3,4,assigned,EW,4S N =,,2026-11-21 20:00,2026-11-21 20:30,\n"
    "R4,EV2,1,2,9,4,assigned,EW,2H E =,,2026-11-21 20:00,2026-11-21 20:30,\n"
)


def test_report_rulings_lists_each_ruling_not_applied_with_its_reason(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="EV2"))
    (inbox / "rulings-2026-11-21.csv").write_text(f"{HEADER}\n{LOG}")
    wh = tmp_path / "w.duckdb"
    ran = runner.invoke(app, ["run", "--inbox", str(inbox), "--warehouse", str(wh)])
    assert ran.exit_code == EXIT_BLOCKED, ran.output  # the rejected rulings hold EV2
    assert "Traceback" not in ran.output
    assert "not applied: ruling R1 (rulings-2026-11-21.csv:line 2): superseded by ruling R2" in (
        ran.output
    )
    rejected = rows(
        wh, "SELECT location, reason FROM rejected_inputs WHERE stage = 'rulings' ORDER BY 1"
    )
    assert [loc for loc, _ in rejected] == ["line 4", "line 5"]
    for loc, reason in rejected:  # each rejection located on the command line
        assert any(
            x.startswith(f"rulings-2026-11-21.csv:{loc}: ") and x.endswith(reason)
            for x in ran.output.splitlines()
        ), (loc, ran.output)
    # every result of both events scored (R2 applied on EV2); EV2 held, OK1 Final
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY 1") == [
        ("EV2", 6),
        ("OK1", 6),
    ]
    assert rows(wh, "SELECT DISTINCT event_id FROM holds") == [("EV2",)]
    assert status(tmp_path / "site", "OK1") == "Final"
    assert not published(tmp_path / "site", "EV2")

    r = runner.invoke(app, ["report", "rulings", "--warehouse", str(wh)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert (
        "not applied  ruling R1 (rulings-2026-11-21.csv:line 2) [2026-11-21 EV2 session 1 "
        "board 1] assigned: superseded by ruling R2"
    ) in lines
    for loc, reason in rejected:  # each with the reason the run gave
        assert any(
            x.startswith(f"rejected     ruling (rulings-2026-11-21.csv:{loc})") and reason in x
            for x in lines
        ), (loc, lines)
    assert not any("ruling R2 (" in x for x in lines)  # applied: not listed
    assert lines[-1] == "3 not applied or rejected"

    every = runner.invoke(app, ["report", "rulings", "--all", "--warehouse", str(wh)])
    assert any(x.startswith("applied      ruling R2 ") for x in every.output.splitlines())
    assert every.output.splitlines()[-1] == "3 not applied or rejected, 1 applied"
