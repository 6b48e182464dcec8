"""Directors' rulings and appeals: validated against the results, with their effective outcome.

A ruling is accepted only if it can be applied exactly as written; otherwise it goes to
the rejected inputs with the reason (and blocks its date's standings, see the asset
check). Per ruling:

* ``kind`` one of :data:`~pipelines.laws.vocabulary.RULING_KINDS`; ``offending`` one of
  ``NS EW both none`` (empty: none);
* a ruling about a board (every kind but the penalties) names the board and the table
  by its two pairs, and that table must have a result on that board in the session
  (otherwise: "unknown table or board"); in a session of several sections where the
  two pairs met in more than one, it names the section; where every round plays its own
  deals (teams, or pairs under ``boards.redealt_per_round``) and the two met on that board
  number in several rounds, it gives the round (otherwise: "give the round");
* its results are legal notation (:func:`pipelines.laws.adjustments.parse_side_result`):
  ``assigned`` and ``score_correction`` give a contract result or a score (an empty
  ``ew_result`` means the same as ``ns_result``: a balanced score; two different ones
  are a split score), ``weighted`` gives components whose weights (percentages, or
  fractions such as ``1/3``) sum to exactly 100 %, ``artificial`` gives an artificial
  score to each side, ``director_error`` (Law 82C) gives artificial or assigned results
  and defaults to ``A+``/``A+``, a ``fouled_board`` names the ``board_version`` the table
  played; an artificial score under any other kind is refused; an ``imp_award`` (2007 Law
  86D, 2017 86B1) belongs to a team event and gives the IMPs of the team seated NS at the
  named table (``+9 IMP``; ``ew_result`` the other team's, empty: the negation);
* Law 12C2(a): a side at fault (``offending``) receives at most average (50 %): average-plus
  (or a fixed score above 50 %) to an offending side is refused; Law 82C treats both sides
  as non-offending, so a ``director_error`` ruling names no offending side and gives no
  artificial score below average-plus; artificial percentages other than 60/50/40 (Law
  12C2(d)) only where the profile's ``artificial.other_percentages`` allows them, and never
  at IMP forms (they have no IMP equivalent);
* a penalty (``procedural_penalty`` Law 90, ``disciplinary_penalty`` Law 91) names the
  ``penalized`` contestant of the session (and its section where the number is used in
  several) and a legal ``penalty`` (empty: the profile's standard amount); suspension and
  disqualification are disciplinary only; IMPs and VPs cannot be deducted at matchpoints,
  nor VPs in a knockout (no VPs there); a penalty in IMPs at teams that names a round names
  one the team played a match in (:func:`_match_round`);
* times are ``YYYY-MM-DD HH:MM[:SS]``; a score correction needs ``ruled_at`` unless it
  is ``approved`` (Law 79C); a ruling is not made before the director was called, nor an
  appeal decided before it was lodged or lodged before its ruling was made;
* two rulings on the same table and board that decide the same thing contradict each other
  unless one ``supersedes`` the other: both are rejected (:func:`_contradictions`).

**Time limits** (Laws 79C, 92B), from when the official scores were made available
(:func:`published_at`), for the periods of the event (``events.csv``) or else of its
profile (``[periods]``): a score correction applies within the correction period, after it
only when ``approved`` by the organiser (Law 79C2 — the 2007 Laws have no such provision,
so an approved late correction does not apply under them); any other ruling except a
disciplinary one is ``late`` when it was requested (``called_at``, else ``ruled_at``)
after the period of Law 92B (the event's ``appeal_minutes`` from the official scores), the
right to request a ruling having expired; the correction period of Law 79C limits score
corrections only. A
late ruling is kept, marked, listed and counted, and changes no standings.

Appeals (Laws 92, 93): an appeal about a ruling that was rejected is rejected too; the
outcome is one of :data:`~pipelines.laws.vocabulary.OUTCOMES` (empty while the appeal is
pending). The committee's decision replaces the director's, whatever kind of ruling it was
(Law 93): ``changed`` gives new results for one or both sides (``score stands`` for a side
that keeps the table result), ``changed_one_side`` for exactly one; an appeal about a
penalty that is ``changed`` gives the new ``penalty`` (none given: the penalty is
withdrawn); ``upheld`` keeps the ruling, ``withdrawn`` and ``referred_back`` change nothing.
An appeal the Laws do not allow is kept with the reason and changes nothing, without holding
anything back: one lodged after the appeal period (Law 92B; from the official scores, or
from the ruling when it was given later), an appeals committee overruling a disciplinary
penalty (Law 93B3), an appeal about a ruling that does not apply. The effective decision is
the ruling as changed by its admissible decided appeals, the latest decision winning
(:func:`decide`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from functools import lru_cache
from typing import Any

import polars as pl

from pipelines import profiles
from pipelines.formats.model import REJECT_COLUMNS
from pipelines.laws.adjustments import (
    STANDARD_PERCENTAGES,
    STANDS,
    Artificial,
    ResultError,
    SideResult,
    is_stands,
    parse_side_result,
)
from pipelines.laws.corrections import correction_applies, correction_deadline
from pipelines.laws.penalties import PenaltyError, parse_penalty
from pipelines.laws.teams import imp_award_text, parse_imp_award
from pipelines.laws.vocabulary import (
    BOARD_KINDS,
    OUTCOMES,
    OVERTURNED,
    PENALTY_KINDS,
    RULING_KINDS,
    AppealOutcome,
    RulingKind,
)
from pipelines.profiles import ProfileSet
from pipelines.scoring.events import DEFAULTS
from pipelines.tables import polars_schema

OFFENDING: tuple[str, ...] = ("NS", "EW", "both", "none")
HEARD_BY: tuple[str, ...] = ("committee", "panel", "td_in_charge")

#: Columns of a cleaned ruling (the ``rulings`` table).
RULINGS_SCHEMA: dict[str, pl.DataType] = polars_schema("rulings")

#: Columns of a cleaned appeal (the ``appeals`` table).
APPEALS_SCHEMA: dict[str, pl.DataType] = polars_schema("appeals")


def parse_time(text: str | None) -> datetime | None:
    """``YYYY-MM-DD HH:MM[:SS]`` (a ``T`` separator allowed); ``None`` for empty text.

    Read as :func:`pipelines.scoring.events.parse_time` reads the same columns of a frame
    (the same ``strptime`` formats: the seconds when the time has them). Raises
    :class:`ValueError` for anything else.
    """
    if text is None or not text.strip():
        return None
    t = text.strip().replace("T", " ")
    fmt = "%Y-%m-%d %H:%M:%S" if t.count(":") == 2 else "%Y-%m-%d %H:%M"
    try:
        return _strptime(t, fmt)
    except ValueError:
        raise ValueError(f"'{text}' is not a date and time YYYY-MM-DD HH:MM") from None


#: A time written in full (``2026-11-02 19:41`` or ``2026-11-02 19:41:05``): what
#: :meth:`datetime.fromisoformat` reads exactly as ``strptime`` does, many times faster.
_FULL_TIME = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?")


@lru_cache(maxsize=65_536)
def _strptime(text: str, fmt: str) -> datetime:
    """:meth:`datetime.strptime`, each text read once: a season's logs repeat their times
    (every ruling of an evening ends its session at the same minute). A time written in
    full is read by :meth:`datetime.fromisoformat` (the same value, or the same refusal of
    an impossible date); another (``2026-11-2 9:05``, which ``strptime`` accepts) by
    ``strptime``."""
    if _FULL_TIME.fullmatch(text):
        return datetime.fromisoformat(text)
    return datetime.strptime(text, fmt)


def _bool(text: str | None) -> bool | None:
    if text is None or not text.strip():
        return None
    t = text.strip().lower()
    if t in ("true", "yes", "y", "1"):
        return True
    if t in ("false", "no", "n", "0"):
        return False
    raise ValueError(f"'{text}' is not true or false")


@dataclass
class RulingsResult:
    """Cleaned rulings and appeals of one date, and what was rejected."""

    rulings: pl.DataFrame
    appeals: pl.DataFrame
    rejected: pl.DataFrame


@dataclass
class _Problems:
    rows: list[dict] = field(default_factory=list)

    def add(self, rec: dict, fld: str, reason: str, columns: tuple[str, ...]) -> None:
        raw = ",".join((rec.get(c) or "") for c in columns)
        self.rows.append(
            {
                "file": rec["file"],
                "location": rec["location"],
                "field": fld,
                "reason": reason,
                "raw": raw[:300],
            }
        )


def _parsed(
    rec: dict, cols: tuple[str, ...], parse: Callable[[Any], Any], bad: Callable[[str, str], None]
) -> dict[str, Any]:
    """The columns ``cols`` of the log row ``rec``, each read by ``parse``; a value ``parse``
    refuses is rejected for its column (``bad``, with the reason it gives) and left out."""
    out: dict[str, Any] = {}
    for col in cols:
        try:
            out[col] = parse(rec.get(col))
        except ValueError as e:
            bad(col, str(e))
    return out


def _tables(results: pl.DataFrame, rulings: pl.DataFrame | None = None) -> tuple[dict, dict]:
    """The tables and the contestants of every session, by section.

    ``tables``: {(event, session, board, ns_pair, ew_pair): {(section, deal_round)}} (a
    section is ``""`` in a single-section session; ``deal_round`` the round whose deal the
    board is where every round plays its own deals, else 0) — only the tables ``rulings``
    name (every table without ``rulings``: a ruling is looked up by its event, session,
    board and pairs, so no other table is ever asked for); ``people``: {(event, session):
    {(contestant, direction or None, section)}} — a pair number names a different
    contestant in each section, and in each direction of a Mitchell; in an individual the
    contestants are the players (Law 89)."""
    if "form" not in results.columns:
        results = results.with_columns(
            pl.lit("pairs").alias("form"),
            *(pl.lit(None, pl.Utf8).alias(s) for s in ("north", "south", "east", "west")),
        )
    if "deal_round" not in results.columns:
        results = results.with_columns(pl.lit(0, pl.Int32).alias("deal_round"))
    sec = pl.col("section").fill_null("")
    session = pl.col("session").cast(pl.Int64)
    individual = pl.col("form") == "individual"
    mitchell = pl.col("movement") == "mitchell"
    sides = [
        results.filter(individual).select(
            "event_id", session, pl.col(seat).alias("who"), pl.lit(None, pl.Utf8).alias("dir"), sec
        )
        for seat in ("north", "south", "east", "west")
    ] + [
        results.filter(~individual).select(
            "event_id",
            session,
            pl.col(pair).alias("who"),
            pl.when(mitchell).then(pl.lit(side)).alias("dir"),
            sec,
        )
        for pair, side in (("ns_pair", "NS"), ("ew_pair", "EW"))
    ]
    people: dict[tuple[str, int], set[tuple[str, str | None, str]]] = {}
    for ev, s, who, direction, section in pl.concat(sides).unique().iter_rows():
        people.setdefault((ev, s), set()).add((who, direction, section))
    keys = results.select(
        "event_id",
        session,
        pl.col("board").cast(pl.Int64),
        "ns_pair",
        "ew_pair",
        sec,
        pl.col("deal_round").fill_null(0).cast(pl.Int64),
    )
    if rulings is not None:
        named = {
            (r["event_id"], _int(r["session"]), _int(r["board"]), r["ns_pair"], r["ew_pair"])
            for r in rulings.select("event_id", "session", "board", "ns_pair", "ew_pair")
            .cast(pl.Utf8)
            .iter_rows(named=True)
        }
        asked = pl.DataFrame(
            list(named),
            schema={
                "event_id": pl.Utf8,
                "session": pl.Int64,
                "board": pl.Int64,
                "ns_pair": pl.Utf8,
                "ew_pair": pl.Utf8,
            },
            orient="row",
        )
        keys = keys.join(
            asked, on=["event_id", "session", "board", "ns_pair", "ew_pair"], how="semi"
        )
    tables: dict[tuple, set[tuple[str, int]]] = {}
    for ev, s, b, ns, ew, section, dr in keys.unique().iter_rows():
        tables.setdefault((ev, s, b, ns, ew), set()).add((section, dr))
    return tables, people


def validate_rulings(
    rulings: pl.DataFrame,
    appeals: pl.DataFrame,
    results: pl.DataFrame | None,
    events: pl.DataFrame,
    *,
    profs: ProfileSet | None = None,
) -> RulingsResult:
    """Validate one date's rulings and appeals against its validated ``results``.

    ``rulings`` / ``appeals`` have the log columns plus ``session_date`` (appeals also the
    ``event_id`` and ``session`` of their ruling); ``events`` are the resolved event
    sessions. See the module docstring for the rules. With ``results`` ``None`` (a log
    checked on its own by ``traveller validate``) tables, contestants and event sessions are
    not checked: only the notation and the rules of each kind.
    """
    profs = ProfileSet.ensure(profs)
    from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS

    problems = _Problems()
    rounds: dict | None = None
    if results is None:
        tables, people, ev_info = None, {}, None
    else:
        tables, people = _tables(results, rulings)
        rounds = _team_rounds(results)
        listed = {(r["event_id"], r["session"]): r for r in events.iter_rows(named=True)}
        # every event session with results; one not listed anywhere has the defaults
        ev_info = {
            key: listed.get(key) or {**DEFAULTS, "event_id": key[0], "session": key[1]}
            for key in people
        }
    clean: list[dict] = []
    parsed: dict[str, tuple[SideResult | None, SideResult | None]] = {}
    for rec in rulings.iter_rows(named=True):
        row = _ruling(
            rec, problems, tables, people, ev_info, RULING_COLUMNS, profs=profs, rounds=rounds
        )
        if row is not None:
            row, sides = row
            clean.append(row)
            parsed[row["ruling_id"]] = sides
    recs = {rec["ruling_id"]: rec for rec in rulings.iter_rows(named=True)}
    clean = _contradictions(clean, recs, problems, RULING_COLUMNS)
    by_id = {r["ruling_id"]: r for r in clean}
    rejected_ids = {r["ruling_id"] for r in rulings.iter_rows(named=True)} - set(by_id)
    clean_appeals: list[dict] = []
    for rec in appeals.iter_rows(named=True):
        row = _appeal(rec, problems, by_id, rejected_ids, APPEAL_COLUMNS, ev_info, profs=profs)
        if row is not None:
            clean_appeals.append(row)
    _effective(clean, clean_appeals)
    return RulingsResult(
        rulings=pl.DataFrame(clean, schema=RULINGS_SCHEMA, orient="row")
        if clean
        else pl.DataFrame(schema=RULINGS_SCHEMA),
        appeals=pl.DataFrame(clean_appeals, schema=APPEALS_SCHEMA, orient="row")
        if clean_appeals
        else pl.DataFrame(schema=APPEALS_SCHEMA),
        rejected=pl.DataFrame(problems.rows, schema={c: pl.Utf8 for c in REJECT_COLUMNS})
        if problems.rows
        else pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS}),
    )


#: Rulings on the same table and board that decide the same thing (so two of one group, neither
#: superseding the other, contradict each other): the table's score (an adjusted score, or the
#: score standing), its corrected score (Law 79C), an IMP award, the board version played.
DECIDES: dict[RulingKind, str] = {
    RulingKind.ASSIGNED: "score",
    RulingKind.WEIGHTED: "score",
    RulingKind.ARTIFICIAL: "score",
    RulingKind.DIRECTOR_ERROR: "score",
    RulingKind.SCORE_STANDS: "score",
    RulingKind.SCORE_CORRECTION: "correction",
    RulingKind.IMP_AWARD: "award",
    RulingKind.FOULED_BOARD: "version",
}


def _contradictions(
    clean: list[dict], recs: dict[str, dict], problems: _Problems, columns: tuple[str, ...]
) -> list[dict]:
    """Two rulings on the same table and board that decide the same thing (:data:`DECIDES`)
    cannot both stand, and the order the log lists them in says nothing (the director may
    have written the correction first, or two directors both ruled): unless one names the
    other in ``supersedes``, **both are rejected** with the reason — never the last silently
    winning. A ruling that ``supersedes`` another of the same table, board and kind of
    decision, made no earlier, replaces it: the replaced one is kept, not applied, "superseded
    by". A ``supersedes`` naming no such ruling is rejected. (An appeal does not go here: the
    committee's decision is an appeal record, which replaces the director's ruling, Law 93.)

    Returns the rulings that stand; the others are recorded in ``problems``."""
    by_id = {r["ruling_id"]: r for r in clean}
    key_cols = ("event_id", "session", "section", "deal_round", "board", "ns_pair", "ew_pair")

    def key(r: dict) -> tuple | None:
        group = DECIDES.get(r["kind"])
        return None if group is None or r["board"] is None else (*map(r.get, key_cols), group)

    def reject(r: dict, fld: str, reason: str) -> None:
        problems.add(recs[r["ruling_id"]], fld, reason, columns[2:])

    gone: set[str] = set()
    for r in clean:  # a supersedes that names no ruling it can replace
        old_id = r.get("supersedes")
        if old_id is None:
            continue
        old = by_id.get(old_id)
        if old is None or old_id == r["ruling_id"]:
            reject(
                r,
                "supersedes",
                f"ruling {r['ruling_id']} supersedes ruling {old_id}, which is not a ruling "
                "of this date's logs that could be applied",
            )
            gone.add(r["ruling_id"])
        elif key(old) is None or key(old) != key(r):
            reject(
                r,
                "supersedes",
                f"ruling {r['ruling_id']} supersedes ruling {old_id}, which decides something "
                "else (another table, board or kind of decision): a ruling replaces one that "
                "decides the same thing",
            )
            gone.add(r["ruling_id"])
        else:
            t_new, t_old = parse_time(r["ruled_at"]), parse_time(old["ruled_at"])
            if t_new is not None and t_old is not None and t_new < t_old:
                reject(
                    r,
                    "ruled_at",
                    f"ruling {r['ruling_id']} ruled at {_iso(t_new)} supersedes ruling "
                    f"{old_id}, ruled later ({_iso(t_old)}): a ruling replaces an earlier one",
                )
                gone.add(r["ruling_id"])
    groups: dict[tuple, list[dict]] = {}
    for r in clean:
        k = key(r)
        if k is not None and r["ruling_id"] not in gone and not r["late"]:  # late: no effect
            groups.setdefault(k, []).append(r)
    for rs in groups.values():
        if len(rs) < 2:
            continue
        replaced = {r["supersedes"] for r in rs if r.get("supersedes")}
        standing = [r for r in rs if r["ruling_id"] not in replaced]
        if len(standing) == 1:
            for r in rs:
                if r["ruling_id"] in replaced:
                    by = next(x["ruling_id"] for x in rs if x.get("supersedes") == r["ruling_id"])
                    r["applies"] = False
                    r["not_applied_reason"] = f"superseded by ruling {by}"
            continue
        ids = [r["ruling_id"] for r in rs]
        first = rs[0]
        where = (
            f"board {first['board']} at the table NS {first['ns_pair']} v EW {first['ew_pair']}"
            f" (event {first['event_id']} session {first['session']})"
        )
        for r in rs:
            others = ", ".join(i for i in ids if i != r["ruling_id"])
            reject(
                r,
                "ruling_id",
                f"rulings {r['ruling_id']} and {others} both decide {where} and none "
                "supersedes the other: all rejected, since the log's order does not say which "
                "stands; give the later one supersedes (the earlier one's id), or remove one "
                "(a committee's decision goes in the appeals log)",
            )
            gone.add(r["ruling_id"])
    return [r for r in clean if r["ruling_id"] not in gone]


def _int(text: str | None) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    return int(text.strip())


def _ruling(
    rec: dict,
    problems: _Problems,
    tables: dict | None,
    people: dict,
    ev_info: dict | None,
    columns: tuple[str, ...],
    *,
    profs: ProfileSet | None = None,
    rounds: dict | None = None,
) -> tuple[dict, tuple[SideResult | None, SideResult | None]] | None:
    """Check one ruling; its cleaned row and parsed sides, or ``None`` (problems recorded).
    ``rounds``: the rounds each team played (:func:`_team_rounds`; ``None``: not checked)."""
    profs = ProfileSet.ensure(profs)
    n_before = len(problems.rows)

    def bad(fld: str, reason: str) -> None:
        problems.add(rec, fld, reason, columns[2:])

    rid = rec.get("ruling_id")
    if not rid:
        bad("ruling_id", "ruling_id is empty")
    kind = (rec.get("kind") or "").strip()
    if kind not in RULING_KINDS:
        bad("kind", f"kind must be one of {', '.join(RULING_KINDS)}, not '{kind or '(empty)'}'")
    offending = (rec.get("offending") or "none").strip()
    offending = {"ns": "NS", "ew": "EW"}.get(offending.lower(), offending.lower())
    if offending not in OFFENDING:
        bad("offending", f"offending must be NS, EW, both or none, not '{rec.get('offending')}'")
    session = _int(rec.get("session"))
    info = ev_info.get((rec.get("event_id"), session)) if ev_info is not None else None
    if ev_info is not None and info is None:
        bad(
            "event_id",
            f"event {rec.get('event_id')} session {rec.get('session')} has no "
            "results: unknown event session",
        )
    prof = profs[(info or {}).get("profile")]
    scoring = (info or {}).get("scoring") or "matchpoints"
    times = _parsed(rec, ("called_at", "ruled_at"), parse_time, bad)
    _in_order(
        bad,
        "ruled_at",
        times.get("called_at"),
        times.get("ruled_at"),
        lambda called, ruled: (
            f"ruled at {ruled}, before the director was called at {called}: "
            "a ruling follows the call (Law 81C); correct the times"
        ),
    )
    approved = _parsed(rec, ("approved",), _bool, bad).get("approved") or False
    board = _int(rec.get("board"))
    section = rec.get("section") or None
    ns_pair, ew_pair = rec.get("ns_pair"), rec.get("ew_pair")
    sides: tuple[SideResult | None, SideResult | None] = (None, None)
    ns_text, ew_text = rec.get("ns_result"), rec.get("ew_result")
    penalized, penalized_dir = rec.get("penalized"), None
    deal_round = None
    if kind in BOARD_KINDS:
        if board is None:
            bad(
                "board",
                f"a {kind} ruling needs the board (a whole number), "
                f"not '{rec.get('board') or '(empty)'}'",
            )
        elif not ns_pair or not ew_pair:
            bad("ns_pair", "a ruling about a board names the table by its ns_pair and ew_pair")
        elif tables is not None and info is not None:
            found = tables.get((rec.get("event_id"), session, board, ns_pair, ew_pair), set())
            if section is not None:
                found = {f for f in found if f[0] == section}
            rnd = _int(rec.get("round"))
            if rnd is not None:  # where boards are re-dealt per round, the round named
                found = {f for f in found if f[1] in (0, rnd)}
            sections = sorted({f[0] for f in found})
            rounds = sorted({f[1] for f in found})
            if not found:
                bad(
                    "board",
                    f"no result for board {board} between NS {ns_pair} and EW {ew_pair} "
                    f"in event {rec.get('event_id')} session {session}"
                    f"{' section ' + section if section else ''}"
                    f"{f' round {rnd}' if rnd is not None else ''}: unknown table or board",
                )
            elif section is None and len(sections) > 1:
                bad(
                    "section",
                    f"NS {ns_pair} and EW {ew_pair} played board {board} in sections "
                    f"{', '.join(sections)} of this session: give the section",
                )
            elif len(rounds) > 1:
                bad(
                    "round",
                    f"NS {ns_pair} and EW {ew_pair} played a board {board} in rounds "
                    f"{', '.join(map(str, rounds))} of this session, each round with its own "
                    "deals: give the round",
                )
            else:
                section = section or sections[0] or None
                deal_round = rounds[0]
        if board is not None and kind == RulingKind.IMP_AWARD:
            sides = _imp_award(info, ns_text, ew_text, bad)
        elif board is not None:
            sides = _sides(kind, ns_text, ew_text, board, bad)
            _check_artificial(kind, offending, sides, prof, scoring, bad)
            if (info or {}).get("form") == "teams":
                _whole_percentages(sides, bad)
        if kind == RulingKind.DIRECTOR_ERROR and offending != "none":
            bad(
                "offending",
                "Law 82C treats both sides as non-offending: a director_error ruling names "
                f"no offending side, not '{offending}'",
            )
        if kind == RulingKind.FOULED_BOARD and not (rec.get("board_version") or "").strip():
            bad(
                "board_version",
                "a fouled_board ruling names the board_version the table played (B, C, ...)",
            )
        if kind == RulingKind.SCORE_CORRECTION and times.get("ruled_at") is None:
            if not approved:
                bad(
                    "ruled_at",
                    "a score correction needs ruled_at (Law 79C: it applies within "
                    "the correction period) unless it is approved",
                )
            elif ((info or {}).get("laws") or "2017") == "2007":
                bad(
                    "ruled_at",
                    "a score correction under the 2007 Laws needs ruled_at: it applies only "
                    "within the correction period, approved or not (Law 79C has no later "
                    "correction before 2017)",
                )
    elif kind in PENALTY_KINDS:
        penalized, penalized_dir, section = _penalized(
            rec, people.get((rec.get("event_id"), session)), section, bad
        )
        try:
            form = (info or {}).get("form") or "pairs"
            at_imps = scoring != "matchpoints"
            standard = prof.standard_imps if at_imps else prof.standard_penalty
            p = parse_penalty(rec.get("penalty"), standard)
            if p.status and kind != RulingKind.DISCIPLINARY_PENALTY:
                bad(
                    "penalty",
                    f"'{p.status}' is a disciplinary penalty (Law 91B), not a procedural one",
                )
            if p.unit in ("IMP", "VP") and not at_imps:
                bad("penalty", f"a penalty in {p.unit} cannot be deducted at matchpoints")
            if at_imps and p.amount and p.unit in ("%", "MP"):
                bad("penalty", f"a penalty at {scoring} is given in IMP (teams: IMP or VP)")
            if p.unit == "VP" and form != "teams":
                bad("penalty", "a penalty in VP belongs to a team event")
            if p.status == "suspended" and rec.get("round") and not _int(rec.get("round")):
                bad("round", "a suspension from a round names the round as a whole number")
            if form == "teams" and p.unit == "IMP" and rec.get("round") and penalized:
                _match_round(rec, session, section, penalized, rounds, bad)
            if p.unit == "VP" and no_vps(info):
                bad(
                    "penalty",
                    f"'{rec.get('penalty') or standard}': a knockout is decided on IMPs and "
                    "has no victory points (Law 90: give the penalty in IMP, e.g. '3 IMP')",
                )
        except PenaltyError as e:
            bad("penalty", str(e))
        for col in ("ns_result", "ew_result"):
            if rec.get(col):
                bad(
                    col,
                    "a penalty ruling gives no result: the board's result is unchanged "
                    "(Law 90: the penalty is in addition to it)",
                )
    if len(problems.rows) > n_before:
        return None
    assert rid is not None
    applies, why, late = True, None, False
    if info is not None and (
        info.get("published_at") or info.get("date") or rec.get("session_date")
    ):
        published = published_at(info, rec.get("session_date"))
        minutes, appeal_minutes = periods(info, profs=profs)
        deadline = correction_deadline(published, minutes)
        laws = info.get("laws") or "2017"
        if kind == RulingKind.SCORE_CORRECTION:
            ok = correction_applies(times.get("ruled_at"), published, minutes, approved)
            if ok and approved and laws == "2007" and times.get("ruled_at") is not None:
                ok = times["ruled_at"] <= deadline
                if not ok:
                    why = (
                        f"made after the correction period (it ended {_iso(deadline)}): the "
                        "2007 Laws (Law 79C) provide no later correction, even approved"
                    )
            elif not ok:
                why = (
                    f"made after the correction period (it ended {_iso(deadline)}) and not "
                    "approved (Law 79C2)"
                )
            if not ok:
                applies, late = False, True
        elif kind != RulingKind.DISCIPLINARY_PENALTY:
            # Law 92B: the right to request a ruling expires with the period of 92B (the
            # event's appeal_minutes), not with the correction period of Law 79C
            asked = times.get("called_at") or times.get("ruled_at")
            request_deadline = correction_deadline(published, appeal_minutes)
            if asked is not None and asked > request_deadline:
                applies, late = False, True
                what = "requested" if times.get("called_at") else "made"
                why = (
                    f"late: {what} {_iso(asked)}, after the time to request a ruling ended "
                    f"{_iso(request_deadline)} (Law 92B); kept in the log, not applied"
                )
    row = {
        "session_date": rec.get("session_date"),
        "ruling_id": rid,
        "event_id": rec.get("event_id"),
        "session": session,
        "section": section or "",
        "board": board if kind in BOARD_KINDS else None,
        "round": rec.get("round"),
        "deal_round": deal_round,
        "table": rec.get("table"),
        "ns_pair": ns_pair,
        "ew_pair": ew_pair,
        "director": rec.get("director"),
        "called_at": _iso(times.get("called_at")),
        "ruled_at": _iso(times.get("ruled_at")),
        "laws": ";".join(x.strip() for x in (rec.get("laws") or "").split(";") if x.strip())
        or None,
        "kind": kind,
        "offending": offending,
        "ns_result": _text(sides[0]) if sides[0] is not None else None,
        "ew_result": _text(sides[1]) if sides[1] is not None else None,
        "board_version": (rec.get("board_version") or "").strip().upper() or None,
        "penalized": penalized if kind in PENALTY_KINDS else None,
        "penalized_direction": penalized_dir,
        "penalty": (rec.get("penalty") or None) if kind in PENALTY_KINDS else None,
        "approved": approved,
        "note": rec.get("note"),
        "public_note": rec.get("public_note"),
        "appeals": 0,
        "pending_appeals": 0,
        "appeal_outcome": None,
        "effective_ns_result": None,
        "effective_ew_result": None,
        "changed_on_appeal": False,
        "effective_kind": kind,
        "effective_penalty": None,
        "late": late,
        "applies": applies,
        "not_applied_reason": why,
        "supersedes": (rec.get("supersedes") or "").strip() or None,
        "file": rec["file"],
        "location": rec["location"],
    }
    return row, sides


def _check_artificial(
    kind: str,
    offending: str,
    sides: tuple[SideResult | None, SideResult | None],
    prof: profiles.Profile,
    scoring: str,
    bad,
) -> None:
    """The rules of Law 12C2 on the artificial scores of a board ruling.

    * 12C2(a): a contestant directly at fault gets at most average-minus, one partly at fault
      average: an offending side is never given more than average (50 %);
    * 82C: both sides are treated as non-offending, so an artificial score is at least
      average-plus;
    * 12C2(d): other percentages (``A55``) only where the regulations (the profile) allow
      them, and not at IMP forms, whose artificial scores are IMPs (12C2(b))."""
    for side, res, col in (("NS", sides[0], "ns_result"), ("EW", sides[1], "ew_result")):
        if not isinstance(res, Artificial):
            continue
        pct = res.nominal(prof.average_plus, prof.average, prof.average_minus)
        if not res.variable and res.code not in STANDARD_PERCENTAGES:
            if scoring != "matchpoints":
                bad(
                    col,
                    f"'A{res.code}' has no IMP equivalent: at {scoring} an artificial score is "
                    "average-plus, average or average-minus (Law 12C2(b))",
                )
            elif not prof.other_percentages:
                bad(
                    col,
                    f"'A{res.code}': artificial scores other than 60/50/40 % need a regulation "
                    f"(Law 12C2(d)); profile '{prof.name}' does not allow them",
                )
        at_fault = offending in (side, "both")
        if at_fault and pct > prof.average:
            bad(
                col,
                f"{side} is the offending side: Law 12C2(a) gives a side at fault at most "
                f"average ({prof.average} %), not {_text(res)}",
            )
        if kind == RulingKind.DIRECTOR_ERROR and pct < prof.average_plus:
            bad(
                col,
                "Law 82C treats both sides as non-offending: each artificial score is at "
                f"least average-plus, not {_text(res)}",
            )


def _whole_percentages(sides: tuple, bad) -> None:
    """At teams a weighted score's weights are whole percentages: a team's figure on a
    board is exact over a fixed denominator (:data:`pipelines.scoring.imp_forms.TEAMS_DEN`)."""
    for i, (res, col) in enumerate(zip(sides, ("ns_result", "ew_result"), strict=True)):
        if i and res is sides[0]:  # one result for both sides: said once
            continue
        if isinstance(res, tuple) and any((c.weight * 100).denominator != 1 for c in res):
            bad(col, "at teams the weights of a weighted score are whole percentages (60%, 40%)")


def periods(info: dict, *, profs: ProfileSet | None = None) -> tuple[int, int]:
    """The correction period (Law 79C) and the appeal period (Law 92B) of an event session,
    in minutes: its own (``events.csv``), else its profile's ``[periods]``."""
    profs = ProfileSet.ensure(profs)
    prof = profs[info.get("profile")]
    correction = info.get("correction_minutes")
    appeal = info.get("appeal_minutes")
    return (
        prof.correction_minutes if correction is None else int(correction),
        prof.appeal_minutes if appeal is None else int(appeal),
    )


