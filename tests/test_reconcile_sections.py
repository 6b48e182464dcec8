"""The reconciliation of a program that compared each board across every section of the
session (one field) while Traveller compares it within its section: every differing figure
is given that reason, not a split score or running totals."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from pipelines.scoring.reconcile import reconcile
from tests.formats.test_pbn import PAIRS_PBN, SCORE_HEADER, TOTAL_HEADER
from tests.realdata.scoring import score_inbox_day

# Board 1, two sections of two tables, the profile's 2 matchpoints per result beaten (ffb).
# Across the field (four results, top 6): NS A1 450 -> 6, NS B2 430 -> 4, NS A2 420 -> 2,
# NS B1 400 -> 0; EW the rest of 6. Within each section (two results, top 2): A1 2, A2 0;
# B2 2, B1 0.
SECTIONS = {
    "A": [("1", "4S", "N", 11, 450, 6), ("2", "4S", "N", 10, 420, 2)],
    "B": [("1", "3NT", "S", 9, 400, 0), ("2", "3NT", "S", 10, 430, 4)],
}
PLACE = {("A", "1"): 1, ("B", "2"): 2, ("A", "2"): 3, ("B", "1"): 4}


def board_record(section: str, totals: list[str], scores: list[str]) -> str:
    """Board 1 of ``section`` as a PBN record: its TotalScoreTable and ScoreTable lines."""
    return (
        f'[Board "1"]\n[Section "{section}"]\n{TOTAL_HEADER}\n'
        + "\n".join(totals)
        + f"\n{SCORE_HEADER}\n"
        + "\n".join(scores)
        + "\n"
    )


def _record(section: str) -> str:
    totals, scores = [], []
    for pair, contract, declarer, tricks, score, ns in SECTIONS[section]:
        ew = 6 - ns
        place_ns, place_ew = PLACE[(section, pair)], 5 - PLACE[(section, pair)]
        for place, side, mp in ((place_ns, "N-S", ns), (place_ew, "E-W", ew)):
            totals.append(
                f' {place} {pair} {pair} "{side}" {mp:.1f} {100 * mp / 6:.2f} - '
                f'"{section}{pair} {side}" 1 - -'
            )
        scores.append(
            f" {pair} 1 {pair} {pair} {contract} {declarer} {tricks} - "
            f'"{score}" - {ns:.1f} {ew:.1f}'
        )
    return board_record(section, totals, scores)


def two_section_pbn(inbox: Path, record: Callable[[str], str] = _record) -> None:
    """Write ``s.pbn`` into ``inbox``: the Magic Contest event 4711 (session 2) of sections A
    and B, each section's records as ``record`` writes them."""
    head = PAIRS_PBN[: PAIRS_PBN.index('[Event "Club')]
    text = (
        head
        + '[Event "Club Séance"]\n[Date "2024.03.05"]\n[Scoring "MatchPoints;MP1"]\n'
        + '[Competition "Pairs"]\n'
        + record("A")
        + '\n[Event "#"]\n[Date "#"]\n'
        + record("B")
    )
    (inbox / "s.pbn").write_text(text, encoding="utf-8")


def test_a_program_that_scored_across_the_sections_is_reconciled_with_that_reason(tmp_path: Path):
    two_section_pbn(tmp_path)
    res, snap = score_inbox_day(tmp_path)  # nothing rejected
    mine = res.scored.sort("section", "ns_pair")["ns_mp_display"].to_list()
    assert mine == [2.0, 0.0, 0.0, 2.0]  # within each section
    diffs, summary = reconcile(res.scored, res.standings, snap.source_standings)
    lines = diffs.filter(pl.col("what") == "line")
    assert lines.height == 4 and set(lines["code"]) == {"across_sections"}
    totals = diffs.filter(pl.col("what") == "total")
    # six of the eight totals differ (pair 1 NS of B and 1 EW of A have 0 either way)
    assert totals.height == 6 and set(totals["code"]) == {"across_sections"}
    rest = diffs.filter(pl.col("what").is_in(["percentage", "place"]))
    assert set(rest["code"]) <= {"follows_total"}
    assert summary.row(0, named=True)["unexplained"] == 0
    assert not summary.row(0, named=True)["running_totals"]
