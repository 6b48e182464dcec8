"""A one-winner (arrow-switched) Mitchell made from the real two-winner Compscore file.

The real 42-pair Mitchell (21 NS and 21 EW pairs, 27 boards, 9 rounds of 3) is copied with
``WINNER_TYPE`` set as asked and, on the boards of two rounds, the tables of some pairs
arrow-switched: their lines' ``NS_PAIR_NUMBER`` and ``EW_PAIR_NUMBER`` texts are exchanged.
The score and the matchpoints stay as they were: they belong to the seat, whoever sits in
it, so every figure of the file stays valid. Nothing else changes (names and membership
numbers stay in the copy, which is written to a test's temporary folder only).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import defusedxml.ElementTree as SafeET

from tests.conftest import REALDATA, shared_file

MITCHELL = "compscore_usebio_mp_mitchell_42p_adjusted.xml"


def switched(board: int, ns: str) -> bool:
    """The tables arrow-switched: round 5 (boards 13-15) where NS pairs 15-21 sit, round 8
    (boards 22-24) where NS pairs 1-7 sit. None is on the file's odd boards 1-4."""
    number = int(ns.upper().removesuffix("NS"))
    return (13 <= board <= 15 and number >= 15) or (22 <= board <= 24 and number <= 7)


@dataclass(frozen=True)
class Line:
    """One traveller line of the built file as it stands there (pairs as written)."""

    board: int
    ns: str
    ew: str
    score: str
    ns_mp: float
    ew_mp: float
    switched: bool


def build(
    tmp: Path, winner: str = "1", name: str = "one_winner.xml", totals: bool = True
) -> tuple[Path, list[Line]]:
    """Write the copy to ``tmp/name``; return its path and its lines. ``totals=False`` also
    drops the program's ``TOTAL_SCORE``, ``PERCENTAGE`` and ``PLACE`` (the two-winner figures
    of the original, which the switches make stale)."""
    tree = SafeET.parse(shared_file(REALDATA / MITCHELL))
    event = tree.getroot().find("EVENT")
    assert event is not None
    winner_type = event.find("WINNER_TYPE")
    assert winner_type is not None and winner_type.text == "2"
    winner_type.text = winner
    lines = []
    for board in event.iter("BOARD"):
        number = int(board.findtext("BOARD_NUMBER") or 0)
        for line in board.findall("TRAVELLER_LINE"):
            ns, ew = line.find("NS_PAIR_NUMBER"), line.find("EW_PAIR_NUMBER")
            assert ns is not None and ew is not None and ns.text and ew.text
            swap = switched(number, ns.text)
            if swap:
                ns.text, ew.text = ew.text, ns.text
            lines.append(
                Line(
                    number,
                    ns.text,
                    ew.text,
                    line.findtext("SCORE") or "",
                    float(line.findtext("NS_MATCH_POINTS") or "nan"),
                    float(line.findtext("EW_MATCH_POINTS") or "nan"),
                    swap,
                )
            )
    if not totals:
        for pair in event.iter("PAIR"):
            for tag in ("TOTAL_SCORE", "PERCENTAGE", "PLACE"):
                for el in pair.findall(tag):
                    pair.remove(el)
    path = tmp / name
    tmp.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path, lines
