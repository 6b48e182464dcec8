"""Double dummy and par (:func:`pipelines.deals.analyse`, endplay/DDS) against the figures the
real files print, and the board page that shows them with the deal.

The Magic Contest file prints, per deal, the double-dummy tricks (``[OptimumResultTable]``,
declarer × strain) and the par score (``[OptimumScore]``); the RealBridge file prints the
20 tricks as ``[DoubleDummyTricks]`` (hex digits, N S E W × NT S H D C). A constructed deal
(each player holds one whole suit) is checked by hand.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.deals import DD_COLUMNS, analyse, checked, par_contracts
from pipelines.formats.pbn import decode_pbn, read_pbn
from pipelines.publish.hands import par_text
from pipelines.runner import run_inbox
from tests.conftest import REALDATA, shared_file
from tests.publish.test_browser import ARTIFACTS, Visit, browser  # noqa: F401

FFB = "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn"
REALBRIDGE = "realbridge_teams_imp_30teams_10b.pbn"
HOWELL = "compscore_usebio_mp_howell_12p.xml"
STRAIN = {"NT": "nt", "S": "s", "H": "h", "D": "d", "C": "c"}


def _records(text: str) -> list[str]:
    return [r for r in re.split(r"\n\s*\n", text) if "[Board " in r]


def _analysed(name: str) -> pl.DataFrame:
    path = shared_file(REALDATA / name)
    deals, _ = checked(read_pbn(path, name).deals)
    return deals.join(analyse(deals), on=["north", "east", "south", "west", "dealer"])


def test_double_dummy_and_par_equal_magic_contests_printed_tables():
    path = shared_file(REALDATA / FFB)
    printed: dict[int, tuple[dict[str, int], int]] = {}
    for rec in _records(decode_pbn(path.read_bytes())):
        board = int(re.search(r'\[Board "(\d+)"\]', rec).group(1))  # type: ignore[union-attr]
        table = rec[rec.index("[OptimumResultTable") :].split("\n")[1:]
        tricks = {}
        for line in table:
            m = re.match(r"^([NESW])\s+(NT|[SHDC])\s+(\d+)\s*$", line.strip())
            if m:
                tricks[f"{m.group(1).lower()}_{STRAIN[m.group(2)]}"] = int(m.group(3))
        score = re.search(r'\[OptimumScore "NS (-?\d+)"\]', rec)
        printed[board] = (tricks, int(score.group(1)))  # type: ignore[union-attr]
    assert len(printed) == 30 and all(len(t) == 20 for t, _ in printed.values())
    ours = _analysed(FFB)
    assert ours.height == 30
    for row in ours.to_dicts():
        tricks, par = printed[row["board"]]
        assert {c: row[c] for c in DD_COLUMNS} == tricks, row["board"]
        assert row["par_score"] == par, row["board"]


def test_double_dummy_equals_realbridges_printed_tricks():
    path = shared_file(REALDATA / REALBRIDGE)
    printed = {}
    for rec in _records(decode_pbn(path.read_bytes())):
        board = re.search(r'\[Board "(\d+)"\]', rec)
        dd = re.search(r'\[DoubleDummyTricks "([0-9a-fA-F]{20})"\]', rec)
        if board and dd:
            printed[int(board.group(1))] = [int(c, 16) for c in dd.group(1)]
    order = [f"{seat}_{s}" for seat in "nsew" for s in ("nt", "s", "h", "d", "c")]
    ours = _analysed(REALBRIDGE)
    assert ours.height == 10 and set(printed) == set(ours["board"])
    for row in ours.to_dicts():
        assert [row[c] for c in order] == printed[row["board"]], row["board"]


def test_a_deal_where_each_player_holds_one_suit():
    """Worked by hand: North (all the spades) declaring spades takes all 13 tricks; in
    diamonds too (South ruffs East's heart lead and runs the diamonds); in notrump or hearts
    or clubs none (East or West, on lead or ruffing, runs a suit). West in clubs and East in
    hearts take 13 likewise. Both sides make a grand slam, but spades outrank hearts: NS bid
    7♠ over 7♥, and EW's only higher bid, 7NT, goes 13 down doubled. Par NS +1510 (7♠ not
    vulnerable, Law 77: 7 × 30 + 300 + 1000 bonus), whoever deals."""
    hands = {
        "north": "AKQJT98765432...",
        "east": ".AKQJT98765432..",
        "south": "..AKQJT98765432.",
        "west": "...AKQJT98765432",
    }
    deals = pl.DataFrame([{**hands, "dealer": d, "vulnerability": "None"} for d in ("N", "E")])
    got = analyse(deals).to_dicts()
    for row in got:
        assert (row["n_s"], row["n_d"], row["n_nt"], row["n_h"], row["n_c"]) == (13, 13, 0, 0, 0)
        assert (row["e_h"], row["w_c"], row["e_nt"], row["w_nt"], row["e_s"]) == (13, 13, 0, 0, 0)
        assert row["par_score"] == 1510
        assert row["par_contracts"] == "7S by N, S"
    assert par_text(1510, "7S by N, S") == "NS +1510: 7\u2660 by N, S"


def test_par_contracts_in_words():
    assert par_contracts(["4\u2660N=", "4\u2660S="]) == "4S by N, S"
    assert par_contracts(["5\u2666xE-3"]) == "5DX by E \u22123"
    assert par_text(-500, "5DX by N \u22122") == "EW +500: 5\u2666X by N \u22122"


def test_a_deal_analysed_once_is_not_analysed_again(tmp_path: Path):
    from pipelines.deals import analyse_new
    from pipelines.warehouse import Warehouse

    path = shared_file(REALDATA / FFB)
    deals, _ = checked(read_pbn(path, FFB).deals)
    wh = Warehouse(tmp_path / "w.duckdb")
    with wh.connect() as conn:
        conn.register("incoming", deals)
        conn.execute("INSERT INTO deals BY NAME SELECT * FROM incoming")
        conn.unregister("incoming")
        assert analyse_new(conn) == 30
        assert analyse_new(conn) == 0
        assert conn.execute("SELECT count(*) FROM deal_analysis").fetchone() == (30,)
        # a deal no file holds any more loses its analysis
        conn.execute("DELETE FROM deals WHERE board > 1")
        assert analyse_new(conn) == 0
        assert conn.execute("SELECT count(*) FROM deal_analysis").fetchone() == (1,)


# ------------------------------------------------------------------------- board page


@pytest.fixture(scope="module")
def howell_site(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("hands")
    inbox = base / "inbox"
    inbox.mkdir()
    shutil.copy(shared_file(REALDATA / HOWELL), inbox / HOWELL)
    report = run_inbox(inbox, base / "w.duckdb", publish_to=base / "out")
    assert report.failed_checks == []
    return base


def _board_page(site: Path, board: int) -> str:
    pages = [
        p for p in (site / "out" / "site").rglob("board-*.html") if p.stem.endswith(f"-{board}")
    ]
    assert len(pages) == 1, pages
    return pages[0].read_text(encoding="utf-8")


def test_board_page_shows_the_deal_with_dealer_vulnerability_dd_and_par(howell_site: Path):
    html = _board_page(howell_site, 4)
    diagram = html[html.index('<div class="diagram">') : html.index('<div class="centre">')]
    cards = re.findall(
        r'aria-label="(spades|hearts|diamonds|clubs)">[^<]+</span> <span class="cards">([^<]*)<',
        diagram,
    )
    assert len(cards) == 16
    pack = {(suit, rank) for suit, text in cards for rank in text.split() if rank != "\u2014"}
    assert len(pack) == 52
    # board 4: West deals, both sides vulnerable (Law 2)
    assert "Dealer West" in html and "Both vulnerable" in html
    assert re.search(r'<p class="seat">West <span class="dealer">\(dealer\)</span>', html)
    assert html.count('class="hand ') == 4 and html.count(' vul"') == 4
    assert "Double dummy" in html and '<p class="par">Par: ' in html


def test_traveller_is_sorted_by_ns_score_and_names_the_pairs(howell_site: Path):
    con = duckdb.connect(str(howell_site / "w.duckdb"), read_only=True)
    names = {
        r[0]: r[1]
        for r in con.execute("SELECT contestant, names FROM contestants").fetchall()
        if r[1]
    }
    con.close()
    html = _board_page(howell_site, 1)
    body = html[html.index('<table class="traveller">') :]
    rows = re.findall(r"<tr[^>]*>\s*<td>.*?</tr>", body, re.S)
    scores = []
    for row in rows:
        cells = re.findall(r'<td class="num">([^<]*)</td>', row)
        ns, ew = cells[0], cells[1]
        if ns.isdigit() or ew.isdigit():
            scores.append(int(ns) if ns.isdigit() else -int(ew))
    assert len(scores) >= 5 and scores == sorted(scores, reverse=True)
    shown = re.findall(r'<span class="names">([^<]*)</span>', body)
    assert shown and all(s in {n.replace("&", "&amp;") for n in names.values()} for s in shown)


def test_event_page_shows_the_session_ranking_at_a_readable_address(howell_site: Path):
    con = duckdb.connect(str(howell_site / "w.duckdb"), read_only=True)
    event_id, places = con.execute(
        "SELECT event_id, count(*) FROM standings WHERE scope = 'session' GROUP BY 1"
    ).fetchone()
    con.close()
    page = howell_site / "out" / "site" / "events" / event_id / "index.html"
    html = page.read_text(encoding="utf-8")
    ranking = html[html.index('<table class="ranking">') :]
    assert ranking.count('<th scope="row">') == places == 12
    assert 'href="s1/card-1.html"' in ranking  # scorecards of the unnamed section: no folder
    assert (page.parent / "s1" / "card-1.html").is_file()
    assert (page.parent / "s1" / "board-16.html").is_file()
    assert not list((howell_site / "out" / "site").rglob("*-da39a3*"))


def test_a_bws_event_is_titled_by_name_and_date_not_its_guid(tmp_path: Path):
    name = "bridgemate_bcs_jet3_howell_15p_22b_erased_result.bws"
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(shared_file(REALDATA / name), inbox / name)
    run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    guid = "28A937506D0F4014BC868F53FBF4F9B9"  # Session.GUID of the file
    site = tmp_path / "out" / "site"
    for page in site.rglob("*"):  # neither in a page (its links included) nor in a path
        assert guid.lower() not in str(page.relative_to(site)).lower(), page
        if page.is_file():
            assert guid.lower() not in page.read_text(encoding="utf-8").lower(), page
    # the event's address is its title: Session.Name "Bridge game", Session.Date 2019-04-26
    # (SOURCES.md)
    event = (site / "events" / "Bridge-game-2019-04-26" / "index.html").read_text("utf-8")
    assert "<title>Bridge game, 2019-04-26 · Traveller results</title>" in event
    assert (site / "events" / "Bridge-game-2019-04-26" / "s1" / "index.html").is_file()


@pytest.mark.parametrize("width", [1280, 390])
def test_board_page_in_a_browser_fits_the_screen_and_follows_dark_mode(
    browser,  # noqa: F811 (the fixture of test_browser)
    howell_site: Path,
    width: int,
):
    pages = [p for p in (howell_site / "out" / "site").rglob("board-4.html")]
    v = Visit(browser, pages[0], width)
    assert v.errors == []
    fits = v.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, f"the board page scrolls sideways at {width} px"
    cards = v.page.eval_on_selector_all(
        ".diagram .suits li",
        "els => els.map(e => e.querySelector('.suit').getAttribute('aria-label') + ':' +"
        " e.querySelector('.cards').textContent)",
    )
    pack = {
        (suit, rank)
        for entry in cards
        for suit, text in [entry.split(":", 1)]
        for rank in text.split()
        if rank != "\u2014"
    }
    assert len(cards) == 16 and len(pack) == 52
    box = v.page.eval_on_selector(".diagram", "e => e.getBoundingClientRect().right")
    assert box <= width
    light = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
    v.page.emulate_media(color_scheme="dark")
    dark = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light == "rgb(255, 255, 255)" and dark == "rgb(18, 18, 18)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    v.page.screenshot(path=str(ARTIFACTS / f"board-{width}.png"), full_page=True)
    v.close()


def test_par_equals_realbridges_printed_optimum_score():
    """RealBridge prints each deal's par as ``[OptimumScore "NS +90"]`` (NS-signed): ours is
    the same on each of the 10 deals (every record of a board prints the same)."""
    path = shared_file(REALDATA / REALBRIDGE)
    printed: dict[int, set[int]] = {}
    for rec in _records(decode_pbn(path.read_bytes())):
        board = re.search(r'\[Board "(\d+)"\]', rec)
        par = re.search(r'\[OptimumScore "NS ([+-]?\d+)"\]', rec)
        if board and par:
            printed.setdefault(int(board.group(1)), set()).add(int(par.group(1)))
    assert len(printed) == 10 and all(len(v) == 1 for v in printed.values())
    ours = _analysed(REALBRIDGE)
    assert {r["board"]: {r["par_score"]} for r in ours.to_dicts()} == printed
