"""Compscore3 Butler (Mitchell, 14 pairs) and cross-IMP (Howell, 9 pairs) files through the
engine, as the pipeline scores them (profile ``abf``: Compscore's Butler datum, cross-IMPs
as an average, IMPs shown to 2 decimals): every traveller line's IMPs, every pair's total and
every place equal the figures Compscore published (``NS_BUTLER_POINTS``/``NS_CROSS_IMP_POINTS``
and ``PARTICIPANTS/PAIR``). No names are printed: they are real people."""

from __future__ import annotations

import shutil

import polars as pl
import pytest

from tests.conftest import REALDATA, shared_file
from tests.realdata.scoring import score_inbox_day

FILES = {
    "butler": "compscore_usebio_butler_mitchell_14p.xml",
    "cross_imps": "compscore_usebio_cross_imp_howell_9p.xml",
}


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    inbox = tmp_path_factory.mktemp("imp_pairs")
    for name in FILES.values():
        shutil.copy(shared_file(REALDATA / name), inbox / name)
    return score_inbox_day(inbox)


@pytest.mark.parametrize(("scoring", "lines"), [("butler", 245), ("cross_imps", 108)])
def test_every_line_reproduced(scored, scoring, lines):
    res, _ = scored
    x = res.scored.filter(pl.col("scoring") == scoring)
    assert x.height == lines
    assert set(x["profile"].to_list()) == {"abf"}
    assert x.filter(pl.col("ns_imps_display") != pl.col("source_ns_mp")).height == 0
    assert x.filter(pl.col("ew_imps_display") != pl.col("source_ew_mp")).height == 0


def test_the_a5050_line_is_average(scored):
    res, _ = scored
    art = res.scored.filter(pl.col("kind") == "artificial")
    assert art.height == 1 and (art["ns_imps"].item(), art["ew_imps"].item()) == (0, 0)


def test_every_total_and_place_reproduced(scored):
    res, snap = scored
    st = res.standings.filter(pl.col("scope") == "session")
    assert set(st["unit"].to_list()) == {"IMP"} and st["percentage"].null_count() == st.height
    off = snap.source_standings.select(
        "event_id",
        "contestant",
        pl.col("direction").fill_null(""),
        pl.col("total").cast(pl.Float64),
        pl.col("place").cast(pl.Int32),
    )
    cmp = st.select(
        "event_id", "contestant", pl.col("direction").fill_null(""), "score_display", "rank"
    ).join(off, on=["event_id", "contestant", "direction"], how="full", coalesce=True)
    assert cmp.height == 14 + 9
    assert cmp.filter(pl.col("score_display") != pl.col("total")).height == 0
    assert cmp.filter(pl.col("rank") != pl.col("place")).height == 0
