"""Hand records: the deals the files carry, checked, and their double-dummy analysis.

A deal is read from a USEBIO ``HANDSET``, a PBN ``[Deal]`` (with ``[Dealer]`` and
``[Vulnerable]``), a Bridgemate ``HandRecord`` or a hand-record PBN in the inbox (a PBN file of
deals only, ``hands.pbn``; its ``[Event]`` tag names the event). :func:`checked` keeps the deals
that are whole — four hands of 13 cards, the 52 cards of the pack once each (Law 1) — and
gives the dealer and vulnerability of Law 2 where the file states none; every deal it cannot
keep becomes a warning (file, location, field, reason): a hand record is not a result, so
nothing is held back for it.

:func:`analyse` computes, once per deal, the double-dummy tricks (the 20 entries: each of four
declarers in each of five strains) and the par score and contracts with ``endplay``, the
maintained Python binding of Bo Haglund's double-dummy solver (DDS). Par is the contract
result both sides reach with best bidding and double-dummy play (neither side can improve
its score by bidding on or doubling), for the board's dealer and vulnerability (Law 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import duckdb
import polars as pl

from pipelines.laws.board import dealer as law2_dealer
from pipelines.laws.board import vulnerability as law2_vulnerability
from pipelines.memo import Memory
from pipelines.tables import polars_schema
from pipelines.warehouse import Write, query, write

SEATS: tuple[str, ...] = ("north", "east", "south", "west")
RANKS = "AKQJT98765432"
#: The strains of a double-dummy table, in the order the tables print them.
STRAINS: tuple[str, ...] = ("nt", "s", "h", "d", "c")
#: The 20 double-dummy columns: declarer then strain (``n_nt`` ... ``w_c``).
DD_COLUMNS: tuple[str, ...] = tuple(f"{seat[0]}_{strain}" for seat in SEATS for strain in STRAINS)

_VULNERABILITY = {
    "none": "None",
    "love": "None",
    "-": "None",
    "ns": "NS",
    "n-s": "NS",
    "ew": "EW",
    "e-w": "EW",
    "both": "Both",
    "all": "Both",
}

#: Deals per call of DDS's CalcAllTables (it solves at most 40 tables of 5 strains at once).
BATCH = 32

#: The key of a deal: the same cards, dealer and vulnerability are analysed once.
DEAL_KEY: tuple[str, ...] = ("north", "east", "south", "west", "dealer", "vulnerability")


def hand_problem(hand: str | None) -> str | None:
    """Why ``hand`` (``spades.hearts.diamonds.clubs``) is not one hand of 13 cards; ``None``
    when it is."""
    if hand is None:
        return "the hand is not given"
    suits = hand.split(".")
    if len(suits) != 4:
        return f"{hand!r} is not four suits separated by dots (spades.hearts.diamonds.clubs)"
    for suit in suits:
        bad = [c for c in suit if c not in RANKS]
        if bad:
            return f"{hand!r} holds {''.join(bad)!r}, not a rank (AKQJT98765432)"
        if len(set(suit)) != len(suit):
            return f"{hand!r} holds a card twice"
    n = sum(len(s) for s in suits)
    return None if n == 13 else f"{hand!r} holds {n} cards, not 13"


def normal_hand(hand: str | None) -> str | None:
    """A hand with the ranks in capitals, ``10`` written ``T``, each suit from the ace down."""
    if hand is None:
        return None
    suits = hand.upper().replace("10", "T").split(".")
    return ".".join("".join(sorted(s, key=RANKS.find)) for s in suits)


def deal_problem(row: dict[str, str | None]) -> tuple[str, str] | None:
    """``(field, reason)`` when ``row``'s four hands are not a deal of the pack (Law 1: 52
    cards, 13 to each player); ``None`` when they are."""
    for seat in SEATS:
        problem = hand_problem(row.get(seat))
        if problem:
            return seat, f"the {seat} hand cannot be shown: {problem}"
    cards: set[tuple[int, str]] = set()
    for seat in SEATS:
        for s, suit in enumerate(str(row[seat]).split(".")):
            cards.update((s, c) for c in suit)
    if len(cards) != 52:
        return "deal", f"the four hands hold {len(cards)} different cards, not the 52 of the pack"
    return None


def dealer_of(value: str | None) -> str | None:
    """The dealer's seat letter (``N``, ``E``, ``S``, ``W``) a file writes as ``N`` or
    ``North`` (any case); ``""`` when it writes none; ``None`` when it is not a seat."""
    text = (value or "").strip().upper()
    if not text:
        return ""
    return text[:1] if text in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST") else None


def vulnerability_of(value: str | None) -> str | None:
    """The vulnerability (``None``, ``NS``, ``EW``, ``Both``) a file writes as any of the
    words PBN and the programs use (``Love``, ``N-S``, ``All`` ...); ``""`` when it writes
    none; ``None`` when it is none of them."""
    text = (value or "").strip().lower()
    if not text:
        return ""
    return _VULNERABILITY.get(text)


def _board(value: str | None) -> int | None:
    try:
        b = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return b if b >= 1 else None


def _warning(row: dict[str, str | None], field: str, reason: str) -> dict[str, str | None]:
    raw = " ".join(str(row.get(s) or "-") for s in SEATS)
    return {
        "file": row.get("file"),
        "location": row.get("location"),
        "field": field,
        "reason": reason + "; the board's page shows no diagram",
        "raw": raw,
    }


def checked(deals: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The deals to keep (the ``deals`` table's columns) and a warning for each one dropped.

    A deal is kept when its event, session and board are known and its hands are a deal of
    the pack; the dealer and vulnerability are the file's (``N``/``E``/``S``/``W``; ``None``,
    ``NS``, ``EW``, ``Both`` — PBN's ``Love`` and ``All`` are the same) or, where it states
    none, the board number's (Law 2). The same board given twice with the same cards (a PBN
    record per table) is one deal; given with different cards, neither is kept."""
    keep: dict[tuple, dict] = {}
    dropped: set[tuple] = set()
    warnings: list[dict[str, str | None]] = []
    for row in deals.to_dicts():
        board = _board(row.get("board"))
        session = _board(row.get("session"))
        if row.get("event_id") is None or session is None:
            warnings.append(
                _warning(
                    row, "session", "this deal's event session is not known (several in the file)"
                )
            )
            continue
        if board is None:
            warnings.append(_warning(row, "board", f"board {row.get('board')!r} is not a number"))
            continue
        row = {**row, **{s: normal_hand(row.get(s)) for s in SEATS}}
        problem = deal_problem(row)
        if problem:
            warnings.append(_warning(row, *problem))
            continue
        dealer = (row.get("dealer") or "").strip().upper()[:1] or law2_dealer(board)
        if dealer not in "NESW":
            dealer = law2_dealer(board)
        vul = _VULNERABILITY.get((row.get("vulnerability") or "").strip().lower())
        deal = {
            "event_id": row["event_id"],
            "session": session,
            "section": row.get("section") or None,
            "board": board,
            "dealer": dealer,
            "vulnerability": vul or law2_vulnerability(board),
            **{s: row[s] for s in SEATS},
            "file": row["file"],
            "location": row["location"],
        }
        key = (deal["event_id"], session, deal["section"], board)
        if key in dropped:
            continue
        if key in keep:
            if any(keep[key][c] != deal[c] for c in DEAL_KEY):
                warnings.append(
                    _warning(
                        row,
                        "deal",
                        f"board {board} is given with different cards at {keep[key]['location']}"
                        f" of {keep[key]['file']}",
                    )
                )
                dropped.add(key)
                del keep[key]
            continue
        keep[key] = deal
    kept = pl.DataFrame(list(keep.values()), schema=polars_schema("deals"), orient="row")
    warned = pl.DataFrame(
        warnings, schema={c: pl.Utf8 for c in ("file", "location", "field", "reason", "raw")}
    )
    return kept, warned


