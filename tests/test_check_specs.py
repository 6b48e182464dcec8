"""The checks as data (pipelines/check_specs.py) and the one function that runs them."""

from __future__ import annotations

import polars as pl
import pytest

from pipelines import stages
from pipelines.check_specs import CHECKS, CheckSpec, spec
from pipelines.warehouse import Warehouse


def test_a_check_that_holds_its_events_cannot_block():
    with pytest.raises(ValueError, match="cannot block"):
        CheckSpec("x", "a", "checks/vp_balance", True, "", False, "rows", holds_events=True)


def test_failures_are_the_unbalanced_rows_or_every_row():
    rows = pl.DataFrame({"file": ["a", "b", "c"], "balanced": [True, False, None]})
    assert spec("rows_accounted").failures(rows)["file"].to_list() == ["b"]
    assert spec("victory_points_balanced").failures(rows).height == 3


def test_every_check_passes_on_an_empty_warehouse(tmp_path):
    wh = Warehouse(tmp_path / "w.duckdb")
    for c in CHECKS:
        ok, bad = stages.check(wh, c.name, "2026-11-02" if c.partitioned else None)
        assert ok and bad.height == 0, c.name


def test_a_check_of_dates_needs_its_dates(tmp_path):
    with pytest.raises(ValueError, match="run for session dates"):
        stages.check(Warehouse(tmp_path / "w.duckdb"), "rows_accounted")
    with pytest.raises(KeyError):
        spec("no_such_check")


def test_a_declared_check_with_an_unknown_rule_or_key_is_an_error(tmp_path):
    from pipelines.check_specs import load

    head = '[[check]]\nname = "x"\nasset = "a"\nsql = "s"\nblocking = true\n'
    head += 'partitioned = false\nrows_key = "rows"\ndescription = ""\n'
    (tmp_path / "a.toml").write_text(head + 'offending = "nothing"\n')
    with pytest.raises(ValueError, match="no rule"):
        load(tmp_path / "a.toml")
    (tmp_path / "b.toml").write_text(head + "colour = 1\n")
    with pytest.raises(ValueError, match="check x"):
        load(tmp_path / "b.toml")


def test_a_contestant_twice_in_one_version_of_a_standings_fails_the_check(tmp_path):
    """Pair 1 NS twice in version 2 of event E's session on 2 November (as a contestant
    labelled from another's rows once made it): the check names it, and only it; the same
    pair in version 1 and pair 1 EW are no duplicates."""
    wh = Warehouse(tmp_path / "w.duckdb")
    rows = [
        ("session", 1, "2026-11-02", "1", "NS", 2),
        ("session", 1, "2026-11-02", "1", "NS", 2),
        ("session", 1, "2026-11-02", "1", "NS", 1),
        ("session", 1, "2026-11-02", "1", "EW", 2),
        ("event", None, "2026-11-02", "2", "NS", 2),
    ]
    with wh.connect() as conn:
        for scope, session, day, contestant, direction, version in rows:
            conn.execute(
                "INSERT INTO standings (event_id, scope, session, session_date, section, "
                "contestant, direction, boards, score, score_num, score_den, penalties, "
                "penalty_num, penalty_den, tied, version) "
                "VALUES ('E', ?, ?, ?, 'A', ?, ?, 18, 40, 40, 1, 0, 0, 1, false, ?)",
                [scope, session, day, contestant, direction, version],
            )
    ok, bad = stages.check(wh, "standings_unique", "2026-11-02")
    assert not ok
    assert bad.select("session_date", "scope", "contestant", "direction", "version").rows() == [
        ("2026-11-02", "session", "1", "NS", 2)
    ]
    assert stages.check(wh, "standings_unique", "2026-11-03")[0]  # another date: not its rows
