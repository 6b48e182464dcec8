"""Publishing again writes only the pages whose content changed, and removes the pages no
longer published (a withdrawn session's)."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipelines.publish import load
from pipelines.publish.site import Site
from tests.publish.conftest import Sample


def _stamps(folder: Path) -> dict[str, int]:
    return {
        p.relative_to(folder).as_posix(): p.stat().st_mtime_ns
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_a_second_publication_writes_nothing_that_did_not_change(sample: Sample, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(sample.site, out)
    before = _stamps(out)
    site = Site(load(sample.warehouse), out)
    pages = site.render()
    assert len(pages) == len(before) - 1  # every page but the style sheet
    assert site.changed == [] and site.removed == []
    assert _stamps(out) == before  # not one file touched


def test_a_changed_page_is_rewritten_and_a_stale_one_removed(sample: Sample, tmp_path):
    out = tmp_path / "site"
    shutil.copytree(sample.site, out)
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
