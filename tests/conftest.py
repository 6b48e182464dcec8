"""Shared fixtures: paths to the project's reference material.

The published test vectors are kept in the repository (``tests/data/vectors.json``, a copy
of ``../shared/domain/vectors.json``; :mod:`tests.laws.test_vectors` checks the copy against
the original where it is present), so the Laws' tests never skip. The real club files hold
real names and membership numbers and stay outside the repository: ``$TRAVELLER_SHARED``,
else ``../shared`` beside the project. A test needing one skips when it is absent, unless
``TRAVELLER_REQUIRE_SHARED=1`` (set by ``.ci/run`` whenever it finds the shared folder),
which turns the absence into a failure: CI cannot go green by skipping the real files.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TRAVELLER_SHARED") or ROOT.parent / "shared")
REALDATA = SHARED / "realdata"
VECTORS = ROOT / "tests" / "data" / "vectors.json"
#: The published vectors where the team keeps them (compared with the copy above).
SHARED_VECTORS = SHARED / "domain" / "vectors.json"
REQUIRE_SHARED = os.environ.get("TRAVELLER_REQUIRE_SHARED") == "1"

# `make test` inherits the Makefile's DAGSTER_HOME (the instance `make dev` shows). The suite's
# runs are not the developer's: without it each run is made in ephemeral instances
# (pipelines/runner.py), and the workers do not race to create, then share, one SQLite
# instance on disk. A test of an instance sets its own (tests/postgres).
os.environ.pop("DAGSTER_HOME", None)
# The suite's runs draw the season dashboard in their own process: a drawing process per run
# (pipelines/reports/drawing.py) would cost each of the suite's runs a Python's imports on the
# processor the other test worker uses. tests/publish/test_drawing.py and
# tests/publish/test_publish_parallel.py set their own number of processes.
os.environ.setdefault("TRAVELLER_PUBLISH_WORKERS", "1")


def shared_file(path: Path) -> Path:
    """``path`` if the shared material is present; else skip the test with a clear message,
    or fail it when ``TRAVELLER_REQUIRE_SHARED=1``."""
    if not path.exists():
        msg = f"shared material {path} is absent (expected in $TRAVELLER_SHARED or ../shared)"
        if REQUIRE_SHARED:
            pytest.fail(f"{msg}; TRAVELLER_REQUIRE_SHARED=1 makes that a failure")
        pytest.skip(msg)
    return path


def memories() -> list:
    """This process's memories (:mod:`pipelines.memo`): drawn charts and solved deals."""
    from pipelines import deals
    from pipelines.reports import charts, season

    drawn = (season._bars, season._lines, season._rejections_chart)
    return [charts.DRAWN_HERE, deals.TABLES, *(fn.memory for fn in drawn)]


@pytest.fixture
def nothing_remembered() -> None:
    """This process's memory of drawn charts and solved deals (:mod:`pipelines.memo`)
    emptied: a test that counts what is drawn or solved sees what a process of its own
    draws and solves, whatever the tests before it made in this process."""
    for memory in memories():
        memory.clear()
