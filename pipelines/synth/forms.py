"""Synthetic events of the other forms: teams, IMP pairs and an individual (see
:mod:`pipelines.synth.pairs` for the pairs evenings and the directors' logs).

Over the generation's dates, on evenings of their own (club numbers after the pairs
clubs), :func:`plan` lays out:

* **a teams round robin**: 6 teams, every team meets every other (5 rounds of 4-board
  matches), WBF 2013 continuous VPs; every round plays boards 1-4 with new deals (a board
  of a match is its round and number);
* **a Swiss teams**: 8 teams, 3 rounds of 6-board matches, each round pairing teams by their
  VPs so far (first with second, ... never the same two twice);
* **a knockout** over two evenings: 4 teams, semi-finals then the final between the two
  winners, 8-board matches, no VPs (``vp_scale`` ``none``);
* **a Butler pairs** (Howell) and **a cross-IMP pairs** (Howell);
* **an individual** of 12 players, 6 rounds of 2 boards, partners and opponents drawn
  each round, scored at matchpoints; one table of round 3 has a variable artificial score
  (``A+/-``), which each of its four players gets at his own session percentage (Law 89
  with 12C2(c)).

:func:`planned_rulings` adds the team events' own cases to the directors' log, on tables
the other rulings then leave alone: a director's error (Law 82C, ``A+``/``A+``) at both
tables of one round-robin match board (Law 86B2: scored once for the match), an IMP award
(``imp_award``, Law 86B1) on a Swiss match board, and a 3-IMP procedural penalty in the
knockout final (Law 90, off the penalised team's side in full).

In a team match the home team sits NS at the odd table and EW at the even one, and both
tables play the same boards. Results are drawn around each board's par exactly as for
pairs (:func:`pipelines.synth.pairs.layout_rows`), so a match has swings. Who wins a knockout
match or leads a Swiss is worked out from the drawn results with the Laws' IMP scale and
the WBF VP scale (:mod:`pipelines.laws.imps`, :mod:`pipelines.laws.victory_points`), on the
table results as entered, before the directors' rulings (which are drawn afterwards, see
:mod:`pipelines.synth.pairs`); each semi-final is drawn again until it is won by at least
:data:`DECISIVE` IMPs, so that a ruling drawn afterwards does not turn it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

import numpy as np

from pipelines.formats.canonical_csv import INDIVIDUAL_CSV_HEADER
from pipelines.laws.contract import ns_score, parse_contract
from pipelines.laws.imps import imps
from pipelines.laws.teams import cancelled_board
from pipelines.laws.victory_points import victory_points
from pipelines.synth.pairs import (
    DIRECTORS,
    _Event,
    _in_session,
    _own,
    _player_pool,
    _ruling,
    howell_schedule,
    layout_rows,
)

#: Invented team names (no real team).
TEAM_NAMES: tuple[str, ...] = (
    "Corvane",
    "Maldrith",
    "Oskara",
    "Pellwyn",
    "Quarrow",
    "Rennagh",
    "Sablewick",
    "Tarnholt",
)

#: The margin (IMPs) by which each generated knockout semi-final is won.
DECISIVE = 15

#: The header of an individual event's results file (players in place of pairs).
INDIVIDUAL_HEADER: tuple[str, ...] = INDIVIDUAL_CSV_HEADER


@dataclass
class FormSession:
    """One generated session of another form: its event, date, results-file rows (the
    canonical pairs header, or :data:`INDIVIDUAL_HEADER` for an individual) and the rows
    as the directors' logs see them (``ns``/``ew`` = ``N/S`` players in an individual)."""

    event: _Event
    session: int
    day: date
    rows: list[list[str]]
    log_rows: list[list[str]]
    extra: dict[str, str] = field(default_factory=dict)  # events.csv team columns


@dataclass
class FormPlan:
    """Everything :func:`plan` generated."""

    sessions: list[FormSession]
    contestants: list[list[str]]  # event_id, contestant, direction, names, player_ids


#: IMPs of an artificial side code at teams (Law 12C2(b), as the profiles have it).
_ART_IMPS = {"60": 3, "+": 3, "50": 0, "=": 0, "40": -3, "-": -3}


def _ns_scores(rows: list[list[str]]) -> dict[tuple[int, int], int | tuple[str, str] | None]:
    """Per (table, board) of pairs-header rows: the NS score of a played result, the
    ``(NS, EW)`` codes of an artificial score, or ``None`` (not played)."""
    out: dict[tuple[int, int], int | tuple[str, str] | None] = {}
    for r in rows:
        contract, declarer, tricks, score = r[8], r[9], r[10], r[11]
        board = int(r[5])
        if contract == "PASS":
            out[(int(r[4]), board)] = 0
        elif contract:
            out[(int(r[4]), board)] = ns_score(
                parse_contract(contract), declarer, int(tricks), board
            )
        elif score.startswith("A"):
            ns, ew = score[1:].split("/")
            out[(int(r[4]), board)] = (ns, ew)
        else:
            out[(int(r[4]), board)] = None
    return out


