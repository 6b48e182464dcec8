"""The inbox: every file a scorer dropped, read once, with each result dated.

:func:`scan` reads every file under the inbox (format recognised by content),
resolves each event session's details (:mod:`pipelines.scoring.events`) and
dates every table result: the date given by ``events.csv``, else the date the
file carries (USEBIO ``DATE``, PBN ``[Date]``), else an ISO date in the file
name (``results-2026-11-02.csv``). A result that cannot be dated, or whose
date lies outside the partitions Traveller keeps, is rejected with the reason.

The date is the partition key of every downstream asset, so the registry
(:class:`InboxSnapshot.files`) records which dates each file touches.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import polars as pl

from pipelines import progress, settings
from pipelines.deals import checked as checked_deals
from pipelines.file_digests import sha256
from pipelines.formats import read_file, results_csv_label
from pipelines.formats.canonical_csv import normalise_results, read_results_csvs
from pipelines.formats.model import (
    CONTESTANT_COLUMNS,
    DEAL_COLUMNS,
    EVENT_COLUMNS,
    REJECT_COLUMNS,
    RESULT_COLUMNS,
    RESULT_CSV_HEADER,
    SOURCE_STANDING_COLUMNS,
    WARNING_COLUMNS,
    ReadResult,
    empty_frame,
)
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.scoring.checks import Check, apply_checks, quote, rejections
from pipelines.scoring.events import (
    EVENT_HOLD_COLUMNS,
    EVENTS_SCHEMA,
    event_holds,
    read_event_dates,
    resolve_events,
    with_defaults,
)
from pipelines.split import parts_by
from pipelines.tables import polars_schema

#: First session date Traveller keeps a partition for.
FIRST_DATE = date(1990, 1, 1)

#: Columns of the source-file registry (the ``source_files`` table).
FILES_SCHEMA: dict[str, pl.DataType] = polars_schema("source_files")


@dataclass
class InboxSnapshot:
    """Everything read from the inbox, before validation.

    * ``files``: the registry, one row per file (:data:`FILES_SCHEMA`);
    * ``results``: canonical result rows with ``session_date`` resolved;
    * ``events``: resolved event sessions (defaults applied);
    * ``contestants``, ``source_standings``: accepted reference rows;
    * ``rejected``: rows and files rejected while reading;
    * ``warnings``: things a scorer should look at that reject nothing (e.g. a Bridgemate
      entry superseded by a later one, a table short of results);
    * ``rulings``, ``appeals``: directors' rulings and appeal decisions, dated;
    * ``event_holds``: event sessions whose details are not known (a rejected ``events.csv``
      row, an unknown column; :func:`pipelines.scoring.events.event_holds`): held back.
    """

    files: pl.DataFrame
    results: pl.DataFrame
    events: pl.DataFrame
    contestants: pl.DataFrame
    source_standings: pl.DataFrame
    rejected: pl.DataFrame
    warnings: pl.DataFrame
    rulings: pl.DataFrame
    appeals: pl.DataFrame
    #: the checked deals (hand records, :func:`pipelines.deals.checked`)
    deals: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=polars_schema("deals")))
    event_holds: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema={c: pl.Utf8 for c in EVENT_HOLD_COLUMNS})
    )
    #: ``session_date, event_id, row_hash`` of every dated result (:func:`result_hashes`);
    #: ``None``: taken from ``results``
    hashes: pl.DataFrame | None = None

    #: what was derived from the frames once (:meth:`event_dates`)
    _memo: dict[str, pl.DataFrame] = field(default_factory=dict, repr=False, compare=False)

    def result_hashes(self) -> pl.DataFrame:
        """``session_date, event_id, row_hash`` of every dated result row."""
        return self.hashes if self.hashes is not None else result_hashes(self.results)

    def event_dates(self) -> pl.DataFrame:
        """``session_date, event_id`` (unique, unordered): the dates of each event, those of
        its dated results and those its sessions were given; derived once."""
        if "event_dates" not in self._memo:
            results = self.results.filter(pl.col("session_date").is_not_null())
            self._memo["event_dates"] = pl.concat(
                [
                    results.select(pl.col("session_date").cast(pl.Utf8), "event_id"),
                    self.events.filter(pl.col("date").is_not_null()).select(
                        pl.col("date").cast(pl.Utf8).alias("session_date"), "event_id"
                    ),
                ]
            ).unique()
        return self._memo["event_dates"]

    def dates(self) -> list[str]:
        """Sorted session dates found in the inbox."""
        return sorted(self.results["session_date"].drop_nulls().unique().to_list())

    def results_for(self, day: str) -> pl.DataFrame:
        """The canonical result rows of session date ``day``."""
        return self.results.filter(pl.col("session_date") == day)

    def future_from(self, today: date) -> str | None:
        """The earliest session date of a row rejected for being after tomorrow
        (:func:`date_results`), or ``None``: until the day before it, reading the same
        files on another day gives the same snapshot (:func:`pipelines.incremental.
        up_to_date`)."""
        found = (
            self.rejected.filter(pl.col("field") == "session_date")
            .select(pl.col("reason").str.extract(_FUTURE, 1).alias("d"))
            .filter(pl.col("d") > (today + timedelta(days=1)).isoformat())
        )
        return found["d"].min() if found.height else None  # type: ignore[return-value]


def inbox_names(inbox: Path, paths: list[Path]) -> list[str]:
    """The names of ``paths`` (:func:`inbox_files` of ``inbox``) as the registry writes them
    (:func:`pipelines.formats.relative_name`), from their parts below the inbox: one slice of
    each path's text, not two absolute paths compared."""
    from pipelines.formats import printable

    cut = len(os.fspath(inbox.joinpath("x"))) - 1
    return [printable(os.fspath(p)[cut:].replace(os.sep, "/")) for p in paths]


