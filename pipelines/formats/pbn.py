"""PBN 2.x reader (Magic Contest, RealBridge, Bridgemate-era exports).

A PBN file is a sequence of game records (tag pairs ``[Tag "value"]`` separated by
blank lines) with ``%`` comment lines, some of which carry ``<META name=X content="Y">``
data. Results come either from ``[ScoreTable]`` sections (one row per table) or, when a
record has none, from the record's own ``Contract``/``Declarer``/``Result``/``Score``
tags (one row per record). ``[TotalScoreTable]`` rows give the exporting program's
ranking (source standings) and the contestants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.formats.canonical_csv import (
    date_from_name,
    file_failure,
    garbage,
    normalise_results,
    reject,
)
from pipelines.formats.model import (
    CONTESTANT_COLUMNS,
    DEAL_COLUMNS,
    EVENT_COLUMNS,
    REJECT_COLUMNS,
    RESULT_COLUMNS,
    SOURCE_STANDING_COLUMNS,
    WARNING_COLUMNS,
    ReadResult,
    frame,
)

FORMAT = "pbn"
TABLE_TAGS = ("ScoreTable", "TotalScoreTable")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_META = re.compile(r'<META\s+name="?([^"\s>]+)"?\s+content="([^"]*)"', re.IGNORECASE)
_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')
_UNESCAPE = re.compile(r'\\(["\\])')
_INT = re.compile(r"^[+-]?\d+$")
#: A TotalScoreTable's total column, first found of these.
_TOTALS = ("TotalScoreMP", "TotalScoreIMP", "TotalScoreVP", "TotalScore")
#: A TotalScoreTable's column of a session's own total beside the event's running total
#: (Magic Contest: ``NrBoards`` over the event so far, ``NrBoardsSession`` this session's).
_SESSION_TOTALS = ("SessionScoreMP", "SessionScoreIMP", "SessionScoreVP", "SessionScore")
_DOTTED_DATE = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})$")

Row = dict[str, str | None]


@dataclass
class Table:
    """A ``[ScoreTable]``/``[TotalScoreTable]`` section: column names and ``(line, text)`` rows."""

    name: str
    columns: list[str]
    rows: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Record:
    """One game record: its 1-based ``number``, tags (first value of each) and tables."""

    number: int
    tags: dict[str, str] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)


@dataclass
class PbnFile:
    """A parsed PBN file: ``meta`` from ``% <META>`` lines, and the game records.

    ``stray``: ``(line, text)`` of the lines that belong to no record — after a blank line
    (which ends a record, and so a table: a blank line inside a ScoreTable leaves its later
    rows here) and before the next tag. They are rejected, never dropped."""

    meta: dict[str, str] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)
    stray: list[tuple[int, str]] = field(default_factory=list)


def decode_pbn(data: bytes) -> str:
    """UTF-8 text (BOM removed) or, when that fails, ISO-8859-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_pbn(text: str) -> PbnFile:
    """Split PBN text into META data and records; ``#`` tag values repeat the previous record's."""
    pbn = PbnFile()
    current: Record | None = None
    table: Table | None = None
    previous: dict[str, str] = {}
    in_brace = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if in_brace:
            in_brace = "}" not in s
            continue
        if not s:
            if current is not None:
                previous = current.tags
            current, table = None, None
        elif s.startswith(";"):
            continue
        elif s.startswith("%"):
            pbn.meta.update((m.group(1), m.group(2)) for m in _META.finditer(s))
        elif s.startswith("{"):
            in_brace = "}" not in s
        elif s.startswith("["):
            table = None
            for m in _TAG.finditer(s):
                if current is None:
                    current = Record(len(pbn.records) + 1)
                    pbn.records.append(current)
                name, value = m.group(1), _UNESCAPE.sub(r"\1", m.group(2))
                if value == "#":
                    value = previous.get(name, "")
                current.tags.setdefault(name, value)
                if name in TABLE_TAGS:
                    table = Table(name, [c.split("\\")[0].strip() for c in value.split(";")])
                    current.tables.append(table)
        elif table is not None:
            table.rows.append((lineno, s))
        elif current is None:
            pbn.stray.append((lineno, s))
    return pbn


def tokens(line: str) -> list[str]:
    """Whitespace-separated values of a table row; double-quoted values may hold spaces."""
    return [
        _UNESCAPE.sub(r"\1", m.group(1)) if m.group(1) is not None else m.group(2)
        for m in _TOKEN.finditer(line)
    ]


