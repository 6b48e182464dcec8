"""The results site: every page there, figures as the profile shows them, adjusted scores
explained with their Law, status and versions visible, everything escaped, no ID numbers."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import polars as pl
import pytest
from markupsafe import escape
from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.publish.data import Published
from pipelines.publish.explain import artificial_phrase, explain, laws_text, place_text
from pipelines.publish.site import (
    Decimals,
    Site,
    board_name,
    card_name,
    iter_links,
    session_dir,
    slug,
)
from tests.publish.conftest import HOSTILE, Sample


def q(sample: Sample, sql: str) -> pl.DataFrame:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(sql).pl()


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def visible(page: str) -> str:
    """The page's text as a reader sees it (tags dropped, entities decoded, spaces squeezed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def all_pages(sample: Sample) -> list[Path]:
    return sorted(sample.site.rglob("*.html"))


def test_every_session_board_and_contestant_has_its_page(sample: Sample):
    sessions = q(sample, "SELECT DISTINCT event_id, session FROM standings WHERE scope='session'")
    assert sessions.height == q(sample, "SELECT count(*) n FROM events")["n"][0]
    for ev, n in sessions.iter_rows():
        d = sample.site / session_dir(ev, n)
        assert (d / "index.html").is_file()
        boards = q(
            sample,
            f"SELECT DISTINCT section, board, deal_round FROM scored_results "
            f"WHERE event_id='{ev}' AND session={n}",
        )
        for sec, b, r in boards.iter_rows():
            # <section>/board-<n>.html; <section>/board-r<round>-<n>.html where every round
            # plays its own deals (teams); an unnamed section has no folder
            assert (d / board_name(sec, b, r)).is_file()
            folder = f"{slug(sec)}/" if sec else ""
            assert board_name(sec, b, r) == f"{folder}board-{f'r{r}-' if r else ''}{b}.html"
        st = q(
            sample,
            f"SELECT section, contestant, direction FROM standings WHERE scope='session' "
            f"AND status<>'superseded' AND event_id='{ev}' AND session={n}",
        )
        for sec, c, direction in st.iter_rows():
            assert (d / card_name(sec, c, direction)).is_file()
    assert (sample.site / "index.html").is_file() and (sample.site / "style.css").is_file()


def test_every_link_resolves(sample: Sample):
    for page in all_pages(sample):
        for href in iter_links(text(page)):
            assert not href.startswith(("http:", "https:", "//")), (page, href)
            assert (page.parent / href).resolve().is_file(), (page, href)


def test_plain_html_without_javascript_and_accessible(sample: Sample):
    """Every page is plain HTML; only the player index loads a script — one file of the site
    (its search box), no inline code, no event handler in the markup."""
    for page in all_pages(sample):
        t = text(page)
        scripts = re.findall(r"<script[^>]*>.*?</script>", t, re.S | re.I)
        if page == sample.site / "players" / "index.html":
            assert scripts == ['<script src="../search.js" defer></script>']
        else:
            assert scripts == [] and "<script" not in t.lower()
        assert not re.search(r"\son[a-z]+\s*=", t, re.I)  # no onclick=, onload= ...
        assert '<html lang="en">' in t and 'name="viewport"' in t
        assert t.count("<h1>") == 1
        for table in re.findall(r"<table.*?</table>", t, re.S):
            assert "<caption>" in table and 'scope="col"' in table


def test_names_are_escaped(sample: Sample):
    hits = [p for p in all_pages(sample) if str(escape(HOSTILE)) in text(p)]
    assert hits, "the hostile name should be shown (escaped) on its pages"
    for p in hits:
        assert HOSTILE in visible(text(p))  # shown as text


def test_no_national_id_number_is_published(sample: Sample):
    ids = q(sample, "SELECT player_ids FROM contestants WHERE player_ids IS NOT NULL")
    numbers = {i for v in ids["player_ids"] for i in v.split(";") if i}
    assert len(numbers) > 50
    pattern = re.compile("|".join(re.escape(n) for n in sorted(numbers)))
    searched = 0
    for path in sample.out.rglob("*"):  # the whole output: pages, index, exports, manifests
        if path.is_file() and path.suffix not in (".parquet", ".png"):
            searched += 1
            found = pattern.search(path.read_text(encoding="utf-8", errors="replace"))
            assert found is None, (path, found and found.group())
    assert searched > 500
    for path in (sample.exports / "parquet").rglob("*.parquet"):
        df = pl.read_parquet(path)
        assert "player_ids" not in df.columns
        for col, dtype in df.schema.items():
            if dtype == pl.Utf8:
                assert not df[col].is_in(sorted(numbers)).any(), (path, col)