def _home_imps(a: int | tuple[str, str] | None, c: int | tuple[str, str] | None) -> int:
    """The home team's IMPs on a board: ``a`` at its NS table, ``c`` at its EW table. An
    artificial score at one table decides it (the home side's code); at both tables the
    board is cancelled and scored once (Law 86B2, :func:`pipelines.laws.teams.cancelled_board`);
    a table without a result gives Av (0), as the profiles' ``missing_board`` does."""
    if isinstance(a, tuple) and isinstance(c, tuple):
        return cancelled_board([a[0], c[1]], [a[1], c[0]])[0] or 0
    if isinstance(a, tuple):
        return _ART_IMPS[a[0]]
    if isinstance(c, tuple):
        return _ART_IMPS[c[1]]
    if a is None or c is None:
        return 0
    return imps(a - c)


def _match(
    rng: np.random.Generator,
    event_id: str,
    session: int,
    rnd: int,
    pairing: list[tuple[str, str]],
    first_board: int,
    boards: int,
) -> tuple[list[list[str]], dict[tuple[str, str], int]]:
    """The rows of one round of team matches and each match's net IMPs (home's view)."""
    layout = []
    for k, (home, away) in enumerate(pairing):
        for b in range(first_board, first_board + boards):
            layout.append((rnd, 2 * k + 1, home, away, b))
            layout.append((rnd, 2 * k + 2, away, home, b))
    n_boards = first_board + boards - 1
    rows = layout_rows(rng, event_id, session, layout, n_boards, with_scores=True)
    scores = _ns_scores(rows)
    net: dict[tuple[str, str], int] = {}
    for k, (home, away) in enumerate(pairing):
        total = 0
        for b in range(first_board, first_board + boards):
            total += _home_imps(scores.get((2 * k + 1, b)), scores.get((2 * k + 2, b)))
        net[(home, away)] = total
    return rows, net


def _event(
    event_id: str, club: int, name: str, rounds: int, bpr: int, dates: list[date], **kw: str
) -> _Event:
    return _Event(
        event_id=event_id,
        club=club,
        name=name,
        movement=kw.pop("movement", "howell"),
        profile=kw.pop("profile", "wbf"),
        director=DIRECTORS[club % len(DIRECTORS)],
        size=0,
        rounds=rounds,
        boards_per_round=bpr,
        dates=dates,
        **kw,
    )


def _team_event(
    code: str,
    club: int,
    name: str,
    n: int,
    rounds: int,
    bpr: int,
    dates: list[date],
    vp_scale: str,
    **kw: str,
) -> tuple[_Event, list[str], dict[str, str]]:
    """A teams event (IMPs, the ``stage`` in ``kw``) of ``n`` teams named ``code``'s first
    letter + 1..n, ``bpr``-board matches; with its ``events.csv`` team columns."""
    ev = _event(
        f"{code}{club + 1}-{dates[0].isoformat()}",
        club,
        name,
        rounds,
        bpr,
        dates,
        form="teams",
        scoring="imps",
        **kw,
    )
    teams = [f"{code[0]}{i + 1}" for i in range(n)]
    return ev, teams, {"boards_per_match": str(bpr), "vp_scale": vp_scale, "stage": ev.stage}


def _round_robin(n: int) -> list[list[tuple[int, int]]]:
    """Circle-method rounds of a round robin of ``n`` (even) teams, 0-based."""
    others = list(range(1, n))
    out = []
    for r in range(n - 1):
        ring = [0, *others[r:], *others[:r]]
        out.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
    return out