def no_vps(info: dict | None) -> bool:
    """Whether the event session scores no victory points: a knockout (``stage``
    ``knockout``) or ``vp_scale`` ``none``; a VP penalty is meaningless there."""
    info = info or {}
    return info.get("stage") == "knockout" or info.get("vp_scale") == "none"


def published_at(info: dict, session_date: str | None) -> datetime:
    """When the session's official scores were made available: the event's ``published_at``,
    else the end of the session's day (23:59)."""
    t = parse_time(info.get("published_at"))
    if t is not None:
        return t
    day = info.get("date") or session_date
    return _strptime(f"{day} 23:59", "%Y-%m-%d %H:%M")


def _in_order(
    bad: Callable[[str, str], None],
    field: str,
    earlier: datetime | None,
    later: datetime | None,
    message: Callable[[str | None, str | None], str],
) -> None:
    """Reject ``field`` (``bad``) when both times are given and ``later`` is before
    ``earlier``, with ``message`` of the two as ``YYYY-MM-DD HH:MM:SS``."""
    if earlier is not None and later is not None and later < earlier:
        bad(field, message(_iso(earlier), _iso(later)))


def _iso(t: datetime | None) -> str | None:
    return t.strftime("%Y-%m-%d %H:%M:%S") if t else None


def _text(side: SideResult | Fraction) -> str:
    """Canonical text of a parsed side result (an IMP award's IMPs: ``+9 IMP``)."""
    if isinstance(side, Fraction):
        return imp_award_text(side)
    if isinstance(side, Artificial):
        return {"+": "A+", "=": "A", "-": "A-"}.get(side.code, f"A{side.code}")
    if len(side) == 1:
        return side[0].text or f"{side[0].ns_score:+d}"
    return "; ".join(c.text for c in side)


