"""A whole-table write that keeps the rows a table holds when they begin the new frame.

``Write(keep_head=True)`` must leave the table exactly as deleting it and inserting the frame
would — the same rows in the same order — and skip the delete only when the rows held are, in
order, the first rows of the frame.
"""

from __future__ import annotations

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines import tables as registry
from pipelines import warehouse
from pipelines.warehouse import Warehouse, Write, write

COLUMNS = registry.table("contestants").names


def _frame(rows: list[tuple[str, str | None]]) -> pl.DataFrame:
    """Contestant rows from ``(contestant, names)`` pairs."""
    return pl.DataFrame(
        {
            "file": ["contestants.csv"] * len(rows),
            "location": [f"line {i + 2}" for i in range(len(rows))],
            "event_id": ["E"] * len(rows),
            "contestant": [c for c, _ in rows],
            "direction": [None] * len(rows),
            "names": [n for _, n in rows],
            "player_ids": [None] * len(rows),
            "section": ["A"] * len(rows),
        },
        schema={c: pl.Utf8 for c in COLUMNS},
    )


def _held(conn) -> pl.DataFrame:
    return conn.sql(registry.table("contestants").scan_sql()).pl()


ROWS = st.lists(
    st.tuples(st.sampled_from(["1", "2", "3"]), st.sampled_from([None, "A & B", "C & D"])),
    max_size=6,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    first=ROWS, more=ROWS, edit=st.sampled_from(["append", "same", "change", "shorter", "other"])
)
def test_the_table_is_the_frame_in_its_order(tmp_path, monkeypatch, first, more, edit):
    deletes: list[str] = []
    real = warehouse._delete_text

    def counted(w, table):
        deletes.append(w.table)
        return real(w, table)

    monkeypatch.setattr(warehouse, "_delete_text", counted)
    wh = Warehouse(tmp_path / f"w{abs(hash((tuple(first), tuple(more), edit)))}.duckdb")
    before = _frame(first)
    after = {
        "append": _frame(first + more),
        "same": before,
        "change": _frame([(c, "X & Y") for c, _ in first] + more),
        "shorter": _frame(first[: len(first) // 2]),
        "other": _frame(more + first),
    }[edit]
    with wh.connect() as conn:
        write(conn, [Write("contestants", before, keep_head=True)])
        assert _held(conn).equals(before)
        deletes.clear()
        counts = write(conn, [Write("contestants", after, keep_head=True)])
        assert _held(conn).equals(after), edit
        assert counts == {"contestants": after.height}
        # kept exactly when the rows held begin the frame in order
        begins = before.height <= after.height and after.head(before.height).equals(before)
        assert deletes == ([] if begins else ["contestants"])
    wh.path.unlink()


def test_types_are_compared_as_the_table_holds_them(tmp_path):
    """A frame whose columns come in another order, or another integer type, begins with the
    rows held all the same; a column it lacks is null."""
    wh = Warehouse(tmp_path / "w.duckdb")
    inputs = pl.DataFrame(
        {"session_date": ["2026-11-02"], "fingerprint": ["a"], "results": [3]},
        schema={"session_date": pl.Utf8, "fingerprint": pl.Utf8, "results": pl.Int64},
    )
    more = pl.concat(
        [
            inputs,
            pl.DataFrame({"session_date": ["2026-11-03"], "fingerprint": ["b"], "results": [4]}),
        ]
    ).select("results", "fingerprint", "session_date")
    with wh.connect() as conn:
        write(conn, [Write("date_inputs", inputs, keep_head=True)])
        write(conn, [Write("date_inputs", more, keep_head=True)])
        held = conn.sql(registry.table("date_inputs").scan_sql()).pl()
    assert held.select("session_date", "fingerprint", "results").rows() == [
        (held["session_date"][0], "a", 3),
        (held["session_date"][1], "b", 4),
    ]
    assert [str(d) for d in held["session_date"]] == ["2026-11-02", "2026-11-03"]
