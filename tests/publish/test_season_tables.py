"""The season mart's tables: named by the results, or seated from the contestants.

A session's tables are counted section by section: the tables its results name where every
result names one; else as many tables as seat the section's contestants, four players to a
table (two pairs), the last one counted when it is not full. The expected figures here come
from the results files themselves (their table numbers, their pairs), not from the warehouse.
"""

from __future__ import annotations

import csv
import math
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.runner import run_inbox
from pipelines.synth.inbox import generate_inbox
from pipelines.warehouse import query


@pytest.fixture(scope="module")
def inboxes(tmp_path_factory) -> tuple[Path, Path]:
    """A pairs inbox as generated (every result names its table) and the same inbox with
    the ``table`` column taken out of every results file."""
    base = tmp_path_factory.mktemp("season")
    numbered = base / "numbered"
    generate_inbox(numbered, sessions=3, clubs=1, seed=5, other_forms=False)
    bare = base / "bare"
    shutil.copytree(numbered, bare)
    for path in bare.glob("results-*.csv"):
        with path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        fields = [c for c in rows[0] if c != "table"]
        with path.open("w", newline="", encoding="utf-8") as f:
            out = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            out.writeheader()
            out.writerows(rows)
    return numbered, bare


def _results(inbox: Path) -> pl.DataFrame:
    return pl.concat(
        [pl.read_csv(p, infer_schema=False) for p in sorted(inbox.glob("results-*.csv"))],
        how="diagonal",
    ).with_columns(pl.col("session").cast(pl.Int32), pl.col("section").fill_null(""))


def _mart(inbox: Path, tmp: Path) -> dict[tuple[str, int], int]:
    db = tmp / "w.duckdb"
    run_inbox(inbox, db, publish_to=tmp / "out")
    with duckdb.connect(str(db), read_only=True) as conn:
        mart = query(conn, "reports/season_sessions")
    assert mart.height
    return {(e, s): t for e, s, t in mart.select("event_id", "session", "tables").rows()}


def test_tables_named_by_the_results(inboxes, tmp_path):
    numbered, _ = inboxes
    want = (
        _results(numbered)
        .group_by("event_id", "session", "section")
        .agg(pl.col("table").n_unique().alias("n"))
        .group_by("event_id", "session")
        .agg(pl.col("n").sum())
    )
    got = _mart(numbered, tmp_path)
    assert got == {(e, s): n for e, s, n in want.rows()}


def test_tables_seated_from_the_pairs_without_table_numbers(inboxes, tmp_path):
    _, bare = inboxes
    res = _results(bare)
    # a Mitchell's pairs are numbered per direction (NS 1 and EW 1 are two pairs); a
    # Howell's pair keeps its number whichever way it sits
    movement = pl.read_csv(bare / "events.csv", infer_schema=False).select(
        "event_id", pl.col("session").cast(pl.Int32), "movement"
    )
    res = res.join(movement, on=["event_id", "session"], how="left")
    pairs = (
        pl.concat(
            [
                res.select(
                    "event_id",
                    "session",
                    "section",
                    pl.col(side).alias("pair"),
                    pl.when(pl.col("movement") == "mitchell")
                    .then(pl.lit(side))
                    .otherwise(pl.lit(""))
                    .alias("direction"),
                )
                for side in ("ns_pair", "ew_pair")
            ]
        )
        .unique()
        .group_by("event_id", "session", "section")
        .agg(pl.len().alias("pairs"))
    )
    want = {}
    for e, s, _section, n in pairs.rows():
        want[(e, s)] = want.get((e, s), 0) + math.ceil(n / 2)  # two pairs to a table
    assert set(movement["movement"]) == {"mitchell", "howell"}
    got = _mart(bare, tmp_path)
    assert got == want
    # pairs that sat north-south over a session are not its tables: a Howell's change sides
    north_south = res.group_by("event_id", "session", "section").agg(
        pl.col("ns_pair").n_unique().alias("ns")
    )
    by_ns = {}
    for e, s, _section, ns in north_south.rows():
        by_ns[(e, s)] = by_ns.get((e, s), 0) + ns
    assert by_ns != want
