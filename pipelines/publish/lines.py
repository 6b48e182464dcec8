"""How one scored table result is written in an exchange format (USEBIO, PBN).

Both formats carry, per table, a contract, declarer, tricks and a score, and beside them the
scoring program's matchpoints. The rules for the official (newest) version:

* a played result, or one a ruling replaced by a single contract result for both sides (an
  assigned score, Law 12C1(b); a score correction, Law 79C): that contract, declarer and
  tricks, with the score Law 77 gives it — so a reader recomputing the score agrees;
* an artificial score (Law 12C2): no contract; the two sides' codes, fixed percentages
  (``60``/``50``/``40``) or the variable averages ``+ = -`` (whose percentage the
  session-percentage rule of Law 12C2(c) decides; the matchpoints written beside it are the
  resolved ones);
* a split or weighted score (Law 12C1(c), (e)) cannot be written as one score in either
  format: the line keeps the result played at the table and carries the adjusted
  matchpoints, and ``note`` says so;
* a board not played: ``NP``.

Individual events (four players per table) have no representation in either reader's
traveller line and are not exported. Team events are exported as PBN only, one record per
table in RealBridge's conventions (:mod:`pipelines.publish.teams_pbn`): their matches would
need USEBIO's team elements, which Traveller's reader does not read. Butler and cross-IMP
pairs are exported in both formats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipelines.laws.contract import ns_score, parse_contract
from pipelines.publish.explain import contract_result


@dataclass(frozen=True)
class Line:
    """One traveller line as written: ``score`` is NS-signed text or an artificial code."""

    contract: str | None
    declarer: str | None
    tricks: int | None
    ns_score: int | None
    ns_art: str | None
    ew_art: str | None
    not_played: bool
    note: str | None


def export_line(row: dict[str, Any]) -> Line:
    """The line to write for a row of ``sql/publish/results.sql`` (see the module rules)."""
    kind = row.get("kind")
    adjustment = row.get("adjustment")
    ns, ew = row.get("effective_ns_result"), row.get("effective_ew_result")
    if kind == "not_played":
        return Line(None, None, None, None, None, None, True, None)
    if kind == "artificial":
        return Line(None, None, None, None, row.get("ns_art"), row.get("ew_art"), False, None)
    if kind == "adjusted":
        note = (
            f"adjusted score ({adjustment}): NS {ns}, EW {ew or ns}; the line shows the "
            "result played at the table and the adjusted matchpoints"
        )
        played = _played(row)
        return Line(*played, None, None, False, note)
    if adjustment in ("assigned", "score_correction", "director_error", "artificial") and (
        not ew or (ns or "").strip() == ew.strip()
    ):
        parsed = contract_result(ns)
        if parsed is not None:
            contract, declarer, tricks = parsed
            if contract == "PASS":
                return Line("PASS", None, None, 0, None, None, False, None)
            score = ns_score(parse_contract(contract), declarer, tricks, int(row["board"]))
            return Line(contract, declarer, tricks, score, None, None, False, None)
    return Line(
        row.get("contract"),
        row.get("declarer"),
        row.get("tricks"),
        table_score(row),
        None,
        None,
        False,
        None,
    )


def _played(row: dict[str, Any]) -> tuple[str | None, str | None, int | None, int | None]:
    """The result as played at the table, with its Law 77 score (``computed_score``)."""
    contract, declarer, tricks = row.get("contract"), row.get("declarer"), row.get("tricks")
    score = row.get("computed_score")
    if score is None and contract and contract != "PASS" and declarer and tricks is not None:
        score = ns_score(parse_contract(contract), declarer, int(tricks), int(row["board"]))
    if contract == "PASS":
        return ("PASS", None, None, 0)
    return (contract, declarer, tricks, score)


def table_score(row: dict[str, Any]) -> int | None:
    """The NS score of a played line: the scored ``ns_score``, else (the IMP forms leave it
    empty) the Law 77 score of the contract shown, with the Law 2 vulnerability."""
    if row.get("ns_score") is not None or row.get("kind") != "played":
        return row.get("ns_score")
    contract, declarer, tricks = row.get("contract"), row.get("declarer"), row.get("tricks")
    if contract == "PASS":
        return 0
    if not contract or not declarer or tricks is None:
        return row.get("computed_score")
    return ns_score(parse_contract(contract), declarer, int(tricks), int(row["board"]))
