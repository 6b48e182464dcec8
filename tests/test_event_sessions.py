"""Event totals over the sessions of an event at matchpoints: a contestant that missed a
whole session scores nothing there against that session's top (``missed_sessions``)."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.inbox import scan
from pipelines.scoring.day import score_day

HEADER = (
    "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
)
# Session 1, pairs 1-4, two boards each played twice (a percentage per board: the better
# of the two NS scores 100 %, the other 0 %; EW the other way round):
#   board 1: 1-2 +450, 3-4 +420 -> 1 NS 100, 2 EW 0, 3 NS 0, 4 EW 100
#   board 2: 1-4 -140, 3-2 -110 -> 1 NS 0, 4 EW 100, 3 NS 100, 2 EW 0
#   session 1: pair 1 50 %, pair 2 0 %, pair 3 50 %, pair 4 100 %.
# Session 2, pair 4 absent, pair 5 in its place:
#   board 1: 1-2 +420, 3-5 +450 -> 1 NS 0, 2 EW 100, 3 NS 100, 5 EW 0
#   board 2: 1-5 -110, 3-2 -140 -> 1 NS 100, 5 EW 0, 3 NS 0, 2 EW 100
#   session 2: pair 1 50 %, pair 2 100 %, pair 3 50 %, pair 5 0 %.
RESULTS = HEADER + (
    "E,1,A,1,1,1,1,2,4S,N,11,450\n"
    "E,1,A,1,2,1,3,4,4S,N,10,420\n"
    "E,1,A,2,1,2,1,4,2H,E,9,-140\n"
    "E,1,A,2,2,2,3,2,2H,E,8,-110\n"
    "E,2,A,1,1,1,1,2,4S,N,10,420\n"
    "E,2,A,1,2,1,3,5,4S,N,11,450\n"
    "E,2,A,2,1,2,1,5,2H,E,8,-110\n"
    "E,2,A,2,2,2,3,2,2H,E,9,-140\n"
)
EVENTS = "event_id,session,date,movement\nE,1,2026-11-20,howell\nE,2,2026-11-20,howell\n"


def test_a_pair_that_missed_a_session_is_not_ranked_on_the_one_it_played(tmp_path):
    """Pair 4 played session 1 only (100 %): over the event's two sessions it has half the
    event's top, 50 %, level with pairs 1, 2 and 3 (each 100 % of one session's top over
    two); pair 5, which played session 2 only and scored nothing, 0 %. (Pair 4 was first
    on its one session's 100 %.)"""
    (tmp_path / "results-2026-11-20.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(EVENTS)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 12, 1)
    )
    assert day.rejected.height == 0
    st = day.dated.standings
    session = {
        (r["session"], r["contestant"]): Fraction(r["score_num"], r["score_den"])
        / Fraction(r["top_num"], r["top_den"])
        for r in st.filter(pl.col("scope") == "session").to_dicts()
    }
    assert session[(1, "4")] == 1 and session[(2, "5")] == 0
    events, _ = day.event_versions()
    ev = {r["contestant"]: r for r in events.filter(pl.col("status") != "superseded").to_dicts()}
    share = {
        c: Fraction(r["score_num"], r["score_den"]) / Fraction(r["top_num"], r["top_den"])
        for c, r in ev.items()
    }
    assert share == {
        "1": Fraction(1, 2),
        "2": Fraction(1, 2),
        "3": Fraction(1, 2),
        "4": Fraction(1, 2),
        "5": Fraction(0),
    }
    assert {c: r["rank"] for c, r in ev.items()} == {"1": 1, "2": 1, "3": 1, "4": 1, "5": 5}
    assert ev["4"]["boards"] == 2 and ev["5"]["boards"] == 2  # the boards each played


#: Results whose score does not depend on the vulnerability: (contract, declarer, tricks,
#: NS score).
PARTSCORES = [
    ("2S", "N", 8, 110),
    ("1NT", "S", 7, 90),
    ("1S", "N", 7, 80),
    ("2H", "E", 8, -110),
    ("3C", "W", 9, -110),
    ("2D", "E", 8, -90),
]


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.permutations(["1", "2", "3", "4", "5", "6"]),
            st.lists(st.integers(0, len(PARTSCORES) - 1), min_size=8, max_size=8),
        ),
        min_size=2,
        max_size=3,
    )
)
def test_event_totals_over_every_session_of_the_event(tmp_path_factory, sessions):
    """Random events of two or three Howell sessions, each of four of six pairs (so pairs miss
    sessions): a pair's event matchpoints are the sum of its sessions', and its event top the
    sum, over every session of the event, of its own top where it played and of the session's
    full top where it did not."""
    tmp_path = tmp_path_factory.mktemp("ev")
    lines = []
    for n, (pairs, picks) in enumerate(sessions, start=1):
        p = pairs[:4]
        seats = [(1, 1, p[0], p[1]), (1, 2, p[2], p[3]), (2, 1, p[0], p[3]), (2, 2, p[2], p[1])]
        k = 0
        for rnd, table, ns, ew in seats:
            for board in (1, 2) if rnd == 1 else (3, 4):
                contract, declarer, tricks, score = PARTSCORES[picks[k]]
                k += 1
                lines.append(
                    f"E,{n},A,{rnd},{table},{board},{ns},{ew},{contract},{declarer},{tricks},{score}"
                )
    (tmp_path / "results-2026-11-20.csv").write_text(HEADER + "\n".join(lines) + "\n")
    (tmp_path / "events.csv").write_text(
        "event_id,session,date,movement\n"
        + "".join(f"E,{n},2026-11-20,howell\n" for n in range(1, len(sessions) + 1))
    )
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 12, 1)
    )
    assert day.rejected.height == 0
    rows = day.dated.standings.filter(pl.col("scope") == "session").to_dicts()
    own = {(r["session"], r["contestant"]): r for r in rows}
    full = {}
    for r in rows:
        top = Fraction(r["top_num"], r["top_den"])
        full[r["session"]] = max(full.get(r["session"], top), top)
    events, _ = day.event_versions()
    newest = events.filter(pl.col("status") != "superseded").to_dicts()
    assert {r["contestant"] for r in newest} == {c for _, c in own}
    for r in newest:
        c = r["contestant"]
        score = sum(
            (Fraction(x["score_num"], x["score_den"]) for (s, d), x in own.items() if d == c),
            Fraction(0),
        )
        top = sum(
            (
                Fraction(own[(s, c)]["top_num"], own[(s, c)]["top_den"])
                if (s, c) in own
                else full[s]
                for s in full
            ),
            Fraction(0),
        )
        assert Fraction(r["score_num"], r["score_den"]) == score, c
        assert Fraction(r["top_num"], r["top_den"]) == top, c