def _sides(kind: str, ns_text: str | None, ew_text: str | None, board: int, bad) -> tuple:
    """Parse the two sides' results for a board ruling of ``kind`` (see module docstring)."""
    if kind in (RulingKind.SCORE_STANDS, RulingKind.FOULED_BOARD):
        for text, col in ((ns_text, "ns_result"), (ew_text, "ew_result")):
            if text:
                bad(col, f"a {kind} ruling gives no result: the table's result stands")
        return None, None
    if kind == RulingKind.DIRECTOR_ERROR and not ns_text and not ew_text:
        ns_text = ew_text = "A+"
    if not ns_text and not ew_text:
        bad("ns_result", f"a {kind} ruling gives the result each side is scored with")
        return None, None
    out: list = []
    given = [(ns_text, "ns_result"), (ew_text, "ew_result")]
    if not ns_text or not ew_text:  # one result for both sides: a balanced score, checked once
        given = [next((t, c) for t, c in given if t)]
    for text, col in given:
        try:
            side = parse_side_result(text, board)
        except ResultError as e:
            bad(col, str(e))
            out.append(None)
            continue
        art = isinstance(side, Artificial)
        if art and kind not in (RulingKind.ARTIFICIAL, RulingKind.DIRECTOR_ERROR):
            bad(
                col,
                f"'{text}' is an artificial score (Law 12C2): give it with kind "
                "artificial (or director_error), not " + kind,
            )
        elif not art and kind == RulingKind.ARTIFICIAL:
            bad(col, f"'{text}' is not an artificial score: write A+, A, A-, A60, A50 or A40")
        elif (
            not art
            and len(side) > 1
            and kind not in (RulingKind.WEIGHTED, RulingKind.DIRECTOR_ERROR)
        ):
            bad(col, f"'{text}' is a weighted score: give it with kind weighted")
        elif not art and len(side) == 1 and kind == RulingKind.WEIGHTED and col == "ns_result":
            if not (ew_text and _is_weighted(ew_text, board)):
                bad(
                    col,
                    "a weighted ruling gives at least one side's result as weighted "
                    "components like '60% 4S N =; 40% 4S N -1'",
                )
        out.append(side)
    if kind == RulingKind.ARTIFICIAL and ew_text is None and ns_text is not None:
        bad("ew_result", "an artificial ruling gives each side's score (e.g. A+ and A-)")
    return out[0], out[-1]


