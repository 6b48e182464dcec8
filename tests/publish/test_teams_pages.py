"""Team pages from the IMP forms' ``matches`` table: match results on the session page, the
VP table and the knockout bracket on the event page, IMP columns on travellers — shown when
the warehouse has them (here added to the published sample by hand)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import polars as pl

from pipelines.publish.data import load
from pipelines.publish.site import board_name, session_dir, write_site
from pipelines.publish.teams import bracket, vp_table
from tests.publish.conftest import Sample

MATCHES = pl.DataFrame(
    {
        "event_id": ["CLUB1-2026-11-02"] * 4 + ["CLUB3-2026-11-02"] * 3,
        "session": [1, 1, 2, 2, 1, 2, 2],
        "round": [1, 1, 2, 2, 1, 1, 2],
        "match_id": ["m1", "m2", "m3", "m4", "qf1", "qf1", "sf1"],
        "stage": ["round_robin"] * 4 + ["knockout"] * 3,
        "home": ["1", "3", "1", "2", "1", "1", "1"],
        "away": ["2", "4", "3", "4", "2", "2", "3"],
        "home_imps": [31.0, 12.0, 20.0, 5.0, 40.0, 22.0, 30.0],
        "away_imps": [12.0, 30.0, 20.0, 25.0, 10.0, 35.0, 31.0],
        "home_net": [31.0, 12.0, 20.0, 5.0, 40.0, 22.0, 30.0],
        "away_net": [12.0, 30.0, 20.0, 25.0, 10.0, 35.0, 31.0],
        "home_carry_over": [None, None, None, None, 3.0, None, None],
        "away_carry_over": [None, None, None, None, 0.0, None, None],
        "home_vp": [14.5, 5.6, 10.0, 4.1, None, None, None],
        "away_vp": [5.5, 14.4, 10.0, 15.9, None, None, None],
        "winner": ["1", "4", None, "4", "1", "1", "3"],
    }
)


def visible(page: Path) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.read_text())).split())


def test_vp_table_and_bracket():
    vp = vp_table(MATCHES.filter(pl.col("stage") == "round_robin"), {("", "1"): "Team One"})
    assert vp is not None and vp["rounds"] == ["Round 1", "Round 2"]
    first = vp["rows"][0]
    assert (first["team"], first["total"]) == ("4", "30.30")
    assert first["cells"] == ["14.40 v 3", "15.90 v 2"]
    assert [r["names"] for r in vp["rows"] if r["team"] == "1"] == ["Team One"]
    b = bracket(MATCHES, {})
    assert [r["round"] for r in b] == [1, 2]
    qf = b[0]["matches"][0]
    assert (qf["home_total"], qf["away_total"], qf["segments"], qf["winner"]) == (
        "65.00",
        "45.00",
        2,
        "1",
    )


def test_team_pages_are_rendered_when_the_warehouse_has_matches(sample: Sample, tmp_path: Path):
    data = load(sample.warehouse)
    data.extra["matches"] = MATCHES
    imps = pl.when(pl.col("event_id") == "CLUB1-2026-11-02").then(pl.col("ns_mp") - 7.0)
    data.results = data.results.with_columns(imps.alias("ns_imps"), (-imps).alias("ew_imps"))
    site = tmp_path / "site"
    write_site(data, site)
    event = visible(site / "events" / "CLUB1-2026-11-02" / "index.html")
    assert "VP table" in event and "4 14.40 v 3 15.90 v 2 30.30" in event
    ko = visible(site / "events" / "CLUB3-2026-11-02" / "index.html")
    assert "Knockout bracket" in ko and "1 65.00 v 2 45.00 (2 segments; winner 1)" in ko
    ranking = visible(site / session_dir("CLUB1-2026-11-02", 1) / "index.html")
    assert "Match results" in ranking and "31.00 – 12.00" in ranking and "14.50 – 5.50" in ranking
    trav = visible(site / session_dir("CLUB1-2026-11-02", 1) / board_name("A", 1))
    assert "IMP NS IMP EW" in trav
    other = visible(site / session_dir("CLUB2-2026-11-02", 1) / board_name("A", 1))
    assert "IMP NS" not in other and "MP NS MP EW" in other


def q(sample: Sample, sql: str) -> list[dict]:
    import duckdb

    with duckdb.connect(str(sample.warehouse), read_only=True) as c:
        return c.sql(sql).pl().to_dicts()


def _f(v: float) -> str:
    return f"{v:.2f}".replace("-", "−")


def test_sample_team_events_show_matches_vp_table_and_bracket(sample: Sample):
    matches = q(sample, "SELECT * FROM matches ORDER BY ALL")
    assert {m["stage"] for m in matches} >= {"round_robin", "swiss", "knockout"}
    for m in matches:
        page = visible(sample.site / session_dir(m["event_id"], m["session"]) / "index.html")
        assert "Match results" in page
        assert f"{_f(m['home_imps'])} – {_f(m['away_imps'])}" in page
        if m["home_vp"] is not None:
            assert f"{_f(m['home_vp'])} – {_f(m['away_vp'])}" in page
    for e in {m["event_id"] for m in matches}:
        page = visible(sample.site / "events" / e / "index.html")
        stage = {m["stage"] for m in matches if m["event_id"] == e}
        if "knockout" in stage:
            assert "Knockout bracket" in page
        else:
            assert "VP table" in page and "Total VP" in page
            totals = q(
                sample,
                f"""SELECT team, sum(vp) vp FROM (
                        SELECT home team, home_vp vp FROM matches WHERE event_id = '{e}'
                        UNION ALL SELECT away, away_vp FROM matches WHERE event_id = '{e}')
                    GROUP BY team""",
            )
            for t in totals:
                assert f"{t['team']} " in page and _f(t["vp"]) in page


def test_sample_imp_travellers_and_units(sample: Sample):
    butler = q(
        sample,
        "SELECT event_id, session, section, board, datum, ns_pair, ew_pair, ns_imps_display "
        "FROM scored_results WHERE scoring = 'butler' ORDER BY ALL LIMIT 1",
    )[0]
    page = visible(
        sample.site
        / session_dir(butler["event_id"], butler["session"])
        / board_name(butler["section"], butler["board"])
    )
    assert f"datum {butler['datum']}" in page and "IMP NS IMP EW" in page
    assert "MP NS MP EW" not in page
    names = {
        (r["contestant"], r["direction"]): r["names"]
        for r in q(
            sample,
            f"SELECT contestant, coalesce(direction, '') direction, names FROM standings "
            f"WHERE scope = 'session' AND event_id = '{butler['event_id']}' "
            f"AND session = {butler['session']} AND section = '{butler['section']}'",
        )
    }

    def cell(pair: str, direction: str) -> str:
        """A pair's traveller cell: its number, then its names."""
        shown = names.get((pair, direction)) or names.get((pair, "")) or ""
        return f"{pair} {' '.join(shown.split())}".strip()

    assert f"{cell(butler['ns_pair'], 'NS')} {cell(butler['ew_pair'], 'EW')} " in page
    assert _f(butler["ns_imps_display"]) in page
    units = q(
        sample,
        "SELECT DISTINCT event_id, session, unit FROM standings WHERE scope = 'session' "
        "AND status <> 'superseded'",
    )
    assert {u["unit"] for u in units} >= {"MP", "IMP", "VP"}
    for u in units:
        page = visible(sample.site / session_dir(u["event_id"], u["session"]) / "index.html")
        assert f"Score ({u['unit']})" in page