def test_ranking_shows_places_with_ties_and_the_profile_figures(sample: Sample):
    tied = q(
        sample,
        "SELECT * FROM standings WHERE scope='session' AND status<>'superseded' AND tied "
        "AND percentage IS NOT NULL ORDER BY event_id, session LIMIT 1",
    ).row(0, named=True)
    page = visible(
        text(sample.site / session_dir(tied["event_id"], tied["session"]) / "index.html")
    )
    others = q(
        sample,
        f"SELECT contestant FROM standings WHERE scope='session' AND status<>'superseded' "
        f"AND event_id='{tied['event_id']}' AND session={tied['session']} "
        f"AND section='{tied['section']}' AND rank={tied['rank']} "
        f"AND contestant<>'{tied['contestant']}' ORDER BY contestant",
    )["contestant"].to_list()
    # the place, then the rule in words: shared, and with whom (profile wbf breaks no tie)
    with_whom = " and ".join(others) if len(others) < 3 else ", ".join(others)
    shown = f"{tied['rank']}= shared with {with_whom}: equal percentages {tied['contestant']}"
    assert shown in page
    assert (
        f"Contestants with equal percentages share the place: ties are not broken "
        f"(profile {tied['profile']}, ranking.tiebreak = none)."
    ) in page
    dec = Decimals.of(tied["profile"])
    row = (
        f"{tied['names']} {tied['score_display']:.{dec.total}f} "
        f"{tied['percentage_display']:.{dec.pct}f}"
    )
    assert row in page


def _minus(text: str) -> str:
    return text.replace("-", "−")


def _laws(laws: str) -> str:
    parts = laws.split(";")
    return ("Law " if len(parts) == 1 else "Laws ") + ", ".join(parts)


def _board_page(sample: Sample, r: dict) -> str:
    path = (
        sample.site
        / session_dir(r["event_id"], r["session"])
        / board_name(r["section"], r["board"], r.get("deal_round"))
    )
    return visible(text(path))


def test_a_traveller_names_and_links_the_pairs_of_its_own_section(sample: Sample):
    """In a session of two sections (CLUB2-2026-11-02: A and B, pair numbers repeated in
    each), a board's traveller names each pair as its own section does and links it to its
    own section's scorecard (pair 1 NS of section A is not pair 1 NS of section B), and a
    scorecard names its opponents from its own section. (A pair's names and link were
    looked up by its number and direction alone: any section's.)"""
    session = sample.site / session_dir("CLUB2-2026-11-02", 1)
    cell = re.compile(r'<td><a href="([^"]+)">([^<]+)</a> <span class="names">([^<]*)</span>')
    seen: dict[tuple[str, str], set[str]] = {}
    checked = 0
    for section in ("A", "B"):
        boards = sorted((session / section).glob("board-*.html"))
        assert boards
        for board in boards:
            for href, _pair, names in cell.findall(text(board)):
                assert "/" not in href, (board, href)  # a scorecard of the board's section
                card = text(board.parent / href)
                assert f'<p class="names">{names}</p>' in card, (board, href)
                seen.setdefault((href, names), set()).add(section)
                checked += 1
    assert checked > 0
    # the two sections' pairs of one number and direction are different players
    names_a = {n for (_, n), secs in seen.items() if secs == {"A"}}
    names_b = {n for (_, n), secs in seen.items() if secs == {"B"}}
    assert names_a and names_b and not names_a & names_b
    against = re.compile(r'<td>[^<]+ <span class="names">([^<]*)</span></td><td>')
    for section, own in (("A", names_a), ("B", names_b)):
        for card in sorted((session / section).glob("card-*.html")):
            opponents = against.findall(text(card))
            assert opponents and set(opponents) <= own, card


