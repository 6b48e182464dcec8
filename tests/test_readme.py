"""The README's examples stay true: the ruling log of docs/inputs.md (one example of each
kind) is valid, and the README's two commands are the ones the Makefile and CI run. Every
other code block is run or checked by tests/publish/test_docs.py."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.laws.vocabulary import RULING_KINDS as KINDS
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
INPUTS = (ROOT / "docs" / "inputs.md").read_text(encoding="utf-8")


def test_ruling_log_example_has_every_kind_and_is_valid(tmp_path: Path):
    block = INPUTS.split("One example of each `kind`:")[1].split("```csv")[1].split("```")[0]
    log = tmp_path / "rulings.csv"
    log.write_text(block.lstrip(), encoding="utf-8")
    kinds = {line.split(",")[13] for line in block.strip().splitlines()[1:]}
    assert kinds == set(KINDS)
    r = CliRunner().invoke(app, ["validate", str(log)])
    assert r.exit_code == 0, r.output
    assert f"{len(block.strip().splitlines()) - 1} rows: no problems" in r.output


def test_the_two_commands():
    assert "make run     #" in README and "make test    #" in README
    makefile = (ROOT / "Makefile").read_text()
    assert "\nrun: install" in makefile and "\ntest: install" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()
