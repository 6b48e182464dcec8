"""Law 91 sanctions in the standings.

Law 91A: the Director may "suspend a contestant for the current session or any part
thereof"; Law 91B: the Director may disqualify a contestant for cause, "subject to approval
by the Tournament Organizer". So:

* a disqualified or suspended contestant is not ranked, in its session nor in the event,
  and is shown apart with its sanction; the others are ranked without it;
* a suspension may start at a round: the contestant's own results from that round on do
  not count for it, its opponents keep theirs;
* until the organiser's approval is recorded (``approved``), a disqualification leaves the
  standings provisional.
"""

from __future__ import annotations

import polars as pl

from pipelines.formats.model import RESULT_COLUMNS, frame
from pipelines.scoring.events import EVENTS_SCHEMA, with_defaults
from pipelines.scoring.standings import event_standings
from pipelines.scoring.validate import validate_results
from tests.laws_engine import LATE, checked, result, results_for_date, ruling, run

# Two rounds of a 4-table Howell-like layout: round 1 boards 1-2, round 2 boards 3-4; pair 1
# plays NS at table 1 in both rounds (against 2, then 4).


def rows() -> list[dict]:
    out, line = [], 2
    seats = {1: [("1", "2"), ("3", "4"), ("5", "6"), ("7", "8")]}
    seats[2] = [("1", "4"), ("3", "6"), ("5", "8"), ("7", "2")]
    for rnd, boards in ((1, (1, 2)), (2, (3, 4))):
        for b in boards:
            for t, (ns, ew) in enumerate(seats[rnd]):
                r = result(b, ns, ew, [420, 450, 400, 430][t] + 10 * b, line)
                r["round"] = str(rnd)
                out.append(r)
                line += 1
    return out


def contestant(st: pl.DataFrame, who: str, version: int | None = None) -> dict:
    f = pl.col("contestant") == who
    if version is not None:
        f = f & (pl.col("version") == version)
    return st.filter(f).row(0, named=True)


def test_suspension_from_a_round_counts_only_the_boards_before_it():
    plain = run(rows(), []).standings
    sus = run(
        rows(),
        [
            ruling(
                "D1",
                "disciplinary_penalty",
                penalized="1",
                penalty="suspended",
                round="2",
                laws="91A",
            )
        ],
    ).standings
    one = contestant(sus, "1")
    assert one["sanction"] == "suspended from round 2" and one["rank"] is None
    assert one["boards"] == 2  # boards 1 and 2 of round 1 only
    # pair 1 NS at table 1: +430 on board 1 (against +460, +410, +440) and +440 on board 2
    # (against +470, +420, +450) each beat one result: 2 + 2 MP of a top of 6 + 6
    assert one["score"] == 4 and one["top"] == 12
    # its round-2 opponents (pair 4) keep their results; everyone else is ranked 1..7
    assert contestant(sus, "4")["score"] == contestant(plain, "4")["score"]
    ranked = sorted(r for r in sus["rank"].to_list() if r is not None)
    assert ranked[0] == 1 and len(ranked) == 7


def test_sanctioned_contestant_is_not_ranked_in_the_event():
    st = run(rows(), [ruling("D1", "disciplinary_penalty", penalized="3", penalty="suspended")])
    ev = event_standings(st.standings, st.scored)
    three = contestant(ev, "3")
    assert three["rank"] is None and three["sanction"] == "suspended in session 1"
    ranked = [r for r in ev["rank"].to_list() if r is not None]
    assert len(ranked) == 7 and min(ranked) == 1 and max(ranked) <= 7


def test_disqualification_waits_for_the_organisers_approval():
    dq = ruling("D1", "disciplinary_penalty", penalized="3", penalty="disqualified", laws="91B")
    waiting = run(rows(), [dq]).standings
    assert waiting["status"].unique().to_list() == ["provisional"]
    assert contestant(waiting, "3")["sanction"] == "disqualified"
    approved = run(rows(), [{**dq, "approved": "true"}]).standings
    assert approved["status"].unique().to_list() == ["final"]


