"""Run the whole pipeline for an inbox in-process, through Dagster, and report what happened.

``traveller run`` and the end-to-end tests use this: first the inbox assets
(unpartitioned), then every session date due (:mod:`pipelines.incremental`: new, changed,
withdrawn or awaiting a deadline; every date with ``recompute_all``), one range of dates at a
time, with their asset checks — the ``nightly_results`` job — then the audit (unpartitioned,
over the whole warehouse), the reconciliation and the publication, when something changed —
the ``audit_and_publication`` job — one group after the other, as a Dagster deployment's
sensor runs the second job once the runs of the first have finished.
A blocking check that fails (rows not accounted for, matchpoints not conserved) stops that
date before its standings; the other dates go on. A score that disagrees with its contract
(Law 77) or a ruling that cannot be applied holds back only its own event's standings (the
``holds`` table; standings kept with status ``held``, never published): every other event of
the date is published.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dagster as dg
import polars as pl

from pipelines import stages
from pipelines.check_specs import FAILED_DATES, HOLDING_CHECKS
from pipelines.definitions import defs
from pipelines.incremental import Plan
from pipelines.partition_tags import range_tags, whole_warehouse_tags
from pipelines.publish.files import refuse_exposed
from pipelines.reports import drawing
from pipelines.resources import InboxResource, PublicationResource, WarehouseResource
from pipelines.settings import publish_workers
from pipelines.warehouse import Warehouse

#: The asset groups of the whole-warehouse job (``audit_and_publication``), run after the dates.
WHOLE_WAREHOUSE_GROUPS = ("audit", "publish")

# Failed checks are an expected outcome (they hold standings back), so the console logger is
# kept quiet; an unexpected step failure is reported by RunFailed with Dagster's own message.
_QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


class RunFailed(RuntimeError):
    """A step failed for a reason other than a failed asset check."""


def _step_errors(result: dg.ExecuteInProcessResult) -> list[tuple[str, Any]]:
    """Each failed step of ``result`` other than a failed asset check, with its error."""
    return [
        (ev.step_key, ev.step_failure_data.error)
        for ev in result.all_events
        if ev.is_step_failure
        and ev.step_failure_data
        and ev.step_failure_data.error
        and "DagsterAssetCheckFailedError" not in ev.step_failure_data.error.cls_name
    ]


def _errors(result: dg.ExecuteInProcessResult) -> str:
    return "\n".join(f"{step}: {error.to_string()}" for step, error in _step_errors(result))


def _failed_because(what: str, result: dg.ExecuteInProcessResult) -> RunFailed:
    """The :class:`RunFailed` of a stage (``what``: "publishing") whose run failed: its first
    line names the step and the error that stopped it — the engine's own exception, the first
    below Dagster's wrappers (not what that one was raised from), by its class name and the
    first line of its message (the command line shows that line alone, without
    ``--debug``) —, the next lines every failed step's whole error."""
    failed = _step_errors(result)
    if not failed:
        return RunFailed(f"{what} failed (no step reported an error)")
    step, error = failed[0]
    while error.cls_name.startswith("Dagster") and getattr(error, "cause", None) is not None:
        error = error.cause
    return RunFailed(f"{what} failed: {step}: {_error_line(error)}\n{_errors(result)}")


def _error_line(error: Any) -> str:
    """``ClassName: first line of the message`` of a Dagster error record: its message, as
    Python formats an exception, names a class outside ``builtins`` with its module
    (``pipelines.publish.HelperFailed: ...``); the bare class name is kept."""
    lines = (error.message or "").strip().splitlines()
    head = lines[0] if lines else ""
    named, colon, rest = head.partition(": ")
    if colon and named.rsplit(".", 1)[-1] == error.cls_name:
        return f"{error.cls_name}: {rest}"
    if head == error.cls_name or head.rsplit(".", 1)[-1] == error.cls_name:
        return error.cls_name
    return f"{error.cls_name}: {head}" if head else error.cls_name


@dataclass
class FailedCheck:
    """A check that failed: which, for which date (None for the inbox), and its metadata."""

    check: str
    asset: str
    session_date: str | None
    metadata: dict[str, str]


