"""A large publication is made by several processes (a share of the events each, the same
folders): it must give, byte for byte, what one process gives — the pages, the exports, the
records of what each was made from — and be kept whole by the next publication."""

from __future__ import annotations

from pathlib import Path

import pytest

import pipelines.publish as publish_mod
from pipelines.publish import event_shares, publish
from tests.publish.conftest import Sample


def _files(out: Path) -> dict[str, bytes]:
    """Every file of a publication (its records in ``.manifests`` included), by path."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        # a folder's seal holds its folders' times on the disk, not what was published
        if p.is_file() and not p.name.endswith(".seal.json")
    }


@pytest.fixture
def parallel(monkeypatch):
    """Publications of any size shared among three processes, at the sample's clock (the
    season dashboard says when it was made: two publications a minute apart differ there)."""
    from tests.publish.conftest import NOW

    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    monkeypatch.setattr(publish_mod, "PARALLEL_FROM_RESULTS", 0)
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "3")


def test_events_are_shared_by_their_results_in_order():
    sizes = {"a": 5, "b": 5, "c": 5, "d": 5, "e": 80}
    assert event_shares(list("abcde"), sizes, 1) == [list("abcde")]
    # never an empty share, each in the events' order, every event once
    for workers in (2, 3, 4, 9):
        shares = event_shares(list("abcde"), {**sizes, "e": 80_000}, workers)
        assert [e for share in shares for e in share] == list("abcde")
        assert all(shares) and len(shares) <= workers


def test_a_publication_shared_among_processes_is_the_one_a_process_makes(
    sample: Sample, tmp_path: Path, monkeypatch, parallel
):
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "1")
    one = publish(sample.warehouse, tmp_path / "one")
    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", "3")
    peaks = len(publish_mod.HELPER_PEAKS)
    shared = publish(sample.warehouse, tmp_path / "shared")
    assert len(publish_mod.HELPER_PEAKS) == peaks + 2  # two helpers beside the run's process
    # its memory: the run's peak before and while its helpers ran, and theirs, all counted
    window = publish_mod.SHARED_PEAKS[-1]
    assert window.helpers == publish_mod.HELPER_PEAKS[-2:] and min(window.helpers) > 0
    assert window.before > 0 and window.during > 0
    assert window.together == window.during + sum(window.helpers)
    assert _files(tmp_path / "shared") == _files(tmp_path / "one")
    assert (shared.pages, shared.sessions_rendered, shared.pages_changed) == (
        one.pages,
        one.sessions_rendered,
        one.pages_changed,
    )
    assert sorted(p.name for p in shared.usebio) == sorted(p.name for p in one.usebio)
    assert sorted(p.name for p in shared.pbn) == sorted(p.name for p in one.pbn)
    # the next publication keeps every event as it is: nothing rendered, nothing written
    again = publish(sample.warehouse, tmp_path / "shared")
    assert (again.sessions_rendered, again.pages_changed, again.pages_removed) == (0, 0, 0)
    assert _files(tmp_path / "shared") == _files(tmp_path / "one")


def test_pages_lost_since_a_shared_publication_are_made_again_by_the_helpers(
    sample: Sample, tmp_path: Path, parallel
):
    out = tmp_path / "out"
    publish(sample.warehouse, out)
    whole = _files(out)
    cards = sorted((out / "site" / "events").rglob("card-*.html"))
    for page in cards[:: max(1, len(cards) // 5)]:
        page.unlink()
    (
        out
        / "exports"
        / "usebio"
        / sorted(p.name for p in (out / "exports" / "usebio").iterdir())[0]
    ).unlink()
    again = publish(sample.warehouse, out)
    assert again.sessions_rendered > 0
    assert _files(out) == whole


def test_a_run_shares_its_publication_while_it_keeps_the_warehouse_open(
    sample: Sample, tmp_path: Path, monkeypatch, parallel
):
    """``traveller run`` keeps its DuckDB file open for writing from its first stage to its
    last, which no other process may then read: the publication lets its helpers read it,
    and the run publishes what the sample's own run (one process) published."""
    import shutil

    from pipelines.runner import run_inbox
    from tests.publish.conftest import NOW

    monkeypatch.setenv("TRAVELLER_NOW", NOW)
    inbox = tmp_path / "inbox"
    shutil.copytree(sample.inbox, inbox)
    peaks = len(publish_mod.HELPER_PEAKS)
    report = run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert report.failed_checks == []
    assert len(publish_mod.HELPER_PEAKS) == peaks + 2
    assert _files(tmp_path / "out") == _files(sample.out)


