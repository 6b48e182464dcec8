"""The Laws engine against the worked figures of ../shared/domain/scoring-rules.md.

Each test builds a session, gives the director's rulings (and appeals) in the ruling-log
format, and checks the scores the pipeline's own functions produce against the published
or hand-derived figures: Law 12C1(c) weighted 5.2 MP, the 7-table Av+/Av- board, the
EBU fouled 7/3 split (Neuberg and White Book), 12C2(c) 64 %, split scores, director's
error, penalties, corrections and appeals with their versions.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

import polars as pl

from pipelines.scoring.conservation import breaches
from tests.laws_engine import (
    appeal,
    checked,
    result,
    ruling,
    run,
    session_events,
    validated,
)

OTHERS = [620, 620, 650, 170, -100, 420]  # scoring-rules.md section 5 (board 2: NS vul)


def seven_tables(last: int | str = 100) -> list[dict]:
    scores = [*OTHERS, last]
    return [result(2, str(2 * t + 1), str(2 * t + 2), s, t + 2) for t, s in enumerate(scores)]


def mp(scored: pl.DataFrame, ns: str, side: str = "ns", board: int | None = None) -> Fraction:
    hit = pl.col("ns_pair") == ns
    if board is not None:
        hit = hit & (pl.col("board") == board)
    r = scored.filter(hit).row(0, named=True)
    return Fraction(r[f"{side}_mp_num"], r["mp_den"])


def test_weighted_score_5_2():
    res = run(
        seven_tables(),
        [
            ruling(
                "R1", "weighted", 2, "13", "14", ns_result="60% 4S N =; 40% 4S N -1", laws="12C1(c)"
            )
        ],
    )
    s = res.scored
    assert mp(s, "13") == Fraction(26, 5)  # 0.6 x 8 + 0.4 x 1
    assert [mp(s, p) for p in ("1", "3", "5", "7", "9", "11")] == [
        Fraction(42, 5),
        Fraction(42, 5),
        12,
        Fraction(14, 5),
        Fraction(2, 5),
        Fraction(24, 5),
    ]
    assert sum(mp(s, str(2 * t + 1)) for t in range(7)) == 42  # 7 x 6
    assert breaches(s).height == 0
    assert s.filter(pl.col("ns_pair") == "13")["adjustment"].item() == "weighted"


def test_split_score_each_field_sums_the_table_need_not_balance():
    # 12C1(e): NS (non-offending) get +620, EW (offending) are scored as if NS made +650
    res = run(
        seven_tables(),
        [ruling("R1", "assigned", 2, "13", "14", ns_result="+620", ew_result="+650")],
    )
    s = res.scored
    ns, ew = mp(s, "13"), mp(s, "13", "ew")
    assert ns == 8  # +620 ties with two others: 2x3 + 2 (170, -100, 420 below)
    assert ew == 1  # EW field: -650 for EW ties the other -650 and beats none
    assert ns + ew != 12
    assert sum(mp(s, str(2 * t + 1)) for t in range(7)) == 42
    assert sum(mp(s, str(2 * t + 1), "ew") for t in range(7)) == 42
    assert breaches(s).height == 0


def test_seven_tables_av_plus_av_minus():
    res = run(
        seven_tables(),
        [ruling("R1", "artificial", 2, "13", "14", ns_result="A+", ew_result="A-", offending="EW")],
    )
    s = res.scored
    assert [round(float(mp(s, str(2 * t + 1))), 2) for t in range(6)] == [
        8.33,
        8.33,
        11.83,
        2.5,
        0.17,
        4.83,
    ]
    # one board only: no other board to take a percentage from, so 60 % / 40 % of 12
    assert (mp(s, "13"), mp(s, "13", "ew")) == (Fraction(36, 5), Fraction(24, 5))


def test_session_percentage_rule_12c2c():
    # 26 boards on 2 tables (top 2). Pair 1 beats pair 3 on 16 boards and loses 9: 64 % on
    # its other boards; board 26 gets Av+ for pair 1 (NS), Av- for pair 2 (EW).
    rows, line = [], 2
    for b in range(1, 26):
        win = b <= 16
        rows.append(result(b, "1", "2", 100 if win else -100, line))
        rows.append(result(b, "3", "4", -100 if win else 100, line + 1))
        line += 2
    rows.append(result(26, "1", "2", 100, line))
    rows.append(result(26, "3", "4", 100, line + 1))
    rule = [
        ruling("R1", "artificial", 26, "1", "2", ns_result="A+", ew_result="A-", offending="EW")
    ]
    s = run(rows, rule).scored
    assert mp(s, "1", board=26) == Fraction(64, 100) * 2  # max(60 %, 64 %) of the top of 2
    # pair 2 (EW with pair 1) lost those 16: 36 % -> min(40 %, 36 %) under the 2017 Laws
    assert mp(s, "1", "ew", board=26) == Fraction(36, 100) * 2
    old = run(rows, rule, events=session_events(laws="2007")).scored
    assert mp(old, "1", "ew", board=26) == Fraction(40, 100) * 2  # 2007 Law 88: NOS rule only
    # the table at 3-4 played: it is factored as the only result (n = 1 of 2)
    assert mp(s, "3", board=26) == 1


def test_fouled_board_7_3_split():
    # board due 10 times; 3 tables played version B (scoring-rules.md section 4)
    scores = [700, 600, 500, 400, 300, 200, 100, 30, 20, 10]
    rows = [result(5, str(2 * t + 1), str(2 * t + 2), s, t + 2) for t, s in enumerate(scores)]
    fouled = [
        ruling(
            f"F{t}",
            "fouled_board",
            5,
            str(2 * t + 1),
            str(2 * t + 2),
            board_version="B",
            line=t + 2,
        )
        for t in (7, 8, 9)
    ]
    s = run(rows, fouled).scored
    group_a = [round(float(mp(s, str(2 * t + 1))), 1) for t in range(7)]
    group_b = [round(float(mp(s, str(2 * t + 1))), 1) for t in (7, 8, 9)]
    assert group_a == [17.6, 14.7, 11.9, 9.0, 6.1, 3.3, 0.4]
    assert group_b == [15.7, 9.0, 2.3]
    assert sum(mp(s, str(2 * t + 1)) for t in range(10)) == 90
    assert breaches(s).height == 0
    # EBU White Book 4.2.3.3: the group of 3 (E = 10 >= 9) scores 70/60/50 % of 18
    ebu = run(rows, fouled, events=session_events(profile="ebu")).scored
    assert [mp(ebu, str(2 * t + 1)) for t in (7, 8, 9)] == [Fraction(63, 5), Fraction(54, 5), 9]


def test_director_error_both_sides_non_offending():
    res = run(seven_tables(), [ruling("R1", "director_error", 2, "13", "14", laws="82C")])
    s = res.scored
    # A+/A+: both 60 % of 12, totalling 120 %
    assert (mp(s, "13"), mp(s, "13", "ew")) == (Fraction(36, 5), Fraction(36, 5))


def two_boards() -> list[dict]:
    rows = []
    for b in (1, 2):
        for t, sc in enumerate([420, 450, 400, 420]):
            rows.append(result(b, str(2 * t + 1), str(2 * t + 2), sc + 10 * b, 10 * b + t))
    return rows


def test_procedural_penalty_touches_only_the_penalised():
    plain = run(two_boards(), []).standings
    pen = run(
        two_boards(),
        [ruling("P1", "procedural_penalty", penalized="3", penalty="25%", laws="90B1")],
    ).standings
    a = plain.sort("contestant").select("contestant", "score", "penalties")
    b = pen.sort("contestant").select("contestant", "score", "penalties")
    changed = a.join(b, on="contestant", suffix="_p").filter(pl.col("score") != pl.col("score_p"))
    assert changed["contestant"].to_list() == ["3"]
    row = changed.row(0, named=True)
    assert row["score"] - row["score_p"] == 1.5  # 25 % of the top of 6
    assert pen.filter(pl.col("contestant") == "3")["penalties"].item() == 1.5


def test_disqualified_contestant_is_shown_without_a_place():
    st = run(
        two_boards(),
        [ruling("D1", "disciplinary_penalty", penalized="1", penalty="disqualified", laws="91B")],
    ).standings
    dq = st.filter(pl.col("contestant") == "1").row(0, named=True)
    assert dq["sanction"] == "disqualified" and dq["rank"] is None
    ranks = sorted(r for r in st["rank"].to_list() if r is not None)
    assert ranks[0] == 1 and len(ranks) == st.height - 1


def test_score_correction_in_and_after_the_period():
    events = session_events(published_at="2026-11-02 22:30")
    fix = dict(ns_result="+420", laws="79C")
    on_time = ruling("C1", "score_correction", 1, "3", "4", ruled_at="2026-11-02 22:50", **fix)
    res = run(two_boards(), [on_time], events=events)
    assert sorted(res.standings["version"].unique().to_list()) == [1, 2]
    assert res.changes.filter(pl.col("cause_id") == "C1").height > 0
    newest = res.standings.filter(pl.col("version") == 2)
    assert newest["status"].unique().to_list() == ["final"]
    assert res.standings.filter(pl.col("version") == 1)["status"].unique().to_list() == [
        "superseded"
    ]
    late = ruling("C2", "score_correction", 1, "3", "4", ruled_at="2026-11-03 09:00", **fix)
    v = validated(two_boards(), events)
    chk = checked(v, events, [late])
    row = chk.rulings.row(0, named=True)
    assert row["applies"] is False and "Law 79C2" in row["not_applied_reason"]
    assert run(two_boards(), [late], events=events).standings["version"].max() == 1
    approved = ruling(
        "C3", "score_correction", 1, "3", "4", ruled_at="2026-11-03 09:00", approved="true", **fix
    )
    assert run(two_boards(), [approved], events=events).standings["version"].max() == 2


def test_appeals_make_versions_and_keep_standings_provisional():
    r = ruling("R1", "assigned", 1, "3", "4", ns_result="+460", ew_result="+460")
    upheld = run(two_boards(), [r], [appeal("A1", "R1", "upheld")])
    assert upheld.standings["version"].max() == 1
    changed = run(two_boards(), [r], [appeal("A1", "R1", "changed", ns_result="+400")])
    assert changed.standings["version"].max() == 2
    ch = changed.changes
    assert set(ch["cause"]) == {"appeal"} and set(ch["cause_id"]) == {"A1"}
    assert ch.filter(pl.col("contestant") == "3")["score_change"].item() < 0
    pending = run(two_boards(), [r], [appeal("A1", "R1", None)])
    assert pending.standings["status"].unique().to_list() == ["provisional"]
    early = run(two_boards(), [r], now=datetime(2026, 11, 2, 22, 40))
    assert early.standings["status"].unique().to_list() == ["provisional"]


def test_adjustments_table():
    res = run(
        seven_tables(),
        [
            ruling(
                "R1", "weighted", 2, "13", "14", laws="12C1(c)", ns_result="60% 4S N =; 40% 4S N -1"
            )
        ],
    )
    adj = res.adjustments
    table = adj.filter(pl.col("role") == "table").sort("direction", "contestant")
    assert table["contestant"].to_list() == ["13", "14"]
    ns = table.filter(pl.col("contestant") == "13").row(0, named=True)
    # as played: +100 beat only -100 (2 MP); with the ruling 5.2
    assert ns["score_before"] == 2.0 and abs(ns["score_after"] - 5.2) < 1e-12
    assert abs(ns["mp_change"] - 3.2) < 1e-12 and ns["laws"] == "12C1(c)"
    assert set(adj["role"]) == {"table", "field"}


def test_invalid_rulings_are_rejected_with_reasons():
    events = session_events()
    v = validated(seven_tables(), events)
    bad = [
        ruling("X1", "assigned", 2, "13", "99", ns_result="+620", line=2),
        ruling("X2", "weighted", 2, "13", "14", ns_result="60% 4S N =; 30% 4S N -1", line=3),
        ruling("X3", "assigned", 2, "13", "14", ns_result="A+", line=4),
        ruling("X4", "assigned", 2, "13", "14", ns_result="8S N =", line=5),
        ruling("X5", "sideways", 2, "13", "14", line=6),
        ruling("X6", "procedural_penalty", penalized="77", penalty="25%", line=7),
    ]
    res = checked(v, events, bad, [appeal("A1", "R404", "upheld")])
    reasons = {
        r["location"]: r["reason"]
        for r in res.rejected.filter(pl.col("file") == "rulings.csv").iter_rows(named=True)
    }
    assert "unknown table or board" in reasons["line 2"]
    assert "sum to 90%" in reasons["line 3"]
    assert "give it with kind artificial" in reasons["line 4"]
    assert "is not a result" in reasons["line 5"]
    assert "kind must be one of" in reasons["line 6"]
    assert "not a contestant of this session" in reasons["line 7"]
    assert res.rulings.height == 0
    assert (
        res.appeals.height == 0 and res.rejected.filter(pl.col("file") == "appeals.csv").height == 1
    )


def test_committee_cannot_overrule_a_disciplinary_penalty():
    events = session_events()
    v = validated(two_boards(), events)
    dp = ruling("D1", "disciplinary_penalty", penalized="1", penalty="6 MP", laws="91A")
    res = checked(v, events, [dp], [appeal("A1", "D1", "changed", heard_by="committee")])
    # kept with its reason, not rejected: it holds nothing back and changes nothing
    assert res.rejected.height == 0
    a = res.appeals.row(0, named=True)
    assert a["applies"] is False and "Law 93B3" in a["not_applied_reason"]
    st = run(two_boards(), [dp], [appeal("A1", "D1", "changed", heard_by="committee")]).standings
    assert st["version"].max() == 1
    assert st.filter(pl.col("contestant") == "1")["penalties"].item() == 6


def test_sanctioned_contestant_can_be_left_out(monkeypatch):
    # penalties.sanctioned = "excluded": the disqualified pair is not in the standings at all

    from pipelines import profiles

    real = profiles.load
    monkeypatch.setattr(
        profiles, "load", lambda name=None: real(name).with_settings(sanctioned="excluded")
    )
    st = run(
        two_boards(),
        [ruling("D1", "disciplinary_penalty", penalized="1", penalty="disqualified", laws="91B")],
    ).standings
    assert "1" not in st["contestant"].to_list() and st.height == 7
    assert st["rank"].null_count() == 0 and min(st["rank"]) == 1 and max(st["rank"]) <= 7


def test_conservation_names_a_table_and_a_field_that_do_not_sum():
    """Law 78A: four results 420 420 400 -50 on a top of 6 (2 per result beaten, 1 per tie)
    give NS/EW 5/1, 5/1, 2/4, 0/6. Planting 4 for the first NS pair (not 5) breaks that
    table's NS + EW = 6 (5) and the NS field's sum 4 x 6 / 2 = 12 (11): both are named."""
    from tests.builders import board, scored

    s = scored(board([420, 420, 400, -50]))
    assert breaches(s).height == 0
    den = s["mp_den"][0]
    bad = s.with_columns(
        pl.when(pl.col("ns_pair") == "1")
        .then(4 * den)
        .otherwise(pl.col("ns_mp_num"))
        .alias("ns_mp_num")
    )
    found = {r["side"]: (r["sum"], r["expected_sum"]) for r in breaches(bad).to_dicts()}
    assert found == {"NS": (11.0, 12.0), "NS+EW": (5.0, 6.0)}
