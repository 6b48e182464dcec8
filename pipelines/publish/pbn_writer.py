"""PBN 2.1 with ``[ScoreTable]`` and ``[TotalScoreTable]``, in the column conventions of the
Magic Contest (FFB) exports in ``../shared/realdata``.

One file per event session. The header's ``% <META>`` lines name the contest
(``ContestID``), the session (``CRSession``) and the scoring; each board is one game record
(``Event``, ``Date`` as ``YYYY.MM.DD``, ``Board``, Law 2 ``Dealer`` and ``Vulnerable``) with
its ``ScoreTable``: section, table, round, pair numbers, contract, declarer, tricks
(``Result``), the score on the side that scored it (quoted, ``-`` on the other side, as Magic
Contest writes it), the profile's displayed matchpoints and the whole-number percentages.
The first record carries the ``TotalScoreTable``: place (``=`` when shared), pair, direction
(Mitchell), total, percentage, names (never membership numbers) and boards played.

Artificial scores are ``"A+"``/``"A-"``/``"A="`` (variable) or ``"A60"`` (fixed) on each
side; split and weighted scores keep the played result with the adjusted matchpoints (see
:mod:`pipelines.publish.lines`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.laws.board import dealer, vulnerability
from pipelines.publish.explain import place_text
from pipelines.publish.files import Manifest, digest, hashed_by, put, split_by
from pipelines.publish.lines import LINE_INPUTS, export_lines
from pipelines.publish.site import Decimals, slug
from pipelines.publish.usebio_writer import exportable

SCORE_COLUMNS = (
    "Section\\2R;Table\\2R;Round\\2R;PairId_NS\\3R;PairId_EW\\3R;Contract\\5L;Declarer\\1R;"
    "Result\\2R;Score_NS\\6R;Score_EW\\6R;{P}_NS\\6R;{P}_EW\\6R;Percentage_NS\\3R;Percentage_EW\\3R"
)
TOTAL_COLUMNS = (
    "Rank\\3R;Section\\2R;PairId\\3R;Direction\\2R;TotalScore{P}\\7R;TotalPercentage\\6R;"
    "Names\\40L;NrBoards\\2R"
)
#: PBN ``Scoring`` and the points columns' prefix per scoring of a pairs event.
SCORINGS = {
    "matchpoints": ("MatchPoints;MP1", "MP"),
    "butler": ("IMP;Butler", "IMP"),
    "cross_imps": ("IMP;CrossImps", "IMP"),
}


def quote(value: Any) -> str:
    """A PBN string: double-quoted, ``\\`` and ``"`` escaped, line breaks flattened."""
    s = "" if value is None else " ".join(str(value).split())
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def token(value: Any) -> str:
    """A table value without spaces; ``-`` when missing; quoted when it holds a space."""
    if value is None or value == "":
        return "-"
    s = str(value)
    return quote(s) if any(c.isspace() or c == '"' for c in s) else s


def _figure(value: Any, decimals: int) -> str:
    return "-" if value is None else f"{float(value):.{decimals}f}"


def _pct(value: Any) -> str:
    return "-" if value is None else f"{round(float(value)):d}"


#: The code points Python's :meth:`str.isspace` (and so :meth:`str.split`) takes for white
#: space (Unicode's White_Space and bidirectional classes B, S, WS; a test checks them
#: against every code point), written out rather than found at each import.
SPACES = (
    0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680,
    0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
    0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
)  # fmt: skip
#: :data:`SPACES` as a Polars (Rust) character class: :func:`quote` and :func:`token` of a
#: column.
_SPACE = "".join(f"\\x{{{c:X}}}" for c in SPACES)


def _x_quote(value: pl.Expr) -> pl.Expr:
    """:func:`quote` of a text column."""
    s = (
        value.fill_null("")
        .str.replace_all(f"[{_SPACE}]+", " ")
        .str.strip_chars(" ")
        .str.replace_all("\\", "\\\\", literal=True)
        .str.replace_all('"', '\\"', literal=True)
    )
    return pl.concat_str(pl.lit('"'), s, pl.lit('"'))


