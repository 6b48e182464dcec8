"""Hostile or broken files are refused with their reason; the rest of the night goes on.

Planted beside a good event: an XML entity bomb ("billion laughs"), a ``.bws`` that is not
an Access database, and a 1 GB file (sparse, so the test costs no disk) larger than the
limit on a file read (``$TRAVELLER_MAX_FILE_MB``, 256 MB unless set). Each is one located
rejection naming what it is; nothing of them is scored; the good event is published Final."""

from __future__ import annotations

import os
from pathlib import Path

from pipelines.runner import run_inbox
from tests.robustness.conftest import RESULTS, rows, status

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
    run_inbox(inbox, wh, publish_to=tmp_path / "out")
    got = dict(
        rows(wh, "SELECT file, reason FROM rejected_inputs WHERE location = 'file' ORDER BY 1")
    )
    assert set(got) == {"bomb-2026-11-21.xml", "club-2026-11-21.bws", "huge-2026-11-21.csv"}
    assert "declares entities: entities are refused for safety" in got["bomb-2026-11-21.xml"]
    assert "is named .bws but is not an Access database" in got["club-2026-11-21.bws"]
    assert got["huge-2026-11-21.csv"].startswith("the file is 1,024 MB, more than the 256 MB")
    assert rows(wh, "SELECT DISTINCT event_id FROM validated_results") == [("OK1",)]
    assert status(tmp_path / "out" / "site", "OK1") == "Final"


def test_the_file_size_limit_is_a_setting(tmp_path: Path, monkeypatch):
    from pipelines.formats import read_file

    p = tmp_path / "results-2026-11-21.csv"
    p.write_text(RESULTS.format(e="OK1"))
    monkeypatch.setenv("TRAVELLER_MAX_FILE_MB", "0.0001")  # 104 bytes
    assert "more than the 0 MB" in read_file(p, tmp_path).rejected["reason"][0]
    monkeypatch.delenv("TRAVELLER_MAX_FILE_MB")
    assert read_file(p, tmp_path).results.height == 6
