"""Player pages (:mod:`pipelines.publish.players`): one page per player across the season,
pairs matched across events by their members (never by pair number), every event with the
partner, the place in its field and the percentage the standings hold, team and individual
events too; the player index (static JSON) and its page; names with markup kept as text;
no membership number — nor anything made of one — anywhere."""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import re

import duckdb
import polars as pl
from markupsafe import escape

from pipelines.publish.common import Decimals
from pipelines.publish.players import chart, identities, page_names, with_member_keys
from tests.publish.conftest import HOSTILE, Sample


def q(sample: Sample, sql: str) -> list[dict]:
    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(sql).pl().to_dicts()


def visible(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def index(sample: Sample) -> list[dict]:
    return json.loads((sample.site / "players" / "index.json").read_text("utf-8"))["players"]


def page_of(sample: Sample, name: str) -> str:
    hits = [p for p in index(sample) if p["name"] == name]
    assert len(hits) == 1, (name, hits)
    return (sample.site / "players" / hits[0]["href"]).read_text("utf-8")


#: Each player named by a contestant, with the membership number the file gave (position i of
#: the names holds number i), the event, the contestant's standing and the other names.
PLAYER_LINES = """
WITH p AS (
    SELECT event_id, contestant, direction, names,
           unnest(string_split(names, ' & ')) AS player,
           unnest(string_split(player_ids, ';')) AS id
    FROM contestants WHERE player_ids IS NOT NULL
), s AS (
    SELECT *, count(*) OVER (PARTITION BY event_id, session, section, direction) AS field
    FROM standings WHERE scope = 'session' AND status NOT IN ('superseded', 'held')
)
SELECT p.id, p.player, p.names, s.event_id, s.session, s.rank, s.tied,
       s.percentage_display, s.score_display, s.unit, s.profile, s.field
FROM p JOIN s
  ON s.event_id = p.event_id AND s.contestant = p.contestant AND s.names = p.names
 AND coalesce(s.direction, '') = coalesce(p.direction, '')
"""


def test_a_pair_is_matched_across_events_by_its_members(sample: Sample):
    """A player who played two events with different partners (and pair numbers) has one
    page listing both, each with that event's partner, place of the field and percentage."""
    lines = pl.DataFrame(q(sample, PLAYER_LINES))
    movers = (
        lines.group_by("id")
        .agg(pl.col("event_id").n_unique().alias("events"), pl.col("names").n_unique())
        .filter((pl.col("events") >= 2) & (pl.col("names") >= 2))
        .sort("id")
    )
    assert movers.height >= 5  # players who changed partner between evenings
    for member in movers.head(5)["id"]:
        mine = lines.filter(pl.col("id") == member).sort("event_id", "session")
        name = mine["player"][0]
        page = visible(page_of(sample, name))
        assert page.count(" with ") >= mine.height
        for r in mine.to_dicts():
            partner = " & ".join(n for n in r["names"].split(" & ") if n != name)
            dec = Decimals.of(r["profile"])
            shared = {"trailing_equals": f"{r['rank']}=", "leading_equals": f"={r['rank']}"}
            place = shared.get(dec.tied_place, str(r["rank"])) if r["tied"] else str(r["rank"])
            place += f" of {r['field']}"
            pct = f"{r['percentage_display']:.{dec.pct}f} %"
            assert f"with {partner} {place} {pct}" in page, (name, r)


def test_team_members_and_individual_players_have_their_lines(sample: Sample):
    lines = pl.DataFrame(q(sample, PLAYER_LINES))
    teams = lines.filter(pl.col("event_id").str.starts_with("TEAMS")).sort("id")
    r = teams.row(0, named=True)
    page = visible(page_of(sample, r["player"]))
    mates = " & ".join(n for n in r["names"].split(" & ") if n != r["player"])
    dec = Decimals.of(r["profile"])
    assert f"with {mates} {r['rank']}" in page
    assert f"{r['score_display']:.{dec.total}f} {r['unit']}" in page  # VPs, no percentage
    solo = lines.filter(pl.col("event_id").str.starts_with("IND")).sort("id").row(0, named=True)
    page = page_of(sample, solo["player"])
    row = re.search(r"<tr>\s*<td>[^<]*</td>\s*<th scope=\"row\">(.*?)</th>", page, re.S)
    assert row and " with " not in row.group(1)  # partners change every round
    assert f"{solo['percentage_display']:.{Decimals.of(solo['profile']).pct}f} %" in page


def test_the_index_lists_every_player_once_with_a_page(sample: Sample):
    players = index(sample)
    named = {
        n.strip()
        for r in q(sample, "SELECT DISTINCT names FROM standings WHERE names IS NOT NULL")
        for n in r["names"].split(" & ")
    }
    assert {p["name"] for p in players} == named
    hrefs = [p["href"] for p in players]
    assert len(set(hrefs)) == len(hrefs) and all(re.fullmatch(r"[\w-]+\.html", h) for h in hrefs)
    assert all((sample.site / "players" / h).is_file() for h in hrefs)
    listing = (sample.site / "players" / "index.html").read_text("utf-8")
    assert all(f'href="{h}"' in listing for h in hrefs)


def test_a_name_with_markup_stays_text_on_its_page_and_in_the_index(sample: Sample):
    players = [p.strip() for p in HOSTILE.split(" & ")]  # '<script>...' and '<b>Bold</b>'
    by_name = {p["name"]: p for p in index(sample)}
    for name in players:
        assert name in by_name  # the JSON holds the name as data, decoded exactly
        page = (sample.site / "players" / by_name[name]["href"]).read_text("utf-8")
        assert str(escape(name)) in page
        assert "<b>" not in page and "<script>alert" not in page
        assert name in visible(page)


def test_no_membership_number_nor_a_hash_of_one_is_published(sample: Sample):
    ids = {
        i
        for r in q(sample, "SELECT player_ids FROM contestants WHERE player_ids IS NOT NULL")
        for i in r["player_ids"].split(";")
    }
    hashes = {hashlib.md5(i.encode()).hexdigest() for i in ids}
    pattern = re.compile("|".join(re.escape(x) for x in sorted(ids | hashes)))
    searched = 0
    for path in sample.out.rglob("*"):  # pages, index, exports, manifests
        if path.is_file() and path.suffix not in (".parquet", ".png"):
            searched += 1
            text = path.read_text("utf-8", errors="replace")
            assert not pattern.search(text), path
    assert searched > 500


def test_one_membership_number_is_one_player_whatever_the_spelling():
    lines = pl.DataFrame(
        {
            "player": ["Ann Lee", "ann  lee", "Ann Lee", "Ann Lee", "Ann Lee", "Bo Ek", "Bo Ek"],
            "club": ["Velmoor", "Quendry", "Velmoor", "Quendry", "Quendry", "Velmoor", "Ashtarn"],
            "member_key": ["k1", "k1", None, "k2", None, None, None],
        }
    )
    got = identities(lines)["identity"].to_list()
    # the same number is one player at any club and in any spelling; a line without number
    # is the only numbered player of that name and club (Velmoor: k1; Quendry has k1 and k2:
    # not told which, so a player of its own); without numbers, name and club decide
    assert got[:4] == ["k1", "k1", "k1", "k2"]
    assert got[4] not in ("k1", "k2") and got[5] != got[6]
    names = page_names(
        pl.DataFrame(
            {
                "identity": ["a", "b", "c", "d"],
                "name": ["Ann Lee", "Ann Lee", "Ann Lee", "Bo Ek"],
                "club": ["Velmoor", "Quendry", "Quendry", "Velmoor"],
                "first": ["2026-11-02", "2026-11-02", "2026-11-03", "2026-11-02"],
            }
        )
    )
    assert names == {
        "a": "Ann-Lee-Velmoor",
        "b": "Ann-Lee-Quendry",
        "c": "Ann-Lee-Quendry-2",  # the second of that name and club, by when they first played
        "d": "Bo-Ek",
    }


def test_the_chart_has_whole_percentages_and_dates_that_do_not_overlap():
    points = [
        {"date": f"2026-{m:02d}-{d:02d}", "pct": 40 + (d % 23), "pct_text": ""}
        for m in (9, 10, 11)
        for d in range(1, 29, 3)
    ]
    c = chart(points)
    assert c is not None and c["sessions"] == len(points)
    assert [g["label"] for g in c["grid"]] == ["30", "40", "50", "60", "70"]
    assert [g["average"] for g in c["grid"]].count(True) == 1  # the 50 % line
    xs = [d["x"] for d in c["dates"]]
    assert len(xs) >= 3 and all(b - a >= 60 for a, b in itertools.pairwise(xs))
    assert chart([{"date": "2026-11-02", "pct": None, "pct_text": ""}]) is None


def test_a_howell_pair_listed_with_its_starting_direction_keeps_its_membership_keys():
    """A one-winner Mitchell's list gives each pair its direction (1NS: NS); the standing of
    a Howell has none, and the list's row still names its players."""
    lines = pl.DataFrame(
        {
            "event_id": ["E", "E", "F"],
            "scope": ["session"] * 3,
            "session": [1, 1, 1],
            "section": ["", "", ""],
            "contestant": ["1NS", "1NS", "1"],
            "direction": [None, None, "EW"],
            "names": ["A & B", "A & B", "C & D"],
            "position": [1, 2, 1],
        }
    )
    keys = pl.DataFrame(
        {
            "event_id": ["E", "E", "F"],
            "contestant": ["1NS", "1NS", "1"],
            "direction": ["NS", "NS", "NS"],
            "section": [None, None, None],
            "names": ["A & B", "A & B", "C & D"],
            "position": [1, 2, 1],
            "member_key": ["ka", "kb", "kc"],
        }
    )
    got = with_member_keys(lines, keys)["member_key"].to_list()
    # a Mitchell's EW 1 is not the NS 1 the list names
    assert got == ["ka", "kb", None]
