"""What every page of the results site shares: readable, stable paths (no hashes), figures
as the event's profile shows them, and the one Jinja2 environment (autoescape on).

The page kinds — the sessions' pages (:mod:`pipelines.publish.site`), the player pages
(:mod:`pipelines.publish.players`) — and the exports import these, so a path is made one way
wherever it is linked from.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from pipelines.profiles import Profile
from pipelines.profiles import load as _load_profile
from pipelines.publish.explain import MINUS

#: A scoring program's own event identifier that means nothing to a reader (a Bridgemate
#: session GUID, 32 hexadecimal digits, with or without braces and dashes).
GUID = re.compile(r"^\{?[0-9A-Fa-f]{8}-?([0-9A-Fa-f]{4}-?){3}[0-9A-Fa-f]{12}\}?$")


@lru_cache(maxsize=64)
def load_profile(name: str | None) -> Profile:
    """The profile ``name`` (:func:`pipelines.profiles.load`), read once per publication's
    process: a page reads its profile's display settings, and thousands of pages share a
    few profiles."""
    return _load_profile(name)


TEMPLATES = Path(__file__).resolve().parent / "templates"


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def slug(text: object) -> str:
    """A readable, stable file-name form of ``text``: each run of characters other than
    letters, digits, ``_`` and ``-`` becomes one ``-`` (``2021 Online Qual: Open R2`` →
    ``2021-Online-Qual-Open-R2``); no hash. Every id that becomes a path (an event id, a
    section, a contestant; the exports' file names) goes through it, so a path never holds
    ``..``, ``/``, ``\\``, a control character or a leading dot and never leaves its folder
    (``../../etc`` → ``etc``, ``/etc/passwd`` → ``etc-passwd``, ``..`` → ``x``). Two events whose
    ids share a form take ``-2``, ``-3`` ... (:func:`unique_names`: their folders, their
    exports), and so do two contestants of one session (:func:`card_names`) and two sections of
    one session (:func:`section_dirs`), never written over each other. A form
    longer than 100 characters (a file name has at most 255 bytes) is cut to 91 and ends with
    8 hex digits of its SHA-256: still stable, still unique."""
    s = _UNSAFE.sub("-", str(text)).strip("-") or "x"
    return s if len(s) <= 100 else f"{s[:91]}-{hashlib.sha256(s.encode()).hexdigest()[:8]}"


def rel(target: str, page: str) -> str:
    """The link from the page ``page`` to ``target`` (both relative to the site root, as the
    site writes them: ``/``-separated, no ``.`` or ``..``): up out of the folders ``page`` does
    not share with ``target``, then down — :func:`posixpath.relpath` without its trip through
    the current directory (a site of many thousand pages makes some hundred thousand links).

    >>> rel("events/E/s1/index.html", "events/E/s1/A/board-3.html")
    '../index.html'
    >>> rel("index.html", "events/E/index.html")
    '../../index.html'
    >>> rel("events/E/s1/A/card-7.html", "events/E/s1/A/board-3.html")
    'card-7.html'
    """
    t = target.split("/")
    here = page.split("/")[:-1]
    i = 0
    while i < len(here) and i < len(t) - 1 and here[i] == t[i]:
        i += 1
    return "/".join([".."] * (len(here) - i) + t[i:])


#: What ``getattr`` finds on a plain dict: its methods and the object's own names.
_DICT_NAMES = frozenset(dir(dict))


class RowsEnvironment(Environment):
    """Jinja2's environment, reading ``row.field`` of a plain dict as its key at once.

    Jinja reads ``a.b`` as the attribute ``b`` of ``a`` and, failing that, as its item
    ``b``: for the dict rows the pages are made of, every field costs a failed attribute
    lookup (an exception) first. A plain dict has no attribute but the names of
    :data:`_DICT_NAMES`, so for any other name the item is the answer Jinja would give:
    looked up directly, the same page comes out, faster."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except LookupError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def environment() -> Environment:
    """The Jinja2 environment: autoescape ON for every template, undefined names an error,
    dict rows' fields read directly (:class:`RowsEnvironment`), each template loaded once."""
    env = RowsEnvironment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,  # every template, file or string: names are text, never markup
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # a template is read once per process, not looked at again on every page (a stat
        # per page): the templates are the package's own, they do not change during a run
        auto_reload=False,
    )
    env.filters["num"] = fmt
    env.filters["signed"] = signed
    return env


