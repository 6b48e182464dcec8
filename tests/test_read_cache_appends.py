"""The read cache keeps the rows of a file appended to and writes only the new ones.

A file read again (its bytes changed) has its rows compared, in the warehouse, with those its
last reading left: when those are, row for row and column for column, the first rows of the
new reading — a scorer appended to ``events.csv``, the contestants list or a ruling log — only
the rows after them are written. Whatever the edit, the cache must then hold exactly what a
cache filled by reading every file once holds (the oracle here), table by table.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines import read_cache
from pipelines.inbox import inbox_files
from pipelines.synth.inbox import generate_inbox
from pipelines.warehouse import Warehouse, export

TABLES = ("read_files", *read_cache.TABLE_OF.values())


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pristine") / "inbox"
    generate_inbox(folder, sessions=3, clubs=1, seed=11, other_forms=False)
    return folder


def _cache(wh: Warehouse) -> dict[str, pl.DataFrame]:
    """Every cache table in its export order (file, then ordinal; the registry of files read
    by file: it has no order of its own, every reader orders it)."""
    with wh.connect() as conn:
        return {t: export(conn, t) for t in TABLES} | {
            "read_files": export(conn, "read_files").sort("file_key")
        }


def _oracle(inbox: Path, folder: Path) -> dict[str, pl.DataFrame]:
    """The cache of a warehouse that read every file of ``inbox`` once."""
    wh = Warehouse(folder / "oracle.duckdb")
    with wh.connect() as conn:
        read_cache.refresh(inbox, conn)
    return _cache(wh)


def _same(got: dict[str, pl.DataFrame], want: dict[str, pl.DataFrame]) -> None:
    for t in TABLES:
        assert got[t].equals(want[t], null_equal=True), (t, _diff(got[t], want[t]))


def _diff(a: pl.DataFrame, b: pl.DataFrame) -> str:
    """The rows one frame holds and the other does not (an assertion's message)."""
    if a.columns != b.columns:
        return f"columns {a.columns} != {b.columns}"
    only_a = a.join(b, on=a.columns, how="anti", nulls_equal=True)
    only_b = b.join(a, on=a.columns, how="anti", nulls_equal=True)
    return (
        f"{a.height} vs {b.height} rows; only got: {only_a.rows()[:3]}; "
        f"only wanted: {only_b.rows()[:3]}"
    )


def _written(monkeypatch) -> list[tuple[str, int, list[str]]]:
    """Every cache write: the table, the rows inserted, the files whose rows were deleted."""
    seen: list[tuple[str, int, list[str]]] = []
    real = read_cache.write

    def spy(conn, writes):
        seen.extend(
            (w.table, w.frame.height, list((w.params or {}).get("file", []))) for w in writes
        )
        return real(conn, writes)

    monkeypatch.setattr(read_cache, "write", spy)
    return seen


def test_an_appended_log_keeps_its_rows_and_writes_the_new_ones(pristine, tmp_path, monkeypatch):
    inbox = tmp_path / "inbox"
    shutil.copytree(pristine, inbox)
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        read_cache.refresh(inbox, conn)
    rulings = inbox / "rulings.csv"
    lines = rulings.read_text(encoding="utf-8").splitlines()
    added = [ln.replace("R0001", "R9001", 1) for ln in lines[1:3]]
    rulings.write_text("\n".join([*lines, *added]) + "\n", encoding="utf-8")
    # a results file changed in its middle: its rows replaced whole
    results = inbox / "results-club1-2026-11-03.csv"
    rows = results.read_text(encoding="utf-8").splitlines()
    rows[3] = rows[3].replace(",", ",,", 1)  # a row of another width: rejected
    results.write_text("\n".join(rows) + "\n", encoding="utf-8")
    seen = _written(monkeypatch)
    with wh.connect() as conn:
        _, done = read_cache.refresh(inbox, conn)
    assert sorted(done.read) == [results.name, rulings.name]
    by_table = {t: (n, files) for t, n, files in seen}
    # the log: its two new rows inserted, none of its rows deleted
    assert by_table["read_rulings"] == (2, [results.name])
    # the results file: all its rows but the one rejected, its old rows deleted (the log
    # has none there: nothing of it to keep)
    n, files = by_table["read_results"]
    assert results.name in files and n == len(rows) - 2
    _same(_cache(wh), _oracle(inbox, tmp_path))


# an edit of one file: append lines, drop one, change one, truncate, or rewrite its header
EDITS = st.sampled_from(["append", "append_blank", "drop", "change", "truncate", "header"])


def _edit(path: Path, how: str, k: int) -> None:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    head, body = lines[:1], lines[1:]
    if not body:
        body = [""]
    i = k % len(body)
    if how == "append":
        body = [*body, *body[: 1 + k % 3]]  # rows again (a duplicate row is a row)
    elif how == "append_blank":
        body = [*body, "", body[i]]
    elif how == "drop":
        body = body[:i] + body[i + 1 :]
    elif how == "change":
        body[i] = body[i].replace(",", ",x", 1)
    elif how == "truncate":
        body = body[:i]
    elif how == "header":
        head = [head[0].upper()] if head else head
    ending = "\n" if k % 2 else "\r\n"
    path.write_text(ending.join([*head, *body]) + ending, encoding="utf-8")


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    nights=st.lists(
        st.lists(st.tuples(st.integers(0, 6), EDITS, st.integers(0, 40)), min_size=1, max_size=3),
        min_size=1,
        max_size=3,
    )
)
def test_after_any_edits_the_cache_is_what_reading_every_file_gives(pristine, tmp_path, nights):
    """Nights of edits to the inbox's files (appends most of all): after each night's
    refresh the cache holds, table by table, what one reading of every file gives."""
    folder = tmp_path / f"n{abs(hash(repr(nights)))}"
    if folder.exists():
        shutil.rmtree(folder)
    inbox = folder / "inbox"
    shutil.copytree(pristine, inbox)
    wh = Warehouse(folder / "w.duckdb")
    with wh.connect() as conn:
        read_cache.refresh(inbox, conn)
    paths = sorted(inbox.iterdir())
    for n, night in enumerate(nights):
        for which, how, k in night:
            _edit(paths[which % len(paths)], how, k)
        with wh.connect() as conn:
            read_cache.refresh(inbox, conn)
        night_folder = folder / f"oracle{n}"
        night_folder.mkdir()
        _same(_cache(wh), _oracle(inbox, night_folder))
    shutil.rmtree(folder)


