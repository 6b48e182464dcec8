"""A local PostgreSQL cluster in a folder, for trying the PostgreSQL deployment on one machine
(``make pg-start`` / ``make pg-stop`` / ``make dev-postgres``) and for the tests.

It uses the server binaries of the machine (``initdb`` on the PATH, else the newest
``/usr/lib/postgresql/<version>/bin``), listens on 127.0.0.1 only, with ``trust``
authentication for the local user ``postgres`` — a sandbox, never a server. PostgreSQL
refuses to run as root, so as root the cluster's commands run as the ``postgres`` system
user (``runuser -u postgres``), who then owns the folder.

``python -m pipelines.pg_local start .pg [--port 54320]`` prints the warehouse URL;
``python -m pipelines.pg_local stop .pg``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The database the warehouse and Dagster's own tables live in.
DATABASE = "traveller"
USER = "postgres"


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's server binaries, or None when it is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3])
    )
    return versions[-1].parent if versions else None


def _as_postgres() -> list[str]:
    return ["runuser", "-u", USER, "--"] if os.geteuid() == 0 else []


@dataclass(frozen=True)
class Cluster:
    """A cluster under ``folder`` listening on 127.0.0.1:``port``."""

    folder: Path
    port: int

    @property
    def url(self) -> str:
        """The warehouse URL (libpq / psycopg 3)."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    @property
    def env(self) -> dict[str, str]:
        """The variables ``docs/deploy/dagster.postgres.yaml`` reads."""
        return {
            "DAGSTER_PG_HOST": "127.0.0.1",
            "DAGSTER_PG_PORT": str(self.port),
            "DAGSTER_PG_USER": USER,
            "DAGSTER_PG_PASSWORD": "",
            "DAGSTER_PG_DB": DATABASE,
            "TRAVELLER_WAREHOUSE": self.url,
        }

    def _run(self, *args: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*_as_postgres(), *map(str, args)], check=True, capture_output=True, text=True
        )

    def start(self) -> Cluster:
        """Create the cluster (first time) and start it; create the database if missing."""
        pg = pg_bin()
        if pg is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        data = self.folder / "data"
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.folder, USER)
        if not (data / "PG_VERSION").exists():
            self._run(
                pg / "initdb", "-D", data, "-A", "trust", "-U", USER, "-E", "UTF8", "--locale=C"
            )
        if not (data / "postmaster.pid").exists():
            opts = f"-k {self.folder} -c listen_addresses=127.0.0.1 -p {self.port}"
            self._run(
                pg / "pg_ctl", "-D", data, "-w", "-l", self.folder / "log", "-o", opts, "start"
            )
        psql = [pg / "psql", "-h", "127.0.0.1", "-p", self.port, "-U", USER, "-d", "postgres"]
        have = self._run(*psql, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'")
        if have.stdout.strip() != "1":
            self._run(*psql, "-c", f"CREATE DATABASE {DATABASE}")
        return self

    def stop(self, immediate: bool = False) -> None:
        """Stop the cluster if it runs (``immediate``: no checkpoint, as for a throw-away)."""
        pg = pg_bin()
        data = self.folder / "data"
        if pg is not None and (data / "postmaster.pid").exists():
            mode = "immediate" if immediate else "fast"
            subprocess.run(
                [*_as_postgres(), pg / "pg_ctl", "-D", data, "-m", mode, "stop"],
                capture_output=True,
            )


def main(argv: list[str]) -> int:
    """``start|stop FOLDER [--port N]``."""
    if len(argv) < 2 or argv[0] not in {"start", "stop"}:
        print("usage: python -m pipelines.pg_local start|stop FOLDER [--port N]", file=sys.stderr)
        return 2
    port = int(argv[argv.index("--port") + 1]) if "--port" in argv else 54320
    cluster = Cluster(Path(argv[1]).resolve(), port)
    if argv[0] == "start":
        cluster.start()
        print(cluster.url)
    else:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
