"""USEBIO 1.2 XML reader (the format Compscore, Scorebridge and EBUScore export).

Parsed with :mod:`defusedxml` so a file declaring entities (billion laughs, external
entities) is refused. The reader maps one ``EVENT`` to an events row, each
``PARTICIPANTS/PAIR`` to a contestant and a source standing, and each
``BOARD/TRAVELLER_LINE`` to a table result. ``SESSION`` and ``SECTION`` elements nesting
the boards or participants are followed to give the session and section numbers.

Pair numbers: ``WINNER_TYPE`` 2 (two winners, a Mitchell) numbers the pairs of each direction
apart, ``1NS`` and ``1EW``; the suffix of a pair's own direction is dropped (``1NS`` at NS is
pair 1 NS), and a pair named at the other direction's seat keeps it (``14EW`` at NS: an
arrow-switched line, rejected as such by :mod:`pipelines.scoring.completeness`). A one-winner
event (``WINNER_TYPE`` 1, or none) whose pair numbers carry a direction (a one-winner Mitchell:
the director arrow-switches rounds so that the pairs play both ways, and all are ranked in one
field) keeps the suffix as part of the pair's id, upper-case and without spaces (``14ew`` →
``14EW``): it is scored as a Howell of pairs ``1NS`` … ``21EW``, each board matchpointed among
the NS seats and among the EW seats whoever sits in them.

A ``DATE`` is kept as written (``11/03/2026``): which field is the day is decided with the
event's profile, by :mod:`pipelines.scoring.dates`; ``dates_written`` lists every ``DATE``
of the file, whose unambiguous ones state its order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeET
from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden

from pipelines.formats.canonical_csv import file_failure, normalise_results
from pipelines.formats.model import (
    CONTESTANT_COLUMNS,
    DEAL_COLUMNS,
    EVENT_COLUMNS,
    RESULT_COLUMNS,
    SOURCE_STANDING_COLUMNS,
    ReadResult,
    frame,
)

FORMAT = "usebio"
_MP_TAGS = ("MATCH_POINTS", "BUTLER_POINTS", "CROSS_IMP_POINTS")
_CONTAINERS = ("SESSION", "SECTION", "PARTICIPANTS")
#: A pair number with its direction (``1NS``, ``15 ew``).
_SUFFIXED = re.compile(r"^\s*\d+\s*(NS|EW)\s*$", re.IGNORECASE)

Row = dict[str, str | None]


def text_of(elem: Element | None, tag: str) -> str | None:
    """The trimmed text of ``elem``'s child ``tag``; ``None`` when absent or empty."""
    if elem is None:
        return None
    value = elem.findtext(tag)
    value = value.strip() if value is not None else None
    return value or None


def event_form_scoring(event_type: str | None) -> tuple[str | None, str | None]:
    """``(form, scoring)`` from a USEBIO ``EVENT_TYPE`` (``MP_PAIRS`` → pairs, matchpoints)."""
    if not event_type:
        return None, None
    u = event_type.strip().upper()
    form = "teams" if "TEAM" in u else "individual" if "INDIVIDUAL" in u else "pairs"
    if form == "teams":
        return form, "imps"
    if u.startswith("CROSS_IMP"):
        return form, "cross_imps"
    if "BUTLER" in u:
        return form, "butler"
    if u.startswith("MP"):
        return form, "matchpoints"
    return form, event_type.strip().lower()


@dataclass
class _Ctx:
    """Where the walk is: element path, session, section and date in force; ``one_field``:
    the event ranks all its pairs in one field with their direction in their number (a
    one-winner Mitchell), which keeps the suffix in the pair's id (:func:`_pair_id`)."""

    path: str
    session: str
    section: str | None
    date: str | None
    one_field: bool = False


@dataclass
class _Out:
    """Rows collected while walking the EVENT element."""

    results: list[Row] = field(default_factory=list)
    contestants: list[Row] = field(default_factory=list)
    standings: list[Row] = field(default_factory=list)
    sessions: list[_Ctx] = field(default_factory=list)


