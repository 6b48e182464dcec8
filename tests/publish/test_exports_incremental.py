"""Exporting again makes only the files whose inputs changed (USEBIO per event, PBN per
session), writes each file whole (a temporary name, then one rename), and removes the export
of a session no longer published."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pipelines.publish import load
from pipelines.publish.files import listing, prune, prune_listed, put
from pipelines.publish.pbn_writer import write_pbn
from pipelines.publish.site import slug
from pipelines.publish.usebio_writer import write_usebio
from tests.publish.conftest import RENAMED, Sample, renamed_one


def _stamps(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file()}


def test_exporting_again_touches_no_file_whose_rows_did_not_change(sample: Sample, tmp_path):
    out = tmp_path / "exports"
    shutil.copytree(sample.exports, out)  # with its record, exports/.manifests
    before = {kind: _stamps(out / kind) for kind in ("usebio", "pbn")}
    data = load(sample.warehouse)
    usebio = write_usebio(data.sessions, data.standings, data.results, out / "usebio")
    pbn = write_pbn(data.sessions, data.standings, data.results, out / "pbn")
    assert {kind: _stamps(out / kind) for kind in ("usebio", "pbn")} == before
    assert sorted(p.name for p in usebio) == sorted(before["usebio"])
    assert sorted(p.name for p in pbn) == sorted(before["pbn"])


def test_a_changed_session_is_exported_again_as_from_scratch(sample: Sample, tmp_path):
    data = load(sample.warehouse)
    changed, first = renamed_one(data)
    out = tmp_path / "pbn"
    shutil.copytree(sample.exports / "pbn", out)
    (tmp_path / ".manifests").mkdir()
    shutil.copy(sample.exports / ".manifests" / "pbn.json", tmp_path / ".manifests")
    before = _stamps(out)
    write_pbn(changed.sessions, changed.standings, changed.results, out)
    fresh = tmp_path / "fresh"
    write_pbn(changed.sessions, changed.standings, changed.results, fresh)
    after = _stamps(out)
    touched = sorted(n for n in after if after[n] != before.get(n))
    assert touched == [f"{slug(first['event_id'])}-s{first['session']}.pbn"]
    assert RENAMED in (out / touched[0]).read_text("utf-8")
    for p in fresh.iterdir():
        assert (out / p.name).read_bytes() == p.read_bytes()


def test_a_file_is_replaced_in_one_step_and_stale_files_are_removed(tmp_path):
    target = tmp_path / "a" / "page.html"
    assert put(target, b"one") is True
    assert put(target, b"one") is False  # the same bytes: not written again
    assert put(target, b"two") is True and target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["page.html"]  # no temporary
    stale = tmp_path / "a" / "old" / "gone.html"
    put(stale, b"x")
    assert prune(tmp_path / "a", [target]) == [stale]
    assert not stale.parent.exists() and target.exists()


def test_stale_files_are_removed_from_the_listing_read_at_the_start(tmp_path):
    """A publication prunes from the listing it read when it began: the files listed that it
    did not write go, with their folders left empty, and the folders that held nothing; a
    folder still holding a page stays, and a file already gone is no error."""
    site = tmp_path / "site"
    for rel in ("index.html", "events/a/s1.html", "events/a/old/s2.html", "events/b/s1.html"):
        put(site / rel, b"x")
    put(site / "events" / "b" / ".s1.html.123.tmp", b"half")  # a write cut short
    (site / "events" / "c" / "empty").mkdir(parents=True)  # folders that hold nothing
    there = listing(site)
    assert "events/a/old/s2.html" in there and "events/c/empty/" in there
    (site / "events" / "b" / "s1.html").unlink()  # removed by hand meanwhile
    stale = there - {"index.html", "events/a/s1.html"}
    removed = prune_listed(site, stale)
    assert sorted(p.relative_to(site).as_posix() for p in removed) == [
        "events/a/old/s2.html",
        "events/b/.s1.html.123.tmp",
    ]
    assert listing(site) == {"index.html", "events/a/s1.html"}
    assert not (site / "events" / "a" / "old").exists() and not (site / "events" / "b").exists()
    assert not (site / "events" / "c").exists()


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        # a folder's seal holds its folders' times on the disk, not what was published
        if p.is_file() and not p.name.endswith(("season.html", ".seal.json"))
    }


def test_publishing_in_batches_of_events_writes_what_one_batch_writes(
    sample: Sample, tmp_path, monkeypatch
):
    """A publication reads and makes its events in batches of at most
    $TRAVELLER_RANGE_RESULTS scored results (memory bounded on a first load of years): with
    one event per batch, the site, the exports and their records are byte for byte those of
    one batch; publishing again then keeps every event and writes nothing."""
    from pipelines.publish import publish

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-03 22:55")  # the sample's clock
    whole = publish(sample.warehouse, tmp_path / "whole", dashboard=False)
    monkeypatch.setenv("TRAVELLER_RANGE_RESULTS", "1")
    batched = publish(sample.warehouse, tmp_path / "batched", dashboard=False)
    assert whole.events_kept == batched.events_kept == 0
    assert _tree(tmp_path / "batched") == _tree(tmp_path / "whole")
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "batched").rglob("*") if p.is_file()}
    again = publish(sample.warehouse, tmp_path / "batched", dashboard=False)
    events = load(sample.warehouse).sessions["event_id"].n_unique()
    assert again.pages_changed == 0 and again.sessions_rendered == 0
    assert again.events_kept == events > 1
    assert {
        p: p.stat().st_mtime_ns for p in (tmp_path / "batched").rglob("*") if p.is_file()
    } == stamps


def test_put_writes_a_file_whole_readable_by_all_and_only_when_its_bytes_change(tmp_path):
    """A published file is replaced in one rename, mode 0644 whatever the umask, its folders
    made as needed, no temporary file left; the same bytes again write nothing (the time
    stamp stays); a temporary file a crashed run left under the writer's name is written
    over, not in the way."""
    import os
    import threading

    page = tmp_path / "site" / "events" / "a" / "s1" / "index.html"
    old = os.umask(0o077)
    try:
        assert put(page, b"<p>one</p>")
    finally:
        os.umask(old)
    assert page.read_bytes() == b"<p>one</p>"
    assert page.stat().st_mode & 0o777 == 0o644
    stamp = page.stat().st_mtime_ns
    assert not put(page, b"<p>one</p>")
    assert page.stat().st_mtime_ns == stamp
    stale = page.parent / f".{page.name}.{os.getpid()}-{threading.get_ident()}.tmp"
    stale.write_bytes(b"half a page from a run cut short, longer than the new one")
    assert put(page, b"<p>two</p>")
    assert page.read_bytes() == b"<p>two</p>"
    assert sorted(p.name for p in page.parent.iterdir()) == ["index.html"]


def test_put_compares_the_bytes_not_only_the_size(tmp_path):
    """A file of the same size with other bytes is written again; so is a longer or a
    shorter one; a page given as a string path is written as one given as a Path."""
    page = tmp_path / "board-1.html"
    assert put(os.fspath(page), b"<p>NS 420</p>")
    assert put(page, b"<p>NS 450</p>") and page.read_bytes() == b"<p>NS 450</p>"
    assert put(page, b"<p>NS 1430</p>") and page.read_bytes() == b"<p>NS 1430</p>"
    assert put(page, b"<p>-</p>") and page.read_bytes() == b"<p>-</p>"
    assert not put(page, b"<p>-</p>")


def test_a_forked_writer_names_its_temporary_files_for_itself(tmp_path):
    """The process id in a temporary file's name is the writing process's own, in a child
    forked after the id was first taken too: two processes never share a temporary name."""
    from pipelines.publish import files

    parent = files._pid()
    assert parent == os.getpid()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.write(write, str(files._pid()).encode())
        finally:
            os._exit(0)  # never a second pytest process, whatever happened
    os.close(write)
    os.waitpid(child, 0)
    told = int(os.read(read, 32))
    os.close(read)
    assert told == child != parent


def test_put_never_writes_through_a_link_planted_at_its_temporary_name(tmp_path):
    """A symbolic link at the writer's temporary name (a served folder others can write to)
    is removed, not followed: the file it points to is untouched."""
    import os
    import threading

    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"not yours")
    page = tmp_path / "site" / "index.html"
    page.parent.mkdir()
    link = page.parent / f".{page.name}.{os.getpid()}-{threading.get_ident()}.tmp"
    link.symlink_to(outside)
    assert put(page, b"<p>page</p>")
    assert outside.read_bytes() == b"not yours"
    assert page.read_bytes() == b"<p>page</p>" and not page.is_symlink()
    assert sorted(p.name for p in page.parent.iterdir()) == ["index.html"]


def test_a_kept_export_is_found_in_one_listing_of_its_folder(tmp_path, monkeypatch):
    """A kept file is looked for in one listing of its folder, taken when first asked (no
    stat of each of a season's files); a file written after that listing, or one in another
    folder, is looked at itself; a file not there, or never made, is not kept."""
    import json

    from pipelines.publish.files import Manifest, record_of

    folder = tmp_path / "pbn"
    folder.mkdir()
    (folder / "a.pbn").write_text("a")
    record_of(folder).parent.mkdir(parents=True, exist_ok=True)
    record_of(folder).write_text(json.dumps({"a.pbn": "d1", "gone.pbn": "d2", "late.pbn": "d3"}))
    made = Manifest(folder)
    stats: list[Path] = []
    real_is_file = Path.is_file
    monkeypatch.setattr(Path, "is_file", lambda self: stats.append(self) or real_is_file(self))
    assert made.keep(folder / "a.pbn") and stats == []  # found in the listing
    (folder / "late.pbn").write_text("written after the listing")
    assert made.keep(folder / "late.pbn") and stats == [folder / "late.pbn"]
    assert not made.keep(folder / "gone.pbn")  # recorded, but not there
    assert not made.keep(folder / "never.pbn")  # never made
    assert made.now == {"a.pbn": "d1", "gone.pbn": "d2", "late.pbn": "d3"}
    # by name, in the folder itself: the same answers, the same record
    by_name = Manifest(folder)
    (folder / "later.pbn").write_text("written after this listing")
    assert by_name.keep_name("a.pbn")
    assert by_name.keep_name("late.pbn")  # in this listing
    record_of(folder).write_text(json.dumps({"a.pbn": "d1", "later.pbn": "d4", "latest.pbn": "d5"}))
    again = Manifest(folder)
    assert again.keep_name("a.pbn")  # the listing taken now
    assert not again.keep_name("latest.pbn")  # recorded, not there
    (folder / "latest.pbn").write_text("written after the listing: looked at itself")
    assert again.keep_name("latest.pbn")
    assert again.keep_name("later.pbn")
    (folder / "a.pbn").unlink()
    fresh = Manifest(folder)
    assert not fresh.keep_name("a.pbn")  # recorded, but no longer there
    assert not fresh.keep_name("never.pbn") and "never.pbn" not in fresh.now
    assert fresh.now == {"a.pbn": "d1"}
