"""What each stage of the nightly run does to the warehouse (no Dagster here).

Each function reads its inputs from the warehouse (or the inbox), calls the
engine, writes its slice in one transaction and returns a small summary that
the Dagster assets report as metadata. :func:`check` runs one of the checks declared in
:mod:`pipelines.check_specs` and returns ``(passed, rows)`` where ``rows`` are the
offending rows (empty when all is well).

Stage             writes                                          slice
----------------  ----------------------------------------------  ---------------------------
ingest            source_files, events, contestants,              whole tables; rejected rows
                  source_standings, rejected_inputs (read),       of stage 'read'; state of
                  input_warnings, event_holds, deals,             step 'inbox' (deal_analysis:
                  deal_analysis, date_inputs, date_events,        the deals not analysed yet,
                  pipeline_state                                  added)
build_raw         raw_results                                     one session date
build_ruling_log  raw_rulings, raw_appeals                        one session date
validate          validated_results, rejected_inputs (validate)   one session date
rulings           rulings, appeals, rejected_inputs (rulings)     one session date
score             scored_results, adjustments                     one session date
standings         standings, standings_changes, holds,            the date's sessions + the
                  dates_done                                      events with a session that day
audit             penalty_stats, appeal_stats, director_audit,    whole tables (all dates)
                  ruling_discrepancies
reconcile         reconciliation, reconciliation_files            whole tables (all files)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import polars as pl

from pipelines import check_specs, incremental
from pipelines import inbox as inbox_mod
from pipelines.deals import analyse_new as analyse_new_deals
from pipelines.laws.vocabulary import BOARD_CHANGING, PENALTY_KINDS
from pipelines.profiles import ProfileSet
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
from pipelines.settings import now
from pipelines.warehouse import Warehouse, Write, query, sql, write


@dataclass
class Summary:
    """What a stage did: rows written per table and a few key figures."""

    written: dict[str, int] = field(default_factory=dict)
    figures: dict[str, object] = field(default_factory=dict)


def _day(session_date: str) -> dict[str, str]:
    return {"session_date": session_date}


def ingest(inbox: Path, wh: Warehouse, today: date | None = None) -> Summary:
    """Scan the whole inbox; rewrite the registry, reference tables and read-stage rejections."""
    today = today or date.today()
    snap = inbox_mod.scan(inbox, today)
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
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("date_inputs", inputs),
                Write("date_events", incremental.date_events(snap)),
                Write("pipeline_state", _state("inbox", fingerprint), {"step": "inbox"}),
                Write("pipeline_state", _state("content", content), {"step": "content"}),
                Write(
                    "pipeline_state",
                    _state("inbox_path", str(Path(inbox).resolve())),
                    {"step": "inbox_path"},
                ),
                Write("source_files", snap.files),
                Write("events", snap.events),
                Write("contestants", snap.contestants),
                Write("source_standings", snap.source_standings),
                Write("deals", snap.deals),
                Write("rejected_inputs", rejected, {"stage": "read"}),
                Write("input_warnings", snap.warnings),
                Write("event_holds", snap.event_holds),
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


def files_registered(wh: Warehouse) -> pl.DataFrame:
    """``file, sha256`` of the registry as it stands (empty for a new warehouse)."""
    with wh.connect() as conn:
        return query(conn, "read/source_file_hashes")


def results_fingerprint(wh: Warehouse) -> str | None:
    """What the audit and the publication would be computed from now
    (:func:`pipelines.incremental.results_fingerprint`); ``None`` before the inbox is read."""
    with wh.connect() as conn:
        state = dict(query(conn, "read/pipeline_state").rows())
        done = query(conn, "read/results_state").rows()
    if "content" not in state:
        return None
    return incremental.results_fingerprint(state["content"], done)


def step_due(wh: Warehouse, step: str) -> bool:
    """Whether ``step`` (``audit``, ``publish``) must run: the results or the inbox's content
    changed since it last completed (:func:`results_fingerprint`)."""
    with wh.connect() as conn:
        state = dict(query(conn, "read/pipeline_state").rows())
    current = results_fingerprint(wh)
    return current is None or state.get(step) != current


def mark_step(wh: Warehouse, step: str) -> None:
    """Record that ``step`` (``audit``, ``publish``) completed for the results as they are
    (:func:`results_fingerprint`)."""
    current = results_fingerprint(wh)
    if current is not None:
        with wh.connect() as conn:
            write(conn, [Write("pipeline_state", _state(step, current), {"step": step})])


def build_raw(inbox: Path, wh: Warehouse, session_date: str, today: date | None = None) -> Summary:
    """Read the files whose results belong to ``session_date``; write that partition."""
    with wh.connect() as conn:
        files = query(conn, "read/files_for_date", _day(session_date))["file"].to_list()
        events = query(conn, "read/events")
    rows = inbox_mod.dated_results_for(inbox, files, events, session_date, today)
    with wh.connect() as conn:
        written = write(conn, [Write("raw_results", rows, _day(session_date))])
    return Summary(written, {"files": len(files)})


def validate(wh: Warehouse, session_date: str) -> Summary:
    """Validate one date's raw results (Law 77 check included)."""
    with wh.connect() as conn:
        raw = query(conn, "read/raw_results_for_date", _day(session_date))
        events = query(conn, "read/events")
    validated, rejected = validate_day(raw, events, ProfileSet.of_events(events))
    rejected = rejected.with_columns(
        pl.lit("validate").alias("stage"), pl.lit(session_date).alias("session_date")
    )
    with wh.connect() as conn:
        written = write(
            conn,
            [
                # Withdraw what was derived from the date's previous results first: scores and
                # standings come back only once this date's checks pass.
                Write("standings", pl.DataFrame(), _day(session_date), delete="standings_of_date"),
                Write(
                    "standings_changes",
                    pl.DataFrame(),
                    _day(session_date),
                    delete="standings_changes_of_date",
                ),
                Write("holds", pl.DataFrame(), _day(session_date)),
                # computed again from now on: done once the run has finished the date
                Write("dates_done", pl.DataFrame(), _day(session_date)),
                Write("scored_results", pl.DataFrame(), _day(session_date)),
                Write("adjustments", pl.DataFrame(), _day(session_date)),
                Write("validated_results", validated, _day(session_date)),
                Write("rejected_inputs", rejected, {"stage": "validate", **_day(session_date)}),
            ],
        )
    return Summary(
        written,
        {
            "rows_rejected": rejected.select("file", "location").unique().height,
            "score_disagreements": int((validated["score_agrees"] == False).sum()),  # noqa: E712
        },
    )


