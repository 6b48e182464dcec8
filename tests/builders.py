"""Build small sessions for tests: canonical rows -> validated -> scored -> standings."""

from __future__ import annotations

import polars as pl

from pipelines.formats.model import RESULT_COLUMNS, frame
from pipelines.scoring.events import EVENTS_SCHEMA, with_defaults
from pipelines.scoring.score import score_results
from pipelines.scoring.standings import session_standings
from pipelines.scoring.validate import validate_results


def events(
    profile: str = "wbf",
    movement: str = "howell",
    event_id: str = "E",
    sessions: tuple[int, ...] = (1,),
    expected: int | None = None,
) -> pl.DataFrame:
    """Resolved events rows for one event."""
    rows = {c: [None] * len(sessions) for c in EVENTS_SCHEMA}
    rows.update(
        event_id=[event_id] * len(sessions),
        session=list(sessions),
        profile=[profile] * len(sessions),
        movement=[movement] * len(sessions),
        expected_results=[expected] * len(sessions),
    )
    return with_defaults(pl.DataFrame(rows, schema=EVENTS_SCHEMA))


def score_row(
    board: int, ns: str, ew: str, score: str, event_id: str = "E", session: int = 1, line: int = 0
) -> dict:
    """One canonical row whose result is given as a score (played results use a PASS
    placeholder contract; tests set ``computed_score`` directly through :func:`scored`)."""
    return dict(
        file="t.csv",
        location=f"line {line}",
        event_id=event_id,
        session=str(session),
        board=str(board),
        ns_pair=ns,
        ew_pair=ew,
        score=score,
        contract=None if score.startswith("A") or score == "NP" else "PASS",
    )


def scored(
    rows: list[dict], profile: str = "wbf", movement: str = "howell", expected: int | None = None
) -> pl.DataFrame:
    """Validate and score rows. A played row's score is forced to its ``score`` field, so a
    test can state NS scores directly (the Law 77 computation is tested on its own)."""
    raw = frame(rows, RESULT_COLUMNS)
    sessions = tuple(sorted({int(r["session"]) for r in rows}))
    event_ids = sorted({r["event_id"] for r in rows})
    ev = pl.concat([events(profile, movement, e, sessions, expected) for e in event_ids])
    validated, rejected = validate_results(raw, ev)
    assert rejected.height == 0, rejected
    forced = pl.Series(
        [int(r["score"]) if r["contract"] == "PASS" else None for r in rows], dtype=pl.Int64
    )
    validated = validated.with_columns(
        pl.when(pl.col("kind") == "played").then(forced).alias("computed_score")
    )
    return score_results(validated)


def board(scores: list[int | str], board_no: int = 1, first_pair: int = 1) -> list[dict]:
    """Rows of one board: table t has NS pair first_pair+2t, EW pair first_pair+2t+1."""
    out = []
    for t, s in enumerate(scores):
        out.append(
            score_row(
                board_no, str(first_pair + 2 * t), str(first_pair + 2 * t + 1), str(s), line=t + 2
            )
        )
    return out


def standings(scored_frame: pl.DataFrame) -> pl.DataFrame:
    """Session standings of a scored frame."""
    return session_standings(scored_frame)
