"""Synthetic pairs evenings and directors' logs: seeded, realistic, and free of real people.

Real club results carry real names and national membership numbers, so the
project ships only generated data. This module draws the pairs evenings and the
directors' logs that :func:`pipelines.synth.inbox.generate_inbox` writes as an inbox
in the canonical CSV formats, and builds large result frames for benchmarks
(:func:`generate_results_frame`).

What the generated data looks like:

* **Events.** Several clubs play every evening from ``start_date``; each club
  session is one event session. Some events run over two sessions (same
  ``event_id``, sessions 1 and 2 on consecutive dates) so that multi-session
  totals are exercised. Movements are a mix of Howell and Mitchell; the
  scoring profile is mostly ``wbf`` with some ``ebu`` and ``acbl``.
* **Movements.** A Howell of ``P`` pairs (8..16) on ``P/2`` tables pairs the
  pairs by the round-robin circle method, and in round ``r`` every table plays
  board set ``r`` (duplicated boards, as with a dealing machine), so each board
  is played by every table and no pair meets a board twice. A Mitchell of ``T``
  tables (5..12) is a proper one: NS pair ``t`` sits at table ``t``, EW pairs
  move up one table and boards down one each round, with the usual skip after
  half the rounds when ``T`` is even.
* **Results.** Each board gets a "par" contract (strain weighted toward the
  majors and notrump, mostly part-scores and games, sometimes slams); each
  table bids it most of the time, otherwise a neighbouring contract (a level
  up or down, another strain, doubled, rarely redoubled, a sacrifice by the
  other side, or rarely a pass-out when the par is low). Tricks are the par
  tricks, most often exactly, otherwise one or two off. So every board has
  many tied scores, as real travellers do. Scores are Law 77 NS scores from
  :mod:`pipelines.laws.contract`; no other scorer exists here.
* **Irregularities**, per table result: about 1 % missing from the file,
  0.5 % not played (``NP``) and 0.5 % table-level artificial scores
  (``A60/40``, ``A50/50``, ``A+/-`` ...). About one results file in five leaves
  the score column empty for played boards (the score is optional).
* **Directors' logs** (``rulings.csv``, ``appeals.csv``; drawn from a random stream of
  their own, so the results are the same with or without them). Each session has a
  timetable (it starts 18:30-19:30 and ends by 22:30; ``published_at`` in ``events.csv``,
  22:40-22:55, opens the Law 79C correction period). A director is called at about 3 % of
  the tables with a contract (:data:`CALL_RATE`): 55 % of the calls end in the score
  standing, 17 % in an assigned score (a fifth of them split, Law 12C1(e)), 8 % weighted
  (two or three components), 6 % artificial (mostly ``A+``/``A-``), 2 % director's error
  (82C), 5 % a procedural penalty (late arrival, slow play ...), 1 % a disciplinary one,
  and about 2 % of the rulings are fouled boards (2-3 tables of a board played version
  ``B``). Adjusted results are contract results close to the board's other results. The
  event's director handles two calls in three, the club's assistant the rest. Apart from
  the calls, 0.5 % of the tables get a score correction: mostly within the correction
  period, some the next day approved, a few the next day not approved (they do not apply).
  About 4 % of the rulings that changed a score are appealed (:data:`APPEAL_RATE`); the
  latest date's last appeal or two are still pending. A generation too small to show them
  at these rates is topped up with one weighted, split, artificial and fouled-board ruling,
  one procedural penalty, one correction within the period and one appeal that changed a
  ruling, each only when missing.
* **Club and level** (``events.csv``): the club's name; a two-session event is a
  ``congress``, the others ``club`` sessions. With more clubs than :data:`DIRECTORS` a
  director runs the sessions of several clubs.
* **Planted effects** (:class:`Planted`, ``traveller generate --plant-...``): a director
  overturned on appeal several times as often as the others, or one who never issues a
  procedural penalty, to show that the audit of :mod:`pipelines.audit` finds them.
* **People.** Names are built from invented syllables and player ids carry an
  ``X`` prefix (``X104233``) so that they can never be mistaken for real
  membership numbers.

Everything is drawn from one :class:`numpy.random.Generator` seeded with
``seed`` and written sorted with ``\\n`` line endings, so the same arguments
give byte-identical files.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import numpy as np
import polars as pl

from pipelines.formats.model import EVENT_COLUMNS, RESULT_CSV_HEADER
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.laws.contract import (
    SEATS,
    STRAINS,
    Contract,
    contract_parts_expr,
    ns_score,
    ns_score_expr,
    parse_contract,
)
from pipelines.laws.vocabulary import OUTCOMES, OVERTURNED

#: A season meets the same few hundred contracts and results again and again: each is
#: parsed, made and scored once (the Laws' functions are pure and a Contract is frozen).
_parsed = functools.lru_cache(maxsize=1 << 12)(parse_contract)
_contract = functools.lru_cache(maxsize=1 << 12)(Contract)
_scored = functools.lru_cache(maxsize=1 << 16)(ns_score)

# --------------------------------------------------------------------------- constants

#: events.csv as generated: the event columns, less ``expected_results``, ``boards`` and
#: ``pairs`` (full movements: the results say them) and ``compare`` (the profile's).
EVENT_HEADER: tuple[str, ...] = tuple(
    c
    for c in EVENT_COLUMNS[2:]
    if c
    not in (
        "expected_results",
        "boards",
        "pairs",
        "appeal_minutes",
        "program",
        "source_event_id",
        "compare",
    )
)
RESULT_HEADER: tuple[str, ...] = RESULT_CSV_HEADER
CONTESTANT_HEADER: tuple[str, ...] = (
    "event_id",
    "contestant",
    "direction",
    "names",
    "player_ids",
    "section",
)
#: The ruling log (``rulings.csv``) and the appeal log (``appeals.csv``): the log formats
#: of :mod:`pipelines.formats.rulings` without the lineage columns.
RULING_HEADER: tuple[str, ...] = RULING_COLUMNS[2:]
APPEAL_HEADER: tuple[str, ...] = APPEAL_COLUMNS[2:]

#: Rates per table result.
MISSING_RATE = 0.01
NOT_PLAYED_RATE = 0.005
ARTIFICIAL_RATE = 0.005
#: Share of results files that leave the score of played boards empty.
SCORELESS_FILE_RATE = 0.2

#: Table-level artificial scores (Law 12C2 notation of the canonical format) and how often
#: each is drawn.
_ARTIFICIAL_WEIGHTS: dict[str, float] = {
    "A60/40": 0.28,
    "A40/60": 0.2,
    "A50/50": 0.15,
    "A60/60": 0.1,
    "A40/40": 0.07,
    "A+/-": 0.09,
    "A-/+": 0.06,
    "A=/=": 0.05,
}
ARTIFICIAL_CODES: tuple[str, ...] = tuple(_ARTIFICIAL_WEIGHTS)
_ARTIFICIAL_P = np.array(list(_ARTIFICIAL_WEIGHTS.values()))

#: Invented club names (no real club) and tournament directors (no real person).
CLUB_NAMES: tuple[str, ...] = (
    "Velmoor",
    "Quendry",
    "Ashtarn",
    "Brindlecote",
    "Corrowick",
    "Dunmarrow",
    "Elsparth",
    "Fenwold",
    "Glimmerby",
    "Hathercombe",
)
DIRECTORS: tuple[str, ...] = (
    "TD Orsa Venmarik",
    "TD Ilko Brandeweir",
    "TD Maelis Trompadou",
    "TD Zenova Halvik",
    "TD Quirin Oskadel",
    "TD Ysolde Parvantis",
)
#: Scoring profiles per club, cycled: mostly WBF, some EBU and ACBL.
PROFILES: tuple[str, ...] = ("wbf", "wbf", "ebu", "wbf", "acbl", "wbf", "wbf")

_FIRST_SYLLABLES = (
    "ka",
    "lo",
    "mi",
    "ve",
    "zu",
    "or",
    "quo",
    "bri",
    "tal",
    "sen",
    "ysa",
    "dru",
)
_LAST_SYLLABLES = (
    "var",
    "quell",
    "dron",
    "mex",
    "tash",
    "olk",
    "brin",
    "zel",
    "pon",
    "rusk",
    "vith",
    "gant",
)
_WEEKDAYS = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)

#: The trick level of a game in each strain (C D H S NT).
_GAME_LEVEL = np.array([5, 5, 4, 4, 3])
#: Contract strings by code ``(level - 1) * 15 + strain * 3 + doubled``; code 105 is ``PASS``.
_CONTRACT_STRINGS: tuple[str, ...] = (
    *(f"{lv}{st}{('', 'X', 'XX')[d]}" for lv in range(1, 8) for st in STRAINS for d in range(3)),
    "PASS",
)
_PASS_CODE = 105

# Status of a table result.
PLAYED, MISSING, NOT_PLAYED, ARTIFICIAL = 0, 1, 2, 3


# --------------------------------------------------------------------------- movements


def howell_schedule(pairs: int, rounds: int) -> list[tuple[int, int, int, int]]:
    """A Howell by the circle method: ``(round, table, ns_pair, ew_pair)``, all 1-based.

    ``pairs`` is even; ``rounds`` at most ``pairs - 1``. Pair ``pairs`` stays put while
    the others rotate, so every two pairs meet at most once. Directions alternate
    so that each pair sits both NS and EW over the session.
    """
    if pairs < 4 or pairs % 2:
        raise ValueError(f"a Howell needs an even number of pairs >= 4, not {pairs}")
    if not 1 <= rounds <= pairs - 1:
        raise ValueError(f"a Howell of {pairs} pairs has 1..{pairs - 1} rounds, not {rounds}")
    n = pairs - 1
    out: list[tuple[int, int, int, int]] = []
    for r in range(rounds):
        matches = [(pairs, 1 + r % n) if r % 2 == 0 else (1 + r % n, pairs)]
        for k in range(1, pairs // 2):
            a, b = 1 + (r + k) % n, 1 + (r - k) % n
            matches.append((a, b) if k % 2 == 0 else (b, a))
        for t, (ns, ew) in enumerate(matches, start=1):
            out.append((r + 1, t, ns, ew))
    return out


def mitchell_max_rounds(tables: int) -> int:
    """The most rounds of a Mitchell: ``tables``, or ``tables - 1`` with a skip (even tables).

    With an even number of tables the EW pairs skip a table once; a last round would
    bring them back to the NS pair they met first.
    """
    return tables if tables % 2 else tables - 1


def mitchell_schedule(tables: int, rounds: int) -> list[tuple[int, int, int, int, int]]:
    """A Mitchell: ``(round, table, ns_pair, ew_pair, board_set)``, all 1-based.

    NS pair ``t`` stays at table ``t``; EW pairs move up one table and board sets
    down one each round. With an even number of tables the EW pairs skip a table
    after half the rounds, so no EW pair meets a board set twice; such a Mitchell has
    at most ``tables - 1`` rounds (:func:`mitchell_max_rounds`).
    """
    if tables < 2:
        raise ValueError(f"a Mitchell needs at least 2 tables, not {tables}")
    most = mitchell_max_rounds(tables)
    if not 1 <= rounds <= most:
        raise ValueError(f"a Mitchell of {tables} tables has 1..{most} rounds, not {rounds}")
    out: list[tuple[int, int, int, int, int]] = []
    for r in range(rounds):
        skip = 1 if tables % 2 == 0 and r >= tables // 2 else 0
        for t in range(tables):
            ew = (t - r - skip) % tables
            board_set = (t + r) % tables
            out.append((r + 1, t + 1, t + 1, ew + 1, board_set + 1))
    return out


# --------------------------------------------------------------------------- result sampling


def _sample_pars(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """Par ``level``, ``strain`` index, ``declarer`` seat index and ``tricks`` for ``n`` boards."""
    kind = rng.choice(3, size=n, p=[0.45, 0.47, 0.08])  # part-score, game, slam
    ps_strain = rng.choice(5, size=n, p=[0.16, 0.16, 0.22, 0.22, 0.24])
    ps_level = rng.choice(np.array([1, 2, 3]), size=n, p=[0.25, 0.5, 0.25])
    ps_level = np.where(ps_strain == 4, np.minimum(ps_level, 2), ps_level)
    game_strain = rng.choice(5, size=n, p=[0.05, 0.05, 0.25, 0.25, 0.4])
    slam_strain = rng.choice(5, size=n, p=[0.1, 0.1, 0.25, 0.25, 0.3])
    slam_level = np.where(rng.random(n) < 0.1, 7, 6)
    strain = np.select([kind == 0, kind == 1], [ps_strain, game_strain], slam_strain)
    level = np.select([kind == 0, kind == 1], [ps_level, _GAME_LEVEL[game_strain]], slam_level)
    declarer = rng.integers(0, 4, size=n)
    dev = rng.choice(np.array([-2, -1, 0, 1, 2, 3]), size=n, p=[0.03, 0.15, 0.52, 0.22, 0.06, 0.02])
    tricks = np.clip(level + 6 + dev, 0, 13)
    return level, strain, declarer, tricks


def _sample_tables(
    rng: np.random.Generator,
    group: np.ndarray,
    n_groups: int,
    *,
    not_played_rate: float = NOT_PLAYED_RATE,
) -> dict[str, np.ndarray]:
    """Table results for rows whose board group is ``group`` (indices into ``n_groups`` pars).

    Returns small integer arrays (``int8``): ``level`` (0 for PASS or no contract),
    ``strain``, ``doubled``, ``declarer`` (seat index), ``tricks``, ``code`` (into
    :data:`_CONTRACT_STRINGS`), ``status`` (:data:`PLAYED`, :data:`MISSING`,
    :data:`NOT_PLAYED`, :data:`ARTIFICIAL`) and ``artificial`` (index into
    :data:`ARTIFICIAL_CODES`). Every draw is narrowed to ``int8`` as soon as it is
    made, so a million rows need a few megabytes, not hundreds.
    """
    m = len(group)
    par_level, par_strain, par_decl, par_tricks = (
        _int8(a)[group] for a in _sample_pars(rng, n_groups)
    )
    game_level = _int8(_GAME_LEVEL)
    variant = _int8(
        rng.choice(7, size=m, p=[0.705, 0.09, 0.07, 0.07, 0.04, 0.005, 0.02])
    )  # par, up, down, other strain, doubled, redoubled, sacrifice
    level = par_level.copy()
    strain = par_strain.copy()
    doubled = np.zeros(m, dtype=np.int8)
    base = par_tricks.copy()
    declarer = _int8(np.where(rng.random(m) < 0.2, (par_decl + 2) % 4, par_decl))

    up, down, other = variant == 1, variant == 2, variant == 3
    level = _int8(np.where(up, np.minimum(par_level + 1, 7), level))
    level = _int8(np.where(down, np.maximum(par_level - 1, 1), level))
    alt = _int8((par_strain + rng.integers(1, 5, size=m)) % 5)
    par_is_game = par_level == game_level[par_strain]
    strain = _int8(np.where(other, alt, strain))
    level = _int8(np.where(other & par_is_game, game_level[alt], level))
    del alt, par_is_game, up, down
    other_loss = _int8(rng.choice(3, size=m, p=[0.35, 0.4, 0.25]))
    base = _int8(np.where(other, par_tricks - other_loss, base))
    del other, other_loss
    dbl_loss = _int8(rng.choice(2, size=m, p=[0.4, 0.6]))
    base = _int8(np.where(variant == 4, par_tricks - dbl_loss, base))
    del dbl_loss
    doubled = _int8(np.where(variant == 4, 1, doubled))
    doubled = _int8(np.where(variant == 5, 2, doubled))
    # A sacrifice or competitive contract by the other side, often doubled and going down.
    sac = variant == 6
    del variant
    sac_level = _int8(np.minimum(par_level + rng.integers(0, 2, size=m), 7))
    sac_decl = _int8((par_decl + 1 + 2 * rng.integers(0, 2, size=m)) % 4)
    sac_down = _int8(rng.choice(np.array([1, 2, 3]), size=m, p=[0.45, 0.4, 0.15]))
    sac_dbl = _int8(rng.random(m) < 0.6)
    level = _int8(np.where(sac, sac_level, level))
    strain = _int8(np.where(sac, _int8(rng.integers(0, 5, size=m)), strain))
    declarer = _int8(np.where(sac, sac_decl, declarer))
    doubled = _int8(np.where(sac, sac_dbl, doubled))
    base = _int8(np.where(sac, sac_level + 6 - sac_down, base))
    del sac, sac_level, sac_decl, sac_down, sac_dbl

    dev = _int8(rng.choice(np.array([-2, -1, 0, 1, 2]), size=m, p=[0.01, 0.14, 0.7, 0.14, 0.01]))
    tricks = _int8(np.clip(base + dev, 0, 13))
    del base, dev
    passed = (par_level <= 2) & (rng.random(m) < 0.04)
    code = _int8(np.where(passed, _PASS_CODE, (level - 1) * 15 + strain * 3 + doubled))
    level = _int8(np.where(passed, 0, level))
    del passed

    u = rng.random(m)
    status = _int8(
        np.select(
            [
                u < MISSING_RATE,
                u < MISSING_RATE + not_played_rate,
                u < MISSING_RATE + not_played_rate + ARTIFICIAL_RATE,
            ],
            [MISSING, NOT_PLAYED, ARTIFICIAL],
            PLAYED,
        )
    )
    del u
    artificial = _int8(rng.choice(len(ARTIFICIAL_CODES), size=m, p=_ARTIFICIAL_P))
    return {
        "level": level,
        "strain": strain,
        "doubled": doubled,
        "declarer": declarer,
        "tricks": tricks,
        "code": code,
        "status": status,
        "artificial": artificial,
    }


def _int8(a: np.ndarray) -> np.ndarray:
    """``a`` as ``int8`` (every value drawn here is a small integer)."""
    return np.asarray(a).astype(np.int8, copy=False)


# --------------------------------------------------------------------------- people


def _player_pool(rng: np.random.Generator, size: int, used_ids: set[int]) -> list[tuple[str, str]]:
    """A club's ``size`` invented regulars ``(name, player_id)``.

    Names are distinct within the club; ids are distinct from every id in ``used_ids``.
    """
    pool: list[tuple[str, str]] = []
    used_names: set[str] = set()
    nf, nl = len(_FIRST_SYLLABLES), len(_LAST_SYLLABLES)
    while len(pool) < size:
        f = rng.integers(0, nf, size=2)
        ln = rng.integers(0, nl, size=2)
        first = (_FIRST_SYLLABLES[f[0]] + _FIRST_SYLLABLES[f[1]]).capitalize()
        last = (_LAST_SYLLABLES[ln[0]] + "a" + _LAST_SYLLABLES[ln[1]]).capitalize()
        name = f"{first} {last}"
        pid = int(rng.integers(100_000, 1_000_000))
        if name in used_names or pid in used_ids:
            continue
        used_names.add(name)
        used_ids.add(pid)
        pool.append((name, f"X{pid}"))
    return pool


# --------------------------------------------------------------------------- inbox


@dataclass
class _Event:
    event_id: str
    club: int
    name: str
    movement: str
    profile: str
    director: str
    size: int  # pairs (Howell) or tables (Mitchell)
    rounds: int
    boards_per_round: int
    dates: list[date]
    form: str = "pairs"  # pairs | teams | individual
    scoring: str = "matchpoints"  # matchpoints | butler | cross_imps | imps
    stage: str = ""  # teams: round_robin | swiss | knockout
    sections: int = 1  # a Mitchell may run in two sections (A, B), scored apart

    @property
    def section_letters(self) -> list[str]:
        return [chr(ord("A") + k) for k in range(self.sections)]


#: Share of the Mitchell events (after the first, which always has two) run in two sections.
TWO_SECTIONS_RATE = 0.15


def _plan_events(
    rng: np.random.Generator,
    sessions: int,
    clubs: int,
    start_date: date,
    sections_rng: np.random.Generator | None = None,
) -> list[_Event]:
    """Lay ``sessions`` club sessions over consecutive evenings and group them into events.

    The first Mitchell event, and :data:`TWO_SECTIONS_RATE` of the others, run in two
    sections (drawn from ``sections_rng``, so that the other draws do not change)."""
    slots: dict[int, list[date]] = {c: [] for c in range(clubs)}
    for i in range(sessions):
        slots[i % clubs].append(start_date + timedelta(days=i // clubs))
    events: list[_Event] = []
    for c in range(clubs):
        dates = slots[c]
        club_name = CLUB_NAMES[c] if c < len(CLUB_NAMES) else f"Club {c + 1}"
        k = 0
        while k < len(dates):
            two = k + 1 < len(dates) and ((k == 0 and c % 2 == 0) or rng.random() < 0.15)
            ev_dates = dates[k : k + 2] if two else dates[k : k + 1]
            k += len(ev_dates)
            first = ev_dates[0]
            n = len(events)
            if n < 2:
                movement = ("howell", "mitchell")[n]
            else:
                movement = "howell" if rng.random() < 0.5 else "mitchell"
            if movement == "howell":
                size = int(rng.choice([8, 10, 12, 14, 16]))
                rounds = int(rng.integers(5, min(9, size - 1) + 1))
            else:
                size = int(rng.integers(5, 13))
                rounds = int(rng.integers(5, min(9, mitchell_max_rounds(size)) + 1))
            bpr = int(rng.integers(2, 5))
            name = (
                f"{club_name} Two-Session Pairs"
                if two
                else f"{club_name} {_WEEKDAYS[first.weekday()]} Pairs"
            )
            events.append(
                _Event(
                    event_id=f"CLUB{c + 1}-{first.isoformat()}",
                    club=c,
                    name=name,
                    movement=movement,
                    profile=PROFILES[c % len(PROFILES)],
                    director=DIRECTORS[c % len(DIRECTORS)],
                    size=size,
                    rounds=rounds,
                    boards_per_round=bpr,
                    dates=list(ev_dates),
                    sections=2
                    if movement == "mitchell"
                    and (
                        n == 1
                        or (sections_rng is not None and sections_rng.random() < TWO_SECTIONS_RATE)
                    )
                    else 1,
                )
            )
    return events


def _session_rows(
    rng: np.random.Generator,
    ev: _Event,
    session: int,
    with_scores: bool,
    sections_rng: np.random.Generator | None = None,
) -> list[list[str]]:
    """The results-file rows of one event session (missing results left out); a second
    section plays the same movement with its own pairs (results from ``sections_rng``)."""
    bpr = ev.boards_per_round
    layout: list[tuple[int, int, str, str, int]] = []  # round, table, ns, ew, board
    if ev.movement == "howell":
        for rnd, table, ns, ew in howell_schedule(ev.size, ev.rounds):
            for j in range(bpr):
                layout.append((rnd, table, str(ns), str(ew), (rnd - 1) * bpr + j + 1))
        n_boards = ev.rounds * bpr
    else:
        for rnd, table, ns, ew, bset in mitchell_schedule(ev.size, ev.rounds):
            for j in range(bpr):
                layout.append((rnd, table, str(ns), str(ew), (bset - 1) * bpr + j + 1))
        n_boards = ev.size * bpr
    rows = layout_rows(rng, ev.event_id, session, layout, n_boards, with_scores)
    for letter in ev.section_letters[1:]:
        rows += layout_rows(
            sections_rng or rng, ev.event_id, session, layout, n_boards, with_scores, letter
        )
    return rows


def layout_rows(
    rng: np.random.Generator,
    event_id: str,
    session: int,
    layout: Sequence[tuple[int, int, str, str, int]],
    n_boards: int,
    with_scores: bool,
    section: str = "A",
) -> list[list[str]]:
    """Results-file rows for a seating ``layout`` of ``(round, table, ns, ew, board)`` in
    ``section``: each board's results drawn around one par (:func:`_sample_tables`), missing
    results left out. ``ns``/``ew`` are the contestants seated there (pairs, teams, or
    players ``N/S``)."""
    group = np.array([b - 1 for *_, b in layout], dtype=np.int64)
    # as Python ints: a NumPy scalar read one at a time costs more than the row it makes
    res = {k: v.tolist() for k, v in _sample_tables(rng, group, n_boards).items()}
    rows: list[list[str]] = []
    for i, (rnd, table, ns, ew, board) in enumerate(layout):
        status = res["status"][i]
        if status == MISSING:
            continue
        contract = declarer = tricks = score = ""
        if status == NOT_PLAYED:
            score = "NP"
        elif status == ARTIFICIAL:
            score = ARTIFICIAL_CODES[res["artificial"][i]]
        elif res["code"][i] == _PASS_CODE:
            contract = "PASS"
            score = "0" if with_scores else ""
        else:
            c = _contract(
                res["level"][i],
                STRAINS[res["strain"][i]],
                res["doubled"][i],
            )
            contract = str(c)
            declarer = SEATS[res["declarer"][i]]
            tricks = str(res["tricks"][i])
            if with_scores:
                score = str(_scored(c, declarer, res["tricks"][i], board))
        rows.append(
            [
                event_id,
                str(session),
                section,
                str(rnd),
                str(table),
                str(board),
                ns,
                ew,
                contract,
                declarer,
                tricks,
                score,
            ]
        )
    return rows


# --------------------------------------------------------------------------- directors' logs

#: A director is called at this share of the played table results.
CALL_RATE = 0.03
#: Score corrections (Law 79C) per played table result, drawn apart from the calls.
CORRECTION_RATE = 0.005
#: Share of the rulings that changed a score (assigned, weighted, artificial, director's
#: error) that are appealed.
APPEAL_RATE = 0.04
#: Share of the calls the club's assistant director handles.
ASSISTANT_SHARE = 1 / 3
#: Share of the assigned scores that are split (Law 12C1(e)).
SPLIT_SHARE = 0.2

#: What a call to the director ends in, and how often. A fouled board is one incident that
#: gives 2-3 tables a ruling, so its weight is per incident (about 2 % of the rulings).
CALL_KINDS: tuple[str, ...] = (
    "score_stands",
    "assigned",
    "weighted",
    "artificial",
    "director_error",
    "fouled_board",
    "procedural_penalty",
    "disciplinary_penalty",
)
_CALL_P = np.array([0.55, 0.17, 0.08, 0.06, 0.02, 0.008, 0.05, 0.01])
_CALL_P = _CALL_P / _CALL_P.sum()

#: Score corrections: within the correction period, after it approved, after it not approved.
_CORRECTION_P = np.array([0.7, 0.18, 0.12])

#: Appeal outcomes (Laws 92, 93) and who hears the appeal.
APPEAL_OUTCOMES: tuple[str, ...] = OUTCOMES
_OUTCOME_P = np.array([0.55, 0.25, 0.08, 0.07, 0.05])
APPEAL_BODIES: tuple[str, ...] = ("committee", "panel", "td_in_charge")
_BODY_P = np.array([0.6, 0.25, 0.15])

#: Invented assistant directors, one per club (no real person).
ASSISTANT_DIRECTORS: tuple[str, ...] = (
    "TD Pello Straunik",
    "TD Vesna Koldareth",
    "TD Amrit Quellandor",
    "TD Sorrel Maddenvey",
    "TD Jurra Penskavel",
    "TD Odile Varnhusk",
    "TD Teodor Wimbrane",
)

#: Infractions behind a ruling on a board: the Laws and a note.
_INFRACTIONS: tuple[tuple[str, str], ...] = (
    ("16B1", "hesitation before the double"),
    ("16B1", "break in tempo before the pass"),
    ("16B1;73C", "slow pass, partner chose the logical alternative it suggested"),
    ("73C", "use of unauthorized information from partner's tempo"),
    ("21B1;40B4", "misinformation: the 2D bid was not alerted"),
    ("21B1;40B4", "mistaken explanation of 2NT"),
    ("20F1;75A", "explanation of the double did not match the agreement"),
)
_NO_DAMAGE: tuple[tuple[str, str], ...] = (
    ("16B1", "hesitation, no logical alternative: no damage"),
    ("73C", "tempo break, no damage"),
    ("21B1", "misinformation, no damage"),
    ("45C4", "change of designated card not allowed"),
    ("64A", "revoke: tricks transferred at the table"),
    ("25A", "unintended call corrected"),
    ("27B1", "insufficient bid corrected, no damage"),
    ("50D", "penalty card, no damage"),
)
_ARTIFICIAL_NOTES: tuple[str, ...] = (
    "board not played: out of time",
    "no result possible after the irregularity",
    "hands mixed at the table before the play was completed",
)
_DIRECTOR_ERRORS: tuple[str, ...] = (
    "director's error: wrong rectification of a lead out of turn",
    "director's error: wrong board given to the table",
    "director's error: misapplied the insufficient bid law",
)
_FOULED_NOTES: tuple[str, ...] = (
    "board fouled: N and E hands switched",
    "board fouled: two cards misplaced",
    "board fouled: W hand turned in the wrong pocket",
)
_PROCEDURAL: tuple[tuple[str, str], ...] = (
    ("90B1", "late arrival"),
    ("90B2", "slow play"),
    ("90B3", "discussion of a board overheard at the next table"),
    ("90B4", "comparing scores at the table"),
    ("90B8", "did not follow the director's instructions"),
)
_PROCEDURAL_P = np.array([0.35, 0.35, 0.1, 0.1, 0.1])
_DISCIPLINARY: tuple[str, ...] = (
    "discourteous remark to an opponent",
    "abusive behaviour towards the director",
    "repeated argument with the opponents",
)
_CORRECTION_NOTES = {
    "tricks": "wrong number of tricks entered",
    "double": "contract entered without the double",
    "undouble": "double entered by mistake",
    "direction": "wrong direction entered",
}
_TWO_WEIGHTS: tuple[tuple[int, ...], ...] = ((60, 40), (70, 30), (75, 25), (50, 50), (80, 20))
_THREE_WEIGHTS: tuple[tuple[int, ...], ...] = (
    (50, 30, 20),
    (40, 40, 20),
    (60, 30, 10),
    (50, 25, 25),
)

#: Kinds of ruling that changed a table's score: appealed at :data:`APPEAL_RATE`.
APPEALABLE: tuple[str, ...] = ("assigned", "weighted", "artificial", "director_error")
#: Every ruling may be appealed (Law 92A); the share appealed by kind.
#: (The kinds of :data:`APPEALABLE` at :data:`APPEAL_RATE`.)
APPEAL_RATES: dict[str, float] = {
    "score_stands": 0.02,
    "fouled_board": 0.01,
    "procedural_penalty": 0.03,
    "disciplinary_penalty": 0.03,
    "score_correction": 0.01,
}
#: Share of the appeals lodged after the appeal period (Law 92B): kept, not applied.
LATE_APPEAL_RATE = 0.04
#: A penalty reduced on appeal: the new amount (none: withdrawn).
_REDUCED = {"25%": "10%", "10%": "", "6 MP": "3 MP", "3 IMP": "1 IMP", "1 IMP": "", "1 VP": ""}


@dataclass(frozen=True)
class _Row:
    """One table result of a session, as the directors' logs see it."""

    round: int
    table: int
    board: int
    ns: str
    ew: str
    contract: Contract | None  # None: passed out
    declarer: str
    tricks: int
    played: bool  # a contract or a pass-out (not NP, not an artificial score)
    section: str = "A"

    @property
    def key(self) -> tuple[str, int, str, str]:
        return (self.section, self.board, self.ns, self.ew)


