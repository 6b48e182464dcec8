"""The published site in a real headless Chromium (Debian's ``chromium``, driven by
Playwright with its executable path): pages load without console errors, every link of the
pages visited resolves, a traveller and a scorecard show the warehouse's figures, and a
screenshot of a ranking page is kept as a test artifact (``test-artifacts/``, or
``$TRAVELLER_ARTIFACTS``). One browser for the whole module."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlparse

import duckdb
import pytest

from pipelines.publish.site import Decimals, board_name, card_name, session_dir
from tests.conftest import ROOT
from tests.publish.conftest import Sample

CHROMIUM = os.environ.get("TRAVELLER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("TRAVELLER_ARTIFACTS", ROOT / "test-artifacts"))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).is_file():
        if os.environ.get("TRAVELLER_REQUIRE_BROWSER"):
            pytest.fail(f"no Chromium at {CHROMIUM} (TRAVELLER_REQUIRE_BROWSER is set)")
        pytest.skip(
            f"no Chromium at {CHROMIUM}; install Debian's chromium (apt-get install chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Visit:
    """A page opened in the browser, with the console errors it produced."""

    def __init__(self, browser, path: Path, width: int = 1100) -> None:
        self.errors: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        response = self.page.goto(path.as_uri())
        assert response is None or response.ok, path

    def links(self) -> list[Path]:
        hrefs = self.page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
        return [Path(unquote(urlparse(h).path)) for h in hrefs if h.startswith("file:")]

    def close(self) -> None:
        self.page.close()


def row_text(visit: Visit, selector: str) -> list[str]:
    return [" ".join(t.split()) for t in visit.page.locator(selector).all_inner_texts()]


def q(sample: Sample, sql: str) -> list[dict]:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(sql).pl().to_dicts()


def test_pages_load_without_errors_and_links_resolve(browser, sample: Sample):
    seen: set[Path] = set()
    queue = [sample.site / "index.html"]
    months = sample.site / "months"
    while queue:  # the index, every month's page, every event page and every session's ranking
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        v = Visit(browser, path)
        assert v.errors == [], (path, v.errors)
        for target in v.links():
            assert target.is_file(), (path, target)
            if (target.name == "index.html" or target.parent == months) and target not in seen:
                queue.append(target)
        v.close()
    sessions = q(sample, "SELECT DISTINCT event_id, session FROM standings WHERE scope='session'")
    assert len(seen) >= 1 + len(sessions)
    month_pages = set(months.glob("*.html"))
    assert month_pages and month_pages <= seen  # every month's page reached from the index
    for s in sessions:
        assert sample.site / session_dir(s["event_id"], s["session"]) / "index.html" in seen
    for s in sessions:  # one traveller and one scorecard of every session
        d = sample.site / session_dir(s["event_id"], s["session"])
        for extra in (next(d.rglob("board-*.html")), next(d.rglob("card-*.html"))):
            v = Visit(browser, extra)
            assert v.errors == [], (extra, v.errors)
            assert all(t.is_file() for t in v.links()), extra
            v.close()


def test_a_traveller_shows_the_figures(browser, sample: Sample):
    board = q(
        sample,
        "SELECT event_id, session, section, board FROM scored_results "
        "WHERE adjustment = 'weighted' AND scoring = 'matchpoints' ORDER BY ALL LIMIT 1",
    )[0]
    rows = q(
        sample,
        f"SELECT ns_pair, ew_pair, ns_mp_display, ew_mp_display, adjustment, profile "
        f"FROM scored_results WHERE event_id = '{board['event_id']}' "
        f"AND session = {board['session']} AND section = '{board['section']}' "
        f"AND board = {board['board']}",
    )
    dec = Decimals.of(rows[0]["profile"])
    v = Visit(
        browser,
        sample.site
        / session_dir(board["event_id"], board["session"])
        / board_name(board["section"], board["board"]),
    )
    names = {
        (r["contestant"], r["direction"] or ""): r["names"] or ""
        for r in q(
            sample,
            f"SELECT contestant, direction, names FROM standings WHERE scope = 'session' "
            f"AND event_id = '{board['event_id']}' AND session = {board['session']} "
            f"AND section = '{board['section']}'",
        )
    }

    def cell(pair: str, direction: str) -> str:
        """A pair's traveller cell: its number, then its names."""
        shown = names.get((pair, direction)) or names.get((pair, "")) or ""
        return f"{pair} {' '.join(shown.split())}".strip()

    shown = row_text(v, "table.traveller tbody tr")
    assert len(shown) == len(rows)
    for r in rows:
        start = f"{cell(r['ns_pair'], 'NS')} {cell(r['ew_pair'], 'EW')} "
        line = next(t for t in shown if t.startswith(start))
        assert f"{r['ns_mp_display']:.{dec.mp}f} {r['ew_mp_display']:.{dec.mp}f}" in line
        if r["adjustment"] == "weighted":
            assert "weighted " in line and "12C1(c)" in line
    assert v.page.locator("tr.adjusted").count() >= 1
    v.close()


def test_a_scorecard_shows_the_figures(browser, sample: Sample):
    st = q(
        sample,
        "SELECT * FROM standings s WHERE scope = 'session' AND status <> 'superseded' "
        "AND penalties > 0 AND percentage IS NOT NULL AND contestant NOT LIKE 'P%' "
        "ORDER BY event_id, session, contestant LIMIT 1",
    )[0]
    c, d = st["contestant"], st["direction"]
    ns_dir = "" if d is None else f"AND '{d}' = 'NS'"
    ew_dir = "" if d is None else f"AND '{d}' = 'EW'"
    lines = q(
        sample,
        f"""SELECT board, 'NS' AS side, ns_mp_display AS mp FROM scored_results
            WHERE event_id = '{st["event_id"]}' AND session = {st["session"]}
              AND section = '{st["section"]}' AND ns_pair = '{c}' {ns_dir}
            UNION ALL
            SELECT board, 'EW', ew_mp_display FROM scored_results
            WHERE event_id = '{st["event_id"]}' AND session = {st["session"]}
              AND section = '{st["section"]}' AND ew_pair = '{c}' {ew_dir}
            ORDER BY board""",
    )
    dec = Decimals.of(st["profile"])
    v = Visit(
        browser,
        sample.site / session_dir(st["event_id"], st["session"]) / card_name(st["section"], c, d),
    )
    summary = " ".join(v.page.locator("dl.summary").inner_text().split())
    assert f"Score {st['score_display']:.{dec.total}f}" in summary
    assert f"Percentage {st['percentage_display']:.{dec.pct}f} %" in summary
    assert f"Penalties deducted −{st['penalties']:.{dec.total}f}" in summary
    shown = row_text(v, "table.scorecard tbody tr")
    assert len(shown) == len(lines) == st["boards"]
    for line, text in zip(lines, shown, strict=True):
        assert text.startswith(f"{line['board']} {line['side']} ")
        assert f" {line['mp']:.{dec.mp}f} " in f"{text} "
    v.close()


def test_screenshot_of_a_ranking_page(browser, sample: Sample):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    v = Visit(browser, sample.site / session_dir("CLUB2-2026-11-02", 1) / "index.html")
    shot = ARTIFACTS / "ranking.png"
    v.page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    phone = Visit(browser, sample.site / session_dir("CLUB2-2026-11-02", 1) / "index.html", 390)
    overflow = phone.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert overflow, "the ranking page scrolls sideways on a phone"
    phone.page.screenshot(path=str(ARTIFACTS / "ranking-phone.png"))
    v.close()
    phone.close()
