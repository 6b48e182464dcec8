"""The exports written in columns are the exports written line by line, byte for byte.

:func:`~pipelines.publish.lines.export_lines` gives, for every row, the line
:func:`~pipelines.publish.lines.export_line` gives; the USEBIO documents and PBN files made
from them (:mod:`pipelines.publish.usebio_writer`, :mod:`pipelines.publish.pbn_writer`) are
the bytes the writers gave when they built each line in Python (the oracles of
:mod:`tests.publish.export_oracles`: an ElementTree tree serialised as ElementTree writes it;
a PBN session line by line). Generated events hold every kind of line (played, passed out,
not played, artificial, split and weighted scores, a ruling's contract result, an IMP form's
line without a score) and the texts the formats escape or quote: ``& < > "``, control
characters, Python's white space (``\\x1c``, a no-break space, a line separator), ``--`` and
``---`` in a note (never a ``--`` left in its comment: each document is parsed), figures that
round half to even (``0.125``, ``2.675``, ``50.5``) and ``-0.0``.
"""

from __future__ import annotations

import defusedxml.ElementTree as SafeET
import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.publish.lines import LINE_SCHEMA, export_line, export_lines
from pipelines.publish.pbn_writer import pbn_session, score_tables
from pipelines.publish.usebio_writer import board_blocks, usebio_event
from tests.publish import export_oracles as oracle

_TEXTS = ["1", "12", "A&B", "<x>", 'q"t', "sp ace", "a\x1cb", "t\tab", "l\u2028s", "\xa0n",
          "c\x01x", "back\\slash", "", None]  # fmt: skip
_RESULTS = ["4S N =", "3NT E -2", "PASS", "pass", " 4hx  w +1 ", "7C S =", "60%", "A+", "",
            None, "2D N +1", "4S N --- x", "a----b-"]  # fmt: skip
_NOTES = ["the hesitation -- agreed", "a---b", "x & <y>", "c\x02d", ""]
_ADJUSTMENTS = [
    *("assigned", "score_correction", "director_error", "artificial"),
    *("weighted", "score_stands", "fouled_board", None),
]
_FIGURES = [None, 0.0, -0.0, 0.125, 2.675, 1.5, 2.5, 10.0, -3.25, 49.5, 50.5, 100.0, 7.005]

RESULT_SCHEMA = {
    "event_id": pl.String, "session": pl.Int32, "section": pl.String, "round": pl.Int32,
    "table": pl.Int32, "board": pl.Int32, "ns_pair": pl.String, "ew_pair": pl.String,
    "contract": pl.String, "declarer": pl.String, "tricks": pl.Int8, "computed_score": pl.Int64,
    "kind": pl.String, "adjustment": pl.String, "effective_ns_result": pl.String,
    "effective_ew_result": pl.String, "ns_art": pl.String, "ew_art": pl.String,
    "ns_score": pl.Int64, "ns_mp_display": pl.Float64, "ew_mp_display": pl.Float64,
    "ns_imps_display": pl.Float64, "ew_imps_display": pl.Float64, "ns_pct": pl.Float64,
    "ew_pct": pl.Float64,
}  # fmt: skip


@st.composite
def lines(draw, event_id: str, session: int) -> dict:
    kind = draw(st.sampled_from(["played"] * 4 + ["not_played", "artificial", "adjusted", None]))
    contract = draw(st.sampled_from(["4S", "3NT", "PASS", "7CXX", "1H", None, ""]))
    return {
        "event_id": event_id,
        "session": session,
        "section": draw(st.sampled_from(["A", "B", "A B", 'x"y', "a&b"])),
        "round": draw(st.one_of(st.none(), st.integers(1, 5))),
        "table": draw(st.one_of(st.none(), st.integers(1, 9))),
        "board": draw(st.integers(1, 6)),
        "ns_pair": draw(st.sampled_from([*_TEXTS[:-2], "3", "4"])),
        "ew_pair": draw(st.sampled_from(["5", "6", "7 EW", "q<", "t\u3000x"])),
        "contract": contract,
        "declarer": draw(st.sampled_from(["N", "E", "S", "W", None, "", "n s"])),
        "tricks": draw(st.one_of(st.none(), st.integers(0, 13))),
        "computed_score": draw(st.one_of(st.none(), st.integers(-2000, 2000))),
        "kind": kind,
        "adjustment": draw(st.sampled_from(_ADJUSTMENTS)),
        "effective_ns_result": draw(st.sampled_from(_RESULTS)),
        "effective_ew_result": draw(st.sampled_from([*_RESULTS, None, None, None])),
        "ns_art": draw(st.sampled_from(["60", "50", "40", "+", "-", "=", "", None, "6 0"])),
        "ew_art": draw(st.sampled_from(["60", "40", "+", "-", "", None])),
        "ns_score": draw(st.one_of(st.none(), st.integers(-2000, 2000))),
        "ns_mp_display": draw(st.sampled_from(_FIGURES)),
        "ew_mp_display": draw(st.sampled_from(_FIGURES)),
        "ns_imps_display": draw(st.sampled_from(_FIGURES)),
        "ew_imps_display": draw(st.sampled_from(_FIGURES)),
        "ns_pct": draw(st.sampled_from(_FIGURES)),
        "ew_pct": draw(st.sampled_from(_FIGURES)),
    }


def _safe(row: dict) -> dict:
    """A row :func:`export_line` can write: the Law 77 score of a line it scores needs a
    contract it can read (the generated ``7CXX``/``1H`` are; a declarer ``n s`` is not)."""
    if row["declarer"] == "n s":
        row["declarer"] = "N"
    return row


