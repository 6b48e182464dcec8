"""PBN of a team session in the per-record conventions of the RealBridge export in
``../shared/realdata`` (``realbridge_teams_imp_30teams_10b.pbn``).

One file per team event session. The header's ``% <META>`` lines name the contest
(``ContestID``), the session (``CRSession``) and the scoring (``IMP``). Each table result is
one game record: ``Event``, ``Date`` (``YYYY.MM.DD``), ``Board`` with its Law 2 ``Dealer``
and ``Vulnerable``, ``Round``, ``Table``, ``HomeTeam`` and ``VisitTeam`` (the teams seated
NS and EW at that table, as RealBridge writes them), ``Declarer``, ``Contract``, ``Result``
(tricks), ``Score "NS n"`` and the official ``ScoreIMP "NS x EW y"`` (the IMPs to the team
seated NS and to the team seated EW; they differ only where a split score did not balance).

The lines follow :mod:`pipelines.publish.lines`: an artificial score is written as its codes
(``Score "A+/-"``), a board not played as RealBridge writes a table that recorded nothing
(``Contract "Pass"`` with no ``Score`` and no ``Result``), and a split or weighted score keeps
the result played at the table beside the adjusted IMPs. Team names are team ids; member
names and membership numbers are never written.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.laws.board import dealer, vulnerability
from pipelines.publish.files import Manifest, digest, put
from pipelines.publish.lines import export_line
from pipelines.publish.pbn_writer import header, pbn_name, quote
from pipelines.split import parts_by


def _imps(value: Any) -> str:
    """IMPs as the ScoreIMP tag shows them: a whole number plainly, else 2 decimals."""
    if value is None:
        return "0"
    v = float(value)
    return str(int(v)) if v == int(v) else f"{v:.2f}"


def _record(session: dict[str, Any], r: dict[str, Any]) -> list[str]:
    board = int(r["board"])
    date = (session.get("date") or "").replace("-", ".")
    rec = [
        f"[Event {quote(session.get('name') or session['event_id'])}]",
        f"[Date {quote(date)}]",
        f"[Board {quote(board)}]",
        f"[Dealer {quote(dealer(board))}]",
        f"[Vulnerable {quote(vulnerability(board))}]",
        '[Scoring "IMP"]',
    ]
    if r.get("section"):
        rec.append(f"[Section {quote(r['section'])}]")
    if r.get("round") is not None:
        rec.append(f"[Round {quote(r['round'])}]")
    rec += [
        f"[Table {quote(r.get('table') or '')}]",
        f"[HomeTeam {quote(r['ns_pair'])}]",
        f"[VisitTeam {quote(r['ew_pair'])}]",
    ]
    line = export_line(r)
    if line.not_played:
        rec += ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]']
    elif line.ns_art or line.ew_art:
        rec += [
            '[Declarer ""]',
            '[Contract ""]',
            '[Result ""]',
            f'[Score "A{line.ns_art or "="}/{line.ew_art or "="}"]',
        ]
    elif line.contract == "PASS":
        rec += ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]', '[Score "NS 0"]']
    else:
        rec += [
            f"[Declarer {quote(line.declarer or '')}]",
            f"[Contract {quote(line.contract or '')}]",
            f"[Result {quote(line.tricks if line.tricks is not None else '')}]",
        ]
        if line.ns_score is not None:
            rec.append(f'[Score "NS {line.ns_score}"]')
    rec.append(
        f'[ScoreIMP "NS {_imps(r.get("ns_imps_display"))} EW {_imps(r.get("ew_imps_display"))}"]'
    )
    return rec


def teams_pbn_session(session: dict[str, Any], results: pl.DataFrame) -> str:
    """The PBN text of one team session: one record per table result."""
    head = header(session, "IMP")
    rows = results.sort(["round", "board", "table", "ns_pair"], nulls_last=True).to_dicts()
    records = ["\n".join(_record(session, r)) for r in rows]
    return "\n".join(head) + "\n\n".join(records) + "\n"


def write_teams_pbn(
    sessions: pl.DataFrame,
    results: pl.DataFrame,
    out: Path,
    kept: Collection[str] = (),
    made: Manifest | None = None,
    stems: Mapping[str, str] | None = None,
) -> list[Path]:
    """One ``<event>-s<session>.pbn`` per team event session in ``out`` (those of a ``kept``
    event kept as they were; ``made``: the folder's record when the events come in batches;
    ``stems``: the events' file names, see :func:`~pipelines.publish.usebio_writer.
    write_usebio`)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    teams = sessions.filter(pl.col("form") == "teams")
    own = made is None
    made = Manifest(out) if made is None else made  # an unchanged session is not exported again
    res = parts_by(results, ["event_id", "session"])
    for s in teams.to_dicts():
        of_session = res.get((s["event_id"], s["session"]), results.clear())
        path = out / pbn_name(s["event_id"], s["session"], stems)
        written.append(path)
        if s["event_id"] in kept and made.keep(path):
            continue
        if not made.fresh(path, digest(s, of_session)):
            put(path, teams_pbn_session(s, of_session).encode("utf-8"))
    if own:
        made.save()
    return written
