"""What a process computed once it does not compute again (:mod:`pipelines.memo`), and what
it recalls is what it would have computed: the sample's audit reports, season dashboard and
double-dummy tables, made again in the same process with every drawing and every solver
call made to fail, are the same bytes as made afresh."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipelines import deals, memo
from pipelines.reports import charts, plots, season
from pipelines.stages import reports
from pipelines.warehouse import Warehouse, query
from tests.conftest import memories
from tests.publish.conftest import NOW, Sample


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _refused(*_args, **_kwargs):
    raise AssertionError("computed again")


def test_reports_and_dashboard_again_draw_nothing_and_are_the_same_bytes(
    sample: Sample, tmp_path: Path, monkeypatch, nothing_remembered
):
    wh = Warehouse(sample.warehouse)

    def make(name: str) -> dict[str, bytes]:
        # the dashboard's "Generated" line at one clock: three makes may straddle a minute
        monkeypatch.setenv("TRAVELLER_NOW", NOW)
        reports(wh, ("audit", "transparency"), tmp_path / name)
        season.render_season(sample.warehouse, tmp_path / name / "season.html")
        return _files(tmp_path / name)

    # every chart drawn, nothing kept: what a run in a process of its own makes
    for memory in memories():
        monkeypatch.setattr(memory, "keep", 0)
    fresh = make("fresh")
    assert len(charts.DRAWN_HERE) == 0
    monkeypatch.undo()
    first = make("first")
    assert len(charts.DRAWN_HERE) > 10  # the sample's funnel panels and its trend
    assert len(season._bars.memory) == 3 and len(season._lines.memory) == 1
    # again, in other folders (nothing kept on disk there): only the memory can answer
    for drawing in ("_panel", "trend_svg", "legend_svg"):
        monkeypatch.setattr(plots, drawing, _refused)
    monkeypatch.setattr(season, "bars_figure", _refused)
    monkeypatch.setattr(season, "Figure", _refused)
    again = make("again")
    assert fresh.keys() == first.keys() == again.keys() and "transparency.html" in first
    assert fresh == first == again


def test_deals_solved_once_are_not_solved_again(sample: Sample, monkeypatch, nothing_remembered):
    with Warehouse(sample.warehouse).connect(read_only=True) as conn:
        held = query(conn, "publish/deals_to_analyse")
        if held.height == 0:  # every deal analysed: the deals themselves
            held = conn.sql("SELECT * FROM deals").pl()
    assert held.height > 0
    solved = deals.analyse(held)
    assert 0 < len(deals.TABLES) <= solved.height
    import endplay.dds

    monkeypatch.setattr(endplay.dds, "calc_all_tables", _refused)
    assert deals.analyse(held).equals(solved)
    # a deal turned a quarter (another deal) is solved, not recalled
    turned = held.head(1).with_columns(
        north=pl.col("east"), east=pl.col("south"), south=pl.col("west"), west=pl.col("north")
    )
    with pytest.raises(AssertionError, match="computed again"):
        deals.analyse(turned)


def test_digest_tells_frames_values_and_order_apart():
    a = pl.DataFrame({"x": [1, 2]})
    assert memo.digest(a) == memo.digest(pl.DataFrame({"x": [1, 2]}))
    assert memo.digest(a) != memo.digest(pl.DataFrame({"x": [2, 1]}))
    assert memo.digest(a) != memo.digest(pl.DataFrame({"y": [1, 2]}))
    assert memo.digest(a) != memo.digest(a.cast({"x": pl.Int32}))
    assert memo.digest(a) != memo.digest(a.write_csv())
    assert memo.digest("a", "b") != memo.digest("b", "a") != memo.digest("ab")
    assert memo.digest(None) != memo.digest("null")


def test_remembered_recalls_equal_arguments_only():
    calls: list[object] = []

    @memo.remembered(keep=2)
    def f(df: pl.DataFrame, scale: int = 1) -> int:
        calls.append((df.height, scale))
        return int(df["x"].sum()) * scale

    one = pl.DataFrame({"x": [1, 2]})
    assert f(one) == 3 and f(pl.DataFrame({"x": [1, 2]})) == 3
    assert f(one, scale=2) == 6 and f(one, 2) == 6  # named and by place: two keys
    assert calls == [(2, 1), (2, 2), (2, 2)]
    f(pl.DataFrame({"x": [5]}))  # a third key lets the least recently used go
    assert len(f.memory) == 2


def test_memory_lets_the_least_recently_used_go():
    m = memo.Memory(keep=2)
    m.put("a", 1)
    m.put("b", 2)
    assert m.get("a") == 1  # "a" used: "b" is now the least recently used
    m.put("c", 3)
    assert (m.get("a"), m.get("b"), m.get("c")) == (1, None, 3)
