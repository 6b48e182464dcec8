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

import polars as pl

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


#: The columns :func:`export_line` reads of a row (:func:`export_lines` holds no other).
LINE_INPUTS = (
    "kind", "adjustment", "effective_ns_result", "effective_ew_result", "ns_art", "ew_art",
    "board", "contract", "declarer", "tricks", "computed_score", "ns_score",
)  # fmt: skip

#: The adjustments whose line writes the ruling's own contract result (see :func:`export_line`).
RULED_RESULTS = ("assigned", "score_correction", "director_error", "artificial")

#: The columns of :func:`export_lines`, one per field of :class:`Line`.
LINE_SCHEMA: dict[str, pl.DataType] = {
    "line_contract": pl.String(),
    "line_declarer": pl.String(),
    "line_tricks": pl.Int64(),
    "line_ns_score": pl.Int64(),
    "line_ns_art": pl.String(),
    "line_ew_art": pl.String(),
    "line_not_played": pl.Boolean(),
    "line_note": pl.String(),
}


def export_lines(results: pl.DataFrame) -> pl.DataFrame:
    """:func:`export_line` of every row of ``results``, in order, as the columns of
    :data:`LINE_SCHEMA`. The rows whose line is a column of their own — a board not played,
    an artificial score, and a line with its score and no ruling's contract result to write
    (no adjusted score, no adjustment of :data:`RULED_RESULTS`; a played line without a
    score, which the IMP forms leave empty, excepted) — are taken as columns; the others
    (an adjusted score, a ruling's result to parse and score by Law 77) row by row through
    :func:`export_line` itself."""

    results = results.select(c for c in LINE_INPUTS if c in results.columns)

    def col(name: str, dtype: pl.DataType) -> pl.Expr:
        if name in results.columns:
            return pl.col(name).cast(dtype)
        return pl.lit(None, dtype)

    kind = col("kind", pl.String()).fill_null("")
    ruled = col("adjustment", pl.String()).is_in(list(RULED_RESULTS)).fill_null(False)
    not_played = kind == "not_played"
    artificial = kind == "artificial"
    scored = ~kind.is_in(["not_played", "artificial", "adjusted"]) & ~ruled
    scored = scored & (col("ns_score", pl.Int64()).is_not_null() | (kind != "played"))
    whole = results.with_row_index("__line").with_columns(
        (not_played | artificial | scored).alias("__columns")
    )
    as_columns = whole.filter(pl.col("__columns")).select(
        "__line",
        pl.when(scored).then(col("contract", pl.String())).alias("line_contract"),
        pl.when(scored).then(col("declarer", pl.String())).alias("line_declarer"),
        pl.when(scored).then(col("tricks", pl.Int64())).alias("line_tricks"),
        pl.when(scored).then(col("ns_score", pl.Int64())).alias("line_ns_score"),
        pl.when(artificial).then(col("ns_art", pl.String())).alias("line_ns_art"),
        pl.when(artificial).then(col("ew_art", pl.String())).alias("line_ew_art"),
        not_played.alias("line_not_played"),
        pl.lit(None, pl.String()).alias("line_note"),
    )
    rest = whole.filter(~pl.col("__columns"))
    by_row = [export_line(r) for r in rest.drop("__line", "__columns").to_dicts()]
    one_by_one = pl.DataFrame(
        {
            "__line": rest["__line"],
            **{
                name: pl.Series(name, [getattr(x, name[5:]) for x in by_row], dtype=dtype)
                for name, dtype in LINE_SCHEMA.items()
            },
        }
    )
    return pl.concat([as_columns, one_by_one]).sort("__line").drop("__line")
