"""Tests of the synthetic data generator (:mod:`pipelines.synth`)."""

from __future__ import annotations

import csv
import hashlib
import re
from collections import Counter, defaultdict
from datetime import date, timedelta
from pathlib import Path

import polars as pl
import pytest

from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.inbox import scan
from pipelines.laws.adjustments import Artificial, parse_side_result
from pipelines.laws.contract import SEATS, ns_score, parse_contract
from pipelines.laws.penalties import parse_penalty
from pipelines.laws.vocabulary import RULING_KINDS as KINDS
from pipelines.scoring.rulings import RulingsResult, parse_time, validate_rulings
from pipelines.scoring.validate import validate_results
from pipelines.synth import pairs as generate
from pipelines.synth.inbox import GenerateSummary, generate_inbox
from pipelines.synth.pairs import (
    APPEAL_HEADER,
    ARTIFICIAL_CODES,
    CONTESTANT_HEADER,
    EVENT_HEADER,
    RESULT_HEADER,
    RULING_HEADER,
    generate_results_frame,
    howell_schedule,
    mitchell_max_rounds,
    mitchell_schedule,
)

ARTIFICIAL_RE = re.compile(r"^A(60|50|40|[+=-])/(60|50|40|[+=-])$")


# --------------------------------------------------------------------------- helpers


def _hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    raw = path.read_bytes()
    assert b"\r" not in raw, f"{path.name}: line endings must be \\n"
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        rows = list(reader)
        return list(reader.fieldnames or []), rows


def _results(folder: Path) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for p in sorted(folder.glob("results-*.csv")):
        header, file_rows = _read(p)
        assert tuple(header) == RESULT_HEADER
        for r in file_rows:
            r["_file"] = p.name
        rows.extend(file_rows)
    return rows


def _movements(folder: Path) -> dict[tuple[str, str], str]:
    _, events = _read(folder / "events.csv")
    return {(e["event_id"], e["session"]): e["movement"] for e in events}


@pytest.fixture(scope="module")
def inbox(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GenerateSummary]:
    out = tmp_path_factory.mktemp("inbox")
    return out, generate_inbox(out, other_forms=False)


@pytest.fixture(scope="module")
def big_inbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("big")
    generate_inbox(
        out, sessions=24, clubs=4, seed=7, start_date=date(2027, 1, 4), other_forms=False
    )
    return out


# --------------------------------------------------------------------------- determinism