@dataclass
class RunReport:
    """Outcome of :func:`run_inbox`."""

    dates: list[str]
    failed_checks: list[FailedCheck] = field(default_factory=list)
    summary: dict[str, int] = field(default_factory=dict)
    laws: dict[str, int] = field(default_factory=dict)
    rejections: pl.DataFrame = field(default_factory=pl.DataFrame)
    not_applied: pl.DataFrame = field(default_factory=pl.DataFrame)
    accounting: pl.DataFrame = field(default_factory=pl.DataFrame)
    disagreements: pl.DataFrame = field(default_factory=pl.DataFrame)
    warnings: pl.DataFrame = field(default_factory=pl.DataFrame)
    reconciliation: pl.DataFrame = field(default_factory=pl.DataFrame)  # one row per file
    holds: pl.DataFrame = field(default_factory=pl.DataFrame)  # events held, one row per reason
    #: event sessions per profile and why it was chosen (``events.profile_source``)
    profiles: pl.DataFrame = field(default_factory=pl.DataFrame)
    published: Path | None = None
    #: what this run recomputed and why (:class:`pipelines.incremental.Plan`)
    plan: Plan = field(default_factory=Plan)
    #: the whole-warehouse steps this run redid (``audit``, ``site``): only when what they
    #: are made from changed
    redone: list[str] = field(default_factory=list)
    #: wall-clock seconds per asset group (``inbox``, ``results``, ``audit``, ``publish``)
    seconds: dict[str, float] = field(default_factory=dict)
    #: seconds per step (asset or check), summed over the dates, from Dagster's step stats
    step_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def blocked_dates(self) -> list[str]:
        """Dates whose standings were all held back by a failed check (not one that holds
        only its events, :data:`HOLDING_CHECKS`)."""
        return sorted(
            {
                f.session_date
                for f in self.failed_checks
                if f.session_date and f.check not in HOLDING_CHECKS
            }
        )

    @property
    def held_events(self) -> list[tuple[str, str]]:
        """``(session date, event id)`` of every event whose standings are held back."""
        if self.holds.height == 0:
            return []
        return sorted(
            {(str(d), e) for d, e in self.holds.select("session_date", "event_id").rows()}
        )


def _instances() -> Callable[[str], dg.DagsterInstance]:
    """The instance each group's run is made in (by group): the instance of
    ``$DAGSTER_HOME`` (the runs show in ``dagster dev``); else an ephemeral instance for the
    inbox and the session dates, and another for the audit and the publication. An
    ephemeral instance is thrown away with the run; one that kept the dates' runs would cost
    each whole-warehouse asset a look at their history: Dagster reads the data versions of
    the inputs materialized before a run, and for an input of every session date (the
    audit's and the publication's) it lists every date since the first, some 13,000 keys, at
    about a seventh of a second each time (four times a run)."""
    if os.environ.get("DAGSTER_HOME"):
        kept = dg.DagsterInstance.get()
        return lambda _group: kept
    made: dict[bool, dg.DagsterInstance] = {}

    def instance_for(group: str) -> dg.DagsterInstance:
        whole = group in WHOLE_WAREHOUSE_GROUPS
        if whole not in made:
            made[whole] = dg.DagsterInstance.ephemeral()
        return made[whole]

    return instance_for


def _failed(result: dg.ExecuteInProcessResult) -> list[FailedCheck]:
    """The checks that failed in ``result``: one per session date a check of dates failed
    for (its ``failed_dates``), one for a check of the inbox or the audit."""
    out = []
    for ev in result.get_asset_check_evaluations():
        if ev.passed:
            continue
        metadata = {k: str(getattr(v, "value", v)) for k, v in ev.metadata.items()}
        listed = metadata.pop(FAILED_DATES, None)
        days = [d.strip() for d in listed.split(",") if d.strip()] if listed is not None else []
        for day in days or [None]:
            out.append(
                FailedCheck(
                    check=ev.check_name,
                    asset=ev.asset_key.to_user_string(),
                    session_date=day,
                    metadata=metadata,
                )
            )
    return out


def _draws_apart(due: list[str]) -> bool:
    """Whether a run recomputing the dates ``due`` starts the drawing process
    (:mod:`pipelines.reports.drawing`) once it has planned: when it recomputes something and
    a second processor is there for it (:func:`pipelines.settings.publish_workers`: ``1``
    makes the whole publication in the run's process). Its imports run while the dates are
    scored; the audit then has it draw the reports' charts; a publication made in one
    process has it draw the season dashboard beside the site's pages, one shared with
    helper processes stops it first (:func:`pipelines.publish.publish`: the helpers take the
    processors, and the drawing process's memory is not held beside theirs)."""
    return bool(due) and publish_workers() >= 2


@contextmanager
def _drawing_stopped() -> Iterator[None]:
    """Stop the drawing process as the run ends, however it ends."""
    try:
        yield
    finally:
        drawing.stop()


