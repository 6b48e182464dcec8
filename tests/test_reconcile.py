"""Reconciliation rules on constructed cases: the Butler datum's exact half under
``imps.datum_rounding``, and a sit-out pair's total under ``totals.sitout``."""

from __future__ import annotations

import polars as pl

from pipelines.laws.imp_pairs import BUTLER_CONVENTIONS, butler_datum
from pipelines.profiles import load
from pipelines.scoring.reconcile import reconcile


def _datum(scores: list[int], profile: str) -> int:
    conv = {**BUTLER_CONVENTIONS[load(profile).butler], "half": load(profile).datum_half}
    return int(butler_datum(scores, **conv))


def test_datum_half_away_from_zero_under_abf():
    # trimmed mean (top and bottom dropped) of -420, -470 is -445; of 110, 140 is 125
    assert load("abf").datum_rounding == "half_away"
    assert _datum([-100, -420, -470, -990], "abf") == -450
    assert _datum([0, 110, 140, 500], "abf") == 130
    # the ACBLscore rule: a final 5 to the even ten
    assert load("acbl").datum_rounding == "half_even"
    assert _datum([-420, -470], "acbl") == -440


def _standing(contestant: str, boards: int, score: float, top: float, profile: str) -> dict:
    return {
        "event_id": "E",
        "scope": "session",
        "session": 1,
        "section": "A",
        "contestant": contestant,
        "direction": None,
        "boards": boards,
        "score": score,
        "score_display": score,
        "top": top,
        "percentage_display": round(100 * score / top, 2),
        "rank": 1 if contestant == "1" else 2,
        "unit": "MP",
        "profile": profile,
        "status": "final",
    }


def _official(total: str, pct: str, place: str) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "file": "club.xml",
                "location": "EVENT/PARTICIPANTS/PAIR[1]",
                "event_id": "E",
                "session": "1",
                "section": "A",
                "contestant": "1",
                "direction": None,
                "total": total,
                "percentage": pct,
                "place": place,
                "tiebreak": None,
            }
        ]
    )


def test_sitout_total_on_boards_played_explained():
    # a Howell of 3 boards with top 4 each; pair 1 sat out one board and scored 3 + 2 = 5 of
    # 8 (62.5 %). Scaled to the session (abf: totals.sitout = scale_to_full) that is
    # 5 x 3/2 = 7.5 over a top of 12; a program counting the boards played shows 5.00.
    ours = pl.DataFrame([_standing("1", 2, 7.5, 12.0, "abf"), _standing("2", 3, 6.0, 12.0, "abf")])
    diffs, files = reconcile(pl.DataFrame(), ours, _official("5.00", "62.50", "1"))
    assert diffs.height == 1
    r = diffs.row(0, named=True)
    assert (r["what"], r["official"], r["traveller"], r["code"]) == (
        "total",
        "5.00",
        "7.5",
        "total_on_boards_played",
    )
    assert files.row(0, named=True)["unexplained"] == 0


def test_sitout_total_reproduced_when_the_profile_counts_boards_played():
    # totals.sitout = none: the same pair's total is its 5 MP on the 2 boards it played
    assert load("ebu").sitout == "none"
    ours = pl.DataFrame([_standing("1", 2, 5.0, 8.0, "ebu"), _standing("2", 3, 6.0, 12.0, "ebu")])
    diffs, files = reconcile(pl.DataFrame(), ours, _official("5.00", "62.50", "1"))
    assert diffs.height == 0
    assert files.row(0, named=True)["reproduced"] == 3


def test_hold_is_a_profile_choice():
    assert {load(p).on_difference for p in ("abf", "acbl", "ebu", "ffb", "wbf")} == {"report"}