def inbox_files(inbox: Path) -> list[Path]:
    """Every regular, non-hidden file under ``inbox``, in a stable order, and every symbolic
    link to a file, broken or not: a link is listed so that reading refuses it by name
    (:func:`pipelines.formats.read_file`) instead of it being skipped silently."""
    if not inbox.is_dir():
        raise FileNotFoundError(f"inbox folder not found: {inbox}")
    found: list[tuple[str, ...]] = []

    def walk(folder: str, parts: tuple[str, ...]) -> None:
        # one directory listing per folder: an entry's kind comes with the listing (no stat
        # of each file); a hidden entry is skipped, a hidden folder not entered, a link to a
        # folder neither listed nor followed
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, (*parts, entry.name))
                elif entry.is_symlink():
                    if not entry.is_dir():
                        found.append((*parts, entry.name))
                elif entry.is_file(follow_symlinks=False):
                    found.append((*parts, entry.name))

    walk(os.fspath(inbox), ())
    found.sort()  # part by part, as paths sort
    return [inbox.joinpath(*parts) for parts in found]


def read_all(
    inbox: Path, files: list[Path] | None = None, done: int = 0, total: int | None = None
) -> list[tuple[Path, ReadResult]]:
    """Read every inbox file (or just ``files``) with the format readers (the progress told
    as ``reading files``; ``done`` files of ``total`` read before these, when they are a
    batch of a longer reading)."""
    paths = files if files is not None else inbox_files(inbox)
    total = len(paths) + done if total is None else total
    # the results CSVs first, all at once (read_results_csvs); what that leaves, and every
    # other file, one by one
    labels = [results_csv_label(p, inbox) for p in paths]
    plain = [k for k, label in enumerate(labels) if label is not None]
    reads: list[ReadResult | None] = [None] * len(paths)
    for k, read in zip(
        plain, read_results_csvs([(paths[k], labels[k]) for k in plain]), strict=True
    ):
        reads[k] = read
    n = done + sum(read is not None for read in reads)
    if n > done:
        progress.tick("reading files", n, total)
    for k, p in enumerate(paths):
        if reads[k] is None:
            reads[k] = read_file(p, inbox, normalise=False)
            n += 1
            if progress.every(25, n, total):
                progress.tick("reading files", n, total)
    out = [(p, read) for p, read in zip(paths, reads, strict=True) if read is not None]
    normalise_together([r for _, r in out])
    return out


def normalise_together(reads: list[ReadResult]) -> None:
    """Write the results of the ``reads`` a reader left as read canonically
    (``ReadResult.normalised`` false: :func:`~pipelines.formats.canonical_csv.
    normalise_results`), all in one pass: each row is written canonically on its own, so the
    rows come out as each file's reader would have given them, for the cost of one file."""
    raw = [r for r in reads if not r.normalised]
    rows = [r.results for r in raw if r.results.height]
    if rows:
        done = parts_by(normalise_results(pl.concat(rows)), "file")
        for r in raw:
            if r.results.height:
                r.results = done[(r.file,)]
    for r in raw:
        r.normalised = True


def _concat(frames: list[pl.DataFrame], columns: tuple[str, ...]) -> pl.DataFrame:
    """The rows of ``frames`` in order, in ``columns``. Frames of one layout (every reader of
    a kind gives the same) are joined first and selected once, not selected one by one."""
    frames = [f for f in frames if f.height]
    if not frames:
        return empty_frame(columns)
    try:  # one layout: the same columns in the same order, of the same types
        return pl.concat(frames).select(columns)
    except pl.exceptions.PolarsError:
        return pl.concat([f.select(columns) for f in frames])


