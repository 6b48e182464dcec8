"""The session-average rule at teams: 2017 Law 12C2(c) "or the IMP equivalent" (2007 Law 88).

Under a profile whose ``imps.imp_session_average`` is set, a team given average-plus on a
match board gets the better of +3 IMPs (Law 12C2(b)) and its average IMPs per board on its
other boards of the session; under the 2017 Laws a team given average-minus the worse of -3
and that average (2007 Law 88 has only the first rule). The average is rounded as the
profile shows IMPs (``wbf``: 2 decimals, half up). Without the setting Av+/Av- stay +/-3.

One match T1-T2 (T1 NS at table 1, EW at table 2). Every figure is worked by hand from the
Law 78B scale: board 1 (none vulnerable) 4S N made at table 1 (+420), one down at table 2
(-50): T1 gains 470 = 10 IMPs; board 2 (NS vulnerable) 4S N made at both tables: 0;
board 3 (EW vulnerable) 4S N made (+420) and 3NT N made (+400): T1 gains 20 = 1 IMP. T1's average
on those boards is 11/3 = 3.666... IMPs, shown 3.67; T2's -3.67.
"""

from __future__ import annotations

import shutil
from datetime import datetime
from fractions import Fraction

import polars as pl
import pytest

from pipelines import profiles
from pipelines.scoring.events import EVENTS_SCHEMA, with_defaults
from pipelines.scoring.imp_standings import matches
from tests.laws_engine import ruling, scored_day

F = Fraction


@pytest.fixture
def impavg(tmp_path_factory, monkeypatch):
    """A profile ``impavg``: wbf with ``imps.imp_session_average = true``."""
    folder = tmp_path_factory.mktemp("profiles")
    shutil.copytree(
        profiles.PROFILE_DIR, folder, ignore=shutil.ignore_patterns("*.py", "__*"),
        dirs_exist_ok=True,
    )  # fmt: skip
    text = (folder / "wbf.toml").read_text()
    assert "imp_session_average = false" in text
    (folder / "impavg.toml").write_text(
        text.replace("imp_session_average = false", "imp_session_average = true")
    )
    monkeypatch.setattr(profiles, "PROFILE_DIR", folder)
    profiles.load.cache_clear()
    yield "impavg"
    profiles.load.cache_clear()


def events(profile: str, laws: str = "2017") -> pl.DataFrame:
    rows = {c: [None] for c in EVENTS_SCHEMA}
    rows.update(
        event_id=["E"],
        session=[1],
        date=["2026-11-02"],
        form=["teams"],
        scoring=["imps"],
        stage=["round_robin"],
        vp_scale=["wbf2013"],
        profile=[profile],
        laws=[laws],
        published_at=["2026-11-02 22:30"],
    )
    return with_defaults(pl.DataFrame(rows, schema=EVENTS_SCHEMA))


def row(table: int, board: int, result: str, line: int) -> dict:
    """``result``: ``"4S 10 420"`` (contract by North, tricks, NS score) or an artificial code."""
    ns, ew = ("T1", "T2") if table == 1 else ("T2", "T1")
    contract, tricks, score = result.split() if " " in result else (None, None, result)
    return dict(
        file="r.csv",
        location=f"line {line}",
        event_id="E",
        session="1",
        section="A",
        round="1",
        table=str(table),
        board=str(board),
        ns_pair=ns,
        ew_pair=ew,
        contract=contract,
        declarer="N" if contract else None,
        tricks=tricks,
        score=score,
        session_date="2026-11-02",
    )


def boards(b4_table1: str, b4_table2: str, others: bool = True) -> list[dict]:
    played = [
        (1, "4S 10 420", "4S 9 -50"),  # none vulnerable: T1 gains 470 = 10 IMPs
        (2, "4S 10 620", "4S 10 620"),  # NS vulnerable: 0
        (3, "4S 10 420", "3NT 9 400"),  # EW vulnerable: T1 gains 20 = 1 IMP
    ]
    played = played if others else []
    rows = []
    for board, t1, t2 in [*played, (4, b4_table1, b4_table2)]:
        rows += [row(1, board, t1, len(rows) + 2), row(2, board, t2, len(rows) + 3)]
    return rows


def board4(rows: list[dict], profile: str, laws: str = "2017", rulings=None):
    ev = events(profile, laws)
    out = scored_day(rows, ev, rulings or [], now=datetime(2026, 11, 30))
    s = out.scored.filter(pl.col("board") == 4)
    t1 = s.filter(pl.col("table") == 1).row(0, named=True)
    t2 = s.filter(pl.col("table") == 2).row(0, named=True)
    assert (t1["ns_imps_num"], t1["ew_imps_num"]) == (t2["ew_imps_num"], t2["ns_imps_num"])
    den = t1["imps_den"]
    return Fraction(t1["ns_imps_num"], den), Fraction(t1["ew_imps_num"], den), out


def test_without_the_setting_average_plus_and_minus_are_3_imps():
    assert board4(boards("A+/-", "4S 10 620"), "wbf")[:2] == (F("3"), F("-3"))


def test_average_plus_is_the_better_of_3_and_the_average_imps(impavg):
    # T1 not at fault: max(3, 3.67) = 3.67; T2 at fault: min(-3, -3.67) = -3.67
    t1, t2, out = board4(boards("A+/-", "4S 10 620"), impavg)
    assert (t1, t2) == (F("3.67"), F("-3.67"))
    m = matches(out.scored).row(0, named=True)
    assert m["home_net"] == pytest.approx(10 + 0 + 1 + 3.67)
    assert m["away_net"] == pytest.approx(-10 - 0 - 1 - 3.67)


def test_under_the_2007_laws_average_minus_stays_fixed(impavg):
    assert board4(boards("A+/-", "4S 10 620"), impavg, "2007")[:2] == (F("3.67"), F("-3"))


def test_an_average_below_3_leaves_average_plus_at_3(impavg):
    # T2 given Av+ (not at fault) has -3.67 on its other boards: max(3, -3.67) = 3;
    # T1 at fault gets min(-3, 3.67) = -3
    assert board4(boards("A-/+", "4S 10 620"), impavg)[:2] == (F("-3"), F("3"))


def test_a_team_with_no_other_board_keeps_the_fixed_imps(impavg):
    assert board4(boards("A+/-", "4S 10 620", others=False), impavg)[:2] == (F("3"), F("-3"))


def test_a_cancelled_board_gives_each_team_its_own_average_plus(impavg):
    # Law 86B2(a): A+ at both tables, nobody at fault: board cancelled, each team Av+ once:
    # T1 max(3, 3.67) = 3.67, T2 max(3, -3.67) = 3
    assert board4(boards("A+/+", "A+/+"), impavg)[:2] == (F("3.67"), F("3"))


def test_a_fixed_percentage_is_never_changed(impavg):
    # A60/40 is a fixed code (Law 12C2(d)): +3 / -3 whatever the averages
    assert board4(boards("A60/40", "4S 10 620"), impavg)[:2] == (F("3"), F("-3"))


def test_a_ruling_table_artificial_score_follows_the_rule(impavg):
    r = ruling(
        "R1", "artificial", 4, "T1", "T2", round="1", ns_result="A+", ew_result="A-",
        offending="EW",
    )  # fmt: skip
    assert board4(boards("4S 10 620", "4S 10 620"), impavg, rulings=[r])[:2] == (
        F("3.67"),
        F("-3.67"),
    )
