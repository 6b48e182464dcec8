"""A large publication from a PostgreSQL warehouse is shared among processes as one from a
DuckDB file is, and gives what one process gives."""

from __future__ import annotations

from pathlib import Path

import pipelines.publish as publish_mod
from pipelines.publish import publish
from tests.postgres.conftest import NOW, run_sample


def _files(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        # a folder's seal holds its folders' times on the disk, not what was published
        if p.is_file() and not p.name.endswith(".seal.json")
    }


def test_a_shared_publication_from_postgres_is_the_one_a_process_makes(
    pg_url: str, tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "1")
    run_sample(pg_url, tmp_path / "run")
    one = publish(pg_url, tmp_path / "one")
    monkeypatch.setattr(publish_mod, "PARALLEL_FROM_RESULTS", 0)
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "3")
    peaks = len(publish_mod.HELPER_PEAKS)
    shared = publish(pg_url, tmp_path / "shared")
    assert len(publish_mod.HELPER_PEAKS) == peaks + 2
    assert _files(tmp_path / "shared") == _files(tmp_path / "one")
    assert (shared.pages, shared.sessions_rendered) == (one.pages, one.sessions_rendered)


def test_a_dagster_run_on_postgres_shares_its_publication(pg_url: str, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    monkeypatch.setattr(publish_mod, "PARALLEL_FROM_RESULTS", 0)
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "3")
    peaks = len(publish_mod.HELPER_PEAKS)
    run_sample(pg_url, tmp_path / "run")
    assert len(publish_mod.HELPER_PEAKS) == peaks + 2
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "1")
    publish(pg_url, tmp_path / "one")
    run, one = _files(tmp_path / "run"), _files(tmp_path / "one")
    run = {k: v for k, v in run.items() if not k.startswith("reports/")}
    assert run.keys() == one.keys()
    assert run == one
