"""A whole synthetic inbox: the pairs evenings of :mod:`pipelines.synth.pairs` and the other
forms of :mod:`pipelines.synth.forms` (teams, IMP pairs, an individual), with the directors'
logs of both, written as the canonical CSV files a federation's scorer drops into the inbox.

This module is the top of the generator: it imports both halves, neither imports it, so the
pairs evenings never import the other forms. Every part draws from a random stream of its own
(seeded from ``seed``), so the pairs evenings are the same with or without the other forms, and
the results the same with or without the directors' logs.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

from pipelines.formats.hands_csv import HANDS_CSV_HEADER
from pipelines.laws.board import dealer, vulnerability
from pipelines.synth.forms import INDIVIDUAL_HEADER, plan, planned_rulings
from pipelines.synth.pairs import (
    APPEAL_HEADER,
    CLUB_NAMES,
    CONTESTANT_HEADER,
    EVENT_HEADER,
    RESULT_HEADER,
    RULING_HEADER,
    SCORELESS_FILE_RATE,
    Planted,
    _directors_logs,
    _Event,
    _plan_events,
    _player_pool,
    _session_rows,
    _t,
    _timetable,
)


@dataclass(frozen=True)
class GenerateSummary:
    """What :func:`generate_inbox` wrote: file count, event sessions, result rows, contestants,
    rulings and appeals."""

    files: int
    sessions: int
    results: int
    contestants: int
    rulings: int = 0
    appeals: int = 0


def _write_csv(path: Path, header: Sequence[str], rows: list[list[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def hand_record_rows(
    rng: np.random.Generator, event_id: str, session: int, boards: list[int]
) -> list[list[str]]:
    """A hand record of ``boards`` (rows of :data:`HANDS_CSV_HEADER`): for each board a deal
    of the shuffled pack, 13 cards to each hand (Law 1), with the dealer and vulnerability
    of its number (Law 2), each hand ``spades.hearts.diamonds.clubs``."""
    ranks = "AKQJT98765432"
    out = []
    for board in boards:
        pack = rng.permutation(52)
        hands = []
        for seat in range(4):
            cards = sorted(int(c) for c in pack[seat * 13 : (seat + 1) * 13])
            suits = ["".join(ranks[c % 13] for c in cards if c // 13 == s) for s in range(4)]
            hands.append(".".join(suits))
        out.append(
            [event_id, str(session), "", str(board), dealer(board), vulnerability(board), *hands]
        )
    return out


def generate_inbox(
    out: Path,
    sessions: int = 6,
    clubs: int = 3,
    seed: int = 2026,
    start_date: date = date(2026, 11, 2),
    other_forms: bool = True,
    planted: Planted | None = None,
    hand_records: int = 0,
) -> GenerateSummary:
    """Write a synthetic inbox to ``out``: ``events.csv``, ``contestants.csv``, results files
    and the directors' logs ``rulings.csv`` and ``appeals.csv``.

    With ``other_forms`` the inbox also holds the team events, IMP pairs sessions and the
    individual of :mod:`pipelines.synth.forms`, each with its own results file.

    ``sessions`` club sessions are spread over consecutive evenings from
    ``start_date``, ``clubs`` of them each evening. One results file is written
    per club and date, ``results-club<N>-<YYYY-MM-DD>.csv``. The same arguments
    give byte-identical files. ``planted`` plants effects in the directors' logs
    (:class:`Planted`; the results are the same with or without them). ``hand_records``:
    how many pairs sessions (the first) get a hand record, ``hands-club<N>-<date>.csv``
    (:func:`hand_record_rows`, random deals drawn from a stream of their own: every other file
    is the same with or without them).
    """
    if sessions < 1:
        raise ValueError(f"sessions must be >= 1, not {sessions}")
    if clubs < 1:
        raise ValueError(f"clubs must be >= 1, not {clubs}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    # second sections draw from a stream of their own: the first sections are the same
    sections_rng = np.random.default_rng([seed, 0x53454354])
    events = _plan_events(rng, sessions, clubs, start_date, sections_rng)

    used_ids: set[int] = set()
    # 48 regulars: enough for the largest Mitchell (12 tables, 24 pairs).
    pools = [_player_pool(rng, 48, used_ids) for _ in range(clubs)]
    # the players of second sections: visitors to the club, from their own stream
    visitors = [_player_pool(sections_rng, 48, used_ids) for _ in range(clubs)]

    event_rows: list[list[str]] = []
    contestant_rows: list[list[str]] = []
    files: dict[tuple[int, date], list[list[str]]] = {}
    scoreless: dict[tuple[int, date], bool] = {}
    played: list[tuple[_Event, int, date, list[list[str]]]] = []
    team_columns: dict[tuple[str, str], dict[str, str]] = {}
    form_files: dict[tuple[int, date, bool], list[list[str]]] = {}
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
            rows = _session_rows(rng, ev, s, not scoreless[key], sections_rng)
            files.setdefault(key, []).extend(rows)
            played.append((ev, s, d, rows))
        # Contestants: pairs drawn from the club's regulars.
        pool = pools[ev.club]
        n_pairs = ev.size if ev.movement == "howell" else 2 * ev.size
        pick = rng.permutation(len(pool))[: 2 * n_pairs]
        players = [pool[int(i)] for i in pick]
        if ev.movement == "howell":
            labels = [(str(p), "") for p in range(1, ev.size + 1)]
        else:
            labels = [(str(p), d) for d in ("NS", "EW") for p in range(1, ev.size + 1)]
        # a second section's pairs are visitors, drawn from a stream of their own
        by_section = [("A", players)]
        for letter in ev.section_letters[1:]:
            extra = visitors[ev.club]
            pick = sections_rng.permutation(len(extra))[: 2 * n_pairs]
            by_section.append((letter, [extra[int(i)] for i in pick]))
        for letter, members in by_section:
            for (contestant, direction), a, b in zip(
                labels, members[0::2], members[1::2], strict=True
            ):
                contestant_rows.append(
                    [
                        ev.event_id,
                        contestant,
                        direction,
                        f"{a[0]} & {b[0]}",
                        f"{a[1]};{b[1]}",
                        letter,
                    ]
                )

    if other_forms:
        # Teams, IMP pairs and an individual, from a stream of their own (the pairs evenings
        # above are the same with or without them), on clubs numbered after the pairs clubs.
        days = (sessions + clubs - 1) // clubs
        forms = plan(np.random.default_rng([seed, 0x464F524D]), start_date, days, clubs, used_ids)
        for fs in forms.sessions:
            ev = fs.event
            event_rows.append(
                [
                    ev.event_id,
                    str(fs.session),
                    fs.day.isoformat(),
                    ev.name,
                    ev.form,
                    ev.scoring,
                    ev.movement,
                    ev.profile,
                    "2017",
                    ev.director,
                    "30",
                ]
            )
            team_columns[(ev.event_id, str(fs.session))] = fs.extra
            form_files.setdefault((ev.club, fs.day, ev.form == "individual"), []).extend(fs.rows)
            played.append((ev, fs.session, fs.day, fs.log_rows))
        contestant_rows.extend([*c, ""] for c in forms.contestants)

    # The directors' logs draw from a stream of their own, so that the results are the
    # same with or without them.
    log_rng = np.random.default_rng([seed, 0x4C4157])
    timed = [_timetable(log_rng, ev, s, d, rows) for ev, s, d, rows in played]
    published = {(t.event.event_id, str(t.session)): _t(t.published) for t in timed}
    for row in event_rows:
        row.append(published[(row[0], row[1])])
        extra = team_columns.get((row[0], row[1]), {})
        row.extend(extra.get(c, "") for c in ("boards_per_match", "vp_scale", "stage"))
    # the forms' own cases (Laws 86B1, 86B2, 90 in a knockout), on tables kept from the rest
    planned = []
    if other_forms:
        planned = planned_rulings(np.random.default_rng([seed, 0x504C414E]), timed)
    rulings, appeals = _directors_logs(log_rng, timed, planted)
    for i, rec in enumerate(planned, start=len(rulings) + 1):
        rulings.append({**rec, "ruling_id": f"R{i:04d}"})
    # club and level (the audit's controls): a two-session event is a congress.
    every = [ev for ev, *_ in played]
    level = {ev.event_id: "congress" if len(ev.dates) > 1 else "club" for ev in every}
    club_name = {
        ev.event_id: CLUB_NAMES[ev.club] if ev.club < len(CLUB_NAMES) else f"Club {ev.club + 1}"
        for ev in every
    }
    for row in event_rows:
        row.extend([club_name[row[0]], level[row[0]]])

    event_rows.sort(key=lambda r: (r[0], int(r[1])))
    # 2 before 10, T2 before T10
    contestant_rows.sort(key=lambda r: (r[0], r[5], r[2], len(r[1]), r[1]))
    _write_csv(out / "events.csv", EVENT_HEADER, event_rows)
    _write_csv(out / "contestants.csv", CONTESTANT_HEADER, contestant_rows)
    _write_csv(out / "rulings.csv", RULING_HEADER, [[r[c] for c in RULING_HEADER] for r in rulings])
    _write_csv(out / "appeals.csv", APPEAL_HEADER, [[a[c] for c in APPEAL_HEADER] for a in appeals])
    hand_rng = np.random.default_rng([seed, 0x48414E44])
    pairs_sessions = [(ev, s, d, rows) for ev, s, d, rows in played if ev.form == "pairs"]
    for ev, s, d, rows in pairs_sessions[: max(hand_records, 0)]:
        boards = sorted({int(r[RESULT_HEADER.index("board")]) for r in rows})
        _write_csv(
            out / f"hands-club{ev.club + 1}-{d.isoformat()}.csv",
            HANDS_CSV_HEADER,
            hand_record_rows(hand_rng, ev.event_id, s, boards),
        )
    n_results = 0
    for (club, d), rows in sorted(files.items()):
        rows.sort(key=lambda r: (r[0], int(r[1]), int(r[3]), int(r[4]), int(r[5])))
        _write_csv(out / f"results-club{club + 1}-{d.isoformat()}.csv", RESULT_HEADER, rows)
        n_results += len(rows)
    for (club, d, individual), rows in sorted(form_files.items()):
        rows.sort(key=lambda r: (r[0], int(r[1]), int(r[3]), int(r[4]), int(r[5])))
        header = INDIVIDUAL_HEADER if individual else RESULT_HEADER
        _write_csv(out / f"results-club{club + 1}-{d.isoformat()}.csv", header, rows)
        n_results += len(rows)
    return GenerateSummary(
        files=4 + len(files) + len(form_files) + min(max(hand_records, 0), len(pairs_sessions)),
        sessions=len(event_rows),
        results=n_results,
        contestants=len(contestant_rows),
        rulings=len(rulings),
        appeals=len(appeals),
    )
