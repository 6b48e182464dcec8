"""The second opinion on the real club files (``reconciliation``): every official figure of
every file in ../shared/realdata is either reproduced or listed with a specific reason, and
a figure edited by hand in a copy of a real file is listed, alone, as unexplained.

Figures asserted are the files' own (SOURCES.md): the Mitchell's board 1 line 1NS-1EW shows
110 with 20/20, board 3's A5050 shows 23/11, board 4's 1NS-21EW -650 shows 21/19 where every
other -650 shows 19/21; RealBridge's lone board-20 record shows ScoreIMP -1 with no other
table. No names are printed: they are real people.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.scoring.reconcile import reconcile
from tests.conftest import REALDATA, shared_file
from tests.realdata.scoring import score_inbox_day

FILES = (
    "compscore_usebio_butler_mitchell_14p.xml",
    "compscore_usebio_cross_imp_howell_9p.xml",
    "compscore_usebio_mp_howell_12p.xml",
    "compscore_usebio_mp_mitchell_42p_adjusted.xml",
    "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn",
    "realbridge_teams_imp_30teams_10b.pbn",
)
HOWELL = "compscore_usebio_mp_howell_12p.xml"
MITCHELL = "compscore_usebio_mp_mitchell_42p_adjusted.xml"
FFB = "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn"


def _reconcile(inbox: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    res, snap = score_inbox_day(inbox)
    return reconcile(res.scored, res.standings, snap.source_standings)


def _copy(tmp: Path, names, edit=None) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    for name in names:
        src = shared_file(REALDATA / name)
        if edit and name in edit:
            raw = src.read_bytes().decode("latin-1")
            (inbox / name).write_bytes(edit[name](raw).encode("latin-1"))
        else:
            shutil.copy(src, inbox / name)
    return inbox


@pytest.fixture(scope="module")
def every_file(tmp_path_factory):
    return _reconcile(_copy(tmp_path_factory.mktemp("reconcile"), FILES))


def test_every_official_figure_reproduced_or_explained(every_file):
    diffs, files = every_file
    assert sorted(files["file"].to_list()) == sorted(FILES)
    assert diffs.filter(pl.col("code") == "unknown").height == 0
    assert files["unexplained"].sum() == 0
    by = {r["file"]: r for r in files.iter_rows(named=True)}
    # reproduced in full: every line and every total, percentage and place
    for name in (*FILES[:3], FFB):
        assert by[name]["differing"] == 0 and by[name]["compared"] > 0, name
    # the Butler file: 245 lines (244 played + the A5050) and 14 totals and places
    assert by[FILES[0]]["compared"] == 245 + 14 * 2
    assert by[FFB]["compared"] == 660 + 44 * 3
    assert set(files["action"]) == {"published"}


def _line(diffs: pl.DataFrame, file: str, board: str, pairs: str) -> dict:
    hit = diffs.filter(
        (pl.col("file") == file) & (pl.col("board") == board) & (pl.col("contestant") == pairs)
    )
    assert hit.height == 1, hit
    return hit.row(0, named=True)


def test_mitchell_oddities_each_with_its_reason(every_file):
    diffs, _ = every_file
    b1 = _line(diffs, MITCHELL, "1", "1-1")
    assert (b1["official"], b1["code"]) == ("20/20", "average_over_played_score")
    b3 = _line(diffs, MITCHELL, "3", "1-1")
    assert (b3["official"], b3["traveller"], b3["code"]) == (
        "23/11",
        "20/20",
        "artificial_not_on_top",
    )
    b4 = _line(diffs, MITCHELL, "4", "1-21")
    assert (b4["official"], b4["traveller"], b4["code"]) == ("21/19", "19/21", "swapped")
    lines = diffs.filter((pl.col("file") == MITCHELL) & (pl.col("what") == "line"))
    # board 1's other 20 results are factored around the inserted average
    assert set(lines.filter(pl.col("board") == "1")["code"]) == {
        "average_over_played_score",
        "follows_line",
    }
    assert set(lines["board"]) == {"1", "3", "4"}
    totals = diffs.filter((pl.col("file") == MITCHELL) & (pl.col("what") == "total"))
    assert set(totals["code"]) == {"totals_before_adjustment"}


def test_teams_board_without_other_table(every_file):
    diffs, _ = every_file
    r = diffs.filter(pl.col("file") == "realbridge_teams_imp_30teams_10b.pbn").row(0, named=True)
    assert (r["board"], r["official"], r["traveller"], r["code"]) == (
        "20",
        "-1/1",
        "0/0",
        "no_other_table",
    )


def _edit_first(tag: str, board_line: int, new: str):
    """Replace the ``board_line``-th ``<tag>`` value of a USEBIO file with ``new``."""

    def edit(text: str) -> str:
        hits = list(re.finditer(rf"<{tag}>([^<]*)</{tag}>", text))
        m = hits[board_line]
        return text[: m.start(1)] + new + text[m.end(1) :]

    return edit


def test_hand_edited_line_is_the_one_unexplained_row(tmp_path):
    # the 40th traveller line's NS matchpoints changed by hand in a copy of the real file
    text = shared_file(REALDATA / HOWELL).read_text(encoding="latin-1")
    old = re.findall(r"<NS_MATCH_POINTS>([^<]*)</NS_MATCH_POINTS>", text)[40]
    new = "3.5" if old != "3.5" else "4.5"
    inbox = _copy(tmp_path, [HOWELL], {HOWELL: _edit_first("NS_MATCH_POINTS", 40, new)})
    diffs, files = _reconcile(inbox)
    assert diffs.height == 1, diffs
    r = diffs.row(0, named=True)
    assert r["code"] == "unknown" and r["what"] == "line"
    assert r["official"].split("/")[0] == new and r["traveller"].split("/")[0] == f"{float(old):g}"
    assert files.row(0, named=True)["unexplained"] == 1


def test_hand_edited_total_is_the_one_unexplained_row(tmp_path):
    text = shared_file(REALDATA / HOWELL).read_text(encoding="latin-1")
    old = re.findall(r"<TOTAL_SCORE>([^<]*)</TOTAL_SCORE>", text)[1]
    assert old == "156.80"  # pair 2 (SOURCES.md's file; see test_compscore_howell)
    inbox = _copy(tmp_path, [HOWELL], {HOWELL: _edit_first("TOTAL_SCORE", 1, "158.80")})
    diffs, _ = _reconcile(inbox)
    assert diffs.height == 1, diffs
    r = diffs.row(0, named=True)
    assert (r["what"], r["contestant"], r["official"], r["traveller"], r["code"]) == (
        "total",
        "2",
        "158.80",
        "156.8",
        "unknown",
    )


def _running_totals(text: str) -> str:
    """The session's TotalScoreTable as a second session's running totals would show it: a
    first session of 30 boards at exactly 50 % (630 MP of 1260) added, percentages over 60
    boards (top 2520), NrBoards 60."""
    out, inside = [], False
    for line in text.split("\n"):
        if line.startswith("[TotalScoreTable"):
            inside = True
        elif line.startswith("["):
            inside = False
        elif inside and line.strip():
            m = re.match(r"^(\s*\d+\s+\d+\s+\d+\s+\"[^\"]*\"\s+)([\d.]+)(\s+)([\d.]+)(.*)$", line)
            if m:
                total = float(m.group(2)) + 630
                pct = f"{total / 2520 * 100:.2f}"
                rest = re.sub(r"(\"\s+)30(\s)", r"\g<1>60\2", m.group(5), count=1)
                line = f"{m.group(1)}{total:.1f}{m.group(3)}{pct}{rest}"
        out.append(line)
    return "\n".join(out)


def test_running_totals_recognised_not_reported(tmp_path):
    inbox = _copy(tmp_path, [FFB], {FFB: _running_totals})
    diffs, files = _reconcile(inbox)
    f = files.row(0, named=True)
    assert f["running_totals"] is True
    assert diffs.filter(pl.col("what").is_in(["total", "percentage", "place"])).height == 0
    assert f["not_comparable"] == 44 * 3
    assert f["compared"] == 660 and f["differing"] == 0


def test_events_csv_keyed_by_file_name_and_the_profile_option(tmp_path):
    """A scorer names a file in events.csv to choose its profile; --profile gives events
    that nothing names theirs; a file-name key matching no file is rejected, with the
    events known."""
    inbox = _copy(tmp_path, [HOWELL, "realbridge_teams_imp_30teams_10b.pbn"])
    (inbox / "events.csv").write_text(
        f"event_id,session,profile\n{HOWELL},,ebu\nnot-in-the-inbox.xml,,ebu\n",
        encoding="utf-8",
    )
    snap = scan(inbox, profile="acbl")
    profile = dict(snap.events.select("file", "profile").iter_rows())
    assert profile["events.csv"] == "ebu"  # the Compscore Howell, keyed by its file name
    assert profile["realbridge_teams_imp_30teams_10b.pbn"] == "acbl"  # says nothing itself
    (bad,) = snap.rejected.filter(pl.col("file") == "events.csv").to_dicts()
    assert bad["raw"] == "not-in-the-inbox.xml"
    assert "known events:" in bad["reason"] and "2074-3226" in bad["reason"]


def test_events_csv_row_naming_a_session_its_file_does_not_define(tmp_path):
    """A row keyed by a file (or the program's identifier) applies to the sessions the
    file defines; one naming another session (the RealBridge file is one session) applies
    to nothing, so it is rejected with the sessions the file defines — not lost, nor left
    to the row accounting's count."""
    rb = "realbridge_teams_imp_30teams_10b.pbn"
    inbox = _copy(tmp_path, [HOWELL, rb])
    (inbox / "events.csv").write_text(
        f"event_id,session,profile\n{rb},2,ebu\n3226,1,ebu\n3226,3,ebu\n", encoding="utf-8"
    )
    snap = scan(inbox, profile="acbl")
    profile = dict(snap.events.select("file", "profile").iter_rows())
    assert profile[rb] == "acbl"  # the row naming its session 2 applied to nothing
    assert profile["events.csv"] == "ebu"  # the Compscore Howell's session 1, by its number
    bad = snap.rejected.filter(pl.col("file") == "events.csv").sort("location").to_dicts()
    assert [(b["location"], b["field"], b["raw"]) for b in bad] == [
        ("line 2", "session", "2"),
        ("line 4", "session", "3"),
    ]
    assert bad[0]["reason"].startswith(f"{rb} defines session 1, not session 2: correct")
    assert bad[1]["reason"].startswith("3226 defines session 1, not session 3: correct")


def test_events_csv_keyed_by_compscores_event_identifier(tmp_path):
    """The Compscore Howell's EVENT_IDENTIFIER is 3226 (its club 2074: event 2074-3226): a
    scorer may key events.csv by the number the file and Compscore show."""
    inbox = _copy(tmp_path, [HOWELL])
    (inbox / "events.csv").write_text("event_id,session,profile\n3226,,ebu\n", encoding="utf-8")
    snap = scan(inbox)
    assert snap.events.select("event_id", "profile").rows() == [("2074-3226", "ebu")]
    assert "events.csv" in snap.events["profile_source"][0]
    assert snap.rejected.filter(pl.col("file") == "events.csv").height == 0


def test_unknown_profile_is_an_error(tmp_path):
    from typer.testing import CliRunner

    from pipelines.cli import app
    from pipelines.profiles import ProfileError

    inbox = _copy(tmp_path, [HOWELL])
    with pytest.raises(ProfileError, match="unknown profile 'nope'"):
        scan(inbox, profile="nope")
    r = CliRunner().invoke(
        app,
        [
            "run",
            "--inbox",
            str(inbox),
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--profile",
            "nope",
        ],
    )
    assert r.exit_code == 2 and not (tmp_path / "w.duckdb").exists()


@pytest.mark.parametrize(("setting", "action"), [("provisional", "provisional"), ("hold", "held")])
def test_on_difference_is_the_federations_choice(tmp_path, monkeypatch, setting, action):

    from pipelines import profiles

    real = profiles.load
    monkeypatch.setattr(
        profiles,
        "load",
        lambda name=None: real(name).with_settings(on_difference=setting),
    )
    _, files = _reconcile(_copy(tmp_path, [MITCHELL, HOWELL]))
    by = dict(files.select("file", "action").iter_rows())
    assert by[MITCHELL] == action  # differs (for reasons other than a known ruling)
    assert by[HOWELL] == "published"  # every figure reproduced


def test_ranking_page_says_whether_it_matches_the_club(tmp_path, monkeypatch):
    """The public ranking page's line: the Butler file is reproduced, the Howell file with one
    total edited by hand differs on that one figure; each event keeps why its profile."""
    import duckdb

    from pipelines.publish.site import session_dir
    from pipelines.runner import run_inbox

    butler = "compscore_usebio_butler_mitchell_14p.xml"
    inbox = _copy(tmp_path, [HOWELL, butler], {HOWELL: _edit_first("TOTAL_SCORE", 1, "158.80")})
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30T00:00:00")
    run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as conn:
        events = conn.execute(
            "SELECT file, event_id, profile, program, profile_source FROM events"
        ).fetchall()
    by_file = {f: (e, p, prog, why) for f, e, p, prog, why in events}
    for name in (HOWELL, butler):
        _, profile, program, why = by_file[name]
        assert (profile, program) == ("abf", "Compscore3")
        assert why == "the file was written by Compscore3, which profile abf reproduces"

    def line(name: str) -> str:
        page = tmp_path / "out" / "site" / session_dir(by_file[name][0], 1) / "index.html"
        m = re.search(r'id="agreement">([^<]*)<', page.read_text(encoding="utf-8"))
        assert m, name
        return m.group(1).replace("&#39;", "'")

    assert line(butler) == "Matches the club's published results (the figures of Compscore3)."
    edited = line(HOWELL)
    assert edited.startswith(
        "Differs from the club's published results (the figures of Compscore3) on 1 figure: "
    ), edited


def _without_pair(pair: str):
    """A USEBIO file with pair ``pair`` withdrawn after the program scored: its PAIR entry
    and its traveller lines removed, every official figure left as exported."""

    def edit(text: str) -> str:
        text = re.sub(
            rf"\s*<PAIR>\s*<PAIR_NUMBER>{pair}</PAIR_NUMBER>.*?</PAIR>", "", text, flags=re.S
        )
        line = r"\s*<TRAVELLER_LINE>(?:(?!</TRAVELLER_LINE>).)*?<(NS|EW)_PAIR_NUMBER>"
        return re.sub(rf"{line}{pair}</\1_PAIR_NUMBER>.*?</TRAVELLER_LINE>", "", text, flags=re.S)

    return edit


def _boards(text: str) -> dict[str, list[dict]]:
    """Each board's traveller lines as the file has them: pairs, NS score and figures."""
    out: dict[str, list[dict]] = {}
    for board in re.findall(r"<BOARD\b.*?</BOARD>", text, flags=re.S):
        number = re.search(r"<BOARD_NUMBER>(\d+)<", board).group(1)
        for line in re.findall(r"<TRAVELLER_LINE>.*?</TRAVELLER_LINE>", board, flags=re.S):
            tag = dict(re.findall(r"<([A-Z_]+)>([^<]*)</\1>", line))
            out.setdefault(number, []).append(tag)
    return out


def test_a_pair_withdrawn_after_the_program_scored(tmp_path):
    """Pair 12 of the Compscore Howell removed (its lines and its PAIR entry), the program's
    figures left as exported: on every board the program compared 6 results (5 on board 12,
    which pairs 1 and 3 missed) where Traveller has 5 (4). Every line of those boards, the
    A5050 of board 26 on the program's top with them, says so — not a split score — and the
    totals, which the program computed with pair 12's results, are that reason too: not
    running totals, nothing unexplained, nothing not comparable."""
    text = shared_file(REALDATA / HOWELL).read_text(encoding="latin-1")
    boards = _boards(text)
    played = {
        b
        for b, lines in boards.items()
        if any("12" in (x["NS_PAIR_NUMBER"], x["EW_PAIR_NUMBER"]) for x in lines)
    }
    assert len(played) == 27  # pair 12 played every board
    diffs, files = _reconcile(_copy(tmp_path, [HOWELL], {HOWELL: _without_pair("12")}))
    f = files.row(0, named=True)
    assert (f["running_totals"], f["not_comparable"], f["unexplained"]) == (False, 0, 0)
    lines = diffs.filter(pl.col("what") == "line")
    assert lines.height == 161 - 27  # every line left differs
    assert f["compared"] == 134 + 11 * 3  # and the 11 pairs' totals, percentages, places
    assert set(lines["code"]) == {"other_result_count"}
    assert set(lines["board"]) == played
    words = dict(lines.select("board", "explanation").unique().iter_rows())
    assert words["1"].startswith(
        "the program scored this board with 6 results (a top of 10), Traveller has 5 (a top "
        "of 8): a result removed"
    )
    assert words["12"].startswith("the program scored this board with 5 results (a top of 8)")
    # by hand, from the scores: on a board with pair 12's result removed, each other line's
    # NS figure on 6 results is its figure on 5 plus 2 if pair 12's NS score was lower,
    # 1 if equal, 0 if higher (the board's one A5050, 26, is 50 % of either top)
    ours = {(r["board"], r["contestant"]): r["traveller"] for r in lines.iter_rows(named=True)}
    for b, board in boards.items():
        if b == "26":
            continue
        gone = next(x for x in board if "12" in (x["NS_PAIR_NUMBER"], x["EW_PAIR_NUMBER"]))
        for x in board:
            if x is gone:
                continue
            mine = float(ours[(b, f"{x['NS_PAIR_NUMBER']}-{x['EW_PAIR_NUMBER']}")].split("/")[0])
            s, g = int(x["SCORE"]), int(gone["SCORE"])
            assert float(x["NS_MATCH_POINTS"]) == mine + 2 * (g < s) + (g == s), (b, x["SCORE"])
    totals = diffs.filter(pl.col("what") == "total")
    assert totals.height == 11 and set(totals["code"]) == {"other_result_count"}
    rest = diffs.filter(pl.col("what").is_in(["percentage", "place"]))
    assert set(rest["code"]) == {"follows_total"}
    assert rest.filter(pl.col("what") == "percentage").height == 11


def test_a_total_changed_by_hand_beside_a_withdrawn_pair_stays_unexplained(tmp_path):
    """The same withdrawal, with pair 2's total also changed by hand (156.80 -> 158.80,
    its percentage left at 58.07): the program's own total and percentage no longer agree
    on its top (270 = 27 boards of 10), so that total is not put down to the withdrawal."""

    def edit(text: str) -> str:
        return _without_pair("12")(_edit_first("TOTAL_SCORE", 1, "158.80")(text))

    diffs, files = _reconcile(_copy(tmp_path, [HOWELL], {HOWELL: edit}))
    totals = {
        r["contestant"]: r["code"]
        for r in diffs.filter(pl.col("what") == "total").iter_rows(named=True)
    }
    assert totals.pop("2") == "unknown"
    assert set(totals.values()) == {"other_result_count"}
    assert files.row(0, named=True)["unexplained"] == 1


def test_a_late_result_the_program_never_saw(tmp_path):
    """Pairs 1 and 3 missed board 12; their result on it added afterwards (a line with a
    score and no figures): Traveller has 6 results on the board (top 10), the program's
    figures are on its 5 (top 8). Its five lines say so; every total differs for it (pairs
    1 and 3 now have 27 boards, the others' board 12 has one result more)."""

    def edit(text: str) -> str:
        m = re.search(
            r"<BOARD_NUMBER>12</BOARD_NUMBER>.*?(<TRAVELLER_LINE>.*?</TRAVELLER_LINE>)",
            text,
            flags=re.S,
        )
        line = re.sub(r"<NS_PAIR_NUMBER>\d+", "<NS_PAIR_NUMBER>1", m.group(1))
        line = re.sub(r"<EW_PAIR_NUMBER>\d+", "<EW_PAIR_NUMBER>3", line)
        line = re.sub(r"\s*<(NS|EW)_MATCH_POINTS>[^<]*</\1_MATCH_POINTS>", "", line)
        return text[: m.end(1)] + "\n  " + line + text[m.end(1) :]

    diffs, files = _reconcile(_copy(tmp_path, [HOWELL], {HOWELL: edit}))
    f = files.row(0, named=True)
    assert (f["running_totals"], f["not_comparable"], f["unexplained"]) == (False, 0, 0)
    lines = diffs.filter(pl.col("what") == "line")
    assert lines.height == 5 and set(lines["board"]) == {"12"}
    assert set(lines["code"]) == {"other_result_count"}
    assert lines["explanation"][0].startswith(
        "the program scored this board with 5 results (a top of 8), Traveller has 6 (a top "
        "of 10): a result added"
    )
    totals = diffs.filter(pl.col("what") == "total")
    assert set(totals["code"]) == {"other_result_count"} and totals.height == 12
    assert set(diffs.filter(pl.col("what").is_in(["percentage", "place"]))["code"]) == {
        "follows_total"
    }


def test_one_result_removed_on_a_board_its_movement_still_expects(tmp_path):
    """One line of board 1 removed (no pair withdrawn: the movement still expects 6 results):
    Traveller shows the 5 left unfactored on a top of 8 (abf, as Compscore shows a board
    merely short), the program's figures are whole matchpoints on its 6 results' top of 10
    — another number of results, not the program factoring the short board (which would
    give fractions). The session's totals follow that reason; nothing is unexplained."""

    def edit(text: str) -> str:
        m = re.search(
            r"<BOARD_NUMBER>1</BOARD_NUMBER>.*?(\s*<TRAVELLER_LINE>.*?</TRAVELLER_LINE>)",
            text,
            flags=re.S,
        )
        return text[: m.start(1)] + text[m.end(1) :]

    diffs, files = _reconcile(_copy(tmp_path, [HOWELL], {HOWELL: edit}))
    f = files.row(0, named=True)
    assert (f["running_totals"], f["not_comparable"], f["unexplained"]) == (False, 0, 0)
    lines = diffs.filter(pl.col("what") == "line")
    assert lines.height == 5 and set(lines["board"]) == {"1"}
    assert set(lines["code"]) == {"other_result_count"}
    assert lines["explanation"][0].startswith(
        "the program scored this board with 6 results (a top of 10), Traveller has 5 (a top "
        "of 8): a result removed"
    )
    assert set(diffs.filter(pl.col("what") == "total")["code"]) == {"other_result_count"}
