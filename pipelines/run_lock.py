"""One run at a time per warehouse file, and a clear answer when it is held (no Dagster here).

A DuckDB file has one writer at a time, and a run writes it stage by stage, each stage in its
own transaction: two runs interleaving their stages (a ``traveller run`` and a run of
``make dev``'s sensor, or two scorers' ``traveller run``) would mix their results. So a run
holds the warehouse's **run lock** from its first stage to its last: an exclusive ``flock`` on
``<warehouse>.lock`` beside the file, with the holder's process id written in it. The lock is
re-entrant within a process (the command line's run and the Dagster materialisations it
starts share it) and released when the run ends, or by the system when its process dies
(``kill -9`` leaves no stale lock).

A run that finds the lock held waits up to ``wait`` seconds (``traveller run --wait 5m``),
saying so once, then stops before it has written anything, with one line naming the process
that holds it. A DuckDB file held by another program (a ``duckdb`` shell, a dashboard) is
found the same way before the run starts (:func:`check_free`): DuckDB names that process.

A PostgreSQL warehouse has no lock file: its writes are transactions of their own, the
event standings are serialised by advisory locks, and several runs write it at once. Its run
lock (:func:`acquire_run`, :func:`pipelines.pg_warehouse.hold_runs`) is a readers-writer
lock on the server: runs of session dates share it, a run of the whole-warehouse steps (the
audit, the reconciliation, the publication: they read every date) holds it alone.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

#: Open lock files of this process: path -> (file descriptor, holders).
_HELD: dict[str, tuple[int, int]] = {}

#: How often a waiting run tries again, in seconds.
POLL = 0.5


class WarehouseBusy(RuntimeError):
    """The warehouse is held by another run or process (the message says which and what to do)."""


def lock_path(warehouse: Path | str) -> Path | None:
    """``<warehouse>.lock`` for a DuckDB file; ``None`` for a PostgreSQL URL, however it was
    given (a ``Path`` made of one has lost a slash: ``postgresql:/u@host/db``), so no folder
    named ``postgresql:`` is ever made."""
    from pipelines.warehouse import is_postgres

    text = str(warehouse)
    if "://" in text or is_postgres(text):
        return None
    return Path(text).with_name(Path(text).name + ".lock")


#: How long a Dagster run waits for a PostgreSQL warehouse's run lock unless
#: ``$TRAVELLER_WAIT`` says otherwise: there, runs queue behind each other by design (a run
#: of dates behind the audit, the audit behind the runs of dates).
PG_WAIT = 3600.0


def parse_wait(text: str | None, default: float = 0.0) -> float:
    """Seconds from ``30``, ``30s``, ``5m`` or ``1h`` (``None`` or empty: ``default``)."""
    if not text:
        return default
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text)
    if not m:
        raise ValueError(f"--wait takes a duration such as 30s, 5m or 1h, not {text!r}")
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def _holder(path: Path) -> str:
    try:
        pid = path.read_text(encoding="utf-8").strip()
    except OSError:
        pid = ""
    return f"traveller run, process {pid}" if pid.isdigit() else "another traveller run"


def _try(path: Path) -> bool:
    key = str(path.resolve())
    if key in _HELD:
        fd, n = _HELD[key]
        _HELD[key] = (fd, n + 1)
        return True
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    _HELD[key] = (fd, 1)
    return True


def _release(path: Path) -> None:
    key = str(path.resolve())
    fd, n = _HELD[key]
    if n > 1:
        _HELD[key] = (fd, n - 1)
        return
    del _HELD[key]
    os.ftruncate(fd, 0)
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _waiting(
    attempt: Callable[[], str | None], wait: float, say: Callable[[str], None] | None
) -> None:
    """Call ``attempt`` (``None``: done, else who holds the warehouse) until it succeeds or
    ``wait`` seconds have passed; then :class:`WarehouseBusy`."""
    deadline = time.monotonic() + wait
    told = False
    while True:
        who = attempt()
        if who is None:
            return
        if time.monotonic() >= deadline:
            hint = (
                "wait for it to finish"
                if wait
                else "wait for it, or run again with --wait 5m ($TRAVELLER_WAIT for Dagster runs)"
            )
            raise WarehouseBusy(f"the warehouse is in use by {who}: {hint}; nothing was written")
        if say and not told:
            say(f"the warehouse is in use by {who}: waiting up to {wait:g} s")
            told = True
        time.sleep(POLL)


def acquire(warehouse: Path | str, wait: float = 0.0, say: Callable[[str], None] | None = None):
    """Take ``warehouse``'s run lock (again, within this process), waiting up to ``wait``
    seconds; :class:`WarehouseBusy` when another run keeps it. Pair with :func:`release`."""
    path = lock_path(warehouse)
    if path is not None:
        _waiting(lambda: None if _try(path) else _holder(path), wait, say)


def release(warehouse: Path | str) -> None:
    """Give back one hold of ``warehouse``'s run lock taken by :func:`acquire`."""
    path = lock_path(warehouse)
    if path is not None and str(path.resolve()) in _HELD:
        _release(path)


@contextmanager
def holding(
    warehouse: Path | str, wait: float = 0.0, say: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold ``warehouse``'s run lock for the block (see the module docstring)."""
    acquire(warehouse, wait, say)
    try:
        yield
    finally:
        release(warehouse)


_DUCKDB_HOLDER = re.compile(r"Conflicting lock is held in (.+?) \(PID (\d+)\)")


def holder_of(error: BaseException | str) -> str | None:
    """The process DuckDB names in a lock error (``program (PID n)``), if it is one."""
    m = _DUCKDB_HOLDER.search(str(error))
    return f"{Path(m.group(1)).name} (process {m.group(2)})" if m else None


def check_free(
    warehouse: Path | str, wait: float = 0.0, say: Callable[[str], None] | None = None
) -> None:
    """Whether another program holds the DuckDB file: open it for writing once (waiting up
    to ``wait`` seconds), or :class:`WarehouseBusy` naming that program."""
    if lock_path(warehouse) is None or not Path(str(warehouse)).is_file():
        return
    import duckdb

    def attempt() -> str | None:
        try:
            duckdb.connect(str(warehouse)).close()
        except duckdb.IOException as e:
            who = holder_of(e)
            if who is None:
                raise
            return who
        return None

    _waiting(attempt, wait, say)


def acquire_run(
    warehouse: Path | str,
    wait: float = 0.0,
    *,
    shared: bool,
    holder: str,
    say: Callable[[str], None] | None = None,
) -> None:
    """Take the run lock of a run: a DuckDB file's (:func:`acquire`: every run holds it
    alone) or a PostgreSQL warehouse's (``shared`` for a run of session dates, alone for a
    run of the whole-warehouse steps; ``holder`` names the run to the others). Waits up to
    ``wait`` seconds, then :class:`WarehouseBusy`. Pair with :func:`release_run`."""
    if lock_path(warehouse) is not None:
        acquire(warehouse, wait, say)
        return
    from pipelines import pg_warehouse

    who = pg_warehouse.hold_runs(str(warehouse), shared, wait, holder)
    if who is not None:
        hint = f"waited {wait:g} s" if wait else "$TRAVELLER_WAIT sets how long to wait"
        raise WarehouseBusy(
            f"the warehouse is in use by {', '.join(who)}: {hint}; nothing was written"
        )


def release_run(warehouse: Path | str) -> None:
    """Give back the run lock taken by :func:`acquire_run`."""
    if lock_path(warehouse) is not None:
        release(warehouse)
        return
    from pipelines import pg_warehouse

    pg_warehouse.release_runs(str(warehouse))