def test_the_lean_results_come_in_the_inbox_order(pristine, tmp_path):
    """:func:`read_cache.load` gives the cached result rows in the inbox's order — its files
    sorted part by part (:func:`pipelines.inbox.inbox_files`), each file's rows in its own
    order — not in the order of the names' text: ``x/r.csv`` comes before ``x-r.csv`` (a
    folder's files before a name that only begins like it), though ``-`` sorts before ``/``."""
    inbox = tmp_path / "inbox"
    shutil.copytree(pristine, inbox)
    results = sorted(inbox.glob("results-*.csv"))
    (inbox / "x").mkdir()
    results[0].rename(inbox / "x" / "r.csv")
    results[1].rename(inbox / "x-r.csv")
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        read_cache.refresh(inbox, conn)
        lean = read_cache.load(conn).results
        cached = export(conn, "read_results")
    order = [p.relative_to(inbox).as_posix() for p in inbox_files(inbox)]
    files = lean["file"].unique(maintain_order=True).to_list()
    assert files == [f for f in order if f in set(files)]
    assert files.index("x/r.csv") < files.index("x-r.csv")
    want = cached.with_columns(
        pl.col("file").replace_strict({f: i for i, f in enumerate(order)}).alias("__place")
    ).sort("__place", "ordinal")
    assert lean.select("file", "ordinal").equals(want.select("file", "ordinal"))
    assert lean.height == cached.height > 0