def test_teams_of_two_sections_are_two_teams_in_the_vp_table_and_the_match_results():
    """Team 1 of section A and team 1 of section B (two flights of one event, numbered from 1
    each) are two teams: each keeps its own VPs, opponents and names, listed with its
    section. (The VP table added their VPs together under one "1", and a match showed the
    names of either.)"""
    from pipelines.publish.teams import match_rows

    two = pl.DataFrame(
        {
            "event_id": ["E"] * 2,
            "session": [1, 1],
            "section": ["A", "B"],
            "round": [1, 1],
            "match_id": ["E/1/A/R1/1-2", "E/1/B/R1/1-2"],
            "stage": ["round_robin"] * 2,
            "home": ["1", "1"],
            "away": ["2", "2"],
            "home_imps": [31.0, 2.0],
            "away_imps": [12.0, 20.0],
            "home_net": [31.0, 2.0],
            "away_net": [12.0, 20.0],
            "home_vp": [16.2, 4.9],
            "away_vp": [3.8, 15.1],
            "winner": ["1", "2"],
        }
    )
    names = {("A", "1"): "Ann & Al", ("B", "1"): "Bea & Bo", ("A", "2"): "Cy", ("B", "2"): "Di"}
    vp = vp_table(two, names)
    assert vp is not None
    assert [(r["team"], r["names"], r["total"], r["cells"]) for r in vp["rows"]] == [
        ("1, section A", "Ann & Al", "16.20", ["16.20 v 2"]),
        ("2, section A", "Cy", "3.80", ["3.80 v 1"]),
        ("2, section B", "Di", "15.10", ["15.10 v 1"]),
        ("1, section B", "Bea & Bo", "4.90", ["4.90 v 2"]),
    ]
    rows = match_rows(two, names)
    assert [(m["home_names"], m["away_names"]) for m in rows] == [
        ("Ann & Al", "Cy"),
        ("Bea & Bo", "Di"),
    ]


