"""The player pages made in columns (:meth:`pipelines.publish.players.PlayerPages.views`) are
the pages made line by line (:class:`tests.publish.page_oracles.RowByRowPlayerPages`: each
line a dict printed by the former templates' loops), byte for byte.

The standings are the published sample's with lines changed by Hypothesis: places shared or
not under each profile's style of a shared place (``6=``, ``=6``, ``6-8``, ``6``), a sanction
instead of a place, a missing place, percentages and scores that round half to even, are
missing or ``-0.0`` (a score NaN too), units missing or empty, names, titles and clubs that
need escaping (``& < > ' "``), clubs missing or empty (the players' index prints a club only
when there is one), a line without a direction, contestants whose ids share a file-name form
(``1`` and ``1.``: their scorecards told apart), and sessions of an event of several. The
players' index is compared too (the former template's loop: ``players.html.j2``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import ChoiceLoader, FileSystemLoader

from pipelines.publish import load
from pipelines.publish.common import environment
from pipelines.publish.data import Published
from pipelines.publish.players import PlayerPages
from pipelines.publish.site import Site
from tests.publish import page_oracles as oracle
from tests.publish.conftest import Sample

_FIGURES = [None, 0.0, -0.0, 0.125, 2.675, 1.5, 2.5, 49.5, 50.0, 62.345, 100.0]
_NAMES = ["Ann Ash & Bob Bay", "O'Neil & <Sons>", 'the "best" & A&B', "Zed", " - ", ""]


class Pages:
    """The site as a player page sees it (:class:`~pipelines.publish.players.SitePages`),
    its pages kept in memory; ``former``: with the former templates."""

    def __init__(self, folders: dict[str, str], former: bool) -> None:
        self.env = environment()
        if former:
            self.env.loader = ChoiceLoader([FileSystemLoader(oracle.TEMPLATES), self.env.loader])
        self.folders = folders
        self.kept_events: set[str] = set()
        self.files: dict[str, str] = {}

    def keep(self, key: str, made_from: str | None) -> bool:
        return False

    def record(self, key: str, made_from: str, first: int) -> None:
        pass

    def write(self, rel: str, template: str, **ctx: Any) -> None:
        assert rel not in self.files
        root = "../" * rel.count("/")
        self.files[rel] = self.env.get_template(template).render(root=root, **ctx)

    def write_file(self, rel: str, data: bytes) -> None:
        self.files[rel] = data.decode("utf-8")

    def page_count(self) -> int:
        return len(self.files)


@pytest.fixture(scope="module")
def published(sample: Sample, tmp_path_factory) -> tuple[Published, list[dict], dict[str, str]]:
    """The published sample, its sessions with their readable titles and its folders."""
    data = load(sample.warehouse)
    site = Site(data, tmp_path_factory.mktemp("site"))
    site.prepare()
    return data, site.sessions, site.folders


def both(standings: pl.DataFrame, data: Published, sessions: list[dict], folders: dict[str, str]):
    made, former = Pages(folders, False), Pages(folders, True)
    keys = data.extra.get("players")
    PlayerPages(standings, keys, sessions).render(made)
    oracle.RowByRowPlayerPages(standings, keys, sessions).render(former)
    return made.files, former.files


@st.composite
def edits(draw, rows: int) -> list[tuple[int, dict]]:
    out = []
    for _ in range(draw(st.integers(1, 20))):
        fields: dict[str, Any] = {
            "rank": draw(st.one_of(st.none(), st.integers(1, 3))),
            "tied": draw(st.sampled_from([True, False, None])),
            "sanction": draw(st.sampled_from([None, None, "", "DQ", "susp. <91>"])),
            "percentage_display": draw(st.sampled_from(_FIGURES)),
            "score_display": draw(st.sampled_from([*_FIGURES, float("nan")])),
            "unit": draw(st.sampled_from([None, "", "MP", "IMP", "VP"])),
            "profile": draw(st.sampled_from([None, "ebu", "acbl", "ffb", "abf", "wbf"])),
        }
        if draw(st.booleans()):
            fields["names"] = draw(st.sampled_from(_NAMES))
        if draw(st.integers(0, 2)) == 0:  # ids of one file-name form: two scorecards
            fields["contestant"] = draw(st.sampled_from(["1", "1.", "2", "O'Brien", "O Brien"]))
        if draw(st.booleans()):
            fields["direction"] = draw(st.sampled_from([None, "", "NS", "EW"]))
        out.append((draw(st.integers(0, rows - 1)), fields))
    return out


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_player_pages_in_columns_are_the_pages_line_by_line(published, data) -> None:
    snapshot, sessions, folders = published
    rows = snapshot.standings.to_dicts()
    for at, fields in data.draw(edits(len(rows))):
        rows[at].update(fields)
    standings = pl.DataFrame(rows, schema=snapshot.standings.schema)
    titled = [
        {
            **s,
            "name": data.draw(st.sampled_from([s.get("name"), "", "R&D <Cup>", None])),
            # a club missing, empty or to be escaped: the index prints the club when there is one
            "club": data.draw(st.sampled_from([s.get("club"), "", None, "O'Hare & <Co>"])),
        }
        for s in sessions
    ]
    made, expected = both(standings, snapshot, titled, folders)
    assert made.keys() == expected.keys()
    differing = [p for p in expected if made[p] != expected[p]]
    assert not differing, (differing[0], made[differing[0]][:4000], expected[differing[0]][:4000])


def test_the_sample_player_pages_are_the_pages_line_by_line(published) -> None:
    """Every player page of the published sample (pairs, teams, an individual, an event of
    several sessions, a hostile name), both ways."""
    snapshot, sessions, folders = published
    made, expected = both(snapshot.standings, snapshot, sessions, folders)
    assert made == expected
    pages = [p for p in made if p.startswith("players/") and p.endswith(".html")]
    assert len(pages) > 20
    assert any('class="total"' in made[p] for p in pages)  # an event's total line
    assert any("<circle" in made[p] for p in pages)  # a chart with its dots


def test_a_player_line_is_escaped_and_linked(published, tmp_path: Path) -> None:
    """A line's texts are escaped once (a title with ``&`` and ``<``), its link names the
    session's scorecard, a shared place prints as the profile says."""
    snapshot, sessions, folders = published
    first = snapshot.standings.filter(pl.col("scope") == "session").row(0, named=True)
    standings = snapshot.standings.with_columns(
        pl.when(
            (pl.col("event_id") == first["event_id"]) & (pl.col("scope") == "session")
            & (pl.col("contestant") == first["contestant"])
        )
        .then(pl.lit("Quinn <Q> & Roe's"))
        .otherwise(pl.col("names")).alias("names")
    )  # fmt: skip
    titled = [{**s, "name": "R&D <Cup>"} for s in sessions]
    made, expected = both(standings, snapshot, titled, folders)
    assert made == expected
    page = next(v for k, v in made.items() if k.endswith("Quinn-Q.html"))
    assert "R&amp;D &lt;Cup&gt;" in page and "<Cup>" not in page
    assert "Roe&#39;s" in page
    assert '<a href="../events/' in page and "/card-" in page