@dataclass
class _Session:
    """An event session with its timetable and its table results."""

    event: _Event
    session: int
    day: date
    rows: list[_Row]
    start: datetime
    round_len: int  # minutes
    published: datetime
    assistant: str
    used: set[tuple[int, str, str]]

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.round_len * self.event.rounds)

    def board_rows(self, board: int, section: str = "A") -> list[_Row]:
        return sorted(
            (r for r in self.rows if r.board == board and r.section == section),
            key=lambda r: (r.round, r.table),
        )

    def deal_rows(self, row: _Row) -> list[_Row]:
        """The rows of ``row``'s deal: its board, and at teams its round too (every round of
        a team event may play its own boards 1..N, Law 86)."""
        rows = self.board_rows(row.board, row.section)
        return [r for r in rows if r.round == row.round] if self.event.form == "teams" else rows

    def free(self) -> list[_Row]:
        """Rows with a contract (not passed out) that no ruling is about yet."""
        return [r for r in self.rows if r.contract is not None and r.key not in self.used]


def _log_rows(rows: list[list[str]]) -> list[_Row]:
    out = []
    for r in rows:
        contract_text, declarer, tricks, score = r[8], r[9], r[10], r[11]
        contract = _parsed(contract_text) if contract_text else None
        out.append(
            _Row(
                round=int(r[3]),
                table=int(r[4]),
                board=int(r[5]),
                ns=r[6],
                ew=r[7],
                contract=contract,
                declarer=declarer,
                tricks=int(tricks) if tricks else 0,
                played=bool(contract_text) and score != "NP",
                section=r[2] or "A",
            )
        )
    return out


