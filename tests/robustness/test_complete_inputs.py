"""Complete sessions are never held; short ones of every form and format are.

The rules of :mod:`pipelines.scoring.completeness` run here on what the readers give, without
a whole run (``test_incomplete_sessions.py`` runs the pipeline on the planted faults):

* nothing is found in the generated inboxes (Howell and Mitchell pairs with missing results,
  two-session and two-section events, a round robin, a Swiss and a knockout at teams, Butler
  and cross-IMP pairs, an individual: ``traveller generate``, several seeds), in the bundled
  sample, nor in the real club files of ``../shared/realdata`` (a Howell whose phantom pair
  makes a sit-out every round, a Howell short of one result, teams with a match missing a
  record); no result of theirs names a contestant their lists do not know;
* the boards a file states are read as the event's: the Bridgemate file's ``RoundData``
  (boards 1-22, SOURCES.md) and the Magic Contest file's ``BoardCountSession`` (30);
* planted in a generated inbox: one match of a Swiss round removed (8 teams, an even number:
  no bye), one table of an individual's round removed (12 players: three full tables), a PBN
  stating 30 boards that holds 17 — each found, named and located.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.profiles import ProfileSet
from pipelines.scoring.completeness import shortfalls, unknown_contestants
from pipelines.scoring.validate import validate_results
from pipelines.synth.inbox import generate_inbox
from tests.conftest import REALDATA, ROOT, shared_file

LISTS = ("contestants_csv", "usebio", "pbn")


def _findings(inbox: Path) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``(findings, results naming an unknown contestant, events)`` of an inbox's sessions."""
    snap = scan(inbox)
    validated, rejected = validate_results(snap.results, snap.events)
    assert rejected.height == 0, rejected
    listed = snap.contestants.join(
        snap.files.filter(pl.col("format").is_in(LISTS)).select("file"), on="file"
    )
    _, unknown = unknown_contestants(validated, listed)
    found = shortfalls(validated, snap.events, ProfileSet.of_events(snap.events))
    return found, unknown, snap.events


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_generated_inboxes_are_complete(tmp_path: Path, seed: int):
    generate_inbox(tmp_path / "inbox", sessions=8, clubs=4, seed=seed)
    found, unknown, events = _findings(tmp_path / "inbox")
    assert found.height == 0, found.to_dicts()
    assert unknown.height == 0, unknown.to_dicts()
    # the forms the rules must not trip on are all there
    assert {"pairs", "teams", "individual"} <= set(events["form"].to_list())
    assert {"howell", "mitchell"} <= set(events["movement"].to_list())


def test_the_bundled_sample_is_complete():
    found, unknown, _ = _findings(ROOT / "pipelines" / "sample" / "inbox")
    assert found.height == 0 and unknown.height == 0


