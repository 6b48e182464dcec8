"""Hostile or broken files are refused with their reason; the rest of the night goes on.

Planted beside a good event: an XML entity bomb ("billion laughs"), a ``.bws`` that is not
an Access database, and a 1 GB file (sparse, so the test costs no disk) larger than the
limit on a file read (``$TRAVELLER_MAX_FILE_MB``, 256 MB unless set). Run by ``traveller
run``. Each is one located rejection naming what it is, one line on the command line; nothing
of them is scored; exit 3 (files refused, the rest published); the good event is published
Final."""

from __future__ import annotations

import os
from pathlib import Path

from pipelines.cli import EXIT_REJECTED
from tests.robustness.conftest import RESULTS, rows, status, traveller_run

BOMB = (
    '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [\n<!ENTITY a "aaaaaaaaaa">\n'
    + "".join(
        f'<!ENTITY {b} "{("&" + a + ";") * 10}">\n'
        for a, b in zip("abcdefgh", "bcdefghi", strict=True)
    )
    + ']>\n<USEBIO Version="1.2"><EVENT><EVENT_DESCRIPTION>&i;</EVENT_DESCRIPTION></EVENT>'
    "</USEBIO>\n"
)


def test_a_bomb_a_false_bws_and_a_huge_file_are_refused_and_the_night_goes_on(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    (inbox / "bomb-2026-11-21.xml").write_text(BOMB)
    (inbox / "club-2026-11-21.bws").write_bytes(os.urandom(4096))
    with open(inbox / "huge-2026-11-21.csv", "wb") as f:
        f.truncate(1 << 30)
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_REJECTED, ran.output
    assert "Traceback" not in ran.output
    got = {
        file: (field, reason)
        for file, field, reason in rows(
            wh, "SELECT file, field, reason FROM rejected_inputs WHERE location = 'file'"
        )
    }
    assert set(got) == {"bomb-2026-11-21.xml", "club-2026-11-21.bws", "huge-2026-11-21.csv"}
    assert rows(wh, "SELECT count(*) FROM rejected_inputs") == [(3,)]  # one line each
    assert "declares entities: entities are refused for safety" in got["bomb-2026-11-21.xml"][1]
    assert "is named .bws but is not an Access database" in got["club-2026-11-21.bws"][1]
    assert got["huge-2026-11-21.csv"][1].startswith("the file is 1,024 MB, more than the 256 MB")
    for file, (field, reason) in got.items():
        assert f"{file}:file: {field}: {reason}" in ran.output.splitlines(), ran.output
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL") == [("OK1", 6)]
    assert status(tmp_path / "site", "OK1") == "Final"


def test_the_file_size_limit_is_a_setting(tmp_path: Path, monkeypatch):
    from pipelines.formats import read_file

    p = tmp_path / "results-2026-11-21.csv"
    p.write_text(RESULTS.format(e="OK1"))
    monkeypatch.setenv("TRAVELLER_MAX_FILE_MB", "0.0001")  # 104 bytes
    size = p.stat().st_size
    assert (
        read_file(p, tmp_path)
        .rejected["reason"][0]
        .startswith(f"the file is {size:,} bytes, more than the 104 bytes a results file can be")
    )
    monkeypatch.delenv("TRAVELLER_MAX_FILE_MB")
    assert read_file(p, tmp_path).results.height == 6


def test_a_file_over_the_limit_set_is_refused_by_the_run(tmp_path: Path, monkeypatch):
    # the limit at 2 KB: OK1 (six results) is under it, a session of 86 results over it
    monkeypatch.setenv("TRAVELLER_MAX_FILE_MB", str(2048 / 1048576))
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1"))
    big = RESULTS.format(e="EV2") + "".join(
        f"EV2,1,A,{r},1,{r + 2},1,2,4S,N,10,420\n" for r in range(3, 83)
    )
    (inbox / "results-2026-11-21-b.csv").write_text(big)
    size = (inbox / "results-2026-11-21-b.csv").stat().st_size
    assert size > 2048 > (inbox / "results-2026-11-21-a.csv").stat().st_size
    wh = tmp_path / "w.duckdb"
    ran = traveller_run(inbox, wh)
    assert ran.exit_code == EXIT_REJECTED, ran.output
    [(file, loc, field, reason)] = rows(
        wh, "SELECT file, location, field, reason FROM rejected_inputs"
    )
    assert (file, loc) == ("results-2026-11-21-b.csv", "file")
    assert reason.startswith(
        f"the file is {size:,} bytes, more than the 2,048 bytes a results file can be: it is "
        "not read"
    )
    assert f"{file}:file: {field}: {reason}" in ran.output.splitlines()
    assert "Traceback" not in ran.output
    assert rows(wh, "SELECT event_id, count(*) FROM validated_results GROUP BY ALL") == [("OK1", 6)]
    assert status(tmp_path / "site", "OK1") == "Final"