def _is_weighted(text: str, board: int) -> bool:
    try:
        side = parse_side_result(text, board)
    except ResultError:
        return True  # reported as it is parsed
    return not isinstance(side, Artificial) and len(side) > 1


def _imp_award(
    info: dict | None, ns_text: str | None, ew_text: str | None, bad
) -> tuple[Fraction | None, Fraction | None]:
    """The IMPs of an ``imp_award`` ruling (2007 Law 86D: an adjusted score in IMPs for a
    board of a team match; 2017 Law 86B1): a teams event only; ``ns_result`` the IMPs of
    the team seated NS at the named table (``+9 IMP``), ``ew_result`` the other team's
    (empty: the negation, a balanced award)."""
    if info is not None and info.get("form") != "teams":
        bad(
            "kind",
            f"an imp_award adjusts a board of a team match (Law 86B1; 2007 Law 86D), "
            f"and this is a {info.get('form') or 'pairs'} event: give an assigned or "
            "artificial score",
        )
    if not ns_text:
        bad(
            "ns_result",
            "an imp_award gives the IMPs awarded to the team seated NS at the named table, "
            "e.g. '+9 IMP'",
        )
        return None, None
    out: list[Fraction | None] = []
    for text, col in ((ns_text, "ns_result"), (ew_text, "ew_result")):
        if not text:
            out.append(None)
            continue
        try:
            out.append(parse_imp_award(text))
        except ValueError as e:
            bad(col, str(e))
            out.append(None)
    return out[0], out[1]


