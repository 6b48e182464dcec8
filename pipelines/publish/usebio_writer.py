"""USEBIO 1.2 XML of each event's official results (the format masterpoint and grading
systems ingest; Compscore, EBUScore and others write it).

One file per event: ``EVENT`` (identifier, description, ``WINNER_TYPE`` 1 = one field
(Howell), 2 = two fields (Mitchell), date), then one ``SESSION`` per session with its number
and date, one ``SECTION`` per section, and in it ``PARTICIPANTS/PAIR`` (number, direction,
``TOTAL_SCORE``, ``PERCENTAGE``, ``PLACE`` with ``=`` for a shared place, the players' names —
never their national ID numbers) and ``BOARD/TRAVELLER_LINE`` (pairs, contract, declarer,
tricks, NS score and ``NS_MATCH_POINTS``/``EW_MATCH_POINTS`` as the profile displays them —
``NS_BUTLER_POINTS`` or ``NS_CROSS_IMP_POINTS``, the IMPs, in Butler and cross-IMP pairs).
An event of several sessions also gets the event ranking in an ``EVENT``-level
``PARTICIPANTS``.

Adjusted lines follow USEBIO's notation (see :mod:`pipelines.publish.lines`): an artificial
score is ``A`` and the two sides' codes, ``A6040`` (fixed) or ``A+-`` (variable averages, whose
percentage the session-percentage rule decides), with no contract; a split or weighted score
keeps the result played at the table with the adjusted matchpoints and an XML comment saying
so. Pairs events are exported (matchpoints, Butler, cross-IMPs); team and individual events
are not in this version, nor pairs events whose boards are re-dealt each round.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.profiles import load as load_profile
from pipelines.publish.explain import place_text
from pipelines.publish.files import Manifest, digest, put, split_by
from pipelines.publish.lines import export_line
from pipelines.publish.site import Decimals, slug

PROGRAM = "Traveller"
#: USEBIO's EVENT_TYPE and the traveller line's points element, per scoring of a pairs event.
EVENT_TYPES = {
    "matchpoints": ("MP_PAIRS", "MATCH_POINTS"),
    "butler": ("BUTLER_PAIRS", "BUTLER_POINTS"),
    "cross_imps": ("CROSS_IMP_PAIRS", "CROSS_IMP_POINTS"),
}
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _text(value: Any) -> str:
    """Text safe for XML 1.0 (control characters removed); ``None`` → empty."""
    return "" if value is None else _CONTROL.sub("", str(value))


def _cdata(text: str) -> str:
    """Character data escaped as :mod:`xml.etree.ElementTree` escapes it: ``&``, ``<``, ``>``."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(text: str) -> str:
    """An attribute value escaped as :mod:`xml.etree.ElementTree` escapes it (``&``, ``<``,
    ``>``, ``"``, and CR, LF, TAB as character references)."""
    return (
        _cdata(text)
        .replace('"', "&quot;")
        .replace("\r", "&#13;")
        .replace("\n", "&#10;")
        .replace("\t", "&#09;")
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


def dmy(iso: str | None) -> str:
    """``2026-11-02`` → ``02/11/2026`` (USEBIO dates)."""
    if not iso:
        return ""
    y, m, d = iso.split("-")
    return f"{d}/{m}/{y}"


def _figure(value: Any, decimals: int) -> str:
    return "" if value is None else f"{float(value):.{decimals}f}"


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


def _artificial(ns: str | None, ew: str | None) -> str:
    """USEBIO's artificial score: ``A`` + NS code + EW code (``A6040``, ``A++``, ``A+-``)."""
    return f"A{ns or '='}{ew or '='}"


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
                tl.append(ET.Comment(f" {_text(line.note).replace('--', '- -')} "))
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


def exportable(sessions: pl.DataFrame) -> pl.DataFrame:
    """Event sessions this version exports: pairs at matchpoints, Butler or cross-IMPs —
    except under a profile whose boards are re-dealt each round (``boards.redealt_per_round``):
    USEBIO's ``BOARD`` and a PBN record number a board without its round, so board 2 of two
    rounds (two deals) would read back as one."""
    names = sessions["profile"].drop_nulls().unique().to_list() if sessions.height else []
    redealt = [n for n in names if load_profile(n).redealt_per_round]
    return sessions.filter(
        (pl.col("form").fill_null("pairs") == "pairs")
        & pl.col("scoring").fill_null("matchpoints").is_in(list(EVENT_TYPES))
        & ~pl.col("profile").fill_null("").is_in(redealt)
    )


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


def usebio_name(event_id: str, stems: Mapping[str, str] | None = None) -> str:
    """The file name of an event's USEBIO export (``stems``: see :func:`write_usebio`)."""
    return f"{(stems or {}).get(event_id) or slug(event_id)}.xml"


def write_usebio(
    sessions: pl.DataFrame,
    standings: pl.DataFrame,
    results: pl.DataFrame,
    out: Path,
    kept: Collection[str] = (),
    made: Manifest | None = None,
    stems: Mapping[str, str] | None = None,
) -> list[Path]:
    """One ``<event>.xml`` per exportable event in ``out`` (each written only when it changed,
    :func:`pipelines.publish.files.put`; the file of a ``kept`` event, whose rows were not
    read, kept as the last publication made it); the files. ``made``: the folder's record,
    when a publication writes its events in several batches (it saves it once, after the
    last); without one, this call's own, saved at its end. ``stems``: each event's file name
    when two events' ids share one form (:func:`~pipelines.publish.common.export_stems`; else
    the id made a file name)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    own = made is None
    made = Manifest(out) if made is None else made  # an unchanged event is not exported again
    ok = exportable(sessions)
    rows = split_by(ok, ["event_id"])
    names = {e: usebio_name(e, stems) for e in ok["event_id"].unique()}
    # an event kept as it was keeps its file: its sessions are not split out at all
    todo = []
    for event_id in sorted(names):
        if event_id in kept and made.keep_name(names[event_id]):
            written.append(out / names[event_id])
        else:
            todo.append(event_id)
    mine = ok.filter(pl.col("event_id").is_in(todo)) if todo else ok.clear()
    for (event_id,), ev in sorted(mine.partition_by(["event_id"], as_dict=True).items()):
        path = out / names[event_id]
        ev_st = rows(standings, (event_id,))
        ev_res = rows(results, (event_id,))
        written.append(path)
        if not made.fresh(path, digest(event_id, ev, ev_st, ev_res)):
            put(path, usebio_event(event_id, ev, ev_st, ev_res))
    if own:
        made.save()
    return written