def _failure(file: str, reason: str, raw: str | None = None) -> ReadResult:
    """A file-level reject for this USEBIO file."""
    return file_failure(file, FORMAT, "file", reason, raw)


def _entities_refused(exc: Exception) -> str:
    """Why a file declaring entities is refused, in words: an external entity (``SYSTEM``)
    would make the reader open another file or a URL; an internal one can nest until memory
    runs out ("billion laughs"). No club program needs either."""
    sysid = getattr(exc, "sysid", None)
    if isinstance(exc, ExternalReferenceForbidden) or sysid:
        what = (
            f"the XML declares an external entity{f' ({sysid})' if sysid else ''}: external "
            "entities are refused for safety (the reader would open another file or a URL)"
        )
    else:
        what = (
            "the XML declares entities: entities are refused for safety (nested ones can "
            "exhaust memory)"
        )
    return f"{what}; export the file again from the scoring program, without a DOCTYPE"


def _parse(data: bytes, file: str) -> Element | ReadResult:
    """The root element, or a file-level failure."""
    try:
        return SafeET.fromstring(data)
    except (EntitiesForbidden, ExternalReferenceForbidden, DTDForbidden) as exc:
        return _failure(file, _entities_refused(exc))
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        lines = data.split(b"\n")
        raw = lines[line - 1].decode("utf-8", "replace").strip() if 0 < line <= len(lines) else None
        problem = str(exc).split(":")[0]
        return _failure(
            file,
            f"the XML is malformed at line {line}, column {col} ({problem}); "
            "the file may be cut short or edited by hand",
            raw,
        )


def read_usebio(path: Path, file: str) -> ReadResult:
    """Read a USEBIO XML file into a :class:`ReadResult` (format ``usebio``)."""
    root = _parse(path.read_bytes(), file)
    if isinstance(root, ReadResult):
        return root
    if root.tag != "USEBIO":
        return _failure(file, f"the XML root element is <{root.tag}>, not <USEBIO>")
    events = root.findall("EVENT")
    if not events:
        return _failure(file, "the USEBIO file has no EVENT element")
    club = text_of(root.find("CLUB"), "CLUB_ID_NUMBER")
    event_rows: list[Row] = []
    out = _Out()
    for k, event in enumerate(events, start=1):
        prefix = "EVENT" if len(events) == 1 else f"EVENT[{k}]"
        event_rows.extend(_read_event(event, prefix, club, path, file, out))
    results = normalise_results(frame(out.results, RESULT_COLUMNS))
    return ReadResult(
        file=file,
        format=FORMAT,
        results=results,
        events=frame(event_rows, EVENT_COLUMNS),
        contestants=frame(out.contestants, CONTESTANT_COLUMNS),
        source_standings=frame(out.standings, SOURCE_STANDING_COLUMNS),
        deals=frame(_handsets(root, event_rows, file), DEAL_COLUMNS),
        rows_read=len(out.results) + len(out.contestants) + len(event_rows),
        dates_written=tuple(d.text.strip() for d in root.iter("DATE") if (d.text or "").strip()),
    )


_SEATS = {"NORTH": "north", "EAST": "east", "SOUTH": "south", "WEST": "west"}
_SUITS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")


def _handsets(root: Element, event_rows: list[Row], file: str) -> list[Row]:
    """The deals of every ``HANDSET`` (Compscore writes one after the ``EVENT``, at the root):
    per ``BOARD`` its ``BOARD_NUMBER`` and four ``HAND``s, each a ``DIRECTION`` and the cards
    of each suit (``SPADES`` ... ``CLUBS``, ranks as written). A root HANDSET belongs to the
    file's event session when there is one; with several, its session is left empty (the
    deal check then says so). USEBIO gives no dealer or vulnerability: Law 2's apply."""
    owner: Row = event_rows[0] if len(event_rows) == 1 else {"event_id": None, "session": None}
    out: list[Row] = []
    for h, handset in enumerate(root.findall("HANDSET"), start=1):
        where = "HANDSET" if len(root.findall("HANDSET")) == 1 else f"HANDSET[{h}]"
        for b, board in enumerate(handset.findall("BOARD"), start=1):
            row: Row = {
                "file": file,
                "location": f"{where}/BOARD[{b}]",
                "event_id": owner.get("event_id"),
                "session": owner.get("session"),
                "section": None,
                "board": text_of(board, "BOARD_NUMBER"),
                "dealer": text_of(board, "DEALER"),
                "vulnerability": text_of(board, "VULNERABILITY"),
            }
            for hand in board.findall("HAND"):
                seat = _SEATS.get((text_of(hand, "DIRECTION") or "").upper())
                if seat is not None:
                    row[seat] = ".".join(text_of(hand, suit) or "" for suit in _SUITS)
            out.append(row)
    return out


