"""Only what is meant for the public is published: the whole published output is searched.

Planted in one evening (2026-11-21) of two events, then run and published as a scorer runs
it (:func:`pipelines.runner.run_inbox`):

* event EV1, named and run by a club whose names carry markup and quotes, pair 1 named
  ``<b>Ann</b> & "Bob"`` with two membership numbers;
* on board 1 (unvulnerable, Law 2) at the table NS 3 v EW 4, which played 4S by N making 11
  tricks (+450, Law 77), ruling R1 assigns 4S N = (+420) and appeal A1, decided the next
  morning, changes it back to the table result: a second version of the standings
  (Law 92/93). Both carry a director's (a committee's) ``note`` with a secret sentence, the
  membership number and ``<script>alert(1)</script>``, and a ``public_note`` with
  ``<script>alert(1)</script>`` too;
* ruling R2 assigns board 2 at NS 1 v EW 4 (2H by E making 8 tricks, −110) 2H E −1 (+50 for
  NS) with a secret ``note`` and no ``public_note``: its page says what was ruled and no more;
* R3, a procedural penalty (Law 90) on pair 5, with a secret ``note`` and a ``public_note``;
* event ``../../etc``: an id that would climb out of the output folder as a path.

The site, the exports (USEBIO, PBN, Parquet, events.csv), the season dashboard and the
transparency report are searched whole: the secret and the membership numbers never appear,
the public notes and the names appear escaped (``&lt;script&gt;``), and nothing is written
outside the output folder.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from pipelines.publish.site import environment, session_dir, slug
from pipelines.runner import run_inbox
from tests.robustness.conftest import RESULTS, rows

SECRET = "Player was rude to the director, see email of Tuesday"
SCRIPT = "<script>alert(1)</script>"
#: A membership number of a form nothing else in the output has.
MEMBER = "TVX7734012"
OTHER_MEMBER = "TVX7734013"
NAME = '<b>Ann</b> & "Bob"'
EVENT_NAME = '<i>Spring</i> "Pairs" & Cup'
CLUB = '<u>Club</u> & "Co"'
DIRECTOR = 'TD <s>Zed</s> "Q"'
CLIMBER = "../../etc"

PUBLIC_R1 = f"Hesitation agreed by both sides {SCRIPT}"
PUBLIC_A1 = f"The committee found no link to the hesitation {SCRIPT}"
PUBLIC_R3 = f"Late arrival {SCRIPT}"

EVENTS = (
    "event_id,session,date,name,movement,club,director\n"
    f'EV1,1,2026-11-21,"{EVENT_NAME.replace(chr(34), chr(34) * 2)}",howell,'
    f'"{CLUB.replace(chr(34), chr(34) * 2)}","{DIRECTOR.replace(chr(34), chr(34) * 2)}"\n'
    f"{CLIMBER},1,2026-11-21,Climbing Pairs,howell,,\n"
)
#: Every pair of both events (a list of contestants is the event's whole field).
CONTESTANTS = (
    "event_id,contestant,direction,names,player_ids\n"
    f'EV1,1,,"{NAME.replace(chr(34), chr(34) * 2)}",{MEMBER};{OTHER_MEMBER}\n'
    f"{CLIMBER},1,,Cleo Climber,{OTHER_MEMBER}\n"
    + "".join(f"{e},{p},,Pair {p},\n" for e in ("EV1", CLIMBER) for p in range(2, 7))
)
RULINGS = (
    "ruling_id,event_id,session,board,ns_pair,ew_pair,director,called_at,ruled_at,laws,kind,"
    "offending,ns_result,ew_result,penalized,penalty,note,public_note\n"
    f"R1,EV1,1,1,3,4,TD Zed,2026-11-21 20:00,2026-11-21 20:10,16B1;12C1(b),assigned,EW,4S N =,,,,"
    f'"{SECRET}: {MEMBER} {SCRIPT}","{PUBLIC_R1}"\n'
    f"R2,EV1,1,2,1,4,TD Zed,2026-11-21 20:20,2026-11-21 20:30,16B1;12C1(b),assigned,EW,2H E -1,,,,"
    f'"{SECRET} {SCRIPT}",\n'
    f"R3,EV1,1,,,,TD Zed,2026-11-21 19:00,2026-11-21 19:05,90B1,procedural_penalty,NS,,,5,25%,"
    f'"{SECRET} {SCRIPT}","{PUBLIC_R3}"\n'
)
APPEALS = (
    "appeal_id,ruling_id,lodged_at,lodged_by,heard_by,decided_at,outcome,ns_result,ew_result,"
    "note,public_note\n"
    f"A1,R1,2026-11-21 22:00,NS,committee,2026-11-22 10:00,changed,4S N +1,,"
    f'"{SECRET}: {MEMBER} {SCRIPT}","{PUBLIC_A1}"\n'
)


class _Page(HTMLParser):
    """A page's elements, attribute values and text as a browser parses them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend(v for _, v in attrs if v is not None)

    def handle_data(self, data):
        self.text.append(data)