def _x_token(value: pl.Expr) -> pl.Expr:
    """:func:`token` of a column (made text)."""
    s = value.cast(pl.String)
    return (
        pl.when(s.is_null() | (s == ""))
        .then(pl.lit("-"))
        .when(s.str.contains(f'[{_SPACE}"]'))
        .then(_x_quote(s))
        .otherwise(s)
    )


def score_tables(sessions: pl.DataFrame, results: pl.DataFrame) -> dict[tuple, list[tuple]]:
    """The ``ScoreTable`` lines of each event session of ``results`` (of ``sessions``),
    keyed ``(event_id, session)``: ``(board, its lines as text)`` for each board in order,
    its lines by section, table and NS pair. A line is what :func:`~pipelines.publish.
    lines.export_line` writes (:func:`~pipelines.publish.lines.export_lines`): its contract,
    declarer and tricks (``Pass``; ``-`` for an artificial score or a board not played), the
    score on the side that scored it (``"A60"``, ``"A+"`` on each side for an artificial
    score, ``"NP"`` for a board not played), the matchpoints — or the IMPs of Butler and
    cross-IMP pairs — as the session's profile displays them, and the whole-number
    percentages. One pass over every line of every session, in columns: no line is a
    Python object."""
    if not results.height:
        return {}
    styles = sessions.select(
        "event_id",
        "session",
        pl.col("scoring").fill_null("matchpoints").alias("__scoring"),
        pl.col("profile"),
    ).unique(["event_id", "session"], keep="first")
    places = {p: Decimals.of(p).mp for p in styles["profile"].unique().to_list()}
    styles = styles.select(
        "event_id",
        "session",
        (pl.col("__scoring").replace_strict({k: v[1] for k, v in SCORINGS.items()}) == "MP")
        .alias("__mp"),
        pl.col("profile").replace_strict(places, default=None, return_dtype=pl.Int64)
        .alias("__places"),
    )  # fmt: skip
    displayed = ("ns_mp_display", "ew_mp_display", "ns_imps_display", "ew_imps_display")
    needed = {"event_id", "session", "section", "table", "round", "ns_pair", "ew_pair",
              "ns_pct", "ew_pct", *LINE_INPUTS, *displayed}  # fmt: skip
    res = (
        results.select(c for c in results.columns if c in needed)  # the lines' own
        .with_row_index("__order")
        .join(styles, on=["event_id", "session"], how="inner", maintain_order="left")
        .sort(
            ["event_id", "session", "board", "section", "table", "ns_pair", "__order"],
            nulls_last=True,
            maintain_order=True,
        )
    )
    res = pl.concat([res, export_lines(res)], how="horizontal")

    def col(name: str) -> pl.Expr:
        return pl.col(name) if name in res.columns else pl.lit(None, pl.Float64)

    mp = pl.col("__mp")
    shown = res.select(
        pl.when(mp).then(col("ns_mp_display")).otherwise(col("ns_imps_display")).cast(pl.Float64),
        pl.when(mp).then(col("ew_mp_display")).otherwise(col("ew_imps_display")).cast(pl.Float64),
        col("ns_pct").cast(pl.Float64),
        col("ew_pct").cast(pl.Float64),
    )
    decimals = [p if m else 2 for p, m in zip(res["__places"], res["__mp"], strict=True)]
    cells = {
        name: pl.Series(values, dtype=pl.String)
        for name, values in (
            ("__ns_fig", [_figure(v, d) for v, d in zip(shown[:, 0], decimals, strict=True)]),
            ("__ew_fig", [_figure(v, d) for v, d in zip(shown[:, 1], decimals, strict=True)]),
            ("__ns_pct", [_pct(v) for v in shown[:, 2]]),
            ("__ew_pct", [_pct(v) for v in shown[:, 3]]),
        )
    }
    res = res.with_columns(**cells)
    contract, score = pl.col("line_contract"), pl.col("line_ns_score")
    ns_art, ew_art = pl.col("line_ns_art"), pl.col("line_ew_art")
    art = (ns_art.is_not_null() & (ns_art != "")) | (ew_art.is_not_null() & (ew_art != ""))
    played = ~pl.col("line_not_played") & ~art
    passed = contract.fill_null("") == "PASS"

    def code(a: pl.Expr) -> pl.Expr:
        return _x_quote(
            pl.concat_str(
                pl.lit("A"), pl.when(a.is_not_null() & (a != "")).then(a).otherwise(pl.lit("="))
            )
        )

    def side(this: pl.Expr, other: pl.Expr, sign: int) -> pl.Expr:
        """Score_NS (``sign`` 1) or Score_EW (-1): the score on the side that scored it."""
        scored = (score >= 0) if sign == 1 else (score < 0)
        return (
            pl.when(pl.col("line_not_played"))
            .then(pl.lit('"NP"'))
            .when(art)
            .then(code(this))
            .when(score.is_not_null() & scored)
            .then(_x_quote((score * sign).cast(pl.String)))
            .otherwise(pl.lit("-"))
        )

    line = pl.concat_str(
        _x_token(pl.col("section")),
        _x_token(pl.col("table")),
        _x_token(pl.col("round")),
        _x_token(pl.col("ns_pair")),
        _x_token(pl.col("ew_pair")),
        pl.when(~played).then(pl.lit("-")).when(passed).then(pl.lit("Pass"))
        .otherwise(_x_token(contract)),
        pl.when(played & ~passed).then(_x_token(pl.col("line_declarer"))).otherwise(pl.lit("-")),
        pl.when(played & ~passed).then(_x_token(pl.col("line_tricks"))).otherwise(pl.lit("-")),
        side(ns_art, ew_art, 1),
        side(ew_art, ns_art, -1),
        pl.col("__ns_fig"),
        pl.col("__ew_fig"),
        pl.col("__ns_pct"),
        pl.col("__ew_pct"),
        separator=" ",
    )  # fmt: skip
    keys = ["event_id", "session", "board"]
    boards = (
        res.select(*keys, line.alias("__line"))
        .group_by(keys, maintain_order=True)
        .agg(pl.col("__line").str.join("\n"))
    )
    out: dict[tuple, list[tuple]] = {}
    for event_id, n, board, text in boards.iter_rows():
        out.setdefault((event_id, n), []).append((board, text))
    return out


