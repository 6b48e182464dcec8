"""The marts on a small hand-made season whose every figure can be counted on paper."""

from __future__ import annotations

from datetime import datetime

import polars as pl
import pytest

from pipelines.audit.marts import AuditInputs, build_marts, key_figures, monthly_appeals
from pipelines.reports.audit import pseudonyms


def _inputs() -> AuditInputs:
    """Three event sessions: C1 (club, TD A, 1,000 boards), C2 (club, TD B, 1,000 boards),
    K1 (congress, TD A, 500 boards), all in November 2026."""
    events = pl.DataFrame(
        {
            "event_id": ["C1", "C2", "K1"],
            "session": [1, 1, 1],
            "form": ["pairs"] * 3,
            "scoring": ["matchpoints"] * 3,
            "level": ["club", "club", "congress"],
            "club": ["Velmoor", "Quendry", "Velmoor"],
            "director": ["TD A", "TD B", "TD A"],
        }
    )
    boards = pl.DataFrame(
        {
            "event_id": ["C1", "C2", "K1"],
            "session": [1, 1, 1],
            "session_date": ["2026-11-02", "2026-11-03", "2026-11-04"],
            "boards_played": [1000, 1000, 500],
        }
    )
    t = datetime(2026, 11, 2, 20, 0)
    rows = [
        # id, event, board, director, kind, laws, penalty, ns_result
        ("R1", "C1", 5, "TD A", "assigned", "16B1;12C1(b)", None, "4S N ="),
        ("R2", "C1", 5, "TD B", "score_stands", "16B1", None, None),  # same board: discrepancy
        ("R3", "C1", 7, "TD A", "score_stands", "73C", None, None),
        ("R4", "C1", None, "TD A", "procedural_penalty", "90B1", "25%", None),
        ("R5", "C1", None, "TD A", "procedural_penalty", "90B2", "warning", None),
        ("R6", "C2", 3, "TD B", "weighted", "21B1;12C1(c)", None, "60% 4S N =; 40% 4S N -1"),
        ("R7", "C2", None, "TD B", "disciplinary_penalty", "91A", "6 MP", None),
        ("R8", "K1", 2, "TD A", "artificial", "12C2(a)", None, "A-"),
        ("R9", "K1", 4, "TD A", "score_correction", "79C1", None, "3NT S +1"),
    ]
    rulings = pl.DataFrame(
        {
            "ruling_id": [r[0] for r in rows],
            "event_id": [r[1] for r in rows],
            "session": [1] * len(rows),
            "session_date": [
                {"C1": "2026-11-02", "C2": "2026-11-03", "K1": "2026-11-04"}[r[1]] for r in rows
            ],
            "board": [r[2] for r in rows],
            "director": [r[3] for r in rows],
            "kind": [r[4] for r in rows],
            "laws": [r[5] for r in rows],
            "penalty": [r[6] for r in rows],
            "ns_result": [r[7] for r in rows],
            "offending": ["NS"] * len(rows),
            "ruled_at": [t] * len(rows),
        }
    )
    appeals = pl.DataFrame(
        {
            "appeal_id": ["A1", "A2", "A3"],
            "ruling_id": ["R1", "R6", "R8"],
            "outcome": ["changed", "upheld", None],
            "decided_at": [datetime(2026, 11, 2, 23, 0), datetime(2026, 11, 4, 20, 0), None],
            "deposit_retained": [False, True, None],
            "without_merit": [False, True, None],
            "pending": [False, False, True],
        }
    )
    sizes = pl.DataFrame(
        {
            "ruling_id": ["R1", "R4", "R6"],
            "adjustment_pct": [30.0, None, 10.0],
            "deducted_mp": [None, 3.0, None],
            "deducted_pct": [None, 1.2, None],
        }
    )
    return AuditInputs(events, boards, rulings, appeals, sizes)


