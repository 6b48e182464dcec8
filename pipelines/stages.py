"""What each stage of the nightly run does to the warehouse (no Dagster here).

Each function reads its inputs from the warehouse (or the inbox), calls the
engine, writes its slice in one transaction and returns a small summary that
the Dagster assets report as metadata. :func:`check` runs one of the checks declared in
:mod:`pipelines.check_specs` and returns ``(passed, rows)`` where ``rows`` are the
offending rows (empty when all is well).

Stage             writes                                          slice
----------------  ----------------------------------------------  ---------------------------
ingest            read_files, read_* (the read cache: the files   read cache: the new or changed
                  new or changed), source_files, events,          files; whole tables; rejected
                  contestants, source_standings,                  rows of stage 'read'; state of
                  rejected_inputs (read), input_warnings,         step 'inbox' (deal_analysis:
                  event_holds, deals, deal_analysis,              the deals not analysed yet,
                  date_inputs, date_events, pipeline_state        added)
build_raw         raw_results                                     the session dates of the run
build_ruling_log  raw_rulings, raw_appeals                        (one date, or a range of them
validate          validated_results, rejected_inputs (validate),  computed in one pass)
                  incomplete_sessions
rulings           rulings, appeals, rejected_inputs (rulings)     the dates
score             scored_results, adjustments                     the dates
standings         standings, standings_changes, holds,            the dates' sessions + the
                  dates_done                                      events with a session then
audit             penalty_stats, appeal_stats, director_audit,    whole tables (all dates)
                  ruling_discrepancies
reconcile         reconciliation, reconciliation_files            whole tables (all files)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from pathlib import Path

import polars as pl

from pipelines import check_specs, file_digests, incremental, progress, read_cache, settings
from pipelines import inbox as inbox_mod
from pipelines.deals import analyse_new as analyse_new_deals
from pipelines.laws.vocabulary import BOARD_CHANGING, PENALTY_KINDS
from pipelines.profiles import ProfileSet
from pipelines.scoring.completeness import shortfalls
from pipelines.scoring.day import validate_day, validate_logs
from pipelines.scoring.imp_standings import matches
from pipelines.scoring.score import BOARD
from pipelines.scoring.versions import (
    decisions,
    event_versions,
    penalties_frame,
    rulings_in_effect,
    score_newest,
    session_versions,
)
from pipelines.settings import now, range_results
from pipelines.split import parts_by
from pipelines.warehouse import Warehouse, Write, query, sql, write


@dataclass
class Summary:
    """What a stage did: rows written per table and a few key figures."""

    written: dict[str, int] = field(default_factory=dict)
    figures: dict[str, object] = field(default_factory=dict)


def ingest(inbox: Path, wh: Warehouse, today: date | None = None) -> Summary:
    """Scan the whole inbox; rewrite the registry, reference tables and read-stage rejections."""
    today = today or settings.today()
    # each file's digest is taken again only when its status changed since the last run
    digests = file_digests.store_of(wh.url or wh.path)
    file_digests.remember(digests)
    with wh.connect() as conn:
        # only new or changed files are read; the others' frames come from the read cache
        # (their result rows lean: the few rejected are read whole while the cache is open)
        reads, refreshed = read_cache.refresh(inbox, conn)
        snap = inbox_mod.assemble(reads, today)
        del reads
    file_digests.keep(digests, refreshed.paths)
    rejected = snap.rejected.with_columns(
        pl.lit("read").alias("stage"), pl.lit(None, pl.Utf8).alias("session_date")
    )
    hashes, profile = (
        snap.files.select("file", "sha256").rows(),
        os.environ.get("TRAVELLER_PROFILE"),
    )
    content = incremental.inbox_fingerprint(hashes, profile, None)
    # the day of reading matters only from the eve of the first date it rejected as future
    fingerprint = incremental.read_fingerprint(content, snap.future_from(today))
    inputs = incremental.date_inputs(snap)
    # the whole tables of the snapshot: a night that only added rows after theirs (a new
    # date's events, contestants appended to the list) writes those rows alone
    whole = partial(Write, keep_head=True)
    with wh.connect() as conn:
        written = write(
            conn,
            [
                whole("date_inputs", inputs),
                whole("date_events", incremental.date_events(snap)),
                Write("pipeline_state", _state("inbox", fingerprint), {"step": "inbox"}),
                Write("pipeline_state", _state("content", content), {"step": "content"}),
                Write(
                    "pipeline_state",
                    _state("inbox_path", str(Path(inbox).resolve())),
                    {"step": "inbox_path"},
                ),
                whole("source_files", snap.files),
                whole("events", snap.events),
                whole("contestants", snap.contestants),
                whole("source_standings", snap.source_standings),
                whole("deals", snap.deals),
                Write("rejected_inputs", rejected, {"stage": "read"}),
                whole("input_warnings", snap.warnings),
                whole("event_holds", snap.event_holds),
            ],
        )
        written["deal_analysis"] = analyse_new_deals(conn)
    return Summary(
        written,
        {
            "files": snap.files.height,
            "dates": snap.dates(),
            "rows_rejected": rejected.select("file", "location").unique().height,
            "warnings": snap.warnings.height,
            "files_read": len(refreshed.read),
            "files_forgotten": len(refreshed.forgotten),
            "files_unchanged": refreshed.kept,
        },
    )


def _state(step: str, fingerprint: str) -> pl.DataFrame:
    return pl.DataFrame({"step": [step], "fingerprint": [fingerprint]})


def plan(wh: Warehouse, force: bool = False, files_before: pl.DataFrame | None = None):
    """What this run recomputes after the inbox was read (:func:`due_dates` of the inputs it
    found); ``force``: every date. ``files_before``: the registry before this reading (for the
    counts of files added, changed and removed)."""
    with wh.connect() as conn:
        inputs = query(conn, "read/date_inputs")
        files = query(conn, "read/source_file_hashes")
    p = due_dates(wh, inputs, force)
    if p.reasons:
        with wh.connect() as conn:
            p.events = query(conn, "read/events_of_dates", {"dates": p.dates}).height
    if files_before is not None:
        p.files_added, p.files_changed, p.files_removed = incremental.file_changes(
            files_before, files
        )
    return p


def due_dates(wh: Warehouse, inputs: pl.DataFrame, force: bool = False):
    """The dates due for the inbox's ``inputs`` (``session_date, fingerprint``) against what
    the warehouse computed (:func:`pipelines.incremental.plan`): new, changed and withdrawn
    dates, dates whose provisional standings a deadline passed since made final (by
    :func:`pipelines.settings.now`), and the other dates of the events that left a due date
    (their totals are recomputed where they still are)."""
    with wh.connect() as conn:
        done = query(conn, "read/dates_done")
        awaiting = query(conn, "read/dates_awaiting_final", {"now": now().isoformat(" ")})[
            "session_date"
        ].to_list()
        p = incremental.plan(inputs, done, awaiting, force=force)
        if not p.reasons:
            return p
        moved = query(conn, "read/moved_event_dates", {"dates": p.dates})
        p.first = query(conn, "read/dates_losing_events", {"dates": p.dates})[
            "session_date"
        ].to_list()
    present = set(inputs["session_date"].to_list())
    for day in moved["session_date"].to_list():
        if day in present and incremental.EVENT not in p.reasons.setdefault(day, []):
            p.reasons[day].append(incremental.EVENT)
    return p


def due_ranges(wh: Warehouse, p) -> list[tuple[str, str]]:
    """The dates of the plan ``p`` as ranges of dates, each computed in one pass
    (:func:`pipelines.incremental.ranges`): the known dates are those with inputs and those
    computed before; a range holds at most :func:`pipelines.settings.range_results` table
    results (a date alone may hold more)."""
    with wh.connect() as conn:
        sizes = dict(query(conn, "read/date_sizes").rows())
        known = [*sizes, *query(conn, "read/dates_done")["session_date"].to_list()]
    return incremental.ranges(p.dates, known, p.first, sizes, range_results())


def files_registered(wh: Warehouse) -> pl.DataFrame:
    """``file, sha256`` of the registry as it stands (empty for a new warehouse)."""
    with wh.connect() as conn:
        return query(conn, "read/source_file_hashes")


def _results_fingerprint(conn) -> str | None:
    state = dict(query(conn, "read/pipeline_state").rows())
    done = query(conn, "read/results_state").rows()
    if "content" not in state:
        return None
    return incremental.results_fingerprint(state["content"], done)


def results_fingerprint(wh: Warehouse) -> str | None:
    """What the audit and the publication would be computed from now
    (:func:`pipelines.incremental.results_fingerprint`); ``None`` before the inbox is read."""
    with wh.connect() as conn:
        return _results_fingerprint(conn)


#: The steps computed from every session date (the audit marts, the reconciliation and
#: the reports: ``audit``; the site and the exports: ``publish``), in the order they run.
WHOLE_WAREHOUSE_STEPS = ("audit", "publish")


def step_due(wh: Warehouse, step: str) -> bool:
    """Whether ``step`` (``audit``, ``publish``) must run: the results or the inbox's content
    changed since it last completed (:func:`results_fingerprint`)."""
    with wh.connect() as conn:
        state = dict(query(conn, "read/pipeline_state").rows())
    current = results_fingerprint(wh)
    return current is None or state.get(step) != current


def whole_warehouse_due(wh: Warehouse) -> tuple[str | None, list[str]]:
    """``(fingerprint, steps)``: what the whole-warehouse steps would be computed from now
    (:func:`results_fingerprint`) and which of :data:`WHOLE_WAREHOUSE_STEPS` it differs from
    the last completed run of; read only (the sensor's question), and ``(None, [])`` for a
    warehouse not filled yet, or one another process holds (a DuckDB file being written:
    the question is asked again later)."""
    import duckdb

    if wh.url is None and not wh.path.is_file():
        return None, []
    try:
        with wh.connect(read_only=True) as conn:
            state = dict(query(conn, "read/pipeline_state").rows())
            current = _results_fingerprint(conn)
    except duckdb.Error:
        return None, []
    except Exception as e:  # a PostgreSQL warehouse whose tables do not exist yet
        if type(e).__name__ != "UndefinedTable":
            raise
        return None, []
    if current is None:
        return None, []
    return current, [s for s in WHOLE_WAREHOUSE_STEPS if state.get(s) != current]


def mark_step(wh: Warehouse, step: str) -> None:
    """Record that ``step`` (``audit``, ``publish``) completed for the results as they are
    (:func:`results_fingerprint`)."""
    current = results_fingerprint(wh)
    if current is not None:
        with wh.connect() as conn:
            write(conn, [Write("pipeline_state", _state(step, current), {"step": step})])


#: The assets of the session dates, in the order they depend on each other (the stages of
#: :data:`DATE_STAGES`).
DATE_ASSETS: tuple[str, ...] = (
    "raw_results",
    "validated_results",
    "ruling_log",
    "rulings",
    "scored_results",
    "standings",
)


def _date_stage(asset: str) -> Callable[[Callable[..., Summary]], Callable[..., Summary]]:
    """A stage of the session dates: when it is done, the progress says so (``session
    dates``, its place among :data:`DATE_ASSETS`, with how many dates)."""
    step = DATE_ASSETS.index(asset) + 1

    def wrap(stage: Callable[..., Summary]) -> Callable[..., Summary]:
        @functools.wraps(stage)
        def run(*args: object, **kwargs: object) -> Summary:
            summary = stage(*args, **kwargs)
            n = summary.figures.get("dates", 0)
            progress.tick("session dates", step, len(DATE_ASSETS), f"{asset} ({n} date(s))")
            return summary

        return run

    return wrap


def _days(days: str | Sequence[str]) -> list[str]:
    """The session dates a stage computes, sorted: one date, or a range of them in one pass."""
    return sorted({days} if isinstance(days, str) else set(days))


def _in(days: list[str]) -> dict[str, list[str]]:
    return {"dates": days}


def _slice(days: list[str]) -> dict[str, list[str]]:
    return {"session_date": days}


def _dated(rejected: pl.DataFrame, rows: list[pl.DataFrame], days: list[str]) -> pl.DataFrame:
    """Give each rejected row the session date of the row it rejects (``file`` and
    ``location`` name one row of one date among ``rows``); with one date, that date."""
    if len(days) == 1 or rejected.height == 0:
        return rejected.with_columns(
            pl.lit(days[0] if days else None, pl.Utf8).alias("session_date")
        )
    where = pl.concat(
        [
            r.select("file", "location", pl.col("session_date").cast(pl.Utf8))
            for r in rows
            if r.height
        ]
    ).unique(["file", "location"], keep="first")
    out = rejected.join(where, on=["file", "location"], how="left")
    if out["session_date"].null_count():
        lost = out.filter(pl.col("session_date").is_null()).select("file", "location").row(0)
        raise ValueError(f"a rejection at {lost[0]}:{lost[1]} names no row of the dates computed")
    return out


def open_days(wh: Warehouse, days: Sequence[str], before: str) -> list[str]:
    """Of ``days``, those no *blocking* check of an asset that comes before ``before`` (in
    :data:`DATE_STAGES` order) failed for: a date whose rows are not accounted for, or whose
    matchpoints are not conserved, stops there — its later stages are not run and it has no
    standings — while every other date of a range goes on (a range of dates is computed in
    one pass, so Dagster's blocking, which would stop the whole range, is not used for the
    checks of one date: the stages stop the date themselves)."""
    days = _days(days)
    order = [asset for asset, _ in DATE_STAGES]
    upstream = set(order[: order.index(before)])
    stopped: set[str] = set()
    for spec in check_specs.CHECKS:
        if spec.partitioned and spec.blocking and spec.asset in upstream and days:
            stopped |= failed_dates(check(wh, spec.name, days)[1])
    return [d for d in days if d not in stopped]


def failed_dates(bad: pl.DataFrame) -> set[str]:
    """The session dates of a check's offending rows (:func:`check`)."""
    if bad.height == 0 or "session_date" not in bad.columns:
        return set()
    return set(bad["session_date"].drop_nulls().cast(pl.Utf8).to_list())


@_date_stage("raw_results")
def build_raw(
    inbox: Path, wh: Warehouse, days: str | Sequence[str], today: date | None = None
) -> Summary:
    """The results of the files whose results belong to ``days``, dated, from the read cache
    the ingest filled (:mod:`pipelines.read_cache`: no file is parsed again); write those
    dates' partitions. ``inbox`` is where the files are (the cache holds what they read)."""
    del inbox
    days = _days(days)
    with wh.connect() as conn:
        files = query(conn, "read/files_for_dates", _in(days))["file"].to_list()
        events = query(conn, "read/events")
        # the files' rows as read into the read cache by the ingest (no file parsed again)
        rows = read_cache.dated_results(conn, files, events, days, today or settings.today())
        written = write(conn, [Write("raw_results", rows, _slice(days))])
    return Summary(written, {"files": len(files), "dates": len(days)})


@_date_stage("validated_results")
def validate(wh: Warehouse, days: str | Sequence[str]) -> Summary:
    """Validate the raw results of ``days`` (Law 77 check included), in one pass."""
    days = _days(days)
    with wh.connect() as conn:
        raw = query(conn, "read/raw_results_for_dates", _in(days))
        events = query(conn, "read/events")
        lists = _of_events(query(conn, "read/contestant_lists"), raw)
    profs = ProfileSet.of_events(events)
    validated, rejected = validate_day(raw, events, profs, lists)
    rejected = _dated(rejected, [raw], days).with_columns(pl.lit("validate").alias("stage"))
    refused = raw.join(rejected.select("file", "location").unique(), on=["file", "location"])
    when = validated.select("event_id", "session", pl.col("session_date").cast(pl.Utf8)).unique(
        ["event_id", "session"]
    )
    gaps = shortfalls(validated, events, profs, refused).join(
        when, on=["event_id", "session"], how="left"
    )
    with wh.connect() as conn:
        written = write(
            conn,
            [
                # Withdraw what was derived from the dates' previous results first: scores and
                # standings come back only once each date's checks pass.
                Write("standings", pl.DataFrame(), _in(days), delete="standings_of_dates"),
                Write(
                    "standings_changes",
                    pl.DataFrame(),
                    _in(days),
                    delete="standings_changes_of_dates",
                ),
                # an event's team matches too (an event gone from the inbox keeps none)
                Write("matches", pl.DataFrame(), _in(days), delete="matches_of_dates"),
                Write("holds", pl.DataFrame(), _slice(days)),
                # computed again from now on: done once the run has finished the date
                Write("dates_done", pl.DataFrame(), _slice(days)),
                Write("scored_results", pl.DataFrame(), _slice(days)),
                Write("adjustments", pl.DataFrame(), _slice(days)),
                Write("validated_results", validated, _slice(days)),
                Write("rejected_inputs", rejected, {"stage": "validate", **_slice(days)}),
                Write("incomplete_sessions", gaps, _slice(days)),
            ],
        )
    return Summary(
        written,
        {
            "dates": len(days),
            "rows_rejected": rejected.select("file", "location").unique().height,
            "sessions_incomplete": gaps.select("event_id", "session").unique().height,
            "score_disagreements": int((validated["score_agrees"] == False).sum()),  # noqa: E712
        },
    )


@_date_stage("ruling_log")
def build_ruling_log(
    inbox: Path, wh: Warehouse, days: str | Sequence[str], today: date | None = None
) -> Summary:
    """The ruling and appeal logs of ``days``, dated, from the read cache; write those dates'
    partitions."""
    del inbox
    days = _days(days)
    with wh.connect() as conn:
        files = query(conn, "read/files_for_dates", _in(days))["file"].to_list()
        events = query(conn, "read/events")
        day = today or settings.today()
        rulings, appeals = read_cache.dated_logs(conn, files, events, days, day)
        written = write(
            conn,
            [
                Write("raw_rulings", rulings, _slice(days)),
                Write("raw_appeals", appeals, _slice(days)),
            ],
        )
    return Summary(written, {"dates": len(days)})


@_date_stage("rulings")
def rulings(wh: Warehouse, days: str | Sequence[str]) -> Summary:
    """Check the rulings and appeals of ``days`` against their results; their effective
    outcome. A date stopped by a blocking check of its results is left as it is."""
    days = open_days(wh, days, "rulings")
    with wh.connect() as conn:
        raw_r = query(conn, "read/raw_rulings_for_dates", _in(days))
        raw_a = query(conn, "read/raw_appeals_for_dates", _in(days))
        validated = query(conn, "read/validated_for_dates", _in(days))
        events = query(conn, "read/events")
    result = validate_logs(raw_r, raw_a, validated, events, ProfileSet.of_events(events))
    rejected = _dated(result.rejected, [raw_r, raw_a], days).with_columns(
        pl.lit("rulings").alias("stage")
    )
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("rulings", result.rulings, _slice(days)),
                Write("appeals", result.appeals, _slice(days)),
                Write("rejected_inputs", rejected, {"stage": "rulings", **_slice(days)}),
            ],
        )
    r = result.rulings
    return Summary(
        written,
        {
            "dates": len(days),
            "rulings_rejected": rejected.select("file", "location").unique().height,
            "adjusted_scores": int(r["kind"].is_in(list(BOARD_CHANGING)).sum()),
            "penalties": int(r["kind"].is_in(list(PENALTY_KINDS)).sum()),
            "appeals_pending": int(result.appeals["pending"].sum()) if result.appeals.height else 0,
        },
    )