def header(session: dict[str, Any], scoring: str) -> list[str]:
    """The file header: PBN version, and ``% <META>`` lines naming the contest (``ContestID``,
    which Traveller's reader takes as the event id), its name, the session and the scoring."""
    return [
        "% PBN 2.1",
        "% EXPORT",
        "% Content-type: text/x-pbn; charset=UTF-8",
        '% <META name=Generator content="Traveller">',
        f"% <META name=ContestID content={quote(session['event_id'])}>",
        f"% <META name=ContestName content={quote(session.get('name') or '')}>",
        f'% <META name=CRSession content="{session["session"]}">',
        f'% <META name=ScoringType content="{scoring}">',
        "",
    ]


def total_order(standings: pl.DataFrame) -> pl.DataFrame:
    """Session standings in the order of a ``TotalScoreTable``: by section, direction (none
    first), rank and number."""
    return standings.with_columns(pl.col("direction").fill_null("")).sort(
        ["section", "direction", "rank", "contestant"], nulls_last=True, maintain_order=True
    )


def pbn_session(
    session: dict[str, Any],
    standings: pl.DataFrame,
    results: pl.DataFrame,
    tables: dict[tuple, list[tuple]] | None = None,
    ordered: bool = False,
) -> str:
    """The PBN text of one event session. ``tables``: the session's :func:`score_tables`
    when already made (a publication makes those of all its sessions in one pass);
    ``ordered``: ``standings`` are in the order of the total score table already
    (:func:`total_order`: a publication orders those of all its sessions at once)."""
    dec = Decimals.of(session.get("profile"))
    scoring, prefix = SCORINGS[session.get("scoring") or "matchpoints"]
    score_columns = SCORE_COLUMNS.replace("{P}", prefix)
    total_columns = TOTAL_COLUMNS.replace("{P}", prefix)
    date = (session.get("date") or "").replace("-", ".")
    mitchell = session.get("movement") == "mitchell"
    head = header(session, scoring)
    totals = [f'[TotalScoreTable "{total_columns}"]']
    for r in (standings if ordered else total_order(standings)).to_dicts():
        totals.append(
            " ".join(
                [
                    token("" if r.get("sanction") else place_text(r["rank"], r["tied"])),
                    token(r["section"]),
                    token(r["contestant"]),
                    token(r["direction"] if mitchell else ""),
                    _figure(r.get("score_display"), dec.total),
                    _figure(r.get("percentage_display"), dec.pct),
                    quote(r.get("names") or ""),
                    str(r.get("boards") or 0),
                ]
            )
        )
    if tables is None:
        tables = score_tables(pl.DataFrame([session]), results)
    records = []
    for i, (board, lines) in enumerate(tables.get((session["event_id"], session["session"]), [])):
        rec = [
            f"[Event {quote(session.get('name') or session['event_id'])}]",
            f"[Date {quote(date)}]",
            f"[Board {quote(board)}]",
            f"[Dealer {quote(dealer(int(board)))}]",
            f"[Vulnerable {quote(vulnerability(int(board)))}]",
            f'[Scoring "{scoring}"]',
            '[Competition "Pairs"]',
            f'[ScoreTable "{score_columns}"]',
            lines,
        ]
        if i == 0:
            rec += totals
        records.append("\n".join(rec))
    return "\n".join(head) + "\n\n".join(records) + "\n"