def run_inbox(
    inbox: Path,
    warehouse: Path,
    instance: dg.DagsterInstance | None = None,
    progress: Callable[[str], None] | None = None,
    publish_to: Path | None = None,
    recompute_all: bool = False,
) -> RunReport:
    """Materialise the assets for ``inbox`` into ``warehouse``; see the module docstring.

    Incremental (:mod:`pipelines.incremental`): after the inbox is read, only the session
    dates whose inputs are new, changed or withdrawn (and those awaiting a deadline) are
    recomputed; the audit and the publication only when what they are computed from changed
    (a date's outcome, the inbox's content: :func:`pipelines.stages.step_due`).
    ``recompute_all``: every date, the audit and the publication (``traveller run --all``).

    ``progress`` (if given) is told of each step as it starts; the stages tell
    :mod:`pipelines.progress` how far they are (files read, the steps of the session dates,
    pages), for a progress bar. Last, the publication asset
    writes the site, the exports and the season dashboard into ``publish_to`` (default: the
    warehouse's folder, e.g. ``data/site``, ``data/exports``, ``data/season.html``).
    """
    say = progress or (lambda _msg: None)
    publish_to = publish_to or Warehouse(warehouse).folder
    # the warehouse and its reports (the director audit) are private: never published
    refuse_exposed(publish_to, Warehouse(warehouse).folder)
    resources = {
        "warehouse": WarehouseResource(path=str(warehouse)),
        "inbox": InboxResource(path=str(inbox)),
        "publication": PublicationResource(path=str(publish_to)),
    }
    everything = [*defs.assets, *defs.asset_checks]  # type: ignore[misc]
    instance_for = (lambda _group: instance) if instance is not None else _instances()
    say("reading the inbox")

    seconds: dict[str, float] = {}
    steps: dict[str, float] = {}

    def run(group: str, days: tuple[str, str] | None = None) -> dg.ExecuteInProcessResult:
        """Materialise one asset group in-process (failed checks are reported, not raised),
        for a range of session dates (``(first, last)``: one run, one pass); its wall time
        and its steps' times are added to the report's timings. The audit and the
        publication are tagged as the whole-warehouse job's runs are (a PostgreSQL
        warehouse's run lock is then held alone, :mod:`pipelines.run_lock`)."""
        t = time.perf_counter()
        tags = range_tags(*days) if days else None
        if group in WHOLE_WAREHOUSE_GROUPS:
            tags = whole_warehouse_tags()
        made_in = instance_for(group)
        result = dg.materialize(
            everything,
            selection=dg.AssetSelection.groups(group),
            resources=resources,
            instance=made_in,
            raise_on_error=False,
            run_config=_QUIET,
            tags=tags,
        )
        seconds[group] = seconds.get(group, 0.0) + time.perf_counter() - t
        for st in made_in.get_run_step_stats(result.run_id):
            if st.start_time is not None and st.end_time is not None:
                steps[st.step_key] = steps.get(st.step_key, 0.0) + st.end_time - st.start_time
        return result

    wh = Warehouse(warehouse)
    # the file stays open from the first stage to the last (Warehouse.keep_open); the drawing
    # process, if started, ends with the run
    with wh.kept_open(), _drawing_stopped():
        files_before = stages.files_registered(wh)
        first = run("inbox")
        report = RunReport(
            dates=[], failed_checks=_failed(first), seconds=seconds, step_seconds=steps
        )
        if not first.success and _errors(first):
            raise _failed_because("reading the inbox", first)
        report.plan = stages.plan(wh, force=recompute_all, files_before=files_before)
        report.dates = wh.query("read/dates")["session_date"].to_list()
        say(f"recompute: {report.plan.summary()}")
        due = report.plan.dates
        # the drawing process imports its code while the dates are scored (yielding to the
        # run's threads: drawing._yield), ready when the audit hands it the reports' charts
        if _draws_apart(due):
            drawing.start()
        spans = stages.due_ranges(wh, report.plan)
        for i, (start, end) in enumerate(spans, start=1):
            these = [d for d in due if start <= d <= end]
            span = start if start == end else f"{start} .. {end}"
            why = ", ".join(sorted({r for d in these for r in report.plan.reasons[d]}))
            say(
                f"[{i}/{len(spans)}] {len(these)} session date(s) {span} ({why}): "
                "validate, score, rank in one pass"
            )
            result = run("results", (start, end))
            if not result.success and _errors(result):
                raise _failed_because(f"the run for {span}", result)
            # a date stopped by a blocking check has no standings and is not done: every run
            # tries it again and reports it
            report.failed_checks.extend(_failed(result))
        # the audit and the site are redone only when the results or the inbox's content changed
        # (a date recomputed with the same outcome changes neither)
        if recompute_all or stages.step_due(wh, "audit"):
            say("audit: penalty and appeal statistics, director audit, reports")
            audited = run("audit")
            if not audited.success and _errors(audited):
                raise _failed_because("the audit", audited)
            report.failed_checks.extend(_failed(audited))
            stages.mark_step(wh, "audit")
            report.redone.append("audit")
        if recompute_all or stages.step_due(wh, "publish"):
            say("publishing: results site, exports, season dashboard")
            published = run("publish")
            if not published.success:
                raise _failed_because("publishing", published)
            stages.mark_step(wh, "publish")
            report.redone.append("site")
        report.published = publish_to
        # Law 77 lines of the dates stopped before their standings (the others are in ``holds``)
        if report.blocked_dates:
            report.disagreements = wh.query(
                "checks/score_disagreements", {"dates": report.blocked_dates}
            )
        report.summary = wh.query("reports/run_summary").to_dicts()[0]
        report.laws = wh.query("reports/laws_summary").to_dicts()[0]
        report.not_applied = wh.query("reports/not_applied")
        report.rejections = wh.query("reports/rejections")
        report.warnings = wh.query("reports/warnings")
        report.accounting = wh.query("reports/file_accounting")
        report.reconciliation = wh.query("reports/reconciliation_files")
        report.holds = wh.query("reports/holds", {"dates": report.dates})
        report.profiles = wh.query("reports/profiles")
        return report
