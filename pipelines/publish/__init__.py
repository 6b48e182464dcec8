"""Publication: the results site, the federation exports and the season dashboard.

:func:`publish` writes, from a warehouse, into one folder::

    <out>/site/               the results site (pipelines.publish.site)
    <out>/exports/usebio/     USEBIO 1.2 XML per event (pipelines.publish.usebio_writer)
    <out>/exports/pbn/        PBN with ScoreTable/TotalScoreTable per pairs session (pbn_writer)
    <out>/exports/pbn-teams/  PBN of each team session, a record per table as RealBridge
                              writes it (teams_pbn)
    <out>/exports/parquet/    standings and marts, partitioned by date (parquet)
    <out>/exports/events.csv  the events' details, so another Traveller re-imports the
                              exports under the same regulations (profile, movement, Laws)
    <out>/season.html         the season dashboard (pipelines.reports.season)

Only official standings are published: a date held back by a failed check has none, so it
does not appear. Player membership numbers are never read. The public reads ``<out>/site``
and ``<out>/exports``: a warehouse kept in one of them (with its ``reports/``, where the
director audit is written) would be published with them, so publication refuses it
(:func:`pipelines.publish.files.exposed`); the director audit's marts are never exported.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from pipelines import progress
from pipelines.batching import batches
from pipelines.formats.model import EVENT_COLUMNS
from pipelines.publish.common import export_stems
from pipelines.publish.data import (
    PER_EVENT,
    Published,
    event_keys,
    event_sizes,
    load,
    load_events,
)
from pipelines.publish.files import Manifest, prune, put, refuse_exposed
from pipelines.publish.parquet import write_parquet
from pipelines.publish.pbn_writer import pbn_name, write_pbn
from pipelines.publish.site import Site
from pipelines.publish.teams_pbn import write_teams_pbn
from pipelines.publish.usebio_writer import exportable, usebio_name, write_usebio
from pipelines.settings import publish_results, publish_workers
from pipelines.warehouse import Warehouse, query

#: Columns of the exported ``events.csv``: the inbox's own events file format (the event
#: columns a reader gives, less the lineage and what the exported results say themselves:
#: ``expected_results``, ``boards``, ``pairs``).
EVENT_CSV_COLUMNS: tuple[str, ...] = tuple(
    c
    for c in EVENT_COLUMNS
    if c not in ("file", "location", "expected_results", "boards", "pairs", "source_event_id")
)


@dataclass
class PublishSummary:
    """What :func:`publish` wrote."""

    out: Path
    pages: int = 0
    #: pages written because their content changed (the others were left as they were)
    pages_changed: int = 0
    #: pages of an earlier publication no longer published, removed
    pages_removed: int = 0
    #: sessions whose pages were rendered, and those whose inputs had not changed since the
    #: last publication (their pages kept as they were, not rendered again)
    sessions_rendered: int = 0
    sessions_kept: int = 0
    usebio: list[Path] = field(default_factory=list)
    pbn: list[Path] = field(default_factory=list)
    pbn_teams: list[Path] = field(default_factory=list)
    parquet: dict[str, int] = field(default_factory=dict)
    dashboard: Path | None = None
    sessions: int = 0
    #: events kept as the last publication made them (nothing read, rendered or written)
    events_kept: int = 0


def write_events_csv(sessions: pl.DataFrame, path: Path) -> Path:
    """The published event sessions as an ``events.csv`` Traveller's inbox reads."""
    cols = [c for c in EVENT_CSV_COLUMNS if c in sessions.columns]
    put(path, sessions.select(cols).write_csv().encode("utf-8"))  # only when it changed
    return path