def test_a_pair_that_moved_section_is_not_taken_for_one_that_missed_a_session(tmp_path):
    """Pairs numbered across the sections (1-4 in A, 11-14 in B); pairs 3 and 13 change
    sections for session 2. Pair 3 played both sessions: it is not given a missed session in
    either section (its two rows keep the tops of the session each played), while the event
    still counts pairs by section (two rows for it)."""
    seating = {
        1: {"A": ["1", "2", "3", "4"], "B": ["11", "12", "13", "14"]},
        2: {"A": ["1", "2", "13", "4"], "B": ["11", "12", "3", "14"]},
    }
    lines = []
    for n, sections in seating.items():
        for sec, p in sections.items():
            seats = [(1, 1, p[0], p[1]), (1, 2, p[2], p[3]), (2, 1, p[0], p[3]), (2, 2, p[2], p[1])]
            k = 0
            for rnd, table, ns, ew in seats:
                for board in (1, 2) if rnd == 1 else (3, 4):
                    contract, declarer, tricks, score = PARTSCORES[(k + n) % len(PARTSCORES)]
                    k += 1
                    lines.append(
                        f"E,{n},{sec},{rnd},{table},{board},{ns},{ew},"
                        f"{contract},{declarer},{tricks},{score}"
                    )
    (tmp_path / "results-2026-11-20.csv").write_text(HEADER + "\n".join(lines) + "\n")
    (tmp_path / "events.csv").write_text(
        "event_id,session,date,movement\nE,1,2026-11-20,howell\nE,2,2026-11-20,howell\n"
    )
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 12, 1)
    )
    assert day.rejected.height == 0
    own = {
        (r["section"], r["contestant"]): r
        for r in day.dated.standings.filter(pl.col("scope") == "session").to_dicts()
    }
    events, _ = day.event_versions()
    ev = {
        (r["section"], r["contestant"]): r
        for r in events.filter(pl.col("status") != "superseded").to_dicts()
    }
    for key in (("A", "3"), ("B", "3"), ("A", "13"), ("B", "13")):
        assert (ev[key]["top_num"], ev[key]["top_den"]) == (
            own[key]["top_num"],
            own[key]["top_den"],
        ), key
    # a pair that stayed: both sessions' tops
    one = Fraction(ev[("A", "1")]["top_num"], ev[("A", "1")]["top_den"])
    assert one == 2 * Fraction(own[("A", "1")]["top_num"], own[("A", "1")]["top_den"])


