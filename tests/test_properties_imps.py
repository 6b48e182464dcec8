"""Hypothesis properties of IMP scoring through the engine (Laws 78B, 86): the vectorised
team-board scorer agrees with the scalar rule of :mod:`pipelines.laws.teams` on every board;
IMPs are antisymmetric; knockout boards always balance; Butler and cross-IMP boards of played
results conserve (NS and EW IMPs cancel, cross-IMPs sum to zero)."""

from __future__ import annotations

from fractions import Fraction

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.laws.teams import team_board_imps
from pipelines.scoring.conservation import imp_breaches
from pipelines.scoring.imp_forms import score_imp_rows

SCORE = st.integers(-760, 760).map(lambda x: 10 * x)


def _rows(tables: list[dict], scoring: str, stage: str | None, profile: str = "wbf"):
    base = {
        "event_id": "E",
        "session": 1,
        "section": "A",
        "round": 1,
        "deal_round": 1 if scoring == "imps" else 0,  # a team match board is (round, board)
        "board": 1,
        "board_version": "A",
        "profile": profile,
        "scoring": scoring,
        "stage": stage,
        "expected_results": None,
        "ns_art": None,
        "ew_art": None,
    }
    rows = pl.DataFrame(
        [{**base, "__row": i, **t} for i, t in enumerate(tables)],
        schema_overrides={
            "computed_score": pl.Int64,
            "__row": pl.Int64,
            "round": pl.Int32,
            "deal_round": pl.Int32,
            "ns_art": pl.Utf8,
            "ew_art": pl.Utf8,
            "stage": pl.Utf8,
            "expected_results": pl.Int32,
        },
    )
    return rows


COMPS = {
    "__row": pl.Int64,
    "side": pl.Utf8,
    "ns_score": pl.Int64,
    "weight": pl.Int64,
    "art": pl.Utf8,
}


@settings(max_examples=150, deadline=None)
@given(a=SCORE, b=SCORE, s2=SCORE, knockout=st.booleans())
def test_team_board_matches_the_scalar_rule(a: int, b: int, s2: int, knockout: bool) -> None:
    split = a != b
    t1 = {
        "table": 1,
        "ns_pair": "A",
        "ew_pair": "B",
        "kind": "adjusted" if split else "played",
        "computed_score": None if split else a,
    }
    t2 = {"table": 2, "ns_pair": "B", "ew_pair": "A", "kind": "played", "computed_score": s2}
    rows = _rows([t1, t2], "imps", "knockout" if knockout else "round_robin")
    comps = pl.DataFrame(
        [(0, "NS", a, 100, None), (0, "EW", b, 100, None)] if split else [],
        schema=COMPS,
        orient="row",
    )
    out = score_imp_rows(rows, comps).sort("__row")
    want_a, want_b = team_board_imps((a, b) if split else a, s2, knockout=knockout)
    got = [Fraction(n, d) for n, d in zip(out["ns_imps_num"], out["imps_den"], strict=True)]
    got_ew = [Fraction(n, d) for n, d in zip(out["ew_imps_num"], out["imps_den"], strict=True)]
    assert (got[0], got_ew[0]) == (want_a, want_b)  # table 1: A NS, B EW
    assert (got[1], got_ew[1]) == (want_b, want_a)  # table 2: B NS, A EW
    if knockout or not split:
        assert want_a + want_b == 0  # a knockout board always balances (Law 86C)


@settings(max_examples=100, deadline=None)
@given(
    scores=st.lists(SCORE, min_size=2, max_size=12),
    scoring=st.sampled_from(["butler", "cross_imps"]),
)
def test_imp_pairs_boards_conserve(scores: list[int], scoring: str) -> None:
    tables = [
        {
            "table": i + 1,
            "ns_pair": str(i + 1),
            "ew_pair": str(100 + i),
            "kind": "played",
            "computed_score": s,
        }
        for i, s in enumerate(scores)
    ]
    rows = _rows(tables, scoring, None, "abf" if scoring == "butler" else "wbf")
    out = score_imp_rows(rows, pl.DataFrame(schema=COMPS))
    assert imp_breaches(out.with_columns(pl.lit(False).alias("missing_result"))) == []
    # equal scores get equal IMPs
    by = out.group_by("computed_score").agg(pl.col("ns_imps").n_unique())
    assert (by["ns_imps"] == 1).all()