def plan(
    rng: np.random.Generator, start_date: date, days: int, first_club: int, used_ids: set[int]
) -> FormPlan:
    """Generate the other forms' events over ``days`` evenings from ``start_date``."""
    sessions: list[FormSession] = []
    contestants: list[list[str]] = []
    day = [start_date + timedelta(days=i % max(days, 1)) for i in range(4)]
    pool = _player_pool(rng, 128, used_ids)  # 72 team players, 32 in pairs, 12 individuals
    names = iter(pool)

    def team_rows(event_id: str, teams: list[str]) -> None:
        for t in teams:
            members = [next(names) for _ in range(4)]
            contestants.append(
                [
                    event_id,
                    t,
                    "",
                    " & ".join(m[0] for m in members),
                    ";".join(m[1] for m in members),
                ]
            )

    club = first_club
    # --- a teams round robin: 6 teams, 5 rounds of 4 boards
    ev, teams, extra = _team_event(
        "TEAMS", club, "Corvane Teams League", 6, 5, 4, [day[0]], "wbf2013", stage="round_robin"
    )
    rows: list[list[str]] = []
    for r, pairs in enumerate(_round_robin(6), start=1):
        pairing = [(teams[a], teams[b]) for a, b in pairs]
        got, _ = _match(rng, ev.event_id, 1, r, pairing, 1, 4)  # boards 1-4 each round, new deals
        rows.extend(got)
    sessions.append(FormSession(ev, 1, day[0], rows, rows, extra))
    team_rows(ev.event_id, teams)

    # --- a Swiss teams: 8 teams, 3 rounds of 6 boards, paired by VPs so far
    club += 1
    ev, teams, extra = _team_event(
        "SWISS",
        club,
        "Maldrith Swiss Teams",
        8,
        3,
        6,
        [day[1]],
        "wbf2013",
        stage="swiss",
        profile="ebu",
    )
    vps = {t: Fraction(0) for t in teams}
    met: set[frozenset[str]] = set()
    rows = []
    for r in range(1, 4):
        order = (
            [teams[int(i)] for i in rng.permutation(8)]
            if r == 1
            else sorted(teams, key=lambda t: (-vps[t], t))
        )
        pairing: list[tuple[str, str]] = []
        left = list(order)
        while left:
            a = left.pop(0)
            b = next((x for x in left if frozenset((a, x)) not in met), left[0])
            left.remove(b)
            pairing.append((a, b))
            met.add(frozenset((a, b)))
        got, net = _match(rng, ev.event_id, 1, r, pairing, (r - 1) * 6 + 1, 6)
        rows.extend(got)
        for (h, a), m in net.items():
            hv, av = victory_points(m, 6, "wbf2013")
            vps[h] += Fraction(hv, 100)
            vps[a] += Fraction(av, 100)
    sessions.append(FormSession(ev, 1, day[1], rows, rows, extra))
    team_rows(ev.event_id, teams)

    # --- a knockout over two evenings: semi-finals, then the final
    club += 1
    ko_days = [day[0], day[1]] if day[1] != day[0] else [day[0], day[0] + timedelta(days=1)]
    ev, teams, extra = _team_event(
        "KO", club, "Oskara Knockout Cup", 4, 1, 8, ko_days, "none", stage="knockout"
    )
    semis = [(teams[0], teams[3]), (teams[1], teams[2])]
    # a semi-final decided by a few IMPs could be turned by a ruling drawn later; the
    # generated semi-finals are redrawn until each is won by at least DECISIVE IMPs
    for _ in range(50):
        rows, net = _match(rng, ev.event_id, 1, 1, semis, 1, 8)
        if all(abs(m) >= DECISIVE for m in net.values()):
            break
    sessions.append(FormSession(ev, 1, ko_days[0], rows, rows, dict(extra)))
    winners = [h if net[(h, a)] >= 0 else a for h, a in semis]
    rows, _ = _match(rng, ev.event_id, 2, 2, [(winners[0], winners[1])], 9, 8)
    sessions.append(FormSession(ev, 2, ko_days[1], rows, rows, dict(extra)))
    team_rows(ev.event_id, teams)

    # --- Butler and cross-IMP pairs: Howells of 8 pairs, 7 rounds of 3 boards
    for k, (scoring, title) in enumerate((("butler", "Butler"), ("cross_imps", "Cross-IMP"))):
        club += 1
        d = day[2 + k] if days > 1 else day[0]
        ev_id = f"IMPS{club + 1}-{d.isoformat()}"
        ev = _event(
            ev_id,
            club,
            f"Pellwyn {title} Pairs",
            7,
            3,
            [d],
            scoring=scoring,
            profile="abf" if k == 0 else "wbf",
        )
        layout = [
            (r, t, str(ns), str(ew), (r - 1) * 3 + j + 1)
            for r, t, ns, ew in howell_schedule(8, 7)
            for j in range(3)
        ]
        rows = layout_rows(rng, ev_id, 1, layout, 21, with_scores=True)
        sessions.append(FormSession(ev, 1, d, rows, rows))
        for p in range(1, 9):
            a, b = next(names), next(names)
            contestants.append([ev_id, str(p), "", f"{a[0]} & {b[0]}", f"{a[1]};{b[1]}"])

    # --- an individual: 12 players, 6 rounds of 2 boards, seats drawn each round
    club += 1
    d = day[3] if days > 1 else day[0]
    ev_id = f"IND{club + 1}-{d.isoformat()}"
    ev = _event(ev_id, club, "Quarrow Individual", 6, 2, [d], form="individual")
    players = [f"P{i + 1}" for i in range(12)]
    layout = []
    seats: dict[tuple[int, int], tuple[str, str, str, str]] = {}
    for r in range(1, 7):
        order = [players[int(i)] for i in rng.permutation(12)]
        for t in range(3):
            n, s, e, w = order[4 * t : 4 * t + 4]
            seats[(r, t + 1)] = (n, s, e, w)
            for j in range(2):
                layout.append((r, t + 1, f"{n}/{s}", f"{e}/{w}", (r - 1) * 2 + j + 1))
    log = layout_rows(rng, ev_id, 1, layout, 12, with_scores=True)
    # a variable artificial score at one table of round 3 (Law 12C2: the board could not be
    # played; each player gets his own session percentage, Law 89)
    for r in log:
        if r[3] == "3" and r[8] not in ("", "PASS"):
            r[8:12] = ["", "", "", "A+/-"]
            break
    rows = []
    for r in log:
        n, s, e, w = seats[(int(r[3]), int(r[4]))]
        rows.append([*r[:6], n, s, e, w, *r[8:]])
    sessions.append(FormSession(ev, 1, d, rows, log))
    for p in players:
        who = next(names)
        contestants.append([ev_id, p, "", who[0], who[1]])
    return FormPlan(sessions, contestants)