def _dash(value: str | None) -> str | None:
    """Trimmed value; empty or ``-`` → ``None``."""
    value = (value or "").strip()
    return None if value in ("", "-") else value


def _played_at(values: dict[str, str]) -> dict[str, str | None]:
    """Where a result was played: its ``Section``, ``Round`` and ``Table`` (a ScoreTable
    row's columns or a record's tags of those names)."""
    return {c: _dash(values.get(c.capitalize())) for c in ("section", "round", "table")}


def negate(score: str) -> str:
    """The other side's score: ``"420"`` → ``"-420"``, ``"-50"`` → ``"50"``, ``"0"`` → ``"0"``."""
    s = score.strip()
    if not _INT.match(s):
        return s
    n = -int(s)
    return str(n)


def side_score(text: str | None) -> str | None:
    """An NS-signed score from ``NS 420`` / ``EW 420`` (→ ``-420``) or a bare number."""
    t = _dash(text)
    if t is None:
        return None
    parts = t.split()
    if len(parts) == 2 and parts[0].upper() in ("NS", "EW"):
        return parts[1] if parts[0].upper() == "NS" else negate(parts[1])
    return t


def table_score(ns: str | None, ew: str | None) -> str | None:
    """The NS score of a ScoreTable row from ``Score_NS``/``Score_EW`` (``-`` = not this side).

    Artificial scores pair up: ``A+``/``A+`` → ``A+/+``, ``A-``/``A+`` → ``A-/+``,
    ``A60``/``A40`` → ``A60/40``. A bare ``A`` is average (Law 12C2(a): 50 %), as in
    :func:`pipelines.laws.adjustments.parse_side_result`: ``A``/``A`` → ``A=/=``,
    ``A``/``A+`` → ``A=/+``. A lone artificial side is returned as written.
    """
    ns, ew = _dash(ns), _dash(ew)
    art_ns = ns is not None and ns.upper().startswith("A")
    art_ew = ew is not None and ew.upper().startswith("A")
    if art_ns and art_ew:
        return f"A{ns[1:] or '='}/{ew[1:] or '='}"  # type: ignore[index]
    if ns is not None and not art_ns:
        return ns
    if ew is not None and not art_ew:
        return negate(ew)
    return ns or ew


_SEAT_NAMES = ("north", "east", "south", "west")


def pbn_hands(deal: str) -> dict[str, str | None]:
    """The four hands of a PBN ``[Deal]`` by seat: ``"N:AKQ.. .. .. .."`` → ``{"north": ...}``;
    a hand written ``-`` (not given) is ``None``; text that is not a deal gives every hand
    ``None`` but keeps what was written under ``north`` for the check to quote."""
    first, sep, rest = deal.strip().partition(":")
    hands = rest.split()
    start = "NESW".find(first.strip().upper()[:1]) if sep else -1
    if start < 0 or len(hands) != 4 or len(first.strip()) != 1:
        return {"north": deal, "east": None, "south": None, "west": None}
    return {
        _SEAT_NAMES[(start + i) % 4]: (None if hand == "-" else hand)
        for i, hand in enumerate(hands)
    }


def pbn_scoring(value: str | None) -> str | None:
    """Canonical scoring from a PBN ``Scoring`` value (``MatchPoints;MP1`` → matchpoints)."""
    v = (value or "").strip().lower()
    if not v:
        return None
    if "cross" in v:
        return "cross_imps"
    if "butler" in v:
        return "butler"
    if v.startswith(("matchpoint", "mp")):
        return "matchpoints"
    if v.startswith("imp"):
        return "imps"
    return v.split(";")[0]


def movement_from_ranking(rows: list[dict[str, str]]) -> str | None:
    """``mitchell`` if each direction is ranked from 1 on its own, ``howell`` if one ranking.

    ``rows`` are TotalScoreTable rows (dicts by column); ``None`` without Rank/Direction data.
    """
    groups: dict[str, list[int]] = {}
    for row in rows:
        m = re.match(r"\d+", row.get("Rank", ""))
        direction = _dash(row.get("Direction"))
        if m and direction:
            groups.setdefault(direction.upper(), []).append(int(m.group()))
    if not groups:
        return None
    largest = max(len(r) for r in groups.values())
    top = max(max(r) for r in groups.values())
    if len(groups) > 1 and all(min(r) == 1 for r in groups.values()) and top <= largest:
        return "mitchell"
    return "howell"


def _whole(value: str | None) -> str | None:
    """``value`` when it is a whole number (digits, at most ten: a count, never a size to
    trust further), else ``None``."""
    value = (value or "").strip()
    return value if re.fullmatch(r"[0-9]{1,10}", value) else None


