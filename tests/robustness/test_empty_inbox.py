"""An inbox with nothing in it, or nothing readable, is never a silent success."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import EXIT_REJECTED, app
from tests.robustness.conftest import rows


def _run(inbox: Path, tmp_path: Path):
    return CliRunner().invoke(
        app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")]
    )


def test_an_empty_inbox_is_a_usage_error_and_touches_nothing(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / ".hidden").write_text("ignored, as every hidden file is\n")
    r = _run(inbox, tmp_path)
    assert r.exit_code == 2
    assert f"the inbox {inbox} holds no files: nothing to read" in r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "w.duckdb").exists()


def test_an_inbox_whose_every_file_is_rejected_says_nothing_was_scored(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "notes.txt").write_text("the scorer's shopping list\n")
    r = _run(inbox, tmp_path)
    assert r.exit_code == EXIT_REJECTED, r.output
    assert "nothing    scored: every result of the inbox was rejected" in r.output
    assert "Traceback" not in r.output
    [(field, reason)] = rows(tmp_path / "w.duckdb", "SELECT field, reason FROM rejected_inputs")
    assert reason.startswith("the file's format was not recognised")
    assert f"notes.txt:file: {field}: {reason}" in r.output.splitlines()