def test_penalty_stats():
    """Penalties: R4 (90B1, 25 %), R5 (90B2, warning), R7 (91A). In the season, 2,500 boards:
    procedural 2 -> 0.8 per 1,000 boards, of which 1 warning and 3 MP deducted (R4);
    disciplinary 1 -> 0.4. TD A directed 1,500 boards (C1, K1): 2 procedural -> 1.333..."""
    p = build_marts(_inputs()).penalty_stats.filter(pl.col("period_kind") == "season")
    allp = p.filter((pl.col("dimension") == "all") & (pl.col("category") == "all"))
    proc = allp.filter(pl.col("penalty_kind") == "procedural").row(0, named=True)
    assert (proc["penalties"], proc["warnings"], proc["boards_played"]) == (2, 1, 2500)
    assert proc["per_1000_boards"] == pytest.approx(0.8)
    assert proc["matchpoints_deducted"] == pytest.approx(3.0)
    disc = allp.filter(pl.col("penalty_kind") == "disciplinary").row(0, named=True)
    assert disc["penalties"] == 1 and disc["per_1000_boards"] == pytest.approx(0.4)
    b = p.filter((pl.col("dimension") == "all") & (pl.col("category") != "all"))
    assert sorted(b["category"].to_list()) == ["A", "B1", "B2"]
    a = p.filter(
        (pl.col("dimension") == "director")
        & (pl.col("value") == "TD A")
        & (pl.col("category") == "all")
        & (pl.col("penalty_kind") == "procedural")
    ).row(0, named=True)
    assert a["boards_played"] == 1500 and a["per_1000_boards"] == pytest.approx(2 / 1.5)
    month = build_marts(_inputs()).penalty_stats.filter(pl.col("period_kind") == "month")
    assert set(month["period"].to_list()) == {"2026-11"}


def test_appeal_stats():
    """3 appeals on 2,500 boards: Board-Appeal Ratio 1.2 per 1,000. Decided 2 (changed,
    upheld), pending 1: overturn rate 1/2; one deposit retained, one without merit. Hours
    from ruling (20:00 on 2 Nov) to decision: 3 (A1) and 48 (A2), median 25.5."""
    a = build_marts(_inputs()).appeal_stats
    row = a.filter((pl.col("period_kind") == "season") & (pl.col("dimension") == "all")).row(
        0, named=True
    )
    assert (row["appeals"], row["decided"], row["pending"]) == (3, 2, 1)
    assert row["board_appeal_ratio"] == pytest.approx(1.2)
    assert row["overturn_rate"] == pytest.approx(0.5)
    assert (row["deposits_retained"], row["without_merit"]) == (1, 1)
    assert row["median_hours_to_decision"] == pytest.approx(25.5)
    assert row["rulings"] == 9
    laws = a.filter((pl.col("period_kind") == "season") & (pl.col("dimension") == "law"))
    assert sorted(laws["value"].to_list()) == ["12C2(a)", "16B1;12C1(b)", "21B1;12C1(c)"]
    assert (laws["boards_played"] == 2500).all()


def test_director_audit_rates_and_controls():
    """Strata: club (C1, C2) and congress (K1). In the club stratum TD A made R1, R3, R4, R5
    (4 rulings, all at his session C1 of 1,000 boards): judgement calls 2 (R1 adjusted, R3
    not) -> adjustment rate 1/2; procedural penalties 2 of 4 non-correction rulings; one
    appeal decided, changed -> overturn 1/1. TD B: R2, R6, R7 -> 3 rulings of which R2 at a
    session he did not direct (C1), so rulings per board 2/1000; calls 2 (R6 adjusted), 1/2;
    no procedural penalty, 0/3. In the congress stratum TD A alone: R8, R9."""
    d = build_marts(_inputs()).director_audit.filter(pl.col("period_kind") == "season")
    assert set(d["stratum"].to_list()) == {
        "club · pairs · matchpoints",
        "congress · pairs · matchpoints",
    }

    def xn(director: str, stratum: str, measure: str) -> tuple[int, int]:
        r = d.filter(
            (pl.col("director") == director)
            & pl.col("stratum").str.starts_with(stratum)
            & (pl.col("measure") == measure)
        )
        return r["x"].item(), r["n"].item()

    assert xn("TD A", "club", "rulings_per_board") == (4, 1000)
    assert xn("TD A", "club", "adjustment_rate") == (1, 2)
    assert xn("TD A", "club", "procedural_penalty_rate") == (2, 4)
    assert xn("TD A", "club", "overturn_rate") == (1, 1)
    assert xn("TD B", "club", "rulings_per_board") == (2, 1000)
    assert xn("TD B", "club", "adjustment_rate") == (1, 2)
    assert xn("TD B", "club", "procedural_penalty_rate") == (0, 3)
    assert xn("TD B", "club", "overturn_rate") == (0, 1)
    assert xn("TD A", "congress", "procedural_penalty_rate") == (0, 1)
    a = d.filter((pl.col("director") == "TD A") & pl.col("stratum").str.starts_with("club"))
    assert a["rulings"].unique().to_list() == [4]
    assert a["mean_adjustment_pct"].unique().to_list() == [30.0]
    # the pooled target of a stratum: adjustment rate (1 + 1) / (2 + 2)
    adj = d.filter(
        pl.col("stratum").str.starts_with("club") & (pl.col("measure") == "adjustment_rate")
    )
    assert adj["target"].unique().to_list() == [0.5]
    assert not d["flagged"].fill_null(False).any()  # tiny samples: nobody is flagged
    # without controls every session is compared together
    one = build_marts(_inputs(), controls=()).director_audit
    assert one["stratum"].unique().to_list() == ["all"]
    assert one["controls"].unique().to_list() == ["none"]