def test_report_reconciliation_and_profiles_commands(tmp_path):
    from typer.testing import CliRunner

    from pipelines.cli import app
    from pipelines.warehouse import Warehouse, Write, write

    ours = pl.DataFrame([_standing("1", 2, 7.5, 12.0, "abf"), _standing("2", 3, 6.0, 12.0, "abf")])
    diffs, files = reconcile(pl.DataFrame(), ours, _official("5.00", "62.50", "1"))
    wh = Warehouse(tmp_path / "wh.duckdb")
    with wh.connect() as conn:
        write(conn, [Write("reconciliation", diffs), Write("reconciliation_files", files)])
    r = CliRunner().invoke(
        app, ["report", "reconciliation", "--out", str(tmp_path), "--warehouse", str(wh.path)]
    )
    assert r.exit_code == 0, r.output
    assert "official   figures reproduced 2 of 3 (1 files); 0 unexplained" in r.output
    html = (tmp_path / "reconciliation.html").read_text(encoding="utf-8")
    assert "total_on_boards_played" in html and "5.00" in html
    r = CliRunner().invoke(
        app,
        [
            "report",
            "reconciliation",
            "--format",
            "csv",
            "--out",
            str(tmp_path),
            "--warehouse",
            str(wh.path),
        ],
    )
    assert r.exit_code == 0
    assert pl.read_csv(tmp_path / "reconciliation.csv")["code"].to_list() == [
        "total_on_boards_played"
    ]
    r = CliRunner().invoke(app, ["profiles"])
    assert r.exit_code == 0
    assert all(name in r.output for name in ("abf", "acbl", "ebu", "ffb", "wbf"))


def test_held_sessions_are_not_published_provisional_ones_are(tmp_path):
    """reconciliation.on_difference acts on the stored standings: 'held' never reaches the
    publication queries, 'provisional' does (never shown final); another session is left."""
    from pipelines.warehouse import Warehouse, Write, query, sql, write

    def row(event_id: str, session: int) -> dict:
        return {
            "event_id": event_id,
            "scope": "session",
            "session": session,
            "section": "A",
            "contestant": "1",
            "boards": 3,
            "score": 6.0,
            "score_num": 6,
            "score_den": 1,
            "penalties": 0.0,
            "penalty_num": 0,
            "penalty_den": 1,
            "tied": False,
            "status": "final",
            "version": 1,
        }

    wh = Warehouse(tmp_path / "wh.duckdb")
    frame = pl.DataFrame([row("E", 1), row("E", 2), row("F", 1)])
    with wh.connect() as conn:
        write(conn, [Write("standings", frame, {"dates": [], "event_ids": []})])
        update = sql("write/standings_reconciled")
        conn.execute(update, {"event_id": "E", "session": 1, "status": "held"})
        conn.execute(update, {"event_id": "F", "session": 1, "status": "provisional"})
        published = query(conn, "publish/standings")
    got = {(r["event_id"], r["session"]): r["status"] for r in published.iter_rows(named=True)}
    assert got == {("E", 2): "final", ("F", 1): "provisional"}


def test_split_score_recognised_and_its_board_follows():
    """Law 12C1(e): a split score gives NS and EW results apart, so the two figures of the
    line may add up to more than the top (here 3 + 3 on a top of 4); the board's other
    lines, whose field changed with it, follow from it. A line elsewhere that differs
    with nothing to explain it stays unexplained."""

    def line(board: int, ns: str, ew: str, ours: tuple, official: tuple) -> dict:
        return {
            "file": "club.xml",
            "location": f"BOARD[{board}]/LINE[{ns}]",
            "event_id": "E",
            "session": 1,
            "section": "A",
            "deal_round": 0,
            "board": board,
            "ns_pair": ns,
            "ew_pair": ew,
            "kind": "played",
            "scoring": "matchpoints",
            "profile": "wbf",
            "top_display": 4.0,
            "ns_mp_display": ours[0],
            "ew_mp_display": ours[1],
            "source_ns_mp": official[0],
            "source_ew_mp": official[1],
        }

    scored = pl.DataFrame(
        [
            line(1, "1", "2", (2.0, 2.0), (3.0, 3.0)),  # split: 6 > top 4
            line(1, "3", "4", (4.0, 0.0), (3.5, 0.0)),  # its field changed with it
            line(1, "5", "6", (0.0, 4.0), (0.0, 4.0)),  # reproduced
            line(2, "1", "4", (4.0, 0.0), (3.0, 0.0)),  # nothing explains it
        ]
    )
    diffs, files = reconcile(scored, pl.DataFrame(), pl.DataFrame())
    codes = {(r["board"], r["contestant"]): r["code"] for r in diffs.iter_rows(named=True)}
    assert codes == {
        ("1", "1-2"): "split_score",
        ("1", "3-4"): "follows_line",
        ("2", "1-4"): "unknown",
    }
    f = files.row(0, named=True)
    assert (f["compared"], f["reproduced"], f["unexplained"]) == (4, 1, 1)


