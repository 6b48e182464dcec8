"""Writing published files: only what changed, each file whole, nothing stale left behind.

A publication is read while it is written (a web server, an ``rsync`` to one): a file is
written to a temporary name beside it and renamed over the old one in one step, so a reader
sees the old file or the new one, never half of one; a file whose bytes did not change is not
written at all (its time stamp stays, caches and ``rsync`` skip it); after writing, what an
earlier publication wrote and this one did not (a withdrawn session's page) is removed.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines.file_digests import RACY_NS
from pipelines.split import parts_by


def put(path: Path | str, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it already holds exactly that; atomically (a
    temporary file in the same folder, then :func:`os.replace`), readable by all (``0644``).
    Whether it was written.

    The temporary file is named for the writing process and thread (``.<name>.<pid>-<thread>
    .tmp``): no other writer uses that name, so it is opened directly, without drawing random
    names until one is free (what :func:`tempfile.mkstemp` costs a site of many thousand
    pages); one a crashed run left behind is replaced (:func:`_create`). The folder is made
    only when the file cannot be opened for want of it. Files are read and written through
    their descriptors (:func:`os.read`, :func:`os.write`), not Python's file objects, whose
    opening asks the system three more questions of each file (its size, whether it is a
    terminal, its position): a first load writes tens of thousands of pages, and on a
    virtual machine's disk each question costs about as much as writing the page."""
    path = os.fspath(path)
    if _holds(path, data):
        return False
    folder, name = os.path.split(path)
    tmp = os.path.join(folder or ".", f".{name}.{_pid()}-{threading.get_ident()}.tmp")
    try:
        fd = _create(tmp)
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)
        fd = _create(tmp)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, 0o644)  # whatever the umask
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def _holds(path: str, data: bytes) -> bool:
    """Whether the file ``path`` exists and holds exactly ``data`` (its size compared first,
    its bytes read only when that is ``len(data)``)."""
    try:
        if os.stat(path).st_size != len(data):
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        chunks, size = [], 0
        while size <= len(data):  # one byte more than expected: a file that grew meanwhile
            chunk = os.read(fd, len(data) + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError:
        return False
    finally:
        os.close(fd)
    return b"".join(chunks) == data


#: This process's id, asked once (and again in a forked child): each temporary file's name
#: holds it, and asking the system for it costs a call per page.
_PID = [os.getpid()]
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _PID.__setitem__(0, os.getpid()))


def _pid() -> int:
    return _PID[0]


