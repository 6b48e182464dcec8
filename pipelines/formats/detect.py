"""Detect an inbox file's format from its content (the file name is never trusted).

:func:`detect_format` returns one of :data:`FORMATS`. It reads at most the first
:data:`SNIFF_BYTES` bytes and never parses XML beyond a cheap look at its prolog, so
a hostile file (entity bombs, huge lines) cannot hurt it.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

FORMATS: tuple[str, ...] = (
    "results_csv",
    "events_csv",
    "contestants_csv",
    "hands_csv",
    "rulings_csv",
    "appeals_csv",
    "usebio",
    "pbn",
    "bws",
    "unknown",
)

SNIFF_BYTES = 65536
_JET_MAGIC = (b"Standard Jet DB", b"Standard ACE DB")
_BOM = b"\xef\xbb\xbf"
_PBN_TAG = re.compile(r'^\[\s*[A-Za-z0-9_]+\s+"')
_XML_NAME = r"[A-Za-z_][\w.\-:]*"


def detect_format(path: Path) -> str:
    """The format of the file at ``path``, judged by its first bytes (see :data:`FORMATS`)."""
    with open(path, "rb") as fh:
        head = fh.read(SNIFF_BYTES)
    return detect_bytes(head)


def detect_bytes(head: bytes) -> str:
    """The format of a file whose first bytes are ``head``."""
    if head[4:19] in _JET_MAGIC:
        return "bws"
    body = head.removeprefix(_BOM)
    if body.lstrip().startswith(b"<"):
        return "usebio" if _xml_root(body.lstrip()[:4096]) == "USEBIO" else "unknown"
    if b"\x00" in body:
        return "unknown"
    text = body.decode("utf-8", errors="replace")
    jsonl = _jsonl_kind(text)
    if jsonl:
        return jsonl
    first = _first_line(text)
    if first.startswith("%") or _PBN_TAG.match(first):
        return "pbn"
    return _csv_kind(first)


def _jsonl_kind(text: str) -> str | None:
    """``rulings_csv``/``appeals_csv`` for a JSON Lines ruling or appeal log, else ``None``.

    (Both logs share their CSV format names: the reader accepts either form.)
    """
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if not line.startswith("{"):
        return None
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    keys = {str(k).lower() for k in obj}
    if {"appeal_id", "ruling_id"} <= keys:
        return "appeals_csv"
    if {"ruling_id", "kind"} <= keys:
        return "rulings_csv"
    return None


def _first_line(text: str) -> str:
    """The first non-blank line outside a leading PBN ``{ ... }`` comment block."""
    in_brace = False
    for line in text.splitlines():
        s = line.strip()
        if in_brace or s.startswith("{"):
            in_brace = "}" not in s
        elif s:
            return s
    return ""


def _xml_root(head: bytes) -> str | None:
    """The root element's name (or the DOCTYPE's) from the start of an XML file, if found."""
    text = head.decode("latin-1")
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        rest = text[pos:]
        if rest.startswith("<?"):
            end, skip = rest.find("?>"), 2
        elif rest.startswith("<!--"):
            end, skip = rest.find("-->"), 3
        elif rest[:9].upper() == "<!DOCTYPE":
            m = re.match(r"<!DOCTYPE\s+(" + _XML_NAME + ")", rest, re.IGNORECASE)
            return m.group(1) if m else None
        else:
            m = re.match(r"<(" + _XML_NAME + ")", rest)
            return m.group(1) if m else None
        if end < 0:
            return None
        pos += end + skip


def _csv_kind(header_line: str) -> str:
    """Which CSV file a header row (its text) belongs to, or ``unknown``."""
    if "," not in header_line:
        return "unknown"
    cols = {c.strip().lower() for c in next(csv.reader([header_line]), [])}
    if {"board", "contract"} <= cols and (
        {"ns_pair", "ew_pair"} <= cols or {"north", "south", "east", "west"} <= cols
    ):
        return "results_csv"
    # An events file needs at least the date of each event session (or one of its details).
    if {"event_id", "session"} <= cols and cols & {
        "date",
        "form",
        "scoring",
        "movement",
        "profile",
        "compare",
    }:
        return "events_csv"
    if {"contestant", "names"} <= cols:
        return "contestants_csv"
    # a hand record: the four hands of each board, no contract (a results file has one)
    if {"board", "north", "east", "south", "west"} <= cols and "contract" not in cols:
        return "hands_csv"
    if {"appeal_id", "ruling_id"} <= cols:
        return "appeals_csv"
    if {"ruling_id", "kind"} <= cols:
        return "rulings_csv"
    return "unknown"