def _timetable(
    rng: np.random.Generator, ev: _Event, session: int, day: date, rows: list[list[str]]
) -> _Session:
    """The session's timetable: it starts 18:30-19:30 so as to end by 22:30; official scores
    are made available at 22:40-22:55 (the start of the Law 79C correction period)."""
    natural = ev.boards_per_round * 7 + 1
    evening = datetime(day.year, day.month, day.day)
    latest_end = evening + timedelta(hours=22, minutes=30)
    start = latest_end - timedelta(minutes=natural * ev.rounds + 5)
    start = start.replace(minute=start.minute - start.minute % 15)
    start = min(
        max(start, evening + timedelta(hours=18, minutes=30)),
        evening + timedelta(hours=19, minutes=30),
    )
    round_len = min(natural, int((latest_end - start).total_seconds() // 60) // ev.rounds)
    published = evening + timedelta(hours=22, minutes=40 + int(rng.integers(0, 16)))
    return _Session(
        event=ev,
        session=session,
        day=day,
        rows=_log_rows(rows),
        start=start,
        round_len=round_len,
        published=published,
        assistant=ASSISTANT_DIRECTORS[ev.club % len(ASSISTANT_DIRECTORS)],
        used=set(),
    )


def _t(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M")


def _minutes(rng: np.random.Generator, lo: int, hi: int) -> timedelta:
    """``lo``..``hi`` minutes (inclusive)."""
    return timedelta(minutes=int(rng.integers(lo, hi + 1)))


def _pick(rng: np.random.Generator, seq: Sequence, k: int | None = None):
    """A random element of ``seq`` (of its first ``k`` when ``k`` is given)."""
    n = len(seq) if k is None else min(k, len(seq))
    return seq[int(rng.integers(0, n))]


def _result_text(contract: Contract | None, declarer: str, tricks: int) -> str:
    """A contract result in ruling notation: ``4S N =``, ``3NT S +1``, ``4HX E -2``, ``PASS``."""
    if contract is None:
        return "PASS"
    rel = tricks - (contract.level + 6)
    return f"{contract} {declarer} {'=' if rel == 0 else f'{rel:+d}'}"


def _own(row: _Row) -> tuple[str, int]:
    """The table's own result: its text and NS score."""
    return (
        _result_text(row.contract, row.declarer, row.tricks),
        _scored(row.contract, row.declarer, row.tricks, row.board),
    )


def _candidates(sess: _Session, row: _Row) -> list[tuple[str, int]]:
    """Plausible results for ``row``'s table: the results of the board at the other tables
    and the table's own contract one or two tricks either way (tricks kept within 0..13).
    ``(text, ns_score)``, the table's own result left out, each text once, in a stable order."""
    seen: dict[str, int] = {}
    for r in sess.deal_rows(row):
        if r.played:
            text, score = _own(r)
            seen.setdefault(text, score)
    if row.contract is not None:
        for d in (-2, -1, 1, 2):
            t = row.tricks + d
            if 0 <= t <= 13:
                seen.setdefault(
                    _result_text(row.contract, row.declarer, t),
                    _scored(row.contract, row.declarer, t, row.board),
                )
    own = _own(row)[0]
    return sorted(((t, s) for t, s in seen.items() if t != own), key=lambda x: (x[1], x[0]))


def _toward(cands: list[tuple[str, int]], own: int, side: str) -> list[tuple[str, int]]:
    """Candidates better than ``own`` for ``side``, the closest first."""
    better = [c for c in cands if (c[1] > own if side == "NS" else c[1] < own)]
    return sorted(better, key=lambda c: (abs(c[1] - own), c[0]))


def _other(side: str) -> str:
    return "EW" if side == "NS" else "NS"


def _ruling(
    sess: _Session,
    row: _Row | None,
    kind: str,
    times: tuple[str, str] | None = None,
    **fields: str,
) -> dict:
    """A ruling row (every column of :data:`RULING_HEADER`) about ``row``'s table, the
    director called and the ruling given at ``times`` (``called_at``, ``ruled_at``)."""
    rec = {c: "" for c in RULING_HEADER}
    rec.update(
        event_id=sess.event.event_id,
        session=str(sess.session),
        section=row.section if row is not None else "A",
        kind=kind,
        offending="none",
    )
    if row is not None:
        rec.update(round=str(row.round), table=str(row.table))
        if kind not in ("procedural_penalty", "disciplinary_penalty"):
            rec.update(board=str(row.board), ns_pair=row.ns, ew_pair=row.ew)
    if times is not None:
        rec.update(called_at=times[0], ruled_at=times[1])
    rec.update(fields)
    return {**rec, "_date": sess.day.isoformat(), "_sess": sess, "_row": row}


def _in_session(
    rng: np.random.Generator, sess: _Session, row: _Row, lo: int = 2, hi: int = 12
) -> tuple[str, str]:
    """``called_at`` during the row's round and ``ruled_at`` ``lo``..``hi`` minutes later
    (at most a few minutes after the session ends)."""
    called = (
        sess.start
        + timedelta(minutes=(row.round - 1) * sess.round_len)
        + _minutes(rng, 1, max(1, sess.round_len - 2))
    )
    ruled = min(
        called + _minutes(rng, lo, hi),
        max(sess.end + timedelta(minutes=8), called + timedelta(minutes=1)),
    )
    return _t(called), _t(ruled)


def _director(rng: np.random.Generator, sess: _Session) -> str:
    return sess.assistant if rng.random() < ASSISTANT_SHARE else sess.event.director


def _make(
    rng: np.random.Generator, sess: _Session, row: _Row, kind: str, split: bool | None = None
) -> list[dict]:
    """The ruling(s) a call at ``row``'s table ends in (``[]`` when ``kind`` cannot be
    given there: a fouled board needs enough tables)."""
    director = _director(rng, sess)
    own_text, own_score = _own(row)
    cands = _candidates(sess, row)
    side = "NS" if rng.random() < 0.5 else "EW"  # the offending side

    def ruling(at: _Row, times: tuple[str, str], laws: str, note: str, **fields: str) -> dict:
        """This call's ruling about ``at``'s table, by its director at ``times``."""
        return _ruling(sess, at, kind, times, director=director, laws=laws, note=note, **fields)

    if kind == "score_stands":
        laws, note = _pick(rng, _NO_DAMAGE)
        times = _in_session(rng, sess, row)
        offending = side if rng.random() < 0.6 else "none"
        return [ruling(row, times, laws, note, offending=offending)]
    if kind in ("assigned", "weighted"):
        laws, note = _pick(rng, _INFRACTIONS)
        better = _toward(cands, own_score, _other(side))
        if not better:  # nothing better for the other side: the table's result favoured it
            side = _other(side)
            better = _toward(cands, own_score, _other(side))
        if not better:
            return []
        times = _in_session(rng, sess, row, 5, 25)
        assigned = _pick(rng, better, 2)
        if kind == "assigned":
            if split is None:
                split = bool(rng.random() < SPLIT_SHARE)
            if split:
                # the non-offending side's own serious error: it keeps the table result
                ns, ew = (own_text, assigned[0]) if side == "EW" else (assigned[0], own_text)
                laws = f"{laws};12C1(e)"
                note = f"split: {_other(side)}'s own serious error ({note})"
            else:
                ns, ew, laws = assigned[0], "", f"{laws};12C1(b)"
        else:
            comps = [assigned[0]]
            rest = [c[0] for c in better if c[0] != assigned[0]]
            if rng.random() < 0.3 and rest:
                comps.append(rest[0])
            comps.append(own_text)
            weights = _pick(rng, _TWO_WEIGHTS if len(comps) == 2 else _THREE_WEIGHTS)
            ns = "; ".join(f"{w}% {c}" for w, c in zip(weights, comps, strict=True))
            ew, laws = "", f"{laws};12C1(c)"
        return [ruling(row, times, laws, note, offending=side, ns_result=ns, ew_result=ew)]
    if kind == "artificial":
        times = _in_session(rng, sess, row)
        u = rng.random()
        if u < 0.7:
            ns, ew, offending = ("A-", "A+", "NS") if side == "NS" else ("A+", "A-", "EW")
        elif u < 0.85:
            ns, ew, offending = "A", "A", "both"
        else:
            ns, ew, offending = ("A40", "A60", "NS") if side == "NS" else ("A60", "A40", "EW")
        note = _pick(rng, _ARTIFICIAL_NOTES)
        return [
            ruling(row, times, "12C2(a)", note, offending=offending, ns_result=ns, ew_result=ew)
        ]
    if kind == "director_error":
        times = _in_session(rng, sess, row, 5, 20)
        up, down = _toward(cands, own_score, "NS"), _toward(cands, own_score, "EW")
        if rng.random() < 0.6 or not (up or down):
            ns, ew = "A+", "A+"
        else:  # each side its most favourable likely result
            ns = up[0][0] if up else own_text
            ew = down[0][0] if down else own_text
        note = _pick(rng, _DIRECTOR_ERRORS)
        return [ruling(row, times, "82C", note, ns_result=ns, ew_result=ew)]
    if kind == "fouled_board":
        board = sess.deal_rows(row)
        pos = board.index(row)
        for k in (3, 2) if rng.random() < 0.5 else (2,):
            if len(board) < k + 2:
                continue
            lo = max(0, pos - k + 1)
            window = board[lo : lo + k]
            if len(window) == k and all(
                r.contract is not None and r.key not in sess.used for r in window
            ):
                break
        else:
            return []
        times = _in_session(rng, sess, row, 10, 30)
        note = _pick(rng, _FOULED_NOTES)
        return [ruling(r, times, "87A", note, board_version="B") for r in window]
    if kind in ("procedural_penalty", "disciplinary_penalty"):
        if kind == "procedural_penalty":
            i = int(rng.choice(len(_PROCEDURAL), p=_PROCEDURAL_P))
            laws, note = _PROCEDURAL[i]
            u = rng.random()
            penalty = "25%" if u < 0.6 else "warning" if u < 0.85 else "10%"
        else:
            laws, note = "91A", _pick(rng, _DISCIPLINARY)
            u = rng.random()
            penalty = "6 MP" if u < 0.55 else "warning" if u < 0.97 else "suspended"
            if penalty == "suspended":
                note = "serious misconduct: suspended for the rest of the session"
        at, pair = row, row.ns if side == "NS" else row.ew
        if laws == "90B1":  # late arrival: the pair's table in round 1
            for r in sess.rows:
                if r.round != 1 or r.section != row.section:
                    continue
                if sess.event.movement == "mitchell":
                    if (r.ns if side == "NS" else r.ew) == pair:
                        at = r
                        break
                elif pair in (r.ns, r.ew):  # a Howell pair changes direction
                    at, side = r, "NS" if r.ns == pair else "EW"
                    break
        if sess.event.movement == "mitchell" and rng.random() < 0.7:
            pair += side
        if sess.event.form == "individual":  # Law 89: one player is responsible
            pair = pair.split("/")[int(rng.integers(0, 2))]
        penalty = _penalty_at(sess.event, penalty, rng)
        times = _in_session(rng, sess, at, 1, 6)
        if laws == "90B1":
            times = (_t(sess.start + _minutes(rng, 2, 8)), _t(sess.start + _minutes(rng, 9, 14)))
        return [ruling(at, times, laws, note, offending=side, penalized=pair, penalty=penalty)]
    raise ValueError(f"unknown call kind {kind!r}")


def _penalty_at(ev: _Event, penalty: str, rng: np.random.Generator) -> str:
    """A penalty in the event's units: matchpoint amounts become IMPs at IMP forms (the usual
    3 IMPs for a quarter of a top), and at teams one in four comes off the VPs (never in a
    knockout, which has no VPs)."""
    if ev.scoring == "matchpoints" or penalty in ("warning", "suspended", "disqualified"):
        return penalty
    if ev.form == "teams" and rng.random() < 0.25 and ev.stage != "knockout":
        return "1 VP"
    return "1 IMP" if penalty == "10%" else "3 IMP"


def _correction(rng: np.random.Generator, sess: _Session, row: _Row, when: int) -> dict:
    """A score correction (Law 79C) of ``row``'s result: ``when`` 0 within the correction
    period, 1 the next day approved by the Tournament Organizer, 2 the next day not approved."""
    c = row.contract
    assert c is not None
    u = rng.random()
    if u < 0.7:
        how = "tricks"
        steps = [d for d in (-1, 1) if 0 <= row.tricks + d <= 13]
        fixed = _result_text(c, row.declarer, row.tricks + _pick(rng, steps))
    elif u < 0.85:
        how = "undouble" if c.doubled else "double"
        fixed = _result_text(
            Contract(c.level, c.strain, 0 if c.doubled else 1), row.declarer, row.tricks
        )
    else:
        how = "direction"
        seat = SEATS[(SEATS.index(row.declarer) + 1) % 4]
        fixed = _result_text(c, seat, row.tricks)
    if when == 0:
        called = sess.published + _minutes(rng, 2, 20)
        ruled = min(called + _minutes(rng, 1, 8), sess.published + timedelta(minutes=29))
        laws, approved, note = "79C1", "", _CORRECTION_NOTES[how]
    else:
        called = datetime(sess.day.year, sess.day.month, sess.day.day) + timedelta(
            days=1, hours=9, minutes=30 + int(rng.integers(0, 480))
        )
        ruled = called + _minutes(rng, 5, 90)
        laws = "79C2"
        approved = "true" if when == 1 else "false"
        note = _CORRECTION_NOTES[how] + (
            "; after the correction period, approved by the TO"
            if when == 1
            else "; after the correction period, not approved"
        )
    return _ruling(
        sess,
        row,
        "score_correction",
        (_t(called), _t(ruled)),
        director=sess.event.director,
        laws=laws,
        ns_result=fixed,
        approved=approved,
        note=note,
    )


def _appeal(
    rng: np.random.Generator,
    rec: dict,
    outcome: str | None = None,
    late: bool | None = None,
    heard: str | None = None,
) -> dict:
    """An appeal (Laws 92, 93) against the ruling ``rec``; ``outcome``, whether it is
    ``late`` (Law 92B) and who ``heard`` it are drawn unless given. An appeal about a penalty
    that is changed reduces it (:data:`_REDUCED`) or withdraws it."""
    sess: _Session = rec["_sess"]
    row: _Row = rec["_row"]
    offending = rec["offending"]
    if offending in ("NS", "EW"):  # mostly the side the ruling went against
        by = offending if rng.random() < 0.75 else _other(offending)
    else:
        by = "NS" if rng.random() < 0.5 else "EW"
    drawn = APPEAL_BODIES[int(rng.choice(len(APPEAL_BODIES), p=_BODY_P))]
    if heard is None:
        heard = drawn
        if rec["kind"] == "disciplinary_penalty" and heard != "td_in_charge":
            # Law 93B3: a committee cannot overrule discipline: mostly the TD in charge hears it
            heard = "td_in_charge" if rng.random() < 0.8 else heard
    if outcome is None:
        outcome = APPEAL_OUTCOMES[int(rng.choice(len(APPEAL_OUTCOMES), p=_OUTCOME_P))]
    penalty = ""
    if rec["kind"] in ("procedural_penalty", "disciplinary_penalty"):
        if outcome == "changed_one_side":
            outcome = "changed"
        if outcome == "changed":
            if rec["penalty"] in ("warning", "suspended", "disqualified", ""):
                outcome = "upheld"
            else:
                penalty = _REDUCED.get(rec["penalty"], "")
    # Law 92B: within the appeal period after the official scores (or after a ruling given
    # later, e.g. a correction the next day); a few are late
    start = max(sess.published, datetime.strptime(rec["ruled_at"], "%Y-%m-%d %H:%M"))
    if late is None:
        late = bool(rng.random() < LATE_APPEAL_RATE)
    lodged = start + (_minutes(rng, 35, 120) if late else _minutes(rng, 2, 28))
    evening = datetime(sess.day.year, sess.day.month, sess.day.day)
    same_night = rng.random() < {"committee": 0.5, "panel": 0.7, "td_in_charge": 0.5}[heard]
    if same_night:
        decided = lodged + _minutes(rng, 25, 90)
    elif heard == "committee":
        decided = (
            evening + timedelta(days=int(rng.integers(1, 7)), hours=18) + _minutes(rng, 0, 150)
        )
    else:
        decided = evening + timedelta(days=1, hours=10) + _minutes(rng, 0, 420)
    decided = max(decided, lodged + timedelta(minutes=20))
    ns = ew = ""
    retained = merit = "false"
    note = {
        "upheld": "ruling confirmed",
        "withdrawn": "withdrawn before the hearing",
        "referred_back": "referred back to the director to establish the facts",
    }.get(outcome, "")
    if outcome == "upheld" and rng.random() < 0.2:
        retained = merit = "true"
        note = "appeal without merit: deposit retained"
    if outcome == "changed" and rec["kind"] in ("procedural_penalty", "disciplinary_penalty"):
        note = f"penalty reduced to {penalty}" if penalty else "penalty withdrawn"
    elif outcome in ("changed", "changed_one_side"):
        own_text, own_score = _own(row)
        cands = _candidates(sess, row)
        scores = dict(cands)
        scores[own_text] = own_score
        ruled = {rec["ns_result"], rec["ew_result"]}
        ref = scores.get(rec["ns_result"], own_score)
        options = [
            c for c in _toward([*cands, (own_text, own_score)], ref, by) if c[0] not in ruled
        ]
        if not options:
            options = [c for c in [*cands, (own_text, own_score)] if c[0] not in ruled]
        new = _pick(rng, options, 2)[0]
        if outcome == "changed_one_side":
            ns, ew = (new, "") if by == "NS" else ("", new)
            note = f"{by}'s score changed to {new}"
        elif rng.random() < 0.3 and own_text != new:
            ns, ew = (new, own_text) if by == "NS" else (own_text, new)
            note = f"split score: {by} {new}, the other side the table result"
        else:
            ns = new
            note = f"score changed to {new}"
    return {
        "appeal_id": "",
        "ruling_id": rec["ruling_id"],
        "lodged_at": _t(lodged),
        "lodged_by": by,
        "heard_by": heard,
        "decided_at": _t(decided),
        "outcome": outcome,
        "ns_result": ns,
        "ew_result": ew,
        "penalty": penalty,
        "deposit_retained": retained,
        "without_merit": merit,
        "note": note,
        "public_note": "",  # the committee's note is its own: nothing published by default
        "_date": rec["_date"],
        "_kind": rec["kind"],
        "_late": late,
    }


def _add(sess: _Session, rulings: list[dict], made: list[dict]) -> None:
    for rec in made:
        if rec["board"]:
            sess.used.add((rec["section"], int(rec["board"]), rec["ns_pair"], rec["ew_pair"]))
        rulings.append(rec)


#: What the small generations are topped up with when the natural rates gave none: a
#: description, the test, and how to make one at a free table.
def _guarantees() -> list[tuple[str, Callable[[dict], bool], Callable]]:
    def call(kind: str, **opts: bool) -> Callable:
        return lambda rng, sess, row: _make(rng, sess, row, kind, **opts)

    return [
        ("weighted", lambda r: r["kind"] == "weighted", call("weighted")),
        (
            "split",
            lambda r: r["kind"] == "assigned" and bool(r["ew_result"]),
            call("assigned", split=True),
        ),
        ("artificial", lambda r: r["kind"] == "artificial", call("artificial")),
        ("fouled_board", lambda r: r["kind"] == "fouled_board", call("fouled_board")),
        (
            "procedural_penalty",
            lambda r: r["kind"] == "procedural_penalty",
            call("procedural_penalty"),
        ),
        (
            "disciplinary_penalty",
            lambda r: r["kind"] == "disciplinary_penalty",
            call("disciplinary_penalty"),
        ),
        ("director_error", lambda r: r["kind"] == "director_error", call("director_error")),
        (
            "correction",
            lambda r: r["kind"] == "score_correction" and r["laws"] == "79C1",
            lambda rng, sess, row: [_correction(rng, sess, row, 0)],
        ),
        (
            # a pair number of a second section: the penalty names its section
            "penalty in a second section",
            lambda r: r["kind"] == "procedural_penalty" and r["section"] not in ("", "A"),
            lambda rng, sess, row: (
                _make(rng, sess, row, "procedural_penalty") if row.section != "A" else []
            ),
        ),
    ]


@dataclass(frozen=True)
class Planted:
    """Effects planted in the directors' logs, to show that the director-consistency audit
    (:mod:`pipelines.audit`) finds them: ``overturned`` names a director whose rulings are
    changed on appeal (``changed`` or ``changed_one_side``) ``overturn_factor`` times as often
    as the others' (capped at 95 % of the decided appeals: the base share is about 35 %, so a
    factor of 3 gives about 95 %); ``no_procedural_penalties`` names a director who never
    issues a procedural penalty (Law 90: his calls that would have ended in one leave no
    ruling). ``None``: nothing planted, and the logs are those of an unplanted generation."""

    overturned: str | None = None
    overturn_factor: float = 3.0
    no_procedural_penalties: str | None = None

    def outcome(self, rng: np.random.Generator, rec: dict) -> str | None:
        """The outcome of an appeal against ``rec`` (``None``: drawn as usual)."""
        if self.overturned is None or rec["director"] != self.overturned:
            return None
        p = _OUTCOME_P.copy()
        over = np.array([o in OVERTURNED for o in APPEAL_OUTCOMES])
        q = float(p[over].sum())
        q_new = min(self.overturn_factor * q, 0.95)
        p = np.where(over, p * q_new / q, p * (1 - q_new) / (1 - q))
        return APPEAL_OUTCOMES[int(rng.choice(len(APPEAL_OUTCOMES), p=p / p.sum()))]

    def keeps(self, rec: dict) -> bool:
        """Whether the ruling ``rec`` stays in the log."""
        return not (
            rec["kind"] == "procedural_penalty" and rec["director"] == self.no_procedural_penalties
        )


def _directors_logs(
    rng: np.random.Generator, sessions: list[_Session], planted: Planted | None = None
) -> tuple[list[dict], list[dict]]:
    """The ruling log and the appeal log of ``sessions`` (see the module docstring), with the
    ``planted`` effects."""
    rulings: list[dict] = []
    for sess in sessions:
        free = sess.free()
        calls = rng.random(len(free)) < CALL_RATE
        kinds = rng.choice(len(CALL_KINDS), size=len(free), p=_CALL_P)
        for row, called, k in zip(free, calls, kinds, strict=True):
            if called and row.key not in sess.used:
                made = _make(rng, sess, row, CALL_KINDS[int(k)])
                _add(sess, rulings, made or _make(rng, sess, row, "score_stands"))
        free = sess.free()
        fixes = rng.random(len(free)) < CORRECTION_RATE
        whens = rng.choice(len(_CORRECTION_P), size=len(free), p=_CORRECTION_P)
        for row, fix, when in zip(free, fixes, whens, strict=True):
            if fix:
                _add(sess, rulings, [_correction(rng, sess, row, int(when))])
    for _, present, make in _guarantees():
        if any(present(r) for r in rulings):
            continue
        for i in rng.permutation(len(sessions)):
            sess = sessions[int(i)]
            free = sess.free()
            made: list[dict] = []
            for j in rng.permutation(len(free)):
                made = make(rng, sess, free[int(j)])
                if made:
                    break
            if made:
                _add(sess, rulings, made)
                break
    if planted is not None:
        rulings = [r for r in rulings if planted.keeps(r)]
    rulings.sort(
        key=lambda r: (
            r["_date"],
            r["event_id"],
            int(r["session"]),
            r["called_at"],
            r["ruled_at"],
            int(r["table"] or 0),
            int(r["board"] or 0),
        )
    )
    for i, r in enumerate(rulings, start=1):
        r["ruling_id"] = f"R{i:04d}"

    appeals = [
        _appeal(rng, r, planted.outcome(rng, r) if planted else None)
        for r in rulings
        if rng.random() < (APPEAL_RATE if r["kind"] in APPEALABLE else APPEAL_RATES[r["kind"]])
    ]
    # The latest date's last appeal or two are still to be heard.
    latest = max(s.day for s in sessions).isoformat()
    last = sorted(
        (a for a in appeals if a["_date"] == latest and a["_late"] is False),
        key=lambda a: a["lodged_at"],
    )
    for a in last[-(2 if len(last) >= 4 else 1) :] if last else []:
        a.update(decided_at="", outcome="", ns_result="", ew_result="", penalty="")
        a.update(deposit_retained="", without_merit="", note="hearing to be scheduled")
    # A generation too small to show them at these rates gets one of each, when missing, on
    # an earlier date when there is one: a ruling changed on appeal; a ruling that let the
    # score stand (or a fouled board) changed (Law 93: any ruling); a penalty reduced; an
    # appeal lodged late (Law 92B); a committee asked to overrule discipline (Law 93B3).
    wanted: list[tuple[Callable[[dict], bool], Callable[[dict], bool], dict]] = [
        (
            lambda a: a["outcome"] == "changed",
            lambda r: r["kind"] in APPEALABLE,
            {"outcome": "changed", "late": False},
        ),
        (
            lambda a: a["outcome"] == "changed" and a["_kind"] in ("score_stands", "fouled_board"),
            lambda r: r["kind"] in ("score_stands", "fouled_board"),
            {"outcome": "changed", "late": False},
        ),
        (
            lambda a: a["outcome"] == "changed" and a["_kind"] == "procedural_penalty",
            lambda r: r["kind"] == "procedural_penalty" and r["penalty"] in _REDUCED,
            {"outcome": "changed", "late": False},
        ),
        (lambda a: a["_late"], lambda r: r["kind"] in APPEALABLE, {"late": True}),
        (
            lambda a: a["_kind"] == "disciplinary_penalty" and a["heard_by"] == "committee",
            lambda r: r["kind"] == "disciplinary_penalty" and r["penalty"] in _REDUCED,
            {"outcome": "changed", "late": False, "heard": "committee"},
        ),
    ]
    for present, fits, how in wanted:
        if any(present(a) for a in appeals):
            continue
        appealed = {a["ruling_id"] for a in appeals}
        pool = [r for r in rulings if fits(r) and r["ruling_id"] not in appealed]
        pool = [r for r in pool if r["_date"] < latest] or pool
        if pool:
            appeals.append(_appeal(rng, _pick(rng, pool), **how))
    appeals.sort(key=lambda a: (a["lodged_at"], a["ruling_id"]))
    for i, a in enumerate(appeals, start=1):
        a["appeal_id"] = f"A{i:03d}"
    return rulings, appeals


# --------------------------------------------------------------------------- benchmark frame

_FRAME_ROUNDS = 9
_FRAME_BPR = 3
_FRAME_BOARDS = _FRAME_ROUNDS * _FRAME_BPR
_FRAME_TABLES = (8, 9, 10, 11, 12)
_FRAME_CLUBS = 40


def _howell_template(tables: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(board, ns_pair, ew_pair)`` arrays of one Howell session of ``tables`` tables."""
    sched = howell_schedule(2 * tables, _FRAME_ROUNDS)
    board = np.array([(r - 1) * _FRAME_BPR + j + 1 for r, *_ in sched for j in range(_FRAME_BPR)])
    ns = np.repeat(np.array([x[2] for x in sched]), _FRAME_BPR)
    ew = np.repeat(np.array([x[3] for x in sched]), _FRAME_BPR)
    return board, ns, ew


def _frame_layout(
    rng: np.random.Generator, n_sessions: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(session_index, board, ns_pair, ew_pair)`` for ``n_sessions`` Howell sessions.

    The session index is ``int32``, the others ``int16`` (boards and pairs are small).
    """
    tables = rng.choice(np.array(_FRAME_TABLES), size=n_sessions)
    sizes = tables * _FRAME_BOARDS
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    total = int(sizes.sum())
    sess = np.empty(total, dtype=np.int32)
    board = np.empty(total, dtype=np.int16)
    ns = np.empty(total, dtype=np.int16)
    ew = np.empty(total, dtype=np.int16)
    for t in _FRAME_TABLES:
        idx = np.flatnonzero(tables == t)
        if not len(idx):
            continue
        tb, tn, te = _howell_template(t)
        pos = (offsets[idx][:, None] + np.arange(len(tb))[None, :]).ravel()
        k = len(idx)
        sess[pos] = np.repeat(idx, len(tb))
        board[pos] = np.tile(tb, k)
        ns[pos] = np.tile(tn, k)
        ew[pos] = np.tile(te, k)
        del pos
    return sess, board, ns, ew


def generate_results_frame(n_results: int, seed: int = 0) -> pl.DataFrame:
    """``n_results`` synthetic table results as a Polars frame, built without per-row loops.

    Models many club Howell sessions of 8..12 tables x 27 boards (9 rounds of 3), every
    table playing each board, ~1 % of results dropped and ~0.5 % table-level artificial
    scores. Columns: ``event_id`` (Utf8), ``session`` (Int32), ``section`` (Utf8), ``board``
    (Int32), ``ns_pair``/``ew_pair`` (Utf8), ``contract`` (Utf8, canonical or null),
    ``declarer`` (Utf8), ``tricks`` (Int8) and ``score`` (Utf8: the NS score by
    :func:`~pipelines.laws.contract.ns_score_expr`, ``0`` for a pass-out, or an artificial
    code). Within each ``(event_id, session, section, board)`` the NS pairs are distinct and
    so are the EW pairs.

    Rows are drawn as small integer codes (numpy, ``int8``/``int16``); every text column is
    then one gather from a short list of strings, so no large intermediate column is built.
    """
    if n_results < 0:
        raise ValueError(f"n_results must be >= 0, not {n_results}")
    avg = _FRAME_BOARDS * float(np.mean(_FRAME_TABLES))
    n_sessions = max(1, int(np.ceil(n_results / (avg * (1 - 2 * MISSING_RATE)))) + 2)
    while True:
        rng = np.random.default_rng(seed)
        sess, board, ns, ew = _frame_layout(rng, n_sessions)
        res = _sample_tables(
            rng,
            sess * _FRAME_BOARDS + board - 1,
            n_sessions * _FRAME_BOARDS,
            not_played_rate=0.0,
        )
        keep = np.flatnonzero(res["status"] != MISSING)
        if len(keep) >= n_results:
            break
        n_sessions *= 2
    keep = keep[:n_results]

    # Per session: event id and session number. A fifth of the clubs run two-session
    # events over consecutive days; the second day is session 2 of the first day's event.
    s_idx = np.arange(n_sessions)
    club = s_idx % _FRAME_CLUBS
    day = s_idx // _FRAME_CLUBS
    second = (club % 5 == 0) & (day % 2 == 1)
    ev_date = np.datetime64("2026-01-05") + np.where(second, day - 1, day).astype("timedelta64[D]")
    sessions = pl.DataFrame(
        {
            "club": club + 1,
            "date": np.datetime_as_string(ev_date, unit="D"),
            "session": np.where(second, 2, 1).astype(np.int32),
        }
    ).select(
        pl.format("CLUB{}-{}", pl.col("club"), pl.col("date")).alias("event_id"),
        pl.col("session"),
    )

    rs = pl.Series(sess[keep])
    del sess
    status = res["status"][keep]
    is_art = status == ARTIFICIAL
    del status
    code = np.where(is_art, len(_CONTRACT_STRINGS), res["code"][keep]).astype(np.int16)
    no_contract = is_art | (code == _PASS_CODE)
    decl = np.where(no_contract, 4, res["declarer"][keep]).astype(np.int8)
    tricks = res["tricks"][keep]
    b = board[keep]
    # One list of score texts: every played score, then the artificial codes, then "0".
    # Each row's score is an index into it.
    n_table = len(_score_table())
    score_idx = np.where(
        is_art,
        n_table + res["artificial"][keep].astype(np.int64),
        np.where(
            no_contract,
            n_table + len(ARTIFICIAL_CODES),
            _score_key((b - 1) % 16, code, decl, tricks),
        ),
    )
    del res, is_art
    score_texts = pl.concat(
        [_score_table(), pl.Series("score", [*ARTIFICIAL_CODES, "0"], dtype=pl.Utf8)]
    )
    pair_texts = pl.Series([str(i) for i in range(int(max(ns.max(), ew.max())) + 1)], dtype=pl.Utf8)
    tricks_s = pl.Series("tricks", tricks, dtype=pl.Int8)
    if no_contract.any():
        tricks_s = tricks_s.scatter(np.flatnonzero(no_contract), None)
    return pl.DataFrame(
        [
            sessions["event_id"].gather(rs),
            sessions["session"].gather(rs),
            pl.repeat("A", len(keep), dtype=pl.Utf8, eager=True).alias("section"),
            pl.Series("board", b, dtype=pl.Int32),
            pair_texts.gather(pl.Series(ns[keep])).alias("ns_pair"),
            pair_texts.gather(pl.Series(ew[keep])).alias("ew_pair"),
            pl.Series("contract", [*_CONTRACT_STRINGS, None], dtype=pl.Utf8).gather(
                pl.Series(code)
            ),
            pl.Series("declarer", [*SEATS, None], dtype=pl.Utf8).gather(pl.Series(decl)),
            tricks_s,
            score_texts.gather(pl.Series(score_idx)).alias("score"),
        ]
    )


def _score_key(
    pattern: np.ndarray, code: np.ndarray, declarer: np.ndarray, tricks: np.ndarray
) -> np.ndarray:
    """Index into :func:`_score_table` of a board pattern ``(board - 1) % 16``, contract code,
    declarer seat index and tricks."""
    pattern, code, declarer, tricks = (
        np.asarray(a, dtype=np.int64) for a in (pattern, code, declarer, tricks)
    )
    return ((pattern * _PASS_CODE + code) * 4 + declarer) * 14 + tricks


@functools.lru_cache(maxsize=1)
def _score_table() -> pl.Series:
    """The NS score (Utf8) of every played contract by every declarer with 0..13 tricks on
    boards 1..16 (Law 2 repeats every 16 boards), indexed by :func:`_score_key`.

    Contracts are split with :func:`~pipelines.laws.contract.contract_parts_expr` and scored
    with :func:`~pipelines.laws.contract.ns_score_expr`, once for the 94,080 combinations
    instead of once per row: a million rows then cost a single gather.
    """
    pattern, code, decl, tricks = (
        a.ravel()
        for a in np.meshgrid(
            np.arange(16), np.arange(_PASS_CODE), np.arange(4), np.arange(14), indexing="ij"
        )
    )
    assert np.array_equal(_score_key(pattern, code, decl, tricks), np.arange(len(code)))
    contracts = pl.Series("contract", _CONTRACT_STRINGS[:_PASS_CODE], dtype=pl.Utf8)
    grid = pl.DataFrame(
        {
            "board": pattern + 1,
            "contract": contracts.gather(code),
            "declarer": pl.Series(SEATS).gather(decl),
            "tricks": tricks,
        }
    )
    parts = contract_parts_expr(pl.col("contract"))
    return grid.select(
        ns_score_expr(
            pl.col("board"),
            parts["level"],
            parts["strain"],
            parts["doubled"],
            pl.col("declarer"),
            pl.col("tricks"),
        )
        .cast(pl.Utf8)
        .alias("score")
    ).to_series()