def _team_rounds(results: pl.DataFrame) -> dict[tuple, set[int]]:
    """The rounds each team played a match in: {(event, session, section, team): {round}}
    (a section is ``""`` in a single-section session), from the team events' results."""
    if "form" not in results.columns or "round" not in results.columns:
        return {}
    teams = results.filter(pl.col("form") == "teams")
    if not teams.height:
        return {}
    keys = [
        "event_id",
        pl.col("session").cast(pl.Int64),
        pl.col("section").fill_null(""),
        pl.col("round").cast(pl.Int64, strict=False),
    ]
    played = pl.concat(
        [teams.select(*keys, pl.col(side).alias("team")) for side in ("ns_pair", "ew_pair")]
    ).unique()
    out: dict[tuple, set[int]] = {}
    for ev, s, sec, rnd, team in played.iter_rows():
        rounds = out.setdefault((ev, s, sec, team), set())  # none: results without rounds
        if rnd is not None:
            rounds.add(rnd)
    return out


def _match_round(
    rec: dict, session: int | None, section: str | None, team: str, rounds: dict | None, bad
) -> None:
    """A penalty in IMPs at teams comes off the team's match of the round the ruling names
    (Law 90; no round: its first match of the session), so that round must be one the team
    played: a bye, or a round of another session, names no match and is refused — the
    penalty is never dropped without a word."""
    rnd = _int(rec.get("round"))
    if rnd is None:
        bad("round", "a penalty in IMP names the round of its match as a whole number")
        return
    if rounds is None:
        return
    played = rounds.get((rec.get("event_id"), session, section or "", team))
    if played is None or rnd in played:
        return  # a team that played no match at all is not this check's to refuse
    where = f" of section {section}" if section else ""
    if not played:
        bad(
            "round",
            f"the results of team {team} in session {session}{where} give no round: a "
            "penalty in IMP there names none (Law 90: it comes off the team's match of the "
            "session)",
        )
        return
    bad(
        "round",
        f"team {team} played no match in round {rnd} of session {session}{where} (it played "
        f"rounds {', '.join(map(str, sorted(played)))}): a penalty in IMP comes off the match "
        "of the round it names (Law 90); give one of those rounds, or none for its first "
        "match of the session",
    )


