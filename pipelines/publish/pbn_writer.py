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
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.laws.board import dealer, vulnerability
from pipelines.publish.explain import place_text
from pipelines.publish.files import Manifest, digest, put, split_by
from pipelines.publish.lines import export_line
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
                    _figure(r.get("score_display"), dec.total),
                    _figure(r.get("percentage_display"), dec.pct),
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
                        _figure(r.get("ns_mp_display"), dec.mp)
                        if mp
                        else _figure(r.get("ns_imps_display"), 2),
                        _figure(r.get("ew_mp_display"), dec.mp)
                        if mp
                        else _figure(r.get("ew_imps_display"), 2),
                        _pct(r.get("ns_pct")),
                        _pct(r.get("ew_pct")),
                    ]
                )
            )
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
    for s in todo.to_dicts():
        key = (s["event_id"], s["session"])
        if key in kept_now:
            continue
        path = out / pbn_name(s["event_id"], s["session"], stems)
        s_st, s_res = rows(of_session, key), rows(results, key)
        written.append(path)
        if not made.fresh(path, digest(s, s_st, s_res)):
            put(path, pbn_session(s, s_st, s_res).encode("utf-8"))
    if own:
        made.save()
    return written
