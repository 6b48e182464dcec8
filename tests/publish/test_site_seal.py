"""A published site is sealed (:func:`pipelines.publish.files.seal`): the next publication
knows what the folder holds from its record and the seal, without walking its thousands of
pages, while nothing was changed in it by hand; a page deleted or a file dropped in by hand
breaks the seal, and the folder is walked as before (the page made again, the file removed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipelines.publish import files, publish
from pipelines.publish.files import listing, record_of, seal_of, sealed_listing
from pipelines.publish.site import Site
from tests.publish.conftest import Sample


@pytest.fixture
def site(sample: Sample, tmp_path, monkeypatch) -> Path:
    """The sample published into a fresh folder; its site folder."""
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-03 22:55")  # the sample's clock
    publish(sample.warehouse, tmp_path / "out", dashboard=False)
    return tmp_path / "out" / "site"


def _sealed(folder: Path) -> set[str] | None:
    raw = record_of(folder).read_bytes()
    return sealed_listing(folder, raw, json.loads(raw))


def test_a_sealed_folder_is_listed_without_a_walk_as_a_walk_lists_it(site: Path):
    assert seal_of(site).is_file()
    assert _sealed(site) == listing(site)
    before, there, sealed = Site.recorded_and_listed(site)
    assert sealed and there == listing(site) and before


def test_a_publication_of_nothing_new_leaves_the_seal_as_it_was(sample: Sample, site: Path):
    stamp = seal_of(site).stat().st_mtime_ns
    again = publish(sample.warehouse, site.parent, dashboard=False)
    assert again.pages_changed == again.pages_removed == 0
    assert seal_of(site).stat().st_mtime_ns == stamp


def test_another_record_breaks_the_seal(site: Path):
    raw = record_of(site).read_bytes()
    assert sealed_listing(site, raw + b" ", json.loads(raw)) is None


@pytest.mark.parametrize("racy", [True, False])
def test_a_file_dropped_in_by_hand_breaks_the_seal_and_is_removed(
    sample: Sample, tmp_path, monkeypatch, racy: bool
):
    """Into a folder sealed as racy (its entries named, listed again) or not (its times
    compared): either way the seal is broken, the folder walked, the file removed."""
    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-03 22:55")
    if not racy:
        monkeypatch.setattr(files, "RACY_NS", -(10**18))  # no folder is racy
    out = tmp_path / "out"
    publish(sample.warehouse, out, dashboard=False)
    site = out / "site"
    seal = json.loads(seal_of(site).read_bytes())
    assert ("events" in seal["racy"]) is racy
    stray = next(site.glob("events/*")) / "left-by-hand.html"
    stray.write_text("not a page of this publication", encoding="utf-8")
    assert _sealed(site) is None
    again = publish(sample.warehouse, out, dashboard=False)
    assert not stray.exists() and again.pages_removed == 1
    assert _sealed(site) == listing(site)  # sealed again


def test_a_page_deleted_by_hand_breaks_the_seal_and_is_made_again(
    sample: Sample, site: Path, tmp_path, monkeypatch
):
    monkeypatch.setattr(files, "RACY_NS", -(10**18))  # the folders' times are compared
    publish(sample.warehouse, site.parent, dashboard=False)  # sealed with no racy folder
    page = next(site.glob("events/*/s1/index.html"))
    text = page.read_bytes()
    page.unlink()
    assert _sealed(site) is None
    again = publish(sample.warehouse, site.parent, dashboard=False)
    assert page.read_bytes() == text and again.sessions_rendered >= 1
    assert _sealed(site) == listing(site)


def test_a_folder_put_back_from_a_copy_breaks_the_seal(site: Path, monkeypatch):
    """A folder's status-change time cannot be set by a program: a folder removed and put
    back with its old times (``cp -a``, ``rsync -a``) is not taken for the sealed one."""
    monkeypatch.setattr(files, "RACY_NS", -(10**18))
    folder = next(site.glob("events/*/s1"))
    st = folder.stat()
    os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns))  # same times, a new status change
    assert folder.stat().st_mtime_ns == st.st_mtime_ns
    raw = record_of(site).read_bytes()
    seal = json.loads(seal_of(site).read_bytes())
    seal["racy"] = {}
    seal_of(site).write_text(json.dumps(seal), "utf-8")
    assert sealed_listing(site, raw, json.loads(raw)) is None


def test_a_seal_made_again_from_the_last_one_is_the_seal_made_from_scratch(
    sample: Sample, site: Path, monkeypatch
):
    """A publication that began on a valid seal looks again only at the folders of what it
    wrote or removed (and the racy ones): its seal is the one a look at every folder gives."""
    from pipelines.publish import load
    from tests.publish.conftest import renamed_one

    monkeypatch.setattr(files, "RACY_NS", -(10**18))  # every folder's times compared
    publish(sample.warehouse, site.parent, dashboard=False)
    before, there, sealed = Site.recorded_and_listed(site)
    assert sealed is not None
    changed, _ = renamed_one(load(sample.warehouse))
    again = Site(changed, site, before=before, there=there)
    again.render()
    assert again.changed
    again.seal(sealed)
    made = json.loads(seal_of(site).read_bytes())
    assert _sealed(site) == listing(site)
    named = {p for entry in again.manifest.values() for p in entry.get("pages") or []}
    files.seal(site, again._published(), named, again.record_bytes)  # from scratch
    assert json.loads(seal_of(site).read_bytes()) == made