def _penalized(
    rec: dict, contestants: set | None, section: str | None, bad
) -> tuple[str | None, str | None, str | None]:
    """The penalised contestant, its direction in a Mitchell and its section.

    A penalty touches one contestant only (Laws 90, 91): the pair number of one section (a
    pair 7 of section A is not pair 7 of section B) and, in a Mitchell, of one direction.
    When the ruling names no section and the contestant plays in several, it is refused."""
    who = (rec.get("penalized") or "").strip()
    if not who:
        bad("penalized", "a penalty names the penalized contestant")
        return None, None, section
    if contestants is None:
        return who, None, section
    pool = {c for c in contestants if section is None or c[2] == section}
    cands = []
    for suffix in ("NS", "EW"):
        if who.upper().endswith(suffix):
            cands = [c for c in pool if c[0] == who[:-2] and c[1] == suffix]
            if cands:
                who = who[:-2]
                break
    if not cands:
        cands = [c for c in pool if c[0] == who]
    if not cands:
        where = f"section {section} of this session" if section else "this session"
        bad("penalized", f"'{who}' is not a contestant of {where}")
        return None, None, section
    sections = sorted({c[2] for c in cands})
    if len(sections) > 1:
        bad(
            "section",
            f"'{who}' is a contestant in sections {', '.join(sections)} of this session: "
            "give the section of the penalized contestant",
        )
        return None, None, section
    directions = {c[1] for c in cands}
    if len(directions) > 1:
        side = (rec.get("offending") or "").upper()
        if side in ("NS", "EW"):
            return who, side, sections[0] or None
        bad(
            "penalized",
            f"'{who}' is a pair number in both directions of this Mitchell: "
            f"write {who}NS or {who}EW",
        )
        return None, None, section
    return who, next(iter(directions)), sections[0] or None