#: What a result row's :data:`ROW_HASH` is taken over: every column as read but its date,
#: which dating may replace (the date is hashed beside it, :func:`result_hashes`).
HASHED_RESULT_COLUMNS: tuple[str, ...] = tuple(c for c in RESULT_COLUMNS if c != "session_date")
#: The column of a result row's hash (64 bits, stored signed: the warehouses' BIGINT).
ROW_HASH = "row_hash"


def with_row_hash(results: pl.DataFrame) -> pl.DataFrame:
    """``results`` with :data:`ROW_HASH`: Polars' row hash (seed 0) of its
    :data:`HASHED_RESULT_COLUMNS` in name order, as a signed 64-bit integer. Taken when a
    file is read and kept in the read cache with its rows, so a run fingerprints its dates
    without reading every result row again (:func:`pipelines.incremental.date_inputs`)."""
    h = results.select(sorted(HASHED_RESULT_COLUMNS)).hash_rows(seed=0)
    return results.with_columns(h.reinterpret(signed=True).alias(ROW_HASH))


def result_hashes(dated: pl.DataFrame) -> pl.DataFrame:
    """``session_date, event_id, row_hash`` of dated result rows carrying their
    :data:`ROW_HASH` (in their order): what a date's fingerprint holds of its results."""
    if ROW_HASH not in dated.columns:
        dated = with_row_hash(dated)
    return dated.select("session_date", "event_id", ROW_HASH)


def _contestant_checks() -> list[Check]:
    return [
        Check("event_id", pl.col("event_id").is_null(), pl.lit("event_id is empty")),
        Check("contestant", pl.col("contestant").is_null(), pl.lit("contestant is empty")),
        Check(
            "direction",
            pl.col("direction").is_not_null() & ~pl.col("direction").is_in(["NS", "EW"]),
            pl.format("direction must be NS, EW or empty, not '{}'", quote("direction")),
        ),
    ]