def publish(warehouse: Path | str, out: Path | str, dashboard: bool = True) -> PublishSummary:
    """Write the site, the exports and (unless ``dashboard`` is false) the season dashboard.

    Publishing costs what changed: an event whose pages and files are made from what they
    were made from at the last publication (:func:`~pipelines.publish.data.event_keys`, with
    its folder) and are all still there is kept as it is — its rows are not read, its pages
    not rendered, its files not written; the others are made again, each page and file
    written only when its bytes changed, and what is no longer published removed."""
    out = Path(out)
    refuse_exposed(out, Warehouse(warehouse).folder)
    keys = event_keys(warehouse)
    site_dir = out / "site"
    sessions = _sessions(warehouse)
    folders = _folders(sessions)
    keys = {e: f"{k}:{folders.get(e, '')}" for e, k in keys.items()}
    # the record of the last publication and the site's files, each read once: what is kept
    # is judged on them, and what is no longer published is pruned from the same listing
    before, there, sealed = Site.recorded_and_listed(site_dir)
    kept = Site.keepable(site_dir, keys, before, there, sealed is not None)
    exports = out / "exports"
    folders_out = {k: exports / k for k in ("usebio", "pbn", "pbn-teams")}
    made = {k: Manifest(f) for k, f in folders_out.items()}
    stems = export_stems(folders)  # two ids of one form: neither file written over the other
    # an event whose export file is gone is made again, never kept (its rows are not read
    # when it is kept: the file would come back without its boards)
    kept -= lost_exports(sessions, kept, folders_out, made, stems)
    todo = [e for e in folders if e not in kept]
    sizes = event_sizes(warehouse)
    shares = event_shares(todo, sizes, publish_workers())
    if len(shares) > 1:
        # the helper processes take the processors: the drawing process, if the run started
        # it (for the audit reports' charts), is stopped before they start, its memory not
        # held beside theirs; the season dashboard is then drawn here
        from pipelines.reports import drawing

        drawing.stop()
    # each process holds its share's batches (a helper, its share's standings too)
    budget = max(1, publish_results() // len(shares))
    # the helpers read the warehouse beside this process: a DuckDB file this run keeps open
    # for writing is closed meanwhile (every read here opens it read-only)
    readers = Warehouse(warehouse).open_to_readers() if len(shares) > 1 else nullcontext()
    # the season mart, read once: the Parquet export and the season dashboard both show it;
    # a publication made in one process has the dashboard drawn beside it (drawing)
    season, dashboard_job = _season(warehouse, out, dashboard, alone=len(shares) == 1)
    with readers:
        summary, site, data, written = _make_shares(
            warehouse, out, site_dir, shares, sizes, budget, keys, kept, before, there,
            folders_out, made, stems,
        )  # fmt: skip
    site.finish()
    summary.pages = site.page_total
    site.seal(sealed)
    summary.pages_changed, summary.pages_removed = len(site.changed), len(site.removed)
    summary.sessions_rendered, summary.sessions_kept = site.rendered, site.kept
    for name, folder in folders_out.items():
        made[name].save()
        # each export file was written only if it changed; those of sessions withdrawn go
        prune(folder, written[name])
    summary.usebio, summary.pbn, summary.pbn_teams = (
        sorted(written["usebio"]),
        sorted(written["pbn"]),
        sorted(written["pbn-teams"]),
    )
    summary.parquet = write_parquet(warehouse, exports / "parquet", season)
    # the events of the exported files only: an event no file exports (an individual) would
    # be an events.csv row without its results when the exports are read again
    exported = pl.concat(
        [
            exportable(data.sessions).select("event_id"),
            data.sessions.filter(pl.col("form") == "teams").select("event_id"),
        ]
    )
    write_events_csv(
        data.sessions.join(exported.unique(), on="event_id", how="semi", maintain_order="left"),
        exports / "events.csv",
    )
    if dashboard_job is not None:
        from pipelines.reports import drawing

        job, args = dashboard_job
        summary.dashboard = drawing.outcome(job, drawing.season_page, *args)
    return summary


def _season(
    warehouse: Path | str, out: Path, dashboard: bool, alone: bool
) -> tuple[pl.DataFrame, tuple[Future | None, tuple] | None]:
    """The season mart (``reports/season_sessions``) and, when ``dashboard``, the season
    dashboard's job: its frames and, for a publication made in one process (``alone``) in a
    run that started the drawing process (:mod:`pipelines.reports.drawing`), the future of
    the page drawn there while the site is made here, else ``None`` (drawn here)."""
    with Warehouse(warehouse).connect(read_only=True) as conn:
        season = query(conn, "reports/season_sessions")
        # the frames of pipelines.reports.season.season_frames, read here: the dashboard's
        # module (matplotlib) is imported only where the page is drawn
        rejections = query(conn, "reports/season_rejections") if dashboard else None
    if rejections is None:
        return season, None
    from pipelines.reports import drawing

    args = (season, rejections, out / "season.html")
    return season, (drawing.submit(drawing.season_page, *args) if alone else None, args)


def _make_shares(
    warehouse: Path | str,
    out: Path,
    site_dir: Path,
    shares: list[list[str]],
    sizes: dict[str, int],
    budget: int,
    keys: dict[str, str],
    kept: set[str],
    before: dict,
    there: set[str],
    folders_out: dict[str, Path],
    made: dict[str, Manifest],
    stems: dict[str, str],
) -> tuple[PublishSummary, Site, Published, dict[str, list[Path]]]:
    """The pages and export files of the events of ``shares`` (:func:`event_shares`): the
    first made here, each other by a helper process, taken here; the kept events keep
    theirs. The summary so far, the site (to finish), the snapshot read and the export files
    written."""
    # this process's peak so far, its count then started again: the peak it reaches while
    # its helpers run is read on its own and added to theirs (SHARED_PEAKS)
    peak_before = _peak_window() if shares[1:] else None
    helpers = _start_helpers(
        shares[1:],
        {
            "warehouse": warehouse,
            "site": site_dir,
            "exports": folders_out,
            "sizes": sizes,
            "budget": budget,
            "keys": keys,
            "before": before,
            "there": there,
            "stems": stems,
        },
    )
    tally = _Tally(sum(len(share) for share in shares), helpers)
    try:
        batches = event_batches(shares[0], sizes, budget)
        data = load(warehouse, batches[0] if batches else [])
        summary = PublishSummary(out=out, sessions=data.sessions.height, events_kept=len(kept))
        site = Site(data, site_dir, keys=keys, kept=kept, before=before, there=there)
        site.start()
        of = pl.col("event_id")
        # the events kept as they are keep their files; the others are made batch by batch (at
        # most half $TRAVELLER_RANGE_RESULTS results read at once: a first load of years is bounded)
        old = data.sessions.filter(of.is_in(sorted(kept)))
        written = {
            "usebio": write_usebio(old, data.standings, data.results.clear(), folders_out["usebio"],
                                   kept, made["usebio"], stems),
            "pbn": write_pbn(old, data.standings, data.results.clear(), folders_out["pbn"], kept,
                             made["pbn"], stems),
            "pbn-teams": write_teams_pbn(old, data.results.clear(), folders_out["pbn-teams"], kept,
                                         made["pbn-teams"], stems),
        }  # fmt: skip
        data = _make_events(
            site, data, batches, warehouse, folders_out, made, stems, written, tally.one
        )
        parts = tally.wait()
        if peak_before is not None:
            from pipelines.bench import peak_rss_mb

            peaks = [part["peak_mb"] for part in parts]
            SHARED_PEAKS.append(SharedPeak(peak_before, peak_rss_mb(), peaks))
        for part in parts:  # what the helper processes made, as if made here
            site.take(part["site"])
            for kind, files in part["written"].items():
                written[kind] += [Path(f) for f in files]
                made[kind].now.update(part["made"][kind])
            HELPER_PEAKS.append(part["peak_mb"])
    except BaseException:
        # no helper goes on writing into the folders (nor reading the warehouse) once the
        # publication has failed: the next one (or the run's reopening of its warehouse file,
        # Warehouse.open_to_readers) would find it still there
        if helpers is not None:
            helpers.stop()
        raise
    return summary, site, data, written


def _make_events(
    site: Site,
    data: Published,
    batches: list[list[str]],
    warehouse: Path | str,
    folders_out: dict[str, Path],
    made: dict[str, Manifest],
    stems: dict[str, str],
    written: dict[str, list[Path]],
    progress: Callable[[str], None] | None = None,
) -> Published:
    """Make the pages and export files of the events of ``batches``, batch by batch (the
    first batch's rows are ``data``'s, the others read in turn); the export files written
    are added to ``written``, what they were made from to ``made``; ``progress`` is told of
    each event whose pages are made. ``data``, without the first batch's rows once the next
    is read (its sessions and standings are kept)."""
    of = pl.col("event_id")
    for i, events in enumerate(batches):
        batch = data if i == 0 else load_events(warehouse, events)
        site.render_events(events, batch, progress)
        these = data.sessions.filter(of.is_in(events))
        written["usebio"] += write_usebio(
            these,
            data.standings,
            batch.results,
            folders_out["usebio"],
            made=made["usebio"],
            stems=stems,
        )
        written["pbn"] += write_pbn(
            these,
            data.standings,
            batch.results,
            folders_out["pbn"],
            made=made["pbn"],
            stems=stems,
        )
        written["pbn-teams"] += write_teams_pbn(
            these, batch.results, folders_out["pbn-teams"], made=made["pbn-teams"], stems=stems
        )
        if i == 0 and len(batches) > 1:  # the first batch's rows go while the others are made
            data = replace(
                data,
                **{name: getattr(data, name).clear() for name in PER_EVENT},
                extra={"players": data.extra.get("players")},
            )
        del batch
    return data


#: The least number of scored results to make again for a publication to share its events
#: with helper processes: starting one (Python, the libraries, the season's standings read
#: again) costs about what two or three thousand results' pages cost, so a night of one date
#: is made in one process, a first load or a season made again in several.
PARALLEL_FROM_RESULTS = 40_000

#: The peak memory (MB, ``VmHWM``) of each helper process of the publications of this
#: process, for the benchmark (which counts a run's memory with its helpers').
HELPER_PEAKS: list[float] = []


@dataclass(frozen=True)
class SharedPeak:
    """The memory of one publication shared with helper processes (MB, ``VmHWM``):
    ``before``, this process's peak before its helpers were started; ``during``, its own
    peak while they ran (its count started again as they were, :func:`~pipelines.bench.
    reset_peak_rss`; where that cannot be done, its peak since it began, never less);
    ``helpers``, each helper's own peak."""

    before: float
    during: float
    helpers: list[float]

    @property
    def together(self) -> float:
        """At most what this process and its helpers held at once while they ran: each
        one's peak added. The peaks may fall at different moments, so the memory the
        machine held was this or less, never more."""
        return self.during + sum(self.helpers)


#: Each shared publication of this process (:class:`SharedPeak`), for the benchmark, which
#: counts a run's memory with its helpers' held at the same time.
SHARED_PEAKS: list[SharedPeak] = []


def _peak_window() -> float:
    """This process's peak memory so far (MB), its count then started again from its present
    size (:func:`~pipelines.bench.reset_peak_rss`): the peak read next is that of what
    follows."""
    from pipelines.bench import peak_rss_mb, reset_peak_rss

    before = peak_rss_mb()
    reset_peak_rss()
    return before


def event_shares(events: list[str], sizes: dict[str, int], workers: int) -> list[list[str]]:
    """``events`` split into ``workers`` shares of about equal numbers of scored results
    (``sizes``), each in their order, none empty: one for this process, one for each helper
    process (:data:`PARALLEL_FROM_RESULTS`). Fewer than that many results: one share.

    >>> event_shares(["a", "b", "c", "d"], {"a": 30_000, "b": 10_000, "c": 20_000, "d": 20_000}, 2)
    [['a', 'b'], ['c', 'd']]
    >>> event_shares(["a", "b"], {"a": 10, "b": 10}, 2)
    [['a', 'b']]
    """
    total = sum(sizes.get(e, 0) for e in events)
    if workers < 2 or total < PARALLEL_FROM_RESULTS or len(events) < 2:
        return [list(events)]
    shares: list[list[str]] = [[]]
    done = 0
    for e in events:
        if done >= total * len(shares) / workers and shares[-1] and len(shares) < workers:
            shares.append([])
        shares[-1].append(e)
        done += sizes.get(e, 0)
    return shares


class HelperFailed(RuntimeError):
    """A helper process of a shared publication failed (its traceback in the message)."""


class _Helpers:
    """The helper processes of a shared publication (a fresh Python each, ``spawn``: Polars'
    and DuckDB's threads are not forked), and the one queue they tell the publication on:
    ``("event", k)`` for each event whose pages helper ``k`` made, then ``("done", k,
    the file of what it made)`` or ``("failed", k, its traceback, the first line of its
    exception)``.

    What a helper made goes through a file of :attr:`folder`, not the queue: a message larger
    than a pipe's atomic write, cut by the helper's death (the kernel's out-of-memory killer
    at its peak), would leave the publication waiting for the rest of it for ever."""

    def __init__(self, shares: list[list[str]], job: dict) -> None:
        import multiprocessing
        import tempfile

        ctx = multiprocessing.get_context("spawn")
        self.queue = ctx.Queue()
        self.folder = Path(tempfile.mkdtemp(prefix="traveller-helpers-"))
        self.processes = [
            # daemonic: a run that dies takes its helpers with it
            ctx.Process(target=_helper, args=(k, _made_apart, {**job, "events": share},
                                              self.queue, str(self.folder)), daemon=True)
            for k, share in enumerate(shares)
        ]  # fmt: skip
        self.parts: dict[int, dict] = {}
        try:
            for process in self.processes:
                process.start()
        except BaseException:  # none left running when one could not be started
            self.stop()
            raise

    def poll(self, timeout: float | None = None) -> int:
        """The events the helpers made since the last poll (waiting up to ``timeout`` seconds
        for the first message); :class:`HelperFailed` when one failed, or ended without
        saying what it made."""
        import queue as queues

        made = 0
        block = timeout is not None
        while True:
            try:
                message = self.queue.get(block, timeout) if block else self.queue.get_nowait()
            except queues.Empty:
                break
            block = False
            kind, k = message[0], message[1]
            if kind == "event":
                made += 1
            elif kind == "done":
                self.parts[k] = _taken(Path(message[2]))
            else:
                raise HelperFailed(
                    f"a publication helper process failed: {message[3]}\n{message[2]}"
                )
        for k, process in enumerate(self.processes):
            if k not in self.parts and not process.is_alive() and self.queue.empty():
                raise HelperFailed(
                    f"a publication helper process ended (exit code {process.exitcode}) "
                    "before it had made its share"
                )
        return made

    def finished(self) -> bool:
        return len(self.parts) == len(self.processes)

    def stop(self) -> None:
        """End the helpers of a publication that failed, and wait until they have: what they
        were making is left unfinished (a page is replaced whole or not at all, and the next
        publication makes their events again: their records were not saved)."""
        started = [p for p in self.processes if p.pid is not None]
        for process in started:
            if process.is_alive():
                process.terminate()
        for process in started:
            process.join()
        self.queue.close()
        self.queue.cancel_join_thread()
        self.remove()

    def remove(self) -> None:
        """Remove the folder of what the helpers made."""
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


def _taken(path: Path) -> dict:
    """What a helper made, from the file it wrote (:func:`_helper`), the file removed."""
    import pickle

    with path.open("rb") as f:
        part = pickle.load(f)
    path.unlink()
    return part


def _helper(k: int, make, job: dict, queue, folder: str) -> None:
    """A helper process's life: ``make`` its share (:func:`_made_apart`), telling ``queue``
    of each event made, then the file in ``folder`` of what it made — or why it failed.
    Every message is a few bytes: one whole write to the queue's pipe, which the helper's
    death cannot cut."""
    import os
    import pickle
    import traceback

    from pipelines import heap

    global _TOLD
    _TOLD = lambda _event: queue.put(("event", k))  # noqa: E731
    heap.settle()  # its libraries imported (:mod:`pipelines.heap`)
    try:
        part = make(job)
        path = Path(folder) / f"part-{k}.pickle"
        with open(f"{path}.tmp", "wb") as f:
            pickle.dump(part, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(f"{path}.tmp", path)
    except BaseException as exc:
        # the exception's own first line too: the traceback's last line may be the end of a
        # message of several lines, or a note
        said = "".join(traceback.format_exception_only(exc)).strip().splitlines()
        queue.put(("failed", k, traceback.format_exc(), said[0] if said else type(exc).__name__))
        raise SystemExit(1) from None
    queue.put(("done", k, str(path)))
    heap.settle()  # the publication joins this process: its end does not walk its heap


class _Tally:
    """The publication's progress (:mod:`pipelines.progress`, task ``publishing events``):
    the events whose pages are made, here and in the helper processes (:class:`_Helpers`,
    whose failure is raised here as soon as it is known)."""

    TASK = "publishing events"

    def __init__(self, total: int, helpers: _Helpers | None) -> None:
        self.total, self.done, self.helpers = total, 0, helpers

    def one(self, event_id: str = "") -> None:
        """An event made here (``event_id``); the helpers' events made meanwhile counted."""
        self.done += 1 + (self.helpers.poll() if self.helpers is not None else 0)
        progress.tick(self.TASK, self.done, self.total, event_id)

    def wait(self) -> list[dict]:
        """Wait for the helpers, counting their events as they are made; what each made."""
        if self.helpers is None:
            return []
        while not self.helpers.finished():
            more = self.helpers.poll(timeout=0.5)
            if more:
                self.done += more
                progress.tick(self.TASK, self.done, self.total)
        for process in self.helpers.processes:
            process.join()
        self.helpers.remove()
        return [self.helpers.parts[k] for k in sorted(self.helpers.parts)]


#: In a helper process: tells the publication of each event made (set as it starts).
_TOLD = None


def _start_helpers(shares: list[list[str]], job: dict) -> _Helpers | None:
    """A helper process for each share (:class:`_Helpers`), started now; ``None``: none."""
    return _Helpers(shares, job) if shares else None


def _made_apart(job: dict) -> dict:
    """In a helper process: the pages and export files of ``job["events"]`` (none of them
    kept), made exactly as the publication makes them (:func:`_make_events`), into the same
    folders; what was made, as plain data for the publication to take (:meth:`Site.take`)."""
    from pipelines.bench import peak_rss_mb

    batches = event_batches(job["events"], job["sizes"], job["budget"])
    data = load(job["warehouse"], batches[0], share=job["events"])
    site = Site(data, job["site"], keys=job["keys"], before=job["before"], there=job["there"])
    site.prepare()
    made = {kind: Manifest(folder) for kind, folder in job["exports"].items()}
    written: dict[str, list[Path]] = {kind: [] for kind in job["exports"]}
    _make_events(
        site, data, batches, job["warehouse"], job["exports"], made, job["stems"], written, _TOLD
    )
    return {
        "site": site.made_apart(),
        "written": {kind: [os.fspath(p) for p in files] for kind, files in written.items()},
        "made": {kind: m.now for kind, m in made.items()},
        "peak_mb": peak_rss_mb(),
    }


def event_batches(events: list[str], sizes: dict[str, int], budget: int) -> list[list[str]]:
    """``events`` in batches of at most ``budget`` scored results (``sizes``; an event alone
    may hold more), in their order (:func:`pipelines.batching.batches`).

    >>> event_batches(["a", "b", "c"], {"a": 60, "b": 50, "c": 70}, 120)
    [['a', 'b'], ['c']]
    """
    return batches(events, lambda event_id: sizes.get(event_id, 0), budget)


def lost_exports(
    sessions: pl.DataFrame,
    kept: set[str],
    folders: dict[str, Path],
    made: dict[str, Manifest],
    stems: dict[str, str],
) -> set[str]:
    """The events of ``kept`` one of whose export files is not there, or not in its folder's
    record (``made``): the USEBIO file of an event it exports, the PBN file of each session
    it exports, the team PBN file of each team session (``folders`` by kind, ``stems`` the
    events' file names)."""
    mine = sessions.filter(pl.col("event_id").is_in(sorted(kept)))
    wanted: list[tuple[str, str, str]] = []
    ok = exportable(mine)
    for event_id in ok["event_id"].unique().to_list():
        wanted.append((event_id, "usebio", usebio_name(event_id, stems)))
    for event_id, n in ok.select("event_id", "session").iter_rows():
        wanted.append((event_id, "pbn", pbn_name(event_id, n, stems)))
    teams = mine.filter(pl.col("form") == "teams")
    for event_id, n in teams.select("event_id", "session").iter_rows():
        wanted.append((event_id, "pbn-teams", pbn_name(event_id, n, stems)))
    there = {  # one listing of each folder, not a test of each file
        kind: set(os.listdir(folder)) if folder.is_dir() else set()
        for kind, folder in folders.items()
    }
    return {
        event_id
        for event_id, kind, name in wanted
        if name not in made[kind].before or name not in there[kind]
    }


def _sessions(warehouse: Path | str) -> pl.DataFrame:
    """The published event sessions (``sql/publish/sessions``)."""
    from pipelines.warehouse import query

    with Warehouse(warehouse).connect(read_only=True) as conn:
        return query(conn, "publish/sessions")


def _folders(sessions: pl.DataFrame) -> dict[str, str]:
    """Each published event's folder (:func:`~pipelines.publish.site.event_folders`) from the
    published ``sessions``: part of what its pages are made from (an event known only by a
    GUID may take another's title)."""
    from pipelines.publish.site import event_folders, readable

    return event_folders([readable(s) for s in sessions.to_dicts()])