def test_discrepancies_and_window():
    """R1 (TD A adjusted board 5 of C1) and R2 (TD B let it stand) are the same deal ruled
    differently. A window relabels the period."""
    m = build_marts(_inputs(), window="2026-11-01 to 2026-11-30")
    c = m.ruling_discrepancies
    assert c.height == 1
    row = c.row(0, named=True)
    assert (row["case_type"], row["a_ruling_id"], row["b_ruling_id"]) == ("same_board", "R1", "R2")
    assert row["a_adjustment_pct"] == 30.0
    assert set(m.director_audit["period"].to_list()) == {"2026-11-01 to 2026-11-30"}
    assert set(m.appeal_stats["period_kind"].to_list()) == {"window"}
    f = key_figures(m)
    assert (f["rulings"], f["appeals"], f["penalties"], f["discrepancies"]) == (9, 3, 3, 1)
    assert f["board_appeal_ratio"] == pytest.approx(1.2)


def test_pseudonyms_do_not_follow_names_or_figures():
    names = ["TD A", "TD B", "TD C"]
    p = pseudonyms(names)
    assert sorted(p.values()) == ["Director A", "Director B", "Director C"]
    assert pseudonyms(list(reversed(names))) == p
    many = pseudonyms([f"TD {i}" for i in range(30)])
    assert "Director AA" in many.values() and len(set(many.values())) == 30


def test_a_session_without_scored_boards_keeps_its_controls():
    """A ruling at a session whose results are not scored (its date held back by a check)
    still belongs to its event's stratum: K2 is a congress session with no boards played."""
    base = _inputs()
    events = pl.concat(
        [
            base.events,
            pl.DataFrame(
                {
                    "event_id": ["K2"],
                    "session": [1],
                    "form": ["pairs"],
                    "scoring": ["matchpoints"],
                    "level": ["congress"],
                    "club": ["Velmoor"],
                    "director": ["TD B"],
                }
            ),
        ]
    )
    extra = base.rulings.head(1).with_columns(
        pl.lit("R10").alias("ruling_id"), pl.lit("K2").alias("event_id")
    )
    rulings = pl.concat([base.rulings, extra])
    m = build_marts(AuditInputs(events, base.boards, rulings, base.appeals, base.sizes))
    d = m.director_audit.filter(
        (pl.col("director") == "TD A") & (pl.col("measure") == "adjustment_rate")
    )
    congress = d.filter(pl.col("stratum").str.starts_with("congress"))
    assert congress["rulings"].item() == 3  # R8, R9 and R10


def test_adjustments_sized_in_imps():
    """At an IMP form the adjustments are sized in IMPs: R1 (TD A) and a second ruling R11 by
    TD B on the same board adjust by 1 and 6 IMPs, more than 3 IMPs apart: a discrepancy.
    TD A's mean adjustment at club level is then 1 IMP; a 3-IMP penalty is counted."""
    base = _inputs()
    extra = base.rulings.head(1).with_columns(
        pl.lit("R11").alias("ruling_id"), pl.lit("TD B").alias("director")
    )
    sizes = pl.DataFrame(
        {
            "ruling_id": ["R1", "R11", "R4"],
            "adjustment_imps": [1.0, 6.0, None],
            "deducted_imps": [None, None, 3.0],
        }
    )
    m = build_marts(
        AuditInputs(base.events, base.boards, pl.concat([base.rulings, extra]), base.appeals, sizes)
    )
    size = m.ruling_discrepancies.filter(pl.col("case_type") == "adjustment_size")
    assert size.height == 1
    assert size["reason"].item() == (
        "board 5 of session 1: adjustments of 1.0 IMPs and 6.0 IMPs by TD A and TD B"
    )
    a = m.director_audit.filter(
        (pl.col("director") == "TD A")
        & pl.col("stratum").str.starts_with("club")
        & (pl.col("period_kind") == "season")
    )
    assert a["mean_adjustment_imps"].unique().to_list() == [1.0]
    assert a["mean_adjustment_pct"].unique().to_list() == [None]
    p = m.penalty_stats.filter(
        (pl.col("period_kind") == "season")
        & (pl.col("dimension") == "all")
        & (pl.col("category") == "all")
        & (pl.col("penalty_kind") == "procedural")
    )
    assert p["imps_deducted"].item() == 3.0


