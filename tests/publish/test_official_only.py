"""Only official standings are published: a date held back by a failed check (here a stated
score that disagrees with its contract, Law 77) has no pages and no exports, the other dates
do."""

from __future__ import annotations

from pathlib import Path

from pipelines.publish.site import session_dir
from pipelines.runner import run_inbox

HEADER = "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,score"
RESULTS = (
    HEADER
    + """
{e},1,A,1,1,1,1,2,4S,N,10,{s}
{e},1,A,1,2,1,3,4,4S,N,11,450
{e},1,A,1,3,1,5,6,3NT,S,9,400
{e},1,A,2,1,2,1,4,2H,E,8,-110
{e},1,A,2,2,2,3,6,2H,E,9,-140
{e},1,A,2,3,2,5,2,PASS,,,0
"""
)


def test_a_blocked_date_is_not_published(tmp_path: Path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-20.csv").write_text(RESULTS.format(e="OK1", s=420))
    (inbox / "results-2026-11-21.csv").write_text(RESULTS.format(e="BAD2", s=450))
    report = run_inbox(inbox, tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert report.blocked_dates == ["2026-11-21"]
    site = tmp_path / "out" / "site"
    assert (site / session_dir("OK1", 1) / "index.html").is_file()
    assert not (site / "BAD2").exists()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "OK1" in index and "BAD2" not in index and "2026-11-21" not in index
    exports = tmp_path / "out" / "exports"
    assert [p.name for p in (exports / "usebio").iterdir()] == ["OK1.xml"]
    assert [p.name for p in (exports / "pbn").iterdir()] == ["OK1-s1.pbn"]