def _event_rows(standings: pl.DataFrame) -> list[dict]:
    return standings.filter(
        (pl.col("scope") == "event") & (pl.col("status") != "superseded")
    ).to_dicts()


def test_an_event_with_a_stated_session_without_results_is_not_final(tmp_path):
    """events.csv states a third session of event E (its results not sent) and a fourth
    (dated in the future: not played yet): the event is ranked on the two sessions it has,
    and its standings stay provisional, with no time at which they become final — they
    wait for those sessions' results; the scorer is warned of the third. Its two sessions
    are final on their own (Laws 79C, 92B: their periods are over). Without those rows,
    the event is final and nothing is warned."""
    (tmp_path / "results-2026-11-20.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(EVENTS + "E,3,2026-11-21,howell\nE,4,2999-01-04,howell\n")
    snap = scan(tmp_path)
    # the scorer is told of session 3 (dated before today), not of session 4 (to be played)
    (warned,) = snap.warnings.filter(pl.col("field") == "session").to_dicts()
    assert (warned["file"], warned["location"], warned["raw"]) == ("events.csv", "line 4", "3")
    assert warned["reason"].startswith("session 3 of event E (2026-11-21) is stated, but no")
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 12, 1)
    )
    sessions = day.dated.standings.filter(pl.col("scope") == "session")
    assert set(sessions["status"]) == {"final"}
    events, _ = day.event_versions()
    rows = _event_rows(events)
    assert {r["status"] for r in rows} == {"provisional"}
    assert {r["final_at"] for r in rows} == {None}
    assert len(rows) == 5 and {r["boards"] for r in rows} <= {2, 4}  # sessions 1 and 2
    (tmp_path / "events.csv").write_text(EVENTS)
    snap = scan(tmp_path)
    day = score_day(
        snap.results, snap.rulings, snap.appeals, snap.events, now=datetime(2026, 12, 1)
    )
    events, _ = day.event_versions()
    assert {r["status"] for r in _event_rows(events)} == {"final"}
    assert snap.warnings.filter(pl.col("field") == "session").height == 0


def test_a_run_keeps_an_event_waiting_for_a_stated_session_provisional(tmp_path, monkeypatch):
    """The same through ``traveller run``'s standings stage (the warehouse's event rows) and
    the event's page: provisional while events.csv states session 3 and no file has it;
    final once the row is withdrawn (the incremental run recomputes the event's date)."""
    import duckdb

    from pipelines.runner import run_inbox

    monkeypatch.setenv("TRAVELLER_NOW", "2026-12-01 12:00")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS)
    (inbox / "events.csv").write_text(EVENTS + "E,3,2026-11-21,howell\n")
    wh = tmp_path / "w.duckdb"

    def newest_event_rows() -> set[tuple[str, object]]:
        with duckdb.connect(str(wh), read_only=True) as conn:
            return set(
                conn.sql(
                    "SELECT status, final_at FROM standings WHERE scope = 'event' "
                    "AND status <> 'superseded'"
                ).fetchall()
            )

    page = tmp_path / "out" / "site" / "events" / "E" / "index.html"
    run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert newest_event_rows() == {("provisional", None)}
    assert "Provisional: a session of the event has no results yet" in page.read_text()
    (inbox / "events.csv").write_text(EVENTS)
    run_inbox(inbox, wh, publish_to=tmp_path / "out")
    assert {status for status, _ in newest_event_rows()} == {"final"}
    assert '<p class="status">Final</p>' in page.read_text()
