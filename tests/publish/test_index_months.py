"""The index shows the latest month; each month has its page (``months/<YYYY-MM>.html``) with
its days, linked from the index and from its neighbours. A month's page is made again only
when what it shows changed: a night that adds a date to the latest month renders that
month's page and the index, and keeps the older months' pages as they were.

The sample's sessions are all of November 2026; here they are spread over three months
(:func:`spread`): the first evening's sessions over September and October, the second
sessions of its events on 2 November, the events of 3 November where they were."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import polars as pl
import pytest

from pipelines.publish import load
from pipelines.publish.data import Published
from pipelines.publish.site import Site, iter_links, month_label, month_page, session_dir
from tests.publish.conftest import Sample

SEPTEMBER = ("CLUB1-2026-11-02", "CLUB2-2026-11-02")
#: The months of :func:`spread`, newest first.
MONTHS = ("2026-11", "2026-10", "2026-09")
#: The date a night adds to the latest month.
NIGHT = "2026-11-03"


def spread(data: Published) -> Published:
    """``data`` with its sessions dated over September, October and November 2026."""
    date, event = pl.col("date"), pl.col("event_id")
    moved = (
        pl.when((date == "2026-11-02") & event.is_in(SEPTEMBER))
        .then(pl.lit("2026-09-28"))
        .when(date == "2026-11-02")
        .then(pl.lit("2026-10-12"))
        .when(pl.col("session") > 1)
        .then(pl.lit("2026-11-02"))
        .otherwise(date)
        .alias("date")
    )
    return dataclasses.replace(data, sessions=data.sessions.with_columns(moved))


def without(data: Published, keep: pl.Expr) -> Published:
    """``data`` with only the sessions ``keep`` selects published."""
    return dataclasses.replace(data, sessions=data.sessions.filter(keep))


@pytest.fixture(scope="module")
def spread_data(sample: Sample) -> Published:
    return spread(load(sample.warehouse))


@pytest.fixture(scope="module")
def spread_site(spread_data: Published, tmp_path_factory) -> Path:
    """The site of :func:`spread`'s sessions, written from scratch."""
    out = tmp_path_factory.mktemp("months") / "site"
    Site(spread_data, out).render()
    return out


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _stamps(folder: Path) -> dict[str, int]:
    return {
        p.relative_to(folder).as_posix(): p.stat().st_mtime_ns
        for p in folder.rglob("*")
        if p.is_file()
    }


def _targets(site: Path, page: str) -> list[str]:
    """The pages a page links to, as paths from the site's root, in the page's order."""
    html = (site / page).read_text("utf-8")
    folder = (site / page).parent
    return [
        (folder / href).resolve().relative_to(site.resolve()).as_posix()
        for href in iter_links(html)
    ]


def _sessions_linked(site: Path, page: str) -> list[str]:
    """The session rankings a page links to, in its order."""
    return [t for t in _targets(site, page) if re.fullmatch(r"events/[^/]+/s\d+/index\.html", t)]


def _expected(data: Published, month: str) -> list[str]:
    """The rankings of ``month``'s sessions as a page lists them: newest day first, each day
    in the sessions' order."""
    rows = data.sessions.with_row_index("__i").filter(pl.col("date").str.starts_with(month))
    rows = rows.sort(["date", "__i"], descending=[True, False])
    return [f"{session_dir(e, n)}/index.html" for e, n in rows.select("event_id", "session").rows()]


def _render_counting(monkeypatch) -> list[str]:
    """The pages rendered from now on (every page goes through ``Site._write``)."""
    rendered: list[str] = []
    write = Site._write

    def counting(self, rel, template, **ctx):
        rendered.append(rel)
        return write(self, rel, template, **ctx)

    monkeypatch.setattr(Site, "_write", counting)
    return rendered


def test_the_index_shows_the_latest_month_and_links_every_month(spread_data, spread_site):
    index = (spread_site / "index.html").read_text("utf-8")
    assert _sessions_linked(spread_site, "index.html") == _expected(spread_data, "2026-11")
    assert "2026-10-12" not in index and "2026-09-28" not in index
    months = [t for t in _targets(spread_site, "index.html") if t.startswith("months/")]
    assert months == [month_page(m) for m in MONTHS]  # the newest first
    text = " ".join(re.sub(r"<[^>]+>", " ", index).split())
    counts = {m: len(_expected(spread_data, m)) for m in MONTHS}
    assert counts == {"2026-11": 7, "2026-10": 4, "2026-09": 2}
    for m in MONTHS:
        assert f"{month_label(m)} ({counts[m]} sessions)" in text
    assert "November 2026 (7 sessions)" in text


def test_a_month_page_lists_exactly_that_months_sessions(spread_data, spread_site):
    assert sorted(p.name for p in (spread_site / "months").iterdir()) == [
        f"{m}.html" for m in sorted(MONTHS)
    ]
    listed = []
    for i, month in enumerate(MONTHS):
        page = month_page(month)
        assert _sessions_linked(spread_site, page) == _expected(spread_data, month)
        listed += _sessions_linked(spread_site, page)
        html = (spread_site / page).read_text("utf-8")
        assert f"<h1>Results of {month_label(month)}</h1>" in html
        targets = _targets(spread_site, page)
        assert "index.html" in targets and "style.css" in targets
        newer = month_page(MONTHS[i - 1]) if i > 0 else None
        older = month_page(MONTHS[i + 1]) if i + 1 < len(MONTHS) else None
        neighbours = [t for t in targets if t.startswith("months/")]
        assert neighbours == [m for m in (older, newer) if m]
    # every session on exactly one month's page
    everything = [f"{session_dir(e, n)}/index.html" for e, n in spread_data.sessions.select(
        "event_id", "session").rows()]  # fmt: skip
    assert sorted(listed) == sorted(everything)