def _create(tmp: str) -> int:
    """A new file at ``tmp``, opened for writing: never an existing file or a symbolic link
    followed (``O_EXCL``); what a crashed run left there (a file, or a link planted in a
    served folder) is removed first — the link itself, not what it points to."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(tmp, flags, 0o644)
    except FileExistsError:
        os.unlink(tmp)
        return os.open(tmp, flags, 0o644)


def prune(folder: Path, keep: Iterable[Path]) -> list[Path]:
    """Remove every file under ``folder`` not in ``keep``, then the folders left empty; the
    files removed. One walk of the folder (``os.walk``, names compared as text): a site of
    many thousand pages costs a directory listing, not a stat of every page."""
    if not folder.is_dir():
        return []
    kept = {os.fspath(p) for p in keep}
    removed = []
    for root, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            path = os.path.join(root, name)
            if path not in kept:
                os.unlink(path)
                removed.append(Path(path))
        if root != os.fspath(folder) and not files and not dirs:
            os.rmdir(root)
        elif root != os.fspath(folder) and not os.listdir(root):
            os.rmdir(root)
    return sorted(removed, reverse=True)


def prune_listed(folder: Path, stale: Iterable[str]) -> list[Path]:
    """Remove the entries ``stale`` of ``folder``'s :func:`listing` (paths relative to it,
    with ``/``): each file, then each of their folders left empty — and each folder listed
    as holding nothing (``name/``) —, deepest first; the files removed. What a publication no
    longer writes is known from the listing it read at its start: nothing is walked again."""
    removed = []
    folders: set[str] = set()
    root = os.fspath(folder)
    for rel in stale:
        parts = rel.rstrip("/").split("/")
        if not rel.endswith("/"):
            try:
                os.unlink(os.path.join(root, *parts))
            except FileNotFoundError:
                continue
            removed.append(Path(os.path.join(root, *parts)))
            parts = parts[:-1]
        folders.update("/".join(parts[:k]) for k in range(1, len(parts) + 1))
    for rel in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        try:
            os.rmdir(os.path.join(root, *rel.split("/")))
        except OSError:  # not empty (or gone): kept
            pass
    return sorted(removed, reverse=True)


def listing(folder: Path) -> set[str]:
    """Every file under ``folder``, as paths relative to it with ``/`` (one ``os.walk``):
    whether a publication's thousands of pages are there, without a test of each. A folder
    that holds nothing at all is listed too, as its path and a final ``/`` (no page's path
    ends so), for :func:`prune_listed` to remove."""
    root = os.fspath(folder)
    out: set[str] = set()
    for here, dirs, files in os.walk(root):
        # os.walk names each folder as the root joined with the names below it
        rel = here[len(root) :].lstrip(os.sep).replace(os.sep, "/")
        prefix = rel + "/" if rel else ""
        out.update([prefix + name for name in files])
        if prefix and not files and not dirs:
            out.add(prefix)
    return out


def seal_of(folder: Path) -> Path:
    """Where the seal of ``folder`` (:func:`seal`) is kept: beside its record
    (:func:`record_of`)."""
    return folder.parent / ".manifests" / f"{folder.name}.seal.json"


def seal(
    folder: Path,
    files: set[str],
    named: set[str],
    record: bytes,
    before: dict | None = None,
    touched: Iterable[str] = (),
) -> None:
    """Seal ``folder`` after a publication left it holding exactly ``files`` (paths relative
    to it, with ``/``) and wrote ``record`` (the bytes of its record of pages, which names
    ``named``): each folder's modification and status-change times (nanoseconds), the
    entries of the racy ones (:data:`RACY_NS`), the files the record does not name, and the
    record's SHA-256.

    A file added to, removed from or renamed in a folder moves that folder's times (and a
    folder put back from a copy has a new status-change time, which no program can set), so
    while every sealed folder keeps its times the folder still holds exactly ``files``:
    :func:`sealed_listing` then gives its listing without walking it.

    ``before``: the seal this publication found valid when it began, and ``touched``: the
    files it wrote or removed since. Only their folders (and those above), new or racy
    ones are looked at again; every other folder kept the times ``before`` gives."""
    root = os.fspath(folder)
    start = time.time_ns()
    if before is not None:
        stamps = dict(before["folders"])
        look = {f.rpartition("/")[0] for f in touched} | set(before["racy"])
    else:
        stamps = {}
        look = {f.rpartition("/")[0] for f in files} | {""}
    for d in list(look):  # and every folder above
        while d:
            d = d.rpartition("/")[0]
            look.add(d)
    racy: list[str] = []
    for d in look:
        try:
            st = os.stat(os.path.join(root, d) if d else root)
        except FileNotFoundError:  # a folder left empty, removed
            stamps.pop(d, None)
            continue
        stamps[d] = [st.st_mtime_ns, st.st_ctime_ns]
        if max(st.st_mtime_ns, st.st_ctime_ns) >= start - RACY_NS:
            racy.append(d)
    entries = {}
    for d in racy:
        # a racy folder's entries, each one this publication left there (else no seal: the
        # next publication walks the folder and removes what it does not publish)
        prefix = d + "/" if d else ""
        with os.scandir(os.path.join(root, d) if d else root) as it:
            here = [e.name + "/" if e.is_dir(follow_symlinks=False) else e.name for e in it]
        if not all(
            (prefix + n[:-1] in stamps) if n.endswith("/") else (prefix + n in files) for n in here
        ):
            seal_of(folder).unlink(missing_ok=True)
            return
        entries[d] = sorted(here)
    data = {
        "record": hashlib.sha256(record).hexdigest(),
        "folders": stamps,
        "racy": entries,
        "files": sorted(files - named),
    }
    put(seal_of(folder), (json.dumps(data, sort_keys=True) + "\n").encode())


def read_seal(folder: Path) -> dict | None:
    """The seal of ``folder`` (:func:`seal`), or ``None``."""
    try:
        data = json.loads(seal_of(folder).read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def sealed_listing(
    folder: Path, record: bytes, pages: dict[str, dict], data: dict | None = None
) -> set[str] | None:
    """The listing of ``folder`` (:func:`listing`) from its seal (:func:`seal`; ``data``, else
    read) without walking it: the pages its record names (``pages``, read from ``record``,
    the record's bytes) and the files the seal names — when the seal was made with this
    record, every sealed folder keeps the times the seal gives and every racy one holds the
    entries it names. Else (a page deleted or a file dropped in by hand, a folder restored
    from a copy, no seal) ``None``: the folder must be walked."""
    data = read_seal(folder) if data is None else data
    try:
        if data is None or data["record"] != hashlib.sha256(record).hexdigest():
            return None
        root = os.fspath(folder)
        racy = data["racy"]
        for d, (mtime, ctime) in data["folders"].items():
            path = os.path.join(root, d) if d else root
            if d in racy:
                with os.scandir(path) as it:
                    now = sorted(e.name + "/" if e.is_dir(follow_symlinks=False) else e.name
                                 for e in it)  # fmt: skip
                if now != racy[d]:
                    return None
                continue
            st = os.stat(path)
            if st.st_mtime_ns != mtime or st.st_ctime_ns != ctime:
                return None
        there = set(data["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    for entry in pages.values():
        there.update(entry.get("pages") or [])
    return there


def split_by(sessions: pl.DataFrame, keys: list[str]):
    """A lookup of a frame's rows by ``keys`` (a tuple of their values), for the events of
    ``sessions`` only: each frame is split once, when first asked — an export whose events
    are all kept as they were splits nothing, and a night of few events does not split the
    season's rows."""
    events = sessions["event_id"].unique().implode()
    parts: dict[int, tuple[pl.DataFrame, dict]] = {}

    def rows(frame: pl.DataFrame, key: tuple) -> pl.DataFrame:
        if id(frame) not in parts:
            mine = frame.filter(pl.col("event_id").is_in(events)) if frame.height else frame
            split = parts_by(mine, keys)
            parts[id(frame)] = (frame, split)  # the frame held: its id stays its own
        found = parts[id(frame)][1].get(key)
        return found if found is not None else frame.clear()

    return rows


def hashed_by(sessions: pl.DataFrame, keys: list[str]):
    """The :class:`RowHashes` of a frame's rows by ``keys`` — of the part :func:`split_by`
    gives —, for the events of ``sessions`` only: each frame's rows hashed in one pass,
    when first asked (an export's digest reads its part's hashes, not the part)."""
    events = sessions["event_id"].unique().implode()
    parts: dict[int, tuple[pl.DataFrame, RowHashes, dict]] = {}

    def hashes(frame: pl.DataFrame, key: tuple) -> RowHashes:
        if id(frame) not in parts:
            mine = frame.filter(pl.col("event_id").is_in(events)) if frame.height else frame
            # the frame held: its id stays its own
            parts[id(frame)] = (frame, RowHashes.of(frame.clear()), RowHashes.parts(mine, keys))
        _, empty, split = parts[id(frame)]
        return split.get(key, empty)

    return hashes


def record_of(folder: Path) -> Path:
    """Where the record of what ``folder``'s files were made from is kept: beside the
    folder, in a hidden ``.manifests`` folder (``site`` -> ``.manifests/site.json``), never
    among the folder's own files (a site copied to a web server carries none)."""
    return folder.parent / ".manifests" / f"{folder.name}.json"


@dataclass(frozen=True)
class RowHashes:
    """What :func:`digest` reads of a frame — its schema (as text), its height and its rows'
    hashes (``hash_rows(seed=0)``, in order, as bytes) — worked out beforehand: a frame's
    rows are hashed once for all its parts (a row's hash is its own, whatever frame it is
    hashed in), each part's digest the one of the part itself."""

    schema: str
    height: int
    hashes: bytes

    @classmethod
    def of(cls, frame: pl.DataFrame) -> RowHashes:
        """The row hashes of ``frame``."""
        hashes = frame.hash_rows(seed=0).to_numpy().tobytes() if frame.height else b""
        return cls(str(frame.schema), frame.height, hashes)

    @classmethod
    def parts(cls, frame: pl.DataFrame, keys: list[str]) -> dict[tuple, RowHashes]:
        """The row hashes of each part of ``frame`` split by ``keys`` (as
        ``partition_by(keys, as_dict=True)`` splits it), the rows hashed in one pass."""
        if not frame.height:
            return {}
        schema = str(frame.schema)
        hashed = frame.select(keys).with_columns(frame.hash_rows(seed=0).alias("__row_hash"))
        return {
            key: cls(schema, part.height, part["__row_hash"].to_numpy().tobytes())
            for key, part in parts_by(hashed, keys).items()
        }


def digest(*parts: object) -> str:
    """SHA-256 of what one published file is made from: texts, and frames by their schema
    and their rows in order (vectorised row hashes; a frame's :class:`RowHashes` the same),
    with the engine's code and templates (:func:`pipelines.incremental.code_fingerprint`: a
    new version makes every file again)."""
    from pipelines.incremental import code_fingerprint

    h = hashlib.sha256(code_fingerprint().encode())
    for part in parts:
        if isinstance(part, pl.DataFrame):
            part = RowHashes.of(part)
        if isinstance(part, RowHashes):
            h.update(f"\0frame:{part.height}:{part.schema}\0".encode())
            if part.height:
                h.update(part.hashes)
        else:
            h.update(f"\0{json.dumps(part, sort_keys=True, default=str)}\0".encode())
    return h.hexdigest()


class Manifest:
    """What each file of a folder was last made from (:func:`digest`), so that a file whose
    inputs did not change since the last publication is neither made nor written again."""

    def __init__(self, folder: Path) -> None:
        self.path = record_of(folder)
        try:
            before = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            before = {}
        self.before: dict[str, str] = before if isinstance(before, dict) else {}
        self.now: dict[str, str] = {}
        self.folder = folder
        #: the folder's files when first asked (:meth:`there`)
        self._listed: set[str] | None = None

    def fresh(self, path: Path, made_from: str) -> bool:
        """Whether ``path`` exists and was made from ``made_from`` (it is recorded either way:
        the caller makes the file when this is false)."""
        self.now[path.name] = made_from
        return self.before.get(path.name) == made_from and path.is_file()

    def keep(self, path: Path) -> bool:
        """Keep ``path`` as the last publication made it, without making it again (its event
        is kept as it is: :func:`pipelines.publish.data.event_keys`): whether it was there to
        keep (it is recorded again either way, so the next publication knows it)."""
        made_from = self.before.get(path.name)
        if made_from is not None:
            self.now[path.name] = made_from
        return made_from is not None and self.there(path)

    def keep_name(self, name: str) -> bool:
        """:meth:`keep` of the file ``name`` of the folder itself, by its name (no path made
        for the thousands of files a night keeps)."""
        made_from = self.before.get(name)
        if made_from is None:
            return False
        self.now[name] = made_from
        return name in self._listing() or os.path.isfile(os.path.join(self.folder, name))

    def _listing(self) -> set[str]:
        """The names of the folder's files, taken once (one ``scandir``)."""
        if self._listed is None:
            try:
                with os.scandir(self.folder) as entries:
                    self._listed = {e.name for e in entries if e.is_file()}
            except OSError:
                self._listed = set()
        return self._listed

    def there(self, path: Path) -> bool:
        """Whether ``path`` (a file of the folder) is a file: found in the folder's listing,
        taken once (one ``scandir`` for the thousands of files a publication keeps), else
        looked at (a file written since the listing was taken)."""
        listed = self._listing()
        # the folder compared as text (a path's parent and its equality cost microseconds
        # each in pathlib, times thousands): a path of the folder written otherwise is looked at
        here = os.path.dirname(os.fspath(path)) == os.fspath(self.folder)
        return (here and path.name in listed) or path.is_file()

    def save(self) -> None:
        """Record the files of this publication (written only when the record changed)."""
        put(self.path, (json.dumps(self.now, sort_keys=True) + "\n").encode())  # C encoder


# ------------------------------------------------------------- what must never be published

#: The folders of a publication ``<out>`` that are served to the public (a web server, an
#: ``rsync``): the site and the exports. ``<out>/season.html`` is one file beside them.
PUBLIC_FOLDERS: tuple[str, ...] = ("site", "exports")


class PublicationError(ValueError):
    """Publishing as asked would publish what is private (the warehouse, its audit report)."""


def served(out: Path) -> list[Path]:
    """The folders of a publication into ``out`` that the public reads (resolved)."""
    return [(Path(out) / name).resolve() for name in PUBLIC_FOLDERS]


def exposed(out: Path, warehouse_folder: Path) -> str | None:
    """Why publishing into ``out`` would publish a warehouse kept in ``warehouse_folder`` and
    its reports (``<folder>/reports``: the director audit names directors and their rates,
    only the transparency report is for the public), or ``None``: when that folder is one of
    the served folders of ``out`` or inside one, the web server would serve the warehouse,
    its directors' notes and the audit with the results."""
    folder = Path(warehouse_folder).resolve()
    for public in served(out):
        if folder == public or folder.is_relative_to(public):
            return (
                f"the warehouse's folder {warehouse_folder} is inside {public}, which "
                "publication serves to the public: the warehouse (the directors' notes) and "
                f"its director audit ({Path(warehouse_folder) / 'reports' / 'audit.html'}) "
                "would be published with the results; keep the warehouse outside "
                f"{Path(out) / 'site'} and {Path(out) / 'exports'} (another --warehouse, or "
                "another publication folder); nothing was written"
            )
    return None


def refuse_exposed(out: Path, warehouse_folder: Path) -> None:
    """Raise :class:`PublicationError` when :func:`exposed` says why."""
    why = exposed(out, warehouse_folder)
    if why is not None:
        raise PublicationError(why)


def inside_publication(target: Path, publications: Iterable[Path]) -> str | None:
    """Why writing the (internal) audit report into ``target`` would publish it: ``target``
    is a served folder of one of ``publications`` (or inside one); else ``None``."""
    where = Path(target).resolve()
    for out in publications:
        for public in served(out):
            if where == public or where.is_relative_to(public):
                return (
                    f"{target} is inside {public}, which publication serves to the public: the "
                    "director audit names directors and must not be published; write it "
                    "elsewhere (the warehouse's reports/ folder is private); nothing was written"
                )
    return None
