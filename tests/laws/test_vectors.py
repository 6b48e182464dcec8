"""The pure rules against every applicable published vector of ../shared/domain/vectors.json
(kept in the repository as tests/data/vectors.json, checked against the original here).

Law 2 (board rotation), Law 77 (contract scores, doubled undertricks), Law 78A
(matchpoint boards), Neuberg factoring on the 2/1 and 1/0.5 scales, and the EBU
small-group figures are each checked against the answer their source published.
The IMP and VP vectors are checked in tests/laws/test_imps.py and test_victory_points.py.
"""

from __future__ import annotations

import json
from fractions import Fraction

import polars as pl
import pytest

from pipelines.laws.board import dealer, vulnerability, vulnerability_expr
from pipelines.laws.contract import Contract, contract_score
from pipelines.laws.matchpoints import matchpoints, neuberg, top
from pipelines.laws.rounding import round_fraction
from tests.conftest import SHARED_VECTORS, VECTORS, shared_file


def vectors() -> dict:
    return json.loads(VECTORS.read_text())


def _contract(v: dict) -> Contract:
    strain = "NT" if v["strain"] == "N" else v["strain"]
    return Contract(v["level"], strain, len(v["doubled"]))


def test_contract_scores():
    for v in vectors()["contract_scores"]:
        tricks = v["level"] + 6 + v["result"]
        assert contract_score(_contract(v), tricks, v["vulnerable"]) == v["score"], v


@pytest.mark.parametrize("vulnerable", [False, True])
def test_doubled_and_redoubled_undertricks(vulnerable):
    table = vectors()["doubled_undertricks"]
    expected = table["vulnerable" if vulnerable else "not_vulnerable"]
    assert table["redoubled"] == "2 x doubled"
    for undertricks, score in enumerate(expected):
        if undertricks == 0:
            continue
        tricks = 13 - undertricks  # 7NT needs 13 tricks
        assert contract_score(Contract(7, "NT", 1), tricks, vulnerable) == score
        assert contract_score(Contract(7, "NT", 2), tricks, vulnerable) == 2 * score


def test_board_rotation():
    rot = vectors()["board_rotation"]
    for b in rot["boards"]:
        for board in (b["board"], b["board"] + 16, b["board"] + 32):
            assert dealer(board) == b["dealer"]
            assert vulnerability(board) == b["vulnerable"]
    boards = pl.Series(range(1, 49))
    got = pl.select(vulnerability_expr(pl.lit(boards))).to_series().to_list()
    assert got == [vulnerability(b) for b in range(1, 49)]


def test_matchpoint_boards():
    for v in vectors()["matchpoints"]:
        got = matchpoints(v["ns_scores"])
        assert [float(m) for m in got] == [float(m) for m in v["ns_mp"]], v
        assert top(len(v["ns_scores"])) == v["top"]


def test_neuberg():
    for v in vectors()["neuberg"]:
        scale = v["scale"]
        got = neuberg(v["M"], v["n"], v["N"], scale)
        if "result_1dp" in v:
            assert float(round_fraction(got, 1, "half_up")) == v["result_1dp"], v
        elif "result" in v:
            assert got == Fraction(str(v["result"])), v
        else:  # percent form: the factored MP as a percentage of the full top
            pct = 100 * got / top(v["N"], scale)
            assert float(round_fraction(pct, 1, "half_up")) == v["result_percent_1dp"], v


def test_neuberg_groups_keep_their_average():
    # fouled 7/3 split of a board due 10 times (EBU): the groups sum to 63 and 27, total 90
    g7 = [neuberg(m, 7, 10) for m in (12, 10, 8, 6, 4, 2, 0)]
    g3 = [neuberg(m, 3, 10) for m in (4, 2, 0)]
    assert sum(g7) == 63 and sum(g3) == 27 and sum(g7) + sum(g3) == 10 * 9


def test_ebu_small_subfield_rule_figures():
    # The EBU rule (fouled boards arrive with the Laws-engine issue); its published percentages
    # must follow from the stated formula.
    data = vectors()["ebu_small_subfield"]
    for c in data["cases"]:
        assert 60 + (c["M"] - (c["A"] - 1)) * 5 == c["percent"]


def test_the_repositorys_copy_is_the_published_vectors():
    """tests/data/vectors.json is ../shared/domain/vectors.json, byte for byte."""
    assert VECTORS.read_bytes() == shared_file(SHARED_VECTORS).read_bytes()
