"""The read cache: a run reads only the inbox files that are new or changed (no Dagster here).

Reading a file — recognising its format and turning it into the canonical frames — depends
on the file's bytes alone (and on the reader: the code, the size limit, whether ``mdbtools``
is there to open a ``.bws``). So the warehouse keeps what each file's reader gave, keyed by
the file's name and SHA-256 (``read_files``, and one ``read_*`` table per frame of
:data:`pipelines.inbox.FRAMES`, each row with its file's place in the inbox's order and its
own within the file). A run then

1. lists the inbox and hashes every file (no file is parsed for that);
2. reads the files that are new, whose bytes changed, or that another reader read; forgets
   those no longer in the inbox. A file read again keeps, table by table, its cached rows
   when they are the first rows of the new reading, row for row (:func:`kept_heads`: a
   shared file appended to writes its new rows only);
3. resolves everything across files (:func:`pipelines.inbox.assemble`: events.csv over a
   file's own header, dates, contestants) from the cached frames of every file — exactly as
   if every file had been read again, since the frames are the same.

The per-date stages read the cached rows of the files of their dates
(:func:`dated_results`, :func:`dated_logs`) instead of parsing the files again.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import polars as pl

from pipelines import inbox as inbox_mod
from pipelines.batching import batches
from pipelines.formats import max_file_bytes, relative_name
from pipelines.formats.model import RESULT_COLUMNS
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.warehouse import Write, export, query, write
from pipelines.warehouse import kept_heads as warehouse_kept_heads

#: The cache table of each frame of :data:`pipelines.inbox.FRAMES`.
TABLE_OF: dict[str, str] = {
    "results": "read_results",
    "events": "read_events",
    "contestants": "read_contestants",
    "source_standings": "read_standings",
    "deals": "read_deals",
    "rejected": "read_rejected",
    "warnings": "read_warnings",
    "rulings": "read_rulings",
    "appeals": "read_appeals",
}


@dataclass
class Refresh:
    """What :func:`refresh` did: the files it read and those it forgot (by name)."""

    read: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    kept: int = 0
    #: every inbox file, in the inbox's order
    paths: list[Path] = field(default_factory=list)


def reader_fingerprint() -> str:
    """What a cached read was made with: the engine's code (:func:`pipelines.incremental.
    code_fingerprint`), the largest file read (``$TRAVELLER_MAX_FILE_MB``) and whether
    ``mdbtools`` can open a ``.bws``. Another reader reads every file again."""
    from pipelines.incremental import code_fingerprint

    mdb = shutil.which("mdb-export") is not None and shutil.which("mdb-tables") is not None
    return hashlib.sha256(f"{code_fingerprint()}\n{max_file_bytes()}\n{mdb}".encode()).hexdigest()


def file_key(name: str) -> str:
    """A sort key giving the inbox's order of files (:func:`pipelines.inbox.inbox_files`
    sorts paths part by part): the path's parts joined by a NUL, which sorts before every
    character a name holds."""
    return "\x00".join(name.split("/"))


def refresh(inbox: Path, conn, today: date | None = None) -> tuple[inbox_mod.Reads, Refresh]:
    """Bring the cache in ``conn`` up to date with ``inbox`` (module docstring, steps 1-2) and
    return every file's frames as read (:class:`pipelines.inbox.Reads`, in the inbox's
    order) and what was read again."""
    del today  # reading a file does not depend on the day
    paths = inbox_mod.inbox_files(inbox)
    names = inbox_mod.inbox_names(inbox, paths)
    digests = [inbox_mod.sha256(p) for p in paths]
    reader = reader_fingerprint()
    cached = {
        f: (sha, how)
        for f, sha, how in query(conn, "read/read_files").select("file", "sha256", "reader").rows()
    }
    todo = [
        (p, n)
        for p, n, d in zip(paths, names, digests, strict=True)
        if cached.get(n) != (d, reader)
    ]
    gone = sorted(set(cached) - set(names))
    done = Refresh(
        read=[n for _, n in todo], forgotten=gone, kept=len(names) - len(todo), paths=paths
    )
    if gone:
        empty = inbox_mod.reads_of([])
        write(conn, _writes(empty, cache_rows(empty), reader, gone))
    # the files to read, a batch at a time: each batch's frames written (one transaction,
    # every file whole) before the next is read
    before = 0
    for batch in read_batches([p for p, _ in todo]):
        fresh = inbox_mod.reads_of(inbox_mod.read_all(inbox, batch, before, len(todo)))
        names_read = [relative_name(p, inbox) for p in batch]
        rows = cache_rows(fresh)
        kept = kept_heads(conn, rows, [n for n in names_read if n in cached])
        write(conn, _writes(fresh, rows, reader, names_read, kept))
        before += len(batch)
        del fresh, rows
    return load(conn), done


#: How many bytes of inbox files a run reads before it writes their frames to the cache: a
#: first load of years holds one batch's rows in memory, not every file's.
READ_BATCH_BYTES = 32 << 20


def read_batches(paths: list[Path], budget: int = READ_BATCH_BYTES) -> list[list[Path]]:
    """``paths`` in order, in batches of at most ``budget`` bytes (a file alone may hold
    more; :func:`pipelines.batching.batches`)."""
    return batches(paths, lambda p: p.lstat().st_size, budget)


def cache_rows(fresh: inbox_mod.Reads) -> dict[str, pl.DataFrame]:
    """The rows of the files just read (``fresh``) as each cache table keeps them: each with
    its place in its file (``ordinal``) and the file's place in the inbox (``file_key``)."""
    keys = fresh.files.select(
        "file", pl.col("file").map_elements(file_key, pl.Utf8).alias("file_key")
    )
    return {
        table: getattr(fresh, frame)
        .with_columns(pl.int_range(pl.len(), dtype=pl.Int32).over("file").alias("ordinal"))
        .join(keys, on="file", how="left", maintain_order="left")
        for frame, table in TABLE_OF.items()
    }


def kept_heads(
    conn, rows: dict[str, pl.DataFrame], files: Sequence[str]
) -> dict[str, dict[str, int]]:
    """For each cache table, the files of ``files`` (cached before, read again) whose cached
    rows are, row for row and column for column, the first rows of those just read
    (``rows``, :func:`cache_rows`): how many. A file someone appended to — ``events.csv``,
    the contestants list or a ruling log, each night — keeps those rows in the cache and
    gets only the new ones written; any other file's rows are all replaced. The table holds
    the same rows either way (every reader of the cache orders them by file and ordinal).
    A table none of whose new rows are of these files keeps nothing of them (looked up in
    no table)."""
    kept: dict[str, dict[str, int]] = {}
    for table, new in rows.items():
        mine = new.filter(pl.col("file").is_in(list(files))) if files else new.clear()
        if mine.height:
            heads = warehouse_kept_heads(conn, table, mine, sorted(set(mine["file"])))
            if heads:
                kept[table] = heads
    return kept


def _writes(
    fresh: inbox_mod.Reads,
    rows: dict[str, pl.DataFrame],
    reader: str,
    names: list[str],
    kept: dict[str, dict[str, int]] | None = None,
) -> list[Write]:
    """The cache's rows of the files just read (``fresh``, ``rows``: :func:`cache_rows`),
    replacing those of the files ``names`` (one transaction). ``kept``: the files whose first
    rows of a table are cached as they are (:func:`kept_heads`): only their rows after those
    are written to that table, and theirs are not deleted."""
    kept = kept or {}
    files = fresh.files.with_columns(
        pl.col("file").map_elements(file_key, pl.Utf8).alias("file_key"),
        pl.lit(reader).alias("reader"),
    )
    writes = [Write("read_files", files, {"file": names})]
    for table, table_rows in rows.items():
        heads = kept.get(table, {})
        if heads:
            table_rows = table_rows.filter(
                pl.col("ordinal")
                >= pl.col("file").replace_strict(heads, default=0, return_dtype=pl.Int32)
            )
        writes.append(Write(table, table_rows, {"file": [n for n in names if n not in heads]}))
    return writes


def load(conn) -> inbox_mod.Reads:
    """Every cached file's frames, in the inbox's order (:class:`pipelines.inbox.Reads`).

    The result rows are read lean (:data:`pipelines.inbox.LEAN_RESULT_COLUMNS`): the columns
    that date them and their row hash; the few a rejection quotes are read whole when asked
    (:func:`results_of`). Years of results are not held in memory to read one new file."""
    files = query(conn, "read/read_files")
    frames = {
        frame: export(conn, table).select(columns)
        for (frame, columns), table in zip(inbox_mod.FRAMES, TABLE_OF.values(), strict=True)
        if frame != "results"
    }
    frames["results"] = query(conn, "read/read_results_lean").select(inbox_mod.LEAN_RESULT_COLUMNS)
    return inbox_mod.Reads(
        files=files.select(list(inbox_mod.READ_FILE_SCHEMA)),
        results_of=lambda keys: results_of(conn, keys),
        **frames,
    )


def results_of(conn, keys: pl.DataFrame) -> pl.DataFrame:
    """The whole cached result rows (:data:`RESULT_COLUMNS` and their row hash) of ``keys``
    (``file, ordinal``), in the order of ``keys``."""
    found = query(
        conn,
        "read/read_results_at",
        {"files": keys["file"].to_list(), "ordinals": keys["ordinal"].to_list()},
    )
    return keys.join(found, on=["file", "ordinal"], how="left", maintain_order="left").select(
        *RESULT_COLUMNS, inbox_mod.ROW_HASH
    )


def dated_results(
    conn, files: Sequence[str], events: pl.DataFrame, days: Sequence[str], today: date
) -> pl.DataFrame:
    """The cached result rows of ``files``, dated (:func:`pipelines.inbox.date_results`),
    those of ``days`` (rows that cannot be dated were rejected when the inbox was read)."""
    results = query(conn, "read/read_results_of_files", {"files": list(files)}).select(
        RESULT_COLUMNS
    )
    dated, _ = inbox_mod.date_results(results, events, today)
    return dated.filter(pl.col("session_date").is_in(list(days)))


def dated_logs(
    conn, files: Sequence[str], events: pl.DataFrame, days: Sequence[str], today: date
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The cached ruling and appeal rows of ``files`` dated one of ``days``, dated as
    :func:`pipelines.inbox.assemble` dates them (the files' results give their sessions'
    dates too)."""
    params = {"files": list(files)}
    rulings = query(conn, "read/read_rulings_of_files", params).select(RULING_COLUMNS)
    appeals = query(conn, "read/read_appeals_of_files", params).select(APPEAL_COLUMNS)
    results = query(conn, "read/read_results_of_files", params).select(RESULT_COLUMNS)
    dated, _ = inbox_mod.date_results(results, events, today)
    r, a, _ = inbox_mod.date_logs(rulings, appeals, events, today, dated)
    keep = pl.col("session_date").is_in(list(days))
    return r.filter(keep), a.filter(keep)