def _appeal(
    rec: dict,
    problems: _Problems,
    rulings: dict,
    rejected_ids: set,
    columns: tuple[str, ...],
    ev_info: dict | None = None,
    *,
    profs: ProfileSet | None = None,
) -> dict | None:
    """Check one appeal; its cleaned row, or ``None`` (problems recorded). An appeal the Laws
    do not allow is returned with ``applies`` false and the reason (module docstring)."""
    profs = ProfileSet.ensure(profs)
    n_before = len(problems.rows)

    def bad(fld: str, reason: str) -> None:
        problems.add(rec, fld, reason, columns[2:])

    aid, rid = rec.get("appeal_id"), rec.get("ruling_id")
    if not aid:
        bad("appeal_id", "appeal_id is empty")
    ruling = rulings.get(rid)
    if ruling is None:
        why = "was rejected" if rid in rejected_ids else "is not known for this date"
        bad("ruling_id", f"appeal {aid} is about ruling {rid}, which {why}")
        return None
    outcome = (rec.get("outcome") or "").strip().lower() or None
    times = _parsed(rec, ("lodged_at", "decided_at"), parse_time, bad)
    if outcome is not None and outcome not in OUTCOMES:
        bad(
            "outcome",
            f"outcome must be one of {', '.join(OUTCOMES)} (or empty while pending), "
            f"not '{outcome}'",
        )
    if outcome is not None and times.get("decided_at") is None:
        bad("decided_at", "a decided appeal gives decided_at")
    lodged, decided = times.get("lodged_at"), times.get("decided_at")
    _in_order(
        bad,
        "decided_at",
        lodged,
        decided,
        lambda lodged, decided: (
            f"decided at {decided}, before the appeal was lodged at "
            f"{lodged} (Law 92): correct the times"
        ),
    )
    ruled = parse_time(ruling.get("ruled_at")) if ruling.get("ruled_at") else None
    _in_order(
        bad,
        "lodged_at",
        ruled,
        lodged,
        lambda ruled, lodged: (
            f"lodged at {lodged}, before ruling {rid} it is about was given "
            f"at {ruled} (Law 92A: an appeal is against a ruling made); correct the times"
        ),
    )
    heard = (rec.get("heard_by") or "").strip().lower() or None
    if heard is not None and heard not in HEARD_BY:
        bad("heard_by", f"heard_by must be committee, panel or td_in_charge, not '{heard}'")
    flags = _parsed(rec, ("deposit_retained", "without_merit"), _bool, bad)
    ns_text, ew_text = rec.get("ns_result"), rec.get("ew_result")
    pen_text = (rec.get("penalty") or "").strip() or None
    changing = outcome in OVERTURNED
    penalty_ruling = ruling["kind"] in PENALTY_KINDS
    if outcome == AppealOutcome.CHANGED_ONE_SIDE and (
        penalty_ruling or bool(ns_text) == bool(ew_text)
    ):
        bad(
            "ns_result",
            "changed_one_side gives the new result of exactly one side of a board ruling",
        )
    if changing and not penalty_ruling:
        if not ns_text and not ew_text:
            bad("ns_result", f"a {outcome} appeal gives the new result(s)")
        for text, col in ((ns_text, "ns_result"), (ew_text, "ew_result")):
            if text and not is_stands(text):
                try:
                    if ruling["kind"] == RulingKind.IMP_AWARD:  # an award changed: new IMPs
                        parse_imp_award(text)
                    else:
                        parse_side_result(text, ruling["board"])
                except (ResultError, ValueError) as e:
                    bad(col, str(e))
        if pen_text:
            bad("penalty", "an appeal about a board ruling gives results, not a penalty")
    elif changing:
        if ns_text or ew_text:
            bad("ns_result", "an appeal about a penalty gives the new penalty, not a result")
        if pen_text:
            info = (ev_info or {}).get((ruling["event_id"], ruling["session"])) or {}
            prof = profs[info.get("profile")]
            at_imps = (info.get("scoring") or "matchpoints") != "matchpoints"
            try:
                new = parse_penalty(pen_text, prof.standard_imps if at_imps else prof.standard)
                old = parse_penalty(
                    ruling["penalty"], prof.standard_imps if at_imps else prof.standard
                )
                if (new.status is None) != (old.status is None) or (
                    new.status is None and new.unit != old.unit and new.amount
                ):
                    bad(
                        "penalty",
                        f"the appeal changes the penalty {old.status or old.unit} into "
                        f"{new.status or new.unit}: give the new amount in the same unit",
                    )
            except PenaltyError as e:
                bad("penalty", str(e))
    elif ns_text or ew_text or pen_text:
        bad("ns_result", f"an appeal {outcome or 'pending'} gives no new result")
    if len(problems.rows) > n_before:
        return None
    applies, late, why = True, False, None
    lodged = times.get("lodged_at")
    info = (ev_info or {}).get((ruling["event_id"], ruling["session"]))
    dated = info is not None and (
        info.get("published_at") or info.get("date") or ruling["session_date"]
    )
    if info is not None and dated and lodged is not None:
        start = published_at(info, ruling["session_date"])
        ruled = parse_time(ruling["ruled_at"])
        if ruled is not None and ruled > start:
            start = ruled
        deadline = start + timedelta(minutes=periods(info, profs=profs)[1])
        if lodged > deadline:
            applies, late = False, True
            why = (
                f"late: lodged {_iso(lodged)}, after the appeal period ended {_iso(deadline)} "
                "(Law 92B); kept, not applied"
            )
    if applies and not ruling["applies"]:
        applies, why = False, f"the ruling appealed does not apply ({ruling['not_applied_reason']})"
    if (
        applies
        and changing
        and ruling["kind"] == RulingKind.DISCIPLINARY_PENALTY
        and heard in ("committee", "panel")
    ):
        applies = False
        why = "an appeals committee cannot overrule a disciplinary penalty (Law 93B3): not applied"
    board = ruling["board"]
    return {
        "session_date": rec.get("session_date"),
        "appeal_id": aid,
        "ruling_id": rid,
        "event_id": ruling["event_id"],
        "session": ruling["session"],
        "lodged_at": _iso(lodged),
        "lodged_by": rec.get("lodged_by"),
        "heard_by": heard,
        "decided_at": _iso(times.get("decided_at")),
        "outcome": outcome,
        "ns_result": _canon(ns_text, board, ruling["kind"]),
        "ew_result": _canon(ew_text, board, ruling["kind"]),
        "penalty": pen_text,
        "deposit_retained": flags.get("deposit_retained"),
        "without_merit": flags.get("without_merit"),
        "pending": outcome is None and applies,
        "late": late,
        "applies": applies,
        "not_applied_reason": why,
        "note": rec.get("note"),
        "public_note": rec.get("public_note"),
        "file": rec["file"],
        "location": rec["location"],
    }