def _date_inputs(conn, days: list[str]) -> dict:
    inputs = {
        "validated": query(conn, "read/validated_for_dates", _in(days)),
        "rulings": query(conn, "read/rulings_for_dates", _in(days)),
        "appeals": query(conn, "read/appeals_for_dates", _in(days)),
        "events": query(conn, "read/events"),
    }
    inputs["contestants"] = _of_events(
        query(conn, "read/contestants"),
        inputs["validated"],
        inputs["rulings"],
        inputs["appeals"],
    )
    return inputs


def _of_events(rows: pl.DataFrame, *having: pl.DataFrame | Sequence[str]) -> pl.DataFrame:
    """The rows of ``rows`` (in their order) of the events the frames or lists of event ids
    ``having`` name: a contestant of another event names no line of these (names are
    looked up by event first, :func:`pipelines.scoring.standings._names`), so a night's
    dates look through their own events' contestants, not the season's."""
    ids: set[str] = set()
    for h in having:
        if isinstance(h, pl.DataFrame):
            if "event_id" in h.columns:
                ids.update(h["event_id"].drop_nulls().unique().to_list())
        else:
            ids.update(h)
    return rows.filter(pl.col("event_id").is_in(pl.Series(sorted(ids), dtype=pl.Utf8).implode()))


