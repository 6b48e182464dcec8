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
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.profiles import load as load_profile
from pipelines.publish.explain import place_text
from pipelines.publish.files import Manifest, digest, hashed_by, put, split_by
from pipelines.publish.lines import LINE_INPUTS, export_lines
from pipelines.publish.site import Decimals, slug
from pipelines.split import parts_by

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


def _el(depth: int, tag: str, value: Any) -> str:
    """One element with text, on a line of its own indented by ``depth`` spaces, as
    ``ET.indent(root, space=" ")`` then ``ET.tostring`` write it: ``<TAG>text</TAG>``, or
    ``<TAG />`` when its text (:func:`_text`) is empty."""
    text = _text(value)
    if text:
        return f"\n{' ' * depth}<{tag}>{_cdata(text)}</{tag}>"
    return f"\n{' ' * depth}<{tag} />"


#: XML 1.0's forbidden control characters (:data:`_CONTROL`) as a Polars (Rust) pattern.
_CONTROL_PATTERN = r"[\x00-\x08\x0B\x0C\x0E-\x1F]"


def _x_text(value: pl.Expr) -> pl.Expr:
    """:func:`_text` of a column (``None`` stays ``None``, an empty text either way)."""
    return value.cast(pl.String).str.replace_all(_CONTROL_PATTERN, "")


def _comment_text(text: pl.Expr) -> pl.Expr:
    """A column's text made fit for an XML comment, which may not hold ``--`` (XML 1.0,
    section 2.5): a space between any two dashes in a row (``a---b`` → ``a- - -b``). One
    pass leaves a ``--`` where a run of dashes is odd (``---`` → ``- --``); the second
    separates those, which stand alone."""
    for _ in range(2):
        text = text.str.replace_all("--", "- -", literal=True)
    return text


def _x_cdata(text: pl.Expr) -> pl.Expr:
    """:func:`_cdata` of a column."""
    for plain, escaped in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        text = text.str.replace_all(plain, escaped, literal=True)
    return text


def _x_el(depth: int, tag: pl.Expr, value: pl.Expr) -> pl.Expr:
    """:func:`_el` of every row: ``tag`` and ``value`` columns (never ``None`` as a result)."""
    text = _x_text(value)
    indent = "\n" + " " * depth
    return (
        pl.when(text.is_null() | (text == ""))
        .then(pl.concat_str(pl.lit(indent + "<"), tag, pl.lit(" />")))
        .otherwise(
            pl.concat_str(
                pl.lit(indent + "<"),
                tag,
                pl.lit(">"),
                _x_cdata(text),
                pl.lit("</"),
                tag,
                pl.lit(">"),
            )
        )
    )


def dmy(iso: str | None) -> str:
    """``2026-11-02`` → ``02/11/2026`` (USEBIO dates)."""
    if not iso:
        return ""
    y, m, d = iso.split("-")
    return f"{d}/{m}/{y}"


def _figure(value: Any, decimals: int) -> str:
    return "" if value is None else f"{float(value):.{decimals}f}"


#: The order of a ``PARTICIPANTS`` element's pairs: by direction, rank and number.
_PAIR_ORDER = ["direction", "rank", "contestant"]


@dataclass(frozen=True)
class _Participants:
    """The standings rows of the ``PARTICIPANTS`` elements of some events, each element's in
    its order (:data:`_PAIR_ORDER`), split once for all of them (not filtered and sorted for
    each session and section: a first load writes thousands of documents): ``event``, the
    event rankings by event id; ``session``, the session rankings by event id, session and
    section; ``sections``, the sections of each event session, ranked or with results;
    ``empty``, a ranking without rows."""

    event: dict[tuple, pl.DataFrame]
    session: dict[tuple, pl.DataFrame]
    sections: dict[tuple, set]
    empty: pl.DataFrame

    @classmethod
    def of(cls, standings: pl.DataFrame, results: pl.DataFrame) -> _Participants:
        ordered = standings.sort(_PAIR_ORDER, nulls_last=True, maintain_order=True)
        scope = pl.col("scope")
        session = parts_by(ordered.filter(scope == "session"), ["event_id", "session", "section"])
        sections: dict[tuple, set] = {}
        played = results.select("event_id", "session", "section").unique().rows()
        for e, n, section in [*session, *played]:  # ranked or with results
            sections.setdefault((e, n), set()).add(section)
        return cls(
            event=parts_by(ordered.filter(scope == "event"), ["event_id"]),
            session=session,
            sections=sections,
            empty=standings.clear(),
        )