def validate_contestants(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Validate contestant rows. A contestant listed again with the same names and
    membership numbers (each session of a multi-session event lists its pairs: USEBIO
    ``SESSION/.../PARTICIPANTS``) is the same contestant and kept once; listed again with
    other names or numbers it is rejected with where it was first listed."""
    raw = pl.concat_str([pl.col(c).fill_null("") for c in CONTESTANT_COLUMNS[2:]], separator=",")
    ok, rejected = apply_checks(frame, _contestant_checks(), raw)
    ok = ok.with_row_index("__o")
    key = ["event_id", "section", "contestant", "direction"]
    same = pl.concat_str(
        [pl.col(c).cast(pl.Utf8).fill_null("\x00") for c in [*key, "names", "player_ids"]],
        separator="\x1f",
    )
    ok = ok.with_columns(same.alias("__same")).with_columns(
        pl.col("__o").min().over(key).alias("__first"),
        pl.col("__o").min().over("__same").alias("__first_same"),
    )
    where = ok.select(
        pl.col("__o").alias("__first"),
        pl.concat_str([pl.col("file"), pl.lit(":"), pl.col("location")]).alias("__w"),
    )
    repeat = (pl.col("__o") != pl.col("__first")) & (pl.col("__first_same") == pl.col("__first"))
    ok = ok.filter(~repeat)  # the first listing again, word for word: nothing to keep twice
    dup = ok.filter(pl.col("__o") != pl.col("__first"))
    if dup.height:
        dup = dup.join(where, on="__first")
        reason = pl.format(
            "contestant {} of event {} is already listed at {}", "contestant", "event_id", "__w"
        )
        rejected = pl.concat([rejected, rejections(dup, "contestant", reason, raw)])
    return ok.filter(pl.col("__o") == pl.col("__first")).select(CONTESTANT_COLUMNS), rejected


def date_results(
    results: pl.DataFrame,
    events: pl.DataFrame,
    today: date,
    columns: tuple[str, ...] = RESULT_COLUMNS,
    raw_columns: tuple[str, ...] = RESULT_CSV_HEADER,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Resolve each row's session date (result rows, or ruling rows with ``columns``);
    reject rows that cannot be dated."""
    ev = events.select(
        "event_id", pl.col("session").alias("__s"), pl.col("date").alias("__ev_date")
    )
    df = (
        results.with_row_index("__o")
        .with_columns(pl.col("session").cast(pl.Int32, strict=False).alias("__s"))
        .join(ev, on=["event_id", "__s"], how="left", maintain_order="left")
        .with_columns(pl.coalesce("__ev_date", "session_date").alias("session_date"))
    )
    last = (today + timedelta(days=1)).isoformat()
    d = pl.col("session_date")
    checks = [
        Check(
            "session",
            d.is_null() & pl.col("__s").is_null(),
            pl.format("session must be a whole number >= 1, not '{}'", quote("session")),
        ),
        Check(
            "session_date",
            d.is_null() & pl.col("__s").is_not_null(),
            pl.format(
                "no date for event {} session {}: give it in events.csv, or put the date "
                "(YYYY-MM-DD) in the file name",
                quote("event_id"),
                quote("session"),
            ),
        ),
        Check(
            "session_date",
            d.is_not_null()
            & (
                d.str.to_date("%Y-%m-%d", strict=False).is_null()
                | (d < FIRST_DATE.isoformat())
                | (d > last)
            ),
            pl.format(
                "session date '{}' is not a date between {} and tomorrow",
                quote("session_date"),
                pl.lit(FIRST_DATE.isoformat()),
            ),
        ),
    ]
    raw = pl.concat_str([pl.col(c).fill_null("") for c in raw_columns], separator=",")
    ok, rejected = apply_checks(df, checks, raw)
    return ok.select(*columns), rejected


_ISO_DATE = r"(\d{4}-\d{2}-\d{2})"
#: The date of a row :func:`date_results` rejects as out of range (its reason's wording).
_FUTURE = r"session date '(\d{4}-\d{2}-\d{2})' is not a date between"


def results_dates(dated_results: pl.DataFrame) -> pl.DataFrame:
    """The date of each event session as its dated results give it (``event_id``,
    ``session``, ``session_date``): the sessions whose results all carry one date."""
    return (
        dated_results.select("event_id", "session", "session_date")
        .unique()
        .filter(pl.len().over(pl.concat_str("event_id", "session", separator="\x1f")) == 1)
        .rename({"session_date": "__results_date"})
    )


def date_logs(
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    events: pl.DataFrame,
    today: date,
    dated_results: pl.DataFrame | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Date ruling and appeal rows; returns (rulings, appeals, rejected).

    A ruling takes its session's date from wherever that session is dated: its event
    session's date in events.csv (or the event's file), else the date of the session's
    results (``dated_results``, e.g. from the results file's name), else an ISO date in the
    log's own file name; only a ruling whose session is dated nowhere is rejected. A second
    ruling with an id already used is rejected. An appeal takes the date, event and session
    of the ruling it is about; an appeal about a ruling no log holds is rejected, as is a
    second appeal with an id already used.
    """
    ruling_raw = RULING_COLUMNS[2:]
    r = rulings.with_columns(pl.col("file").str.extract(_ISO_DATE, 1).alias("session_date"))
    if dated_results is not None and dated_results.height and r.height:
        order = r.columns
        r = (
            r.with_row_index("__o")
            .join(results_dates(dated_results), on=["event_id", "session"], how="left")
            .sort("__o")
            .with_columns(pl.coalesce("__results_date", "session_date").alias("session_date"))
            .select(order)
        )
    dated, rejected = date_results(r, events, today, (*RULING_COLUMNS, "session_date"), ruling_raw)
    dated, dup = _first_of(dated, "ruling_id", "ruling", ruling_raw)
    appeal_raw = APPEAL_COLUMNS[2:]
    known = dated.select(
        "ruling_id",
        "session_date",
        pl.col("event_id").alias("__event"),
        pl.col("session").alias("__session"),
    )
    a = appeals.with_row_index("__o").join(known, on="ruling_id", how="left").sort("__o")
    unknown = Check(
        "ruling_id",
        pl.col("session_date").is_null(),
        pl.format(
            "appeal {} is about ruling {}, which no ruling log holds",
            quote("appeal_id"),
            quote("ruling_id"),
        ),
    )
    raw = pl.concat_str([pl.col(c).fill_null("") for c in appeal_raw], separator=",")
    a_ok, a_rej = apply_checks(a, [unknown], raw)
    a_ok = a_ok.rename({"__event": "event_id", "__session": "session"}).select(
        *APPEAL_COLUMNS, "session_date", "event_id", "session"
    )
    a_ok, a_dup = _first_of(a_ok, "appeal_id", "appeal", appeal_raw)
    return dated, a_ok, pl.concat([rejected, dup, a_rej, a_dup])


def log_holds(
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    dated_rulings: pl.DataFrame,
    rejected: pl.DataFrame,
) -> pl.DataFrame:
    """The event sessions a ruling or appeal rejected while reading belongs to (a second
    ruling or appeal with an id already used, a ruling that cannot be dated): the director's
    decision is not applied, so the event's standings are held
    (:data:`~pipelines.scoring.events.EVENT_HOLD_COLUMNS`). A ruling names its event and
    session; an appeal takes those of the ruling it is about. One placed in no event (an
    appeal about an unknown ruling) holds nothing: it is rejected, and no standings are about
    it."""
    keys = pl.concat(
        [
            rulings.select("file", "location", "event_id", "session"),
            appeals.select("file", "location", "ruling_id")
            .join(
                dated_rulings.select("ruling_id", "event_id", "session").unique(
                    "ruling_id", keep="first", maintain_order=True
                ),
                on="ruling_id",
                how="inner",
            )
            .select("file", "location", "event_id", "session"),
        ]
    ).filter(pl.col("event_id").is_not_null())
    hit = rejected.join(keys, on=["file", "location"], how="inner")
    return hit.select(
        "event_id",
        pl.when(pl.col("session").fill_null("").str.contains(r"^\d+$"))
        .then(pl.col("session").cast(pl.Int64, strict=False).cast(pl.Utf8))
        .otherwise(None)
        .alias("session"),
        "file",
        "location",
        "field",
        pl.format("ruling or appeal not applied: {}", "reason").alias("reason"),
    ).unique(maintain_order=True)


def _first_of(
    df: pl.DataFrame, key: str, what: str, raw_columns: tuple[str, ...]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Keep the first row of each ``key`` value; reject the others naming the first."""
    df = df.with_row_index("__o")
    first = df.group_by(key).agg(pl.col("__o").min().alias("__first"))
    df = df.join(first, on=key, how="left").sort("__o")
    dup = df.filter(pl.col("__o") != pl.col("__first"))
    where = df.select(
        pl.col("__o").alias("__first"), pl.format("{}:{}", "file", "location").alias("__w")
    )
    raw = pl.concat_str([pl.col(c).fill_null("") for c in raw_columns], separator=",")
    rejected = dup.join(where, on="__first", how="left").select(
        "file",
        "location",
        pl.lit(key).alias("field"),
        pl.format(f"{what} id {{}} is already used at {{}}", pl.col(key), "__w").alias("reason"),
        raw.alias("raw"),
    )
    kept = df.filter(pl.col("__o") == pl.col("__first")).drop("__o", "__first")
    return kept, rejected


#: How a file in the inbox is named in an ``events.csv`` key (a name with one of these endings).
FILE_KEY = r"(?i)\.(xml|pbn|bws|csv|jsonl)$"


def keyed_by_file(
    events: pl.DataFrame, result_events: pl.Series | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``events.csv`` rows keyed by a file's own identifiers instead of Traveller's event id.

    A scorer may write in ``event_id`` the file's name (``club-2026-11-02.xml``) or the
    program's own identifier of the event as the file carries it (``source_event_id``:
    Compscore's ``EVENT_IDENTIFIER``, a PBN ``ContestID``/``Event``, a .bws session GUID)
    to say which program / profile / Laws that file's events use: the row then applies to
    every event session the file defines (a row with a ``session`` only to that session; a
    ``session`` the file defines none of is rejected, naming those it defines).

    A key is read as a file's identifier only when it is not an event id already (of a
    file's event or of a result row, ``result_events``). A key that names no event at all,
    or a program identifier that two files' events share (two clubs both numbering their
    events 1), is rejected with the list of the events known: never a silent new event."""
    empty = pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    if events.height == 0:
        return events, empty
    from_files = events.filter(pl.col("priority") == 1)
    ids = set(from_files["event_id"].drop_nulls().to_list())
    if result_events is not None:
        ids |= set(result_events.drop_nulls().unique().to_list())
    own = pl.col("event_id").is_in(sorted(ids))
    csv_rows = (pl.col("priority") == 0) & pl.col("event_id").is_not_null()
    keys = pl.concat(
        [
            from_files.select(
                pl.col("file").alias("__key"), pl.col("event_id").alias("__event"), "session"
            ),
            from_files.filter(pl.col("source_event_id").is_not_null()).select(
                pl.col("source_event_id").alias("__key"),
                pl.col("event_id").alias("__event"),
                "session",
            ),
        ]
    ).unique(maintain_order=True)
    asked = events.filter(csv_rows & ~own)
    if asked.height == 0:
        return events, empty
    shared = (
        keys.filter(~pl.col("__key").str.contains(FILE_KEY))
        .group_by("__key")
        .agg(pl.col("__event").unique().sort().str.join(", ").alias("__events"), pl.len())
        .filter(pl.col("__events").str.contains(", "))
        .select("__key", "__events")
    )
    hit = (
        asked.join(shared, left_on="event_id", right_on="__key", how="anti")
        .join(keys.rename({"session": "__session"}), left_on="event_id", right_on="__key")
        .filter(pl.col("session").is_null() | (pl.col("session") == pl.col("__session")))
    )
    mapped = hit.with_columns(
        pl.col("__event").alias("event_id"), pl.col("__session").alias("session")
    ).drop("__event", "__session")
    known = ", ".join(sorted(ids)) or "none"
    missing = asked.join(keys, left_on="event_id", right_on="__key", how="anti")
    ambiguous = asked.join(shared, left_on="event_id", right_on="__key", how="inner")
    # a key the files know, with a session none of its events has: the row would apply to
    # nothing (and its row would be lost to the accounting), so it is rejected, naming them
    defined = keys.group_by("__key").agg(
        pl.col("session")
        .cast(pl.Utf8)
        .drop_nulls()
        .unique()
        .sort()
        .str.join(", ")
        .alias("__sessions")
    )
    no_session = (
        asked.join(shared, left_on="event_id", right_on="__key", how="anti")
        .join(defined, left_on="event_id", right_on="__key", how="inner")
        .join(hit.select("file", "location").unique(), on=["file", "location"], how="anti")
        .filter(pl.col("session").is_not_null())
    )
    reason_missing = pl.concat_str(
        pl.lit("no file in the inbox is named "),
        pl.col("event_id"),
        pl.lit(" or defines an event with that identifier, and no result names it: "),
        pl.lit("correct the event id (known events: " + known + ")"),
    )
    reason_shared = pl.concat_str(
        pl.col("event_id"),
        pl.lit(" is the program's identifier of several events ("),
        pl.col("__events"),
        pl.lit("): name the event by its event id or its file instead"),
    )
    reason_session = pl.concat_str(
        pl.col("event_id"),
        pl.lit(" defines session "),
        pl.col("__sessions"),
        pl.lit(", not session "),
        pl.col("session").cast(pl.Utf8),
        pl.lit(": correct the session, or leave it empty for every session the file defines"),
    )
    rejected = pl.concat(
        [
            frame.select(
                "file",
                "location",
                pl.lit(field).alias("field"),
                reason.alias("reason"),
                pl.col(field).alias("raw"),
            )
            for frame, field, reason in (
                (missing, "event_id", reason_missing),
                (ambiguous, "event_id", reason_shared),
                (no_session, "session", reason_session),
            )
        ]
    )
    return pl.concat([events.filter(~(csv_rows & ~own)), mapped.select(events.columns)]), rejected


#: What a reader gives of one file, by frame: the name of the :class:`Reads` field and of the
#: :class:`~pipelines.formats.model.ReadResult` attribute, and the frame's columns.
FRAMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("results", RESULT_COLUMNS),
    ("events", EVENT_COLUMNS),
    ("contestants", CONTESTANT_COLUMNS),
    ("source_standings", SOURCE_STANDING_COLUMNS),
    ("deals", DEAL_COLUMNS),
    ("rejected", REJECT_COLUMNS),
    ("warnings", WARNING_COLUMNS),
    ("rulings", RULING_COLUMNS),
    ("appeals", APPEAL_COLUMNS),
)

#: Columns of :attr:`Reads.files`: each file as its reader read it.
READ_FILE_SCHEMA: dict[str, pl.DataType] = {
    "file": pl.Utf8,
    "sha256": pl.Utf8,
    "size": pl.Int64,
    "format": pl.Utf8,
    "rows_read": pl.Int64,
    "whole_file_rejected": pl.Boolean,
    "unknown_columns": pl.List(pl.Utf8),
    "dates_written": pl.List(pl.Utf8),
}


@dataclass
class Reads:
    """Every inbox file as its reader read it, before anything is resolved across files:
    ``files`` (:data:`READ_FILE_SCHEMA`, in the inbox's order) and each frame of
    :data:`FRAMES`, the files' frames one after the other in that order. Reading a file
    depends on the file alone, so the read cache (:mod:`pipelines.read_cache`) keeps these
    and a run reads only new or changed files."""

    files: pl.DataFrame
    results: pl.DataFrame
    events: pl.DataFrame
    contestants: pl.DataFrame
    source_standings: pl.DataFrame
    deals: pl.DataFrame
    rejected: pl.DataFrame
    warnings: pl.DataFrame
    rulings: pl.DataFrame
    appeals: pl.DataFrame
    #: ``None`` when ``results`` holds every column of every row (:data:`RESULT_COLUMNS` and
    #: :data:`ROW_HASH`). Else ``results`` holds only what dating and fingerprinting read
    #: (:data:`LEAN_RESULT_COLUMNS`: the read cache's, :func:`pipelines.read_cache.load`) and
    #: this gives the whole rows of the ``file, ordinal`` asked for, in that order (the rows
    #: a rejection quotes).
    results_of: Callable[[pl.DataFrame], pl.DataFrame] | None = None


#: The columns of a result row dating, the registry's accounting and the dates'
#: fingerprints read (:func:`assemble`): a run keeps these of every cached row in memory,
#: not the whole rows.
LEAN_RESULT_COLUMNS: tuple[str, ...] = (
    "file",
    "ordinal",
    "location",
    "event_id",
    "session",
    "session_date",
    ROW_HASH,
)


def reads_of(read: list[tuple[Path, ReadResult]]) -> Reads:
    """:class:`Reads` of the files just read (``(path, what its reader gave)``, in order)."""
    files = pl.DataFrame(
        [
            {
                "file": r.file,
                "sha256": sha256(path),
                "size": path.lstat().st_size,
                "format": r.format,
                "rows_read": r.rows_read,
                "whole_file_rejected": bool((r.rejected["location"] == "file").any()),
                "unknown_columns": list(r.unknown_columns),
                "dates_written": list(r.dates_written),
            }
            for path, r in read
        ],
        schema=READ_FILE_SCHEMA,
    )
    frames = {
        name: _concat([f for _, r in read if (f := getattr(r, name)) is not None], columns)
        for name, columns in FRAMES
    }
    frames["results"] = with_row_hash(frames["results"])
    return Reads(files=files, **frames)


def sessions_without_results(
    resolved: pl.DataFrame, dated: pl.DataFrame, today: date
) -> pl.DataFrame:
    """Warnings (:data:`~pipelines.formats.model.WARNING_COLUMNS`): each event session the
    events state (``resolved``), dated ``today`` or before, that no result row (``dated``)
    names — a results file not sent, or a session number mistyped. Nothing is rejected:
    the event is ranked on the sessions it has, and its standings stay provisional until
    that session's results come (:func:`pipelines.scoring.versions.event_versions`); a
    session dated after ``today`` is still to be played."""
    played = dated.select("event_id", pl.col("session").cast(pl.Utf8)).unique()
    waiting = (
        resolved.filter(
            pl.col("date").is_not_null()
            & (pl.col("date").cast(pl.Utf8).str.slice(0, 10) <= today.isoformat())
        )
        .with_columns(pl.col("session").cast(pl.Utf8))
        .join(played, on=["event_id", "session"], how="anti")
    )
    return waiting.select(
        pl.col("file").cast(pl.Utf8),
        pl.col("location").cast(pl.Utf8),
        pl.lit("session").alias("field"),
        pl.format(
            "session {} of event {} ({}) is stated, but no result row of the inbox names it: "
            "the event is ranked on its other sessions and stays provisional until these "
            "results are sent (or the row is corrected)",
            "session",
            "event_id",
            pl.col("date").cast(pl.Utf8).str.slice(0, 10),
        ).alias("reason"),
        pl.col("session").alias("raw"),
    )


def scan(inbox: Path, today: date | None = None, profile: str | None = None) -> InboxSnapshot:
    """Read the whole inbox; see the module docstring. ``profile`` (default
    ``$TRAVELLER_PROFILE``, set by ``traveller run --profile``) is the profile of events
    that neither ``events.csv`` nor their file names."""
    return assemble(reads_of(read_all(inbox)), today, profile)


def assemble(reads: Reads, today: date | None = None, profile: str | None = None) -> InboxSnapshot:
    """The inbox snapshot from what the files hold (:class:`Reads`): each event session
    resolved across files (events.csv > a file's own header > defaults), every result, ruling
    and appeal dated, contestants checked, the registry with its row accounting — one
    vectorised pass over every file's rows (:func:`scan` with the files read)."""
    today = today or settings.today()
    profile = profile or os.environ.get("TRAVELLER_PROFILE") or None
    files = reads.files
    unknown = {
        f: tuple(cols) for f, cols in files.select("file", "unknown_columns").iter_rows() if cols
    }
    written: dict[str, list[str | None]] = {
        f: list(ds) for f, ds in files.select("file", "dates_written").iter_rows() if ds
    }
    prio = files.select(
        "file",
        pl.when(pl.col("format") == "events_csv").then(0).otherwise(1).alias("priority"),
    )
    ev_frame = reads.events.select(EVENT_COLUMNS).join(
        prio, on="file", how="left", maintain_order="left"
    )
    results_read = reads.results
    ev_frame, key_rejected = keyed_by_file(ev_frame, results_read["event_id"])
    ev_frame, slash_rejected, slash_held = read_event_dates(ev_frame, profile, written)
    held = pl.concat([event_holds(ev_frame, unknown), slash_held])
    resolved, ev_rejected = resolve_events(ev_frame)
    ev_rejected = pl.concat([key_rejected, slash_rejected, ev_rejected])
    resolved = with_defaults(resolved, profile)
    listed = reads.contestants
    cont, cont_rejected = validate_contestants(listed)
    source_standings = reads.source_standings
    if reads.results_of is None:
        if ROW_HASH not in results_read.columns:
            results_read = with_row_hash(results_read)
        dated, date_rejected = date_results(
            results_read, resolved, today, columns=(*RESULT_COLUMNS, ROW_HASH)
        )
    else:
        # dated on the columns that date them; the rows rejected are read whole and dated
        # again for their rejections, which quote them (the checks read only those columns)
        dated, _ = date_results(
            results_read, resolved, today, columns=LEAN_RESULT_COLUMNS, raw_columns=("file",)
        )
        # a row is dated at most once while no event session is resolved twice: then as
        # many rows dated as read means none refused (no season's rows compared)
        once = not resolved.select("event_id", "session").is_duplicated().any()
        if once and dated.height == results_read.height:
            refused = results_read.select("file", "ordinal").clear()
        else:
            refused = results_read.select("file", "ordinal").join(
                dated.select("file", "ordinal"), on=["file", "ordinal"], how="anti",
                maintain_order="left",
            )  # fmt: skip
        whole = reads.results_of(refused) if refused.height else empty_frame(RESULT_COLUMNS)
        _, date_rejected = date_results(whole.select(RESULT_COLUMNS), resolved, today)
    hashes = result_hashes(dated)
    dated = dated.drop(ROW_HASH, "ordinal", strict=False)
    all_rulings, all_appeals = reads.rulings, reads.appeals
    dated_rulings, dated_appeals, log_rejected = date_logs(
        all_rulings, all_appeals, resolved, today, dated
    )
    held = pl.concat([held, log_holds(all_rulings, all_appeals, dated_rulings, log_rejected)])
    all_rejected = pl.concat(
        [reads.rejected, ev_rejected, cont_rejected, date_rejected, log_rejected]
    )
    every_dated = pl.concat(
        [f.select("file", "session_date") for f in (dated, dated_rulings, dated_appeals)]
    )
    kept_deals, deal_warnings = checked_deals(reads.deals)
    all_warnings = pl.concat(
        [reads.warnings, deal_warnings, sessions_without_results(resolved, dated, today)]
    )
    return InboxSnapshot(
        files=_registry(
            files,
            ev_frame,
            listed,
            source_standings,
            every_dated,
            all_rejected,
            all_warnings,
            # a hand-record CSV's rows are reference rows (the deals of other files are not
            # rows of their own: a PBN record or a USEBIO board counts as its results do)
            reads.deals.join(
                files.filter(pl.col("format") == "hands_csv").select("file"), on="file", how="semi"
            ),
        ),
        results=dated,
        events=resolved.select(list(EVENTS_SCHEMA)),
        contestants=cont,
        source_standings=source_standings,
        rejected=all_rejected,
        warnings=all_warnings,
        rulings=dated_rulings,
        appeals=dated_appeals,
        deals=kept_deals,
        event_holds=held,
        hashes=hashes,
    )


def _registry(
    files: pl.DataFrame,
    events: pl.DataFrame,
    contestants: pl.DataFrame,
    source_standings: pl.DataFrame,
    dated: pl.DataFrame,
    rejected: pl.DataFrame,
    warnings: pl.DataFrame,
    hands: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """One row per file: what it held and how every row was accounted for.

    ``rows_read = rows_reference + rows_dated + rows_rejected + rows_superseded`` must hold
    for every file not rejected whole: reference rows (events, contestants, official
    standings, the deals of a hand-record CSV; a location shared by two of them counts
    once) that were accepted, table
    results, rulings and appeals that were dated, distinct rejected locations, and
    entries a later entry superseded (a Bridgemate table's history, reported as warnings).
    """
    base = files.select(
        pl.col(k).cast(FILES_SCHEMA[k])
        for k in ("file", "sha256", "size", "format", "rows_read", "whole_file_rejected")
    )
    bad = rejected.select("file", "location").unique()
    ref = (
        pl.concat(
            [
                f.select("file", "location")
                for f in (events, contestants, source_standings, hands)
                if f is not None
            ]
        )
        .unique()
        .join(bad, on=["file", "location"], how="anti")
        .group_by("file")
        .agg(pl.len().alias("rows_reference"))
    )
    dates = dated.group_by("file").agg(
        pl.len().alias("rows_dated"), pl.col("session_date").unique().sort().alias("dates")
    )
    rej = bad.group_by("file").agg(pl.len().alias("rows_rejected"))
    sup = (
        warnings.filter(pl.col("field") == "superseded")
        .select("file", "location")
        .unique()
        .group_by("file")
        .agg(pl.len().alias("rows_superseded"))
    )
    return (
        base.join(ref, on="file", how="left")
        .join(dates, on="file", how="left")
        .join(rej, on="file", how="left")
        .join(sup, on="file", how="left")
        .with_columns(
            *(
                pl.col(c).fill_null(0).cast(pl.Int64)
                for c in ("rows_reference", "rows_dated", "rows_rejected", "rows_superseded")
            ),
            pl.col("dates").fill_null([]),
        )
        .select(list(FILES_SCHEMA))
    )
