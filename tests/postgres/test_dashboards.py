"""The dashboards' views of a PostgreSQL warehouse, read by their roles with ``psql`` (a
standard client) while a write is open: the script and the query of docs/deploy.md, as
written there, on a warehouse filled by a run of a generated inbox."""

from __future__ import annotations

import re
import shlex
import subprocess
import uuid

import dagster as dg
import psycopg
import pytest

from pipelines import pg_warehouse
from pipelines.pg_local import pg_bin
from pipelines.synth.inbox import generate_inbox
from pipelines.warehouse import Warehouse
from tests.conftest import ROOT
from tests.postgres.conftest import NOW

GUIDE = ROOT / "docs" / "deploy.md"


def _block(lang: str, marker: str) -> str:
    """The fenced ``lang`` block of docs/deploy.md that holds ``marker``."""
    found = re.findall(rf"^```{lang}\n(.*?)^```", GUIDE.read_text(encoding="utf-8"), re.M | re.S)
    (text,) = [b for b in found if marker in b]
    return text


@pytest.fixture(scope="module")
def warehouse(pg_cluster, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A warehouse filled by a run of a generated inbox (two evenings of one club, with
    the directors' rulings and appeals), and the roles of docs/deploy.md's script on it."""
    from pipelines.runner import run_inbox
    from tests.postgres.conftest import new_database

    base = tmp_path_factory.mktemp("dashboards")
    generate_inbox(base / "inbox", sessions=2, clubs=1, seed=5)
    url = new_database(pg_cluster)
    mp = pytest.MonkeyPatch()
    mp.setenv("TRAVELLER_NOW", NOW)
    mp.setenv("TRAVELLER_PUBLISH", str(base / "published"))
    try:
        run_inbox(base / "inbox", url, instance=dg.DagsterInstance.ephemeral())
    finally:
        mp.undo()
    return url


def _roles(url: str) -> dict[str, str]:
    """The script of docs/deploy.md run on ``url``, its roles named uniquely (roles belong
    to the whole server), the writer being the server's own user."""
    tag = uuid.uuid4().hex[:8]
    names = {"traveller_dashboards": f"dash_{tag}", "traveller_audit": f"audit_{tag}"}
    script = _block("sql", "CREATE ROLE traveller_dashboards")
    for old, new in names.items():
        script = script.replace(old, new)
    script = script.replace("traveller_writer", "postgres")
    script = script.replace("ON DATABASE traveller", f'ON DATABASE "{url.rsplit("/", 1)[1]}"')
    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute(script.encode())
    return {"public": names["traveller_dashboards"], "audit": names["traveller_audit"]}


def _psql(url: str, role: str, query: str) -> subprocess.CompletedProcess[str]:
    """``psql`` connected as ``role`` to the warehouse ``url``: the rows, unaligned."""
    as_role = re.sub(r"//[^@/]+@", f"//{role}@", url)
    return subprocess.run(
        [pg_bin() / "psql", as_role, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", query],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def _count(url: str, role: str, relation: str) -> int:
    done = _psql(url, role, f"SELECT count(*) FROM {relation}")
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_each_role_reads_its_views_and_nothing_else_while_a_write_is_open(warehouse: str):
    roles = _roles(warehouse)
    with psycopg.connect(warehouse, autocommit=True) as raw:

        def count(text: str) -> int:
            return raw.execute(text).fetchone()[0]

        published = count(
            "SELECT count(*) FROM standings WHERE status NOT IN ('superseded', 'held')"
        )
        assert published and count("SELECT count(*) FROM director_audit")
        marts = {
            t: (
                count(f"SELECT count(*) FROM {t} WHERE dimension <> 'director'"),
                count(f"SELECT count(*) FROM {t}"),
            )
            for t in ("penalty_stats", "appeal_stats")
        }
    assert all(0 < public < every for public, every in marts.values())

    writer = psycopg.connect(warehouse)  # the night writing: its transaction open
    try:
        writer.execute("DELETE FROM standings")
        writer.execute("DELETE FROM director_audit")
        # the public role: the published standings and the statistics, not by director
        assert _count(warehouse, roles["public"], "dashboards.standings") == published
        for t, (public, _) in marts.items():
            assert _count(warehouse, roles["public"], f"dashboards.{t}") == public
        assert _count(warehouse, roles["public"], "dashboards.sessions") > 0
        # ... and nothing else: not the audit, not a table, not a write
        for relation in ("dashboards_audit.director_audit", "public.standings", "contestants"):
            denied = _psql(warehouse, roles["public"], f"SELECT count(*) FROM {relation}")
            assert denied.returncode != 0 and "permission denied" in denied.stderr, relation
        wrote = _psql(warehouse, roles["public"], "CREATE TABLE dashboards.mine (x int)")
        assert wrote.returncode != 0 and "read-only transaction" in wrote.stderr
        # the audit role: the audit, the statistics by director too, no director's note
        assert _count(warehouse, roles["audit"], "dashboards_audit.director_audit") > 0
        for t, (_, every) in marts.items():
            assert _count(warehouse, roles["audit"], f"dashboards_audit.{t}") == every
        notes = _psql(
            warehouse, roles["audit"], "SELECT a_note FROM dashboards_audit.ruling_discrepancies"
        )
        assert notes.returncode != 0 and "a_note" in notes.stderr
    finally:
        writer.rollback()
        writer.close()

    # the documented query, as written, on this warehouse (the documented host's URL
    # replaced by this server's)
    (line,) = [
        w for w in shlex.split(_block("sh", "dashboards.standings")) if w.startswith("SELECT")
    ]
    shown = _psql(warehouse, roles["public"], line)
    assert shown.returncode == 0, shown.stderr
    assert len(shown.stdout.strip().splitlines()) == 10


def test_a_view_made_again_is_readable_by_its_role(warehouse: str):
    """A new version of a view (its text changed) is dropped and made again by the next
    run; the schema's default privileges give it to its readers."""
    roles = _roles(warehouse)
    with psycopg.connect(warehouse, autocommit=True) as raw:
        raw.execute("COMMENT ON VIEW dashboards.standings IS 'traveller view of an older text'")
        before = raw.execute("SELECT to_regclass('dashboards.standings')::oid").fetchone()[0]
    pg_warehouse._schema_ok.clear()  # as in a new process
    with Warehouse(warehouse).connect():
        pass
    with psycopg.connect(warehouse, autocommit=True) as raw:
        after = raw.execute("SELECT to_regclass('dashboards.standings')::oid").fetchone()[0]
    assert after != before  # made again
    assert _count(warehouse, roles["public"], "dashboards.standings") > 0


def test_every_view_model_is_a_view(warehouse: str):
    names = {
        (s, p.stem) for s in pg_warehouse.VIEW_SCHEMAS for p in (ROOT / "sql" / s).glob("*.sql")
    }
    with psycopg.connect(warehouse, autocommit=True) as raw:
        made = set(
            raw.execute(
                "SELECT schemaname, viewname FROM pg_views WHERE schemaname = ANY(%s)",
                (list(pg_warehouse.VIEW_SCHEMAS),),
            ).fetchall()
        )
    assert made == names and len(names) == 8