def fmt(value: Any, decimals: int = 2) -> str:
    """A figure with ``decimals`` places as the profile shows it; empty when missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = f"{float(value):.{decimals}f}"
    return text.replace("-", MINUS)


def signed(value: Any, decimals: int = 2) -> str:
    """A change with its sign: ``+1.25``, ``−0.50``, ``0``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    v = float(value)
    if abs(v) < 1e-12:
        return "0"
    return ("+" if v > 0 else MINUS) + f"{abs(v):.{decimals}f}"


def penalty_text(r: dict[str, Any], decimals: int = 2) -> str:
    """The penalties deducted from a standing (Laws 90, 91), each with its unit when it is
    not matchpoints: ``−6.00`` (MP), ``−3.00 IMP`` (at IMP forms; at teams off the match
    margins), ``−1.00 VP`` (a teams VP penalty); empty when nothing was deducted."""
    parts = []
    if r.get("penalties"):
        unit = r.get("penalty_unit") or "MP"
        parts.append(MINUS + fmt(r["penalties"], decimals) + ("" if unit == "MP" else f" {unit}"))
    if r.get("vp_penalties"):
        parts.append(MINUS + fmt(r["vp_penalties"], decimals) + " VP")
    return ", ".join(parts)


@dataclass(frozen=True)
class Decimals:
    """How the event's profile shows matchpoints, totals and percentages."""

    mp: int
    total: int
    pct: int
    #: how a shared place is printed (``display.tied_place``)
    tied_place: str = "trailing_equals"

    @classmethod
    def of(cls, profile: str | None) -> Decimals:
        """The display decimals of ``profile`` (default profile when unknown)."""
        p = load_profile(profile)
        return cls(p.mp_decimals, p.total_decimals, p.percentage_decimals, p.tied_place)


def contestant_label(contestant: str, direction: str | None) -> str:
    """``7`` in a Howell, ``7 NS`` in a Mitchell (two fields)."""
    return f"{contestant} {direction}" if direction else str(contestant)


def unique_names(bases: Iterable[tuple[Any, str]]) -> dict[Any, str]:
    """Each key's name from ``(key, base)`` pairs, in their order: its base, unless an earlier
    key holds that base already — then ``base-2``, ``base-3`` ..., skipping every base and
    every name given. Unique, and the same for the same pairs in the same order.

    >>> unique_names([("A/B", "A-B"), ("A-B", "A-B"), ("x", "A-B-2")])
    {'A/B': 'A-B', 'A-B': 'A-B-3', 'x': 'A-B-2'}
    """
    pairs = list(bases)
    taken = {base for _, base in pairs}
    claimed: set[str] = set()
    names: dict[Any, str] = {}
    for key, base in pairs:
        if base not in claimed:
            claimed.add(base)
            names[key] = base
            continue
        n = 2
        while f"{base}-{n}" in taken:
            n += 1
        names[key] = f"{base}-{n}"
        taken.add(names[key])
    return names


def export_stems(folders: dict[str, str]) -> dict[str, str]:
    """Each event's exported files' name (``<stem>.xml``, ``<stem>-s1.pbn``) from its site
    folder (:func:`~pipelines.publish.site.event_folders`, in its order): the folder, where
    two ids of one form (``A/B`` and ``A-B``) took ``-2``, so neither event's file is
    written over the other's; for an event known by a program's GUID, the GUID made a file
    name, as before (its USEBIO names it anyway)."""
    return unique_names(
        (event_id, slug(event_id) if GUID.match(str(event_id)) else folder)
        for event_id, folder in folders.items()
    )


def slug_expr(text: pl.Expr) -> pl.Expr:
    """:func:`slug` of each value of ``text``, vectorised, for forms of at most 100
    characters (a longer form, which :func:`slug` cuts and ends with a hash, is left whole):
    each run of characters other than letters, digits, ``_`` and ``-`` one ``-``, none at
    either end, ``x`` when nothing is left."""
    stripped = text.cast(pl.Utf8).str.replace_all(r"[^A-Za-z0-9_-]+", "-").str.strip_chars("-")
    return pl.when(stripped != "").then(stripped).otherwise(pl.lit("x"))  # the column's name


