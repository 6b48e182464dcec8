"""The ranking, board, player and search pages in a real Chromium (Debian's, driven by
Playwright as in :mod:`tests.publish.test_browser`) at 1280 and 390 px: no element wider than
the screen (a table may scroll inside its own box, its first columns staying in view), the
deal's diagram with the 52 cards once each, the names shown, a name with markup shown as text,
no membership number on any page, and the search box finding a player over the static index
(the site served over HTTP, as a web server serves it). Screenshots go to ``test-artifacts``."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator

import duckdb
import pytest

from pipelines.publish.site import board_name, session_dir
from tests.publish.conftest import HOSTILE, Sample
from tests.publish.test_browser import ARTIFACTS, Visit, browser  # noqa: F401

WIDTHS = (1280, 390)

#: Every element of the page whose box leaves the screen sideways, unless it is inside a box
#: that scrolls sideways and is itself on the screen (a wide table in its scroll box).
OUTSIDE = """() => {
  const w = document.documentElement.clientWidth;
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || (r.left >= -1 && r.right <= w + 1)) continue;
    let p = el.parentElement, inside = false;
    while (p && p !== document.body) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) {
        const b = p.getBoundingClientRect();
        inside = b.left >= -1 && b.right <= w + 1;
        break;
      }
      p = p.parentElement;
    }
    if (!inside) bad.push(el.tagName + '.' + el.className + ' right ' + Math.round(r.right));
  }
  return bad;
}"""


def q(sample: Sample, sql: str) -> list[dict]:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(sql).pl().to_dicts()


def fits(v: Visit, width: int, name: str) -> None:
    """The page does not scroll sideways and no element leaves the screen; a screenshot."""
    assert v.errors == []
    assert v.page.evaluate("document.documentElement.scrollWidth") <= width
    assert v.page.evaluate(OUTSIDE) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    v.page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)


def member_numbers(sample: Sample) -> set[str]:
    rows = q(sample, "SELECT player_ids FROM contestants WHERE player_ids IS NOT NULL")
    return {i for r in rows for i in r["player_ids"].split(";")}


def players(sample: Sample) -> dict[str, str]:
    """Name -> page, from the static index."""
    index = json.loads((sample.site / "players" / "index.json").read_text("utf-8"))
    return {p["name"]: p["href"] for p in index["players"]}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_ranking_fits_and_its_first_columns_stay_in_view(browser, sample: Sample, width):  # noqa: F811
    st = q(
        sample,
        "SELECT event_id, session FROM standings WHERE scope = 'session' AND tied "
        "AND status <> 'superseded' ORDER BY event_id, session LIMIT 1",
    )[0]
    v = Visit(
        browser, sample.site / session_dir(st["event_id"], st["session"]) / "index.html", width
    )
    fits(v, width, "ranking")
    text = v.page.inner_text("main")
    assert "shared with" in text and "share the place" in text  # the rule, in words
    names = q(
        sample,
        f"SELECT names FROM standings WHERE scope = 'session' AND event_id = '{st['event_id']}' "
        f"AND session = {st['session']} AND names IS NOT NULL",
    )
    assert names and all(" ".join(r["names"].split()) in " ".join(text.split()) for r in names)
    assert not any(n in text for n in member_numbers(sample))
    # the table scrolls in its own box; the place and the number stay where they were
    box = v.page.locator("table.ranking").first  # a table is its own scroll box (style.css)
    before = v.page.eval_on_selector(
        "table.ranking tbody tr th", "e => e.getBoundingClientRect().left"
    )
    scrolled = box.evaluate("b => { b.scrollLeft = b.scrollWidth; return b.scrollLeft; }")
    assert scrolled > 0 or width > 1000  # on a phone the wide table does scroll in its box
    after = v.page.eval_on_selector(
        "table.ranking tbody tr th", "e => e.getBoundingClientRect().left"
    )
    assert abs(after - before) < 1
    v.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_board_page_fits_with_the_deal_and_the_names(browser, sample: Sample, width):  # noqa: F811
    deal = q(
        sample,
        "SELECT d.event_id, d.session, d.board, coalesce(d.section, r.section) AS section "
        "FROM deals d JOIN scored_results r USING (event_id, session, board) "
        "ORDER BY ALL LIMIT 1",
    )[0]
    path = (
        sample.site
        / session_dir(deal["event_id"], deal["session"])
        / board_name(deal["section"], deal["board"])
    )
    v = Visit(browser, path, width)
    fits(v, width, "board")
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
    assert len(cards) == 16 and len(pack) == 52  # four hands, the 52 cards once each
    assert v.page.locator("table.dd").count() == 1 and "Par: " in v.page.inner_text("main")
    shown = v.page.eval_on_selector_all(
        "table.traveller .names", "els => els.map(e => e.textContent)"
    )
    assert shown and all(s.strip() for s in shown)
    v.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_player_pages_fit_and_a_name_with_markup_is_text(browser, sample: Sample, width):  # noqa: F811
    pages = players(sample)
    for name in (n.strip() for n in HOSTILE.split(" & ")):
        v = Visit(browser, sample.site / "players" / pages[name], width)
        fits(v, width, "player-markup")
        assert v.page.inner_text("h1") == name  # shown as written, nothing run or parsed
        assert v.page.locator("main b, main script").count() == 0
        v.close()
    # a player of two sessions of one event: its chart, its lines and the event total
    two = next(
        n
        for n, href in sorted(pages.items())
        if (sample.site / "players" / href).read_text("utf-8").count('class="total"') == 1
    )
    v = Visit(browser, sample.site / "players" / pages[two], width)
    fits(v, width, "player")
    assert v.page.locator("figure.chart svg circle.dot").count() == 2
    assert v.page.locator("table.season tbody tr").count() == 3
    assert not any(n in v.page.content() for n in member_numbers(sample))
    v.close()


@pytest.fixture(scope="module")
def served(sample: Sample) -> Iterator[str]:
    """The published site served over HTTP on a free local port."""
    handler = functools.partial(QuietHandler, directory=str(sample.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the test's output stays readable
        pass


class Served(Visit):
    """A page of the served site."""

    def __init__(self, browser, url: str, width: int) -> None:  # noqa: F811
        self.errors = []
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        response = self.page.goto(url)
        assert response is not None and response.ok, url


@pytest.mark.parametrize("width", WIDTHS)
def test_the_search_box_finds_a_player_and_shows_markup_as_text(
    browser,  # noqa: F811
    sample: Sample,
    served: str,
    width: int,
):
    v = Served(browser, f"{served}/players/index.html", width)
    box = v.page.locator("#player-search")
    box.wait_for(state="visible")
    v.page.wait_for_function("!document.getElementById('player-search').disabled")
    name, href = sorted(players(sample).items())[0]
    box.fill(name.split()[-1].lower())  # a surname, typed in lower case
    found = v.page.locator("#found li a")
    found.first.wait_for()
    assert name in found.all_inner_texts()
    assert href in [a.get_attribute("href") for a in found.all()]
    fits(v, width, "search")
    box.fill("bold")  # the player named '<b>Bold</b>'
    v.page.wait_for_function("document.querySelectorAll('#found li').length > 0")
    assert "<b>Bold</b>" in found.all_inner_texts()
    assert v.page.locator("#found b").count() == 0  # text, not an element
    box.fill("zzzz-nobody")
    v.page.wait_for_function("document.querySelectorAll('#found li').length === 0")
    assert "No player found." in v.page.inner_text("#search-status")
    found_page = Served(browser, f"{served}/players/{href}", width)
    assert found_page.page.inner_text("h1") == name
    found_page.close()
    v.close()