def test_every_link_of_the_index_and_the_month_pages_resolves_and_reaches_every_page(
    spread_site,
):
    """From the index, following the links of the pages reached: every month's page, every
    event's and every session's ranking (and from them, every page of the site)."""
    seen: set[str] = set()
    queue = ["index.html"]
    while queue:
        page = queue.pop()
        if page in seen:
            continue
        seen.add(page)
        for target in _targets(spread_site, page):
            assert (spread_site / target).is_file(), (page, target)
            if target.endswith(".html"):
                queue.append(target)
    pages = {p.relative_to(spread_site).as_posix() for p in spread_site.rglob("*.html")}
    assert {month_page(m) for m in MONTHS} <= seen
    assert pages - seen == set()


def test_a_night_in_the_latest_month_renders_its_page_and_the_index_only(
    spread_data, spread_site, tmp_path, monkeypatch
):
    out = tmp_path / "site"
    before = without(spread_data, pl.col("date") != NIGHT)
    first = Site(before, out)
    first.render()
    assert (first.months_rendered, first.months_kept) == (3, 0)
    stamps = _stamps(out)
    old = [month_page(m) for m in MONTHS[1:]]
    rendered = _render_counting(monkeypatch)
    site = Site(spread_data, out)
    site.render()
    assert (site.months_rendered, site.months_kept) == (1, 2)
    assert not set(old) & set(rendered)  # not even rendered
    assert {"index.html", month_page(MONTHS[0])} <= set(rendered)
    changed = {p.relative_to(out).as_posix() for p in site.changed}
    assert {"index.html", month_page(MONTHS[0])} <= changed
    assert not set(old) & changed
    after = _stamps(out)
    assert all(after[page] == stamps[page] for page in old)
    # the same files, byte for byte, as the site written from scratch
    assert _files(out) == _files(spread_site)
    # and again with nothing new: every month kept, not a file written
    again = Site(spread_data, out)
    again.render()
    assert (again.months_rendered, again.months_kept) == (0, 3)
    assert again.changed == [] and again.removed == []


def test_a_new_month_renders_the_month_before_it_again_for_its_link(spread_data, tmp_path):
    """The first date of a month: its page is new, and the page of the month before links to
    it (rendered again); an older month's page is kept."""
    out = tmp_path / "site"
    Site(without(spread_data, ~pl.col("date").str.starts_with("2026-11")), out).render()
    stamps = _stamps(out)
    site = Site(without(spread_data, pl.col("date") != NIGHT), out)
    site.render()
    assert (site.months_rendered, site.months_kept) == (2, 1)
    changed = {p.relative_to(out).as_posix() for p in site.changed}
    assert {month_page("2026-11"), month_page("2026-10"), "index.html"} <= changed
    assert _stamps(out)[month_page("2026-09")] == stamps[month_page("2026-09")]
    fresh = tmp_path / "fresh"
    Site(without(spread_data, pl.col("date") != NIGHT), fresh).render()
    assert _files(out) == _files(fresh)


def test_a_changed_session_of_an_old_month_renders_that_months_page_again(spread_data, tmp_path):
    """What a month's page shows of a session changes (its status, a name; here the director):
    that month's page is rendered again, the others kept."""
    out = tmp_path / "site"
    Site(spread_data, out).render()
    director = (
        pl.when(pl.col("date") == "2026-10-12")
        .then(pl.lit("TD Someone Else"))
        .otherwise(pl.col("director"))
        .alias("director")
    )
    changed = dataclasses.replace(spread_data, sessions=spread_data.sessions.with_columns(director))
    site = Site(changed, out)
    site.render()
    assert (site.months_rendered, site.months_kept) == (1, 2)
    page = (out / month_page("2026-10")).read_text("utf-8")
    assert "director TD Someone Else" in page
    fresh = tmp_path / "fresh"
    Site(changed, fresh).render()
    assert _files(out) == _files(fresh)


def test_a_month_whose_sessions_are_all_gone_loses_its_page(spread_data, tmp_path):
    out = tmp_path / "site"
    Site(spread_data, out).render()
    gone = out / month_page("2026-09")
    assert gone.is_file()
    site = Site(without(spread_data, ~pl.col("date").str.starts_with("2026-09")), out)
    site.render()
    assert gone in site.removed and not gone.exists()
    # the month after it no longer links to it: rendered again; the latest month kept
    assert (site.months_rendered, site.months_kept) == (1, 1)
    assert month_page("2026-09") not in _targets(out, month_page("2026-10"))
    assert "September 2026" not in (out / "index.html").read_text("utf-8")
    fresh = tmp_path / "fresh"
    Site(without(spread_data, ~pl.col("date").str.starts_with("2026-09")), fresh).render()
    assert _files(out) == _files(fresh)


def test_with_no_session_the_index_says_so_and_there_is_no_month(tmp_path):
    empty = pl.DataFrame()
    out = tmp_path / "site"
    put_there = out / "months" / "2026-11.html"  # a page of an earlier publication
    put_there.parent.mkdir(parents=True)
    put_there.write_text("an older month", encoding="utf-8")
    Site(Published(empty, empty, empty, empty, empty), out).render()
    index = (out / "index.html").read_text("utf-8")
    assert "No official standings have been published yet." in index
    assert "months/" not in index
    assert not (out / "months").exists()