def _participants(
    depth: int, standings: pl.DataFrame, dec: Decimals, event_type: str, ordered: bool = False
) -> str:
    """The ``PARTICIPANTS`` element (at ``depth``) of ``standings``: one ``PAIR`` each, by
    direction, rank and number (``ordered``: ``standings`` are in that order already)."""
    pad = " " * depth
    head = f'\n{pad}<PARTICIPANTS EVENT_TYPE="{_attribute(event_type)}"'
    if not standings.height:
        return head + " />"
    parts = [head, ">"]
    inner = depth + 1
    if not ordered:
        standings = standings.sort(_PAIR_ORDER, nulls_last=True, maintain_order=True)
    for r in standings.to_dicts():
        parts.append(f"\n{' ' * inner}<PAIR>")
        parts.append(_el(inner + 1, "PAIR_NUMBER", r["contestant"]))
        parts.append(_el(inner + 1, "DIRECTION", r.get("direction") or ""))
        parts.append(_el(inner + 1, "TOTAL_SCORE", _figure(r.get("score_display"), dec.total)))
        if r.get("percentage_display") is not None:
            parts.append(
                _el(inner + 1, "PERCENTAGE", _figure(r.get("percentage_display"), dec.pct))
            )
        place = "" if r.get("sanction") else place_text(r["rank"], r["tied"])
        parts.append(_el(inner + 1, "PLACE", place))
        for name in (r.get("names") or "").split(" & "):
            if name.strip():
                parts.append(f"\n{' ' * (inner + 1)}<PLAYER>")
                parts.append(_el(inner + 2, "PLAYER_NAME", name.strip()))
                parts.append(f"\n{' ' * (inner + 1)}</PLAYER>")
        parts.append(f"\n{' ' * inner}</PAIR>")
    parts.append(f"\n{pad}</PARTICIPANTS>")
    return "".join(parts)


def _artificial(ns: str | None, ew: str | None) -> str:
    """USEBIO's artificial score: ``A`` + NS code + EW code (``A6040``, ``A++``, ``A+-``)."""
    return f"A{ns or '='}{ew or '='}"


#: The depth of a section's ``BOARD`` elements (``USEBIO/EVENT/SESSION/SECTION/BOARD``).
_BOARD = 4


def _event_styles(sessions: pl.DataFrame) -> dict[str, tuple[str, str, int, str]]:
    """Each event's ``(EVENT_TYPE, points element, decimals, profile)``, from its first
    session (as :func:`usebio_event` writes the event)."""
    out = {}
    for r in sessions.sort("session").unique("event_id", keep="first").to_dicts():
        event_type, points = EVENT_TYPES[r.get("scoring") or "matchpoints"]
        places = Decimals.of(r.get("profile")).mp if points == "MATCH_POINTS" else 2
        out[r["event_id"]] = (event_type, points, places, r.get("profile"))
    return out