def test_a_shared_place_spans_the_places_the_tied_contestants_share(published) -> None:
    """Every line of one ranking tied first under a profile that prints a shared place as
    the places it spans (``display.tied_place = "range"``): ``1-N`` for its N lines."""
    snapshot, sessions, folders = published
    first = snapshot.standings.filter(pl.col("scope") == "session").row(0, named=True)
    ranking = ["event_id", "scope", "session", "section", "direction"]
    same = pl.all_horizontal(
        pl.col(c).eq_missing(pl.lit(first[c], dtype=snapshot.standings.schema[c])) for c in ranking
    )
    n = snapshot.standings.filter(same).height
    standings = snapshot.standings.with_columns(
        pl.when(same).then(pl.lit(1, dtype=snapshot.standings.schema["rank"]))
        .otherwise(pl.col("rank")).alias("rank"),
        pl.when(same).then(pl.lit(True)).otherwise(pl.col("tied")).alias("tied"),
        pl.when(same).then(pl.lit("acbl")).otherwise(pl.col("profile")).alias("profile"),
        pl.when(same).then(pl.lit(None, pl.Utf8)).otherwise(pl.col("sanction")).alias("sanction"),
    )  # fmt: skip
    made, expected = both(standings, snapshot, sessions, folders)
    assert made == expected
    assert n > 1
    assert any(f"<td>1-{n} <span" in page for page in made.values())
