"""Format readers: turn one inbox file into the canonical frames of :mod:`.model`.

:func:`detect_format` judges a file by its content; :func:`read_file` dispatches to the
reader registered for that format in :data:`READERS` (Bridgemate ``.bws`` databases through
:mod:`.bws`, which needs mdbtools; directors' ruling and appeal logs, CSV or JSON Lines,
through :mod:`.rulings`). An unrecognised file yields a
:class:`~pipelines.formats.model.ReadResult` with one file-level reject.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from pipelines.formats.bws import read_bws
from pipelines.formats.canonical_csv import file_failure, read_results_csv
from pipelines.formats.detect import FORMATS, detect_format
from pipelines.formats.hands_csv import read_hands_csv
from pipelines.formats.model import ReadResult
from pipelines.formats.pbn import read_pbn
from pipelines.formats.reference_csv import read_contestants_csv, read_events_csv
from pipelines.formats.rulings import read_appeals, read_rulings
from pipelines.formats.usebio import read_usebio

__all__ = ["FORMATS", "READERS", "ReadResult", "detect_format", "read_file"]

#: ``format -> reader(path, file label)``; other stages may register more.
READERS: dict[str, Callable[[Path, str], ReadResult]] = {
    "results_csv": read_results_csv,
    "events_csv": read_events_csv,
    "contestants_csv": read_contestants_csv,
    "hands_csv": read_hands_csv,
    "usebio": read_usebio,
    "pbn": read_pbn,
    "bws": read_bws,
    "rulings_csv": read_rulings,
    "appeals_csv": read_appeals,
}

_NO_READER: dict[str, str] = {}


def relative_name(path: Path, inbox_root: Path) -> str:
    """``path`` relative to ``inbox_root`` as a posix string (the file's own path if outside).

    The path's own name is kept (a symbolic link is not resolved to its target), so two
    names of one file never become one name; a name that is not UTF-8 is shown with its
    undecodable bytes escaped (``\\xff``)."""
    try:
        name = path.absolute().relative_to(inbox_root.absolute()).as_posix()
    except ValueError:
        name = path.as_posix()
    return printable(name)


def printable(name: str) -> str:
    """``name`` with the bytes that are not UTF-8 escaped (``\\xff``)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _refused(path: Path, file: str) -> str | None:
    """Why ``path`` is not read at all, or ``None``: a symbolic link (its target would be
    read twice, or from outside the inbox) or a name that is not UTF-8 (it cannot be
    recorded nor published as it is)."""
    if path.is_symlink():
        target = printable(os.readlink(path))
        return (
            f"the file is a symbolic link (to {target}): links are not read, so no file "
            "is read twice or from outside the inbox; copy the file into the inbox instead"
        )
    try:
        os.fsdecode(path.name).encode("utf-8")
    except UnicodeEncodeError:
        return (
            f"the file name '{file}' is not valid UTF-8: rename the file (letters, digits, "
            "'-', '_' and '.')"
        )
    return None


def _empty(path: Path) -> str | None:
    """Why an empty file is not read: it holds nothing (usually an upload or a copy that was
    cut off), said as such rather than as a format not recognised."""
    if path.stat().st_size == 0:
        return "the file is empty (0 bytes): nothing to read; send or copy the file again"
    return None


#: The largest file read, in megabytes (``$TRAVELLER_MAX_FILE_MB``): a club's session is a
#: few hundred kilobytes and a federation's season of results some tens of megabytes, so a
#: larger file is a mistake (a disk image, a log) and is refused before it is read, keeping
#: the run's memory bounded.
MAX_FILE_MB_DEFAULT = 256


def max_file_bytes() -> int:
    """The largest file read, in bytes (:data:`MAX_FILE_MB_DEFAULT` unless
    ``$TRAVELLER_MAX_FILE_MB`` says otherwise)."""
    text = os.environ.get("TRAVELLER_MAX_FILE_MB", "").strip()
    mb = float(text) if text.replace(".", "", 1).isdigit() else MAX_FILE_MB_DEFAULT
    return int(mb * 1024 * 1024)


def _sizes(size: int, limit: int) -> tuple[str, str]:
    """``size`` and ``limit`` written so that they read apart: whole megabytes when those
    differ, else (a limit set below a megabyte, or a file a fraction over it) bytes."""
    mb = f"{size / 1048576:,.0f} MB", f"{limit / 1048576:,.0f} MB"
    return mb if mb[0] != mb[1] else (f"{size:,} bytes", f"{limit:,} bytes")


def _too_big(path: Path) -> str | None:
    """Why a file larger than :func:`max_file_bytes` is not read."""
    size, limit = path.stat().st_size, max_file_bytes()
    if size > limit:
        size_text, limit_text = _sizes(size, limit)
        return (
            f"the file is {size_text}, more than the {limit_text} "
            "a results file can be: it is not read (check it is the file meant; raise "
            "$TRAVELLER_MAX_FILE_MB if it is)"
        )
    return None


def results_csv_label(path: Path, inbox_root: Path) -> str | None:
    """The label of ``path`` when :func:`read_file` would read it as a results CSV (its
    name fit to read, the file neither empty nor too large, its format a results CSV's), for
    reading many at once (:func:`~pipelines.formats.canonical_csv.read_results_csvs`); else
    ``None``."""
    file = relative_name(path, inbox_root)
    if _refused(path, file) or _empty(path) or _too_big(path):
        return None
    return file if READERS.get(detect_format(path)) is read_results_csv else None


def read_file(path: Path, inbox_root: Path, normalise: bool = True) -> ReadResult:
    """Detect ``path``'s format and read it; ``ReadResult.file`` is relative to ``inbox_root``.

    A symbolic link or a file whose name is not UTF-8 is refused as a whole (one ``file``
    reject naming why), never read under another name. ``normalise=False``: a results CSV's
    rows are left for the caller to write canonically (``ReadResult.normalised``)."""
    file = relative_name(path, inbox_root)
    refused = _refused(path, file) or _empty(path) or _too_big(path)
    if refused is not None:
        return file_failure(file, "unknown", "file", refused, None)
    fmt = detect_format(path)
    reader = READERS.get(fmt)
    if reader is read_results_csv and not normalise:
        return read_results_csv(path, file, normalise=False)
    if reader is not None:
        return reader(path, file)
    if fmt in _NO_READER:
        return file_failure(file, fmt, "file", f"this file is {_NO_READER[fmt]}", None)
    if path.suffix.lower() == ".bws":
        return file_failure(
            file,
            "unknown",
            "file",
            "the file is named .bws but is not an Access database (a Bridgemate scoring "
            "database starts with the Jet signature 'Standard Jet DB' or 'Standard ACE DB'): "
            "copy the .bws again from the scoring computer",
            None,
        )
    return file_failure(
        file,
        "unknown",
        "file",
        "the file's format was not recognised: expected a results CSV (header with board, "
        "ns_pair, ew_pair, contract), events.csv (header with event_id, session — which may "
        "be left empty — and a detail such as date, scoring, movement or profile), contestants "
        "CSV, USEBIO XML, PBN or a Bridgemate database (.bws)",
        None,
    )
