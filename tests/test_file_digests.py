"""Each inbox file's SHA-256 is taken once per change of the file, across runs: kept beside
the warehouse with the file's status (device, inode, size, times), taken again when the
status differs, never kept for a file written within the racy margin."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from pipelines import file_digests


@pytest.fixture
def fresh(monkeypatch):
    """A process that has taken no digest yet; the files it opens, listed."""
    monkeypatch.setattr(file_digests, "_DIGESTS", {})
    opened: list[Path] = []
    real_open = Path.open
    monkeypatch.setattr(
        Path, "open", lambda self, *a, **k: opened.append(self) or real_open(self, *a, **k)
    )
    return opened


def _new_process(monkeypatch) -> None:
    monkeypatch.setattr(file_digests, "_DIGESTS", {})


def test_a_kept_digest_spares_the_next_run_the_hashing(tmp_path, monkeypatch, fresh):
    monkeypatch.setattr(file_digests, "RACY_NS", 0)  # the files are not new enough to be racy
    files = [tmp_path / "in" / f"r{i}.csv" for i in range(3)]
    files[0].parent.mkdir()
    for i, f in enumerate(files):
        f.write_bytes(b"x" * i)
    store = file_digests.store_of(tmp_path / "w.duckdb")
    assert store == tmp_path / ".w.duckdb.digests.json"
    want = [hashlib.sha256(f.read_bytes()).hexdigest() for f in files]
    assert [file_digests.sha256(f) for f in files] == want
    file_digests.keep(store, files)
    written = store.stat().st_mtime_ns
    file_digests.keep(store, files)  # the same digests: not written again
    assert store.stat().st_mtime_ns == written

    _new_process(monkeypatch)
    assert file_digests.remember(store) == 3
    fresh.clear()
    assert [file_digests.sha256(f) for f in files] == want
    assert fresh == []  # not one file opened

    # a file written again, to bytes of the same size and with its old modification time:
    # its status-change time moved, so it is hashed again (and only it)
    st = files[1].stat()
    files[1].write_bytes(b"y")
    os.utime(files[1], ns=(st.st_atime_ns, st.st_mtime_ns))
    _new_process(monkeypatch)
    file_digests.remember(store)
    fresh.clear()
    assert file_digests.sha256(files[1]) == hashlib.sha256(b"y").hexdigest()
    assert [file_digests.sha256(f) for f in (files[0], files[2])] == [want[0], want[2]]
    assert fresh == [files[1]]


def test_a_file_written_within_the_racy_margin_is_not_kept(tmp_path, fresh):
    f = tmp_path / "r.csv"
    f.write_bytes(b"abc")  # just now: within RACY_NS of the keeping
    old = tmp_path / "old.csv"
    old.write_bytes(b"def")
    past = 1_000_000_000_000_000_000  # 2001
    os.utime(old, ns=(past, past))  # an old modification time, but a new status change
    store = tmp_path / ".w.duckdb.digests.json"
    file_digests.sha256(f), file_digests.sha256(old)
    file_digests.keep(store, [f, old])
    assert json.loads(store.read_bytes())["files"] == {}


def test_a_damaged_or_foreign_store_gives_no_digest(tmp_path, monkeypatch, fresh):
    monkeypatch.setattr(file_digests, "RACY_NS", 0)
    f = tmp_path / "r.csv"
    f.write_bytes(b"abc")
    store = tmp_path / ".w.duckdb.digests.json"
    file_digests.sha256(f)
    file_digests.keep(store, [f])
    for text in ("{not json", '{"version": 99, "files": {}}', "[]", '{"version": 1}'):
        store.write_text(text)
        _new_process(monkeypatch)
        assert file_digests.remember(store) == 0
        fresh.clear()
        assert file_digests.sha256(f) == hashlib.sha256(b"abc").hexdigest() and fresh == [f]
    assert file_digests.remember(None) == 0 and file_digests.remember(tmp_path / "none") == 0


def test_a_postgres_warehouse_keeps_no_digests():
    assert file_digests.store_of("postgresql+psycopg2://u@localhost/traveller") is None
    file_digests.keep(None, [])  # nothing to write, nothing raised


def test_the_inbox_is_named_as_the_registry_names_it(tmp_path, monkeypatch):
    """Whether anything is new compares the inbox's names and digests with those the ingest
    recorded: each file named as :func:`pipelines.formats.relative_name` names it (folders
    joined by ``/``, a name that is not UTF-8 with its bytes escaped), from any way of
    writing the inbox's path."""
    from pipelines.formats import relative_name
    from pipelines.inbox import inbox_files
    from pipelines.incremental import inbox_hashes

    inbox = tmp_path / "inbox"
    (inbox / "club" / "2026").mkdir(parents=True)
    (inbox / "events.csv").write_bytes(b"a")
    (inbox / "club" / "2026" / "r.csv").write_bytes(b"b")
    (inbox / os.fsdecode(b"caf\xe9.csv")).write_bytes(b"c")
    monkeypatch.chdir(tmp_path)
    for given in (inbox, Path("inbox"), Path("./inbox/")):
        want = [
            (relative_name(p, given), hashlib.sha256(p.read_bytes()).hexdigest())
            for p in inbox_files(given)
        ]
        assert inbox_hashes(given) == want
        assert {n for n, _ in want} == {"events.csv", "club/2026/r.csv", "caf\\xe9.csv"}


def test_racy_is_judged_when_the_status_is_taken(tmp_path, monkeypatch, fresh):
    """A file is racy when its times lie within the margin before its status was taken (as it
    was hashed), whenever the digests are kept: hashed long after it was written, it is kept
    at once."""
    import time

    f = tmp_path / "r.csv"
    f.write_bytes(b"abc")
    later = time.time_ns() + 10 * file_digests.RACY_NS
    monkeypatch.setattr(file_digests.time, "time_ns", lambda: later)
    file_digests.sha256(f)
    store = tmp_path / ".w.duckdb.digests.json"
    file_digests.keep(store, [f])
    assert list(json.loads(store.read_bytes())["files"]) == [os.fspath(f)]


def test_a_store_is_read_once_while_it_and_the_digests_stay(tmp_path, monkeypatch, fresh):
    """A run reads the store when it checks whether it is up to date and again when it reads
    the inbox: the second time, the same store into the same digests, it is not read."""
    monkeypatch.setattr(file_digests, "RACY_NS", 0)
    files = [tmp_path / f"r{i}.csv" for i in range(2)]
    for i, f in enumerate(files):
        f.write_bytes(b"x" * (i + 1))
    store = file_digests.store_of(tmp_path / "w.duckdb")
    [file_digests.sha256(f) for f in files]
    file_digests.keep(store, files)
    reads: list[Path] = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or real(self))
    _new_process(monkeypatch)
    assert file_digests.remember(store) == 2 and reads == [store]
    assert file_digests.remember(store) == 2 and reads == [store]  # not read again
    _new_process(monkeypatch)  # other digests: read again
    assert file_digests.remember(store) == 2 and reads == [store, store]
    file_digests.keep(store, files[:1])  # the store changed: read again
    assert file_digests.remember(store) == 1 and reads.count(store) == 4  # keep compared it