@_date_stage("scored_results")
def score(wh: Warehouse, days: str | Sequence[str]) -> Summary:
    """Score ``days`` with their rulings applied, in one pass: the newest version's scored
    lines and its adjustments (:func:`pipelines.scoring.versions.score_newest`). A date
    stopped by a blocking check is left as it is."""
    days = open_days(wh, days, "scored_results")
    with wh.connect() as conn:
        inputs = _date_inputs(conn, days)
    scored, adjustments = score_newest(
        inputs["validated"],
        inputs["rulings"],
        inputs["appeals"],
        inputs["contestants"],
        profs=ProfileSet.of_events(inputs["events"]),
    )
    scored = scored.drop("__row")
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("scored_results", scored, _slice(days)),
                Write("adjustments", adjustments, _slice(days)),
            ],
        )
    factored = scored.filter(pl.col("factoring").is_in(["neuberg", "linear"]))
    return Summary(
        written,
        {
            "dates": len(days),
            "boards": scored.select(BOARD).unique().height,
            "boards_factored": factored.select(BOARD).unique().height,
            "artificial_scores": int((scored["kind"] == "artificial").sum()),
            "adjusted_results": int(scored["adjustment"].is_not_null().sum()),
        },
    )


@_date_stage("standings")
def standings(wh: Warehouse, days: str | Sequence[str]) -> Summary:
    """Every version of the session standings of ``days``, and of the standings of every
    event with a session on one of them; what each new version changed — in one pass. The
    newest version is ranked from the scored lines the score stage stored (never scored
    again); only the older versions of a session with decisions are
    (:func:`pipelines.scoring.versions.session_versions`). A date stopped by a blocking check
    (its rows not accounted for, its matchpoints not conserved) gets no standings."""
    days = open_days(wh, days, "standings")
    with wh.connect() as conn:
        rulings_, appeals_ = (
            query(conn, "read/rulings_for_dates", _in(days)),
            query(conn, "read/appeals_for_dates", _in(days)),
        )
        # only a session with decisions is scored again (its older versions): only its
        # validated results are read
        decided = sorted({f"{d.event_id}\x1f{d.session}" for d in decisions(rulings_, appeals_)})
        validated = query(conn, "read/validated_of_sessions", {**_in(days), "sessions": decided})
        events_table, contestants = query(conn, "read/events"), query(conn, "read/contestants")
        scored = query(conn, "read/scored_for_dates", _in(days))
        events = query(conn, "read/validated_events_of_dates", _in(days))["event_id"].to_list()
        contestants = _of_events(contestants, scored, validated, rulings_, appeals_, events)
        ids = {"event_ids": events}
        dates = query(conn, "read/event_dates", ids)["session_date"].to_list()
        others = query(conn, "read/session_versions_for_events", ids).filter(
            ~pl.col("session_date").is_in(days)
        )
        ev_rulings = query(conn, "read/rulings_for_dates", _in(dates)).filter(
            pl.col("event_id").is_in(events)
        )
        ev_appeals = query(conn, "read/appeals_for_dates", _in(dates)).filter(
            pl.col("event_id").is_in(events)
        )
        # every scored result of the events: those of these dates (read above) and of their
        # other dates, in the order they were written
        all_scored = pl.concat(
            [scored, query(conn, "read/scored_for_events_elsewhere", {**ids, **_in(days)})],
            how="diagonal_relaxed",
        ).sort("session_date", maintain_order=True)
    profs = ProfileSet.of_events(events_table)
    sessions, session_changes, _ = session_versions(
        scored,
        validated,
        rulings_,
        appeals_,
        events_table,
        contestants,
        now=now(),
        profs=profs,
    )
    every_session = (
        pl.concat([others, sessions], how="diagonal_relaxed") if others.height else sessions
    )
    ev_rows, ev_changes = event_versions(
        every_session,
        decisions(ev_rulings, ev_appeals),
        all_scored,
        contestants,
        profs=profs,
        declared=events_table.filter(pl.col("event_id").is_in(events)),
    )
    rows = pl.concat([sessions, ev_rows], how="diagonal_relaxed")
    scope = {**_in(days), "event_ids": events}
    with wh.connect() as conn:
        holds = query(conn, "read/holds_for_dates", _in(days))
        elsewhere = query(conn, "read/events_held_elsewhere", scope)
    rows = hold_events(
        rows,
        holds.select(pl.col("session_date").cast(pl.Utf8), "event_id"),
        [*holds["event_id"].to_list(), *elsewhere["event_id"].to_list()],
    )
    changes = pl.concat([session_changes, ev_changes], how="diagonal_relaxed")
    # Team matches of the events, every session (knockout segments carry their totals):
    # the newest scores of every date, as stored.
    decided = {d.cause_id for d in decisions(ev_rulings, ev_appeals)}
    in_effect = rulings_in_effect(ev_rulings, ev_appeals, decided)
    ms = matches(all_scored, penalties_frame(in_effect, all_scored, profs=profs), profs=profs)
    with wh.connect() as conn:
        # each date is computed from its current inputs (nothing for a date withdrawn)
        done = query(conn, "read/date_inputs").filter(pl.col("session_date").is_in(days))
    done = done.join(_outputs(rows, changes, holds, days), on="session_date", how="left")
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("dates_done", done, _slice(days)),
                Write("standings", rows, scope),
                Write("standings_changes", changes, scope),
                Write("matches", ms, {"event_id": events}),
                Write("holds", holds, _slice(days)),
            ],
        )
    newest = sessions.filter(pl.col("status") != "superseded")
    return Summary(
        written,
        {
            "dates": len(days),
            "sessions": sessions.select("event_id", "session").unique().height,
            "events": len(events),
            "events_held": holds["event_id"].n_unique() if holds.height else 0,
            "versions": int(sessions["version"].max() or 0) if sessions.height else 0,
            "final": int(
                newest.filter(pl.col("status") == "final")
                .select("event_id", "session")
                .unique()
                .height
            ),
        },
    )