def _canon(text: str | None, board: int | None, kind: str | None = None) -> str | None:
    if not text or board is None:
        return text or None
    if is_stands(text):
        return STANDS
    if kind == RulingKind.IMP_AWARD:
        return imp_award_text(parse_imp_award(text))
    return _text(parse_side_result(text, board))


@dataclass(frozen=True)
class Effective:
    """A ruling as it stands after some of its appeals (:func:`decide`)."""

    kind: str  # the effective kind: what the results now are
    ns_result: str | None
    ew_result: str | None
    penalty: str | None
    in_effect: bool  # false: a penalty withdrawn on appeal
    appeal_id: str | None  # the last appeal that changed it
    outcome: str | None  # the outcome of the last decided appeal


def result_kind(ns: str | None, ew: str | None, ruled_kind: str, board: int) -> str:
    """The kind of adjustment a pair of results makes (Law 93: an appeal's decision replaces
    the director's, whatever kind the ruling was): ``score_stands`` when both sides keep the
    table result, ``artificial`` (12C2), ``weighted`` (12C1(c)) or ``assigned`` (12C1(b),
    split when the sides differ). A director's-error ruling stays one (Law 82C: both sides
    non-offending) and a score correction stays one while it gives an ordinary score."""
    ew = ew or ns
    if is_stands(ns) and is_stands(ew):
        return "score_stands"
    if ruled_kind == RulingKind.IMP_AWARD:  # an award of IMPs changed on appeal (2007 Law 86D)
        return "imp_award"
    parsed = [None if is_stands(t) else parse_side_result(t, board) for t in (ns, ew)]
    if ruled_kind == RulingKind.DIRECTOR_ERROR:
        return "director_error"
    if all(isinstance(p, Artificial) for p in parsed):
        return "artificial"
    if any(isinstance(p, tuple) and len(p) > 1 for p in parsed):
        return "weighted"
    if ruled_kind == RulingKind.SCORE_CORRECTION and not any(
        isinstance(p, Artificial) for p in parsed
    ):
        return "score_correction"
    return "assigned"


def decide(ruling: dict, appeals: list[dict]) -> Effective:
    """The ruling as changed by ``appeals`` (its admissible decided appeals, in decision
    order): each ``changed`` decision replaces the results it names (``changed`` with one
    result gives it to both sides), a penalty takes the new amount or, none given, is
    withdrawn; ``upheld``, ``withdrawn`` and ``referred_back`` change nothing."""
    ns, ew, pen = ruling["ns_result"], ruling["ew_result"], ruling["penalty"]
    kind, in_effect, last, outcome = ruling["kind"], True, None, None
    for a in appeals:
        outcome = a["outcome"]
        if a["outcome"] not in OVERTURNED:
            continue
        last = a["appeal_id"]
        if ruling["kind"] in PENALTY_KINDS:
            if a.get("penalty"):
                pen, in_effect = a["penalty"], True
            else:
                in_effect = False
            continue
        a_ns, a_ew = a["ns_result"], a["ew_result"]
        if a["outcome"] == AppealOutcome.CHANGED and ruling["kind"] == RulingKind.IMP_AWARD:
            ns, ew = a_ns or ns, a_ew  # an award's other side is its negation unless given
        elif a["outcome"] == AppealOutcome.CHANGED:  # one result given: the same for both sides
            ns, ew = a_ns or a_ew, a_ew or a_ns
        else:  # one side changed, the other keeps what it had (the table result, if nothing)
            ns, ew = a_ns or ns or STANDS, a_ew or ew or STANDS
        kind = result_kind(ns, ew, ruling["kind"], ruling["board"])
    return Effective(kind, ns, ew, pen, in_effect, last, outcome)


def _effective(rulings: list[dict], appeals: list[dict]) -> None:
    """Fill each ruling's effective outcome from its admissible decided appeals (latest
    decision wins; :func:`decide`)."""
    by_ruling: dict[str, list[dict]] = {}
    for a in appeals:
        by_ruling.setdefault(a["ruling_id"], []).append(a)
    for r in rulings:
        mine = by_ruling.get(r["ruling_id"], [])
        r["appeals"] = len(mine)
        r["pending_appeals"] = sum(1 for a in mine if a["pending"])
        decided = sorted(
            (a for a in mine if not a["pending"] and a["applies"] and a["outcome"]),
            key=lambda a: (a["decided_at"] or "", a["appeal_id"]),
        )
        d = decide(r, decided)
        r["appeal_outcome"] = d.outcome
        r["effective_ns_result"], r["effective_ew_result"] = d.ns_result, d.ew_result
        r["effective_kind"], r["effective_penalty"] = d.kind, d.penalty
        r["changed_on_appeal"] = d.appeal_id is not None
        if not d.in_effect and r["applies"]:
            r["applies"] = False
            r["not_applied_reason"] = f"penalty withdrawn on appeal {d.appeal_id}"