def test_the_real_files_are_complete_and_state_their_boards(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for f in sorted(shared_file(REALDATA).iterdir()):
        if f.suffix in (".xml", ".pbn", ".bws"):
            shutil.copy(f, inbox / f.name)
    found, unknown, events = _findings(inbox)
    assert found.height == 0, found.to_dicts()
    assert unknown.height == 0, unknown.to_dicts()
    stated = dict(events.filter(pl.col("boards").is_not_null()).select("file", "boards").rows())
    assert stated == {
        "bridgemate_bcs_jet3_howell_15p_22b_erased_result.bws": 22,
        "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn": 30,
    }


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    inbox = tmp_path_factory.mktemp("gen") / "inbox"
    generate_inbox(inbox, sessions=6, clubs=3, seed=2026)
    return inbox


def _without(inbox: Path, tmp: Path, event_prefix: str, pick) -> tuple[Path, list[str]]:
    """A copy of ``inbox`` whose results of the event ``event_prefix*`` lose the lines
    ``pick(lines)`` chooses (header kept); the lines removed."""
    copy = tmp / "inbox"
    shutil.copytree(inbox, copy)
    for path in sorted(copy.glob("results-*.csv")):
        lines = path.read_text().splitlines()
        ours = [line for line in lines[1:] if line.startswith(event_prefix)]
        if ours:
            gone = pick(lines[0].split(","), ours)
            path.write_text("\n".join(line for line in lines if line not in gone) + "\n")
            return copy, gone
    raise AssertionError(f"no results of {event_prefix}")


def test_a_swiss_round_missing_a_match_is_found(generated: Path, tmp_path: Path):
    def one_match(header, lines):
        col = {c: i for i, c in enumerate(header)}
        first = lines[0].split(",")
        rnd, teams = first[col["round"]], {first[col["ns_pair"]], first[col["ew_pair"]]}
        return [
            line
            for line in lines
            if line.split(",")[col["round"]] == rnd
            and {line.split(",")[col["ns_pair"]], line.split(",")[col["ew_pair"]]} == teams
        ]

    inbox, gone = _without(generated, tmp_path, "SWISS", one_match)
    found, _, _ = _findings(inbox)
    [row] = found.to_dicts()
    first = gone[0].split(",")
    a, b = sorted([first[6], first[7]])
    assert (row["field"], row["location"]) == ("round", f"section A round {first[3]}")
    assert row["reason"].startswith(
        f"round {first[3]} of section A: team {a}, team {b} have no result, where the movement "
        "of its 8 teams (8 fill 4 matches: no sit-out) seats every team each round"
    )


def test_an_individual_round_missing_a_table_is_found(generated: Path, tmp_path: Path):
    def one_table(header, lines):
        col = {c: i for i, c in enumerate(header)}
        first = lines[0].split(",")
        return [
            line
            for line in lines
            if line.split(",")[col["round"]] == first[col["round"]]
            and line.split(",")[col["table"]] == first[col["table"]]
        ]

    inbox, gone = _without(generated, tmp_path, "IND", one_table)
    found, _, _ = _findings(inbox)
    # (a board the generator left short of a result may now be mostly missing too)
    [row] = found.filter(pl.col("field") == "round").to_dicts()
    players = sorted(gone[0].split(",")[6:10], key=lambda p: int(p[1:]))
    assert row["field"] == "round"
    assert row["reason"].startswith(
        f"round {gone[0].split(',')[3]} of section A: "
        + ", ".join(f"player {p}" for p in players)
        + " have no result, where the movement of its 12 players (12 fill 3 tables: no sit-out) "
        "seats every player each round"
    )


def test_a_pbn_stating_30_boards_with_17_is_found(tmp_path: Path):
    def record(board: int) -> str:
        table = "".join(f' {t}  1 {2 * t - 1} {2 * t} Pass - - "0" - 1.0 1.0\n' for t in (1, 2))
        return (
            f'[Event "Club"]\n[Date "2024.03.05"]\n[Board "{board}"]\n'
            '[ScoreTable "Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\3L;'
            'Declarer\\1R;Result\\2R;Score_NS\\6R;Score_EW\\6R;MP_NS\\4R;MP_EW\\4R"]\n'
            f"{table}\n"
        )

    text = (
        "% PBN 2.0\n"
        '% <META  name=Generator                  content="Magic Contest France">\n'
        '% <META  name=BoardCountSession          content="30">\n\n'
        + "".join(record(b) for b in range(1, 18))
    )
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "club.pbn").write_text(text)
    found, _, events = _findings(inbox)
    assert events["boards"].to_list() == [30]
    [row] = found.to_dicts()
    assert (row["file"], row["location"], row["field"]) == ("club.pbn", "header", "boards")
    assert row["reason"].startswith(
        "the session has results on 17 board(s) (1-17) where the event states 30: boards "
        "18-30 have no result"
    )


def test_real_files_cut_at_a_line_end_are_found_short(tmp_path: Path):
    """The Magic Contest file (30 boards, its BoardCountSession) cut at the line end closest
    to its middle: the boards after the cut are found missing, the board cut in two (if it
    is short of half its results) too; the Compscore USEBIO file cut the same way is no
    longer XML and is refused whole. Nothing is published from either."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    ffb = shared_file(REALDATA / "ffb_magic_contest_mp_pairs_44p_30b_adjusted.pbn").read_bytes()
    lines = ffb.split(b"\n")
    (inbox / "cut.pbn").write_bytes(b"\n".join(lines[: len(lines) // 2]) + b"\n")
    xml = shared_file(REALDATA / "compscore_usebio_mp_howell_12p.xml").read_bytes().split(b"\n")
    (inbox / "cut.xml").write_bytes(b"\n".join(xml[: len(xml) // 2]) + b"\n")
    snap = scan(inbox)
    [(field, reason)] = snap.rejected.select("field", "reason").rows()
    assert field == "file" and reason.startswith("the XML is malformed at line")
    validated, _ = validate_results(snap.results, snap.events)
    found = shortfalls(validated, snap.events).filter(pl.col("field") == "boards")
    [row] = found.to_dicts()
    assert (row["file"], row["location"]) == ("cut.pbn", "header")
    played = validated["board"].n_unique()
    assert 0 < played < 30
    assert row["reason"].startswith(
        f"the session has results on {played} board(s) (1-{played}) where the event states 30: "
        f"boards {played + 1}-30 have no result"
    )