def parsed(page: str) -> _Page:
    p = _Page()
    p.feed(page)
    return p


def visible(page: str) -> str:
    """The page's text as a reader sees it (tags dropped, entities decoded, spaces squeezed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("public")
    inbox = base / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="EV1"), encoding="utf-8")
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e=CLIMBER), encoding="utf-8")
    (inbox / "events.csv").write_text(EVENTS, encoding="utf-8")
    (inbox / "contestants.csv").write_text(CONTESTANTS, encoding="utf-8")
    (inbox / "rulings-2026-11-21.csv").write_text(RULINGS, encoding="utf-8")
    (inbox / "appeals-2026-11-21.csv").write_text(APPEALS, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
        report = run_inbox(inbox, base / "wh" / "w.duckdb", publish_to=base / "out")
    assert report.failed_checks == [] and report.held_events == []
    assert report.published == base / "out"
    return base


def public_files(base: Path) -> list[Path]:
    """Everything published: the site, the exports, the dashboard, the public report."""
    out = [p for p in (base / "out").rglob("*") if p.is_file()]
    out.append(base / "wh" / "reports" / "transparency.html")
    return out


def texts(base: Path) -> dict[Path, str]:
    """Every published file as text: Parquet files as the text of each of their values."""
    found = {}
    for path in public_files(base):
        if path.suffix == ".parquet":
            df = pl.read_parquet(path)
            found[path] = "\n".join(
                str(v) for col in df.columns for v in df[col].cast(pl.Utf8).to_list()
            ) + "\n".join(df.columns)
        else:
            found[path] = path.read_text(encoding="utf-8", errors="replace")
    return found


def test_the_warehouse_keeps_the_directors_notes_for_the_audit(published: Path):
    wh = published / "wh" / "w.duckdb"
    assert rows(
        wh, "SELECT ruling_id, note LIKE '%rude%', public_note FROM rulings ORDER BY 1"
    ) == [
        ("R1", True, PUBLIC_R1),
        ("R2", True, None),
        ("R3", True, PUBLIC_R3),
    ]
    assert rows(wh, "SELECT note LIKE '%rude%', public_note FROM appeals") == [(True, PUBLIC_A1)]
    # the appeal decided after publication made a second version (Laws 92, 93)
    assert rows(wh, "SELECT DISTINCT cause, cause_id FROM standings_changes") == [("appeal", "A1")]


def test_no_secret_note_and_no_membership_number_is_published(published: Path):
    found = texts(published)
    assert any(p.suffix == ".parquet" for p in found) and any(p.suffix == ".xml" for p in found)
    assert any(p.suffix == ".pbn" for p in found) and any(p.name == "season.html" for p in found)
    for path, text in found.items():
        for private in (SECRET, "rude", MEMBER, OTHER_MEMBER):
            assert private not in text, (path, private)


def test_public_notes_are_shown_escaped(published: Path):
    site = published / "out" / "site"
    ranking = (site / session_dir("EV1", 1) / "index.html").read_text(encoding="utf-8")
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert f"Late arrival {escaped}" in ranking  # the penalty's public note (Law 90)
    assert f"The committee found no link to the hesitation {escaped}" in ranking  # the appeal
    assert "heard by the committee, ruling changed" in visible(ranking)
    # R1 as changed on appeal: the table's own result 4S N +1, with R1's public note
    board1 = (site / session_dir("EV1", 1) / "A" / "board-1.html").read_text(encoding="utf-8")
    assert f"Hesitation agreed by both sides {escaped}" in board1
    search = '<script src="../search.js" defer></script>'  # the player index's search box
    for path, text in texts(published).items():
        if path.suffix == ".html":
            if path == site / "players" / "index.html":
                assert text.count(search) == 1
                text = text.replace(search, "")
            assert "<script" not in text.lower(), path
            assert "script" not in parsed(text).tags, path


def test_a_ruling_without_public_note_says_what_was_ruled_and_no_more(published: Path):
    page = (published / "out" / "site" / session_dir("EV1", 1) / "A" / "board-2.html").read_text(
        encoding="utf-8"
    )
    shown = visible(page)
    # 2H by E one off, unvulnerable: +50 for NS (Law 77), assigned under Laws 16B1, 12C1(b)
    assert "assigned 2H E −1 (played: 2H E =), Laws 16B1, 12C1(b)" in shown
    assert "50" in shown and SECRET not in shown and "alert" not in shown


def test_names_event_and_club_names_are_escaped_in_text(published: Path):
    site = published / "out" / "site"
    ranking = (site / session_dir("EV1", 1) / "index.html").read_text(encoding="utf-8")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert str(escape(NAME)) == "&lt;b&gt;Ann&lt;/b&gt; &amp; &#34;Bob&#34;"
    assert str(escape(NAME)) in ranking and str(escape(EVENT_NAME)) in ranking
    assert str(escape(DIRECTOR)) in ranking
    assert str(escape(CLUB)) in index and str(escape(EVENT_NAME)) in index
    for page in (ranking, index):
        p = parsed(page)
        assert not {"b", "i", "u", "s", "script"} & set(p.tags)
    assert NAME in "".join(parsed(ranking).text) and CLUB in "".join(parsed(index).text)
    dashboard = (published / "out" / "season.html").read_text(encoding="utf-8")
    assert "<u>Club</u>" not in dashboard
    for path, text in texts(published).items():
        if path.suffix == ".html":
            assert NAME not in text and "<i>Spring</i>" not in text, path


def test_markup_is_escaped_in_attributes_and_in_embedded_json():
    """Autoescape is on for every template and string of the site (and the reports): a name
    in an attribute value cannot end the attribute, and one in JSON embedded in a page
    (``tojson``) cannot end the ``<script>`` element."""
    from pipelines.reports.audit import _env

    for env in (environment(), _env()):
        page = env.from_string(
            '<a title="{{ x }}" href="{{ x }}">{{ x }}</a>'
            '<script type="application/json">{{ {"names": x}|tojson }}</script>'
        ).render(x=NAME + SCRIPT)
        p = parsed(page)
        assert p.tags == ["a", "script"]
        assert p.attributes == [NAME + SCRIPT, NAME + SCRIPT, "application/json"]
        assert page.count("</script>") == 1 and "\\u003cb\\u003e" in page


def test_an_id_that_climbs_never_becomes_a_path_outside_the_output(published: Path):
    out = published / "out"
    assert slug(CLIMBER) == "etc"
    assert (out / "site" / "events" / "etc" / "s1" / "index.html").is_file()
    assert (out / "exports" / "usebio" / "etc.xml").is_file()
    assert (out / "exports" / "pbn" / "etc-s1.pbn").is_file()
    root = out.resolve()
    for path in out.rglob("*"):
        assert path.resolve().is_relative_to(root), path
        assert ".." not in path.relative_to(out).parts
    # nothing beside the inbox, the warehouse's folder and the output folder was made
    assert sorted(p.name for p in published.iterdir()) == ["inbox", "out", "wh"]
    assert not (published.parent / "etc").exists()


@pytest.mark.parametrize(
    "text",
    [CLIMBER, "/etc/passwd", "..", ".", "a\\b\\..\\c", "C:\\Windows", "x\x00y\n\x1bz", ".hidden"],
)
def test_a_slug_is_one_plain_name(text: str):
    name = slug(text)
    assert re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]*", name), name
    assert name not in (".", "..")


def test_the_director_audit_report_is_not_published(published: Path):
    assert (published / "wh" / "reports" / "audit.html").is_file()
    assert not [p for p in (published / "out").rglob("audit*.html")]


def test_no_director_of_the_audit_is_published(published: Path):
    """The director who made the rulings (``TD Zed``: named in ``director_audit``,
    ``ruling_discrepancies`` and the statistics by director) is in the audit report and in no
    published file — the Parquet exports leave out the audit's marts, a ruling's director
    and the statistics' slices by director; the transparency report pseudonymises him. (The
    event's own director, shown on its pages, is the event's, not the audit's.)"""
    wh = published / "wh" / "w.duckdb"
    assert ("TD Zed",) in rows(wh, "SELECT DISTINCT director FROM director_audit")
    assert ("TD Zed",) in rows(
        wh, "SELECT DISTINCT value FROM penalty_stats WHERE dimension = 'director'"
    )
    assert "TD Zed" in (published / "wh" / "reports" / "audit.html").read_text(encoding="utf-8")
    found = texts(published)
    for path, text in found.items():
        assert "TD Zed" not in text, path
    parquet = published / "out" / "exports" / "parquet"
    assert not (parquet / "director_audit").exists()
    assert not (parquet / "ruling_discrepancies").exists()
    rulings = pl.read_parquet(parquet / "rulings")
    assert "director" not in rulings.columns and rulings.height == 3
    stats = pl.read_parquet(parquet / "penalty_stats")
    assert stats.height and "director" not in stats["dimension"].to_list()
    assert "law" in stats["dimension"].to_list()  # the other slices are published


