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

from pipelines.publish.site import board_name, card_name, session_dir
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


def test_pages_load_without_errors_and_links_resolve(browser, sample: Sample):
    start = [
        sample.site / "index.html",
        sample.site / "CLUB1-2026-11-02" / "index.html",
        sample.site / session_dir("CLUB2-2026-11-02", 1) / "index.html",
    ]
    seen: set[Path] = set()
    queue = list(start)
    while queue:  # the index, the events, every session's ranking and the pages they link
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        v = Visit(browser, path)
        assert v.errors == [], (path, v.errors)
        for target in v.links():
            assert target.is_file(), (path, target)
            if target.name == "index.html" and target not in seen:
                queue.append(target)
        v.close()
    assert len(seen) >= 8
    for extra in (
        sample.site / session_dir("CLUB2-2026-11-03", 1) / board_name("A", 20),
        next((sample.site / session_dir("CLUB2-2026-11-02", 1)).glob("card-*.html")),
    ):
        v = Visit(browser, extra)
        assert v.errors == [] and all(t.is_file() for t in v.links())
        v.close()


def test_a_traveller_shows_the_figures(browser, sample: Sample):
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        rows = c.sql(
            "SELECT ns_pair, ew_pair, ns_mp_display, ew_mp_display, adjustment FROM scored_results "
            "WHERE event_id = 'CLUB2-2026-11-03' AND session = 1 AND board = 20 "
            "ORDER BY ns_pair"
        ).fetchall()
    v = Visit(browser, sample.site / session_dir("CLUB2-2026-11-03", 1) / board_name("A", 20))
    shown = row_text(v, "table.traveller tbody tr")
    assert len(shown) == len(rows)
    for ns, ew, mp_ns, mp_ew, adjustment in rows:
        line = next(t for t in shown if t.startswith(f"{ns} {ew} "))
        assert f"{mp_ns:.2f} {mp_ew:.2f}" in line
        if adjustment == "weighted":
            assert "weighted 60 % 2NT N = / 30 % 2NT N −1 / 10 % 2NT N +1" in line
            assert "Law" in line
    adjusted = v.page.locator("tr.adjusted")
    assert adjusted.count() == 2
    v.close()


def test_a_scorecard_shows_the_figures(browser, sample: Sample):
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        st = c.sql(
            "SELECT section, contestant, direction, score_display, percentage_display, rank, "
            "penalties FROM standings WHERE scope = 'session' AND status <> 'superseded' "
            "AND event_id = 'CLUB2-2026-11-02' AND session = 1 AND contestant = '4' "
            "AND direction = 'EW'"
        ).fetchall()[0]
        lines = c.sql(
            "SELECT board, ew_mp_display FROM scored_results WHERE event_id = 'CLUB2-2026-11-02' "
            "AND session = 1 AND ew_pair = '4' ORDER BY board"
        ).fetchall()
    section, contestant, direction, score, pct, rank, penalties = st
    v = Visit(
        browser,
        sample.site
        / session_dir("CLUB2-2026-11-02", 1)
        / card_name(section, contestant, direction),
    )
    summary = " ".join(v.page.locator("dl.summary").inner_text().split())
    assert f"Score {score:.2f}" in summary and f"Percentage {pct:.2f} %" in summary
    assert f"Place {rank}" in summary
    assert penalties > 0 and f"Penalties deducted −{penalties:.2f}" in summary
    shown = row_text(v, "table.scorecard tbody tr")
    assert len(shown) == len(lines)
    for (board, mp), text in zip(lines, shown, strict=True):
        assert text.startswith(f"{board} EW ") and f" {mp:.2f} " in f"{text} "
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
