"""A session scored across the field (Law 78A: the organiser chooses the comparison field):
``compare = "field"`` in ``events.csv`` (or a profile's ``matchpoints.compare``) compares each
board over every section of the session, factors it to the field's count and ranks each
direction over all the sections, every contestant keeping its own section and number."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.formats.model import EVENT_COLUMNS, frame
from pipelines.scoring.events import resolve_events
from pipelines.scoring.reconcile import reconcile
from pipelines.scoring.versions import event_versions
from tests.laws_engine import result, ruling, run, session_events
from tests.realdata.scoring import score_inbox_day
from tests.test_reconcile_sections import PLACE, SECTIONS, board_record, two_section_pbn


def test_an_event_scored_across_the_field_reproduces_the_programs_figures(tmp_path: Path):
    two_section_pbn(tmp_path)
    # the file's own event (ContestID 4711, session 2) named in events.csv
    (tmp_path / "events.csv").write_text("event_id,session,compare\n4711,2,field\n")
    res, snap = score_inbox_day(tmp_path)
    lines = res.scored.sort("section", "ns_pair")
    assert set(lines["compare"]) == {"field"}
    # four results on the board in the field: top 6 (2/1), by hand in the fixture
    assert lines["top"].to_list() == [6.0] * 4
    want = {(sec, pair): ns for sec, rows in SECTIONS.items() for pair, *_, ns in rows}
    got = dict(
        zip(
            zip(lines["section"], lines["ns_pair"], strict=True),
            lines["ns_mp_display"],
            strict=True,
        )
    )
    assert got == {k: float(v) for k, v in want.items()}
    assert (lines["ns_mp_display"] + lines["ew_mp_display"]).to_list() == [6.0] * 4
    # each direction ranked over both sections: the places the program gave
    ns = res.standings.filter((pl.col("scope") == "session") & (pl.col("direction") == "NS"))
    places = dict(zip(zip(ns["section"], ns["contestant"], strict=True), ns["rank"], strict=True))
    assert places == PLACE
    ew = res.standings.filter((pl.col("scope") == "session") & (pl.col("direction") == "EW"))
    assert sorted(ew["rank"].to_list()) == [1, 2, 3, 4]
    # every official figure reproduced: nothing to explain
    diffs, summary = reconcile(res.scored, res.standings, snap.source_standings)
    assert diffs.height == 0, diffs.select("location", "what", "official", "traveller", "code")
    assert summary.row(0, named=True)["unexplained"] == 0


def test_without_the_setting_the_sections_are_compared_apart(tmp_path: Path):
    two_section_pbn(tmp_path)
    res, _ = score_inbox_day(tmp_path)
    assert set(res.scored["compare"]) == {"section"}  # the ffb profile's default
    assert res.scored["top"].to_list() == [2.0] * 4


def test_an_unknown_compare_is_rejected_and_holds_its_event():
    row = {c: None for c in EVENT_COLUMNS} | {
        "file": "events.csv",
        "location": "line 2",
        "event_id": "E",
        "session": "1",
        "compare": "across",
    }
    events = frame([row], EVENT_COLUMNS).with_columns(pl.lit(0).alias("priority"))
    resolved, rejected = resolve_events(events)
    assert rejected["field"].to_list() == ["compare"]
    assert "compare must be one of section, field, not 'across'" in rejected["reason"].item()
    assert resolved["compare"].to_list() == [None]  # then the profile's, never 'across'


def _field_events(compare: str, sessions: tuple[int, ...] = (1,)) -> pl.DataFrame:
    one = session_events()
    return pl.concat(
        [one.with_columns(pl.lit(s, one.schema["session"]).alias("session")) for s in sessions]
    ).with_columns(pl.lit(compare).alias("compare"))


def _sections(sizes: list[int], scores: list[list[list[int]]], session: int = 1) -> list[dict]:
    """Section ``A``, ``B``, ...: ``sizes[i]`` tables, pairs 1..2t (NS odd, EW even) on
    ``len(scores)`` boards; ``scores[b][i][t]`` is table t's NS score."""
    rows, line = [], 2
    for b, by_section in enumerate(scores, start=1):
        for i, n in enumerate(sizes):
            sec = "ABC"[i]
            for t in range(n):
                r = result(b, str(2 * t + 1), str(2 * t + 2), by_section[i][t], line, sec)
                rows.append(r | {"session": str(session)})
                line += 1
    return rows