def section_dirs(sections: Iterable[Any]) -> dict[Any, str]:
    """The folder of each named section of one session (:func:`section_dir`): its
    :func:`slug`, except that two sections whose names share a form (``A/B`` and ``A-B``) are
    two folders — the later in the order of their names takes ``-2`` (:func:`unique_names`) —
    never one section's boards written over the other's.

    >>> section_dirs(["A-B", "A/B", "C", None])
    {'A-B': 'A-B', 'A/B': 'A-B-2', 'C': 'C'}
    """
    named = sorted({s for s in sections if s}, key=str)
    return unique_names((s, slug(s)) for s in named)


def section_dir(section: str | None, dirs: dict[Any, str] | None = None) -> str:
    """The folder of a section's boards and scorecards within its session (``A/``); none for
    a session's only, unnamed section. ``dirs``: the session's :func:`section_dirs` (without
    them, the section's :func:`slug`)."""
    if not section:
        return ""
    return f"{(dirs or {}).get(section) or slug(section)}/"


def card_name(
    section: str, contestant: str, direction: str | None, dirs: dict[Any, str] | None = None
) -> str:
    """A contestant's scorecard, relative to the session's folder: ``A/card-7-ns.html``
    (``dirs``: the session's :func:`section_dirs`)."""
    d = f"-{slug(direction).lower()}" if direction else ""
    return f"{section_dir(section, dirs)}card-{slug(contestant)}{d}.html"


def card_names(contestants: Iterable[tuple[Any, Any, Any]]) -> dict[tuple[Any, Any, Any], str]:
    """The scorecard of each contestant of one session, relative to the session's folder,
    keyed ``(section, contestant, direction or None)``: :func:`card_name`, except that two
    contestants of one section and direction whose ids share a file-name form (teams
    ``O'Brien`` and ``O Brien``, pairs ``6`` and ``6.``) are two scorecards — the later in the
    order of their ids takes ``-2`` (:func:`unique_names`) — never one written over the other.

    >>> names = card_names([("A", "6", None), ("A", "6.", None), ("A", "7", "NS")])
    >>> [names[k] for k in (("A", "6", None), ("A", "6.", None), ("A", "7", "NS"))]
    ['A/card-6.html', 'A/card-6-2.html', 'A/card-7-ns.html']
    """
    keys = sorted(
        {(sec, c, d or None) for sec, c, d in contestants},
        key=lambda k: (str(k[0] or ""), str(k[2] or ""), str(k[1])),
    )
    dirs = section_dirs(k[0] for k in keys)  # two sections of one form: two folders
    stems = unique_names((k, card_name(*k, dirs).removesuffix(".html")) for k in keys)
    return {k: f"{stem}.html" for k, stem in stems.items()}


def board_name(
    section: str, board: int, deal_round: int | None = 0, dirs: dict[Any, str] | None = None
) -> str:
    """A board's traveller, relative to the session's folder: ``A/board-16.html``
    (``board-16.html`` in an unnamed section), or ``A/board-r3-2.html`` where each round plays
    its own deals (teams, pairs re-dealt per round: ``deal_round``), so board 2 of round 1 and
    of round 3 are two travellers. ``dirs``: the session's :func:`section_dirs`."""
    r = f"r{deal_round}-" if deal_round else ""
    return f"{section_dir(section, dirs)}board-{r}{board}.html"


def board_label(board: int, deal_round: int | None = 0) -> str:
    """``2``, or ``R3 2`` (board 2 of round 3) where each round plays its own deals."""
    return f"R{deal_round} {board}" if deal_round else str(board)


def event_dir(event_id: str) -> str:
    """Folder of an event's pages, relative to the site root: ``events/<event>``."""
    return f"events/{slug(event_id)}"


def session_dir(event_id: str, session: int) -> str:
    """Folder of a session's pages, relative to the site root: ``events/<event>/s1``."""
    return f"{event_dir(event_id)}/s{session}"
