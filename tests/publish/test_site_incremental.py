"""Publishing again writes only the pages whose content changed, and removes the pages no
longer published (a withdrawn session's)."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipelines.publish import load
from pipelines.publish.site import Site
from tests.publish.conftest import RENAMED, Sample, renamed_one


def _copy(sample: Sample, out: Path) -> None:
    """The published site and its record of what each session's pages were made from."""
    shutil.copytree(sample.site, out)
    shutil.copytree(sample.out / ".manifests", out.parent / ".manifests")


def _stamps(folder: Path) -> dict[str, int]:
    return {
        p.relative_to(folder).as_posix(): p.stat().st_mtime_ns
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_a_second_publication_writes_nothing_that_did_not_change(sample: Sample, tmp_path):
    out = tmp_path / "site"
    _copy(sample, out)
    before = _stamps(out)
    site = Site(load(sample.warehouse), out)
    pages = site.render()
    assert len(pages) == len(before) - 2  # every page but the style sheet and the script
    assert site.changed == [] and site.removed == []
    # nothing any session's pages are made from changed: not one session rendered again
    assert site.rendered == 0 and site.kept == load(sample.warehouse).sessions.height
    assert site.players_rendered == 0 and site.players_kept == len(
        list(out.glob("players/*-*.html"))
    )
    assert _stamps(out) == before  # not one file touched


def test_a_changed_page_is_rewritten_and_a_stale_one_removed(sample: Sample, tmp_path):
    out = tmp_path / "site"
    _copy(sample, out)
    index = out / "index.html"
    index.write_text("an older publication's index", encoding="utf-8")
    stale = out / "events" / "withdrawn-session.html"
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_text("a session no longer in the warehouse", encoding="utf-8")
    site = Site(load(sample.warehouse), out)
    site.render()
    assert site.changed == [index]
    assert site.removed == [stale] and not stale.exists()
    assert (out / "index.html").read_bytes() == (sample.site / "index.html").read_bytes()


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_only_the_session_whose_rows_changed_is_rendered_again(sample: Sample, tmp_path):
    """One contestant's names change in one session's standings: that session's pages are
    rendered again, every other session's kept; the site equals one written from scratch."""
    data = load(sample.warehouse)
    changed, _ = renamed_one(data)
    out = tmp_path / "site"
    _copy(sample, out)
    site = Site(changed, out)
    site.render()
    assert site.rendered == 1 and site.kept == data.sessions.height - 1
    assert site.changed  # that session's ranking and scorecards at least
    fresh = tmp_path / "fresh"
    Site(changed, fresh).render()
    assert _files(out) == _files(fresh)
    assert any(RENAMED in p.read_text("utf-8") for p in site.changed)


def test_a_page_missing_from_the_folder_makes_its_session_rendered_again(sample: Sample, tmp_path):
    out = tmp_path / "site"
    _copy(sample, out)
    board = next(p for p in sorted(out.rglob("board-*.html")))
    board.unlink()
    site = Site(load(sample.warehouse), out)
    site.render()
    assert site.rendered == 1
    assert site.changed == [board]
    assert board.read_bytes() == (sample.site / board.relative_to(out)).read_bytes()


def test_only_the_player_pages_whose_lines_changed_are_rendered_again(sample: Sample, tmp_path):
    """One pair renamed in one session: the pages of its two players (who no longer play
    there) and of the new name are rendered, every other player's page kept untouched; the
    index is rewritten; the site equals one written from scratch."""
    data = load(sample.warehouse)
    changed, first = renamed_one(data)
    out = tmp_path / "site"
    _copy(sample, out)
    before = _stamps(out)
    site = Site(changed, out)
    site.render()
    old = [n.strip() for n in first["names"].split(" & ")]
    assert len(old) == 2
    assert 1 <= site.players_rendered <= 3  # the renamed pair's two players, the new name
    rendered = {p.relative_to(out).as_posix() for p in site.changed if "players/" in str(p)}
    assert "players/Renamed-Player.html" in rendered
    assert {"players/index.json", "players/index.html"} <= rendered
    others = [
        rel
        for rel in before
        if rel.startswith("players/")
        and rel not in rendered
        and not rel.startswith("players/index")
    ]
    assert len(others) > 100
    after = _stamps(out)
    assert all(after.get(rel) == before[rel] for rel in others if rel in after)
    fresh = tmp_path / "fresh"
    Site(changed, fresh).render()
    assert _files(out) == _files(fresh)


def test_an_export_file_gone_is_made_again_whole(sample: Sample, tmp_path):
    """A publication keeps an unchanged event's pages and export files without reading its
    rows; when one of its export files is gone (deleted by hand, by a sync), the event is
    made again: the USEBIO, PBN and team PBN files come back byte for byte as they were.
    (They came back from no rows: a USEBIO file without a board, a PBN without a score.)"""
    from pipelines.publish import publish

    out = tmp_path / "out"
    publish(sample.warehouse, out, dashboard=False)
    exports = out / "exports"
    gone = [
        sorted((exports / "usebio").glob("*.xml"))[0],
        sorted((exports / "pbn").glob("*.pbn"))[0],
        sorted((exports / "pbn-teams").glob("*.pbn"))[0],
    ]
    whole = {p: p.read_bytes() for p in gone}
    assert b"<BOARD>" in whole[gone[0]] and b"[ScoreTable" in whole[gone[1]]
    for p in gone:
        p.unlink()
    summary = publish(sample.warehouse, out, dashboard=False)
    assert {p: p.read_bytes() for p in gone} == whole
    assert summary.events_kept > 0  # the other events were still kept


def test_each_page_is_recorded_once_and_an_older_record_still_keeps_its_events(
    sample: Sample, tmp_path, monkeypatch
):
    """The record of the last publication names each page once: an event's entry its own
    pages, each of its sessions' entries theirs (a year of history's record is not twice
    the size of its pages' names). A record written before that, whose event entries named
    their sessions' pages too, still keeps every event as it is and writes nothing."""
    import json

    from pipelines.publish import publish
    from pipelines.publish.files import listing, record_of

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-03 22:55")  # the sample's clock
    out = tmp_path / "out"
    publish(sample.warehouse, out, dashboard=False)
    record = json.loads(record_of(out / "site").read_text("utf-8"))
    named = [p for entry in record.values() for p in entry["pages"]]
    assert len(named) == len(set(named))
    # every page but the index, the style sheet, the script and the players' indexes
    fixed = {"index.html", "style.css", "search.js", "players/index.html", "players/index.json"}
    assert set(named) == listing(out / "site") - fixed
    events = [k for k in record if k.startswith("event\x1f")]
    assert events and all(
        not set(record[e]["pages"]) & set(record[s]["pages"])
        for e in events
        for s in record[e]["sessions"]
    )
    # the older record: each event entry names its sessions' pages after its own
    for e in events:
        record[e]["pages"] += [p for s in record[e]["sessions"] for p in record[s]["pages"]]
    record_of(out / "site").write_text(json.dumps(record, sort_keys=True) + "\n", "utf-8")
    again = publish(sample.warehouse, out, dashboard=False)
    assert again.events_kept == len(events) > 1
    assert again.pages_changed == 0 and again.pages_removed == 0 and again.sessions_rendered == 0
    # and the record is written as a publication from scratch writes it
    publish(sample.warehouse, tmp_path / "fresh", dashboard=False)
    assert (
        record_of(out / "site").read_bytes() == record_of(tmp_path / "fresh" / "site").read_bytes()
    )


def test_a_frame_hashed_once_gives_each_part_its_own_digest(sample: Sample):
    """A session's digest reads its rows' hashes from the batch's frame hashed in one pass
    (:class:`~pipelines.publish.files.RowHashes`): for every part of every frame the site
    splits, the digest of the part itself."""
    from pipelines.publish.files import RowHashes, digest

    data = load(sample.warehouse)
    frames = {
        "results": (data.results, ["event_id", "session"]),
        "standings": (data.standings, ["event_id", "scope", "session"]),
        "penalties": (data.penalties, ["event_id", "session"]),
    }
    checked = 0
    for frame, keys in frames.values():
        hashed = RowHashes.parts(frame, keys)
        parts = frame.partition_by(keys, as_dict=True)
        assert hashed.keys() == parts.keys()
        for key, part in parts.items():
            assert digest("x", hashed[key]) == digest("x", part)
            checked += 1
        assert digest(RowHashes.of(frame.clear())) == digest(frame.clear())
    assert checked > 20
    one = data.results.head(3)
    assert digest(RowHashes.of(one)) != digest(RowHashes.of(one.reverse()))  # order counts