def test_a_suspension_round_must_be_a_number():
    from tests.laws_engine import session_events, validated

    events = session_events()
    bad = ruling("D1", "disciplinary_penalty", penalized="3", penalty="suspended", round="two")
    res = checked(validated(rows(), events), events, [bad])
    assert "round" in res.rejected["field"].to_list()


def test_suspension_in_a_two_session_event_carries_to_the_event():
    """Session 1 and session 2 of one event: pair 3 suspended in session 2 is unranked in the
    event although it played session 1 in full."""
    evs = with_defaults(
        pl.DataFrame(
            {
                "event_id": ["E", "E"],
                "session": [1, 2],
                "date": ["2026-11-02", "2026-11-02"],
                "published_at": ["2026-11-02 22:30", "2026-11-02 22:30"],
            },
            schema={k: EVENTS_SCHEMA[k] for k in ("event_id", "session", "date", "published_at")},
        )
        .with_columns(
            *(
                pl.lit(None, t).alias(c)
                for c, t in EVENTS_SCHEMA.items()
                if c not in ("event_id", "session", "date", "published_at")
            )
        )
        .select(list(EVENTS_SCHEMA))
    )
    both = rows() + [{**r, "session": "2", "location": f"s2 {r['location']}"} for r in rows()]
    v, rej = validate_results(frame(both, RESULT_COLUMNS), evs)
    assert rej.height == 0
    forced = pl.Series([int(r["score"]) for r in both], dtype=pl.Int64)
    v = v.with_columns(pl.when(pl.col("kind") == "played").then(forced).alias("computed_score"))
    dq = ruling("D1", "disciplinary_penalty", penalized="3", penalty="suspended", session="2")
    res = checked(v, evs, [dq])
    assert res.rejected.height == 0
    day = results_for_date(v, res, evs, LATE)
    ev = event_standings(day.standings, day.scored)
    assert contestant(ev, "3")["sanction"] == "suspended in session 2"
    assert contestant(ev, "3")["rank"] is None


def test_a_contestant_suspended_from_round_1_keeps_its_row_and_touches_no_other_event():
    """Pair 3 of event E suspended from round 1 (Law 91A): none of its results count for it
    — no board, no place, its sanction shown — under its own event, pair and name. Scored
    beside event F (the same boards, no ruling), F's standings are exactly what F alone
    gives: a penalty never touches another contestant, in another event neither. (All of a
    contestant's results out once labelled its row from the frame's first row: another
    event's pair 1, with 0 boards, in place of pair 3.)"""
    from pipelines.scoring.standings import session_standings
    from pipelines.scoring.versions import latest_in_effect, penalties_frame
    from tests.laws_engine import session_events, validated

    sus = ruling(
        "D1", "disciplinary_penalty", penalized="3", penalty="suspended", round="1", laws="91A"
    )
    events = session_events()
    res = checked(validated(rows(), events), events, [sus])
    e = run(rows(), [sus]).scored
    pen = penalties_frame(latest_in_effect(res.rulings, res.appeals), e)
    f = run(rows(), []).scored.with_columns(pl.lit("F").alias("event_id"))
    alone = session_standings(f, None, pen)
    both = session_standings(pl.concat([f, e], how="diagonal_relaxed"), None, pen)
    keys = ["event_id", "session", "section", "contestant", "direction"]
    assert both.group_by(keys).len()["len"].max() == 1
    assert both.filter(pl.col("event_id") == "F").equals(alone)
    e_rows = both.filter(pl.col("event_id") == "E")
    assert sorted(e_rows["contestant"].to_list()) == [str(i) for i in range(1, 9)]
    three = contestant(e_rows, "3")
    # suspended from the first round: from the whole session
    assert (three["boards"], three["rank"], three["sanction"]) == (0, None, "suspended")
    # it played no board: no percentage at all, not 50 % as if every board were a top of 0
    assert (three["percentage"], three["percentage_display"]) == (None, None)
    assert three["score"] == 0
    # its opponents keep their results; the seven others are ranked 1 to 7
    assert sorted(r for r in e_rows["rank"].to_list() if r is not None)[0] == 1
    assert e_rows.filter(pl.col("rank").is_not_null()).height == 7