def _as_one_section(rows: list[dict]) -> list[dict]:
    """The same results as one section whose pairs are named by section and number."""
    return [
        r
        | {
            "section": None,
            "ns_pair": f"{r['section']}{r['ns_pair']}",
            "ew_pair": f"{r['section']}{r['ew_pair']}",
        }
        for r in rows
    ]


@st.composite
def _fields(draw):
    sizes = draw(st.lists(st.integers(1, 4), min_size=2, max_size=3))
    boards = draw(st.integers(1, 3))
    score = st.sampled_from([-200, -100, 50, 110, 140, 420, 450])
    scores = [[[draw(score) for _ in range(n)] for n in sizes] for _ in range(boards)]
    return sizes, scores


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_fields())
def test_across_the_field_is_the_field_scored_as_one_section(field):
    """The board's results of every section compared together (factored to the field's
    largest count when a section is smaller) and each contestant ranked among all: the
    same figures as the same results put in one section, each pair renamed by section."""
    sizes, scores = field
    rows = _sections(sizes, scores)
    across = run(rows, [], events=_field_events("field"))
    one = run(_as_one_section(rows), [], events=_field_events("section"))

    def lines(day, named) -> list[tuple]:
        s = day.scored.with_columns(named.alias("__who"))
        return sorted(s.select("__who", "board", "ns_mp_num", "ew_mp_num", "mp_den", "top").rows())

    assert lines(across, pl.col("section") + pl.col("ns_pair")) == lines(one, pl.col("ns_pair"))
    # conserved over the field: each board's NS figures sum to n x top / 2
    for (_, _), b in across.scored.group_by("board", "session"):
        assert b["ns_mp_num"].sum() * 2 == b.height * b["top"][0] * b["mp_den"][0]

    def ranks(day, named) -> list[tuple]:
        s = day.standings.filter(pl.col("scope") == "session").with_columns(named.alias("__who"))
        return sorted(s.select("__who", "score", "percentage", "rank", "tied").rows())

    assert ranks(across, pl.col("section") + pl.col("contestant")) == ranks(
        one, pl.col("contestant")
    )


def test_a_penalty_across_the_field_takes_the_fields_top_and_touches_no_one_else():
    """Law 90: 25 % of a top is of the top the contestant's boards are scored on — the
    field's (sections of 4 and 3 tables: 7 results, top 12), not its section's (6)."""
    rows = _sections([4, 3], [[[420, 450, 400, 420], [100, 140, 170]]])
    events = _field_events("field")
    plain = run(rows, [], events=events).standings
    pen = run(
        rows,
        [ruling("P1", "procedural_penalty", penalized="3", section="B", penalty="25%")],
        events=events,
    ).standings
    both = plain.join(pen, on=["scope", "section", "contestant"], suffix="_p")
    changed = both.filter(pl.col("score") != pl.col("score_p"))
    assert changed.select("section", "contestant").rows() == [("B", "3")]
    assert changed["score"].item() - changed["score_p"].item() == 3.0
    # the pair of the same number in section A keeps its score
    a3 = both.filter((pl.col("section") == "A") & (pl.col("contestant") == "3"))
    assert a3["score"].item() == a3["score_p"].item()


def test_an_event_of_two_sessions_across_the_field_is_ranked_over_its_sections():
    """The event's standings add each contestant's sessions and rank the field together:
    its places are those of the same event as one section, pairs renamed by section."""
    scores = [[[420, 450, 400], [100, 140]], [[-100, 50, 110], [140, 140]]]
    rows = _sections([3, 2], scores, 1) + _sections([3, 2], scores[::-1], 2)

    def event(rows: list[dict], compare: str, named: pl.Expr) -> list[tuple]:
        day = run(rows, [], events=_field_events(compare, (1, 2)))
        s, _ = event_versions(day.standings, day.decisions, day.scored, None)
        s = s.filter(pl.col("scope") == "event").with_columns(named.alias("__who"))
        return sorted(s.select("__who", "score", "percentage", "rank", "tied").rows())

    got = event(rows, "field", pl.col("section") + pl.col("contestant"))
    assert got == event(_as_one_section(rows), "section", pl.col("contestant"))
    assert len(got) == 10
    # compared and ranked section by section, the same event ranks otherwise
    assert got != event(rows, "section", pl.col("section") + pl.col("contestant"))
    assert len({r[1] for r in got}) > 2  # the scores differ: a ranking, not one tie


