"""What a file claims is never trusted to size anything; megabytes of garbage cost their size.

Planted in one folder, beside the good event OK1 of ``conftest.RESULTS``, and checked by
``traveller validate`` (the night's own stages and checks) in a child process whose peak
memory (resident set) and time are measured:

* claims, each in a file of a few kilobytes: a PBN whose ``BoardCountSession`` says
  999,999,999 boards (it holds 17), an ``events.csv`` giving a 4-team round robin a
  ``boards_per_match`` of 100,000,000 (the WBF scale would be computed up to a 150,000-IMP
  margin) and a Howell ``boards`` 2,000,000,000; each held with its reason, read at its real
  size;
* garbage, 16 MB each: random bytes; a results header over lines that are no rows; a results
  header over rows of the right shape holding no board number; a PBN tag over lines that
  are no records; a USEBIO root over text; a USEBIO root over 3 million empty elements. Each
  refused as a whole with what it is, never rejected line by line.

Expected: every claim and every garbage file named with its reason, OK1 reported with no
problem (it would be published Final), the whole in well under a minute and within a few
times the garbage's size of the memory the same command takes on OK1 alone. (The
``.bws`` claims — a ``RoundData`` seat of two billion boards, an ``mdb-export`` that prints
without end — are tested on the reader: ``::test_a_bws_movement_claiming_two_billion_boards``
and ``::test_an_export_printing_without_end_is_cut_off``.)

Each fault kind, the ``.bws`` ones too (mdbtools stood in for on ``PATH``), is also run by
``traveller run`` beside OK1, at a size a test affords: the garbage and the endless export
refused whole, one located line each, exit 3
(``::test_garbage_and_an_endless_export_are_refused_by_the_run``); the claims held with their
reasons on the command line, every result of them scored, exit 4
(``::test_each_claim_is_held_by_the_run``); OK1 Final in both."""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from pipelines.cli import EXIT_BLOCKED, EXIT_REJECTED
from pipelines.formats import bws
from pipelines.scoring.completeness import shortfalls
from pipelines.scoring.events import resolve_events, with_defaults
from pipelines.scoring.validate import validate_results
from pipelines.synth.pairs import howell_schedule
from tests.conftest import ROOT
from tests.formats.test_bws import entry, tables
from tests.robustness.conftest import (
    HEADER,
    NOW,
    RESULTS,
    published,
    rows,
    status,
    traveller_run,
)

MB = 1 << 20
GARBAGE = 16 * MB
DAY = "2026-11-21"

#: Run ``traveller validate`` on the folder given and print, last, the process's peak
#: resident memory (MB) and its exit status as JSON.
CHILD = """
import json, resource, sys
from pipelines.cli import app
try:
    app(["validate", sys.argv[1]])
    code = 0
except SystemExit as e:
    code = e.code
print(json.dumps({"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                  "exit": code}))
"""


def _validate(folder: Path) -> tuple[dict, str, float]:
    """``(peak memory and exit status, output, seconds)`` of ``traveller validate folder``."""
    env = {**os.environ, "TRAVELLER_NOW": NOW, "PYTHONPATH": str(ROOT)}
    t = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(folder)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    seconds = time.monotonic() - t
    *lines, last = done.stdout.strip().splitlines()
    return json.loads(last), "\n".join(lines) + done.stderr, seconds