def test_fewer_decimals_is_the_same_figure_a_whole_unit_is_not():
    # 8.14 shown to one decimal is 8.1 (within 0.05); 4 shown as 3.5 is an edit, not rounding
    from pipelines.scoring.reconcile import _coarser

    assert _coarser(8.1, 8.14) and _coarser(13.9, 13.86) and _coarser(0.1, 0.14)
    assert not _coarser(3.5, 4.0) and not _coarser(9.0, 8.14) and not _coarser(8.2, 8.14)


def test_weighted_score_the_file_cannot_describe():
    """Law 12C1(c): table 1's result was weighted 60 % of +100 and 40 % of -90; the file keeps
    one score per table (+100), so Traveller compares the board plainly: 3/1, 3/1, 0/4 on a
    top of 4 (2 per result beaten). The program's figures, worked by hand: table 1
    0.6 x 3 + 0.4 x 1 = 2.2 (EW 1.8); table 2 (+100) against 1: 0.6 x 1 + 0.4 x 2 = 1.4, and
    2 against table 3: 3.4 (EW 0.6); table 3 (-90): 0.4 x 1 = 0.4 (EW 3.6). Each shares the
    top and is a fraction where ours are whole: explained. A whole-number edit stays unknown."""

    def line(board: int, ns: str, ours: tuple, official: tuple) -> dict:
        return {
            "file": "club.xml",
            "location": f"BOARD[{board}]/LINE[{ns}]",
            "event_id": "E",
            "session": 1,
            "section": "A",
            "deal_round": 0,
            "board": board,
            "ns_pair": ns,
            "ew_pair": str(int(ns) + 10),
            "kind": "played",
            "scoring": "matchpoints",
            "profile": "wbf",
            "top_display": 4.0,
            "ns_mp_display": ours[0],
            "ew_mp_display": ours[1],
            "source_ns_mp": official[0],
            "source_ew_mp": official[1],
        }

    scored = pl.DataFrame(
        [
            line(1, "1", (3.0, 1.0), (2.2, 1.8)),
            line(1, "2", (3.0, 1.0), (3.4, 0.6)),
            line(1, "3", (0.0, 4.0), (0.4, 3.6)),
            line(2, "1", (3.0, 1.0), (4.0, 0.0)),  # whole numbers: an edit, not a weighting
        ]
    )
    diffs, _ = reconcile(scored, pl.DataFrame(), pl.DataFrame())
    codes = {(r["board"], r["contestant"]): r["code"] for r in diffs.iter_rows(named=True)}
    assert codes == {
        ("1", "1-11"): "fraction_on_plain_board",
        ("1", "2-12"): "fraction_on_plain_board",
        ("1", "3-13"): "fraction_on_plain_board",
        ("2", "1-11"): "unknown",
    }