# ------------------------------------------------------------------ double dummy and par


def pbn_deal(row: dict) -> str:
    """The deal as PBN writes it, from North: ``N:<north> <east> <south> <west>``."""
    return "N:" + " ".join(row[s] for s in SEATS)


#: The double-dummy tables this process computed, by the deal as PBN writes it
#: (:func:`pbn_deal`): a table depends on the deal alone, so a deal another warehouse of the
#: same process analysed is not solved again (:mod:`pipelines.memo`).
TABLES = Memory(keep=20_000)


def analyse(deals: pl.DataFrame) -> pl.DataFrame:
    """The double-dummy table and par of each deal (one row per :data:`DEAL_KEY`; the
    ``deal_analysis`` table's columns).

    ``n_s`` is the tricks North takes as declarer in spades with best play by all four
    (double dummy); ``par_score`` is NS-signed (``-420``: EW make 420 at par);
    ``par_contracts`` lists the par contracts as ``4S by N, S`` (``x``: doubled, then the
    over- or undertricks where they are not made exactly), ``;``-separated."""
    schema = polars_schema("deal_analysis")
    todo = deals.select(DEAL_KEY).unique(maintain_order=True).to_dicts()
    if not todo:
        return pl.DataFrame(schema=schema)  # endplay (a second to load) not needed
    from endplay.dds import calc_all_tables, par
    from endplay.types import Deal, Denom, Player, Vul

    denoms = {"nt": Denom.nt, "s": Denom.spades, "h": Denom.hearts, "d": Denom.diamonds}
    denoms["c"] = Denom.clubs
    players = {"n": Player.north, "e": Player.east, "s": Player.south, "w": Player.west}
    vuls = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "Both": Vul.both}
    written = [pbn_deal(r) for r in todo]
    known = {d: TABLES.get(d) for d in written}
    unknown = [d for d, table in known.items() if table is None]
    for i in range(0, len(unknown), BATCH):
        batch = unknown[i : i + BATCH]
        for deal, table in zip(batch, calc_all_tables([Deal(d) for d in batch]), strict=True):
            known[deal] = table
            TABLES.put(deal, table)
    tables = [known[d] for d in written]
    out = []
    for r, dd in zip(todo, tables, strict=True):
        row = dict(r)
        for col in DD_COLUMNS:
            seat, strain = col.split("_")
            row[col] = dd[denoms[strain], players[seat]]
        parlist = par(dd, vuls[r["vulnerability"]], players[r["dealer"].lower()])
        row["par_score"] = int(parlist.score)
        row["par_contracts"] = par_contracts(str(c) for c in parlist)
        out.append(row)
    return pl.DataFrame(out, schema=schema, orient="row")


