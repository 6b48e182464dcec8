"""A later session of a longer event: Magic Contest's ``TotalScoreTable`` gives the event's
running totals and, on the same line, the session's own figures (``SessionScoreMP``,
``SessionPercentage``, ``SessionRank``, and ``SessionRankTie`` where a place is shared).

The running totals cannot be reproduced from one session's file (they are compared with the
event's standings, else not comparable); the session's own figures can, and are. In the
FFB's "Open /2 DN1 National Finale directe 21-22", session 5 (lucbellicaud/bridgetrainer's
``Boards/Pbns/test_set.pbn``), the session ranking shares a tied place between two pairs
that met, where the event's ranking (``Rank``, session 1's file) breaks such a tie head to
head: that place is given its own reason, ``tie_shared``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.formats.pbn import read_pbn
from pipelines.scoring.reconcile import reconcile
from tests.formats.test_pbn import SCORE_HEADER
from tests.realdata.scoring import score_inbox_day

TOTALS = (
    '[TotalScoreTable "Rank\\2R;PairId\\2R;Table\\2R;Direction\\5R;TotalScoreMP\\5R;'
    "TotalPercentage\\5R;Names\\20L;NrBoards\\2R;NrBoardsSession\\2R;SessionScoreMP\\5R;"
    'SessionPercentage\\5R;SessionRank\\2R;SessionRankTie\\2R"]'
)

# Four pairs, one field (a Howell), one board a round, two tables, top 2 a board.
# Board 1: 1-2 NS +420, 3-4 NS +450 -> 1: 0, 2: 2, 3: 2, 4: 0.
# Board 2: 1-3 NS +100, 4-2 NS -100 -> 1: 2, 3: 0, 4: 0, 2: 2.
# Board 3: 1-4 NS -50, 2-3 NS -50 (a tie) -> 1 each.
# Session: 1: 3, 2: 5, 3: 3, 4: 1 of 6 (50.00, 83.33, 50.00, 16.67 %). Pairs 1 and 3 are
# tied; they met on board 2, where pair 1 scored 2 to pair 3's 0: the ffb profile
# (ranking.tiebreak = head_to_head) places 1 second and 3 third, the program's session
# ranking shares second place. With an earlier session's 4, 3, 2, 3 the running totals are
# 7, 8, 5, 4 of 12.
SESSION_TWO = f"""% PBN 2.0
% <META  name=Generator                  content="Magic Contest France">
% <META  name=ContestID                  content="4712">
% <META  name=CRSession                  content="2">
% <META  name=ScoringType                content="MatchPoints;MP1">

[Event "Club Finale - Séance 2"]
[Date "2024.03.12"]
[Board "1"]
[Scoring "MatchPoints;MP1"]
[Competition "Pairs"]
{TOTALS}
 2  1  1 "N-S"  7.0 58.33 "Pair One"    6 3 3.0 50.00 2 3
 1  2  1 "E-W"  8.0 66.67 "Pair Two"    6 3 5.0 83.33 1 -
 3  3  2 "N-S"  5.0 41.67 "Pair Three"  6 3 3.0 50.00 2 3
 4  4  2 "E-W"  4.0 33.33 "Pair Four"   6 3 1.0 16.67 4 -
{SCORE_HEADER}
 1  1  1  2 4S  N 10 -   "420"      -  0.0  2.0
 2  1  3  4 4S  N 11 -   "450"      -  2.0  0.0

[Event "#"]
[Date "#"]
[Board "2"]
{SCORE_HEADER}
 1  2  1  3 2S  E  6 -   "100"      -  2.0  0.0
 2  2  4  2 2S  N  7 -       -  "100"  0.0  2.0

[Event "#"]
[Date "#"]
[Board "3"]
{SCORE_HEADER}
 1  3  1  4 3S  N  8 -       -   "50"  1.0  1.0
 2  3  2  3 3S  N  8 -       -   "50"  1.0  1.0
"""


def test_the_session_figures_are_read_beside_the_running_totals(tmp_path: Path) -> None:
    (tmp_path / "s2.pbn").write_text(SESSION_TWO, encoding="utf-8")
    read = read_pbn(tmp_path / "s2.pbn", "s2.pbn")
    st = read.source_standings
    running = st.filter(pl.col("figures").is_null())
    session = st.filter(pl.col("figures") == "session")
    assert running.select("contestant", "total", "percentage", "place").rows() == [
        ("1", "7.0", "58.33", "2"),
        ("2", "8.0", "66.67", "1"),
        ("3", "5.0", "41.67", "3"),
        ("4", "4.0", "33.33", "4"),
    ]
    assert session.select("contestant", "total", "percentage", "place").rows() == [
        ("1", "3.0", "50.00", "2"),
        ("2", "5.0", "83.33", "1"),
        ("3", "3.0", "50.00", "2"),
        ("4", "1.0", "16.67", "4"),
    ]
    # one line of the file each: the same location, counted once in the row accounting
    assert session["location"].to_list() == running["location"].to_list()
    assert read.rows_read == 4 + 6 + 1


def test_a_first_session_gives_no_second_set_of_figures(tmp_path: Path) -> None:
    # where the session's figures are the line's totals (the event's first session), the
    # line is one set of figures
    first = SESSION_TWO.replace(" 7.0 58.33", " 3.0 50.00").replace(" 8.0 66.67", " 5.0 83.33")
    first = first.replace(" 5.0 41.67", " 3.0 50.00").replace(" 4.0 33.33", " 1.0 16.67")
    (tmp_path / "s1.pbn").write_text(first, encoding="utf-8")
    st = read_pbn(tmp_path / "s1.pbn", "s1.pbn").source_standings
    assert st.height == 4 and st["figures"].null_count() == 4


def test_the_session_figures_are_compared_and_a_shared_tie_explained(tmp_path: Path) -> None:
    (tmp_path / "s2.pbn").write_text(SESSION_TWO, encoding="utf-8")
    res, snap = score_inbox_day(tmp_path)
    mine = res.standings.filter(pl.col("scope") == "session").sort("contestant")
    assert mine.select("contestant", "score_display", "rank").rows() == [
        ("1", 3.0, 2),
        ("2", 5.0, 1),
        ("3", 3.0, 3),
        ("4", 1.0, 4),
    ]
    diffs, summary = reconcile(res.scored, res.standings, snap.source_standings)
    assert diffs.select("contestant", "what", "official", "code").rows() == [
        ("3", "place", "2", "tie_shared")
    ]
    s = summary.row(0, named=True)
    # six lines and the session's twelve figures compared; the running totals (the event's
    # standings hold this session only) are not comparable
    assert (s["compared"], s["reproduced"], s["unexplained"]) == (6 + 12, 6 + 11, 0)
    assert s["not_comparable"] == 12 and s["running_totals"]
