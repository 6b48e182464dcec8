"""The hand diagram, double-dummy table and par a board page shows (from ``sql/publish/deals``).

A hand is stored ``spades.hearts.diamonds.clubs`` (:mod:`pipelines.deals`); the page shows each
suit on its own line with its symbol, ``10`` for the ten and a dash for a void, the dealer and
the vulnerable sides marked as Law 2 prints them on the board. The double-dummy table gives the
tricks each declarer takes in each strain with best play by all four; par is NS-signed.
"""

from __future__ import annotations

import re
from typing import Any

from pipelines.deals import SEATS, STRAINS
from pipelines.publish.explain import MINUS

SUITS: tuple[tuple[str, str, bool], ...] = (
    ("spades", "\u2660", False),
    ("hearts", "\u2665", True),
    ("diamonds", "\u2666", True),
    ("clubs", "\u2663", False),
)
STRAIN_LABELS: dict[str, str] = {
    "nt": "NT",
    "s": "\u2660",
    "h": "\u2665",
    "d": "\u2666",
    "c": "\u2663",
}
SEAT_LABELS: dict[str, str] = {"n": "North", "e": "East", "s": "South", "w": "West"}
VULNERABLE_TEXT: dict[str, str] = {
    "None": "None vulnerable",
    "NS": "North-South vulnerable",
    "EW": "East-West vulnerable",
    "Both": "Both vulnerable",
}


def _cards(suit: str) -> str:
    """A suit's cards as printed: ``AKT2`` → ``A K 10 2``; a void → ``—``."""
    return " ".join("10" if c == "T" else c for c in suit) if suit else "\u2014"


def vulnerable(seat: str, vulnerability: str) -> bool:
    """Whether ``seat`` (``north`` ...) is vulnerable under ``vulnerability`` (Law 2)."""
    side = "NS" if seat in ("north", "south") else "EW"
    return vulnerability in ("Both", side)


def deal_view(deal: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the board page shows of ``deal`` (a row of ``sql/publish/deals``): the four hands
    by seat (suits with symbol and cards, dealer and vulnerability marked), the double-dummy
    rows and the par line; ``None`` without a deal."""
    if deal is None:
        return None
    hands = {}
    for seat in SEATS:
        suits = deal[seat].split(".")
        hands[seat] = {
            "label": seat.capitalize(),
            "dealer": deal["dealer"] == seat[0].upper(),
            "vulnerable": vulnerable(seat, deal["vulnerability"]),
            "suits": [
                {"name": name, "symbol": sym, "red": red, "cards": _cards(cards)}
                for (name, sym, red), cards in zip(SUITS, suits, strict=True)
            ],
        }
    view: dict[str, Any] = {
        "hands": hands,
        "dealer": SEAT_LABELS[deal["dealer"].lower()],
        "vulnerability": VULNERABLE_TEXT.get(deal["vulnerability"], deal["vulnerability"]),
        "dd": None,
        "par": None,
    }
    if deal.get("par_score") is not None:
        view["dd"] = {
            "strains": [STRAIN_LABELS[s] for s in STRAINS],
            "red": [s in ("h", "d") for s in STRAINS],
            "rows": [
                {
                    "seat": SEAT_LABELS[seat[0]],
                    "tricks": [deal[f"{seat[0]}_{s}"] for s in STRAINS],
                }
                for seat in ("north", "south", "east", "west")
            ],
        }
        view["par"] = par_text(deal["par_score"], deal.get("par_contracts") or "")
    return view


def par_text(score: int, contracts: str) -> str:
    """``NS +420: 4♠ by N, S``; ``EW +100: 5♦X by N −1`` (the side that scores); a deal where
    neither side can make anything: ``0: passed out``."""
    if score == 0:
        return "0: passed out"
    side = "NS" if score > 0 else "EW"
    shown = contracts
    for letter, sym in (("S", "\u2660"), ("H", "\u2665"), ("D", "\u2666"), ("C", "\u2663")):
        shown = _strain_symbol(shown, letter, sym)
    return f"{side} +{abs(score)}: {shown}".replace("-", MINUS)


def _strain_symbol(text: str, letter: str, symbol: str) -> str:
    """``4S by N`` → ``4♠ by N``: the strain letter after the level only."""
    return re.sub(rf"(?<=[1-7]){letter}(?=X*\b| )", symbol, text)