def pbn_name(event_id: str, session: int, stems: Mapping[str, str] | None = None) -> str:
    """The file name of an event session's PBN export, pairs or teams (``stems``: see
    :func:`~pipelines.publish.usebio_writer.write_usebio`)."""
    return f"{(stems or {}).get(event_id) or slug(event_id)}-s{session}.pbn"


def write_pbn(
    sessions: pl.DataFrame,
    standings: pl.DataFrame,
    results: pl.DataFrame,
    out: Path,
    kept: Collection[str] = (),
    made: Manifest | None = None,
    stems: Mapping[str, str] | None = None,
) -> list[Path]:
    """One ``<event>-s<session>.pbn`` per exportable event session in ``out`` (each written
    only when it changed; those of a ``kept`` event kept as they were); the files. ``made``:
    the folder's record when the events come in batches, ``stems`` the events' file names
    (see :func:`~pipelines.publish.usebio_writer.write_usebio`)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    own = made is None
    made = Manifest(out) if made is None else made  # an unchanged session is not exported again
    ok = exportable(sessions)
    # the sessions of the events kept as they were keep their files (found, not made)
    kept_now, lost = set(), set()
    if kept:
        for event_id, session in (
            ok.filter(pl.col("event_id").is_in(sorted(kept))).select("event_id", "session").rows()
        ):
            name = pbn_name(event_id, session, stems)
            if made.keep_name(name):
                written.append(out / name)
                kept_now.add((event_id, session))
            else:
                lost.add(event_id)
    # the others made (an event kept whose file is gone: its sessions not kept)
    whole = sorted({e for e, _ in kept_now} - lost)
    todo = ok.filter(~pl.col("event_id").is_in(whole)) if whole else ok
    of_session = standings.filter(pl.col("scope") == "session")
    rows = split_by(ok, ["event_id", "session"])
    hashes = hashed_by(ok, ["event_id", "session"])  # each frame's rows hashed once
    stale = []  # the sessions whose file is made again (the others' are as they were made)
    for s in todo.to_dicts():
        key = (s["event_id"], s["session"])
        if key in kept_now:
            continue
        path = out / pbn_name(s["event_id"], s["session"], stems)
        written.append(path)
        if not made.fresh(path, digest(s, hashes(of_session, key), hashes(results, key))):
            stale.append((s, path, key))
    if stale:  # their score tables made in one pass over their lines
        these = pl.DataFrame(
            {
                "event_id": [s["event_id"] for s, *_ in stale],
                "session": [s["session"] for s, *_ in stale],
            },
            schema={"event_id": pl.String, "session": todo.schema["session"]},
        )
        mine = todo.join(these, on=["event_id", "session"], how="semi", maintain_order="left")
        tables = score_tables(
            mine, results.join(these, on=["event_id", "session"], how="semi", maintain_order="left")
        )
        ordered = total_order(of_session)  # at once, each session's part split in that order
        for s, path, key in stale:
            text = pbn_session(s, rows(ordered, key), rows(results, key), tables, ordered=True)
            put(path, text.encode("utf-8"))
    if own:
        made.save()
    return written