def _mp_line(board: int, ns: str, ours: tuple, official: tuple, *, profile: str = "wbf") -> dict:
    """One matchpoint traveller line of section A: Traveller's figures and the program's."""
    top = 2.0 * (len(BOARDS[board]) - 1) / (2 if profile == "acbl" else 1)
    return {
        "file": "club.xml",
        "location": f"BOARD[{board}]/LINE[{ns}]",
        "event_id": "E",
        "session": 1,
        "section": "A",
        "deal_round": 0,
        "board": board,
        "ns_pair": ns,
        "ew_pair": str(int(ns) + 10),
        "kind": "played",
        "scoring": "matchpoints",
        "profile": profile,
        "top_display": top,
        "n_results": len(BOARDS[board]),
        "expected": len(BOARDS[board]),
        "ns_mp_display": ours[0],
        "ew_mp_display": ours[1],
        "source_ns_mp": official[0],
        "source_ew_mp": official[1],
    }


# Each board's NS scores at Traveller's tables (pairs 1, 2, 3, ...).
BOARDS = {
    1: [420, 170, -50],
    2: [420, 170, -50],
    3: [420, 170, -50],
    4: [420, 200, 170, -50],
    5: [420, 170, -50],
}


def test_a_board_scored_with_another_number_of_results_is_not_a_split_score():
    """Worked by hand, 2 matchpoints per result beaten (1 in acbl). Traveller has three
    results on boards 1, 2, 3 and 5: +420, +170, -50, top 4: 4/0, 2/2, 0/4.

    * board 1: the program gave table 1 a split score, 3/3 (6 on a top of 4), and the other
      two lines as Traveller: one line above the top is one table's ruling: split_score;
    * board 2: the program also had a fourth result, +200, removed since: +420 beats three
      (6/0), +170 beats one and loses to +200 (2/4), -50 none (0/6): every line adds up to
      6, the top of 4 results, where Traveller's is 4 (3 results): other_result_count;
    * board 3: two lines at 6 (two split scores?) and one at 4: not every line: split_score
      for the two, the third follows them;
    * board 4: Traveller has +200 too (a late result): four results, top 6: 6/0, 4/2, 2/4,
      0/6; the program never saw it (no figures on its line) and shows the other three on a
      top of 4 (3 results): 4/0, 2/2, 0/4: other_result_count;
    * board 5, acbl (1 per result beaten): Traveller's top 2 (2/0, 1/1, 0/2); the program
      had +200 too: 3/0, 1/2, 0/3, each adding up to 3, the top of 4 results."""
    scored = pl.DataFrame(
        [
            _mp_line(1, "1", (4.0, 0.0), (3.0, 3.0)),
            _mp_line(1, "2", (2.0, 2.0), (2.0, 2.0)),
            _mp_line(1, "3", (0.0, 4.0), (0.0, 4.0)),
            _mp_line(2, "1", (4.0, 0.0), (6.0, 0.0)),
            _mp_line(2, "2", (2.0, 2.0), (2.0, 4.0)),
            _mp_line(2, "3", (0.0, 4.0), (0.0, 6.0)),
            _mp_line(3, "1", (4.0, 0.0), (3.0, 3.0)),
            _mp_line(3, "2", (2.0, 2.0), (3.0, 3.0)),
            _mp_line(3, "3", (0.0, 4.0), (0.5, 3.5)),
            _mp_line(4, "1", (6.0, 0.0), (4.0, 0.0)),
            _mp_line(4, "4", (4.0, 2.0), (None, None)),
            _mp_line(4, "2", (2.0, 4.0), (2.0, 2.0)),
            _mp_line(4, "3", (0.0, 6.0), (0.0, 4.0)),
            _mp_line(5, "1", (2.0, 0.0), (3.0, 0.0), profile="acbl"),
            _mp_line(5, "2", (1.0, 1.0), (1.0, 2.0), profile="acbl"),
            _mp_line(5, "3", (0.0, 2.0), (0.0, 3.0), profile="acbl"),
        ]
    )
    diffs, files = reconcile(scored, pl.DataFrame(), pl.DataFrame())
    codes = {(r["board"], r["contestant"]): r["code"] for r in diffs.iter_rows(named=True)}
    assert codes == {
        ("1", "1-11"): "split_score",
        ("2", "1-11"): "other_result_count",
        ("2", "2-12"): "other_result_count",
        ("2", "3-13"): "other_result_count",
        ("3", "1-11"): "split_score",
        ("3", "2-12"): "split_score",
        ("3", "3-13"): "follows_line",
        ("4", "1-11"): "other_result_count",
        ("4", "2-12"): "other_result_count",
        ("4", "3-13"): "other_result_count",
        ("5", "1-11"): "other_result_count",
        ("5", "2-12"): "other_result_count",
        ("5", "3-13"): "other_result_count",
    }
    words = {r["board"]: r["explanation"] for r in diffs.iter_rows(named=True)}
    assert words["2"].startswith(
        "the program scored this board with 4 results (a top of 6), Traveller has 3 (a top "
        "of 4): a result removed"
    )
    assert words["4"].startswith(
        "the program scored this board with 3 results (a top of 4), Traveller has 4 (a top "
        "of 6): a result added"
    )
    assert words["5"].startswith("the program scored this board with 4 results (a top of 3)")
    assert files.row(0, named=True)["unexplained"] == 0