@st.composite
def standing(draw, event_id: str, scope: str, session: int, contestant: str) -> dict:
    return {
        "event_id": event_id,
        "scope": scope,
        "session": session,
        "section": draw(st.sampled_from(["A", "B"])),
        "contestant": contestant,
        "direction": draw(st.sampled_from(["NS", "EW", None])),
        "rank": draw(st.one_of(st.none(), st.integers(1, 4))),
        "tied": draw(st.booleans()),
        "sanction": draw(st.sampled_from([None, "", "DQ"])),
        "score_display": draw(st.sampled_from(_FIGURES)),
        "percentage_display": draw(st.sampled_from(_FIGURES)),
        "names": draw(st.sampled_from(["Ann & Bob", "C<d> & E\x03f", "", None])),
        "boards": draw(st.one_of(st.none(), st.integers(0, 26))),
    }


SESSION_SCHEMA = {
    "event_id": pl.String, "session": pl.Int32, "name": pl.String, "date": pl.String,
    "movement": pl.String, "profile": pl.String, "scoring": pl.String, "form": pl.String,
}  # fmt: skip
STANDING_SCHEMA = {
    "event_id": pl.String, "scope": pl.String, "session": pl.Int32, "section": pl.String,
    "contestant": pl.String, "direction": pl.String, "rank": pl.Int32, "tied": pl.Boolean,
    "sanction": pl.String, "score_display": pl.Float64, "percentage_display": pl.Float64,
    "names": pl.String, "boards": pl.Int32,
}  # fmt: skip


@st.composite
def events(draw) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Sessions, standings and results of one to three events of one or two sessions."""
    sessions, standings, results = [], [], []
    for e in range(draw(st.integers(1, 3))):
        event_id = draw(st.sampled_from(["E&1", "E2", "Ev <3>"])) + str(e)
        scoring = draw(st.sampled_from(["matchpoints", "butler", "cross_imps"]))
        profile = draw(st.sampled_from(["ebu", "acbl", "ffb", "wbf", "abf"]))
        count = draw(st.integers(1, 2))
        for n in range(1, count + 1):
            movement = draw(st.sampled_from(["mitchell", "howell", None]))
            name = draw(st.sampled_from(_TEXTS))
            sessions.append(
                dict(event_id=event_id, session=n, name=name, date=f"2026-11-0{n}",
                     movement=movement, profile=profile, scoring=scoring, form="pairs")
            )  # fmt: skip
            rows = draw(st.lists(lines(event_id, n), max_size=14))
            results += [_safe(r) for r in rows]
            for scope in ("session", "event") if count > 1 else ("session",):
                ids = draw(st.lists(st.sampled_from(["1", "2", "3 &"]), max_size=3, unique=True))
                for c in ids:
                    standings.append(draw(standing(event_id, scope, n, c)))
    return (
        pl.DataFrame(sessions, schema=SESSION_SCHEMA),
        pl.DataFrame(standings, schema=STANDING_SCHEMA),
        pl.DataFrame(results, schema=RESULT_SCHEMA),
    )


def _by_row(results: pl.DataFrame) -> pl.DataFrame:
    made = [export_line(r) for r in results.to_dicts()]
    return pl.DataFrame(
        {
            n: pl.Series(n, [getattr(x, n[5:]) for x in made], dtype=t)
            for n, t in LINE_SCHEMA.items()
        }
    )


_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(events())
def test_export_lines_are_export_line_row_by_row(frames):
    _, _, results = frames
    assert export_lines(results).equals(_by_row(results))


@_SETTINGS
@given(events())
def test_usebio_documents_are_the_element_tree_documents(frames):
    sessions, standings, results = frames
    blocks = board_blocks(sessions, results)  # every event's boards in one pass
    for (event_id,), ev in sessions.partition_by("event_id", as_dict=True).items():
        st_, res = (f.filter(pl.col("event_id") == event_id) for f in (standings, results))
        expected = oracle.usebio_event(event_id, ev, st_, res)
        assert usebio_event(event_id, ev, st_, res) == expected
        assert usebio_event(event_id, ev, st_, res, blocks) == expected
        _well_formed(expected)


def _well_formed(document: str | bytes) -> None:
    """``document`` parses as XML (a note's dashes never make ``--`` inside a comment)."""
    SafeET.fromstring(document.encode() if isinstance(document, str) else document)


def test_a_note_with_dashes_makes_a_well_formed_comment():
    from pipelines.publish.usebio_writer import _comment_text

    notes = pl.DataFrame({"n": ["a--b", "a---b", "----", "-x-", "- -"]})
    made = notes.select(_comment_text(pl.col("n")))["n"].to_list()
    assert made == ["a- -b", "a- - -b", "- - - -", "-x-", "- -"]
    assert all("--" not in m for m in made)


@_SETTINGS
@given(events())
def test_pbn_sessions_are_the_line_by_line_sessions(frames):
    sessions, standings, results = frames
    tables = score_tables(sessions, results)  # every session's lines in one pass
    for s in sessions.to_dicts():
        key = (pl.col("event_id") == s["event_id"]) & (pl.col("session") == s["session"])
        st_ = standings.filter(key & (pl.col("scope") == "session"))
        res = results.filter(key)
        expected = oracle.pbn_session(s, st_, res)
        assert pbn_session(s, st_, res) == expected
        assert pbn_session(s, st_, res, tables) == expected