def test_adjusted_scores_are_explained_with_their_law(sample: Sample):
    """Each kind of ruling in the sample's logs, found in the warehouse, is explained in words
    with its Law on its board's traveller."""
    rows = q(
        sample,
        """SELECT r.*, ru.laws AS ruling_laws, ru.effective_ns_result AS ns,
                  ru.effective_ew_result AS ew, ru.changed_on_appeal
           FROM scored_results r JOIN rulings ru USING (event_id, session, ruling_id)""",
    ).to_dicts()
    seen = set()
    for r in rows:
        page, laws = _board_page(sample, r), _laws(r["ruling_laws"])
        kind = r["adjustment"]
        if kind == "weighted" and not r["changed_on_appeal"]:
            parts = [p.strip().split("%") for p in r["ns"].split(";")]
            words = " / ".join(f"{w} % {_minus(res.strip())}" for w, res in parts)
            assert f"weighted {words}, {laws}" in page
        elif kind == "assigned" and r["ns"] != (r["ew"] or r["ns"]):
            assert f"split score: NS {_minus(r['ns'])}, EW {_minus(r['ew'])}" in page
            kind = "split"
        elif kind == "assigned" and not r["changed_on_appeal"]:
            assert f"assigned {_minus(r['ns'])} (played: " in page and laws in page
        elif kind == "fouled_board":
            assert f"fouled board: version {r['board_version']}, {laws}" in page
        elif kind == "score_correction":
            assert f"score corrected to {_minus(r['ns'])} (entered: " in page
        elif kind == "director_error":
            assert "director's error: " in page and "Law 82C" in page
        elif kind == "artificial" and r["kind"] == "artificial":
            assert "average" in page and "12C2" in page
        if r["changed_on_appeal"]:
            assert "changed on appeal" in page
        seen.add(kind)
    assert {"weighted", "assigned", "split", "fouled_board", "score_correction"} <= seen
    session_rule = [
        r
        for r in rows
        if r["kind"] == "artificial"
        and r["ns_art"] in ("+", "=", "-")
        and r["ns_pct"] is not None
        and abs(r["ns_pct"] - {"+": 60, "=": 50, "-": 40}[r["ns_art"]]) > 1e-9
    ]
    for r in session_rule:
        assert f"{r['ns_pct']:.1f}".rstrip("0").rstrip(".") + " % (session percentage, " in (
            _board_page(sample, r)
        )


def test_status_provisional_with_deadline_or_final_and_changes_explained(sample: Sample):
    sessions = q(
        sample,
        """SELECT DISTINCT s.event_id, s.session, s.status, s.version, e.published_at,
                  e.correction_minutes
           FROM standings s JOIN events e USING (event_id, session)
           WHERE s.scope = 'session' AND s.status <> 'superseded'""",
    ).to_dicts()
    assert {s["status"] for s in sessions} == {"provisional", "final"}  # NOW in the fixture
    for s in sessions:
        page = visible(text(sample.site / session_dir(s["event_id"], s["session"]) / "index.html"))
        if s["status"] == "final":
            assert "Final" in page and "Provisional" not in page
        else:
            published = datetime.strptime(s["published_at"], "%Y-%m-%d %H:%M")
            deadline = published + timedelta(minutes=s["correction_minutes"])
            assert (
                "Provisional: score corrections may be requested until "
                f"{deadline:%Y-%m-%d %H:%M} (Law 79C)"
            ) in page
        if s["version"] > 1:
            assert f"version {s['version']} of these standings" in page
    changes = q(
        sample,
        """SELECT DISTINCT c.event_id, c.session, c.version, c.cause, c.cause_id, c.ruling_id,
                  a.heard_by, a.outcome, r.board
           FROM standings_changes c LEFT JOIN appeals a
             ON c.cause = 'appeal' AND a.appeal_id = c.cause_id AND a.event_id = c.event_id
           LEFT JOIN rulings r ON r.ruling_id = c.ruling_id AND r.event_id = c.event_id
           WHERE c.scope = 'session'""",
    ).to_dicts()
    assert {c["cause"] for c in changes} == {"appeal", "correction"}
    for c in changes:
        page = visible(text(sample.site / session_dir(c["event_id"], c["session"]) / "index.html"))
        assert f"Version {c['version']}" in page
        if c["cause"] == "appeal":
            heard = c["heard_by"].replace("_", " ")
            # a penalty (Laws 90, 91) is on no board: "against ruling R7: heard by ..."
            where = " on board " if c["board"] is not None else ": heard by"
            assert (
                f"Appeal {c['cause_id']} against ruling {c['ruling_id']}{where}"
            ) in page and f"heard by the {heard}, ruling {c['outcome']}" in page
        else:
            assert f"Score correction {c['cause_id']} on board " in page