def read_pbn(path: Path, file: str) -> ReadResult:
    """Read a PBN file into a :class:`ReadResult` (format ``pbn``)."""
    pbn = parse_pbn(decode_pbn(path.read_bytes()))
    if not pbn.records:
        return file_failure(
            file, FORMAT, "file", 'the PBN file holds no [Tag "value"] records', None
        )
    reader = _Reader(pbn, file, path.stem)
    reader.run()
    deals = frame(reader.deals(), DEAL_COLUMNS)
    if deals.height and not reader.results and not reader.standings and not pbn.stray:
        # a hand record (``hands.pbn``): deals only, of the event its Event tag names
        return ReadResult(file=file, format=FORMAT, deals=deals)
    if not (deals.height or reader.results or reader.standings or reader.rejected):
        return file_failure(
            file,
            FORMAT,
            "file",
            f"the PBN file's {len(pbn.records)} record(s) hold no result (ScoreTable or result "
            "tags), no ranking (TotalScoreTable) and no deal: nothing in it can be read (a "
            "damaged file, or not the file meant)",
            None,
            rows_read=len(pbn.stray) + 1,
        )
    event = reader.event_row()
    results = [{**r, "session_date": event["date"]} for r in reader.results]
    # what the file holds, counted from the file (so a row the reader lost shows up in the
    # accounting): every table row, every record giving its own result, every stray line,
    # and the event's header
    rows_read = (
        sum(len(t.rows) for rec in pbn.records for t in rec.tables)
        + sum(1 for rec in pbn.records if _own_result(rec))
        + len(pbn.stray)
        + 1
    )
    if garbage(len(pbn.stray), rows_read):
        return file_failure(
            file,
            FORMAT,
            "file",
            f"{len(pbn.stray)} of its {rows_read} lines (the first at line {pbn.stray[0][0]}) "
            "belong to no record: this is no PBN file of results (a damaged file, or not the "
            "file meant), so none of it is read; send the file again",
            None,
            rows_read=rows_read,
        )
    return ReadResult(
        file=file,
        format=FORMAT,
        results=normalise_results(frame(results, RESULT_COLUMNS)),
        events=frame([event], EVENT_COLUMNS),
        contestants=frame(reader.contestants, CONTESTANT_COLUMNS),
        source_standings=frame(reader.standings, SOURCE_STANDING_COLUMNS),
        rejected=frame(reader.rejected, REJECT_COLUMNS),
        warnings=frame(reader.warnings, WARNING_COLUMNS),
        deals=deals,
        rows_read=rows_read,
    )


def _table_location(section: str | None, board: str, table: str, row: int) -> str:
    """``board 1 ScoreTable row 3``, or ``section B board 1 ScoreTable row 3`` for a row of
    a named section."""
    where = f"board {board} {table} row {row}"
    return f"section {section} {where}" if section else where


def _own_result(rec: Record) -> bool:
    """A record without a ScoreTable whose own tags give a result (one result row)."""
    return not any(t.name == "ScoreTable" for t in rec.tables) and any(
        _dash(rec.tags.get(t)) for t in ("Contract", "Result", "Score")
    )


