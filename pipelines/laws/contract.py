"""Law 77: the score of a contract result, and the notation of contracts.

Trick score per odd trick bid and made: clubs and diamonds 20, hearts and
spades 30, notrump 40 for the first and 30 for each further trick; doubled
x2, redoubled x4. Game when the contracted trick score is at least 100 (bonus
300 not vulnerable, 500 vulnerable), otherwise a part-score bonus of 50. Small
slam bonus 500/750, grand slam 1000/1500 (not vulnerable/vulnerable). Making a
doubled contract earns 50 "for the insult", redoubled 100. Overtricks:
undoubled the trick value; doubled 100/200, redoubled 200/400 each
(not vulnerable/vulnerable). Undertricks: undoubled 50/100 each; doubled not
vulnerable 100 for the first, 200 for the second and third, 300 each after;
doubled vulnerable 200 for the first, 300 each after; redoubled twice the
doubled figures. A passed-out board scores 0. The 2007 and 2017 Laws agree.

Scores are from the declaring side's point of view in :func:`contract_score`;
:func:`ns_score` signs them for North-South as travellers record them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from pipelines.laws.board import declarer_vulnerable_expr, is_vulnerable

STRAINS: tuple[str, ...] = ("C", "D", "H", "S", "NT")
SEATS: tuple[str, ...] = ("N", "E", "S", "W")

#: The canonical contract notation: level, strain, optional X/XX; or PASS.
CONTRACT_RE = re.compile(r"^(?P<level>[1-7])(?P<strain>NT|C|D|H|S)(?P<doubled>XX|X)?$")


@dataclass(frozen=True)
class Contract:
    """A contract: ``level`` 1..7, ``strain`` in :data:`STRAINS`, ``doubled`` 0, 1 (X) or 2 (XX)."""

    level: int
    strain: str
    doubled: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ValueError(f"contract level must be 1..7, not {self.level}")
        if self.strain not in STRAINS:
            raise ValueError(f"strain must be one of {STRAINS}, not {self.strain!r}")
        if self.doubled not in (0, 1, 2):
            raise ValueError(f"doubled must be 0, 1 or 2, not {self.doubled}")

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{('', 'X', 'XX')[self.doubled]}"


def parse_contract(text: str) -> Contract | None:
    """Parse canonical notation (``4S``, ``3NT``, ``6HX``, ``7NTXX``); ``PASS`` gives ``None``.

    Raises :class:`ValueError` for anything else.

    >>> parse_contract("6HX")
    Contract(level=6, strain='H', doubled=1)
    >>> parse_contract("PASS") is None
    True
    """
    t = text.strip().upper()
    if t == "PASS":
        return None
    m = CONTRACT_RE.match(t)
    if not m:
        raise ValueError(f"not a contract: {text!r} (expected e.g. 4S, 3NT, 6HX, 7NTXX or PASS)")
    return Contract(int(m["level"]), m["strain"], len(m["doubled"] or ""))


def _trick_value(strain: str) -> int:
    return 20 if strain in ("C", "D") else 30


def contract_score(contract: Contract | None, tricks: int, vulnerable: bool) -> int:
    """The declaring side's score (Law 77) for ``contract`` when declarer takes ``tricks``.

    ``contract`` ``None`` is a passed-out board and scores 0 (``tricks`` ignored).

    >>> contract_score(parse_contract("3NT"), 11, True)
    660
    >>> contract_score(parse_contract("4DX"), 7, False)
    -500
    >>> contract_score(parse_contract("5SXX"), 12, True)
    1600
    """
    if contract is None:
        return 0
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0..13, not {tricks}")
    level, strain, dbl = contract.level, contract.strain, contract.doubled
    need = level + 6
    mult = (1, 2, 4)[dbl]
    if tricks < need:
        u = need - tricks
        if dbl == 0:
            return -(100 if vulnerable else 50) * u
        if vulnerable:
            pen = 300 * u - 100
        else:
            pen = 100 + 200 * min(u - 1, 2) + 300 * max(u - 3, 0)
        return -pen * (dbl * 1)  # XX = 2 x doubled
    # Contract made.
    if strain == "NT":
        trick_score = (40 + 30 * (level - 1)) * mult
    else:
        trick_score = _trick_value(strain) * level * mult
    score = trick_score
    if trick_score >= 100:
        score += 500 if vulnerable else 300
    else:
        score += 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    score += (0, 50, 100)[dbl]
    over = tricks - need
    if over:
        if dbl == 0:
            score += over * (30 if strain == "NT" else _trick_value(strain))
        else:
            score += over * (200 if vulnerable else 100) * dbl
    return score


def ns_score(contract: Contract | None, declarer: str, tricks: int, board: int) -> int:
    """The North-South-signed score of a result on ``board`` (vulnerability by Law 2).

    >>> ns_score(parse_contract("4H"), "E", 10, 1)
    -420
    """
    if contract is None:
        return 0
    if declarer not in SEATS:
        raise ValueError(f"declarer must be one of N E S W, not {declarer!r}")
    s = contract_score(contract, tricks, is_vulnerable(board, declarer))
    return s if declarer in ("N", "S") else -s


# --------------------------------------------------------------------------- vectorised


def contract_parts_expr(contract: pl.Expr) -> dict[str, pl.Expr]:
    """Split a canonical contract column into ``level``, ``strain`` and ``doubled`` (0, 1, 2).

    Values that are not canonical contracts (``PASS``, empty, garbage) give nulls; the
    caller tells ``PASS`` apart with :func:`is_pass_expr`.
    """
    m = contract.str.to_uppercase().str.strip_chars()
    pat = r"^([1-7])(NT|C|D|H|S)(XX|X)?$"
    return {
        "level": m.str.extract(pat, 1).cast(pl.Int8),
        "strain": m.str.extract(pat, 2),
        "doubled": pl.when(m.str.contains(pat))
        .then(m.str.extract(pat, 3).fill_null("").str.len_chars())
        .cast(pl.Int8),
    }


def is_pass_expr(contract: pl.Expr) -> pl.Expr:
    """Whether a contract column says the board was passed out."""
    return contract.str.to_uppercase().str.strip_chars() == "PASS"


def contract_score_expr(
    level: pl.Expr, strain: pl.Expr, doubled: pl.Expr, tricks: pl.Expr, vulnerable: pl.Expr
) -> pl.Expr:
    """Vectorised :func:`contract_score` (declaring side's view); null where any input is null.

    It is tested to agree with the scalar rule on every combination of level,
    strain, doubling, vulnerability and tricks.
    """
    lv = level.cast(pl.Int64)
    dbl = doubled.cast(pl.Int64)
    tk = tricks.cast(pl.Int64)
    need = lv + 6
    mult = pl.when(dbl == 0).then(1).when(dbl == 1).then(2).otherwise(4)
    per = pl.when(strain.is_in(["C", "D"])).then(20).otherwise(30)
    trick_score = (
        pl.when(strain == "NT").then((40 + 30 * (lv - 1)) * mult).otherwise(per * lv * mult)
    )
    game = (
        pl.when(trick_score >= 100).then(pl.when(vulnerable).then(500).otherwise(300)).otherwise(50)
    )
    slam = (
        pl.when(lv == 6)
        .then(pl.when(vulnerable).then(750).otherwise(500))
        .when(lv == 7)
        .then(pl.when(vulnerable).then(1500).otherwise(1000))
        .otherwise(0)
    )
    insult = dbl * 50
    over = tk - need
    over_value = (
        pl.when(dbl == 0)
        .then(pl.when(strain == "NT").then(30).otherwise(per))
        .otherwise(pl.when(vulnerable).then(200).otherwise(100) * dbl)
    )
    made = trick_score + game + slam + insult + over * over_value
    u = need - tk
    down_undoubled = pl.when(vulnerable).then(100).otherwise(50) * u
    down_doubled = (
        pl.when(vulnerable)
        .then(300 * u - 100)
        .otherwise(100 + 200 * pl.min_horizontal(u - 1, 2) + 300 * pl.max_horizontal(u - 3, 0))
    ) * dbl
    down = -pl.when(dbl == 0).then(down_undoubled).otherwise(down_doubled)
    return pl.when(tk >= need).then(made).otherwise(down)


def ns_score_expr(
    board: pl.Expr,
    level: pl.Expr,
    strain: pl.Expr,
    doubled: pl.Expr,
    declarer: pl.Expr,
    tricks: pl.Expr,
) -> pl.Expr:
    """Vectorised :func:`ns_score` for played contracts (null where an input is null)."""
    vul = declarer_vulnerable_expr(board, declarer)
    s = contract_score_expr(level, strain, doubled, tricks, vul)
    return pl.when(declarer.is_in(["N", "S"])).then(s).otherwise(-s)
