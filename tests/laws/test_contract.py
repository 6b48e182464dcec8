"""Law 77: the vectorised contract scorer equals the scalar rule on every combination."""

from __future__ import annotations

import itertools

import polars as pl
import pytest

from pipelines.laws.board import is_vulnerable
from pipelines.laws.contract import (
    STRAINS,
    Contract,
    contract_parts_expr,
    contract_score,
    ns_score,
    ns_score_expr,
    parse_contract,
)


def test_vectorised_equals_scalar_everywhere():
    rows = list(
        itertools.product(range(1, 8), STRAINS, (0, 1, 2), range(0, 14), range(1, 17), "NESW")
    )
    df = pl.DataFrame(
        rows, schema=["level", "strain", "doubled", "tricks", "board", "declarer"], orient="row"
    )
    got = (
        df.select(
            ns_score_expr(
                pl.col("board"),
                pl.col("level"),
                pl.col("strain"),
                pl.col("doubled"),
                pl.col("declarer"),
                pl.col("tricks"),
            )
        )
        .to_series()
        .to_list()
    )
    want = [ns_score(Contract(lv, st, d), dec, tk, b) for lv, st, d, tk, b, dec in rows]
    assert got == want


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("4S", (4, "S", 0)),
        ("3NT", (3, "NT", 0)),
        ("6HX", (6, "H", 1)),
        ("7NTXX", (7, "NT", 2)),
        ("1C", (1, "C", 0)),
    ],
)
def test_parse(text, parts):
    c = parse_contract(text)
    assert (c.level, c.strain, c.doubled) == parts
    got = pl.select(**contract_parts_expr(pl.lit(text))).row(0)
    assert got == parts


@pytest.mark.parametrize("text", ["8S", "0NT", "4N", "4SXXX", "NT", "", "4 S", "PASSED"])
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        parse_contract(text)
    assert pl.select(**contract_parts_expr(pl.lit(text))).row(0) == (None, None, None)


def test_pass_scores_zero():
    assert parse_contract("pass") is None
    assert ns_score(None, "N", 0, 4) == 0


def test_worked_examples_from_the_rules():
    # shared/domain/scoring-rules.md section 2
    assert contract_score(parse_contract("4DX"), 7, False) == -500
    assert contract_score(parse_contract("4DX"), 7, True) == -800
    assert contract_score(parse_contract("4DXX"), 7, False) == -1000
    assert contract_score(parse_contract("5SXX"), 12, True) == 1600
    assert contract_score(parse_contract("3NT"), 11, True) == 660


def test_declarer_side_vulnerability_by_law_2():
    # board 2: NS vulnerable; 4H making by N is +620, by E (not vulnerable) -420
    assert is_vulnerable(2, "N") and not is_vulnerable(2, "E")
    assert ns_score(parse_contract("4H"), "N", 10, 2) == 620
    assert ns_score(parse_contract("4H"), "E", 10, 2) == -420