def _lines_of_text(rng: random.Random, size: int) -> bytes:
    block = "".join(
        "".join(rng.choices(string.ascii_letters + " ;:", k=79)) + "\n" for _ in range(2000)
    ).encode()
    return block * (size // len(block) + 1)


def _pbn(boards: int, stated: int) -> str:
    """A Magic Contest PBN of ``boards`` boards (2 tables passed out each) stating
    ``stated`` boards in the session."""
    header = (
        '[ScoreTable "Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\3L;'
        'Declarer\\1R;Result\\2R;Score_NS\\6R;Score_EW\\6R;MP_NS\\4R;MP_EW\\4R"]\n'
    )
    rows = "".join(f' {t}  1 {2 * t - 1} {2 * t} Pass - - "0" - 1.0 1.0\n' for t in (1, 2))
    return (
        "% PBN 2.0\n"
        '% <META  name=Generator                  content="Magic Contest France">\n'
        f'% <META  name=BoardCountSession          content="{stated}">\n\n'
        + "".join(
            f'[Event "CLAIM1"]\n[Date "2026.11.21"]\n[Board "{b}"]\n{header}{rows}\n'
            for b in range(1, boards + 1)
        )
    )


def _teams() -> str:
    """A 4-team round robin, 3 rounds of 4 boards, each match at two tables."""
    rounds = [[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 4), (2, 3)]]
    lines = []
    for rnd, pairs in enumerate(rounds, start=1):
        for k, (a, b) in enumerate(pairs):
            for board in range(1, 5):
                lines.append(f"CLAIM2,1,A,{rnd},{2 * k + 1},{board},T{a},T{b},3NT,S,9,")
                lines.append(f"CLAIM2,1,A,{rnd},{2 * k + 2},{board},T{b},T{a},3NT,S,8,")
    return HEADER + "\n" + "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    base = tmp_path_factory.mktemp("sizes")
    alone, folder = base / "alone", base / "inbox"
    for d in (alone, folder):
        d.mkdir()
        (d / f"results-{DAY}-ok1.csv").write_text(RESULTS.format(e="OK1"))
    rng = random.Random(13)
    (folder / "random.csv").write_bytes(rng.randbytes(GARBAGE))
    text = _lines_of_text(rng, GARBAGE)
    (folder / f"results-{DAY}-lines.csv").write_bytes(HEADER.encode() + b"\n" + text)
    shaped = b"E9,x,A,y,z,q,a,b,c,d,e,f\n"
    (folder / f"results-{DAY}-shaped.csv").write_bytes(
        HEADER.encode() + b"\n" + shaped * (GARBAGE // len(shaped))
    )
    (folder / "lines.pbn").write_bytes(b'% PBN 2.0\n[Event "x"]\n[Board "1"]\n' + text)
    (folder / "text.xml").write_bytes(b'<?xml version="1.0"?>\n<USEBIO Version="1.2">\n' + text)
    (folder / "elements.xml").write_bytes(
        b'<?xml version="1.0"?>\n<USEBIO Version="1.2">' + b"<x/>" * (12 * MB // 4) + b"</USEBIO>\n"
    )
    (folder / "claim1.pbn").write_text(_pbn(17, 999_999_999))
    (folder / f"results-{DAY}-claim2.csv").write_text(_teams())
    (folder / f"results-{DAY}-claim3.csv").write_text(RESULTS.format(e="CLAIM3"))
    (folder / "events.csv").write_text(
        "event_id,session,date,form,scoring,movement,boards_per_match,stage,boards\n"
        f"CLAIM2,1,{DAY},teams,imps,,100000000,round_robin,\n"
        f"CLAIM3,1,{DAY},pairs,matchpoints,howell,,,2000000000\n"
    )
    base_run = _validate(alone)
    return base_run, _validate(folder), folder


def _problems(output: str) -> dict[str, str]:
    """``file -> its problem lines`` of the validate report."""
    out: dict[str, str] = {}
    for line in output.splitlines():
        file = line.split(":", 1)[0].rsplit("/", 1)[-1]
        out[file] = out.get(file, "") + line + "\n"
    return out


def test_alone_ok1_has_no_problem(checked):
    (alone, output, _), _, _ = checked
    assert alone["exit"] == 0, output
    assert "no problems" in output


def test_each_garbage_file_is_refused_whole_with_what_it_is(checked):
    _, (got, output, _), folder = checked
    assert got["exit"] == 1, output
    p = _problems(output)
    assert "the file's format was not recognised" in p["random.csv"]
    lines = (folder / f"results-{DAY}-lines.csv").read_bytes().count(b"\n") - 1
    assert (
        f"results-{DAY}-lines.csv:file: file: {lines} of its {lines} lines (the first at line "
        "2) do not have the header's 12 fields: this is no table of that header"
    ) in p[f"results-{DAY}-lines.csv"]
    assert (
        f"results-{DAY}-shaped.csv:file: board: 10000 of the first 10000 rows (the first at "
        "line 2) have no board number: this is no results file"
    ) in p[f"results-{DAY}-shaped.csv"]
    assert (
        "hold no result (ScoreTable or result tags), no ranking (TotalScoreTable) and no deal"
        in (p["lines.pbn"])
    )
    assert "text.xml:file: file: the XML is malformed" in p["text.xml"]
    assert "elements.xml:file: file: the USEBIO file has no EVENT element" in p["elements.xml"]
    # one line each: none of them is listed row by row
    for name in ("random.csv", f"results-{DAY}-lines.csv", f"results-{DAY}-shaped.csv"):
        assert p[name].count("\n") == 1, p[name][:500]
    assert "OK1" not in output


def test_each_claim_is_held_with_its_reason_at_its_real_size(checked):
    _, (_, output, _), _ = checked
    assert (
        "claim1.pbn:header: boards: the session has results on 17 board(s) (1-17) where the "
        "event states 999999999: boards 18-999999999 have no result"
    ) in output
    assert (
        "events.csv:line 2: boards_per_match: boards_per_match states 100000000 boards a match "
        "where no match of the session played more than 4: correct boards_per_match"
    ) in output
    assert (
        "events.csv:line 3: boards: section A has results on 2 board(s) (1-2) where the event "
        "states 2000000000: boards 3-2000000000 have no result"
    ) in output
    assert (
        "held: a run would not publish the official standings of 3 event(s) until the problems "
        "above are corrected: CLAIM1 [2026-11-21], CLAIM2 [2026-11-21], CLAIM3 [2026-11-21]"
    ) in output


def test_memory_and_time_are_those_of_the_files_real_sizes(checked):
    (alone, _, alone_seconds), (got, _, seconds), folder = checked
    garbage = sum(f.stat().st_size for f in folder.iterdir())
    assert garbage > 90 * MB
    # everything read, one file after the other: the garbage costs a few times its largest
    # file (16 MB; measured: about 130 MB more than OK1 alone), not a multiple of the whole
    # folder, let alone of a claim (read row by row, the 16 MB of rows without a board
    # number took some 500 MB more)
    assert got["rss_mb"] - alone["rss_mb"] < 16 * GARBAGE // MB, (got, alone)
    assert seconds < alone_seconds + 90, (seconds, alone_seconds)


def test_a_bws_movement_claiming_two_billion_boards():
    # a 4-pair Howell (synth's circle method): 3 rounds of 2 boards, every table the round's
    movement, received, ident = [], [], 100
    for rnd, table, ns, ew in howell_schedule(4, 3):
        low, high = 2 * rnd - 1, 2 * rnd
        movement.append(
            {"Table": str(table), "Round": str(rnd), "NSPair": str(ns), "EWPair": str(ew)}
            | {"LowBoard": str(low), "HighBoard": str(high)}
        )
        for board in (low, high):
            received.append(entry(ident, table, rnd, board, ns, ew))
            ident += 1
    movement[0]["HighBoard"] = "2000000000"  # table 1, round 1: boards 1 to two billion
    t = time.monotonic()
    read = bws.tables_to_result(tables(received, movement=movement), "club.bws", "club")
    assert time.monotonic() - t < 5
    [warning] = read.warnings.filter(pl.col("field") == "table")["reason"].to_list()
    assert warning == (
        "table 1 of section A has 6 results where its 3 rounds require 2000000004: missing "
        "round 1 board(s) 3-2000000000"
    )
    assert read.events["boards"].to_list() == ["2000000000"]
    events, _ = resolve_events(read.events.with_columns(pl.lit(1).alias("priority")))
    events = with_defaults(events)
    validated, rejected = validate_results(read.results, events)
    assert rejected.height == 0
    [finding] = shortfalls(validated, events).to_dicts()
    assert finding["reason"].startswith(
        "section A has results on 6 board(s) (1-6) where the event states 2000000000: boards "
        "7-2000000000 have no result"
    )
    assert time.monotonic() - t < 10


def test_an_export_printing_without_end_is_cut_off(tmp_path: Path):
    # a stand-in for an mdb-export looping over a damaged page: prints for ever
    t = time.monotonic()
    with pytest.raises(bws.BwsReadError) as caught:
        bws._run(["yes", "ReceivedData,1,2,3"], limit=4 * MB, what="table ReceivedData")
    assert time.monotonic() - t < 10
    assert str(caught.value) == (
        "yes printed more than 4 MB for table ReceivedData of a database this size: its pages "
        "claim more than the file can hold (damaged); copy it again from the scoring computer"
    )


# --------------------------------------------------------------------------- through a run
#
# The same faults run by ``traveller run`` as a scorer runs it, at a size a test can afford
# (1 MB of garbage: each is refused by its kind, not its size). A ``.bws`` is read by
# mdbtools; stand-ins on ``PATH`` print what a damaged database would: for ever, or the
# tables of a movement claiming two billion boards.

JET = b"\x00\x01\x00\x00Standard Jet DB\x00" + bytes(4096)


def _tools(folder: Path, export: str) -> Path:
    """``mdb-tables`` listing the ``*.csv`` of ``folder`` and ``mdb-export`` running
    ``export`` (a shell line; ``$table`` is the table asked for), first on ``PATH``."""
    folder.mkdir(exist_ok=True)
    for name, body in (
        ("mdb-tables", f'for f in "{folder}"/*.csv; do basename "$f" .csv; done'),
        ("mdb-export", f'for table; do :; done; cd "{folder}"; {export}'),
    ):
        (folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (folder / name).chmod(0o755)
    return folder


def _ok1(tmp: Path) -> Path:
    inbox = tmp / "inbox"
    inbox.mkdir()
    (inbox / f"results-{DAY}-ok1.csv").write_text(RESULTS.format(e="OK1"))
    return inbox


def _rejected(wh: Path) -> dict[str, tuple[str, str, str]]:
    return {
        file: (loc, field, reason)
        for file, loc, field, reason in rows(
            wh, "SELECT file, location, field, reason FROM rejected_inputs"
        )
    }


def test_garbage_and_an_endless_export_are_refused_by_the_run(tmp_path: Path, monkeypatch):
    inbox = _ok1(tmp_path)
    rng = random.Random(13)
    (inbox / "random.csv").write_bytes(rng.randbytes(MB))
    text = _lines_of_text(rng, MB)
    (inbox / f"results-{DAY}-lines.csv").write_bytes(HEADER.encode() + b"\n" + text)
    shaped = b"E9,x,A,y,z,q,a,b,c,d,e,f\n"
    (inbox / f"results-{DAY}-shaped.csv").write_bytes(HEADER.encode() + b"\n" + shaped * 20000)
    (inbox / "lines.pbn").write_bytes(b'% PBN 2.0\n[Event "x"]\n[Board "1"]\n' + text)
    (inbox / "text.xml").write_bytes(b'<?xml version="1.0"?>\n<USEBIO Version="1.2">\n' + text)
    (inbox / "elements.xml").write_bytes(
        b'<?xml version="1.0"?>\n<USEBIO Version="1.2">' + b"<x/>" * (MB // 4) + b"</USEBIO>\n"
    )
    (inbox / f"club-{DAY}.bws").write_bytes(JET)
    (tmp_path / "tools" / "ReceivedData.csv").parent.mkdir()
    (tmp_path / "tools" / "ReceivedData.csv").write_text("")
    tools = _tools(tmp_path / "tools", "exec yes ReceivedData,1,2,3")
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    wh = tmp_path / "w.duckdb"
    t = time.monotonic()
    ran = traveller_run(inbox, wh)
    assert time.monotonic() - t < 120
    assert ran.exit_code == EXIT_REJECTED, ran.output  # files refused, the rest published
    assert "Traceback" not in ran.output
    got = _rejected(wh)
    assert rows(wh, "SELECT count(*) FROM rejected_inputs") == [(len(got),)]  # one each
    assert sorted(got) == sorted(
        [
            "random.csv",
            f"results-{DAY}-lines.csv",
            f"results-{DAY}-shaped.csv",
            "lines.pbn",
            "text.xml",
            "elements.xml",
            f"club-{DAY}.bws",
        ]
    )
    for file, (loc, field, reason) in got.items():
        assert loc == "file", file
        assert f"{file}:file: {field}: {reason}" in ran.output.splitlines(), (file, ran.output)
    lines = text.count(b"\n")
    assert got["random.csv"][2].startswith("the file's format was not recognised")
    assert got[f"results-{DAY}-lines.csv"][1] == "file"
    assert got[f"results-{DAY}-lines.csv"][2].startswith(
        f"{lines} of its {lines} lines (the first at line 2) do not have the header's 12 "
        "fields: this is no table of that header"
    )
    assert got[f"results-{DAY}-shaped.csv"][1] == "board"
    assert got[f"results-{DAY}-shaped.csv"][2].startswith(
        "10000 of the first 10000 rows (the first at line 2) have no board number: this is "
        "no results file"
    )
    assert "hold no result (ScoreTable or result tags)" in got["lines.pbn"][2]
    assert got["text.xml"][2].startswith("the XML is malformed")
    assert got["elements.xml"][2].startswith("the USEBIO file has no EVENT element")
    assert got[f"club-{DAY}.bws"][2] == (
        "mdb-export printed more than 16 MB for table ReceivedData of a database this size: "
        "its pages claim more than the file can hold (damaged); copy it again from the "
        "scoring computer"
    )
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL") == [("OK1", 6)]
    assert status(tmp_path / "site", "OK1") == "Final"


def test_each_claim_is_held_by_the_run(tmp_path: Path, monkeypatch):
    inbox = _ok1(tmp_path)
    (inbox / "claim1.pbn").write_text(_pbn(17, 999_999_999))
    (inbox / f"results-{DAY}-claim2.csv").write_text(_teams())
    (inbox / f"results-{DAY}-claim3.csv").write_text(RESULTS.format(e="CLAIM3"))
    (inbox / "events.csv").write_text(
        "event_id,session,date,form,scoring,movement,boards_per_match,stage,boards\n"
        f"CLAIM2,1,{DAY},teams,imps,,100000000,round_robin,\n"
        f"CLAIM3,1,{DAY},pairs,matchpoints,howell,,,2000000000\n"
    )
    # the four-pair Howell of test_a_bws_movement_claiming_two_billion_boards, dated DAY
    movement, received, ident = [], [], 100
    for rnd, table, ns, ew in howell_schedule(4, 3):
        low, high = 2 * rnd - 1, 2 * rnd
        movement.append(
            {"Table": str(table), "Round": str(rnd), "NSPair": str(ns), "EWPair": str(ew)}
            | {"LowBoard": str(low), "HighBoard": str(high)}
        )
        for board in (low, high):
            received.append(entry(ident, table, rnd, board, ns, ew, DateLog=f"{DAY} 00:00:00"))
            ident += 1
    movement[0]["HighBoard"] = "2000000000"
    folder = tmp_path / "tools"
    folder.mkdir()
    for name, frame in tables(received, movement=movement).items():
        if name == "Session":
            frame = frame.with_columns(pl.lit(f"{DAY} 00:00:00").alias("Date"))
        frame.write_csv(folder / f"{name}.csv")
    tools = _tools(folder, 'cat "$table.csv"')
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    (inbox / f"club-{DAY}.bws").write_bytes(JET)
    wh = tmp_path / "w.duckdb"
    t = time.monotonic()
    ran = traveller_run(inbox, wh)
    assert time.monotonic() - t < 120
    assert ran.exit_code == EXIT_BLOCKED, ran.output
    assert "Traceback" not in ran.output
    assert rows(wh, "SELECT count(*) FROM rejected_inputs") == [(0,)]
    holds = rows(wh, "SELECT event_id, file, location, field, reason FROM holds ORDER BY ALL")
    for event, file, loc, field, reason in holds:
        assert f"held {event}: {file}:{loc}: {field}: {reason}" in ran.output.splitlines()
    bws_event = rows(
        wh, f"SELECT DISTINCT event_id FROM validated_results WHERE file = 'club-{DAY}.bws'"
    )[0][0]
    got = {event: (file, loc, field, reason) for event, file, loc, field, reason in holds}
    assert sorted(got) == sorted(["CLAIM1", "CLAIM2", "CLAIM3", bws_event])
    assert got["CLAIM1"][:3] == ("claim1.pbn", "header", "boards")
    assert got["CLAIM1"][3].startswith(
        "the session has results on 17 board(s) (1-17) where the event states 999999999: "
        "boards 18-999999999 have no result"
    )
    assert got["CLAIM2"] == (
        "events.csv",
        "line 2",
        "boards_per_match",
        "boards_per_match states 100000000 boards a match where no match of the session "
        "played more than 4: correct boards_per_match",
    )
    assert got["CLAIM3"][:3] == ("events.csv", "line 3", "boards")
    assert got["CLAIM3"][3].startswith(
        "section A has results on 2 board(s) (1-2) where the event states 2000000000: boards "
        "3-2000000000 have no result"
    )
    assert got[bws_event][:3] == (f"club-{DAY}.bws", "Session", "boards")
    assert got[bws_event][3].startswith(
        "section A has results on 6 board(s) (1-6) where the event states 2000000000: boards "
        "7-2000000000 have no result"
    )
    assert (
        f"warning: club-{DAY}.bws:RoundData section A table 1: table: table 1 of section A has "
        "6 results where its 3 rounds require 2000000004: missing round 1 board(s) 3-2000000000"
    ) in ran.output.splitlines()
    # every result of them read and scored, the events held, OK1 Final
    assert rows(
        wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL ORDER BY 1"
    ) == sorted([("OK1", 6), ("CLAIM1", 34), ("CLAIM2", 48), ("CLAIM3", 6), (bws_event, 12)])
    site = tmp_path / "site"
    assert status(site, "OK1") == "Final"
    for event in got:
        assert not published(site, event), event
