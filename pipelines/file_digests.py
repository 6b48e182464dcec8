"""Each inbox file's SHA-256, taken once per change of the file, not once per run.

Whether anything is new (:func:`pipelines.incremental.up_to_date`) and which files the read
cache must read again (:func:`pipelines.read_cache.refresh`) both ask for every inbox
file's digest. Hashing years of files every night costs what the history weighs, so, as
``git`` does with its index, a digest is kept with the file's status when it was taken —
device, inode, size, modification and status-change times in nanoseconds — and taken again
only when one of them differs. A file written since has a new status-change time (which no
program can set back), so its bytes are hashed again whatever its size and modification
time say.

A file whose modification or status-change time lies within :data:`RACY_NS` before the
moment its status was taken is "racy": it may have been written again within the same tick
of the file system's clock without its times moving, so its digest is not kept and the next
run hashes it again.

The digests are kept beside a DuckDB warehouse (:func:`store_of`), as a cache: losing the
file costs one hashing of the inbox, nothing else. A PostgreSQL warehouse keeps none (each
run hashes its inbox)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import time
from pathlib import Path

#: A file or folder whose modification or status-change time lies within this many
#: nanoseconds before the moment its status is relied on is "racy": a write within the same
#: tick of the file system's clock may not have moved its times (as ``git`` treats an index
#: entry as new as the index). Here: a digest is not kept; :func:`pipelines.publish.files.
#: seal`: the folder's entries are named.
RACY_NS = 2_000_000_000

#: The digests of this process: path → (status, digest, whether racy); seeded by
#: :func:`remember` (what the last run kept, none racy).
_DIGESTS: dict[str, tuple[tuple[int, ...], str, bool]] = {}

#: Each store this process read (:func:`remember`): the status it had then, how many digests
#: it gave and the digests it gave them to.
_REMEMBERED: dict[str, tuple[tuple[int, ...], int, dict]] = {}

#: The version of the store's layout (another is ignored: every file hashed again).
STORE_VERSION = 1


def status(st: os.stat_result) -> tuple[int, ...]:
    """What a digest is kept with: device, inode, size, modification and status-change times
    (nanoseconds)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes; of a symbolic link, of the path it names (a link is
    refused, not read, so its target's bytes are not its content).

    The bytes are hashed once per status of the file (module docstring): again whenever its
    device, inode, size, modification or status-change time differs from those its kept
    digest was taken with."""
    name = os.fspath(path)
    taken = time.time_ns()
    st = os.lstat(name)
    if stat.S_ISLNK(st.st_mode):
        return hashlib.sha256(os.fsencode(os.readlink(name))).hexdigest()
    seen = status(st)
    found = _DIGESTS.get(name)
    if found is not None and found[0] == seen:
        return found[1]
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    digest = h.hexdigest()
    _DIGESTS[name] = (seen, digest, max(st.st_mtime_ns, st.st_ctime_ns) >= taken - RACY_NS)
    return digest


def store_of(warehouse: str | Path) -> Path | None:
    """Where the digests of the inbox of ``warehouse`` are kept: beside a DuckDB file
    (``.<name>.digests.json``); ``None`` for a PostgreSQL URL."""
    text = str(warehouse)
    if "://" in text:
        return None
    path = Path(text)
    return path.parent / f".{path.name}.digests.json"


def remember(store: Path | None) -> int:
    """Seed this process's digests from ``store`` (:func:`keep`); how many were read. A
    missing, damaged or other-version store gives none."""
    if store is None:
        return 0
    try:
        seen = status(os.stat(store))
    except OSError:
        return 0
    then = _REMEMBERED.get(os.fspath(store))
    if then is not None and then[0] == seen and then[2] is _DIGESTS:
        # this process read it as it is into these digests (a run's check of whether it is
        # up to date, then its reading of the inbox): they are all here already
        return then[1]
    try:
        data = json.loads(store.read_bytes())
        if data.get("version") != STORE_VERSION:
            return 0
        found = {
            name: (tuple(int(x) for x in entry[:5]), str(entry[5]), False)
            for name, entry in data["files"].items()
            if isinstance(entry, list) and len(entry) == 6
        }
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return 0
    for name, entry in found.items():
        _DIGESTS.setdefault(name, entry)
    _REMEMBERED[os.fspath(store)] = (seen, len(found), _DIGESTS)
    return len(found)


def keep(store: Path | None, paths: list[Path]) -> None:
    """Keep the digests of ``paths`` (those this process took or was given) in ``store``, but
    for racy ones (module docstring); the store is written only when what it holds changes."""
    if store is None:
        return
    files = {}
    for p in paths:
        name = os.fspath(p)
        found = _DIGESTS.get(name)
        if found is None or found[2]:
            continue
        files[name] = [*found[0], found[1]]
    data = (json.dumps({"version": STORE_VERSION, "files": files}, sort_keys=True) + "\n").encode()
    try:
        if store.read_bytes() == data:
            return
    except OSError:
        pass
    # atomically: a run stopped while writing leaves the last store, never half of one
    fd, tmp = tempfile.mkstemp(prefix=f".{store.name}.", suffix=".tmp", dir=store.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, store)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
