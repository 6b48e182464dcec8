"""The times of the rulings and appeals logs (``ruled_at``, ``decided_at``...) are read as
``YYYY-MM-DD HH:MM[:SS]``: a time written in full takes a faster path than ``strptime``,
which must give the very same value, and refuse the very same texts."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipelines.scoring.rulings import parse_time


def strptime_reading(text: str) -> datetime | None:
    """What ``strptime`` alone reads (the rule: seconds when the time has two colons)."""
    t = text.strip().replace("T", " ")
    fmt = "%Y-%m-%d %H:%M:%S" if t.count(":") == 2 else "%Y-%m-%d %H:%M"
    try:
        return datetime.strptime(t, fmt)
    except ValueError:
        return None


def our_reading(text: str) -> datetime | None:
    try:
        return parse_time(text)
    except ValueError:
        return None


digits = st.text(alphabet="0123456789", min_size=1, max_size=4)


@given(
    st.tuples(digits, digits, digits, digits, digits, st.one_of(st.none(), digits)),
    st.sampled_from([" ", "T"]),
)
def test_every_time_reads_as_strptime_reads_it(parts, sep):
    year, month, day, hour, minute, second = parts
    text = f"{year}-{month}-{day}{sep}{hour}:{minute}" + (f":{second}" if second else "")
    assert our_reading(text) == strptime_reading(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2026-11-02 19:41", datetime(2026, 11, 2, 19, 41)),
        ("2026-11-02T19:41:05", datetime(2026, 11, 2, 19, 41, 5)),
        ("2026-11-2 9:05", datetime(2026, 11, 2, 9, 5)),  # strptime's one-digit fields
        (" 2026-11-02 19:41 ", datetime(2026, 11, 2, 19, 41)),
    ],
)
def test_times_as_written(text, value):
    assert parse_time(text) == value


@pytest.mark.parametrize("text", ["2026-02-30 10:00", "2026-11-02 24:00", "2026-11-02 19:41:60"])
def test_impossible_times_are_refused(text):
    with pytest.raises(ValueError, match="is not a date and time"):
        parse_time(text)
