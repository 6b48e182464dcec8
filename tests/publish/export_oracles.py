"""The export writers as they were written row by row, element by element — the oracles
the column-wise writers (:mod:`pipelines.publish.usebio_writer`, :mod:`pipelines.publish.
pbn_writer`) are checked against, byte for byte: a USEBIO event as an ElementTree tree
serialised as ``ET.indent`` and ``ET.tostring`` write it (:func:`document`), a PBN session
line by line through :func:`~pipelines.publish.lines.export_line`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import groupby
from operator import itemgetter
from typing import Any

import polars as pl

from pipelines.laws.board import dealer, vulnerability
from pipelines.publish.explain import place_text
from pipelines.publish.lines import export_line
from pipelines.publish.pbn_writer import (
    SCORE_COLUMNS,
    SCORINGS,
    TOTAL_COLUMNS,
    _pct,
    header,
    quote,
    token,
)
from pipelines.publish.pbn_writer import (
    _figure as _pbn_figure,
)
from pipelines.publish.site import Decimals
from pipelines.publish.usebio_writer import (
    EVENT_TYPES,
    PROGRAM,
    _artificial,
    _attribute,
    _cdata,
    _figure,
    _text,
    dmy,
)


def document(root: ET.Element) -> bytes:
    """The bytes of ``root`` as a file: exactly what ``ET.indent(root, space=" ")`` then
    ``ET.tostring(root, encoding="utf-8", xml_declaration=True)`` give, for the trees this
    module builds (text only in elements without children), plus a final newline — written
    in one pass over the tree, without indenting it first or going through the generic
    serializer's writer calls (which cost a season's export most of its time). Comments are
    written as they are (their text is the writer's own, ``--`` never in it)."""
    parts = ["<?xml version='1.0' encoding='utf-8'?>\n"]
    _emit(root, 0, parts)
    parts.append("\n")
    return "".join(parts).encode("utf-8")


def _emit(el: ET.Element, depth: int, parts: list[str]) -> None:
    if el.tag is ET.Comment:
        parts.append(f"<!--{el.text}-->")
        return
    tag = el.tag
    attrs = "".join(f' {k}="{_attribute(v)}"' for k, v in el.attrib.items()) if el.attrib else ""
    if len(el):
        inner = "\n" + " " * (depth + 1)
        parts.append(f"<{tag}{attrs}>")
        for child in el:
            parts.append(inner)
            _emit(child, depth + 1, parts)
        parts.append(f"\n{' ' * depth}</{tag}>")
    elif el.text:
        parts.append(f"<{tag}{attrs}>{_cdata(el.text)}</{tag}>")
    else:
        parts.append(f"<{tag}{attrs} />")


def _sub(parent: ET.Element, tag: str, value: Any) -> ET.Element:
    el = ET.SubElement(parent, tag)
    el.text = _text(value)
    return el


def _participants(
    parent: ET.Element, standings: pl.DataFrame, dec: Decimals, event_type: str
) -> None:
    part = ET.SubElement(parent, "PARTICIPANTS", EVENT_TYPE=event_type)
    for r in standings.sort(["direction", "rank", "contestant"], nulls_last=True).to_dicts():
        pair = ET.SubElement(part, "PAIR")
        _sub(pair, "PAIR_NUMBER", r["contestant"])
        _sub(pair, "DIRECTION", r.get("direction") or "")
        _sub(pair, "TOTAL_SCORE", _figure(r.get("score_display"), dec.total))
        if r.get("percentage_display") is not None:
            _sub(pair, "PERCENTAGE", _figure(r.get("percentage_display"), dec.pct))
        _sub(pair, "PLACE", "" if r.get("sanction") else place_text(r["rank"], r["tied"]))
        for name in (r.get("names") or "").split(" & "):
            if name.strip():
                player = ET.SubElement(pair, "PLAYER")
                _sub(player, "PLAYER_NAME", name.strip())


def _boards(parent: ET.Element, results: pl.DataFrame, dec: Decimals, points: str) -> None:
    # the lines made dicts once and grouped by board, each board's in the order given
    by_board: dict[Any, list[dict[str, Any]]] = {}
    for r in results.to_dicts():
        by_board.setdefault(r["board"], []).append(r)
    for board in sorted(by_board):
        el = ET.SubElement(parent, "BOARD")
        _sub(el, "BOARD_NUMBER", board)
        for r in by_board[board]:
            line = export_line(r)
            tl = ET.SubElement(el, "TRAVELLER_LINE")
            if line.note:
                # XML forbids "--" in a comment: a space after each dash another follows
                tl.append(ET.Comment(f" {re.sub('-(?=-)', '- ', _text(line.note))} "))
            _sub(tl, "NS_PAIR_NUMBER", r["ns_pair"])
            _sub(tl, "EW_PAIR_NUMBER", r["ew_pair"])
            if line.contract:
                _sub(tl, "CONTRACT", line.contract)
                if line.contract != "PASS":
                    _sub(tl, "PLAYED_BY", line.declarer)
                    _sub(tl, "TRICKS", line.tricks)
            if line.not_played:
                score = "NP"
            elif line.ns_art or line.ew_art:
                score = _artificial(line.ns_art, line.ew_art)
            else:
                score = "" if line.ns_score is None else str(line.ns_score)
            _sub(tl, "SCORE", score)
            if points == "MATCH_POINTS":
                ns, ew, places = r.get("ns_mp_display"), r.get("ew_mp_display"), dec.mp
            else:  # IMPs as displayed (Butler, cross-IMPs)
                ns, ew, places = r.get("ns_imps_display"), r.get("ew_imps_display"), 2
            _sub(tl, f"NS_{points}", _figure(ns, places))
            _sub(tl, f"EW_{points}", _figure(ew, places))


def usebio_event(
    event_id: str, sessions: pl.DataFrame, standings: pl.DataFrame, results: pl.DataFrame
) -> bytes:
    """The USEBIO 1.2 document of one event (its sessions, standings and results)."""
    sessions = sessions.sort("session")
    first = sessions.row(0, named=True)
    dec = Decimals.of(first.get("profile"))
    event_type, points = EVENT_TYPES[first.get("scoring") or "matchpoints"]
    root = ET.Element("USEBIO", Version="1.2")
    event = ET.SubElement(root, "EVENT", EVENT_TYPE=event_type)
    _sub(event, "EVENT_IDENTIFIER", event_id)
    _sub(event, "EVENT_DESCRIPTION", first.get("name") or event_id)
    _sub(event, "PROGRAM_NAME", PROGRAM)
    _sub(event, "WINNER_TYPE", "2" if first.get("movement") == "mitchell" else "1")
    _sub(event, "DATE", dmy(first.get("date")))
    _sub(event, "SESSION_COUNT", sessions.height)
    if sessions.height > 1:
        _participants(event, standings.filter(pl.col("scope") == "event"), dec, event_type)
    for s in sessions.to_dicts():
        session = ET.SubElement(event, "SESSION")
        _sub(session, "SESSION_NUMBER", s["session"])
        _sub(session, "DATE", dmy(s.get("date")))
        st = standings.filter((pl.col("scope") == "session") & (pl.col("session") == s["session"]))
        res = results.filter(pl.col("session") == s["session"])
        for section in sorted(set(st["section"].to_list()) | set(res["section"].to_list())):
            sec = ET.SubElement(session, "SECTION")
            _sub(sec, "SECTION_ID", section)
            _participants(sec, st.filter(pl.col("section") == section), dec, event_type)
            _boards(sec, res.filter(pl.col("section") == section), dec, points)
    return document(root)


def _scores(r: dict[str, Any]) -> tuple[str, str, str, str, str]:
    """Contract, declarer, result, Score_NS and Score_EW cells of one line."""
    line = export_line(r)
    if line.not_played:
        return ("-", "-", "-", quote("NP"), quote("NP"))
    if line.ns_art or line.ew_art:
        ns, ew = line.ns_art or "=", line.ew_art or "="
        return ("-", "-", "-", quote(f"A{ns}"), quote(f"A{ew}"))
    contract = "Pass" if line.contract == "PASS" else token(line.contract)
    declarer = token(line.declarer) if line.contract != "PASS" else "-"
    tricks = token(line.tricks) if line.contract != "PASS" else "-"
    s = line.ns_score
    if s is None:
        return (contract, declarer, tricks, "-", "-")
    if s >= 0:
        return (contract, declarer, tricks, quote(s), "-")
    return (contract, declarer, tricks, "-", quote(-s))


def pbn_session(session: dict[str, Any], standings: pl.DataFrame, results: pl.DataFrame) -> str:
    """The PBN text of one event session."""
    dec = Decimals.of(session.get("profile"))
    scoring, prefix = SCORINGS[session.get("scoring") or "matchpoints"]
    score_columns = SCORE_COLUMNS.replace("{P}", prefix)
    total_columns = TOTAL_COLUMNS.replace("{P}", prefix)
    mp = prefix == "MP"
    date = (session.get("date") or "").replace("-", ".")
    mitchell = session.get("movement") == "mitchell"
    head = header(session, scoring)
    totals = [f'[TotalScoreTable "{total_columns}"]']
    order = standings.with_columns(pl.col("direction").fill_null(""))
    for r in order.sort(["section", "direction", "rank", "contestant"], nulls_last=True).to_dicts():
        totals.append(
            " ".join(
                [
                    token("" if r.get("sanction") else place_text(r["rank"], r["tied"])),
                    token(r["section"]),
                    token(r["contestant"]),
                    token(r["direction"] if mitchell else ""),
                    _pbn_figure(r.get("score_display"), dec.total),
                    _pbn_figure(r.get("percentage_display"), dec.pct),
                    quote(r.get("names") or ""),
                    str(r.get("boards") or 0),
                ]
            )
        )
    records = []
    # each board's lines by section, table and NS pair: the session's lines sorted once and
    # made dicts once (a sort and a frame per board cost more than the board's lines)
    lines = results.sort(
        ["board", "section", "table", "ns_pair"], nulls_last=True, maintain_order=True
    ).to_dicts()
    for i, (board, grp) in enumerate(groupby(lines, key=itemgetter("board"))):
        rec = [
            f"[Event {quote(session.get('name') or session['event_id'])}]",
            f"[Date {quote(date)}]",
            f"[Board {quote(board)}]",
            f"[Dealer {quote(dealer(int(board)))}]",
            f"[Vulnerable {quote(vulnerability(int(board)))}]",
            f'[Scoring "{scoring}"]',
            '[Competition "Pairs"]',
            f'[ScoreTable "{score_columns}"]',
        ]
        for r in grp:
            contract, declarer, tricks, s_ns, s_ew = _scores(r)
            rec.append(
                " ".join(
                    [
                        token(r.get("section")),
                        token(r.get("table")),
                        token(r.get("round")),
                        token(r["ns_pair"]),
                        token(r["ew_pair"]),
                        contract,
                        declarer,
                        tricks,
                        s_ns,
                        s_ew,
                        _pbn_figure(r.get("ns_mp_display"), dec.mp)
                        if mp
                        else _pbn_figure(r.get("ns_imps_display"), 2),
                        _pbn_figure(r.get("ew_mp_display"), dec.mp)
                        if mp
                        else _pbn_figure(r.get("ew_imps_display"), 2),
                        _pct(r.get("ns_pct")),
                        _pct(r.get("ew_pct")),
                    ]
                )
            )
        if i == 0:
            rec += totals
        records.append("\n".join(rec))
    return "\n".join(head) + "\n\n".join(records) + "\n"