def test_lines_all_on_another_top_but_not_another_count_of_these_results():
    """Every line adding up to one sum that is the top of another number of results is not
    enough: the program's figures must be the figures of these results with results
    removed or added. Traveller: +420, +170, -50 (4/0, 2/2, 0/4).

    * board 1: the program's figures reversed (the +420 table got nothing), each line on a
      top of 6: no removed result takes matchpoints from a table;
    * board 4 (four results, +200 too: 6/0, 4/2, 2/4, 0/6): every line 2/2 (a top of 4:
      three results), yet the program gave figures to four tables;
    * board 3: every line 3/3 (a top of 6) — the +420 table lost a matchpoint it held."""
    scored = pl.DataFrame(
        [
            _mp_line(1, "1", (4.0, 0.0), (0.0, 6.0)),
            _mp_line(1, "2", (2.0, 2.0), (2.0, 4.0)),
            _mp_line(1, "3", (0.0, 4.0), (6.0, 0.0)),
            _mp_line(4, "1", (6.0, 0.0), (2.0, 2.0)),
            _mp_line(4, "4", (4.0, 2.0), (2.0, 2.0)),
            _mp_line(4, "2", (2.0, 4.0), (2.0, 2.0)),
            _mp_line(4, "3", (0.0, 6.0), (2.0, 2.0)),
            _mp_line(3, "1", (4.0, 0.0), (3.0, 3.0)),
            _mp_line(3, "2", (2.0, 2.0), (3.0, 3.0)),
            _mp_line(3, "3", (0.0, 4.0), (3.0, 3.0)),
        ]
    )
    diffs, _ = reconcile(scored, pl.DataFrame(), pl.DataFrame())
    codes = {(r["board"], r["contestant"]): r["code"] for r in diffs.iter_rows(named=True)}
    assert "other_result_count" not in codes.values(), codes


def test_a_percentage_alone_off_by_far_is_not_explained_by_a_recounted_board():
    """A file giving percentages only, in a session with a board the program scored with
    another number of results (board 2 of the test above): pair 4, who never played that
    board, shows 99 % where Traveller has 50 %. Nothing ties that percentage to the program's
    top: it is no other_result_count."""
    lines = [
        _mp_line(2, "1", (4.0, 0.0), (6.0, 0.0)),
        _mp_line(2, "2", (2.0, 2.0), (2.0, 4.0)),
        _mp_line(2, "3", (0.0, 4.0), (0.0, 6.0)),
    ]
    scored = pl.DataFrame(lines)
    ours = pl.DataFrame([_standing("4", 1, 2.0, 4.0, "wbf")]).with_columns(
        pl.col("boards").cast(pl.Int64)
    )
    official = _official("", "99.00", "").with_columns(
        pl.lit("4").alias("contestant"), pl.lit(None, pl.Utf8).alias("total")
    )
    diffs, _ = reconcile(scored, ours, official)
    st = diffs.filter(pl.col("what") == "percentage")
    assert st.height == 1
    assert st["code"][0] != "other_result_count", st.to_dicts()
