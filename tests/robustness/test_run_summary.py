"""The run summary says what this run did apart from what the whole warehouse holds."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import app
from tests.robustness.conftest import RESULTS, status


def test_the_summary_labels_this_runs_work_and_the_warehouses_totals(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="ONE"))
    args = ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")]
    assert CliRunner().invoke(app, args).exit_code == 0
    (inbox / "results-2026-11-21.csv").write_text(RESULTS.format(e="TWO"))
    second = CliRunner().invoke(app, args)
    assert second.exit_code == 0, second.output
    assert "Traceback" not in second.output
    lines = second.output.splitlines()
    this = next(line for line in lines if line.startswith("this run   "))
    assert this == (
        "this run   1 new file(s) → 1 date(s), 1 event(s) to recompute (new 1); "
        "audit and site redone"
    )
    whole = lines.index("the whole warehouse, every date of the inbox:")
    assert lines.index(this) < whole
    # the totals are the warehouse's: both files, both dates, 12 results (6 per file)
    assert (
        lines[whole + 1].startswith("read       2 files, ")
        and "2 session dates" in lines[whole + 1]
    )
    assert "scored     12 table results" in lines
    # the first run's event still published as it was, the new one beside it
    assert status(tmp_path / "site", "ONE") == status(tmp_path / "site", "TWO") == "Final"