@pytest.mark.parametrize("inside", ["site", "exports"])
def test_a_warehouse_kept_where_the_public_reads_is_refused(
    published: Path, tmp_path: Path, inside: str
):
    """A warehouse (and so its reports/ folder, where the director audit is written) kept in
    the site or exports folder of its publication would be published with them: the run and
    ``traveller publish`` refuse before writing anything (exit 2, one line); and
    ``traveller report audit --out`` a published folder likewise."""
    from typer.testing import CliRunner

    from pipelines.cli import app
    from pipelines.publish.files import PublicationError

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="EV1"))
    out = tmp_path / "out"
    wh = out / inside / "private" / "w.duckdb"
    with pytest.raises(PublicationError, match="would be published with the results"):
        run_inbox(inbox, wh, publish_to=out)
    assert not out.exists()
    # `traveller publish` of a warehouse kept in the served folder of --out: refused
    good = published / "wh" / "w.duckdb"
    served = tmp_path / "served"
    (served / inside).mkdir(parents=True)
    kept = served / inside / "w.duckdb"
    kept.write_bytes(good.read_bytes())
    r = CliRunner().invoke(app, ["publish", "--out", str(served), "--warehouse", str(kept)])
    assert r.exit_code == 2, r.output
    assert "would be published with the results" in r.output
    assert not (served / "site" / "index.html").exists()
    # the audit report asked into the served folder of the warehouse's publication: refused
    r = CliRunner().invoke(
        app,
        ["report", "audit", "--out", str(good.parent / inside), "--warehouse", str(good)],
    )
    assert r.exit_code == 2, r.output
    assert "the director audit names directors and must not be published" in r.output
    assert not (good.parent / inside / "audit.html").exists()


