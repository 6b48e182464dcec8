"""A published sample: the bundled sample inbox (rulings, appeals, a changed version), with
one contestant renamed to hostile markup, run through Dagster and published once."""

from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from pipelines.publish.data import Published
from pipelines.resources import SAMPLE_INBOX
from pipelines.runner import run_inbox

#: A name that must be shown as text, never run or parsed as markup.
HOSTILE = '<script>alert("x")</script> & <b>Bold</b>'
#: The clock of the run: the 2026-11-03 sessions are still in their correction period.
NOW = "2026-11-03 22:55"


@dataclass(frozen=True)
class Sample:
    """Where the published sample lives."""

    inbox: Path
    warehouse: Path
    out: Path

    @property
    def site(self) -> Path:
        return self.out / "site"

    @property
    def exports(self) -> Path:
        return self.out / "exports"


@pytest.fixture(scope="session")
def sample(tmp_path_factory) -> Sample:
    base = tmp_path_factory.mktemp("publish")
    inbox = base / "inbox"
    shutil.copytree(SAMPLE_INBOX, inbox)
    contestants = inbox / "contestants.csv"
    lines = contestants.read_text(encoding="utf-8").splitlines()
    first = lines[1].split(",")
    first[3] = f'"{HOSTILE.replace(chr(34), chr(34) * 2)}"'
    lines[1] = ",".join(first)
    contestants.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TRAVELLER_NOW", NOW)
        report = run_inbox(inbox, base / "w.duckdb", publish_to=base / "out")
    assert report.failed_checks == [] and report.published == base / "out"
    return Sample(inbox, base / "w.duckdb", base / "out")


#: The name :func:`renamed_one` gives.
RENAMED = "Renamed Player"


def renamed_one(data: Published) -> tuple[Published, dict]:
    """``data`` with one contestant of one session renamed (the first session standing):
    every other session's rows as they were. Also returns that standing."""
    first = data.standings.filter(pl.col("scope") == "session").row(0, named=True)
    one = (
        (pl.col("scope") == "session")
        & (pl.col("event_id") == first["event_id"])
        & (pl.col("session") == first["session"])
        & (pl.col("contestant") == first["contestant"])
    )
    names = pl.when(one).then(pl.lit(RENAMED)).otherwise(pl.col("names")).alias("names")
    return dataclasses.replace(data, standings=data.standings.with_columns(names)), first