def test_a_penalty_category_is_counted_per_1000_boards_of_its_slice():
    """A category row (B1, B2, A) is a share of its slice's penalties: its boards played are
    the slice's and its rate is per 1,000 of them. R4 (90B1) of 2,500 boards in the season:
    0.4 per 1,000; by TD A (1,500 boards directed): 1 per 1,500."""
    p = build_marts(_inputs()).penalty_stats.filter(pl.col("period_kind") == "season")

    def row(dimension: str, value: str, category: str) -> dict:
        return p.filter(
            (pl.col("dimension") == dimension)
            & (pl.col("value") == value)
            & (pl.col("category") == category)
        ).row(0, named=True)

    b1 = row("all", "all", "B1")
    assert (b1["penalties"], b1["boards_played"]) == (1, 2500)
    assert b1["per_1000_boards"] == pytest.approx(0.4)
    a = row("director", "TD A", "B1")
    assert (a["penalties"], a["boards_played"]) == (1, 1500)
    assert a["per_1000_boards"] == pytest.approx(1000 / 1500)
    disc = row("event", "C2", "A")
    assert (disc["penalties"], disc["boards_played"]) == (1, 1000)
    # each category row has the boards of the slice's 'all' row
    whole = p.filter(pl.col("category") == "all").select(
        "period_kind", "period", "dimension", "value", "penalty_kind", b="boards_played"
    )
    joined = p.join(whole, on=["period_kind", "period", "dimension", "value", "penalty_kind"])
    assert joined.height == p.height
    assert (joined["boards_played"] == joined["b"]).all()


def test_an_assistant_who_directs_no_session_keeps_his_rulings_and_appeals():
    """TD C directs no session (an assistant at C2): his ruling R12 and the appeal against it,
    changed, count in his slice of ``appeal_stats`` (no boards: no Board-Appeal Ratio), as
    they do in 'all' and in the event."""
    base = _inputs()
    extra = base.rulings.filter(pl.col("ruling_id") == "R6").with_columns(
        pl.lit("R12").alias("ruling_id"), pl.lit("TD C").alias("director")
    )
    appeal = base.appeals.head(1).with_columns(
        pl.lit("A4").alias("appeal_id"), pl.lit("R12").alias("ruling_id")
    )
    m = build_marts(
        AuditInputs(
            base.events,
            base.boards,
            pl.concat([base.rulings, extra]),
            pl.concat([base.appeals, appeal]),
            base.sizes,
        )
    )
    a = m.appeal_stats.filter(pl.col("period_kind") == "season")

    def row(dimension: str, value: str) -> dict:
        return a.filter((pl.col("dimension") == dimension) & (pl.col("value") == value)).row(
            0, named=True
        )

    c = row("director", "TD C")
    assert (c["appeals"], c["decided"], c["changed"], c["rulings"]) == (1, 1, 1, 1)
    assert c["overturn_rate"] == 1.0
    assert c["boards_played"] == 0 and c["board_appeal_ratio"] is None
    assert row("all", "all")["appeals"] == 4
    # the director slices add up to the whole
    directors = a.filter(pl.col("dimension") == "director")
    assert directors["appeals"].sum() == 4 and directors["rulings"].sum() == 10


def test_rulings_per_board_counts_rulings_and_boards_of_the_same_sessions():
    """TD A also directs K2 (congress), whose boards played are not on record (its date held
    back): his ruling R10 there is one of his rulings, but not one of rulings_per_board's
    (the rate is over the boards of K1 alone: R8 and R9 of 500)."""
    base = _inputs()
    events = pl.concat(
        [
            base.events,
            base.events.filter(pl.col("event_id") == "K1").with_columns(
                pl.lit("K2").alias("event_id")
            ),
        ]
    )
    extra = base.rulings.filter(pl.col("ruling_id") == "R8").with_columns(
        pl.lit("R10").alias("ruling_id"), pl.lit("K2").alias("event_id")
    )
    m = build_marts(
        AuditInputs(events, base.boards, pl.concat([base.rulings, extra]), base.appeals, base.sizes)
    )
    d = m.director_audit.filter(
        (pl.col("director") == "TD A")
        & pl.col("stratum").str.starts_with("congress")
        & (pl.col("measure") == "rulings_per_board")
    ).row(0, named=True)
    assert (d["rulings"], d["sessions_directed"], d["boards_directed"]) == (3, 1, 500)
    assert (d["x"], d["n"]) == (2, 500)
    assert d["rulings_per_1000_boards"] == pytest.approx(4.0)


