"""Synthetic federation data: seeded, realistic, and free of real people.

Real club results carry real names and national membership numbers, so the
project ships only generated data. This module writes an inbox in the
canonical CSV formats (:func:`generate_inbox`) and builds large result frames
for benchmarks (:func:`generate_results_frame`).

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
* **People.** Names are built from invented syllables and player ids carry an
  ``X`` prefix (``X104233``) so that they can never be mistaken for real
  membership numbers.

Everything is drawn from one :class:`numpy.random.Generator` seeded with
``seed`` and written sorted with ``\\n`` line endings, so the same arguments
give byte-identical files.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import polars as pl

from pipelines.laws.contract import (
    SEATS,
    STRAINS,
    Contract,
    contract_parts_expr,
    ns_score,
    ns_score_expr,
)

# --------------------------------------------------------------------------- constants

EVENT_HEADER: tuple[str, ...] = (
    "event_id",
    "session",
    "date",
    "name",
    "form",
    "scoring",
    "movement",
    "profile",
    "laws",
    "director",
    "correction_minutes",
)
RESULT_HEADER: tuple[str, ...] = (
    "event_id",
    "session",
    "section",
    "round",
    "table",
    "board",
    "ns_pair",
    "ew_pair",
    "contract",
    "declarer",
    "tricks",
    "score",
)
CONTESTANT_HEADER: tuple[str, ...] = (
    "event_id",
    "contestant",
    "direction",
    "names",
    "player_ids",
)

#: Rates per table result.
MISSING_RATE = 0.01
NOT_PLAYED_RATE = 0.005
ARTIFICIAL_RATE = 0.005
#: Share of results files that leave the score of played boards empty.
SCORELESS_FILE_RATE = 0.2

#: Table-level artificial scores (Law 12C2 notation of the canonical format) and their weights.
ARTIFICIAL_CODES: tuple[str, ...] = (
    "A60/40",
    "A40/60",
    "A50/50",
    "A60/60",
    "A40/40",
    "A+/-",
    "A-/+",
    "A=/=",
)
_ARTIFICIAL_P = np.array([0.28, 0.2, 0.15, 0.1, 0.07, 0.09, 0.06, 0.05])

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


@dataclass(frozen=True)
class GenerateSummary:
    """What :func:`generate_inbox` wrote: file count, event sessions, result rows, contestants."""

    files: int
    sessions: int
    results: int
    contestants: int


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


def _plan_events(
    rng: np.random.Generator, sessions: int, clubs: int, start_date: date
) -> list[_Event]:
    """Lay ``sessions`` club sessions over consecutive evenings and group them into events."""
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
                )
            )
    return events


def _session_rows(
    rng: np.random.Generator, ev: _Event, session: int, with_scores: bool
) -> list[list[str]]:
    """The results-file rows of one event session (missing results left out)."""
    bpr = ev.boards_per_round
    layout: list[tuple[int, int, int, int, int]] = []  # round, table, ns, ew, board
    if ev.movement == "howell":
        for rnd, table, ns, ew in howell_schedule(ev.size, ev.rounds):
            for j in range(bpr):
                layout.append((rnd, table, ns, ew, (rnd - 1) * bpr + j + 1))
        n_boards = ev.rounds * bpr
    else:
        for rnd, table, ns, ew, bset in mitchell_schedule(ev.size, ev.rounds):
            for j in range(bpr):
                layout.append((rnd, table, ns, ew, (bset - 1) * bpr + j + 1))
        n_boards = ev.size * bpr
    group = np.array([b - 1 for *_, b in layout], dtype=np.int64)
    res = _sample_tables(rng, group, n_boards)
    rows: list[list[str]] = []
    for i, (rnd, table, ns, ew, board) in enumerate(layout):
        status = int(res["status"][i])
        if status == MISSING:
            continue
        contract = declarer = tricks = score = ""
        if status == NOT_PLAYED:
            score = "NP"
        elif status == ARTIFICIAL:
            score = ARTIFICIAL_CODES[int(res["artificial"][i])]
        elif int(res["code"][i]) == _PASS_CODE:
            contract = "PASS"
            score = "0" if with_scores else ""
        else:
            c = Contract(
                int(res["level"][i]),
                STRAINS[int(res["strain"][i])],
                int(res["doubled"][i]),
            )
            contract = str(c)
            declarer = SEATS[int(res["declarer"][i])]
            tricks = str(int(res["tricks"][i]))
            if with_scores:
                score = str(ns_score(c, declarer, int(tricks), board))
        rows.append(
            [
                ev.event_id,
                str(session),
                "A",
                str(rnd),
                str(table),
                str(board),
                str(ns),
                str(ew),
                contract,
                declarer,
                tricks,
                score,
            ]
        )
    return rows


def _write_csv(path: Path, header: Sequence[str], rows: list[list[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def generate_inbox(
    out: Path,
    sessions: int = 6,
    clubs: int = 3,
    seed: int = 2026,
    start_date: date = date(2026, 11, 2),
) -> GenerateSummary:
    """Write a synthetic inbox to ``out``: ``events.csv``, ``contestants.csv`` and results files.

    ``sessions`` club sessions are spread over consecutive evenings from
    ``start_date``, ``clubs`` of them each evening. One results file is written
    per club and date, ``results-club<N>-<YYYY-MM-DD>.csv``. The same arguments
    give byte-identical files.
    """
    if sessions < 1:
        raise ValueError(f"sessions must be >= 1, not {sessions}")
    if clubs < 1:
        raise ValueError(f"clubs must be >= 1, not {clubs}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    events = _plan_events(rng, sessions, clubs, start_date)

    used_ids: set[int] = set()
    # 48 regulars: enough for the largest Mitchell (12 tables, 24 pairs).
    pools = [_player_pool(rng, 48, used_ids) for _ in range(clubs)]

    event_rows: list[list[str]] = []
    contestant_rows: list[list[str]] = []
    files: dict[tuple[int, date], list[list[str]]] = {}
    scoreless: dict[tuple[int, date], bool] = {}
    for ev in events:
        for s, d in enumerate(ev.dates, start=1):
            event_rows.append(
                [
                    ev.event_id,
                    str(s),
                    d.isoformat(),
                    ev.name,
                    "pairs",
                    "matchpoints",
                    ev.movement,
                    ev.profile,
                    "2017",
                    ev.director,
                    "30",
                ]
            )
            key = (ev.club, d)
            if key not in scoreless:
                scoreless[key] = bool(rng.random() < SCORELESS_FILE_RATE)
            rows = _session_rows(rng, ev, s, with_scores=not scoreless[key])
            files.setdefault(key, []).extend(rows)
        # Contestants: pairs drawn from the club's regulars.
        pool = pools[ev.club]
        n_pairs = ev.size if ev.movement == "howell" else 2 * ev.size
        pick = rng.permutation(len(pool))[: 2 * n_pairs]
        players = [pool[int(i)] for i in pick]
        if ev.movement == "howell":
            labels = [(str(p), "") for p in range(1, ev.size + 1)]
        else:
            labels = [(str(p), d) for d in ("NS", "EW") for p in range(1, ev.size + 1)]
        for (contestant, direction), a, b in zip(labels, players[0::2], players[1::2], strict=True):
            contestant_rows.append(
                [
                    ev.event_id,
                    contestant,
                    direction,
                    f"{a[0]} & {b[0]}",
                    f"{a[1]};{b[1]}",
                ]
            )

    event_rows.sort(key=lambda r: (r[0], int(r[1])))
    contestant_rows.sort(key=lambda r: (r[0], r[2], int(r[1])))
    _write_csv(out / "events.csv", EVENT_HEADER, event_rows)
    _write_csv(out / "contestants.csv", CONTESTANT_HEADER, contestant_rows)
    n_results = 0
    for (club, d), rows in sorted(files.items()):
        rows.sort(key=lambda r: (r[0], int(r[1]), int(r[3]), int(r[4]), int(r[5])))
        _write_csv(out / f"results-club{club + 1}-{d.isoformat()}.csv", RESULT_HEADER, rows)
        n_results += len(rows)
    return GenerateSummary(
        files=2 + len(files),
        sessions=len(event_rows),
        results=n_results,
        contestants=len(contestant_rows),
    )


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