class _Reader:
    """Turns a parsed PBN file into canonical rows."""

    def __init__(self, pbn: PbnFile, file: str, stem: str) -> None:
        """Prepare to read ``pbn``; ``stem`` (the file name) is the last-resort event id."""
        self.pbn, self.file = pbn, file
        first = pbn.records[0].tags
        self.event_id = pbn.meta.get("ContestID") or first.get("Event") or stem
        self.session = pbn.meta.get("CRSession") or "1"
        self.results: list[Row] = []
        self.standings: list[Row] = []
        self.contestants: list[Row] = []
        self.rejected: list[Row] = []
        self.warnings: list[Row] = []
        self.ranking: list[dict[str, str]] = []
        # board numbers whose tables several records hold (sections, or a board repeated)
        self._repeated: dict[str, int] = {}
        for rec in pbn.records:
            if rec.tables:
                b = rec.tags.get("Board", "?")
                self._repeated[b] = self._repeated.get(b, 0) + 1

    def run(self) -> None:
        """Read every record's tables (or its own result tags); reject every stray line."""
        for rec in self.pbn.records:
            for table in rec.tables:
                self._table(rec, table)
            if _own_result(rec):
                self._record_result(rec)
        for lineno, text in self.pbn.stray:
            self.rejected.append(
                reject(
                    self.file,
                    f"line {lineno}",
                    "row",
                    "this line belongs to no record or table: a blank line ends a PBN record "
                    "(and its ScoreTable), so rows after a blank line inside a table are not "
                    "read; remove the blank line",
                    text,
                )
            )

    def deals(self) -> list[Row]:
        """Every record's ``[Deal]`` (PBN 2.1 section 3.4.11: ``<first>:<hand> <hand> <hand>
        <hand>``, the hands of the seat named first and then clockwise, each
        ``spades.hearts.diamonds.clubs``; ``-`` a hand not given), with its ``[Dealer]``,
        ``[Vulnerable]`` and, where a record names one, its ``[Section]``."""
        out: list[Row] = []
        for rec in self.pbn.records:
            deal = _dash(rec.tags.get("Deal"))
            if deal is None:
                continue
            row: Row = {
                **self._base(f"record {rec.number}"),
                "section": _played_at(rec.tags)["section"],
                "board": _dash(rec.tags.get("Board")),
                "dealer": _dash(rec.tags.get("Dealer")),
                "vulnerability": _dash(rec.tags.get("Vulnerable")),
            }
            row.update(pbn_hands(deal))
            out.append(row)
        return out

    def event_row(self) -> Row:
        """The event-session row (location ``header``)."""
        meta, records = self.pbn.meta, self.pbn.records
        tags = records[0].tags
        date = tags.get("Date") or None
        m = _DOTTED_DATE.match(date or "")
        competition = next((r.tags["Competition"] for r in records if "Competition" in r.tags), "")
        teams = competition.lower().startswith("team") or any("HomeTeam" in r.tags for r in records)
        scoring = next((r.tags["Scoring"] for r in records if r.tags.get("Scoring")), None)
        return {
            "file": self.file,
            "location": "header",
            "event_id": self.event_id,
            "session": self.session,
            # no Date tag: the date the file's name gives, as for every format
            "date": f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
            if m
            else date or date_from_name(Path(self.file)),
            "name": tags.get("Event") or meta.get("ContestName") or None,
            "form": "teams" if teams else "pairs",
            # a team match with no Scoring tag is at IMPs (Law 78B; RealBridge writes none)
            "scoring": pbn_scoring(scoring or meta.get("ScoringType"))
            or ("imps" if teams else None),
            "movement": movement_from_ranking(self.ranking),
            # the profile is chosen from the program by the profiles' ``programs`` (events.py)
            "program": " ".join(v for v in (meta.get("Generator"), meta.get("Version")) if v)
            or None,
            "director": meta.get("TournamentDirector") or None,
            # the boards the session plays, as Magic Contest states them (checked against the
            # results: pipelines.scoring.completeness); anything but a whole number is not read
            "boards": _whole(meta.get("BoardCountSession")),
            # the file's own identifier (ContestID, else the Event tag)
            "source_event_id": meta.get("ContestID") or records[0].tags.get("Event") or None,
        }

    def _base(self, location: str) -> Row:
        """The lineage and event columns every row carries."""
        return {
            "file": self.file,
            "location": location,
            "event_id": self.event_id,
            "session": self.session,
        }

    def _table(self, rec: Record, table: Table) -> None:
        """Read one table's rows; a row with the wrong number of values is rejected."""
        board = rec.tags.get("Board", "?")
        # a record's [Section] tag (PBN 2.x supplemental tag) names the section of its
        # tables' rows unless a row gives its own Section column
        rec_section = _dash(rec.tags.get("Section"))
        if self._repeated.get(board, 0) > 1 and rec_section is None:
            board = f"{board} (record {rec.number})"
        for r, (_, line) in enumerate(table.rows, start=1):
            location = _table_location(rec_section, board, table.name, r)
            values = tokens(line)
            if len(values) != len(table.columns):
                self.rejected.append(
                    reject(
                        self.file,
                        location,
                        "row",
                        f"{table.name} row has {len(values)} values, the header names "
                        f"{len(table.columns)} columns",
                        line,
                    )
                )
                continue
            row = dict(zip(table.columns, values, strict=True))
            if _dash(row.get("Section")) is None and rec_section is not None:
                row["Section"] = rec_section
            # two records of one board (several sections) hold rows of the same number:
            # the section keeps each row's location its own
            location = _table_location(_dash(row.get("Section")), board, table.name, r)
            if table.name == "ScoreTable":
                self._score_row(rec, row, location)
            else:
                self._total_row(row, location)

    def _score_row(self, rec: Record, row: dict[str, str], location: str) -> None:
        """One ScoreTable row (dict by column) → one result row."""
        if "Score_NS" in row or "Score_EW" in row:
            score = table_score(row.get("Score_NS"), row.get("Score_EW"))
        else:
            score = side_score(row.get("Score"))
        mp = ("MP_NS", "MP_EW") if "MP_NS" in row or "MP_EW" in row else ("IMP_NS", "IMP_EW")
        self.results.append(
            {
                **self._base(location),
                "format": FORMAT,
                **_played_at(row),
                "board": rec.tags.get("Board") or None,
                "ns_pair": _dash(row.get("PairId_NS")),
                "ew_pair": _dash(row.get("PairId_EW")),
                "contract": _dash(row.get("Contract")),
                "declarer": _dash(row.get("Declarer")),
                "tricks": _dash(row.get("Result")),
                "score": score,
                "source_ns_mp": _dash(row.get(mp[0])),
                "source_ew_mp": _dash(row.get(mp[1])),
                "lead": _dash(row.get("Lead")),
            }
        )

    def _total_row(self, row: dict[str, str], location: str) -> None:
        """One TotalScoreTable row → a source standing and a contestant."""
        self.ranking.append(row)
        direction = _dash(row.get("Direction"))
        if direction and direction.upper().replace("-", "").replace("/", "") in ("NS", "EW"):
            direction = direction.upper().replace("-", "").replace("/", "")
        contestant = _dash(row.get("PairId")) or _dash(row.get("TeamId"))
        common = {
            "file": self.file,
            "location": location,
            "event_id": self.event_id,
            "contestant": contestant,
            "direction": direction,
        }
        standing = {**common, "session": self.session, "section": _dash(row.get("Section"))}
        total = _dash(next((row[c] for c in _TOTALS if c in row), None))
        self.standings.append(
            {
                **standing,
                "total": total,
                "percentage": _dash(row.get("TotalPercentage")),
                "place": _dash(row.get("Rank")),
                "tiebreak": _dash(row.get("Tiebreak")),
            }
        )
        session_total = _dash(next((row[c] for c in _SESSION_TOTALS if c in row), None))
        if session_total is not None and session_total != total:
            # a session of a longer event: the line's totals run over the event so far, and
            # Magic Contest gives the session's own figures beside them, on the same line
            # (the same location: one line of the file, counted once)
            self.standings.append(
                {
                    **standing,
                    "total": session_total,
                    "percentage": _dash(row.get("SessionPercentage")),
                    "place": _dash(row.get("SessionRank")),
                    "figures": "session",
                }
            )
        ids = [v for c, raw in row.items() if c.startswith("MemberID") and (v := _dash(raw))]
        self.contestants.append(
            {
                **common,
                "names": _dash(row.get("Names")),
                "player_ids": ";".join(ids) or None,
                "section": _dash(row.get("Section")),
            }
        )

    def _record_result(self, rec: Record) -> None:
        """A record without ScoreTable but with result tags → one result row."""
        tags = rec.tags
        imp = tags.get("ScoreIMP", "")
        ns_imp = re.search(r"\bNS\s+(\S+)", imp)
        ew_imp = re.search(r"\bEW\s+(\S+)", imp)
        where = f"record {rec.number}"
        contract, score = _dash(tags.get("Contract")), side_score(tags.get("Score"))
        if (
            score is None
            and (contract or "").upper() == "PASS"
            and not _dash(tags.get("Result"))
            and not _dash(tags.get("Declarer"))
        ):
            # A real pass-out carries [Score "NS 0"]; "Pass" with no score and no result is
            # a table that recorded nothing (RealBridge writes it for a match not played).
            contract, score = None, "NP"
            self.warnings.append(
                reject(
                    self.file,
                    where,
                    "Score",
                    "no result recorded (Contract 'Pass' with no Score tag): kept as not "
                    "played (NP); the board is scored as the profile says for a missing result",
                    f"Contract={tags.get('Contract')}",
                )
            )
        self.results.append(
            {
                **self._base(where),
                "format": FORMAT,
                **_played_at(tags),
                "board": _dash(tags.get("Board")),
                "ns_pair": _dash(tags.get("HomeTeam")),
                "ew_pair": _dash(tags.get("VisitTeam")),
                "contract": contract,
                "declarer": _dash(tags.get("Declarer")),
                "tricks": _dash(tags.get("Result")),
                "score": score,
                "source_ns_mp": ns_imp.group(1) if ns_imp else None,
                "source_ew_mp": ew_imp.group(1) if ew_imp else None,
            }
        )
