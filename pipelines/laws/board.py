"""Law 2: the dealer and vulnerability printed on a board, from its number.

The pattern repeats every 16 boards. Dealer: N for boards 1, 5, 9, 13; E for
2, 6, 10, 14; S for 3, 7, 11, 15; W for 4, 8, 12, 16. Vulnerability:

* None: 1, 8, 11, 14
* NS:   2, 5, 12, 15
* EW:   3, 6, 9, 16
* Both: 4, 7, 10, 13

Compactly, with ``k = (board - 1) mod 16``, vulnerability is
``["None", "NS", "EW", "Both"][(k + k // 4) mod 4]``.
"""

from __future__ import annotations

import polars as pl

VULNERABILITIES: tuple[str, ...] = ("None", "NS", "EW", "Both")
DEALERS: tuple[str, ...] = ("N", "E", "S", "W")


def _check(board: int) -> int:
    if not isinstance(board, int) or isinstance(board, bool) or board < 1:
        raise ValueError(f"a board number is an integer >= 1, not {board!r}")
    return (board - 1) % 16


def dealer(board: int) -> str:
    """The dealer of ``board`` (Law 2): ``"N"``, ``"E"``, ``"S"`` or ``"W"``.

    >>> dealer(1), dealer(2), dealer(16), dealer(17)
    ('N', 'E', 'W', 'N')
    """
    return DEALERS[_check(board) % 4]


def vulnerability(board: int) -> str:
    """The vulnerability of ``board`` (Law 2): ``"None"``, ``"NS"``, ``"EW"`` or ``"Both"``.

    >>> [vulnerability(b) for b in (1, 2, 3, 4, 17)]
    ['None', 'NS', 'EW', 'Both', 'None']
    """
    k = _check(board)
    return VULNERABILITIES[(k + k // 4) % 4]


def is_vulnerable(board: int, side: str) -> bool:
    """Whether ``side`` (``"NS"``/``"EW"``, or a seat ``N E S W``) is vulnerable on ``board``."""
    side = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}.get(side, side)
    if side not in ("NS", "EW"):
        raise ValueError(f"side must be NS, EW or a seat, not {side!r}")
    v = vulnerability(board)
    return v == "Both" or v == side


def vulnerability_expr(board: pl.Expr) -> pl.Expr:
    """Vectorised :func:`vulnerability`: the Law 2 vulnerability of an integer board column."""
    k = (board - 1) % 16
    idx = (k + k // 4) % 4
    return (
        pl.when(idx == 0)
        .then(pl.lit("None"))
        .when(idx == 1)
        .then(pl.lit("NS"))
        .when(idx == 2)
        .then(pl.lit("EW"))
        .otherwise(pl.lit("Both"))
    )


def declarer_vulnerable_expr(board: pl.Expr, declarer: pl.Expr) -> pl.Expr:
    """Vectorised: whether the declaring side (seat ``N E S W``) is vulnerable on ``board``."""
    k = (board - 1) % 16
    idx = (k + k // 4) % 4
    ns = declarer.is_in(["N", "S"])
    return (idx == 3) | ((idx == 1) & ns) | ((idx == 2) & ~ns)
