"""An arrow-switched line (USEBIO: the NS column names an EW pair, ``14EW``) is not scored,
and the row's rejection says why in a scorer's words, not "a mistyped number"."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pipelines.inbox import scan
from pipelines.scoring.day import score_day
from tests.conftest import REALDATA, shared_file

MITCHELL = "compscore_usebio_mp_mitchell_42p_adjusted.xml"


def test_an_arrow_switched_line_is_rejected_with_its_reason(tmp_path: Path):
    raw = shared_file(REALDATA / MITCHELL).read_bytes().decode("latin-1")
    line = re.search(
        r"<NS_PAIR_NUMBER>(\d+)NS</NS_PAIR_NUMBER>(\s*)<EW_PAIR_NUMBER>(\d+)EW</EW_PAIR_NUMBER>",
        raw,
    )
    assert line is not None
    ns, gap, ew = line.groups()
    switched = (
        f"<NS_PAIR_NUMBER>{ew}EW</NS_PAIR_NUMBER>{gap}<EW_PAIR_NUMBER>{ns}NS</EW_PAIR_NUMBER>"
    )
    (tmp_path / MITCHELL).write_bytes(
        (raw[: line.start()] + switched + raw[line.end() :]).encode("latin-1")
    )
    snap = scan(tmp_path)
    day = score_day(
        snap.results,
        snap.rulings,
        snap.appeals,
        snap.events,
        now=datetime(2026, 11, 30),
        contestants=snap.contestants,
        lists=snap.contestants,  # the file's PARTICIPANTS list its pairs
    )
    reasons = day.rejected["reason"].to_list()
    assert len(reasons) == 1, reasons
    # the first side named: the EW pair, NS pair {ns} sitting East-West
    assert f"the EW pair is {ns}NS, a pair of the other direction: an arrow-switched" in reasons[0]
    assert "mistyped" not in reasons[0]