@pytest.mark.parametrize("workers", ["1", "3"])
def test_the_publication_tells_its_progress_event_by_event(
    sample: Sample, tmp_path: Path, monkeypatch, parallel, workers: str
):
    """The progress bar of ``traveller run`` counts the events whose pages are made — those
    the helper processes make too — up to all of them, and the player pages made."""
    from pipelines import progress

    monkeypatch.setenv("TRAVELLER_PUBLISH_WORKERS", workers)
    ticks: list[tuple[str, int, int]] = []
    with progress.listening(lambda task, done, total, _note: ticks.append((task, done, total))):
        publish(sample.warehouse, tmp_path / "out")
    events = [(done, total) for task, done, total in ticks if task == "publishing events"]
    made = len(list((tmp_path / "out" / "site" / "events").iterdir()))
    assert events and events[-1] == (made, made)
    assert [d for d, _ in events] == sorted(d for d, _ in events)
    players = [(done, total) for task, done, total in ticks if task == "player pages"]
    pages = len(list((tmp_path / "out" / "site" / "players").glob("*.html"))) - 1  # the index
    assert players and players[-1] == (pages, pages)


def _helper_that_fails_or_reads_slowly(job: dict) -> dict:
    """A helper (run in a spawned process): the first share's fails at once; the others hold
    the warehouse open for reading for a long while before making their share."""
    import time

    from pipelines.warehouse import Warehouse

    if job["events"] == job["first_helper_share"]:
        raise RuntimeError("a helper failed")
    with Warehouse(job["warehouse"]).connect(read_only=True):
        time.sleep(30)
    return publish_mod._made_apart(job)


def _new_children(before: set) -> list:
    import multiprocessing

    return [p for p in multiprocessing.active_children() if p.pid not in before]


def test_a_publication_that_fails_leaves_no_helper_writing(
    sample: Sample, tmp_path: Path, monkeypatch, parallel
):
    """The run's own share fails: publication stops, and so do its helpers (they wrote into
    the folders after the error was raised, and read the warehouse meanwhile)."""
    import multiprocessing
    import time

    from pipelines.publish.site import Site

    def broken(self, events, batch, made=None):
        raise RuntimeError("the run's own share failed")

    before = {p.pid for p in multiprocessing.active_children()}
    monkeypatch.setattr(Site, "render_events", broken)
    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="own share failed"):
        publish(sample.warehouse, out)
    assert _new_children(before) == []
    events = out / "site" / "events"
    time.sleep(3)
    assert not events.exists() or not any(p.is_file() for p in events.rglob("*"))


def test_a_helper_that_fails_stops_the_others_and_the_run_keeps_its_warehouse(
    sample: Sample, tmp_path: Path, monkeypatch, parallel
):
    """A helper raises while another still reads the warehouse a run keeps open: the
    publication raises the helper's error (not DuckDB's lock error from opening the file
    again beside the other helper), the other helper is stopped, and the file is kept open
    again for the run's next stages."""
    import multiprocessing
    import shutil
    import time

    from pipelines import warehouse as warehouse_mod
    from pipelines.warehouse import Warehouse

    path = tmp_path / "w.duckdb"
    shutil.copy(sample.warehouse, path)
    real = publish_mod._start_helpers

    def start(shares, job):
        return real(shares, {**job, "first_helper_share": shares[0]})

    monkeypatch.setattr(publish_mod, "_start_helpers", start)
    monkeypatch.setattr(publish_mod, "_made_apart", _helper_that_fails_or_reads_slowly)
    before = {p.pid for p in multiprocessing.active_children()}
    wh = Warehouse(path)
    wh.keep_open()
    try:
        t = time.monotonic()
        with pytest.raises(RuntimeError, match="a helper failed") as failed:
            publish(path, tmp_path / "out")
        # the first line (all the command line shows without --debug) says what failed
        assert str(failed.value).splitlines()[0] == (
            "a publication helper process failed: RuntimeError: a helper failed"
        )
        assert time.monotonic() - t < 25  # the slow helper was not waited for
        assert _new_children(before) == []
        assert wh._key() in warehouse_mod._KEPT
    finally:
        wh.release()