def test_same_seed_gives_identical_files(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate_inbox(a, sessions=5, clubs=2, seed=11, other_forms=False)
    generate_inbox(b, sessions=5, clubs=2, seed=11, other_forms=False)
    generate_inbox(c, sessions=5, clubs=2, seed=12, other_forms=False)
    assert _hashes(a) == _hashes(b)
    ha, hc = _hashes(a), _hashes(c)
    assert {"rulings.csv", "appeals.csv"} <= ha.keys()
    assert ha.keys() == hc.keys()
    assert ha != hc
    assert ha["events.csv"] != hc["events.csv"] or any(
        ha[k] != hc[k] for k in ha if k.startswith("results-")
    )


def test_frame_is_deterministic() -> None:
    assert generate_results_frame(3000, seed=4).equals(generate_results_frame(3000, seed=4))
    assert not generate_results_frame(3000, seed=4).equals(generate_results_frame(3000, seed=5))


# --------------------------------------------------------------------------- files


def test_files_and_summary(inbox: tuple[Path, GenerateSummary]) -> None:
    out, summary = inbox
    names = sorted(p.name for p in out.iterdir())
    assert "events.csv" in names and "contestants.csv" in names
    result_files = [n for n in names if n.startswith("results-")]
    assert all(re.fullmatch(r"results-club\d+-\d{4}-\d{2}-\d{2}\.csv", n) for n in result_files)
    assert summary.files == len(names)
    header, events = _read(out / "events.csv")
    assert tuple(header) == EVENT_HEADER
    assert summary.sessions == len(events) == 6
    header, contestants = _read(out / "contestants.csv")
    assert tuple(header) == CONTESTANT_HEADER
    assert summary.contestants == len(contestants)
    assert summary.results == len(_results(out))
    header, rulings = _read(out / "rulings.csv")
    assert tuple(header) == RULING_HEADER == RULING_COLUMNS[2:]
    assert summary.rulings == len(rulings)
    header, appeals = _read(out / "appeals.csv")
    assert tuple(header) == APPEAL_HEADER == APPEAL_COLUMNS[2:]
    assert summary.appeals == len(appeals)
    assert "published_at" in EVENT_HEADER
    assert EVENT_HEADER[-5:] == ("boards_per_match", "vp_scale", "stage", "club", "level")
    for e in events:
        # the audit's controls: the club's name; a two-session event is a congress
        assert e["club"] in generate.CLUB_NAMES
        two = sum(x["event_id"] == e["event_id"] for x in events) == 2
        assert e["level"] == ("congress" if two else "club")
        # official scores made available the evening of the session, 22:40-22:55
        published = parse_time(e["published_at"])
        assert published is not None and published.date().isoformat() == e["date"]
        assert (22, 40) <= (published.hour, published.minute) <= (22, 55)
        assert e["form"] == "pairs" and e["scoring"] == "matchpoints" and e["laws"] == "2017"
        assert e["movement"] in ("howell", "mitchell")
        assert e["profile"] in ("wbf", "ebu", "acbl")
        assert e["correction_minutes"] == "30"
        assert e["director"].startswith("TD ")
        assert e["event_id"].startswith("CLUB")
        date.fromisoformat(e["date"])


@pytest.mark.parametrize("seed", [2026, 1, 99])
def test_every_result_is_legal(tmp_path: Path, seed: int) -> None:
    generate_inbox(tmp_path, sessions=8, clubs=3, seed=seed, other_forms=False)
    movements = _movements(tmp_path)
    rows = _results(tmp_path)
    assert rows
    played: dict[tuple[str, str, str], set[tuple[str, str, str]]] = defaultdict(set)
    meetings: dict[tuple[str, str, str], dict[tuple[str, str], tuple[str, str]]] = defaultdict(dict)
    for r in rows:
        key = (r["event_id"], r["session"], r["section"])
        movement = movements[(r["event_id"], r["session"])]
        board = int(r["board"])
        assert board >= 1
        if r["contract"]:
            c = parse_contract(r["contract"])
            if c is None:
                assert r["declarer"] == "" and r["tricks"] == "" and r["score"] in ("", "0")
            else:
                assert r["declarer"] in SEATS
                tricks = int(r["tricks"])
                assert 0 <= tricks <= 13
                if r["score"]:
                    assert int(r["score"]) == ns_score(c, r["declarer"], tricks, board), r
        else:
            assert r["declarer"] == "" and r["tricks"] == ""
            assert r["score"] == "NP" or ARTIFICIAL_RE.match(r["score"]), r
        ns, ew = r["ns_pair"], r["ew_pair"]
        # A pair is identified by its number in a Howell, by number and direction in a Mitchell.
        ns_id, ew_id = (("", ns), ("", ew)) if movement == "howell" else (("NS", ns), ("EW", ew))
        assert ns_id != ew_id
        for pair in (ns_id, ew_id):
            assert (*pair, r["board"]) not in played[key], f"{pair} plays board twice: {r}"
            played[key].add((*pair, r["board"]))
        # Every row of a (round, table) shows the same meeting; each meeting happens once.
        rt = (r["round"], r["table"])
        meeting = (ns, ew)
        assert meetings[key].setdefault(rt, meeting) == meeting
    for key, by_round_table in meetings.items():
        movement = movements[key[:2]]
        norm = [frozenset(m) if movement == "howell" else m for m in by_round_table.values()]
        assert len(norm) == len(set(norm)), f"{key}: a meeting repeats"
        # Within a round each pair sits at one table only.
        per_round: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for (rnd, _), (ns, ew) in by_round_table.items():
            if movement == "howell":
                per_round[rnd] += [("", ns), ("", ew)]
            else:
                per_round[rnd] += [("NS", ns), ("EW", ew)]
        for rnd, pairs in per_round.items():
            assert len(pairs) == len(set(pairs)), f"{key} round {rnd}: a pair sits twice"


def test_contestants_cover_the_pairs(inbox: tuple[Path, GenerateSummary]) -> None:
    out, _ = inbox
    movements = _movements(out)
    _, contestants = _read(out / "contestants.csv")
    known = {(c["event_id"], c["section"], c["direction"], c["contestant"]) for c in contestants}
    assert len(known) == len(contestants)
    for c in contestants:
        ids = c["player_ids"].split(";")
        assert len(ids) == 2 and all(re.fullmatch(r"X\d{6}", i) for i in ids)
        assert len(c["names"].split(" & ")) == 2
        movement = next(m for (e, _), m in movements.items() if e == c["event_id"])
        assert c["direction"] in (("",) if movement == "howell" else ("NS", "EW"))
    for r in _results(out):
        # a contestant of the row's section, or one listed for every section (empty)
        def listed(direction: str, pair: str, r: dict = r) -> bool:
            return any((r["event_id"], s, direction, pair) in known for s in (r["section"], ""))

        if movements[(r["event_id"], r["session"])] == "howell":
            assert listed("", r["ns_pair"]) and listed("", r["ew_pair"])
        else:
            assert listed("NS", r["ns_pair"]) and listed("EW", r["ew_pair"])


@pytest.mark.parametrize("which", ["default", "big"])
def test_realistic_features(
    which: str, inbox: tuple[Path, GenerateSummary], big_inbox: Path
) -> None:
    out = inbox[0] if which == "default" else big_inbox
    rows = _results(out)
    _, events = _read(out / "events.csv")
    # Both movements, a multi-session event, several sessions on one date.
    assert {e["movement"] for e in events} == {"howell", "mitchell"}
    per_event = Counter(e["event_id"] for e in events)
    assert max(per_event.values()) >= 2
    multi = [ev for ev, n in per_event.items() if n >= 2]
    assert {(r["event_id"], r["session"]) for r in rows if r["event_id"] in multi} >= {
        (multi[0], "1"),
        (multi[0], "2"),
    }
    assert max(Counter(e["date"] for e in events).values()) >= 2
    # Ties: some board has at least two equal NS scores.
    scores: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for r in rows:
        if r["score"].lstrip("-").isdigit():
            scores[(r["event_id"], r["session"], r["section"], r["board"])].append(int(r["score"]))
    assert any(len(v) != len(set(v)) for v in scores.values())
    # Missing results: some board has fewer results than the fullest board of its session.
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for r in rows:
        counts[(r["event_id"], r["session"])][r["board"]] += 1
    assert any(min(c.values()) < max(c.values()) for c in counts.values())
    # Not played and artificial scores.
    assert any(r["score"] == "NP" for r in rows)
    assert any(ARTIFICIAL_RE.match(r["score"]) for r in rows)


def test_big_inbox_rates_and_optional_score(big_inbox: Path) -> None:
    rows = _results(big_inbox)
    n = len(rows)
    assert n > 2000
    np_rate = sum(r["score"] == "NP" for r in rows) / n
    art_rate = sum(bool(ARTIFICIAL_RE.match(r["score"])) for r in rows) / n
    assert 0.0005 < np_rate < 0.02
    assert 0.0005 < art_rate < 0.02
    assert any(r["contract"] == "PASS" for r in rows)
    assert any(r["contract"].endswith("X") for r in rows)
    # Some files leave the score of played boards empty, most state it.
    by_file: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        by_file[r["_file"]].append(r)
    stated = [any(r["contract"] and r["score"] for r in fr) for fr in by_file.values()]
    assert any(stated) and not all(stated)
    assert sum(stated) > len(stated) / 2
    # Profiles: mostly WBF, not only.
    _, events = _read(big_inbox / "events.csv")
    profiles = Counter(e["profile"] for e in events)
    assert profiles["wbf"] > len(events) / 2 and len(profiles) > 1


# --------------------------------------------------------------------------- directors' logs

_LAW = re.compile(r"^\d{1,2}[A-H]?\d?(\([a-e]\))?$")
_CONTRACT_RESULT = re.compile(r"^(PASS|[1-7](NT|C|D|H|S)X{0,2} [NESW] (=|[+-]\d{1,2}))$")
_CHANGING = ("assigned", "weighted", "artificial", "director_error")
_LATE = date(2027, 12, 31)  # "today" for reading the inboxes: every session is in the past


def _logs(folder: Path) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    return _read(folder / "rulings.csv")[1], _read(folder / "appeals.csv")[1]


def _checked(folder: Path) -> tuple[pl.DataFrame, RulingsResult]:
    """Read ``folder`` as the pipeline does, validate each date's results, then its rulings
    and appeals against them: (rows rejected while reading, every date's rulings result)."""
    snap = scan(folder, today=_LATE)
    parts = []
    for day in snap.dates():
        validated, rejected = validate_results(snap.results_for(day), snap.events)
        assert rejected.height == 0, rejected
        on_day = pl.col("session_date") == day
        parts.append(
            validate_rulings(
                snap.rulings.filter(on_day), snap.appeals.filter(on_day), validated, snap.events
            )
        )
    return snap.rejected, RulingsResult(
        rulings=pl.concat([p.rulings for p in parts]),
        appeals=pl.concat([p.appeals for p in parts]),
        rejected=pl.concat([p.rejected for p in parts]),
    )


def _components(text: str) -> list[str]:
    """The contract results of a side's result (one, or the weighted components)."""
    return [re.sub(r"^\d+%\s*", "", p.strip()) for p in text.split(";")]


def _calls(rulings: list[dict[str, str]]) -> list[dict[str, str]]:
    """One ruling per call to the director: a fouled board is one call, corrections none."""
    seen, out = set(), []
    for r in rulings:
        if r["kind"] == "score_correction":
            continue
        key = (r["event_id"], r["session"], r["board"]) if r["kind"] == "fouled_board" else None
        if key is None or key not in seen:
            out.append(r)
            seen.add(key)
    return out


@pytest.mark.parametrize("which", ["default", "big"])
def test_every_ruling_and_appeal_is_accepted(
    which: str, inbox: tuple[Path, GenerateSummary], big_inbox: Path
) -> None:
    out = inbox[0] if which == "default" else big_inbox
    read_rejected, checked = _checked(out)
    assert read_rejected.height == 0, read_rejected
    assert checked.rejected.height == 0, checked.rejected.to_dicts()
    rulings, appeals = _logs(out)
    assert checked.rulings.height == len(rulings) > 0
    assert checked.appeals.height == len(appeals) > 0


@pytest.mark.parametrize("which", ["default", "big"])
def test_rulings_are_about_real_tables_and_legal(
    which: str, inbox: tuple[Path, GenerateSummary], big_inbox: Path
) -> None:
    out = inbox[0] if which == "default" else big_inbox
    rulings, appeals = _logs(out)
    _, events = _read(out / "events.csv")
    session = {(e["event_id"], e["session"]): e for e in events}
    tables = {
        (r["event_id"], r["session"], r["section"], r["board"], r["ns_pair"], r["ew_pair"]): r
        for r in _results(out)
    }
    played = defaultdict(set)  # contracts played on each board
    for r in tables.values():
        played[(r["event_id"], r["session"], r["board"])].add(r["contract"])
    ids = [r["ruling_id"] for r in rulings]
    assert ids == [f"R{i:04d}" for i in range(1, len(ids) + 1)]
    directors: dict[str, set[str]] = defaultdict(set)
    fouled: Counter[tuple[str, str, str]] = Counter()
    for r in rulings:
        ev = session[(r["event_id"], r["session"])]
        kind, board = r["kind"], r["board"]
        assert kind in KINDS and r["section"] in ("A", "B")
        assert r["laws"] and all(_LAW.match(x) for x in r["laws"].split(";")), r
        assert r["offending"] in ("NS", "EW", "both", "none")
        directors[r["event_id"]].add(r["director"])
        called, ruled = parse_time(r["called_at"]), parse_time(r["ruled_at"])
        published = parse_time(ev["published_at"])
        assert called is not None and ruled is not None and published is not None
        assert called < ruled
        if kind == "score_correction":  # Law 79C: after the official scores are out
            assert called > published
        else:  # during the session, in the evening
            assert called.date().isoformat() == ev["date"] and called.hour >= 18
            assert ruled < published
        if kind in ("procedural_penalty", "disciplinary_penalty"):
            assert board == r["ns_pair"] == r["ew_pair"] == r["ns_result"] == r["ew_result"] == ""
            parse_penalty(r["penalty"], "25%")
            pair = r["penalized"]
            if ev["movement"] == "mitchell":
                assert pair[-2:] in ("NS", "EW") or r["offending"] in ("NS", "EW")
                pair = pair.removesuffix("NS").removesuffix("EW")
            assert any(
                pair in (t["ns_pair"], t["ew_pair"])
                for k, t in tables.items()
                if k[:2] == (r["event_id"], r["session"])
            )
            continue
        # a ruling about a board names a table that played it, round and table as played
        t = tables[(r["event_id"], r["session"], r["section"], board, r["ns_pair"], r["ew_pair"])]
        assert t["contract"] not in ("", "PASS") and (r["round"], r["table"]) == (
            t["round"],
            t["table"],
        )
        sides = [x for x in (r["ns_result"], r["ew_result"]) if x]
        parsed = [parse_side_result(x, int(board)) for x in sides]
        if kind in ("score_stands", "fouled_board"):
            assert not sides
        if kind == "fouled_board":
            assert r["board_version"] == "B" and r["laws"] == "87A"
            fouled[(r["event_id"], r["session"], board)] += 1
        if kind == "artificial":
            assert len(parsed) == 2 and all(isinstance(p, Artificial) for p in parsed)
        if kind == "weighted":
            assert len(parsed) == 1 and 2 <= len(parsed[0]) <= 3
        if kind == "director_error":
            assert r["laws"] == "82C" and r["offending"] == "none" and len(parsed) == 2
            if not isinstance(parsed[0], Artificial):  # each side its favourable result
                assert parsed[0][0].ns_score > parsed[1][0].ns_score
        if kind == "score_correction":  # the table's contract, corrected
            assert r["laws"] in ("79C1", "79C2") and len(sides) == 1
            assert sides[0].split()[0].rstrip("X") == t["contract"].rstrip("X")
            assert parsed[0][0].ns_score != ns_score(
                parse_contract(t["contract"]), t["declarer"], int(t["tricks"]), int(board)
            )
        elif kind in ("assigned", "weighted", "director_error"):
            for text in sides:
                if not text.startswith("A"):
                    for part in _components(text):  # close to what the board saw
                        assert _CONTRACT_RESULT.match(part), part
                        assert part.split()[0] in played[(r["event_id"], r["session"], board)]
    assert all(n in (2, 3) for n in fouled.values()), fouled
    # the event's director and the club's assistant
    assert all(len(d) <= 2 for d in directors.values())
    assert any(len(d) == 2 for d in directors.values())
    # appeals: about any ruling (Law 92A), decided after they were lodged
    by_id = {r["ruling_id"]: r for r in rulings}
    assert [a["appeal_id"] for a in appeals] == [f"A{i:03d}" for i in range(1, len(appeals) + 1)]
    for a in appeals:
        ruling = by_id[a["ruling_id"]]
        assert a["lodged_by"] in ("NS", "EW")
        assert a["heard_by"] in ("committee", "panel", "td_in_charge")
        assert parse_time(a["lodged_at"]) > parse_time(ruling["ruled_at"])
        if a["outcome"]:
            assert parse_time(a["decided_at"]) > parse_time(a["lodged_at"])
        for text in (a["ns_result"], a["ew_result"]):
            if text:
                assert _CONTRACT_RESULT.match(text)
                parse_side_result(text, int(ruling["board"]))


def test_default_inbox_shows_every_feature(inbox: tuple[Path, GenerateSummary]) -> None:
    out, _ = inbox
    rulings, appeals = _logs(out)
    _, events = _read(out / "events.csv")
    published = {(e["event_id"], e["session"]): parse_time(e["published_at"]) for e in events}
    assert 20 <= len(rulings) <= 60  # a few dozen
    kinds = Counter(r["kind"] for r in rulings)
    assert len(kinds) >= 7
    assert kinds["weighted"] and kinds["artificial"] and kinds["procedural_penalty"]
    assert any(r["kind"] == "assigned" and r["ew_result"] for r in rulings)  # split
    boards = Counter(
        (r["event_id"], r["session"], r["board"]) for r in rulings if r["kind"] == "fouled_board"
    )
    assert boards and max(boards.values()) >= 2
    assert any(
        r["kind"] == "score_correction"
        and (parse_time(r["ruled_at"]) - published[(r["event_id"], r["session"])]).total_seconds()
        <= 30 * 60
        for r in rulings
    )
    assert any(a["outcome"] == "changed" for a in appeals)
    by_id = {r["ruling_id"]: r for r in rulings}
    # Law 93: a ruling that let the score stand (or a fouled board) changed on appeal
    assert any(
        a["outcome"] == "changed"
        and by_id[a["ruling_id"]]["kind"] in ("score_stands", "fouled_board")
        for a in appeals
    )
    # a penalty reduced on appeal; an appeal lodged after the period (Law 92B)
    assert any(a["outcome"] == "changed" and a["penalty"] for a in appeals)
    lodged_late = [
        a
        for a in appeals
        if parse_time(a["lodged_at"])
        > max(
            published[(by_id[a["ruling_id"]]["event_id"], by_id[a["ruling_id"]]["session"])],
            parse_time(by_id[a["ruling_id"]]["ruled_at"]),
        )
        + timedelta(minutes=30)
    ]
    assert lodged_late
    # a Mitchell in two sections, and a penalty naming a pair of the second one
    assert {r["section"] for r in _results(out)} >= {"A", "B"}
    assert any(r["kind"] == "procedural_penalty" and r["section"] == "B" for r in rulings)


def test_big_inbox_ruling_rates(big_inbox: Path) -> None:
    rulings, appeals = _logs(big_inbox)
    tables = sum(1 for r in _results(big_inbox) if r["contract"] not in ("", "PASS"))
    calls = _calls(rulings)
    assert 0.015 < len(calls) / tables < 0.05
    share = Counter(r["kind"] for r in calls)
    n = len(calls)
    assert 0.4 < share["score_stands"] / n < 0.72
    assert 0.08 < share["assigned"] / n < 0.3
    assert 0.02 < share["weighted"] / n < 0.16
    assert 0.02 < share["artificial"] / n < 0.14
    assert 0.02 < share["procedural_penalty"] / n < 0.12
    assert share["disciplinary_penalty"] / n < 0.05 and share["director_error"] / n < 0.06
    # every kind of a pairs event (imp_award, Law 86B1, belongs to team events)
    assert set(KINDS) - {"imp_award"} == {r["kind"] for r in rulings}
    corrections = [r for r in rulings if r["kind"] == "score_correction"]
    assert 0.001 < len(corrections) / tables < 0.012
    assistants = [r for r in calls if r["director"] in generate.ASSISTANT_DIRECTORS]
    assert 0.15 < len(assistants) / n < 0.5
    assert {a["ruling_id"] for a in appeals} <= {r["ruling_id"] for r in rulings}
    # a correction made the next day without the TO's approval does not apply (Law 79C2)
    late = [r for r in corrections if r["approved"] == "false"]
    assert late
    _, checked = _checked(big_inbox)
    applies = dict(zip(checked.rulings["ruling_id"], checked.rulings["applies"], strict=True))
    assert all(applies[r["ruling_id"]] is False for r in late)
    assert all(applies[r["ruling_id"]] for r in corrections if r["approved"] != "false")


def test_appeal_outcomes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # appeals are rare at club level: raise the rate to see every outcome
    monkeypatch.setattr(generate, "APPEAL_RATE", 0.6)
    generate_inbox(tmp_path, sessions=12, clubs=3, seed=5, other_forms=False)
    rulings, appeals = _logs(tmp_path)
    assert len(appeals) >= 10
    _, checked = _checked(tmp_path)
    assert checked.rejected.height == 0, checked.rejected.to_dicts()
    assert checked.appeals.height == len(appeals)
    by_id = {r["ruling_id"]: r for r in rulings}
    outcomes = Counter(a["outcome"] for a in appeals)
    assert outcomes["upheld"] and outcomes["changed"]
    latest = max(r["called_at"][:10] for r in rulings if r["kind"] != "score_correction")
    pending = [a for a in appeals if not a["outcome"]]
    assert 1 <= len(pending) <= 2
    assert all(by_id[a["ruling_id"]]["called_at"][:10] == latest for a in pending)
    for a in appeals:
        given = [x for x in (a["ns_result"], a["ew_result"]) if x]
        if a["outcome"] == "changed_one_side":
            assert len(given) == 1
        elif a["outcome"] == "changed" and by_id[a["ruling_id"]]["kind"].endswith("_penalty"):
            assert not given  # a penalty reduced (a["penalty"]) or withdrawn
        elif a["outcome"] == "changed":
            assert given
        else:
            assert not given and not a["penalty"]
        if a["without_merit"] == "true":
            assert a["outcome"] == "upheld" and a["deposit_retained"] == "true"
        assert (a["decided_at"] == "") == (a["outcome"] == "")


@pytest.mark.slow
def test_default_inbox_runs_clean(
    inbox: tuple[Path, GenerateSummary], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    from pipelines.runner import run_inbox

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    db = tmp_path / "w.duckdb"
    report = run_inbox(inbox[0], db)
    assert report.failed_checks == []
    with duckdb.connect(str(db), read_only=True) as c:
        assert c.execute("SELECT count(*) FROM rejected_inputs").fetchone()[0] == 0
        assert c.execute("SELECT count(*) FROM adjustments").fetchone()[0] > 0
        # the appeal and the corrections made new versions of the standings
        assert c.execute("SELECT max(version) FROM standings").fetchone()[0] >= 2


# --------------------------------------------------------------------------- movements


@pytest.mark.parametrize("pairs", [4, 8, 10, 12, 14, 16])
def test_howell_schedule_meets_each_pair_once(pairs: int) -> None:
    sched = howell_schedule(pairs, pairs - 1)
    meetings = [frozenset((ns, ew)) for _, _, ns, ew in sched]
    assert len(meetings) == len(set(meetings)) == pairs * (pairs - 1) // 2
    ns_counts = Counter(ns for *_, ns, _ in sched)
    assert all(ns_counts[p] >= (pairs - 1) // 2 - 1 for p in range(1, pairs + 1))


@pytest.mark.parametrize("tables", range(3, 14))
def test_mitchell_schedule(tables: int) -> None:
    rounds = mitchell_max_rounds(tables)
    sched = mitchell_schedule(tables, rounds)
    assert len({(ns, ew) for _, _, ns, ew, _ in sched}) == len(sched)
    assert len({(ew, s) for _, _, _, ew, s in sched}) == len(sched)
    assert len({(ns, s) for _, _, ns, _, s in sched}) == len(sched)
    assert len({(r, ew) for r, _, _, ew, _ in sched}) == len(sched)
    with pytest.raises(ValueError):
        mitchell_schedule(tables, rounds + 1)


# --------------------------------------------------------------------------- frame


def test_results_frame_is_valid() -> None:
    df = generate_results_frame(10_000, seed=3)
    assert df.height == 10_000
    assert df.schema == pl.Schema(
        {
            "event_id": pl.Utf8,
            "session": pl.Int32,
            "section": pl.Utf8,
            "board": pl.Int32,
            "ns_pair": pl.Utf8,
            "ew_pair": pl.Utf8,
            "contract": pl.Utf8,
            "declarer": pl.Utf8,
            "tricks": pl.Int8,
            "score": pl.Utf8,
        }
    )
    keys = ["event_id", "session", "section", "board"]
    groups = df.group_by(keys).agg(
        pl.len().alias("n"),
        pl.col("ns_pair").n_unique().alias("ns"),
        pl.col("ew_pair").n_unique().alias("ew"),
        (pl.col("score").value_counts().struct.field("count") >= 2).any().alias("tie"),
    )
    assert (groups["n"] == groups["ns"]).all() and (groups["n"] == groups["ew"]).all()
    assert 8 <= groups["n"].max() <= 12
    assert groups["tie"].mean() > 0.8
    # Some board has fewer results than the fullest (dropped rows).
    sizes = groups.group_by(keys[:3]).agg((pl.col("n").min() < pl.col("n").max()).alias("short"))
    assert sizes["short"].any()
    # Contract column is canonical, with declarer and tricks exactly when played.
    canonical = pl.col("contract").str.contains(r"^([1-7](NT|C|D|H|S)(XX|X)?|PASS)$")
    played = pl.col("contract").is_not_null() & (pl.col("contract") != "PASS")
    bad = df.filter(
        (pl.col("contract").is_not_null() & ~canonical)
        | (played & (pl.col("declarer").is_null() | ~pl.col("declarer").is_in(list(SEATS))))
        | (played & ~pl.col("tricks").is_between(0, 13))
        | (~played & (pl.col("declarer").is_not_null() | pl.col("tricks").is_not_null()))
        | ((pl.col("contract") == "PASS") & (pl.col("score") != "0"))
        | (pl.col("contract").is_null() & ~pl.col("score").is_in(list(ARTIFICIAL_CODES)))
        | (played & ~pl.col("score").str.contains(r"^-?\d+$"))
    )
    assert bad.height == 0, bad
    art = df["contract"].is_null().mean()
    assert 0.001 < art < 0.015
    # The vectorised score agrees with the scalar Law 77 rule.
    sample = df.filter(played).sample(2000, seed=1)
    for c, d, t, b, s in sample.select(
        "contract", "declarer", "tricks", "board", "score"
    ).iter_rows():
        assert int(s) == ns_score(parse_contract(c), d, t, b)


def test_results_frame_small_and_empty() -> None:
    assert generate_results_frame(0).height == 0
    assert generate_results_frame(1).height == 1
    with pytest.raises(ValueError):
        generate_results_frame(-1)