def test_a_ruling_across_the_field_lists_every_section_it_changed():
    """A board ruling in section A changes the comparisons of section B's pairs on that board
    too: the adjustments list them (role ``field``), and the table's own sides."""
    rows = _sections([3, 3], [[[420, 450, 400], [100, 140, 170]]])
    assigned = ruling("R1", "assigned", 1, "1", "2", ns_result="+50", section="A")
    day = run(rows, [assigned], events=_field_events("field"))
    adj = day.adjustments.filter(pl.col("ruling_id") == "R1")
    changed = set(zip(adj["section"], adj["contestant"], strict=True))
    assert {("A", "1"), ("A", "2")} <= changed  # the table
    assert {("B", "1"), ("B", "2")} <= changed  # NS 100 now beats A1's +50: B's pairs move
    # within sections the same ruling touches section A only
    day = run(rows, [assigned], events=_field_events("section"))
    adj = day.adjustments.filter(pl.col("ruling_id") == "R1")
    assert set(adj["section"]) == {"A"}


#: Board 1 of the same two sections as the program scored it within each section (two
#: results, top 2): NS A1 2, A2 0; B2 2, B1 0 — each section ranked apart.
WITHIN = {("A", "1"): 2, ("A", "2"): 0, ("B", "1"): 0, ("B", "2"): 2}


def _within_record(section: str) -> str:
    totals, scores = [], []
    for pair, contract, declarer, tricks, score, _ in SECTIONS[section]:
        ns = WITHIN[(section, pair)]
        for side, mp in (("N-S", ns), ("E-W", 2 - ns)):
            place = 1 if mp == 2 else 2
            totals.append(
                f' {place} {pair} {pair} "{side}" {mp:.1f} {50 * mp:.2f} - '
                f'"{section}{pair} {side}" 1 - -'
            )
        scores.append(
            f' {pair} 1 {pair} {pair} {contract} {declarer} {tricks} - "{score}" - '
            f"{ns:.1f} {2 - ns:.1f}"
        )
    return board_record(section, totals, scores)


def test_a_program_that_compared_within_sections_an_event_across_the_field_is_explained(
    tmp_path: Path,
):
    two_section_pbn(tmp_path, _within_record)
    # as the file scores it, nothing differs
    res, snap = score_inbox_day(tmp_path)
    diffs, _ = reconcile(res.scored, res.standings, snap.source_standings)
    assert diffs.height == 0
    # the event said to be scored across the field: every differing figure has the reason
    (tmp_path / "events.csv").write_text("event_id,session,compare\n4711,2,field\n")
    res, snap = score_inbox_day(tmp_path)
    diffs, summary = reconcile(res.scored, res.standings, snap.source_standings)
    lines = diffs.filter(pl.col("what") == "line")
    assert lines.height == 4 and set(lines["code"]) == {"within_sections"}
    totals = diffs.filter(pl.col("what") == "total")
    assert totals.height and set(totals["code"]) == {"within_sections"}
    rest = diffs.filter(pl.col("what").is_in(["percentage", "place"]))
    assert set(rest["code"]) <= {"follows_total"}
    assert summary.row(0, named=True)["unexplained"] == 0


#: Two sections of two tables on board 1 (Howell): NS 420 and 430 in each. Across the field
#: (four results, top 6) each 430 beats the two 420s and ties the other 430: 5 (83.33 %), its
#: EW 1; each 420 scores 1, its EW 5 — four contestants share first place, four fifth.
TWO_SECTIONS_CSV = """\
event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score
F1,1,A,1,1,1,1,2,4S,N,10,420
F1,1,A,1,2,1,3,4,3NT,N,10,430
F1,1,B,1,1,1,1,2,4S,N,10,420
F1,1,B,1,2,1,3,4,3NT,N,10,430
"""


def test_the_ranking_pages_of_a_session_across_the_field(tmp_path: Path, monkeypatch):
    from pipelines.runner import run_inbox

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(TWO_SECTIONS_CSV)
    (inbox / "events.csv").write_text(
        "event_id,session,date,compare\nF1,1,2026-11-20,field\n", encoding="utf-8"
    )
    run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    page = next((tmp_path / "out").rglob("s1/index.html")).read_text(encoding="utf-8")
    assert page.count("scored across the field: places over every section") == 2
    # 430 beats both 420s and ties the other 430: 5 of 6 (83.33 %), shared over the sections
    assert page.count('"place">1= <') == 4 and page.count('"place">5= <') == 4
    assert page.count("83.33") == 4
    # the note on a shared place names the field's other contestants, with their sections
    assert "shared with A 3, B 2 and B 3: equal percentages" in page