def board_blocks(sessions: pl.DataFrame, results: pl.DataFrame) -> dict[tuple, str]:
    """The ``BOARD`` elements of each section of each event session of ``results``, keyed
    ``(event_id, session, section)``: the boards in order, each with its number and its
    ``TRAVELLER_LINE`` s in the order given (:func:`~pipelines.publish.lines.export_line`'s
    rules; the matchpoints, or the IMPs of Butler and cross-IMP pairs, as the event's first
    session's profile displays them). One pass over every line of every event, in columns:
    no line is a Python object."""
    if not results.height:
        return {}
    styles = _event_styles(sessions)
    events = list(styles)
    points = {e: s[1] for e, s in styles.items()}
    places = {e: s[2] for e, s in styles.items()}
    of = pl.col("event_id")
    displayed = ("ns_mp_display", "ew_mp_display", "ns_imps_display", "ew_imps_display")
    needed = {"event_id", "session", "section", "ns_pair", "ew_pair", *LINE_INPUTS, *displayed}
    res = results.select(c for c in results.columns if c in needed)  # the lines' own
    res = res.filter(of.is_in(events)).with_columns(
        of.replace_strict(points, return_dtype=pl.String).alias("__points"),
        of.replace_strict(places, return_dtype=pl.Int64).alias("__places"),
    )
    res = res.with_row_index("__order").sort(
        ["event_id", "session", "section", "board", "__order"], maintain_order=True
    )
    res = pl.concat([res, export_lines(res)], how="horizontal")

    def col(name: str) -> pl.Expr:
        return pl.col(name) if name in res.columns else pl.lit(None, pl.Float64)

    mp = pl.col("__points") == "MATCH_POINTS"
    shown = res.select(
        pl.when(mp).then(col("ns_mp_display")).otherwise(col("ns_imps_display")).cast(pl.Float64),
        pl.when(mp).then(col("ew_mp_display")).otherwise(col("ew_imps_display")).cast(pl.Float64),
    )
    decimals = res["__places"].to_list()
    figures = {
        side: pl.Series(
            [_figure(v, d) for v, d in zip(shown.to_series(i).to_list(), decimals, strict=True)],
            dtype=pl.String,
        )
        for i, side in enumerate(("ns", "ew"))
    }
    res = res.with_columns(__ns_fig=figures["ns"], __ew_fig=figures["ew"])
    line, field = " " * (_BOARD + 1), _BOARD + 2
    contract = pl.col("line_contract")
    has_contract = contract.is_not_null() & (contract != "")
    ns_art, ew_art = pl.col("line_ns_art"), pl.col("line_ew_art")
    art = (ns_art.is_not_null() & (ns_art != "")) | (ew_art.is_not_null() & (ew_art != ""))
    coded = pl.concat_str(
        pl.lit("A"),
        pl.when(ns_art.is_not_null() & (ns_art != "")).then(ns_art).otherwise(pl.lit("=")),
        pl.when(ew_art.is_not_null() & (ew_art != "")).then(ew_art).otherwise(pl.lit("=")),
    )
    score = (
        pl.when(pl.col("line_not_played"))
        .then(pl.lit("NP"))
        .when(art)
        .then(coded)
        .otherwise(pl.col("line_ns_score").cast(pl.String).fill_null(""))
    )
    note = pl.col("line_note")
    comment = (
        pl.when(note.is_not_null() & (note != ""))
        .then(
            pl.concat_str(
                pl.lit(f"\n{' ' * field}<!-- "),
                _comment_text(_x_text(note)),
                pl.lit(" -->"),
            )
        )
        .otherwise(pl.lit(""))
    )
    played = (
        pl.when(has_contract)
        .then(
            pl.concat_str(
                _x_el(field, pl.lit("CONTRACT"), contract),
                pl.when(contract != "PASS")
                .then(
                    pl.concat_str(
                        _x_el(field, pl.lit("PLAYED_BY"), pl.col("line_declarer")),
                        _x_el(field, pl.lit("TRICKS"), pl.col("line_tricks")),
                    )
                )
                .otherwise(pl.lit("")),
            )
        )
        .otherwise(pl.lit(""))
    )
    traveller_line = pl.concat_str(
        pl.lit(f"\n{line}<TRAVELLER_LINE>"),
        comment,
        _x_el(field, pl.lit("NS_PAIR_NUMBER"), pl.col("ns_pair")),
        _x_el(field, pl.lit("EW_PAIR_NUMBER"), pl.col("ew_pair")),
        played,
        _x_el(field, pl.lit("SCORE"), score),
        _x_el(field, pl.concat_str(pl.lit("NS_"), pl.col("__points")), pl.col("__ns_fig")),
        _x_el(field, pl.concat_str(pl.lit("EW_"), pl.col("__points")), pl.col("__ew_fig")),
        pl.lit(f"\n{line}</TRAVELLER_LINE>"),
    )
    keys = ["event_id", "session", "section", "board"]
    boards = (
        res.select(*keys, traveller_line.alias("__xml"))
        .group_by(keys, maintain_order=True)
        .agg(pl.col("__xml").str.join(""))
        .select(
            "event_id",
            "session",
            "section",
            pl.concat_str(
                pl.lit(f"\n{' ' * _BOARD}<BOARD>"),
                _x_el(_BOARD + 1, pl.lit("BOARD_NUMBER"), pl.col("board")),
                pl.col("__xml"),
                pl.lit(f"\n{' ' * _BOARD}</BOARD>"),
            ).alias("__xml"),
        )
        .group_by(["event_id", "session", "section"], maintain_order=True)
        .agg(pl.col("__xml").str.join(""))
    )
    return {(e, n, sec): xml for e, n, sec, xml in boards.iter_rows()}


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
    event_id: str,
    sessions: pl.DataFrame,
    standings: pl.DataFrame,
    results: pl.DataFrame,
    boards: dict[tuple, str] | None = None,
    participants: _Participants | None = None,
) -> bytes:
    """The USEBIO 1.2 document of one event (its sessions, standings and results), as
    ``ET.indent(root, space=" ")`` then ``ET.tostring(root, encoding="utf-8",
    xml_declaration=True)`` write the tree of its elements, and a final newline — written
    as text, without a tree. ``boards``: the event's :func:`board_blocks`, and
    ``participants`` its :class:`_Participants`, when already made (a publication makes
    those of all its events in one pass)."""
    sessions = sessions.sort("session")
    first = sessions.row(0, named=True)
    dec = Decimals.of(first.get("profile"))
    event_type, _points = EVENT_TYPES[first.get("scoring") or "matchpoints"]
    if boards is None:
        boards = board_blocks(sessions, results)
    parts = [
        "<?xml version='1.0' encoding='utf-8'?>\n<USEBIO Version=\"1.2\">",
        f'\n <EVENT EVENT_TYPE="{_attribute(event_type)}">',
        _el(2, "EVENT_IDENTIFIER", event_id),
        _el(2, "EVENT_DESCRIPTION", first.get("name") or event_id),
        _el(2, "PROGRAM_NAME", PROGRAM),
        _el(2, "WINNER_TYPE", "2" if first.get("movement") == "mitchell" else "1"),
        _el(2, "DATE", dmy(first.get("date"))),
        _el(2, "SESSION_COUNT", sessions.height),
    ]
    if participants is None:
        participants = _Participants.of(standings, results)
    ranked, empty = participants.session, participants.empty
    if sessions.height > 1:
        event = participants.event.get((event_id,), empty)
        parts.append(_participants(2, event, dec, event_type, ordered=True))
    for s in sessions.to_dicts():
        n = s["session"]
        parts += ["\n  <SESSION>", _el(3, "SESSION_NUMBER", n), _el(3, "DATE", dmy(s.get("date")))]
        for section in sorted(participants.sections.get((event_id, n), set())):
            parts += ["\n   <SECTION>", _el(4, "SECTION_ID", section)]
            st = ranked.get((event_id, n, section), empty)
            parts.append(_participants(4, st, dec, event_type, ordered=True))
            parts.append(boards.get((event_id, n, section), ""))
            parts.append("\n   </SECTION>")
        parts.append("\n  </SESSION>")
    parts.append("\n </EVENT>\n</USEBIO>\n")
    return "".join(parts).encode("utf-8")


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
    stale = []  # the events whose file is made again (the others' are as they were made)
    hashes = hashed_by(ok, ["event_id"])  # each frame's rows hashed once
    for (event_id,), ev in sorted(parts_by(mine, ["event_id"]).items()):
        path = out / names[event_id]
        written.append(path)
        made_from = digest(
            event_id, ev, hashes(standings, (event_id,)), hashes(results, (event_id,))
        )
        if not made.fresh(path, made_from):
            ev_st, ev_res = rows(standings, (event_id,)), rows(results, (event_id,))
            stale.append((event_id, path, ev, ev_st, ev_res))
    if stale:  # their boards made in one pass over their lines
        events = pl.Series([e for e, *_ in stale], dtype=pl.String).implode()
        of = pl.col("event_id")
        their_results = results.filter(of.is_in(events))
        boards = board_blocks(mine.filter(of.is_in(events)), their_results)
        ranked = _Participants.of(standings.filter(of.is_in(events)), their_results)
        for event_id, path, ev, ev_st, ev_res in stale:
            put(path, usebio_event(event_id, ev, ev_st, ev_res, boards, ranked))
    if own:
        made.save()
    return written