def test_a_ruling_and_the_ones_that_superseded_it_are_no_discrepancy():
    """R12 (TD C) supersedes R1 (TD A's assigned score on board 5 of C1) and lets the score
    stand; R13 (TD D) supersedes R12 and assigns again, by 6 % of a top where R1 gave 30 %.
    One table's call corrected twice is no pair of directors ruling a board differently:
    of the pairs on that board only R1 against R2 (another table, TD B, score stands) and R13
    against R2 remain — not R1/R12, R12/R13, nor R1/R13's sizes."""
    base = _inputs()
    later = base.rulings.head(1)
    extra = pl.concat(
        [
            later.with_columns(
                pl.lit("R12").alias("ruling_id"),
                pl.lit("TD C").alias("director"),
                pl.lit("score_stands").alias("kind"),
                pl.lit(None, pl.Utf8).alias("ns_result"),
                pl.lit("R1").alias("supersedes"),
            ),
            later.with_columns(
                pl.lit("R13").alias("ruling_id"),
                pl.lit("TD D").alias("director"),
                pl.lit("R12").alias("supersedes"),
            ),
        ]
    )
    rulings = pl.concat(
        [base.rulings.with_columns(pl.lit(None, pl.Utf8).alias("supersedes")), extra]
    )
    sizes = pl.concat(
        [
            base.sizes,
            pl.DataFrame({"ruling_id": ["R13"], "adjustment_pct": [6.0]}),
        ],
        how="diagonal_relaxed",
    )
    m = build_marts(AuditInputs(base.events, base.boards, rulings, base.appeals, sizes))
    pairs = sorted(
        (r["case_type"], r["a_ruling_id"], r["b_ruling_id"])
        for r in m.ruling_discrepancies.iter_rows(named=True)
    )
    assert pairs == [("same_board", "R1", "R2"), ("same_board", "R13", "R2")]


def test_the_copies_per_dimension_carry_only_what_their_statistics_count(monkeypatch):
    """``penalty_stats`` and ``appeal_stats`` count each ruling once per period and
    dimension: those copies hold the period, the dimension's value and the columns
    aggregated, never the ruling's results, notes or pairs (a season's rulings copied
    fourteen times whole made the marts grow with every column), and the marts are the same."""
    import pipelines.audit.marts as marts

    before = build_marts(_inputs())
    widths: list[set[str]] = []
    copies = marts._dimension_frames

    def recorded(*args, **kwargs):
        out = copies(*args, **kwargs)
        widths.append(set(out.columns))
        return out

    monkeypatch.setattr(marts, "_dimension_frames", recorded)
    after = build_marts(_inputs())
    assert len(widths) >= 4  # boards, penalties, appeals and rulings, per call
    for columns in widths:
        assert {"period_kind", "period", "dimension", "value"} <= columns
        assert not columns & {"ns_result", "note", "ns_pair", "ruling_id", "event_id", "board"}
        assert len(columns) <= 14
    for name, table in before.tables().items():
        assert after.tables()[name].equals(table, null_equal=True), name


def test_the_appeals_by_month_are_the_marts_rows_computed_alone(monkeypatch):
    """The transparency report's trend (:func:`monthly_appeals`): the ``appeal_stats`` rows
    by month over every slice, the same as the mart's, sorted by month — counted for that
    slice alone, not for every dimension to keep one."""
    import pipelines.audit.marts as marts

    base = _inputs()
    december = {"K1": "2026-12-04"}  # a second month
    inputs = AuditInputs(
        base.events,
        base.boards.with_columns(
            pl.col("event_id")
            .replace_strict(december, default=pl.col("session_date"))
            .alias("session_date")
        ),
        base.rulings.with_columns(
            pl.col("event_id")
            .replace_strict(december, default=pl.col("session_date"))
            .alias("session_date")
        ),
        base.appeals,
        base.sizes,
    )
    mart = build_marts(inputs).appeal_stats.filter(
        (pl.col("period_kind") == "month") & (pl.col("dimension") == "all")
    )
    sliced: list[set[str]] = []
    copies = marts._dimension_frames

    def recorded(*args, **kwargs):
        out = copies(*args, **kwargs)
        sliced.append(set(out["dimension"].to_list()))
        return out

    monkeypatch.setattr(marts, "_dimension_frames", recorded)
    months = monthly_appeals(inputs)
    assert months["period"].to_list() == ["2026-11", "2026-12"]
    assert months.equals(mart.sort("period"), null_equal=True)
    assert sliced and all(s <= {"all"} for s in sliced)
