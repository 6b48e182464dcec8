"""Values the command line cannot use are refused in one line, before anything is written."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.resources import SAMPLE_INBOX
from pipelines.warehouse import Warehouse

#: a URL that is neither a file path nor PostgreSQL's (a postgresql:// URL selects the
#: PostgreSQL warehouse, tests/postgres)
URL = "s3://club-results/traveller/warehouse.duckdb"


def test_version():
    r = CliRunner().invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"traveller {version('traveller')}"


def test_a_warehouse_url_is_refused_not_made_a_folder(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["run", "--inbox", str(SAMPLE_INBOX), "--warehouse", URL])
    assert r.exit_code == 2
    assert "is a URL that is not PostgreSQL's" in r.output and "Traceback" not in r.output
    monkeypatch.setenv("TRAVELLER_WAREHOUSE", URL)
    r = CliRunner().invoke(app, ["publish", "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and f"the warehouse '{URL}' is a URL" in r.output
    assert list(tmp_path.iterdir()) == []  # no folder named 's3:', nothing published


def test_the_warehouse_refuses_a_url_whoever_opens_it():
    with pytest.raises(ValueError, match="is a URL"):
        Warehouse(URL)
    assert Warehouse("C:/data/warehouse.duckdb").path.name == "warehouse.duckdb"