def test_a_knockout_match_of_two_segments_is_one_line_of_the_bracket(tmp_path: Path):
    """A knockout match played over two sessions (segments), scored by the pipeline — each
    segment its own ``match_id`` — is one match of the bracket, with each team's IMPs over
    both segments and the winner after the last: T1 6 + 6 = 12 against T2 12 + 12 = 24, T2
    wins; T3 24 against T4 0. (Each segment was a match of its own, and the second showed
    the first's margin added to its own IMPs: T1 0.00 v T2 18.00.)"""
    from tests.test_teams import RESULTS, knockout_matches

    ms = knockout_matches(tmp_path, RESULTS.splitlines(keepends=True)[1:])
    assert ms["match_id"].n_unique() == 4  # two matches, two segments each
    b = bracket(ms, {("A", "T2"): "Bea & Bo"})
    assert [r["round"] for r in b] == [1]
    got = [
        (m["home"], m["home_total"], m["away"], m["away_total"], m["segments"], m["winner"])
        for m in b[0]["matches"]
    ]
    assert got == [("T1", "12.00", "T2", "24.00", 2, "T2"), ("T3", "24.00", "T4", "0.00", 2, "T3")]
    assert b[0]["matches"][0]["away_names"] == "Bea & Bo"


def test_the_vp_table_takes_off_vp_penalties_and_follows_the_event_ranking(tmp_path: Path):
    """A VP penalty (Law 90) comes off the team's total in the VP table as in its standing,
    and the table lists the teams in the ranking's order: T3 won its match by 12 IMPs (the
    most VPs of the round) and was given a 10 VP penalty, which puts it third. (The table
    added the matches' VPs only: T3 first, above a ranking that put it third.)"""
    import duckdb

    from pipelines.runner import run_inbox
    from tests.test_laws_teams_penalties import RESULTS, RULING_HEADER

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS)
    (inbox / "events.csv").write_text(
        "event_id,session,date,name,form,scoring,boards_per_match,vp_scale,stage\n"
        "E,1,2026-11-20,Teams League,teams,imps,2,wbf2013,round_robin\n"
    )
    (inbox / "rulings.csv").write_text(
        RULING_HEADER.rstrip("\n") + ",called_at,ruled_at\nP1,E,1,1,procedural_penalty,NS,T3,10 VP,"
        "2026-11-20 20:00,2026-11-20 20:05\n"
    )
    out, wh = tmp_path / "out", tmp_path / "wh" / "w.duckdb"
    report = run_inbox(inbox, wh, publish_to=out)
    assert report.failed_checks == [] and report.held_events == []
    page = (out / "site" / "events" / "E" / "index.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="vp">') :]
    table = table[: table.index("</table>")]
    assert "VP penalty" in table
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', table)
    got = {team: re.findall(r'<td class="num">([^<]*)</td>', cells) for team, cells in rows}
    vp = {team: float(cells[0].split(" v ")[0]) for team, cells in got.items()}
    assert max(vp, key=vp.get) == "T3"  # the most VPs at the table
    assert got["T3"][1:] == ["\u221210.00", f"{vp['T3'] - 10:.2f}"]
    assert all(got[t][1:] == ["", f"{vp[t]:.2f}"] for t in ("T1", "T2", "T4"))
    with duckdb.connect(str(wh), read_only=True) as c:
        ranked = c.sql(
            "SELECT contestant, score FROM standings WHERE scope = 'event' "
            "AND status <> 'superseded' ORDER BY rank, contestant"
        ).fetchall()
    assert [team for team, _ in rows] == [team for team, _ in ranked]
    assert [team for team, _ in ranked][2] == "T3"
    assert {team: f"{score:.2f}" for team, score in ranked} == {t: c[-1] for t, c in got.items()}