_PAR = re.compile(r"^([1-7])(NT|[SHDC])(x{0,2})([NESW]+)(=|[+-]\d+)$")


def par_contracts(contracts: Iterable[str]) -> str:
    """The par contracts as endplay prints them (``4♠N=``, ``5♦xE-3``, ``3NTS+1``) in words:
    ``4S by N, S`` (one contract that either partner declares), ``5DX by E −3`` (doubled,
    three down), ``3NT by S +1``; several ``;``-separated."""
    merged: dict[tuple[str, str], list[str]] = {}
    for text in contracts:
        for sym, letter in (("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C")):
            text = text.replace(sym, letter)
        m = _PAR.match(text)
        if not m:
            merged.setdefault((text, ""), [])
            continue
        level, strain, dbl, seats, res = m.groups()
        made = "" if res == "=" else " " + res.replace("-", "\u2212")
        merged.setdefault((f"{level}{strain}{dbl.upper()}", made), []).extend(seats)
    return "; ".join(
        f"{c} by {', '.join(sorted(set(seats), key='NESW'.find))}{made}" if seats else c
        for (c, made), seats in merged.items()
    )


def analyse_new(conn: duckdb.DuckDBPyConnection) -> int:
    """Analyse the deals of the ``deals`` table not in ``deal_analysis`` yet and add them (a
    deal is analysed once, whatever run, event or board it comes back in); the analyses of
    deals no file holds any more are dropped. How many were analysed."""
    todo = query(conn, "publish/deals_to_analyse")
    rows = analyse(todo)
    write(conn, [Write("deal_analysis", rows, delete="deal_analysis_gone")])
    return rows.height
