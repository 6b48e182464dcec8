"""A run killed with SIGKILL at any point leaves nothing a re-run does not make whole.

Two clubs of the bundled sample (a two-session pairs event and a two-evening knockout, with
their rulings and appeals) are run by ``traveller run`` in a child process that is killed
with ``kill -9`` as soon as it says it has reached a step: reading the inbox, scoring the
session dates (as they start, and two seconds in), the audit, the publication. Right after
each kill the published files are whole (every page ends its ``</html>``; the site's links
all lead to a page) — each file is written to a temporary name and renamed over the old one.
Then ``traveller run`` again: every table of the warehouse and every published file is what
a run from scratch gives, with no temporary file left behind.
"""

from __future__ import annotations

import csv
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines import tables
from pipelines.settings import SAMPLE_INBOX
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

CLUBS = ("club1", "club6")
NOW = "2026-12-01 12:00"
#: The kill points: what ``traveller run`` prints as it starts a step, and how long after
#: it the run is killed (the session dates are computed in one pass: killed as it starts and
#: two seconds into it).
STEPS = (
    ("reading the inbox", 0.0),
    ("session date(s)", 0.0),
    ("session date(s)", 2.0),
    ("audit:", 0.0),
    ("publishing:", 0.0),
)


def _env() -> dict[str, str]:
    return {**os.environ, "TRAVELLER_NOW": NOW, "PYTHONPATH": str(ROOT)}


def _command(inbox: Path, folder: Path) -> list[str]:
    return [
        sys.executable,
        "-c",
        "from pipelines.cli import app; app()",
        "run",
        "--inbox",
        str(inbox),
        "--warehouse",
        str(folder / "w.duckdb"),
    ]


def _run(inbox: Path, folder: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(
        _command(inbox, folder), env=_env(), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _killed_at(inbox: Path, folder: Path, step: str, delay: float) -> str:
    """Start a run, SIGKILL it ``delay`` seconds after it prints ``step``; what it printed."""
    proc = subprocess.Popen(
        _command(inbox, folder),
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if step in line:
            time.sleep(delay)
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=60)
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL, "".join(seen)
    return "".join(seen)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _tables(db: Path) -> dict[str, pl.DataFrame]:
    with duckdb.connect(str(db), read_only=True) as c:
        return {t.name: c.sql(f'SELECT * FROM "{t.name}" ORDER BY ALL').pl() for t in tables.TABLES}


def _files(folder: Path) -> dict[str, str]:
    """Every file a run wrote beside its warehouse (site, exports, dashboard, reports)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and ".duckdb" not in p.name
        and p.name != "w.duckdb.lock"
        # a folder's seal holds its folders' times on the disk, not what was published
        and not p.name.endswith(".seal.json")
    }


def _whole(site: Path) -> None:
    """Every page of ``site`` is whole and every link between its pages leads to one."""
    pages = list(site.rglob("*.html")) if site.exists() else []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert text.rstrip().endswith("</html>"), page
        for href in re.findall(r'href="([^"#:]+)"', text):
            if href.endswith((".html", "/")):
                target = (page.parent / href).resolve()
                target = target / "index.html" if href.endswith("/") else target
                assert target.is_file(), (page, href)


@pytest.fixture(scope="module")
def inbox_and_fresh(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("killed")
    inbox = base / "inbox"
    inbox.mkdir()
    events: set[str] = set()
    for club in CLUBS:
        for p in SAMPLE_INBOX.glob(f"results-{club}-*.csv"):
            shutil.copy(p, inbox / p.name)
            events |= {r["event_id"] for r in _rows(p)}
    rulings: set[str] = set()
    for name in ("events.csv", "contestants.csv", "rulings.csv", "appeals.csv"):
        kept = [
            r
            for r in _rows(SAMPLE_INBOX / name)
            if r.get("event_id") in events or r.get("ruling_id") in rulings
        ]
        rulings |= {r["ruling_id"] for r in kept if name == "rulings.csv"}
        with (inbox / name).open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, list(kept[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(kept)
    fresh = base / "fresh"
    _run(inbox, fresh)
    return inbox, fresh


@pytest.mark.parametrize(("step", "delay"), STEPS)
def test_a_run_killed_at_a_step_is_made_whole_by_the_next(inbox_and_fresh, tmp_path, step, delay):
    inbox, fresh = inbox_and_fresh
    folder = tmp_path / "w"
    said = _killed_at(inbox, folder, step, delay)
    assert step in said
    _whole(folder / "site")
    _run(inbox, folder)
    a, b = _tables(folder / "w.duckdb"), _tables(fresh / "w.duckdb")
    assert [t for t in a if not a[t].equals(b[t])] == []
    ours, theirs = _files(folder), _files(fresh)
    assert sorted(ours) == sorted(theirs)  # no temporary file left behind, nothing missing
    assert [f for f in ours if ours[f] != theirs[f]] == []