def build_ruling_log(
    inbox: Path, wh: Warehouse, session_date: str, today: date | None = None
) -> Summary:
    """Read the ruling and appeal logs of ``session_date``; write that partition."""
    with wh.connect() as conn:
        files = query(conn, "read/files_for_date", _day(session_date))["file"].to_list()
        events = query(conn, "read/events")
    rulings, appeals = inbox_mod.dated_logs_for(inbox, files, events, session_date, today)
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("raw_rulings", rulings, _day(session_date)),
                Write("raw_appeals", appeals, _day(session_date)),
            ],
        )
    return Summary(written, {})


def rulings(wh: Warehouse, session_date: str) -> Summary:
    """Check one date's rulings and appeals against its results; their effective outcome."""
    with wh.connect() as conn:
        raw_r = query(conn, "read/raw_rulings_for_date", _day(session_date))
        raw_a = query(conn, "read/raw_appeals_for_date", _day(session_date))
        validated = query(conn, "read/validated_for_date", _day(session_date))
        events = query(conn, "read/events")
    result = validate_logs(raw_r, raw_a, validated, events, ProfileSet.of_events(events))
    rejected = result.rejected.with_columns(
        pl.lit("rulings").alias("stage"), pl.lit(session_date).alias("session_date")
    )
    with wh.connect() as conn:
        written = write(
            conn,
            [
                Write("rulings", result.rulings, _day(session_date)),
                Write("appeals", result.appeals, _day(session_date)),
                Write("rejected_inputs", rejected, {"stage": "rulings", **_day(session_date)}),
            ],
        )
    r = result.rulings
    return Summary(
        written,
        {
            "rulings_rejected": rejected.select("file", "location").unique().height,
            "adjusted_scores": int(r["kind"].is_in(list(BOARD_CHANGING)).sum()),
            "penalties": int(r["kind"].is_in(list(PENALTY_KINDS)).sum()),
            "appeals_pending": int(result.appeals["pending"].sum()) if result.appeals.height else 0,
        },
    )


def _date_inputs(conn, session_date: str) -> dict:
    return {
        "validated": query(conn, "read/validated_for_date", _day(session_date)),
        "rulings": query(conn, "read/rulings_for_dates", {"dates": [session_date]}),
        "appeals": query(conn, "read/appeals_for_dates", {"dates": [session_date]}),
        "events": query(conn, "read/events"),
        "contestants": query(conn, "read/contestants"),
    }