def test_a_shared_place_spans_every_section_across_the_field():
    from pipelines.publish.site import across_field, spans

    rows = [
        {"section": s, "direction": None, "rank": r}
        for s, r in (("A", 1), ("A", 3), ("B", 1), ("B", 3), ("B", 1))
    ]
    assert [r["span"] for r in spans([dict(r) for r in rows])] == [1, 1, 2, 1, 2]
    assert [r["span"] for r in spans([dict(r) for r in rows], across=True)] == [3, 2, 3, 2, 3]
    assert across_field({"compare": "field", "scoring": "matchpoints"})
    assert not across_field({"compare": "field", "scoring": "butler"})
    assert not across_field({"compare": "section", "scoring": "matchpoints"})


def test_a_session_not_listed_compares_as_its_profile_says(monkeypatch):
    """A results file's session that no events row lists takes the default profile's
    ``matchpoints.compare`` (every shipped profile says ``section``; a federation's own may
    say ``field``)."""
    from pipelines.formats.model import RESULT_COLUMNS
    from pipelines.scoring import validate

    rows = _sections([2, 2], [[[420, 450], [100, 140]]])
    listed = _field_events("section").filter(pl.col("session") == 99)  # lists another session
    v, _ = validate.validate_results(frame(rows, RESULT_COLUMNS), listed)
    assert set(v["compare"]) == {"section"}
    real = validate.profiles.load

    def across(name: str | None = None):
        p = real(name)
        return p.model_copy(
            update={"matchpoints": p.matchpoints.model_copy(update={"compare": "field"})}
        )

    monkeypatch.setattr(validate.profiles, "load", across)
    v, _ = validate.validate_results(frame(rows, RESULT_COLUMNS), listed)
    assert set(v["compare"]) == {"field"}


def test_the_exports_of_an_event_across_the_field_read_back_the_same(tmp_path: Path, monkeypatch):
    """The exported ``events.csv`` carries ``compare``: the exported files, read as an inbox,
    give the same standings."""
    import shutil

    import duckdb

    from pipelines.runner import run_inbox

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    inbox, again = tmp_path / "inbox", tmp_path / "again"
    inbox.mkdir()
    again.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(TWO_SECTIONS_CSV)
    (inbox / "events.csv").write_text("event_id,session,date,compare\nF1,1,2026-11-20,field\n")
    run_inbox(inbox, tmp_path / "a.duckdb", publish_to=tmp_path / "a")
    for p in (tmp_path / "a" / "exports").rglob("*"):
        if p.is_file() and (p.suffix == ".xml" or p.name == "events.csv"):
            shutil.copy(p, again / p.name)
    run_inbox(again, tmp_path / "b.duckdb", publish_to=tmp_path / "b")
    q = (
        "SELECT section, contestant, direction, score, percentage, rank FROM standings "
        "WHERE scope = 'session' ORDER BY ALL"
    )
    first, second = (
        duckdb.connect(str(tmp_path / w), read_only=True).sql(q).fetchall()
        for w in ("a.duckdb", "b.duckdb")
    )
    assert first == second
    assert [r[5] for r in first] == [5, 1, 1, 5, 5, 1, 1, 5]  # ranked over both sections


def test_a_field_whose_sections_play_other_boards_holds_its_event():
    """Across the field every section must play the session's boards: board 2 played in
    section A only would be compared over B's pairs too — the session is held, naming it."""
    from pipelines.scoring.completeness import shortfalls
    from tests.laws_engine import validated

    rows = _sections([2, 2], [[[420, 450], [100, 140]]]) + [
        r | {"board": "2"} for r in _sections([2], [[[420, 450]]])
    ]
    for compare, found in (("field", [("B", "compare", "board 2")]), ("section", [])):
        events = _field_events(compare)
        got = shortfalls(validated(rows, events), events)
        assert got.select("section", "field", "location").rows() == found
    reason = shortfalls(validated(rows, _field_events("field")), _field_events("field"))["reason"]
    assert reason.item().startswith("board 2 not played in section B, while the session is")