def test_scorecard_adds_up_to_the_ranking(sample: Sample):
    st = q(
        sample,
        "SELECT * FROM standings WHERE scope='session' AND status<>'superseded' "
        "AND event_id='CLUB1-2026-11-02' AND session=1 AND rank=1",
    ).row(0, named=True)
    page = visible(
        text(
            sample.site
            / session_dir("CLUB1-2026-11-02", 1)
            / card_name(st["section"], st["contestant"], st["direction"])
        )
    )
    assert (
        f"Place 1 Score {st['score_display']:.2f} Percentage {st['percentage_display']:.2f} %"
        in (page)
    )
    lines = q(
        sample,
        "SELECT board, ns_mp_display AS mp FROM scored_results WHERE event_id='CLUB1-2026-11-02' "
        f"AND session=1 AND ns_pair='{st['contestant']}' UNION ALL SELECT board, ew_mp_display "
        f"FROM scored_results WHERE event_id='CLUB1-2026-11-02' AND session=1 "
        f"AND ew_pair='{st['contestant']}'",
    )
    assert lines.height == st["boards"]
    assert page.count(" NS ") + page.count(" EW ") >= st["boards"]


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ({"kind": "played"}, None),
        (
            {"kind": "artificial", "ns_art": "+", "ew_art": "-", "ns_pct": 63.2, "ew_pct": 40.0},
            "artificial score: NS average-plus 63.2 % (session percentage, Law 12C2(c)), "
            "EW average-minus 40 %, Law 12C2",
        ),
        (
            {
                "kind": "adjusted",
                "adjustment": "weighted",
                "ruling_laws": "12C1(c)",
                "effective_ns_result": "60% 4S N =; 40% 4S N -1",
                "effective_ew_result": "60% 4S N =; 40% 4S N -1",
            },
            "weighted 60 % 4S N = / 40 % 4S N −1, Law 12C1(c)",
        ),
        (
            {
                "kind": "played",
                "adjustment": "assigned",
                "ruling_laws": "16B1;12C1(b)",
                "effective_ns_result": "4S N =",
                "contract": "3S",
                "declarer": "N",
                "tricks": 10,
            },
            "assigned 4S N = (played: 3S N +1), Laws 16B1, 12C1(b)",
        ),
        ({"kind": "played", "board_version": "B"}, None),
    ],
)
def test_explain(row, words):
    assert explain(row) == words


def test_explain_helpers():
    assert laws_text("87A") == "Law 87A" and laws_text(None) == ""
    assert artificial_phrase("+", 60.0) == "average-plus 60 %"
    assert artificial_phrase("60", 60.0) == "average-plus 60 %"
    assert artificial_phrase("55", 55.0) == "55 %"
    assert place_text(2, True) == "2=" and place_text(3, False) == "3"
    assert place_text(None, False, "disqualified") == "disqualified"
    assert explain({"kind": "played", "board_version": "B"}, versions=2) == (
        "fouled board: version B, Law 87"
    )


def test_cli_publish_and_report_season(sample: Sample, tmp_path: Path):
    r = CliRunner().invoke(
        app, ["publish", "--warehouse", str(sample.warehouse), "--out", str(tmp_path / "pub")]
    )
    assert r.exit_code == 0, r.output
    assert (tmp_path / "pub" / "site" / "index.html").is_file()
    usebio = len(list((tmp_path / "pub" / "exports" / "usebio").glob("*.xml")))
    pbn = len(list((tmp_path / "pub" / "exports" / "pbn").glob("*.pbn")))
    assert usebio > 0 and pbn >= usebio and f"{usebio} USEBIO, {pbn} PBN" in r.output
    r = CliRunner().invoke(
        app,
        [
            "report",
            "season",
            "--warehouse",
            str(sample.warehouse),
            "--out",
            str(tmp_path / "s.html"),
        ],
    )
    assert r.exit_code == 0, r.output
    missing = CliRunner().invoke(
        app, ["publish", "--warehouse", str(tmp_path / "no.duckdb"), "--out", str(tmp_path / "x")]
    )
    assert missing.exit_code == 2 and "warehouse not found" in missing.output