def _read_event(
    event: Element, prefix: str, club: str | None, path: Path, file: str, out: _Out
) -> list[Row]:
    """Walk one EVENT; append rows to ``out``; return its event rows (one per session)."""
    ident = text_of(event, "EVENT_IDENTIFIER")
    club = text_of(event, "CLUB_ID_NUMBER") or club
    event_id = f"{club}-{ident}" if club and ident else ident or path.stem
    event_type = event.get("EVENT_TYPE") or _nested_event_type(event)
    form, scoring = event_form_scoring(event_type)
    winner = text_of(event, "WINNER_TYPE")
    movement = {"1": "howell", "2": "mitchell", None: "howell"}.get(winner, winner)
    # a one-winner event numbering its pairs by direction: a one-winner Mitchell, scored as a
    # Howell whose pairs are 1NS ... 21EW (arrow-switched lines name them at either seat)
    one_field = movement == "howell" and _numbers_directed(event)
    program = text_of(event, "PROGRAM_NAME") or ""
    base: Row = {
        "file": file,
        "event_id": event_id,
        "name": text_of(event, "EVENT_DESCRIPTION") or text_of(event, "TITLE"),
        "form": form,
        "scoring": scoring,
        "movement": movement,
        # the profile is chosen from the program by the profiles' ``programs`` (events.py)
        "program": program or None,
        # the program's own identifier, by which events.csv may also name the event
        "source_event_id": ident,
    }
    ctx = _Ctx(prefix, "1", None, text_of(event, "DATE"), one_field)
    start = len(out.sessions)
    _walk(event, ctx, base, out)
    sessions = out.sessions[start:] or [ctx]
    return [{**base, "location": s.path, "session": s.session, "date": s.date} for s in sessions]


def _numbers_directed(event: Element) -> bool:
    """Whether a pair number of ``event`` (a traveller line's or a participant's) carries its
    direction, ``1NS`` / ``15EW``."""
    for tag in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "PAIR_NUMBER"):
        for el in event.iter(tag):
            if _SUFFIXED.match(el.text or ""):
                return True
    return False


def _nested_event_type(event: Element) -> str | None:
    """The EVENT_TYPE attribute of a PARTICIPANTS or BOARD element, if any."""
    for tag in ("PARTICIPANTS", "BOARD"):
        found = event.find(f".//{tag}[@EVENT_TYPE]")
        if found is not None:
            return found.get("EVENT_TYPE")
    return None


def _label(elem: Element, tags: tuple[str, ...]) -> str | None:
    """The first non-empty child text or attribute among ``tags``."""
    for tag in tags:
        value = text_of(elem, tag) or (elem.get(tag) or "").strip()
        if value:
            return value
    return None


def _walk(parent: Element, ctx: _Ctx, base: Row, out: _Out) -> None:
    """Visit ``parent``'s children, following SESSION/SECTION/PARTICIPANTS containers."""
    counts: dict[str, int] = {}
    for child in parent:
        if not isinstance(child.tag, str):
            continue
        counts[child.tag] = counts.get(child.tag, 0) + 1
        where = f"{ctx.path}/{child.tag}[{counts[child.tag]}]"
        if child.tag == "BOARD":
            _board(child, where, ctx, base, out)
        elif child.tag == "PAIR" and parent.tag == "PARTICIPANTS":
            _pair(child, where, ctx, base, out)
        elif child.tag in _CONTAINERS:
            sub = _Ctx(where, ctx.session, ctx.section, ctx.date, ctx.one_field)
            if child.tag == "SESSION":
                sub.session = _label(child, ("SESSION_NUMBER", "NUMBER", "number")) or str(
                    counts[child.tag]
                )
                sub.date = text_of(child, "DATE") or ctx.date
                out.sessions.append(sub)
            elif child.tag == "SECTION":
                sub.section = _label(child, ("SECTION_ID", "LETTER", "SECTION_LETTER", "id"))
            _walk(child, sub, base, out)


