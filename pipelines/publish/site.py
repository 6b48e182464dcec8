"""The results site: static HTML pages players read, written from the warehouse.

Pages (all plain HTML and one CSS file, readable on a phone; the one script is the player
search's), at readable, stable addresses without hashes:

* ``index.html`` — the latest month's sessions by date (the newest first), then event, and a
  link to every month's page with its number of sessions;
* ``months/<YYYY-MM>.html`` — a month's sessions as the index shows them, linked to the index
  and to the months before and after it: rendered again only when what it shows changed, so
  a night that adds a date renders the latest month's page and the index, not the history
  (:meth:`Site._index`);
* ``events/<event>/index.html`` — the event: each session's rankings, then, over several
  sessions, the event ranking;
* ``events/<event>/s<n>/index.html`` — the session ranking per section (and per direction
  in a Mitchell: two fields, two rankings), with its status — *provisional* until the end of
  the correction period (Law 79C) and while an appeal is pending, then *final* — and, for a
  newer version, what changed and why (the appeal or the correction);
* ``events/<event>/s<n>/<section>/board-<n>.html`` (no section folder for a session's only,
  unnamed section) — each board's deal with its double-dummy table and par where a file
  carried it (:mod:`pipelines.publish.hands`), and its traveller sorted by NS score: pairs
  with their names, contract, declarer, tricks, score, the profile's displayed matchpoints
  (IMPs when the event has them), and every adjusted score marked and explained in words with
  its Law (:mod:`pipelines.publish.explain`);
* ``.../<section>/card-<contestant>.html`` — each contestant's scorecard, opponents named;
* ``players/<name>.html``, ``players/index.html`` and ``players/index.json`` — each player's
  season and the player index with its search (:mod:`pipelines.publish.players`).

The rows of the travellers and scorecards — some three for every result of the season —
are made for all the sessions of a batch of events at once, in columns
(:mod:`pipelines.publish.rows`); a page puts its rows in its table as they are.

A shared place or a broken tie says so in words next to the place, with the profile setting
that placed it (:mod:`pipelines.publish.ties`).

An event known only by a program's GUID (a Bridgemate ``.bws``) is titled by its club, name
and date (:func:`readable`), and its folder is that title, never the GUID (:func:`event_folders`).
Equal totals share a place (Law 78A; totals are exact), printed as the profile's
``display.tied_place`` says (``6=``, ``=6``, ``6-7`` or ``6``).
Every text comes from the warehouse and is escaped by Jinja2's autoescaping (a name such as
``<script>`` is shown, never run). National membership numbers are never read. Of a ruling,
an appeal or a penalty the pages say what was decided (kind, Laws, the adjusted score, the
outcome) and show only its ``public_note``: the director's and the committee's own ``note``
is never read (:mod:`pipelines.publish.data`).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import polars as pl
from markupsafe import Markup

from pipelines.laws.corrections import correction_deadline
from pipelines.publish.common import (  # noqa: F401 (board_label ... are this module's API too)
    GUID,
    TEMPLATES,
    Decimals,
    board_label,
    board_name,
    card_name,
    card_names,
    contestant_label,
    environment,
    event_dir,
    fmt,
    penalty_text,
    rel,
    section_dir,
    section_dirs,
    session_dir,
    signed,
    slug,
    unique_names,
)
from pipelines.publish.data import Published
from pipelines.publish.explain import (
    agreement_text,
    contract_result,
    explain,
    laws_text,
    place_text,
)
from pipelines.publish.files import (
    RowHashes,
    digest,
    listing,
    prune_listed,
    put,
    read_seal,
    record_of,
    seal,
    sealed_listing,
)
from pipelines.publish.hands import deal_view
from pipelines.publish.lines import table_score
from pipelines.publish.players import PlayerPages
from pipelines.publish.rows import SessionRows, page_rows
from pipelines.publish.teams import bracket, match_rows, vp_table
from pipelines.publish.ties import tie_notes, tie_rule
from pipelines.scoring.dates import MONTH_NAMES
from pipelines.split import parts_by


def readable(session: dict[str, Any]) -> dict[str, Any]:
    """``session`` with a name a reader understands: its own, unless it has none or its
    event is known only by a program's GUID (a Bridgemate ``.bws``: its ``Session.Name`` is
    often the default "Bridge game"); then the club (events.csv), the name and the date —
    "Pellwyn BC, Bridge game, 2019-04-26". ``shown_id``: the event id where it means
    something (never a GUID)."""
    guid = bool(GUID.match(str(session["event_id"])))
    name = session.get("name")
    if name and not guid:
        return {**session, "shown_id": session["event_id"]}
    club = session.get("club")
    if club and (GUID.match(str(club)) or str(session["event_id"]).startswith(str(club))):
        club = None  # the default club, the event id's prefix: the GUID again
    parts = [p for p in (club, name) if p] or ["Results"]
    title = ", ".join(dict.fromkeys([*parts, str(session.get("date") or "")]).keys()).strip(", ")
    shown_id = None if guid else session["event_id"]
    return {**session, "name": title, "club": club, "shown_id": shown_id}


def event_folders(sessions: list[dict[str, Any]]) -> dict[str, str]:
    """The folder of each event's pages (``events/<folder>/``), from :func:`readable`
    sessions: the event id made a file name (:func:`slug`), except for an event known only
    by a program's GUID (a Bridgemate ``.bws``), whose folder is its readable title — club,
    session name and date, ``Pellwyn-BC-Bridge-game-2019-04-26`` — so no address carries the
    GUID. A folder that another event's already holds — two GUID events of one title, two
    ids of one form (``Club A/B`` and ``Club A-B``) — takes ``-2``, ``-3`` ...
    (:func:`~pipelines.publish.common.unique_names`): the events with a readable id first,
    then the GUID events, each in the order of their dates, then ids. Unique, and the same at
    every publication of the same events."""
    first: dict[str, dict[str, Any]] = {}
    for s in sessions:
        first.setdefault(s["event_id"], s)

    def order(kv: tuple[str, dict[str, Any]]) -> tuple[bool, str, str]:
        event_id, s = kv
        return (bool(GUID.match(str(event_id))), str(s.get("date")), str(event_id))

    return unique_names(
        (
            event_id,
            slug(s.get("name") or "Results") if GUID.match(str(event_id)) else slug(event_id),
        )
        for event_id, s in sorted(first.items(), key=order)
    )


def with_span(st: pl.DataFrame) -> pl.DataFrame:
    """``st`` with ``span``: how many contestants of its ranking (section and direction)
    share its place (1 when alone), for a ``range`` place such as ``6-7``."""
    return st.with_columns(
        pl.len().over("section", pl.col("direction").fill_null(""), "rank").alias("span")
    )


def spans(rows: list[dict[str, Any]], across: bool = False) -> list[dict[str, Any]]:
    """:func:`with_span` of rows already made dicts (a session's standings, a few dozen):
    each row given ``span``, how many rows of its section and direction (none counted as
    ``""``) share its ``rank`` — counted here rather than by a query per session, whose
    fixed cost is many times that of counting a ranking's rows. ``across``: the rows are
    ranked across the field (Law 78A), so a place is shared over every section."""
    key = [("" if across else r["section"], r.get("direction") or "", r["rank"]) for r in rows]
    counts = Counter(key)
    for r, k in zip(rows, key, strict=True):
        r["span"] = counts[k]
    return rows


def across_field(session: dict[str, Any]) -> bool:
    """Whether an event session's boards are compared, and its contestants ranked, across
    every section (``compare`` = ``field`` at matchpoints, Law 78A)."""
    return session.get("compare") == "field" and (session.get("scoring") or "matchpoints") == (
        "matchpoints"
    )


def in_place_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` sorted by ``rank`` then ``contestant``, each ascending with nulls last, rows
    equal on both kept in their order (a stable sort, as ``DataFrame.sort(["rank",
    "contestant"], nulls_last=True, maintain_order=True)``)."""
    return sorted(
        rows,
        key=lambda r: (
            r["rank"] is None,
            0 if r["rank"] is None else r["rank"],
            r["contestant"] is None,
            "" if r["contestant"] is None else r["contestant"],
        ),
    )


def _by_section_direction_contestant(r: dict[str, Any]) -> tuple:
    """The order of ``DataFrame.sort(["section", "direction", "contestant"])``: each
    ascending, nulls first."""
    return tuple(
        (r[k] is not None, "" if r[k] is None else r[k])
        for k in ("section", "direction", "contestant")
    )


def status_text(session: dict[str, Any]) -> str:
    """Provisional (with the end of the correction period, Law 79C) or final (Law 92B: once
    the period is over and no appeal is pending)."""
    if session.get("status") == "final":
        return "Final"
    deadline = session_deadline(session)
    return f"Provisional: score corrections may be requested until {deadline} (Law 79C)"


def session_deadline(session: dict[str, Any]) -> str:
    """End of the correction period: ``published_at`` (default the end of the session's day)
    plus the event's correction minutes."""
    pub = session.get("published_at")
    try:
        start = datetime.strptime(pub, "%Y-%m-%d %H:%M") if pub else None
    except ValueError:
        start = None
    if start is None:
        start = datetime.strptime(f"{session['date']} 23:59", "%Y-%m-%d %H:%M")
    minutes = session.get("correction_minutes") or 30
    return correction_deadline(start, int(minutes)).strftime("%Y-%m-%d %H:%M")


def shown_contract(row: dict[str, Any]) -> dict[str, Any]:
    """The contract, declarer and tricks a traveller line shows: the table's result, or the
    result a ruling put in its place when that is one contract result for both sides (an
    assigned score, Law 12C1(b), or a score correction, Law 79C); the note says what was
    played."""
    ns, ew = row.get("effective_ns_result"), row.get("effective_ew_result")
    kind = row.get("adjustment")
    if kind in ("assigned", "score_correction", "director_error", "artificial") and (
        not ew or (ns or "").strip() == ew.strip()
    ):
        parsed = contract_result(ns)
        if parsed is not None:
            contract, declarer, tricks = parsed
            return {"contract": contract, "declarer": declarer or None, "tricks": tricks}
    return {k: row.get(k) for k in ("contract", "declarer", "tricks")}


def _order(key: tuple[str, int, int]) -> tuple[str, int, int]:
    """Travellers in play order: section, round (where re-dealt), board number."""
    section, board, deal_round = key
    return section, deal_round, board


def sides(results: pl.DataFrame) -> pl.DataFrame:
    """Each traveller line from each contestant's seat: one row per (line, contestant).

    Pairs: the NS pair and the EW pair (in a Mitchell the contestant is the pair with its
    direction). Individuals (Law 89): north and south each receive the NS side's score, east
    and west the EW side's.
    """
    mitchell = pl.col("movement") == "mitchell"

    def side(df: pl.DataFrame, who: str, against: str, own: str, sign: int) -> pl.DataFrame:
        o = own.lower()

        def fig(name: str) -> pl.Expr:
            """The side's figure; a south or west player's own where the session-percentage
            rule gave him one (Law 89 with 12C2(c))."""
            if name not in df.columns:
                return pl.lit(None, pl.Float64)
            mine = f"{who}_{name.split('_', 1)[1]}"
            return pl.coalesce(mine, name) if mine in df.columns else pl.col(name)

        return df.with_columns(
            pl.col(who).alias("who"),
            pl.col(against).alias("against"),
            pl.lit(own).alias("side"),
            pl.when(mitchell).then(pl.lit(own)).otherwise(pl.lit(None, pl.Utf8)).alias("who_dir"),
            fig(f"{o}_mp_display").alias("own_mp"),
            fig(f"{o}_pct").alias("own_pct"),
            (pl.col("ns_score") * sign).alias("own_score"),
            (
                fig(f"{o}_imps_display") if f"{o}_imps_display" in df.columns else fig(f"{o}_imps")
            ).alias("own_imp"),
        )

    individual = pl.col("form").fill_null("pairs") == "individual"
    pairs, indiv = results.filter(~individual), results.filter(individual)
    frames = [
        side(pairs, "ns_pair", "ew_pair", "NS", 1),
        side(pairs, "ew_pair", "ns_pair", "EW", -1),
    ]
    if indiv.height:
        frames += [
            side(indiv, "north", "ew_pair", "NS", 1),
            side(indiv, "south", "ew_pair", "NS", 1),
            side(indiv, "east", "ns_pair", "EW", -1),
            side(indiv, "west", "ns_pair", "EW", -1),
        ]
    return pl.concat(frames, how="diagonal_relaxed")


#: The keys of one session's rows in the standings and the changes (scope ``session``).
SESSION_KEYS = ("event_id", "scope", "session")

#: About how many results the rows of the traveller and scorecard pages are made for at once
#: (:meth:`Site._rows_of`): the rows' HTML of a chunk of a batch's sessions is held, not a
#: batch's.
ROWS_AT_ONCE = 10_000

#: The folder of the month pages, relative to the site root (``months/2026-11.html``).
MONTHS_DIR = "months"


#: The columns of a published session the index and the month pages are made from: shown, or
#: made into what is shown (:func:`readable`: the title, club and event id; :func:`status_text`:
#: the status with the end of its correction period).
INDEX_COLUMNS = (
    "date",
    "event_id",
    "session",
    "name",
    "club",
    "director",
    "status",
    "published_at",
    "correction_minutes",
)


def month_of(day: object) -> str:
    """The month (``2026-11``) of a session's date (``2026-11-02``).

    >>> month_of("2026-11-02")
    '2026-11'
    """
    return str(day)[:7]


def month_label(month: str) -> str:
    """A month as a reader reads it: ``2026-11`` -> ``November 2026``.

    >>> month_label("2026-11")
    'November 2026'
    """
    year, _, number = month.partition("-")
    if not (number.isdigit() and 1 <= int(number) <= 12):
        return month
    return f"{MONTH_NAMES[int(number) - 1]} {year}"


def month_page(month: str) -> str:
    """The page of a month's sessions, relative to the site root: readable and stable, the
    same for the month at every publication.

    >>> month_page("2026-11")
    'months/2026-11.html'
    """
    return f"{MONTHS_DIR}/{slug(month)}.html"


class Site:
    """Renders the results site for a :class:`Published` snapshot into a folder."""

    #: what makes the player pages (:class:`~pipelines.publish.players.PlayerPages`)
    player_pages: type[PlayerPages] = PlayerPages

    def __init__(
        self,
        data: Published,
        out: Path,
        keys: dict[str, str] | None = None,
        kept: Collection[str] = (),
        before: dict[str, dict[str, Any]] | None = None,
        there: set[str] | None = None,
    ) -> None:
        """Prepare to write ``data`` into ``out`` (created; pages that changed are replaced,
        pages no longer published removed). ``keys``: what each event's pages are made from
        (:func:`~pipelines.publish.data.event_keys`), recorded with them; ``kept``: events
        whose key is the one of the last publication and whose pages are all there
        (:meth:`keepable`): their pages are kept as they are, their rows not even read.
        ``before`` and ``there``: the record of the last publication (:meth:`recorded`) and
        the listing of ``out`` (:func:`~pipelines.publish.files.listing`) when the caller has
        read them already (each is read once, not again here)."""
        self.data = data
        self.out = Path(out)
        self.keys = keys or {}
        self.kept_events = set(kept)
        self.env = environment()
        #: the pages written (paths; a helper's, as text), and those kept as they were: the
        #: lists of their records (relative, with ``/``), made paths only when asked
        #: (:meth:`all_pages`): a site of many thousand kept pages makes no path of each
        self.pages: list[Path | str] = []
        self._kept_pages: list[list[str]] = []
        self._root = os.fspath(self.out)
        #: what every page's path begins with: the site's folder and a separator (nothing
        #: for the current folder, whose pages are named without ``./``)
        self._prefix = "" if self._root == "." else self._root.rstrip(os.sep) + os.sep
        self._there: set[str] | None = there
        self._paths: set[str] = set()  # the pages' paths, to refuse two pages on one path
        self._parts: dict[tuple[str, tuple[str, ...]], tuple[pl.DataFrame, dict]] = {}
        #: each frame's rows hashed once, by the same split (:meth:`_hashed`)
        self._hash_parts: dict[tuple[str, tuple[str, ...]], tuple[RowHashes, dict]] = {}
        #: the events of the batch being rendered (:meth:`render_events`): frames are split
        #: for them only
        self._batch: pl.Series | None = None
        #: the batch's sessions whose pages' rows are not made yet, the rows made and not
        #: yet written (:meth:`_rows_of`), and the scorecards' names and sections' folders
        #: (:meth:`_layout`)
        self._pending: list[dict[str, Any]] = []
        self._rows: dict[tuple[str, int], SessionRows] = {}
        self._layouts: dict[tuple[str, int], tuple[dict, dict]] = {}
        #: each session's rankings as its page shows them (:meth:`_own_rankings`)
        self._rankings_made: dict[tuple[str, int], list[dict[str, Any]]] = {}
        #: files written because their content changed, and files removed, by :meth:`render`
        #: (a helper's written files as the paths' text it sent: no Path made of each)
        self.changed: list[Path | str] = []
        self.removed: list[Path] = []
        self.matches = data.extra.get("matches")
        #: per session: the digest of what its pages were made from, and its pages
        self.manifest: dict[str, dict[str, Any]] = {}
        self._before = self._read_manifest() if before is None else before
        #: sessions whose pages were rendered, and those kept as they were (same digest)
        self.rendered = 0
        self.kept = 0
        #: player pages rendered, and those kept as they were (:mod:`.players`)
        self.players_rendered = 0
        self.players_kept = 0
        #: month pages rendered, and those kept as they were (:meth:`_index`)
        self.months_rendered = 0
        self.months_kept = 0
        #: each event's folder (``events/<folder>``, :func:`event_folders`)
        self.folders: dict[str, str] = {}
        #: the record of the pages :meth:`finish` wrote, and whether its bytes changed
        self.record_bytes = b""
        self.record_written = False

    @property
    def there(self) -> set[str]:
        """The files the output folder held when this publication began (relative paths,
        :func:`~pipelines.publish.files.listing`): one listing, read when first needed."""
        if self._there is None:
            self._there = listing(self.out)
        return self._there

    def _read_manifest(self) -> dict[str, dict[str, Any]]:
        return self.recorded(self.out)

    @staticmethod
    def recorded(out: Path) -> dict[str, dict[str, Any]]:
        """What the last publication into ``out`` recorded of its pages (``.manifests``)."""
        return Site.recorded_and_listed(out)[0]

    @staticmethod
    def recorded_and_listed(
        out: Path,
    ) -> tuple[dict[str, dict[str, Any]], set[str], dict | None]:
        """What the last publication into ``out`` recorded of its pages (:meth:`recorded`),
        what ``out`` holds (:func:`~pipelines.publish.files.listing`) and the folder's seal
        when that came from it: when the folder is as that publication left it
        (:func:`~pipelines.publish.files.sealed_listing`), from the record and the seal
        (returned); else walked (``None``)."""
        try:
            raw = record_of(out).read_bytes()
            data = json.loads(raw)
        except (OSError, ValueError):
            raw, data = b"", {}
        before = data if isinstance(data, dict) else {}
        sealed = read_seal(out) if before else None
        there = sealed_listing(out, raw, before, sealed) if sealed else None
        if there is not None:
            return before, there, sealed
        return before, listing(out) if out.is_dir() else set(), None

    @staticmethod
    def keepable(
        out: Path,
        keys: dict[str, str],
        before: dict[str, dict[str, Any]] | None = None,
        there: set[str] | None = None,
        sealed: bool = False,
    ) -> set[str]:
        """The events whose pages the last publication into ``out`` made from what they are
        made from now (``keys``) and which are all still there: kept as they are. (Whether
        they are there is looked up in one listing of ``out``, not a file test per page;
        ``before`` and ``there`` as for :class:`Site`. ``sealed``: the listing came from the
        folder's seal, which holds every page ``before`` names — none is looked up.)"""
        before = Site.recorded(out) if before is None else before
        if there is None:
            there = listing(out) if before else set()
        kept = set()
        for event_id, made_from in keys.items():
            entry = before.get(f"event\x1f{event_id}") or {}
            if entry.get("digest") != made_from or not entry.get("pages"):
                continue
            sessions = entry.get("sessions") or []
            if all(k in before for k in sessions) and (
                sealed or all(p in there for p in Site._event_pages(before, entry))
            ):
                kept.add(event_id)
        return kept

    @staticmethod
    def _event_pages(before: dict[str, dict[str, Any]], entry: dict[str, Any]) -> list[str]:
        """Every page of an event as recorded (``before``): its own pages (its ``entry``'s)
        and its sessions' (each session's entry), in that order, each once. An event's
        record names only its own pages: its sessions' are recorded once, in theirs (a record
        written before may name them in both)."""
        pages = dict.fromkeys(entry.get("pages") or [])
        for key in entry.get("sessions") or []:
            pages.update(dict.fromkeys(before[key].get("pages") or []))
        return list(pages)

    def _keep_event(self, event_id: str) -> None:
        """Keep an event's pages as the last publication wrote them (:meth:`keepable`), with
        its sessions' records."""
        entry = self._before[f"event\x1f{event_id}"]
        pages = self._event_pages(self._before, entry)
        clash = [p for p in pages if p in self._paths]
        if clash:
            raise ValueError(f"two pages would be written to {clash[0]}")
        self._paths.update(pages)
        self._kept_pages.append(pages)
        sessions = entry.get("sessions") or []
        for key in sessions:
            self.manifest[key] = self._before[key]
        own = entry["pages"]
        if len(own) > 1 and sessions:  # an older record: its sessions' pages named here too
            theirs = {p for key in sessions for p in self._before[key].get("pages") or []}
            own = [p for p in own if p not in theirs]
        self.manifest[f"event\x1f{event_id}"] = {**entry, "pages": own}
        self.kept += len(entry.get("sessions") or [])

    def _digest(self, s: dict[str, Any]) -> str:
        """SHA-256 of everything a session's pages are made from (:meth:`_session` reads
        nothing else): the engine's code and templates, the session, its profile's display
        settings and its rows of each frame, in order. The same digest as at the last
        publication and its pages still there: they would come out byte for byte the same."""
        event_id, n = s["event_id"], s["session"]
        frames = {
            "standings": self._hashed("standings", SESSION_KEYS, event_id, "session", n),
            "results": self._hashed("results", ("event_id", "session"), event_id, n),
            "changes": self._hashed("changes", SESSION_KEYS, event_id, "session", n),
            "penalties": self._hashed("penalties", ("event_id", "session"), event_id, n),
            "reconciliation": self._hashed("reconciliation", ("event_id",), event_id),
        }
        # whether another event has matches or deals changes nothing of this one's pages:
        # the frames are part of the digest whenever the warehouse has them (a publication in
        # batches of events gives the digest of one batch)
        if self.matches is not None:
            frames["matches"] = self._hashed("matches", ("event_id", "session"), event_id, n)
        if self.data.extra.get("deals") is not None:
            frames["deals"] = self._hashed("deals", ("event_id", "session"), event_id, n)
        named = [part for name, frame in frames.items() for part in (name, frame)]
        return digest(s, repr(Decimals.of(s.get("profile"))), *named)

    def _session_pages(self, s: dict[str, Any]) -> None:
        """The pages of one session: kept as they are when what they are made from did not
        change since the last publication (:meth:`_digest`), else rendered."""
        key = f"{s['event_id']}\x1f{s['session']}"
        digest = self._digest(s)
        if self.keep(key, digest):
            self.kept += 1
            return
        first = self.page_count()
        self._session(s)
        self.record(key, digest, first)
        self.rendered += 1

    def keep(self, key: str, made_from: str | None) -> bool:
        """Whether the pages recorded under ``key`` at the last publication were made from
        ``made_from`` (a :func:`~pipelines.publish.files.digest`; ``None``: from what they are
        made from now, known otherwise — their events are kept) and are all still there: then
        they are kept as they are — not rendered, not written — and recorded again."""
        before = self._before.get(key) or {}
        pages = before.get("pages") or []
        if (
            (made_from is not None and before.get("digest") != made_from)
            or not pages
            or any(p in self._paths for p in pages)
            or not all(p in self.there for p in pages)
        ):
            return False
        self._paths.update(pages)
        self._kept_pages.append(pages)
        self.manifest[key] = before
        return True

    def _in_root(self, pages: list[str]) -> list[str]:
        """Kept pages' paths (relative, with ``/``) as paths in the site's folder, as text."""
        return [self._prefix + p.replace("/", os.sep) for p in pages]

    def record(self, key: str, made_from: str, first: int) -> None:
        """Record the pages written since there were ``first`` (:meth:`page_count`) under
        ``key``, made from ``made_from``."""
        cut = len(self._prefix)  # every page lies in the site's folder
        made = [os.fspath(p)[cut:].replace(os.sep, "/") for p in self.pages[first:]]
        self.manifest[key] = {"digest": made_from, "pages": made}

    def page_count(self) -> int:
        """How many pages this publication has written so far: :meth:`record` records those
        written since (a record's pages are either all kept or all written)."""
        return len(self.pages)

    @property
    def page_total(self) -> int:
        """How many pages this publication has written and kept."""
        return len(self.pages) + sum(map(len, self._kept_pages))

    def all_pages(self) -> list[Path | str]:
        """The pages written, then those kept (as text: paths in the site's folder)."""
        return [*self.pages, *(p for pages in self._kept_pages for p in self._in_root(pages))]

    def _of(self, name: str, keys: tuple[str, ...], *values: Any) -> pl.DataFrame:
        """The rows of the snapshot's frame ``name`` (a :class:`Published` field or an extra)
        whose ``keys`` hold ``values``. Each frame is split by its keys once, not filtered
        again for every page: the site costs what its pages hold, not pages x rows."""
        made = self._parts.get((name, keys))
        if made is None:
            frame = self._frame(name, keys)
            if frame is None:
                return pl.DataFrame()
            made = (
                frame.clear(),
                parts_by(frame, keys),
            )
            self._parts[(name, keys)] = made
        empty, parts = made
        found = parts.get(tuple(values))
        return found if found is not None else empty

    def _frame(self, name: str, keys: tuple[str, ...]) -> pl.DataFrame | None:
        """The snapshot's frame ``name`` as :meth:`_of` splits it: a batch's events only
        (:meth:`render_events`) when split by event (a night of few events does not split the
        season); ``None`` when the snapshot has no such frame."""
        frame = getattr(self.data, name, None)
        if frame is None:
            frame = self.data.extra.get(name)
        if frame is not None and self._batch is not None and keys[0] == "event_id":
            if frame.height:
                frame = frame.filter(pl.col("event_id").is_in(self._batch))
        return frame

    def _hashed(self, name: str, keys: tuple[str, ...], *values: Any) -> RowHashes | pl.DataFrame:
        """What a digest reads of :meth:`_of` (``name``, ``keys``, ``values``): its
        :class:`~pipelines.publish.files.RowHashes`, every row of the frame hashed in one
        pass, once (the frame itself when the snapshot has none: an empty frame)."""
        made = self._hash_parts.get((name, keys))
        if made is None:
            frame = self._frame(name, keys)
            if frame is None:
                return pl.DataFrame()
            made = (RowHashes.of(frame.clear()), RowHashes.parts(frame, list(keys)))
            self._hash_parts[(name, keys)] = made
        empty, parts = made
        return parts.get(tuple(values), empty)

    @staticmethod
    def _figures(results: pl.DataFrame) -> dict[str, bool]:
        """Which figures a session's travellers show: matchpoints, IMPs (the IMP forms)."""
        return {
            "mp": bool(results["ns_mp_display"].is_not_null().any()) or not results.height,
            "imps": "ns_imps" in results.columns and bool(results["ns_imps"].is_not_null().any()),
        }

    def _matches(self, event_id: str, session: int | None = None) -> pl.DataFrame | None:
        """The team matches of the event (of one of its sessions), when it has any."""
        if self.matches is None or not self.matches.height:
            return None
        if session is None:
            found = self._of("matches", ("event_id",), event_id)
        else:
            found = self._of("matches", ("event_id", "session"), event_id, session)
        return found if found.height else None

    @staticmethod
    def _names(st: pl.DataFrame) -> dict[tuple[str, str], str]:
        """Each team's names by ``(section or "", team)``: team 1 of section A is not team 1
        of section B (:mod:`.teams`)."""
        return {
            (r["section"] or "", r["contestant"]): r.get("names") or ""
            for r in st.select("section", "contestant", "names").to_dicts()
        }

    # ------------------------------------------------------------------ writing

    def write(self, rel: str, template: str, **ctx: Any) -> None:
        """Render ``template`` into the page ``rel`` (relative to the site root; written only
        when its content changed); two pages on one path are refused."""
        self._write(rel, template, **ctx)

    def write_file(self, rel: str, data: bytes) -> None:
        """Write a file of the site that is not a page (the player index's JSON), only when
        its bytes changed."""
        if rel in self._paths:
            raise ValueError(f"two files would be written to {rel}")
        self._paths.add(rel)
        self.pages.append(self._put(self.out / rel, data.decode("utf-8")))

    def _write(self, rel: str, template: str, **ctx: Any) -> None:
        if rel in self._paths:
            raise ValueError(
                f"two pages would be written to {rel}: two events, sections or contestants "
                "whose names differ only in punctuation; rename one"
            )
        depth = rel.count("/")
        html = self.env.get_template(template).render(root="../" * depth, **ctx)
        self._paths.add(rel)
        self.pages.append(self._put(self.out / rel, html))

    def _put(self, path: Path, text: str) -> Path:
        """Write ``text`` to ``path`` only when the file does not already hold it: a page
        whose content did not change is not written again (its time stamp stays, a web
        server's cache and an ``rsync`` skip it)."""
        if put(path, text.encode("utf-8")):  # atomically: a reader never sees half a page
            self.changed.append(path)
        return path

    def _prune(self) -> None:
        """Remove what the folder held when this publication began (:attr:`there`) and this
        one did not write or keep (a withdrawn session's pages), then the folders left
        empty: the listing read at the start, not a second walk of the site."""
        self.removed.extend(prune_listed(self.out, self.there - self._published()))

    def render(self) -> list[Path | str]:
        """Write every page and the style sheet (each only when its content changed), remove
        the pages no longer published; return the pages. (:meth:`start`, the events of
        the snapshot in one batch, :meth:`finish`.)"""
        self.start()
        self.render_events([e for e in self.by_event if e not in self.kept_events], self.data)
        self.finish()
        return self.all_pages()

    def start(self) -> None:
        """The style sheet, the search script and the index; the events kept as they are
        (:meth:`keepable`) keep their pages. Then :meth:`render_events` for each batch of the
        others, and :meth:`finish`."""
        if self.out.exists() and not self.out.is_dir():
            self.out.unlink()
        self.out.mkdir(parents=True, exist_ok=True)
        self._fixed = [
            self._put(self.out / name, (TEMPLATES / name).read_text("utf-8"))
            for name in ("style.css", "search.js")
        ]
        self.prepare()
        self._index(self.sessions)
        for event_id in self.by_event:
            if event_id in self.kept_events:
                self._keep_event(event_id)

    def prepare(self) -> None:
        """The published sessions (readable titles), each event's folder and its sessions:
        what every page's links are made from. (:meth:`start` does it; a helper process that
        makes some events' pages beside the publication does it alone, writing neither the
        index nor the pages of the events kept.)"""
        self.sessions = [readable(s) for s in self.data.sessions.to_dicts()]
        self.folders = event_folders(self.sessions)
        for s in self.sessions:
            s["folder"] = self.folders[s["event_id"]]
        self.by_event: dict[str, list[dict[str, Any]]] = {}
        for s in self.sessions:
            self.by_event.setdefault(s["event_id"], []).append(s)

    def made_apart(self) -> dict[str, Any]:
        """What this site made, to hand to the publication it helps (:meth:`take`): the
        pages' records, the pages (written or kept) and their paths, those written, and the
        sessions rendered and kept — all as plain data."""
        return {
            "manifest": self.manifest,
            "pages": [os.fspath(p) for p in self.pages],
            "kept_pages": self._kept_pages,
            "paths": sorted(self._paths),
            "changed": [os.fspath(p) for p in self.changed],
            "rendered": self.rendered,
            "kept": self.kept,
        }

    def take(self, part: dict[str, Any]) -> None:
        """Add what a helper process made of other events' pages (:meth:`made_apart`) to
        this publication's: its pages count as written here (two pages on one path are
        refused, as when one process writes both)."""
        clash = self._paths.intersection(part["paths"])
        if clash:
            raise ValueError(
                f"two pages would be written to {min(clash)}: two events, sections or "
                "contestants whose names differ only in punctuation; rename one"
            )
        self._paths.update(part["paths"])
        self.pages.extend(part["pages"])
        self._kept_pages.extend(part["kept_pages"])
        self.changed.extend(part["changed"])
        self.manifest.update(part["manifest"])
        self.rendered += part["rendered"]
        self.kept += part["kept"]

    def render_events(
        self,
        events: Iterable[str],
        batch: Published,
        made: Callable[[str], None] | None = None,
    ) -> None:
        """The pages of ``events`` (a batch of the events made again), from ``batch``, their
        rows (:func:`~pipelines.publish.data.load_events`: the sessions and standings are the
        snapshot's, read whole); ``made`` is told of each event once its pages are made (the
        publication's progress)."""
        self.data = replace(
            self.data,
            results=batch.results,
            changes=batch.changes,
            penalties=batch.penalties,
            extra={"players": self.data.extra.get("players"), **batch.extra},
        )
        self.matches = self.data.extra.get("matches")
        self._parts, self._hash_parts = {}, {}  # split and hash the batch's frames afresh
        events = list(events)
        self._rows, self._layouts, self._rankings_made = {}, {}, {}
        self._pending = [s for e in events for s in self.by_event.get(e) or []]
        self._batch = pl.Series(events, dtype=pl.Utf8).implode()
        for event_id in events:
            ev_sessions = self.by_event.get(event_id)
            if not ev_sessions:
                continue
            first = self.page_count()
            self._event(event_id, ev_sessions)
            # the event's record names its own pages; each session's names its own
            self.record(f"event\x1f{event_id}", self.keys.get(event_id, ""), first)
            for s in ev_sessions:
                self._session_pages(s)
            self.manifest[f"event\x1f{event_id}"]["sessions"] = [
                f"{s['event_id']}\x1f{s['session']}" for s in ev_sessions
            ]
            if made is not None:
                made(event_id)
        self._batch, self._parts, self._hash_parts = None, {}, {}  # whole frames again
        self._rows, self._layouts, self._rankings_made, self._pending = {}, {}, {}, []

    def finish(self) -> None:
        """The player pages, the record of the pages, and what is no longer published
        removed (the pages: :meth:`all_pages`, :attr:`page_total`)."""
        players = self.player_pages(
            self.data.standings, self.data.extra.get("players"), self.sessions
        )
        self.players_rendered, self.players_kept = players.render(self)
        # one line: json's C encoder writes it (an indented record is written in Python)
        self.record_bytes = (json.dumps(self.manifest, sort_keys=True) + "\n").encode()
        self.record_written = put(record_of(self.out), self.record_bytes)
        self._prune()

    def seal(self, sealed: dict | None) -> None:
        """Seal the folder, which now holds exactly what was published
        (:func:`~pipelines.publish.files.seal`: the next publication knows what it holds
        without walking it). ``sealed``: the seal its listing came from at the start (only
        the folders of the files written or removed since are looked at again), or ``None``
        (every folder). A publication that wrote, removed and recorded nothing new keeps
        that seal as it is: a publication of nothing new writes nothing."""
        if sealed is not None and not (self.changed or self.removed or self.record_written):
            return
        named: set[str] = set()
        for entry in self.manifest.values():
            named.update(entry.get("pages") or [])
        cut = len(self._prefix)
        touched = [os.fspath(p)[cut:].replace(os.sep, "/") for p in (*self.changed, *self.removed)]
        seal(self.out, self._published(), named, self.record_bytes, sealed, touched)

    def _published(self) -> set[str]:
        """The files of this publication (pages and the fixed files), relative, with ``/``."""
        return {*self._paths, *(p.relative_to(self.out).as_posix() for p in self._fixed)}

    def _event_dir(self, event_id: str) -> str:
        """The folder of an event's pages, relative to the site root (``events/<folder>``)."""
        return f"events/{self.folders.get(event_id) or slug(event_id)}"

    def _index(self, sessions: list[dict[str, Any]]) -> None:
        """The index and the month pages (:func:`month_page`), from the published
        ``sessions`` (:meth:`prepare`).

        The index shows the latest month that has sessions, day by day, and links to every
        month's page with its number of sessions: what a reader looks for first, on a page
        whose size is a month's, not the history's. A month's page shows its days (each
        session as the index shows it) and links to the index and to the months before and
        after it: nothing on it depends on another month's sessions, so a night that adds a
        date to the latest month leaves the older months' pages as they are — each is kept
        (:meth:`keep`), not rendered, while its digest (:meth:`_month_digests`) is the one of
        the last publication. The index is rendered every time (one month), and written only
        when its bytes changed; a month no longer published loses its page (:meth:`_prune`).
        Only the publication's own process makes them (:meth:`start`), never a helper."""
        by_month: dict[str, list[dict[str, Any]]] = {}
        for s in sessions:
            by_month.setdefault(month_of(s["date"]), []).append(s)
        order = sorted(by_month, reverse=True)  # newest first
        nav = {
            month: {"month": month, "label": month_label(month), "sessions": len(by_month[month])}
            for month in order
        }
        made_from = self._month_digests(order) if order else {}
        latest = self._days(by_month[order[0]]) if order else []  # the index's and its page's
        for i, month in enumerate(order):
            key = f"month\x1f{month}"
            if self.keep(key, made_from[month]):
                self.months_kept += 1
                continue
            path = month_page(month)
            newer = order[i - 1] if i > 0 else None
            older = order[i + 1] if i + 1 < len(order) else None
            first = self.page_count()
            self._write(
                path,
                "month.html.j2",
                title=f"Results of {nav[month]['label']}",
                label=nav[month]["label"],
                days=latest if i == 0 else self._days(by_month[month]),
                newer={**nav[newer], "href": rel(month_page(newer), path)} if newer else None,
                older={**nav[older], "href": rel(month_page(older), path)} if older else None,
            )
            self.record(key, made_from[month], first)
            self.months_rendered += 1
        self._write(
            "index.html",
            "index.html.j2",
            title="Results",
            days=latest,
            months=[{**nav[month], "href": month_page(month)} for month in order],
        )

    def _days(self, sessions: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
        """``sessions`` by day, the newest first, each with its links (from the site's root:
        a page puts its way up to it before them) and its status in words."""
        days: dict[str, list[dict[str, Any]]] = {}
        for s in sessions:
            s = {
                **s,
                "href": f"{self._event_dir(s['event_id'])}/s{s['session']}/index.html",
                "event_href": f"{self._event_dir(s['event_id'])}/index.html",
                "status_line": status_text(s),
            }
            days.setdefault(s["date"], []).append(s)
        return sorted(days.items(), reverse=True)

    def _month_digests(self, order: list[str]) -> dict[str, str]:
        """Each month's digest (``order``: the months, newest first): of what its page is made
        from — its sessions' fields the page shows or words them from (:data:`INDEX_COLUMNS`:
        the title, club and event id :func:`readable` makes, the director, the status and its
        correction period), each event's folder (its links), in the index's order — and its
        neighbours (its links to them), with the code and templates (:func:`digest`). Made in
        one pass over the sessions frame (each row hashed by Polars, not made a text in
        Python): an old month costs its share of that pass, not a render."""
        frame = self.data.sessions
        columns = [c for c in INDEX_COLUMNS if c in frame.columns]
        folders = pl.DataFrame(
            {"event_id": list(self.folders), "__folder": list(self.folders.values())},
            schema={"event_id": pl.Utf8, "__folder": pl.Utf8},
        )
        shown = frame.select(
            pl.col("date").cast(pl.Utf8).str.slice(0, 7).alias("__month"), *columns
        ).join(folders, on="event_id", how="left", maintain_order="left")
        parts = shown.partition_by("__month", as_dict=True, include_key=False, maintain_order=True)
        out = {}
        for i, month in enumerate(order):
            newer = order[i - 1] if i > 0 else None
            older = order[i + 1] if i + 1 < len(order) else None
            out[month] = digest("month", month, newer, older, parts[(month,)])
        return out

    def _event(self, event_id: str, sessions: list[dict[str, Any]]) -> None:
        st = self._of("standings", ("event_id", "scope"), event_id, "event")
        first = sessions[0]
        dec = Decimals.of(first.get("profile"))
        rankings = self._rankings(st, dec, link_dir=None, across=any(map(across_field, sessions)))
        changes = self._changes(
            self._of("changes", ("event_id", "scope"), event_id, "event"), st, dec
        )
        sessions_final = all(s.get("status") == "final" for s in sessions)
        # the event's own standings stay provisional while a session it states has no
        # results (pipelines.scoring.versions.event_versions), its sessions final or not
        final = sessions_final and (st.height == 0 or bool((st["status"] == "final").all()))
        matches = self._matches(event_id)
        names = self._names(self._of("standings", ("event_id",), event_id))
        league = (
            matches.filter(pl.col("stage").fill_null("round_robin") != "knockout")
            if matches is not None and "stage" in matches.columns
            else matches
        )
        self._write(
            f"{self._event_dir(event_id)}/index.html",
            "event.html.j2",
            title=first.get("name") or event_id,
            event=first,
            sessions=[
                {
                    **s,
                    "href": f"s{s['session']}/index.html",
                    "status_line": status_text(s),
                    "rankings": self._session_rankings(event_id, s),
                }
                for s in sessions
            ],
            rankings=rankings if len(sessions) > 1 else [],
            changes=changes if len(sessions) > 1 else [],
            status="Final"
            if final
            else "Provisional: a session is not final yet"
            if not sessions_final
            else "Provisional: a session of the event has no results yet",
            vp=vp_table(league, names, st) if league is not None and league.height else None,
            bracket=bracket(matches, names) if matches is not None else [],
        )

    def _session_rankings(self, event_id: str, s: dict[str, Any]) -> list[dict[str, Any]]:
        """A session's rankings as the event's page shows them, each contestant linked to its
        scorecard in the session's folder (named as the session names them: ``card_names``):
        the session page's rankings (:meth:`_own_rankings`), their links from the event's
        folder."""
        way = f"s{s['session']}/"
        return [
            {**ranking, "rows": [{**row, "href": way + row["href"]} for row in ranking["rows"]]}
            for ranking in self._own_rankings(s)
        ]

    def _own_rankings(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        """A session's rankings as its own page shows them (:meth:`_rankings`, each contestant
        linked to its scorecard from the session's folder): worked out once for the event's
        page and the session's (:meth:`render_events` lets them go with the batch)."""
        key = (s["event_id"], s["session"])
        found = self._rankings_made.get(key)
        if found is None:
            st = self._of("standings", SESSION_KEYS, s["event_id"], "session", s["session"])
            cards, _ = self._layout(s)
            found = self._rankings(
                st, Decimals.of(s.get("profile")), link_dir="", cards=cards, across=across_field(s)
            )
            self._rankings_made[key] = found
        return found

    def _agreement(self, event_id: str, session: int, program: str | None) -> str | None:
        """The line on whether the club's own figures are reproduced (see
        :func:`~pipelines.publish.explain.agreement_text`); ``None`` without official figures."""
        rec = self.data.extra.get("reconciliation")
        if rec is None or not rec.height:
            return None
        of_event = self._of("reconciliation", ("event_id",), event_id)
        if not of_event.height:
            return None
        rows = of_event.filter(pl.col("session") == session).to_dicts()
        return agreement_text(rows or [{"figures": 0}], program)

    def _rankings(
        self,
        st: pl.DataFrame,
        dec: Decimals,
        link_dir: str | None,
        cards: dict[tuple[Any, Any, Any], str] | None = None,
        across: bool = False,
    ) -> list[dict[str, Any]]:
        """One ranking per section and direction: rows with place, names and figures; each
        contestant links to its scorecard (``cards``, :func:`~.common.card_names`) in the
        session folder ``link_dir`` (relative to the page; ``None``: no links, an event
        ranking). ``across``: the places are over every section (:func:`across_field`), as
        each section's caption says."""
        out = []
        if not st.height:
            return out
        order = {"": 0, "NS": 1, "EW": 2}
        # the rankings' rows in place order, made dicts once, counted, sorted and grouped
        # here (not a frame per section and direction, nor a query per session: each costs
        # more than the few dozen rows of a session's ranking)
        groups: dict[tuple[Any, str], list[dict[str, Any]]] = {}
        rows_made = st.to_dicts()
        for r in rows_made:
            r["direction"] = r["direction"] or ""
        for r in in_place_order(spans(rows_made, across)):
            groups.setdefault((r["section"], r["direction"]), []).append(r)
        for (section, direction), standings in sorted(
            groups.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 3), kv[0][1])
        ):
            profile = standings[0].get("profile")
            matches = self._matches(standings[0]["event_id"], standings[0].get("session"))
            if across and section:
                # level over the whole field: its contestants named with their sections
                level = [
                    {**r, "contestant": f"{s} {r['contestant']}"}
                    for (s, d), rs in groups.items()
                    if d == direction
                    for r in rs
                ]
                by_field = tie_notes(level, profile, matches)
                ties = {
                    (str(r["contestant"]), r["direction"]): by_field[k]
                    for r in standings
                    if (k := (f"{section} {r['contestant']}", r["direction"])) in by_field
                }
            else:
                ties = tie_notes(standings, profile, matches)
            rows = []
            for r in standings:
                d = r["direction"] or None
                rows.append(
                    {
                        "place": place_text(
                            r["rank"], r["tied"], r.get("sanction"), dec.tied_place, r["span"]
                        ),
                        "contestant": contestant_label(r["contestant"], d),
                        "names": r.get("names") or "",
                        "score": fmt(r.get("score_display"), dec.total),
                        "pct": fmt(r.get("percentage_display"), dec.pct),
                        "boards": r.get("boards"),
                        "penalties": penalty_text(r, dec.total),
                        "tiebreak": r.get("tiebreak") or "",
                        "tie": ties.get((str(r["contestant"]), r["direction"] or "")),
                        "href": (
                            link_dir
                            + (
                                (cards or {}).get((section, r["contestant"], d))
                                or card_name(section, r["contestant"], d)
                            )
                            if link_dir is not None
                            else None
                        ),
                    }
                )
            unit = standings[0].get("unit")
            label = f"Section {section}" if section else "Ranking"
            if direction:
                label += f", {'North-South' if direction == 'NS' else 'East-West'}"
            if across and section:
                label += " (scored across the field: places over every section)"
            out.append(
                {
                    "label": label,
                    "rows": rows,
                    "section": section,
                    "direction": direction,
                    "unit": unit or "MP",
                    "has_pct": any(r["pct"] for r in rows),
                    "ties": bool(ties),
                    "tie_rule": tie_rule(profile, standings),
                }
            )
        return out

    def _changes(
        self, changes: pl.DataFrame, st: pl.DataFrame, dec: Decimals
    ) -> list[dict[str, Any]]:
        """What each newer version changed, grouped by version, with its cause in words."""
        if not changes.height:
            return []
        names = {
            (r["section"], r["contestant"], r["direction"] or ""): r.get("names") or ""
            for r in st.select("section", "contestant", "direction", "names").to_dicts()
        }
        out = []
        # grouped and sorted in Python: a session's changes are a few rows, for which a
        # frame per version and its sort cost many times what they hold
        versions: dict[Any, list[dict[str, Any]]] = {}
        for r in changes.to_dicts():
            versions.setdefault(r["version"], []).append(r)
        for version, grp in sorted(versions.items()):
            first = grp[0]
            out.append(
                {
                    "version": version,
                    "cause": cause_text(first),
                    "rows": [
                        {
                            "contestant": contestant_label(r["contestant"], r.get("direction")),
                            "names": names.get(
                                (r["section"], r["contestant"], r.get("direction") or ""), ""
                            ),
                            "score_before": fmt(r["score_before"], dec.total),
                            "score_after": fmt(r["score_after"], dec.total),
                            "change": signed(r["score_change"], dec.total),
                            "pct_before": fmt(r["percentage_before"], dec.pct),
                            "pct_after": fmt(r["percentage_after"], dec.pct),
                            "rank_before": r.get("rank_before") or "–",
                            "rank_after": r.get("rank_after") or "–",
                        }
                        for r in sorted(grp, key=_by_section_direction_contestant)
                    ],
                }
            )
        return out

    def _session(self, s: dict[str, Any]) -> None:
        """A session's ranking page, each board's traveller and each contestant's scorecard.
        Their rows are made for every session of the batch at once (:meth:`_rows_of`)."""
        event_id, n = s["event_id"], s["session"]
        base = f"{self._event_dir(event_id)}/s{n}"
        dec = Decimals.of(s.get("profile"))
        st = self._of("standings", SESSION_KEYS, event_id, "session", n)
        made = self._rows_of(s)
        cards, dirs = self._layout(s)
        rankings = self._own_rankings(s)
        matches = self._matches(event_id, n)
        changes = self._changes(self._of("changes", SESSION_KEYS, event_id, "session", n), st, dec)
        penalties = [
            {**p, "laws_text": laws_text(p.get("laws"))}
            for p in self._of("penalties", ("event_id", "session"), event_id, n).to_dicts()
        ]
        boards = sorted(made.travellers, key=lambda k: _order((k[0], k[2], k[1])))
        page = {
            "session": s,
            "event_href": "../index.html",
            "session_href": "index.html",
            "status": status_text(s),
            "dec": dec,
            "mp": made.mp,
            "imps": made.imps,
        }
        self._write(
            f"{base}/index.html",
            "ranking.html.j2",
            title=f"{s.get('name') or event_id}, session {n}",
            agreement=self._agreement(event_id, n, s.get("program")),
            rankings=rankings,
            changes=changes,
            penalties=penalties,
            boards=[
                {"section": sec, "board": board_label(b, d), "href": board_name(sec, b, d, dirs)}
                for sec, d, b in boards
            ],
            sections=len({sec for sec, *_ in boards}),
            matches=match_rows(matches, self._names(st)) if matches is not None else [],
            **page,
        )
        deals = self._deals(event_id, n)
        paths = [f"{base}/{board_name(sec, b, d, dirs)}" for sec, d, b in boards]
        for i, (sec, d, b) in enumerate(boards):
            path = paths[i]
            html, datum, top = made.travellers[(sec, d, b)]
            of_round = f" of round {d}" if d else ""
            self._write(
                path,
                "traveller.html.j2",
                title=f"Board {b}{of_round}" + (f", section {sec}" if len(boards) and sec else ""),
                board=f"{b}{of_round}",
                section=sec,
                rows=Markup(html),
                datum=datum if made.has_datum else None,
                deal=deal_view(deals.get((sec, b)) or deals.get((None, b))),
                top=fmt(top, dec.mp),
                prev=rel(paths[i - 1], path) if i > 0 else None,
                next=rel(paths[i + 1], path) if i + 1 < len(boards) else None,
                **self._up(page, base, path),
            )
        ties = {
            (ranking["section"], row["contestant"]): row["tie"]
            for ranking in rankings
            for row in ranking["rows"]
            if row["tie"]
        }
        self._cards(base, st, dec, page, ties, made, cards, dirs)
        del self._rows[(event_id, n)]  # written: its rows let go
        self._rankings_made.pop((event_id, n), None)

    def _layout(self, s: dict[str, Any]) -> tuple[dict[tuple[Any, Any, Any], str], dict[Any, str]]:
        """A session's scorecards' names (:func:`~.common.card_names`: two ids of one form,
        two scorecards) and its sections' folders (:func:`~.common.section_dirs`: two
        sections' names of one form, two folders), from its standings: worked out once."""
        key = (s["event_id"], s["session"])
        found = self._layouts.get(key)
        if found is None:
            st = self._of("standings", SESSION_KEYS, s["event_id"], "session", s["session"])
            contestants = st.select("section", "contestant", "direction").rows()
            found = (card_names(contestants), section_dirs(sec for sec, _, _ in contestants))
            self._layouts[key] = found
        return found

    def _rows_of(self, s: dict[str, Any]) -> SessionRows:
        """The rows of a session's traveller and scorecard pages (:func:`~.rows.page_rows`),
        made for the sessions of the batch being rendered (:meth:`render_events`) in chunks
        of about :data:`ROWS_AT_ONCE` results — this session and those after it, in one pass
        over their results — and let go once the session's pages are written; a session
        outside the batch alone."""
        key = (s["event_id"], s["session"])
        if key not in self._rows:
            pending = self._pending
            keys = [(t["event_id"], t["session"]) for t in pending]
            todo = [s]
            if key in keys:
                at = keys.index(key)
                todo, lines = [], 0
                for t in pending[at:]:
                    size = self._of(
                        "results", ("event_id", "session"), *keys[len(todo) + at]
                    ).height
                    if todo and lines + size > ROWS_AT_ONCE:
                        break
                    todo.append(t)
                    lines += size
                del pending[at : at + len(todo)]
            self._rows.update(self._page_rows(todo))
        return self._rows[key]

    def _page_rows(self, sessions: list[dict[str, Any]]) -> dict[tuple[str, int], SessionRows]:
        """:func:`~.rows.page_rows` of ``sessions``: their results, their display decimals,
        and their contestants' names and links (from their standings, each session's
        scorecards named and its sections' folders as :meth:`_layout` gives them)."""
        people: dict[str, list[Any]] = {
            k: [] for k in ("event_id", "session", "section", "contestant", "dir", "names",
                            "card", "boards")
        }  # fmt: skip
        for s in sessions:
            event_id, n = s["event_id"], s["session"]
            base = f"{self._event_dir(event_id)}/s{n}"
            cards, dirs = self._layout(s)
            st = self._of("standings", SESSION_KEYS, event_id, "session", n)
            seen: dict[tuple[Any, Any, str], int] = {}
            for sec, c, d, names in st.select("section", "contestant", "direction", "names").rows():
                d = d or None
                card = cards.get((sec, c, d)) or card_name(sec, c, d, dirs)
                boards = f"{base}/{section_dir(sec, dirs)}\x00"  # a board of its section
                row = (event_id, n, sec, c, d or "", names or "", rel(f"{base}/{card}", boards),
                       rel(boards, f"{base}/{card}")[:-1])  # fmt: skip
                at = seen.get((sec, c, d or ""))
                if at is None:  # the last row of one contestant names it, as a dict would
                    seen[(sec, c, d or "")] = len(people["event_id"])
                    for k, v in zip(people, row, strict=True):
                        people[k].append(v)
                else:
                    for k, v in zip(people, row, strict=True):
                        people[k][at] = v
        keys = [(s["event_id"], s["session"]) for s in sessions]
        frame = pl.DataFrame(
            {
                "event_id": [k[0] for k in keys],
                "session": [k[1] for k in keys],
                "places": [Decimals.of(s.get("profile")).mp for s in sessions],
            },
            schema={"event_id": pl.String, "session": pl.Int32, "places": pl.Int64},
        )
        parts = [self._of("results", ("event_id", "session"), *k) for k in keys]
        results = (
            pl.concat([p for p in parts if p.height]) if any(p.height for p in parts) else None
        )
        if results is None:
            return page_rows(
                self.data.results.clear(), frame, pl.DataFrame(people), line_fields, sides
            )
        results = results.with_columns(pl.col("session").cast(pl.Int32))
        contestants = pl.DataFrame(
            people,
            schema={
                "event_id": pl.String, "session": pl.Int32,
                "section": results.schema["section"], "contestant": results.schema["ns_pair"],
                "dir": pl.String, "names": pl.String, "card": pl.String, "boards": pl.String,
            },
        )  # fmt: skip
        return page_rows(results, frame, contestants, line_fields, sides)

    @staticmethod
    def _up(page: dict[str, Any], base: str, path: str) -> dict[str, Any]:
        """``page`` with the links up to the session's ranking and the event from ``path``."""
        return {
            **page,
            "session_href": rel(f"{base}/index.html", path),
            "event_href": rel(f"{posixpath.dirname(base)}/index.html", path),
        }

    def _deals(self, event_id: str, session: int) -> dict[tuple[str | None, int], dict]:
        """The session's deals by (section, board); section ``None``: every section's."""
        deals = self.data.extra.get("deals")
        if deals is None or not deals.height:
            return {}
        found = self._of("deals", ("event_id", "session"), event_id, session)
        return {(r["section"], r["board"]): r for r in found.to_dicts()}

    def _cards(
        self,
        base: str,
        st: pl.DataFrame,
        dec: Decimals,
        page: dict[str, Any],
        ties: dict[tuple[str, str], str],
        made: SessionRows,
        cards: dict[tuple[Any, Any, Any], str],
        dirs: dict[Any, str],
    ) -> None:
        """Each contestant's scorecard, its lines made with the session's rows
        (:func:`~.rows.page_rows`: by round and board, a board played at two tables by
        table, then side); ``ties``: the note on a shared place or a broken tie of each
        contestant that has one (by section and label, :mod:`.ties`); ``cards``: the
        scorecards' names (:func:`~.common.card_names`); ``dirs``: the sections' folders
        (:func:`~.common.section_dirs`)."""
        who = "player" if made.individual else "pair"
        for r in spans(st.to_dicts(), across_field(page["session"])):
            d = r.get("direction") or ""
            card = cards.get((r["section"], r["contestant"], d or None)) or card_name(
                r["section"], r["contestant"], d or None, dirs
            )
            path = f"{base}/{card}"
            label = contestant_label(r["contestant"], d or None)
            self._write(
                path,
                "scorecard.html.j2",
                title=f"Scorecard of {who} {label}",
                standing={
                    **r,
                    "label": label,
                    "place": place_text(
                        r["rank"], r["tied"], r.get("sanction"), dec.tied_place, r["span"]
                    ),
                    "score": fmt(r.get("score_display"), dec.total),
                    "pct": fmt(r.get("percentage_display"), dec.pct),
                    "penalty": penalty_text(r, dec.total),
                    "tie": ties.get((r["section"], label)),
                },
                lines=Markup(made.cards.get((r["section"], r["contestant"], d), "")),
                **self._up(page, base, path),
            )


def line_fields(row: dict[str, Any]) -> dict[str, Any]:
    """What a traveller (and a scorecard) line shows that a ruling or a form can change,
    worked out row by row (:func:`~.rows.shown_lines`: every line but an ordinary played
    one): its adjusted score in words with the ruling's public note
    (:func:`~.explain.explain`, :func:`with_public_note`; ``versions``: of its board, Law
    87), the contract, declarer and tricks shown (:func:`shown_contract`) and the NS score
    (:func:`~.lines.table_score` of the contract shown)."""
    note = with_public_note(explain(row, row["versions"]), row)
    shown = {**row, **shown_contract(row)}
    return {
        "note": note,
        "contract": shown["contract"],
        "declarer": shown["declarer"],
        "tricks": shown["tricks"],
        "ns_score": table_score(shown),
    }


def with_public_note(text: str | None, row: dict[str, Any]) -> str | None:
    """A traveller line's adjusted score in words followed by its ruling's public note
    (``ruling_public_note``), when it has one: ``assigned 4S N = (played: 4S N +1), Laws
    16B1, 12C1(b) — the hesitation was agreed``. Without one, the words alone."""
    public = row.get("ruling_public_note")
    if not public:
        return text
    return f"{text} — {public}" if text else public


def cause_text(change: dict[str, Any]) -> str:
    """Why a new version was made: an appeal's decision (Laws 92, 93) or a score correction
    (Law 79C), with the ruling, board and public note (never the director's or the
    committee's own note)."""
    board = change.get("ruling_board")
    on_board = f" on board {board}" if board is not None else ""
    if change.get("cause") == "appeal":
        heard = change.get("heard_by") or "appeal"
        outcome = change.get("outcome") or "decided"
        note = change.get("appeal_public_note")
        text = (
            f"Appeal {change['cause_id']} against ruling {change.get('ruling_id') or ''}"
            f"{on_board}: heard by the {heard.replace('_', ' ')}, ruling {outcome}"
        )
        return text + (f" ({note})" if note else "")
    laws = laws_text(change.get("ruling_laws")) or "Law 79C"
    note = change.get("ruling_public_note")
    text = f"Score correction {change['cause_id']}{on_board}, {laws}"
    return text + (f" ({note})" if note else "")


def write_site(data: Published, out: Path) -> list[Path | str]:
    """Write the results site for ``data`` into ``out``; the pages written."""
    return Site(data, out).render()


def iter_links(html: str) -> Iterable[str]:
    """The ``href`` targets of a page (for tests and the link check)."""
    return re.findall(r'href="([^"#]+)', html)