def test_readme_shows_the_screenshots_and_nightly_publication():
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for shot in (
        "docs/screenshots/ranking.png",
        "docs/screenshots/dashboard.png",
        "docs/screenshots/board.png",
        "docs/screenshots/player.png",
    ):
        assert f"]({shot})" in readme and (ROOT / shot).stat().st_size > 20_000
    assert "### Publishing nightly" in readme and "traveller publish --out DIR" in readme


def test_file_names_cannot_escape_the_site():
    for hostile in ("../../etc/passwd", "a/b", "A B", "<x>", "..", ""):
        name = slug(hostile)
        assert "/" not in name and ".." not in name and name
    assert slug("CLUB1-2026-11-02") == "CLUB1-2026-11-02"
    assert slug("2021 Online Qual: Open R2") == "2021-Online-Qual-Open-R2"


def test_urls_are_readable_and_without_hashes():
    assert session_dir("CLUB1-2026-11-02", 1) == "events/CLUB1-2026-11-02/s1"
    assert board_name("A", 16) == "A/board-16.html" and board_name("", 16) == "board-16.html"
    assert board_name("A", 2, 3) == "A/board-r3-2.html"
    assert card_name("A", "7", "NS") == "A/card-7-ns.html" and card_name("", "7", None) == (
        "card-7.html"
    )


def test_two_names_that_share_a_file_name_are_refused_not_written_over(tmp_path):
    empty = pl.DataFrame()
    site = Site(Published(empty, empty, empty, empty, empty), tmp_path)
    site._write(f"{session_dir('A/B', 1)}/index.html", "style.css")
    with pytest.raises(ValueError, match="differ only in punctuation"):
        site._write(f"{session_dir('A-B', 1)}/index.html", "style.css")


@pytest.mark.parametrize("folder", [".", "site", "site/", "data/site"])
def test_pages_are_recorded_relative_to_the_site_folder_however_it_is_named(
    folder, tmp_path, monkeypatch
):
    """The record of a session's pages names them relative to the site's folder: the same
    for a folder named ``.`` (pages written as ``index.html``), with or without a final
    separator, and for pages written and pages kept."""
    monkeypatch.chdir(tmp_path)
    empty = pl.DataFrame()
    site = Site(Published(empty, empty, empty, empty, empty), Path(folder))
    site._write("events/e/s1/index.html", "style.css")
    site.pages.extend(site._in_root(["events/f/s1/A/board-1.html"]))  # as a kept page
    site.record("k", "digest", 0)
    assert site.manifest["k"]["pages"] == [
        "events/e/s1/index.html",
        "events/f/s1/A/board-1.html",
    ]
    assert (Path(folder) / "events/e/s1/index.html").is_file()


def test_a_guid_event_gets_a_readable_unique_and_stable_folder():
    """Two Bridgemate sessions of one club, day and name (known by their GUIDs only): each a
    folder of its title, the second with -2, in the order of their dates then ids, whichever
    order they come in; an event with a readable id keeps it."""
    from pipelines.publish.site import event_folders, readable

    g1, g2 = "28A937506D0F4014BC868F53FBF4F9B9", "{0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0}"
    sessions = [
        {
            "event_id": g,
            "session": 1,
            "name": "Bridge game",
            "date": "2019-04-26",
            "club": "Pellwyn BC",
        }
        for g in (g1, g2)
    ] + [{"event_id": "CLUB1-2026-11-02", "session": 1, "name": "Pairs", "date": "2026-11-02"}]
    folders = event_folders([readable(s) for s in sessions])
    assert folders == {
        g1: "Pellwyn-BC-Bridge-game-2019-04-26",  # the same date: by id, 28A9... first
        g2: "Pellwyn-BC-Bridge-game-2019-04-26-2",
        "CLUB1-2026-11-02": "CLUB1-2026-11-02",
    }
    assert event_folders([readable(s) for s in reversed(sessions)]) == folders
