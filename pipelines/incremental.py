"""Incremental runs: what a run must recompute, and why (no Dagster here).

A nightly run should cost what is new, not what is old. Three fingerprints decide it:

* the **code fingerprint** (:func:`code_fingerprint`): every file of the engine (``pipelines/``:
  rules, profiles, templates) and of ``sql/``, with the Polars version (its row hashes are
  stable within a version only). A new release or an edited profile changes it, and then
  every date is recomputed;
* the **inbox fingerprint** (:func:`inbox_fingerprint`): the code fingerprint, the run's
  options (the default profile) and the name and SHA-256 of every inbox file — computed
  without parsing a file. The day of reading matters only where a row was rejected for being
  dated after tomorrow: the ingest records the earliest such date (:func:`read_fingerprint`),
  and the same files read again before its eve give the same rows (:func:`still_read_alike`),
  so a quiet night costs a hash of the files;
* a **date fingerprint** per session date (:func:`date_inputs`), from the rows that date is
  computed from, not from whole files: its results, its rulings and appeals, the lines of its
  results files that could not be read as rows, and the rows of ``events.csv``, of the
  contestants' lists, of the event holds and of the official figures (a club program's) of
  every event with a session that day. Appending one event to ``events.csv`` changes that
  event's dates only.

The ingest stage writes the inbox fingerprint (``pipeline_state``, step ``inbox``) and the
date fingerprints (``date_inputs``). When a date has been computed, ``dates_done`` keeps the
fingerprint it was computed from; the audit and the publication record the inbox fingerprint
they were computed from (steps ``audit`` and ``publish``). A run recomputes (:func:`plan`):

* a date that is **new**, or whose **inputs changed** (files, rows, code or profiles);
* a date **withdrawn** (done before, no longer in the inbox): its rows, standings and pages
  are removed;
* a date whose standings still **await the end of a period** (provisional: Law 79C's
  correction period, Law 92B's appeal period, a pending appeal): time alone may make them
  final. Sessions a club file's differences keep provisional (``reconciliation.
  on_difference``) do not count: only a corrected file changes them;
* every date of an event that **left** a recomputed date (an ``events.csv`` row moved to
  another day): that event's totals are recomputed where it still is.

Nothing is due and the publication is of the same inbox: the run reads no file and writes
nothing (:func:`up_to_date`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

#: Why a date is recomputed, in the words the run prints.
NEW = "new"
CHANGED = "inputs changed"
CODE = "code or profiles changed"
WITHDRAWN = "withdrawn"
AWAITING = "awaiting the end of a correction or appeal period"
EVENT = "an event moved to another date"
FORCED = "--all"

_ROOTS = ("pipelines", "sql")
_SUFFIXES = {".py", ".sql", ".toml", ".j2", ".html", ".css", ".js", ".json"}


@cache
def code_fingerprint() -> str:
    """SHA-256 over the engine's files (``pipelines/`` and ``sql/``: code, profiles,
    templates) and the Polars version."""
    base = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"polars {pl.__version__}\n".encode())
    for root in _ROOTS:
        folder = base / root
        if not folder.is_dir():
            continue
        for p in sorted(folder.rglob("*")):
            if p.is_file() and p.suffix in _SUFFIXES and "__pycache__" not in p.parts:
                h.update(p.relative_to(base).as_posix().encode() + b"\0")
                h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def inbox_fingerprint(
    files: Iterable[tuple[str, str]], profile: str | None, today: date | None
) -> str:
    """SHA-256 of the code, the run's options and every ``(file, sha256)`` of the inbox.

    ``today`` is part of what the inbox is read with (a result dated after tomorrow is
    rejected); ``None`` gives the fingerprint of the inbox's content alone, which the audit
    and the publication depend on (:func:`results_fingerprint`)."""
    day = today.isoformat() if today else ""
    h = hashlib.sha256(f"{code_fingerprint()}\n{profile or ''}\n{day}\n".encode())
    for name, digest in sorted(files):
        h.update(f"{name}\0{digest}\n".encode())
    return h.hexdigest()


def read_fingerprint(content: str, future_from: str | None) -> str:
    """What the ingest records of the inbox it read (``pipeline_state``, step ``inbox``): its
    content fingerprint and, when it rejected a row dated after tomorrow, the earliest such
    date. Reading the same files on a later day gives the same rows until the eve of that
    date (:func:`still_read_alike`)."""
    return f"{content}@{future_from}" if future_from else content


def still_read_alike(recorded: str | None, content: str, today: date) -> bool:
    """Whether reading the inbox of ``content`` on ``today`` gives what was recorded
    (:func:`read_fingerprint`): the same files, and no row rejected as future that
    ``today`` would accept (a date is accepted up to tomorrow)."""
    if not recorded:
        return False
    fp, _, future_from = recorded.partition("@")
    if fp != content:
        return False
    return not future_from or (today + timedelta(days=1)).isoformat() < future_from


def outputs_hash(frames: dict[str, pl.DataFrame]) -> str:
    """SHA-256 of what a date wrote (its standings, changes, matches, holds: table name ->
    frame), whatever the order of the rows or the way a frame was built: each frame as its
    table stores it (the registry's columns and types), its row hashes sorted."""
    from pipelines.tables import polars_schema

    h = hashlib.sha256()
    for name, frame in sorted(frames.items()):
        schema = polars_schema(name)
        h.update(f"{name}:{frame.height}\n".encode())
        if frame.height:
            stored = frame.select(
                (pl.col(c) if c in frame.columns else pl.lit(None)).cast(t).alias(c)
                for c, t in sorted(schema.items())
            )
            h.update(stored.hash_rows(seed=0).sort().to_numpy().tobytes())
    return h.hexdigest()


def results_fingerprint(content: str, done: Iterable[tuple[str, str, str | None]]) -> str:
    """What the audit and the publication are computed from: the inbox's content (``content``,
    :func:`inbox_fingerprint` without a date) and, per session date computed, its inputs'
    fingerprint and its outputs' hash (``dates_done``). A date recomputed with the same
    outcome (time passed, nothing became final) leaves it unchanged: the audit and the site
    are then not redone; a date made final, corrected or withdrawn changes it."""
    h = hashlib.sha256(f"{content}\n".encode())
    for day, fp, out in sorted(done):
        h.update(f"{day}\0{fp}\0{out or ''}\n".encode())
    return h.hexdigest()


def inbox_hashes(inbox: Path) -> list[tuple[str, str]]:
    """``(file, sha256)`` of every inbox file, without reading one as a format."""
    from pipelines.inbox import inbox_files, inbox_names, sha256

    paths = inbox_files(inbox)
    return list(zip(inbox_names(inbox, paths), [sha256(p) for p in paths], strict=True))


def _row_hashes(frame: pl.DataFrame, tag: str, by_date: pl.DataFrame | None) -> pl.DataFrame:
    """``(session_date, tag, h)``: one hash per row, dated by its own ``session_date`` or,
    for rows of an event (``by_date``: ``session_date, event_id``), by every date of it."""
    if frame.height == 0:
        return pl.DataFrame(schema={"session_date": pl.Utf8, "tag": pl.Utf8, "h": pl.UInt64})
    rows = frame.select(sorted(frame.columns))
    hashed = rows.with_columns(rows.hash_rows(seed=0).alias("__h"))
    if by_date is not None:
        hashed = hashed.join(by_date, on="event_id", how="inner")
    return hashed.select(
        pl.col("session_date").cast(pl.Utf8), pl.lit(tag).alias("tag"), pl.col("__h").alias("h")
    )


def date_inputs(snap) -> pl.DataFrame:
    """``session_date, fingerprint, results``: one row per session date of the inbox snapshot
    (:class:`pipelines.inbox.InboxSnapshot`), its fingerprint over the rows it is computed
    from and the code (see the module docstring), and how many table results it has."""
    results = snap.results.filter(pl.col("session_date").is_not_null())
    event_dates = _event_dates(snap)
    # the dates of the inbox: those of its results, rulings and appeals (read/dates)
    days = (
        pl.concat(
            [
                f.select(pl.col("session_date").cast(pl.Utf8))
                for f in (results, snap.rulings, snap.appeals)
            ]
        )
        .drop_nulls()
        .unique()
    )
    event_dates = event_dates.join(days, on="session_date", how="semi")
    parts = [
        # a result row as its row hash taken when it was read, beside its date
        _row_hashes(
            snap.result_hashes()
            .filter(pl.col("session_date").is_not_null())
            .select("session_date", "row_hash"),
            "results",
            None,
        ),
        _row_hashes(snap.rulings, "rulings", None),
        _row_hashes(snap.appeals, "appeals", None),
        _row_hashes(snap.events, "events", event_dates),
        _row_hashes(snap.contestants, "contestants", event_dates),
        _row_hashes(snap.event_holds, "holds", event_dates),
        # the official figures of the event's files (the exporting program's): the
        # reconciliation, the status it gives (reconciliation.on_difference) and the line of
        # the ranking page follow them
        _row_hashes(snap.source_standings, "official", event_dates),
        # a line of a results file that could not be read as a row holds every event the
        # file gives results to on its dates (sql/read/holds_for_dates.sql, unread_rows):
        # the dates of the file's results are computed from it too
        _row_hashes(_unread_rows(snap, results), "unread", None),
    ]
    every = pl.concat(parts).filter(
        pl.col("session_date").is_in(event_dates["session_date"].implode())
    )
    # order-free: each date's row hashes sorted by tag and hash, then digested once per
    # date, a tag at a time (its name and count, then its hashes as big-endian bytes): no
    # Python per row. Each (date, tag)'s hashes are sorted apart, in parallel, and the
    # groups put in order after: a sort of every row by its three keys costs five times more.
    runs = (
        every.group_by("session_date", "tag")
        .agg(pl.col("h").sort())
        .sort("session_date", "tag")
        .with_columns(pl.col("h").list.len().alias("n"))
    )
    hashes = runs["h"].explode().to_numpy().astype(">u8")
    code = code_fingerprint().encode()
    digests: dict[str, Any] = {}
    start = 0
    for day, tag, n in runs.select("session_date", "tag", "n").iter_rows():
        if day not in digests:
            digests[day] = hashlib.sha256(code)
        digests[day].update(f"{tag}:{n}\n".encode())
        digests[day].update(hashes[start : start + n].tobytes())
        start += n
    prints = [(day, d.hexdigest()) for day, d in digests.items()]
    sizes = results.group_by(pl.col("session_date").cast(pl.Utf8)).agg(
        pl.len().cast(pl.Int64).alias("results")
    )
    return (
        pl.DataFrame(prints, schema={"session_date": pl.Utf8, "fingerprint": pl.Utf8}, orient="row")
        .join(sizes, on="session_date", how="left")
        .with_columns(pl.col("results").fill_null(0))
        .sort("session_date")
    )


def _unread_rows(snap, results: pl.DataFrame) -> pl.DataFrame:
    """The lines of results files that could not be read as rows (rejected while reading,
    field ``row``), each beside every session date the file gives results to."""
    unread = snap.rejected.filter((pl.col("field") == "row") & (pl.col("location") != "file"))
    if unread.height == 0:
        return pl.DataFrame()
    file_dates = results.select("file", pl.col("session_date").cast(pl.Utf8)).unique()
    return unread.select("file", "location", "field", "reason").join(
        file_dates, on="file", how="inner"
    )


def _event_dates(snap) -> pl.DataFrame:
    return snap.event_dates()


def date_events(snap) -> pl.DataFrame:
    """``session_date, event_id``: the events with a session on each date of the snapshot."""
    return _event_dates(snap).sort("session_date", "event_id")


def watch_state(inbox: Path, snap=None) -> dict[str, str]:
    """For the inbox sensor: ``{session date: fingerprint of its inputs}``
    (:func:`pipelines.incremental.date_inputs`): the rows a date is computed from, not whole
    files, so appending one event to ``events.csv`` touches that event's dates only."""
    from pipelines.inbox import scan

    snap = snap or scan(inbox)
    return dict(date_inputs(snap).select("session_date", "fingerprint").iter_rows())


def changed_dates(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """Session dates whose inputs differ between two watch states: new, changed, or gone
    from the inbox (withdrawn)."""
    return sorted(d for d in set(old) | set(new) if old.get(d) != new.get(d))


@dataclass
class Plan:
    """The dates a run recomputes, each with its reasons, and what changed in the inbox."""

    reasons: dict[str, list[str]] = field(default_factory=dict)
    files_added: int = 0
    files_changed: int = 0
    files_removed: int = 0
    #: due dates that lose an event (withdrawn, or an event's session moved away): done first
    first: list[str] = field(default_factory=list)
    #: events with a session on a due date (their standings are ranked again)
    events: int = 0

    @property
    def dates(self) -> list[str]:
        """The dates to recompute, in the order to recompute them: first those that lose an
        event (their old sessions leave the event's totals), then the others by date, so that
        the last date of an event recomputed ranks it on every session as it now is."""
        early = sorted(d for d in self.first if d in self.reasons)
        return early + sorted(d for d in self.reasons if d not in early)

    @property
    def withdrawn(self) -> list[str]:
        return [d for d in self.dates if WITHDRAWN in self.reasons[d]]

    def summary(self) -> str:
        """One line: ``3 new, 1 changed file(s) → 2 date(s), 11 event(s) to recompute (inputs
        changed 1, new 1)``."""
        files = [
            f"{n} {what}"
            for n, what in (
                (self.files_added, "new"),
                (self.files_changed, "changed"),
                (self.files_removed, "removed"),
            )
            if n
        ]
        head = f"{', '.join(files)} file(s)" if files else "no file added, changed or removed"
        if not self.reasons:
            return f"{head} → nothing to recompute"
        counts: dict[str, int] = {}
        for rs in self.reasons.values():
            for r in rs:
                counts[r] = counts.get(r, 0) + 1
        why = ", ".join(f"{r} {n}" for r, n in sorted(counts.items()))
        events = f", {self.events} event(s)" if self.events else ""
        return f"{head} → {len(self.reasons)} date(s){events} to recompute ({why})"


#: The most days a range of dates jumps between two of its dates: a run of a range records a
#: materialisation of every day of it in Dagster's event log, played or not, so a range never
#: spans a long stretch nobody played (a club's yearly congress, real files years apart).
MAX_GAP_DAYS = 7


def _days_between(a: str, b: str) -> int:
    return (date.fromisoformat(b) - date.fromisoformat(a)).days


def ranges(
    due: Iterable[str],
    known: Iterable[str],
    first: Iterable[str] = (),
    sizes: dict[str, int] | None = None,
    budget: int | None = None,
) -> list[tuple[str, str]]:
    """The due dates as ranges of dates, each computed in one pass (``(first, last)``, both
    included): the longest runs of due dates in which no *known* date (one with inputs, or
    computed before) is not due — a range never recomputes a date that is not due, whereas
    the days between two dates that nobody played cost nothing. With ``sizes`` (table
    results per date) and a ``budget``, a range is also cut before the date that would take
    it past ``budget`` results (a range of one date may exceed it): a first load of years
    of history is a few passes whose memory is bounded, not one that holds everything; and
    before a date more than :data:`MAX_GAP_DAYS` days after the range's last. The ranges
    holding a date that loses an event (``first``) come first, then the others by
    date (see :attr:`Plan.dates`).

    >>> ranges(["2026-01-05", "2026-01-06", "2026-03-02"], ["2026-02-02"])
    [('2026-01-05', '2026-01-06'), ('2026-03-02', '2026-03-02')]
    >>> ranges(["2026-01-05", "2026-01-12", "2026-03-02"], [])
    [('2026-01-05', '2026-01-12'), ('2026-03-02', '2026-03-02')]
    >>> ranges(["2026-01-05", "2026-03-02"], ["2026-01-20"], first=["2026-03-02"])
    [('2026-03-02', '2026-03-02'), ('2026-01-05', '2026-01-05')]
    >>> days = ["2026-01-05", "2026-01-06", "2026-01-07"]
    >>> ranges(days, [], sizes=dict.fromkeys(days, 600), budget=1300)
    [('2026-01-05', '2026-01-06'), ('2026-01-07', '2026-01-07')]
    """
    due_set = set(due)
    out: list[list[str]] = []
    current: list[str] = []
    weight = 0
    for day in sorted(due_set | set(known)):
        if day in due_set:
            size = (sizes or {}).get(day, 0)
            if current and (
                (budget is not None and weight + size > budget)
                or _days_between(current[-1], day) > MAX_GAP_DAYS
            ):
                out.append(current)
                current, weight = [], 0
            current.append(day)
            weight += size
        elif current:
            out.append(current)
            current, weight = [], 0
    if current:
        out.append(current)
    early = set(first)
    out.sort(key=lambda r: (not early.intersection(r), r[0]))
    return [(r[0], r[-1]) for r in out]


def file_changes(old: pl.DataFrame, new: pl.DataFrame) -> tuple[int, int, int]:
    """``(added, changed, removed)`` between two registries (``file, sha256``)."""
    before = dict(old.select("file", "sha256").iter_rows()) if old.height else {}
    after = dict(new.select("file", "sha256").iter_rows()) if new.height else {}
    added = sum(1 for f in after if f not in before)
    changed = sum(1 for f in after if f in before and before[f] != after[f])
    removed = sum(1 for f in before if f not in after)
    return added, changed, removed


def plan(
    inputs: pl.DataFrame, done: pl.DataFrame, awaiting: Iterable[str], force: bool = False
) -> Plan:
    """The dates due (see the module docstring): ``inputs`` (``date_inputs``: session_date,
    fingerprint), ``done`` (``dates_done``), ``awaiting`` (dates with provisional standings).
    ``force``: every date. The dates of events that left a due date are added by
    :func:`pipelines.stages.due_dates`, which reads them from the warehouse."""
    now = dict(inputs.select("session_date", "fingerprint").iter_rows())
    was = dict(done.select("session_date", "fingerprint").iter_rows()) if done.height else {}
    reasons: dict[str, list[str]] = {}

    def due(day: str, why: str) -> None:
        reasons.setdefault(day, [])
        if why not in reasons[day]:
            reasons[day].append(why)

    for day, fp in now.items():
        if force:
            due(day, FORCED)
        elif day not in was:
            due(day, NEW)
        elif was[day] != fp:
            due(day, CHANGED)
    for day in was:
        if day not in now:
            due(day, WITHDRAWN)
    for day in awaiting:
        if day in now:
            due(day, AWAITING)
    return Plan(reasons)


def up_to_date(inbox: Path, warehouse: Path, profile: str | None, today: date) -> str | None:
    """Whether the warehouse and the publication already reflect this inbox: a sentence
    saying so, or ``None`` when a run has work to do. Reads every file's bytes (SHA-256) and
    the warehouse read-only; parses nothing, writes nothing.

    Up to date means: the audit and the last publication were of the same inbox fingerprint,
    every date of the inbox was computed from its current inputs, and no provisional
    standings have passed the end of their correction and appeal periods since
    (:func:`pipelines.settings.now`; standings waiting for a pending appeal wait for an
    input, not for the clock)."""
    if not warehouse.is_file():
        return None
    from pipelines.file_digests import remember, store_of

    remember(store_of(warehouse))  # a file unchanged since the last run is not hashed again
    hashes = inbox_hashes(inbox)
    try:
        conn = duckdb.connect(str(warehouse), read_only=True)
    except duckdb.Error:
        return None
    try:
        from pipelines.settings import now
        from pipelines.warehouse import sql

        state = dict(conn.execute(sql("read/pipeline_state")).fetchall())
        content = inbox_fingerprint(hashes, profile, None)
        if not still_read_alike(state.get("inbox"), content, today):
            return None
        done = conn.execute(sql("read/results_state")).fetchall()
        results = results_fingerprint(content, done)
        if not (state.get("audit") == state.get("publish") == results):
            return None
        pending = conn.execute(sql("read/dates_not_done")).fetchone()
        if pending is None or pending[0]:
            return None
        awaiting = conn.execute(
            sql("read/dates_awaiting_final"), {"now": now().isoformat(" ")}
        ).fetchall()
        if awaiting:
            return None
    except duckdb.Error:  # an older warehouse without these tables
        return None
    finally:
        conn.close()
    return (
        f"nothing new: {len(hashes)} file(s) unchanged since the last run, every date computed "
        "from them, no provisional standings past their deadline; the warehouse and the site "
        "are untouched (traveller run --all recomputes everything)"
    )


def recorded_inbox(warehouse: Path) -> str | None:
    """The inbox folder a DuckDB warehouse was last filled from (``pipeline_state``, step
    ``inbox_path``, as an absolute path), or ``None`` (no warehouse yet, an older one, a
    PostgreSQL URL). A warehouse holds one inbox: a run naming another would withdraw the
    first inbox's events, or mix the bundled sample into a federation's results."""
    if "://" in str(warehouse) or not Path(warehouse).is_file():
        return None
    try:
        conn = duckdb.connect(str(warehouse), read_only=True)
    except duckdb.Error:
        return None
    try:
        row = conn.execute(
            "SELECT fingerprint FROM pipeline_state WHERE step = 'inbox_path'"
        ).fetchone()
    except duckdb.Error:
        return None
    finally:
        conn.close()
    return row[0] if row else None