def _match_boards(sess) -> list[list]:
    """The match boards of a team session both of whose tables have a contract and no ruling
    yet: each its two rows, table order (deal by deal: round, board)."""
    by: dict[tuple, list] = {}
    for r in sess.rows:
        by.setdefault((r.round, r.board, frozenset((r.ns, r.ew))), []).append(r)
    out = []
    for key in sorted(by, key=lambda k: (k[0], k[1], sorted(k[2]))):
        rows = sorted(by[key], key=lambda r: r.table)
        if len(rows) == 2 and all(r.contract is not None and r.key not in sess.used for r in rows):
            out.append(rows)
    return out


def planned_rulings(rng: np.random.Generator, sessions: list) -> list[dict]:
    """The team events' own cases for the directors' log (see the module docstring), as
    ruling records of :func:`pipelines.synth.pairs._ruling` without ids; the tables they are
    about are marked as used so that no other ruling is drawn there. ``sessions`` are the
    timetabled sessions of :func:`pipelines.synth.inbox.generate_inbox`."""
    out: list[dict] = []

    def teams(stage: str) -> list:
        return [s for s in sessions if s.event.form == "teams" and s.event.stage == stage]

    # Law 82C at both tables of a round-robin match board: A+/A+ twice, Law 86B2 scores the
    # board once for the match (Av+ to each team, not twice Av+)
    for sess in teams("round_robin")[:1]:
        boards = _match_boards(sess)
        if boards:
            for row in boards[len(boards) // 2]:
                times = _in_session(rng, sess, row, 5, 20)
                out.append(
                    _ruling(
                        sess,
                        row,
                        "director_error",
                        times,
                        director=sess.event.director,
                        laws="82C",
                        ns_result="A+",
                        ew_result="A+",
                        note="director's error: the board was redealt at both tables",
                    )
                )
                sess.used.add(row.key)
    # Law 86B1 (2007 86D): an IMP award on a Swiss match board, the other table's result
    # clearly favourable to the non-offending side
    for sess in teams("swiss")[:1]:
        boards = _match_boards(sess)
        if boards:
            first, second = boards[int(rng.integers(0, len(boards)))]
            m = imps(_own(first)[1] - _own(second)[1])
            award = m + 3 if m >= 0 else m - 3
            times = _in_session(rng, sess, first, 5, 20)
            out.append(
                _ruling(
                    sess,
                    first,
                    "imp_award",
                    times,
                    director=sess.event.director,
                    laws="16B1;86B1",
                    offending="EW" if award > 0 else "NS",
                    ns_result=f"{award:+d} IMP",
                    note="the result at the other table clearly favoured the non-offending side",
                )
            )
            sess.used.update((first.key, second.key))
    # Law 90 in the knockout final: 3 IMPs off one team's side of the match, in full
    finals = [s for s in teams("knockout") if s.session == 2]
    for sess in finals[:1]:
        rows = [r for r in sess.rows if r.table == 1]
        if rows:
            row = rows[0]
            times = _in_session(rng, sess, row, 1, 6)
            out.append(
                _ruling(
                    sess,
                    row,
                    "procedural_penalty",
                    times,
                    director=sess.event.director,
                    laws="90B2",
                    offending="EW",
                    penalized=row.ew,
                    penalty="3 IMP",
                    note="slow play: the segment ran well over time",
                )
            )
    return out