def _outputs(
    rows: pl.DataFrame, changes: pl.DataFrame, holds: pl.DataFrame, days: list[str]
) -> pl.DataFrame:
    """``session_date, output``: per date, the hash of what the standings stage wrote that
    belongs to that date alone — its session standings, their changes and its holds. Event
    totals and team matches are written by every date of their event, from these rows and the
    inputs (``date_inputs``), so they are not part of one date's outcome
    (:func:`pipelines.incremental.outputs_hash`)."""
    session = pl.col("scope") == "session"

    def by_date(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
        if frame.height == 0:
            return {}
        frame = frame.with_columns(pl.col("session_date").cast(pl.Utf8))
        return {k[0]: v for k, v in parts_by(frame, "session_date").items()}

    own = {
        "standings": by_date(rows.filter(session)),
        "standings_changes": by_date(changes.filter(session) if changes.height else changes),
        "holds": by_date(holds),
    }
    empty = {
        name: frame.clear()
        for name, frame in (("standings", rows), ("standings_changes", changes), ("holds", holds))
    }
    out = [
        (day, incremental.outputs_hash({n: own[n].get(day, empty[n]) for n in own})) for day in days
    ]
    return pl.DataFrame(out, schema={"session_date": pl.Utf8, "output": pl.Utf8}, orient="row")


def hold_events(
    rows: pl.DataFrame, sessions_held: pl.DataFrame, events_held: list[str] | None = None
) -> pl.DataFrame:
    """Hold back the standings of events whose input cannot be trusted as it stands: a stated
    score that disagrees with the score of its contract (Law 77 — the score is what the
    contract, tricks and vulnerability give, so one of them is wrong in the file) or a ruling
    or appeal that cannot be applied as written (Laws 82-93: the director's decision must be
    applied exactly as given, not guessed).

    Session-scope rows of the ``sessions_held`` (``session_date, event_id``: an event held on
    that date) and event-scope rows of the ``events_held`` events (held on a date computed or
    on any other date of the event: its totals include that session; default: the events of
    ``sessions_held``) get status ``held``: kept in the warehouse, never published, never
    Final. Superseded versions stay as they were. Every other event of the date keeps its own
    status: one club's mistake holds back that event only."""
    if events_held is None:
        events_held = sessions_held["event_id"].to_list()
    if not (sessions_held.height or events_held) or rows.height == 0:
        return rows
    pairs = sessions_held.select(
        pl.concat_str(pl.col("session_date").cast(pl.Utf8), "event_id", separator="\x1f")
    ).to_series()
    key = pl.concat_str(pl.col("session_date").cast(pl.Utf8), "event_id", separator="\x1f")
    held = (
        (pl.col("scope") == "session") & key.is_in(pairs.implode())
        | (pl.col("scope") == "event") & pl.col("event_id").is_in(events_held)
    ) & (pl.col("status") != "superseded")
    return rows.with_columns(
        pl.when(held).then(pl.lit("held")).otherwise(pl.col("status")).alias("status")
    )


# ------------------------------------------------------------------------------ the dates


#: The stages of the session dates in the order their assets depend on each other
#: (``assets/results.py``, ``assets/standings.py``; the Definitions' test checks the order):
#: ``(asset, stage)``, each stage called as ``stage(inbox, warehouse, days)`` for one date or
#: a range of them.
DATE_STAGES: tuple[tuple[str, Callable[[Path, Warehouse, list[str]], Summary]], ...] = (
    ("raw_results", lambda inbox, wh, days: build_raw(inbox, wh, days)),
    ("validated_results", lambda _inbox, wh, days: validate(wh, days)),
    ("ruling_log", lambda inbox, wh, days: build_ruling_log(inbox, wh, days)),
    ("rulings", lambda _inbox, wh, days: rulings(wh, days)),
    ("scored_results", lambda _inbox, wh, days: score(wh, days)),
    ("standings", lambda _inbox, wh, days: standings(wh, days)),
)
assert tuple(a for a, _ in DATE_STAGES) == DATE_ASSETS


def run_dates(
    inbox: Path, wh: Warehouse, days: Sequence[str]
) -> list[tuple[str, str, pl.DataFrame]]:
    """Every stage of ``days`` in :data:`DATE_STAGES` order, each followed by the checks of
    its asset, without Dagster (``traveller validate`` runs the night's checks this way), in
    one pass as a Dagster run of the range does. A date a blocking check fails for stops
    there (:func:`open_days`). Returns the failed checks, ``(name, session date, offending
    rows of that date)``."""
    days = _days(days)
    failed: list[tuple[str, str, pl.DataFrame]] = []
    for asset, stage in DATE_STAGES:
        stage(inbox, wh, days)
        for spec in check_specs.CHECKS:
            if spec.asset == asset and spec.partitioned:
                _, bad = check(wh, spec.name, days)
                for day in sorted(failed_dates(bad)):
                    failed.append((spec.name, day, bad.filter(pl.col("session_date") == day)))
    return failed


# ------------------------------------------------------------------------------------ checks


def check(
    wh: Warehouse, name: str, days: str | Sequence[str] | None = None
) -> tuple[bool, pl.DataFrame]:
    """Run the check ``name`` (:data:`pipelines.check_specs.CHECKS`) against the warehouse,
    for ``days`` (one session date or several) when it is a check of dates: ``(passed,
    offending rows)``; the rows of a check of dates carry their ``session_date``."""
    spec = check_specs.spec(name)
    if spec.partitioned and days is None:
        raise ValueError(f"check {name} is run for session dates")
    with wh.connect() as conn:
        rows = query(conn, spec.sql, _in(_days(days)) if spec.partitioned else None)
    bad = spec.failures(rows)
    if (
        spec.partitioned
        and bad.height
        and "session_date" not in bad.columns
        and {"event_id", "session"} <= set(bad.columns)
    ):
        # an engine rule's rows name their event session: its date is the model's
        dated = rows.select(
            "event_id", pl.col("session").cast(bad.schema["session"]), "session_date"
        ).unique()
        bad = bad.join(dated, on=["event_id", "session"], how="left")
    return bad.height == 0, bad


# ------------------------------------------------------------------------------------ audit
# The marts of pipelines/audit, recomputed whole after the standings; the reports render them.


def audit_inputs(wh: Warehouse, date_from: str | None = None, date_to: str | None = None):
    """The frames the audit marts are computed from (:class:`pipelines.audit.marts.
    AuditInputs`), optionally within a window of session dates."""
    from pipelines.audit.marts import AuditInputs

    window = {"date_from": date_from, "date_to": date_to}
    with wh.connect() as conn:
        return AuditInputs(
            events=query(conn, "read/audit_events"),
            boards=query(conn, "read/audit_boards", window),
            rulings=query(conn, "read/audit_rulings", window),
            appeals=query(conn, "read/audit_appeals", window),
            sizes=query(conn, "read/audit_sizes"),
        )


def audit(wh: Warehouse, reports_dir: Path | None = None) -> Summary:
    """Recompute the marts ``penalty_stats``, ``appeal_stats``, ``director_audit`` and
    ``ruling_discrepancies`` from the whole warehouse (one transaction). ``reports_dir``:
    where the reports of the same inputs will be written (:func:`reports`); in a run with a
    drawing process their charts are handed to it first
    (:func:`pipelines.reports.audit.prepare`), drawn while the run goes on (the marts' write,
    their checks, the reconciliation)."""
    from pipelines.audit.marts import build_marts, key_figures

    inputs = audit_inputs(wh)
    if reports_dir is not None:  # first: the charts are drawn while the marts are computed
        from pipelines.reports.audit import KINDS, prepare

        prepare(KINDS, inputs, reports_dir)
    marts = build_marts(inputs)
    with wh.connect() as conn:
        written = write(conn, [Write(t, f) for t, f in marts.tables().items()])
    return Summary(written, key_figures(marts))


def reports(
    wh: Warehouse,
    kinds: Sequence[str],
    out_dir: Path,
    date_from: str | None = None,
    date_to: str | None = None,
) -> dict[str, Summary]:
    """Render the reports ``kinds`` (``audit``, ``transparency``) of the warehouse (optionally
    a window of session dates) into ``out_dir/<kind>.html``, from one reading of the audit's
    inputs and one computation of their marts
    (:func:`pipelines.reports.audit.write_reports`); per kind, figures include its ``path``."""
    from pipelines.reports.audit import write_reports

    written = write_reports(
        kinds, audit_inputs(wh, date_from, date_to), out_dir, date_from, date_to
    )
    return {
        kind: Summary({}, {"path": str(path), **figures})
        for kind, (path, figures) in written.items()
    }


def report(
    wh: Warehouse,
    kind: str,
    out_dir: Path,
    date_from: str | None = None,
    date_to: str | None = None,
) -> Summary:
    """Render the ``audit`` or ``transparency`` report of the warehouse (optionally a window
    of session dates) into ``out_dir/<kind>.html`` (:func:`reports`); figures include its
    ``path``."""
    return reports(wh, (kind,), out_dir, date_from, date_to)[kind]


def reconcile(wh: Warehouse, reports_dir: Path | None = None) -> Summary:
    """Every official figure of every file (the exporting program's) against Traveller's
    newest scores and standings: ``reconciliation`` and ``reconciliation_files``, whole
    (:mod:`pipelines.scoring.reconcile`); the report ``reports_dir/reconciliation.html``
    when a folder is given."""
    from pipelines.reports.reconciliation import write as write_report
    from pipelines.scoring.reconcile import reconcile as compare

    with wh.connect() as conn:
        scored = query(conn, "read/reconcile_scored")
        standings = query(conn, "read/reconcile_standings")
        official = query(conn, "read/source_standings")
    diffs, files = compare(scored, standings, official)
    acting = files.filter(pl.col("action") != "published")
    sessions = pl.concat(
        [
            scored.select("file", "event_id", pl.col("session").cast(pl.Int32)),
            official.select("file", "event_id", pl.col("session").cast(pl.Int32, strict=False)),
        ]
    ).unique()
    with wh.connect() as conn:
        written = write(
            conn, [Write("reconciliation", diffs), Write("reconciliation_files", files)]
        )
        # reconciliation.on_difference: the file's sessions shown provisional, or held back
        for f in acting.iter_rows(named=True):
            for event_id, session in (
                sessions.filter(pl.col("file") == f["file"]).select("event_id", "session").rows()
            ):
                conn.execute(
                    sql("write/standings_reconciled"),
                    {"event_id": event_id, "session": session, "status": f["action"]},
                )
    if reports_dir is not None:
        write_report(diffs, files, reports_dir)
    return Summary(
        written,
        {
            "files": files.height,
            "compared": int(files["compared"].sum()) if files.height else 0,
            "reproduced": int(files["reproduced"].sum()) if files.height else 0,
            "unexplained": int(files["unexplained"].sum()) if files.height else 0,
        },
    )
