"""The floor job the nightly-scale benchmark measures the product against
(:mod:`pipelines.bench_floor`): it must do the real work, so its scores are Law 77's and
its matchpoints add up, or the yardstick would flatter the product."""

from __future__ import annotations

import json

import polars as pl

from pipelines.bench_floor import contract_score, run
from pipelines.synth.inbox import generate_inbox
from tests.conftest import VECTORS


def _score(rows: list[dict]) -> list[int]:
    frame = pl.LazyFrame(
        rows,
        schema={
            "board": pl.Int64,
            "contract": pl.String,
            "declarer": pl.String,
            "tricks": pl.Int64,
            "score": pl.Int64,
        },
    )
    return contract_score(frame).collect()["ns_score"].to_list()


def test_contract_scores_are_the_published_vectors():
    vectors = json.loads(VECTORS.read_text())["contract_scores"]
    rows, want = [], []
    for v in vectors:
        # board 1: nobody vulnerable; board 2: North-South vulnerable (Law 2)
        board = 2 if v["vulnerable"] else 1
        tricks = v["level"] + 6 + v["result"]
        contract = f"{v['level']}{'NT' if v['strain'] == 'N' else v['strain']}{v['doubled']}"
        for declarer, sign in (("N", 1), ("S", 1)):
            rows.append(dict(board=board, contract=contract, declarer=declarer,
                             tricks=tricks, score=None))  # fmt: skip
            want.append(sign * v["score"])
        # East on board 3 (East-West vulnerable) or board 1: the same score, NS's side negated
        rows.append(dict(board=3 if v["vulnerable"] else 1, contract=contract, declarer="E",
                         tricks=tricks, score=None))  # fmt: skip
        want.append(-v["score"])
    assert _score(rows) == want


def test_doubled_undertricks_are_the_published_table():
    table = json.loads(VECTORS.read_text())["doubled_undertricks"]
    for vul, board in (("not_vulnerable", 1), ("vulnerable", 2)):
        rows = [dict(board=board, contract=f"7S{x}", declarer="N", tricks=13 - down, score=None)
                for down in range(1, 14) for x in ("X", "XX")]  # fmt: skip
        want = [table[vul][down] * (1 if x == "X" else 2)
                for down in range(1, 14) for x in ("X", "XX")]  # fmt: skip
        assert _score(rows) == want


def test_a_passed_out_board_and_a_given_score():
    rows = [dict(board=5, contract="PASS", declarer=None, tricks=None, score=None),
            dict(board=5, contract=None, declarer=None, tricks=None, score=-420)]  # fmt: skip
    assert _score(rows) == [0, -420]


def test_every_pair_session_is_scored_and_its_matchpoints_add_up(tmp_path):
    inbox = tmp_path / "inbox"
    generate_inbox(inbox, sessions=6, clubs=3, seed=1)
    n = run(inbox, tmp_path / "out")
    st = pl.read_parquet(tmp_path / "out" / "standings.parquet")
    assert n > 1000
    # each board gives its top to every pair of results: NS and EW shares add up to the
    # tops of both sides, so a section's matchpoints are half its tops
    per = st.group_by("event_id", "session", "section").agg(pl.col("mp").sum(), pl.col("top").sum())
    assert (per["mp"] * 2 == per["top"]).all()
    assert st["boards"].sum() == 2 * n