def test_a_profile_name_is_never_a_path():
    """``events.csv``'s ``profile`` names a shipped profile; a path, even one that reaches a
    profile's file (``../profiles/wbf``), is an unknown profile."""
    from pipelines.profiles import ProfileError, load

    for name in ("../climbed", "../profiles/wbf", "/etc/passwd", "wbf/../wbf"):
        with pytest.raises(ProfileError, match="unknown profile"):
            load(name)
    assert load("wbf").name == "wbf"


def test_two_event_ids_of_one_file_name_form_are_both_published(tmp_path: Path):
    """``Club A/B`` and ``Club A-B`` (two clubs' ids, one file-name form ``Club-A-B``) are two
    events: both are published, each in a folder and export files of its own — the earlier
    date's the plain form, the later's ``-2`` — and neither's pages or files are written over
    the other's (the run stopped at the first clash before)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first, second = "Club A/B", "Club A-B"
    (inbox / "results-a.csv").write_text(RESULTS.format(e=first), encoding="utf-8")
    (inbox / "results-b.csv").write_text(RESULTS.format(e=second), encoding="utf-8")
    (inbox / "events.csv").write_text(
        "event_id,session,date,name,movement\n"
        f"{second},1,2026-11-22,Later Pairs,howell\n"
        f"{first},1,2026-11-21,Earlier Pairs,howell\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    report = run_inbox(inbox, tmp_path / "wh" / "w.duckdb", publish_to=out)
    assert report.failed_checks == [] and report.held_events == []
    site = out / "site"
    for folder, name in (("Club-A-B", "Earlier Pairs"), ("Club-A-B-2", "Later Pairs")):
        page = (site / "events" / folder / "s1" / "index.html").read_text(encoding="utf-8")
        assert name in page
        assert (site / "events" / folder / "s1" / "A" / "board-1.html").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "events/Club-A-B/index.html" in index and "events/Club-A-B-2/index.html" in index
    usebio = out / "exports" / "usebio"
    assert sorted(p.name for p in usebio.iterdir()) == ["Club-A-B-2.xml", "Club-A-B.xml"]
    assert f"<EVENT_IDENTIFIER>{first}</EVENT_IDENTIFIER>" in (usebio / "Club-A-B.xml").read_text()
    assert (
        f"<EVENT_IDENTIFIER>{second}</EVENT_IDENTIFIER>" in (usebio / "Club-A-B-2.xml").read_text()
    )
    pbn = out / "exports" / "pbn"
    assert sorted(p.name for p in pbn.iterdir()) == ["Club-A-B-2-s1.pbn", "Club-A-B-s1.pbn"]


def test_two_contestant_ids_of_one_file_name_form_get_two_scorecards(tmp_path: Path):
    """Pairs ``6`` and ``6.`` of one session (one file-name form, ``6``) are two pairs: each
    has its own scorecard — ``6.``, the later id, ``card-6-2.html`` — and the ranking, the
    travellers and the player pages link each pair to its own (the run stopped with
    "publishing failed" before)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-a.csv").write_text(
        "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,"
        "score\n"
        "EV1,1,A,1,1,1,1,2,4S,N,10,420\n"
        "EV1,1,A,1,2,1,3,4,4S,N,11,450\n"
        "EV1,1,A,1,3,1,6,6.,3NT,S,9,400\n"
        "EV1,1,A,2,1,2,1,4,2H,E,8,-110\n"
        "EV1,1,A,2,2,2,3,6.,2H,E,9,-140\n"
        "EV1,1,A,2,3,2,6,2,PASS,,,0\n",
        encoding="utf-8",
    )
    (inbox / "events.csv").write_text(
        "event_id,session,date,name,movement\nEV1,1,2026-11-21,Clash Pairs,howell\n",
        encoding="utf-8",
    )
    (inbox / "contestants.csv").write_text(
        "event_id,contestant,direction,names\n"
        "EV1,6,,Sixa One & Sixa Two\n"
        "EV1,6.,,Dotty One & Dotty Two\n"
        + "".join(f"EV1,{p},,Pair {p}a & Pair {p}b\n" for p in range(1, 5)),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    report = run_inbox(inbox, tmp_path / "wh" / "w.duckdb", publish_to=out)
    assert report.failed_checks == [] and report.held_events == []
    session = out / "site" / session_dir("EV1", 1)
    six, dotted = session / "A" / "card-6.html", session / "A" / "card-6-2.html"
    assert "Sixa One" in six.read_text(encoding="utf-8")
    assert "Dotty One" in dotted.read_text(encoding="utf-8")
    ranking = (session / "index.html").read_text(encoding="utf-8")
    assert 'href="A/card-6.html"' in ranking and 'href="A/card-6-2.html"' in ranking
    event = (session.parent / "index.html").read_text(encoding="utf-8")
    assert 'href="s1/A/card-6.html"' in event and 'href="s1/A/card-6-2.html"' in event
    board = (session / "A" / "board-1.html").read_text(encoding="utf-8")
    assert '<a href="card-6.html">6</a>' in board and '<a href="card-6-2.html">6.</a>' in board
    player = (out / "site" / "players" / "Dotty-One.html").read_text(encoding="utf-8")
    assert "s1/A/card-6-2.html" in player and "card-6.html" not in player


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.one_of(
                st.sampled_from("aZ09_-./ &'é\u00a0\t"), st.characters(codec="utf-8")
            ),
            max_size=30,
        ),
        min_size=1,
        max_size=20,
    )
)
def test_the_vectorised_file_name_form_is_slug(texts: list[str]):
    """The file-name form found in one vectorised pass (``slug_expr``, which tells the player
    pages which sessions have two ids of one form) is :func:`slug`'s, for every text whose
    form is at most 100 characters long."""
    from pipelines.publish.common import slug_expr

    got = pl.DataFrame({"t": texts}).select(slug_expr(pl.col("t")))["t"].to_list()
    assert got == [slug(t) for t in texts]