def score(wh: Warehouse, session_date: str) -> Summary:
    """Score one date with its rulings applied: the newest version's scored lines and its
    adjustments (:func:`pipelines.scoring.versions.score_newest`)."""
    with wh.connect() as conn:
        inputs = _date_inputs(conn, session_date)
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
                Write("scored_results", scored, _day(session_date)),
                Write("adjustments", adjustments, _day(session_date)),
            ],
        )
    factored = scored.filter(pl.col("factoring").is_in(["neuberg", "linear"]))
    return Summary(
        written,
        {
            "boards": scored.select(BOARD).unique().height,
            "boards_factored": factored.select(BOARD).unique().height,
            "artificial_scores": int((scored["kind"] == "artificial").sum()),
            "adjusted_results": int(scored["adjustment"].is_not_null().sum()),
        },
    )


def standings(wh: Warehouse, session_date: str) -> Summary:
    """Every version of the date's session standings, and of the standings of every event
    with a session that day; what each new version changed. The newest version is ranked
    from the scored lines the score stage stored (never scored again); only the older
    versions of a session with decisions are (:func:`pipelines.scoring.versions.
    session_versions`)."""
    with wh.connect() as conn:
        inputs = _date_inputs(conn, session_date)
        scored = query(conn, "read/scored_for_date", _day(session_date))
        events = sorted(inputs["validated"]["event_id"].unique().to_list())
        ids = {"event_ids": events}
        dates = query(conn, "read/event_dates", ids)["session_date"].to_list()
        others = query(conn, "read/session_versions_for_events", ids).filter(
            pl.col("session_date") != session_date
        )
        ev_rulings = query(conn, "read/rulings_for_dates", {"dates": dates}).filter(
            pl.col("event_id").is_in(events)
        )
        ev_appeals = query(conn, "read/appeals_for_dates", {"dates": dates}).filter(
            pl.col("event_id").is_in(events)
        )
        all_scored = query(conn, "read/scored_for_events", ids)
    profs = ProfileSet.of_events(inputs["events"])
    sessions, session_changes, _ = session_versions(scored, **inputs, now=now(), profs=profs)
    every_session = (
        pl.concat([others, sessions], how="diagonal_relaxed") if others.height else sessions
    )
    ev_rows, ev_changes = event_versions(
        every_session,
        decisions(ev_rulings, ev_appeals),
        all_scored,
        inputs["contestants"],
        profs=profs,
    )
    rows = pl.concat([sessions, ev_rows], how="diagonal_relaxed")
    scope = {"session_date": session_date, "event_ids": events}
    with wh.connect() as conn:
        holds = query(conn, "read/holds_for_date", _day(session_date))
        elsewhere = query(conn, "read/events_held_elsewhere", scope)
    held_here = holds["event_id"].unique().to_list()
    rows = hold_events(rows, held_here, [*held_here, *elsewhere["event_id"].to_list()])
    changes = pl.concat([session_changes, ev_changes], how="diagonal_relaxed")
    # Team matches of the events, every session (knockout segments carry their totals):
    # the newest scores of every date, as stored.
    team_scored = all_scored
    decided = {d.cause_id for d in decisions(ev_rulings, ev_appeals)}
    in_effect = rulings_in_effect(ev_rulings, ev_appeals, decided)
    ms = matches(team_scored, penalties_frame(in_effect, team_scored, profs=profs), profs=profs)
    with wh.connect() as conn:
        # the date is computed from its current inputs (nothing for a date withdrawn)
        done = (
            query(conn, "read/date_inputs")
            .filter(pl.col("session_date") == session_date)
            .with_columns(
                pl.lit(incremental.outputs_hash(_own(rows, changes, holds))).alias("output")
            )
        )
        written = write(
            conn,
            [
                Write("dates_done", done, _day(session_date)),
                Write("standings", rows, scope),
                Write("standings_changes", changes, scope),
                Write("matches", ms, {"event_id": events}),
                Write("holds", holds, _day(session_date)),
            ],
        )
    newest = sessions.filter(pl.col("status") != "superseded")
    return Summary(
        written,
        {
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


def _own(rows: pl.DataFrame, changes: pl.DataFrame, holds: pl.DataFrame) -> dict:
    """What a date's standings run writes that belongs to that date alone: its session
    standings, their changes and its holds. Event totals and team matches are written by every
    date of their event, from these rows and the inputs (``date_inputs``), so they are not
    part of one date's outcome (:func:`pipelines.incremental.outputs_hash`)."""
    session = pl.col("scope") == "session"
    return {
        "standings": rows.filter(session),
        "standings_changes": changes.filter(session) if changes.height else changes,
        "holds": holds,
    }


def hold_events(
    rows: pl.DataFrame, sessions_held: list[str], events_held: list[str] | None = None
) -> pl.DataFrame:
    """Hold back the standings of events whose input cannot be trusted as it stands: a stated
    score that disagrees with the score of its contract (Law 77 — the score is what the
    contract, tricks and vulnerability give, so one of them is wrong in the file) or a ruling
    or appeal that cannot be applied as written (Laws 82-93: the director's decision must be
    applied exactly as given, not guessed).

    Session-scope rows of the ``sessions_held`` events (held on this date) and event-scope rows
    of the ``events_held`` ones (held on this date or on any other date of the event: its
    totals include that session; default ``sessions_held``) get status ``held``: kept in the
    warehouse, never published, never Final. Superseded versions stay as they were. Every
    other event of the date keeps its own status: one club's mistake holds back that event
    only."""
    events_held = sessions_held if events_held is None else events_held
    if not (sessions_held or events_held) or rows.height == 0:
        return rows
    held = (
        (pl.col("scope") == "session") & pl.col("event_id").is_in(sessions_held)
        | (pl.col("scope") == "event") & pl.col("event_id").is_in(events_held)
    ) & (pl.col("status") != "superseded")
    return rows.with_columns(
        pl.when(held).then(pl.lit("held")).otherwise(pl.col("status")).alias("status")
    )


# ------------------------------------------------------------------------------ one date


#: The stages of one session date in the order their assets depend on each other
#: (``assets/results.py``, ``assets/standings.py``; the Definitions' test checks the order):
#: ``(asset, stage)``, each stage called as ``stage(inbox, warehouse, session_date)``.
DATE_STAGES: tuple[tuple[str, Callable[[Path, Warehouse, str], Summary]], ...] = (
    ("raw_results", lambda inbox, wh, day: build_raw(inbox, wh, day)),
    ("validated_results", lambda _inbox, wh, day: validate(wh, day)),
    ("ruling_log", lambda inbox, wh, day: build_ruling_log(inbox, wh, day)),
    ("rulings", lambda _inbox, wh, day: rulings(wh, day)),
    ("scored_results", lambda _inbox, wh, day: score(wh, day)),
    ("standings", lambda _inbox, wh, day: standings(wh, day)),
)


def run_date(inbox: Path, wh: Warehouse, session_date: str) -> list[tuple[str, pl.DataFrame]]:
    """Every stage of ``session_date`` in :data:`DATE_STAGES` order, each followed by the
    checks of its asset, without Dagster (``traveller validate`` runs the night's checks this
    way). As in a Dagster run, a blocking check that fails stops the date there: its later
    stages are not run. Returns the failed checks, ``(name, offending rows)``."""
    failed: list[tuple[str, pl.DataFrame]] = []
    for asset, stage in DATE_STAGES:
        stage(inbox, wh, session_date)
        stop = False
        for spec in check_specs.CHECKS:
            if spec.asset == asset and spec.partitioned:
                ok, bad = check(wh, spec.name, session_date)
                if not ok:
                    failed.append((spec.name, bad))
                    stop = stop or spec.blocking
        if stop:
            break
    return failed


# ------------------------------------------------------------------------------------ checks


def check(wh: Warehouse, name: str, session_date: str | None = None) -> tuple[bool, pl.DataFrame]:
    """Run the check ``name`` (:data:`pipelines.check_specs.CHECKS`) against the warehouse, for
    ``session_date`` when it is a check of one date: ``(passed, offending rows)``."""
    spec = check_specs.spec(name)
    if spec.partitioned and session_date is None:
        raise ValueError(f"check {name} is run for one session date")
    with wh.connect() as conn:
        rows = query(conn, spec.sql, _day(session_date) if spec.partitioned else None)
    bad = spec.failures(rows)
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


def audit(wh: Warehouse) -> Summary:
    """Recompute the marts ``penalty_stats``, ``appeal_stats``, ``director_audit`` and
    ``ruling_discrepancies`` from the whole warehouse (one transaction)."""
    from pipelines.audit.marts import build_marts, key_figures

    marts = build_marts(audit_inputs(wh))
    with wh.connect() as conn:
        written = write(conn, [Write(t, f) for t, f in marts.tables().items()])
    return Summary(written, key_figures(marts))


def report(
    wh: Warehouse,
    kind: str,
    out_dir: Path,
    date_from: str | None = None,
    date_to: str | None = None,
) -> Summary:
    """Render the ``audit`` or ``transparency`` report of the warehouse (optionally a window
    of session dates) into ``out_dir/<kind>.html``; figures include its ``path``."""
    from pipelines.reports.audit import write_report

    path, figures = write_report(
        kind, audit_inputs(wh, date_from, date_to), out_dir, date_from, date_to
    )
    return Summary({}, {"path": str(path), **figures})


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