def _board(board: Element, where: str, ctx: _Ctx, base: Row, out: _Out) -> None:
    """Each TRAVELLER_LINE of ``board`` → one result row."""
    number = text_of(board, "BOARD_NUMBER")
    for j, line in enumerate(board.findall("TRAVELLER_LINE"), start=1):
        ns_mp = ew_mp = None
        for tag in _MP_TAGS:
            if line.find(f"NS_{tag}") is not None or line.find(f"EW_{tag}") is not None:
                ns_mp, ew_mp = text_of(line, f"NS_{tag}"), text_of(line, f"EW_{tag}")
                break
        out.results.append(
            {
                "file": base["file"],
                "location": f"{where}/TRAVELLER_LINE[{j}]",
                "format": FORMAT,
                "event_id": base["event_id"],
                "session": ctx.session,
                "section": ctx.section,
                "board": number,
                "ns_pair": _pair_id(text_of(line, "NS_PAIR_NUMBER"), "NS", ctx),
                "ew_pair": _pair_id(text_of(line, "EW_PAIR_NUMBER"), "EW", ctx),
                "contract": text_of(line, "CONTRACT"),
                "declarer": text_of(line, "PLAYED_BY"),
                "tricks": text_of(line, "TRICKS"),
                "score": text_of(line, "SCORE"),
                "source_ns_mp": ns_mp,
                "source_ew_mp": ew_mp,
                "session_date": ctx.date,
                "lead": text_of(line, "LEAD"),
            }
        )


def _strip_suffix(value: str | None, suffix: str | None) -> str | None:
    """``1NS`` without ``NS`` → ``1`` (case-insensitive); a bare number is unchanged."""
    if value and suffix and len(value) > len(suffix) and value.upper().endswith(suffix.upper()):
        return value[: -len(suffix)].strip()
    return value


def _pair_id(value: str | None, direction: str | None, ctx: _Ctx) -> str | None:
    """A pair's id from its number as written: in a one-field event a number with its
    direction is kept whole, normalised (``14 ew`` → ``14EW``), so that the pair is one
    contestant wherever it sits; otherwise the suffix of ``direction`` is dropped
    (:func:`_strip_suffix`)."""
    if ctx.one_field and value and _SUFFIXED.match(value):
        return re.sub(r"\s+", "", value).upper()
    return _strip_suffix(value, direction)


def _pair(pair: Element, where: str, ctx: _Ctx, base: Row, out: _Out) -> None:
    """One PARTICIPANTS/PAIR → a contestant and a source standing."""
    direction = text_of(pair, "DIRECTION")
    contestant = _pair_id(text_of(pair, "PAIR_NUMBER"), direction, ctx)
    players = pair.findall("PLAYER")
    names = [n for p in players if (n := text_of(p, "PLAYER_NAME"))]
    ids = [i for p in players if (i := text_of(p, "NATIONAL_ID_NUMBER"))]
    common = {
        "file": base["file"],
        "location": where,
        "event_id": base["event_id"],
        "contestant": contestant,
        "direction": direction,
    }
    out.contestants.append(
        {
            **common,
            "names": " & ".join(names) or None,
            "player_ids": ";".join(ids) or None,
            "section": ctx.section,
        }
    )
    out.standings.append(
        {
            **common,
            "session": ctx.session,
            "section": ctx.section,
            "total": text_of(pair, "TOTAL_SCORE"),
            "percentage": text_of(pair, "PERCENTAGE"),
            "place": text_of(pair, "PLACE"),
            "tiebreak": None,
        }
    )