def test_two_sections_of_one_file_name_form_get_two_folders(tmp_path: Path):
    """Sections ``A-B`` and ``A/B`` of one session (one file-name form, ``A-B``) are two
    sections on the site: ``A/B``, the later name, has its boards and scorecards in ``A-B-2/``,
    and every link — ranking, traveller, scorecard, player page — goes to its own section's
    page (the whole publication stopped on "two pages on one path" before)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    lines = []
    for sec in ("A-B", "A/B"):
        tricks, score = (10, 420) if sec == "A-B" else (11, 450)
        lines += [
            f"EV1,1,{sec},1,1,1,1,2,4S,N,{tricks},{score}",
            f"EV1,1,{sec},1,2,1,3,4,4S,N,10,420",
            f"EV1,1,{sec},2,1,2,1,4,2H,E,8,-110",
            f"EV1,1,{sec},2,2,2,3,2,2H,E,9,-140",
        ]
    (inbox / "results-a.csv").write_text(
        "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,"
        "score\n" + "\n".join(lines) + "\n",
        encoding="utf-8",
    )
    (inbox / "events.csv").write_text(
        "event_id,session,date,name,movement\nEV1,1,2026-11-21,Section Clash,howell\n",
        encoding="utf-8",
    )
    (inbox / "contestants.csv").write_text(
        "event_id,section,contestant,direction,names\n"
        + "".join(f"EV1,A-B,{p},,Dash {p}a & Dash {p}b\n" for p in range(1, 5))
        + "".join(f"EV1,A/B,{p},,Slash {p}a & Slash {p}b\n" for p in range(1, 5)),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    report = run_inbox(inbox, tmp_path / "wh" / "w.duckdb", publish_to=out)
    assert report.failed_checks == [] and report.held_events == []
    session = out / "site" / session_dir("EV1", 1)
    dash, slash = session / "A-B", session / "A-B-2"
    # each section's traveller: its own results, its own pairs' names and scorecards
    dash_board = (dash / "board-1.html").read_text(encoding="utf-8")
    slash_board = (slash / "board-1.html").read_text(encoding="utf-8")
    assert "Dash 1a" in dash_board and "Slash" not in dash_board
    assert "Slash 1a" in slash_board and "Dash" not in slash_board
    assert "450" in slash_board and "450" not in dash_board
    assert '<a href="card-1.html">1</a>' in slash_board
    assert "Slash 1a" in (slash / "card-1.html").read_text(encoding="utf-8")
    assert "Dash 1a" in (dash / "card-1.html").read_text(encoding="utf-8")
    ranking = (session / "index.html").read_text(encoding="utf-8")
    assert 'href="A-B/board-1.html"' in ranking and 'href="A-B-2/board-1.html"' in ranking
    assert 'href="A-B/card-1.html"' in ranking and 'href="A-B-2/card-1.html"' in ranking
    card = (slash / "card-1.html").read_text(encoding="utf-8")
    assert 'href="board-1.html"' in card
    player = (out / "site" / "players" / "Slash-1a.html").read_text(encoding="utf-8")
    assert "s1/A-B-2/card-1.html" in player
