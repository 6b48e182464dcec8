"""The command line answers a mistake in one line, with an exit status ``--help`` documents.

Planted: an empty file and an XML file with an external entity given to ``validate`` (each
named as what it is, not "format not recognised"); ``report`` with ``--from`` after ``--to``
(a usage error, nothing written); an error nobody foresaw (a failing read, planted) — one
line and exit 1, the traceback only with ``--debug``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import EXIT_STATUSES, app
from tests.conftest import ROOT

runner = CliRunner()


def test_an_empty_file_is_called_empty(tmp_path: Path):
    p = tmp_path / "results-2026-11-02.csv"
    p.write_bytes(b"")
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1
    assert f"{p}:file: file: the file is empty (0 bytes)" in r.output
    assert "not recognised" not in r.output


def test_an_external_entity_is_named_and_refused(tmp_path: Path):
    p = tmp_path / "event.xml"
    p.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        '<USEBIO Version="1.2"><EVENT>&x;</EVENT></USEBIO>\n'
    )
    r = runner.invoke(app, ["validate", str(p)])
    assert r.exit_code == 1
    assert "declares an external entity (file:///etc/passwd)" in r.output
    assert "root:" not in r.output  # nothing of the file it names is shown


def test_from_after_to_is_a_usage_error(tmp_path: Path):
    out = tmp_path / "reports"
    r = runner.invoke(
        app,
        ["report", "audit", "--out", str(out), "--from", "2026-11-30", "--to", "2026-11-01"],
    )
    assert r.exit_code == 2
    assert "--from 2026-11-30 is after --to 2026-11-01" in r.output
    assert not out.exists()


def test_help_documents_the_exit_statuses():
    r = runner.invoke(app, ["--help"])
    assert r.exit_code == 0
    assert "Exit status" in r.output and "5 the warehouse is in use" in " ".join(r.output.split())
    assert "4 events held back" in EXIT_STATUSES


_CRASH = """
import sys
import pipelines.formats as formats
from pipelines import cli

def broken(path, root):
    raise RuntimeError("disk on fire\\nsecond line")

formats.read_file = broken
import pipelines.validation_report as vr
vr.read_file = broken
cli.app(sys.argv[1:], prog_name="traveller")
"""


def _crash(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    p = tmp_path / "results-2026-11-02.csv"
    p.write_text("event_id,session,section,round,table,board,ns_pair,ew_pair\n")
    return subprocess.run(
        [sys.executable, "-c", _CRASH, *args, "validate", str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_an_unexpected_error_is_one_line_without_debug(tmp_path: Path):
    r = _crash(tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        "traveller: unexpected error: RuntimeError: disk on fire (run again with --debug for "
        "the details, and please report it)"
    ]
    assert "Traceback" not in r.stdout + r.stderr


def test_debug_shows_the_traceback(tmp_path: Path):
    r = _crash(tmp_path, "--debug")
    assert r.returncode == 1
    assert "Traceback" in r.stderr and "disk on fire" in r.stderr
