"""Tests of the synthetic data generator (:mod:`pipelines.generate`)."""

from __future__ import annotations

import csv
import hashlib
import re
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from pipelines.generate import (
    ARTIFICIAL_CODES,
    CONTESTANT_HEADER,
    EVENT_HEADER,
    RESULT_HEADER,
    GenerateSummary,
    generate_inbox,
    generate_results_frame,
    howell_schedule,
    mitchell_max_rounds,
    mitchell_schedule,
)
from pipelines.laws.contract import SEATS, ns_score, parse_contract

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
    return out, generate_inbox(out)


@pytest.fixture(scope="module")
def big_inbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("big")
    generate_inbox(out, sessions=24, clubs=4, seed=7, start_date=date(2027, 1, 4))
    return out


# --------------------------------------------------------------------------- determinism


def test_same_seed_gives_identical_files(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate_inbox(a, sessions=5, clubs=2, seed=11)
    generate_inbox(b, sessions=5, clubs=2, seed=11)
    generate_inbox(c, sessions=5, clubs=2, seed=12)
    assert _hashes(a) == _hashes(b)
    ha, hc = _hashes(a), _hashes(c)
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
    for e in events:
        assert e["form"] == "pairs" and e["scoring"] == "matchpoints" and e["laws"] == "2017"
        assert e["movement"] in ("howell", "mitchell")
        assert e["profile"] in ("wbf", "ebu", "acbl")
        assert e["correction_minutes"] == "30"
        assert e["director"].startswith("TD ")
        assert e["event_id"].startswith("CLUB")
        date.fromisoformat(e["date"])


@pytest.mark.parametrize("seed", [2026, 1, 99])
def test_every_result_is_legal(tmp_path: Path, seed: int) -> None:
    generate_inbox(tmp_path, sessions=8, clubs=3, seed=seed)
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
    known = {(c["event_id"], c["direction"], c["contestant"]) for c in contestants}
    assert len(known) == len(contestants)
    for c in contestants:
        ids = c["player_ids"].split(";")
        assert len(ids) == 2 and all(re.fullmatch(r"X\d{6}", i) for i in ids)
        assert len(c["names"].split(" & ")) == 2
        movement = next(m for (e, _), m in movements.items() if e == c["event_id"])
        assert c["direction"] in (("",) if movement == "howell" else ("NS", "EW"))
    for r in _results(out):
        if movements[(r["event_id"], r["session"])] == "howell":
            assert (r["event_id"], "", r["ns_pair"]) in known
            assert (r["event_id"], "", r["ew_pair"]) in known
        else:
            assert (r["event_id"], "NS", r["ns_pair"]) in known
            assert (r["event_id"], "EW", r["ew_pair"]) in known


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
