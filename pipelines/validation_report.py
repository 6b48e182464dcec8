"""``traveller validate``: every problem in a set of files, without touching the warehouse.

The files are read and validated exactly as the pipeline would (same readers,
same event resolution, same row checks, same Law 77 check, same checks of ruling and
appeal logs), except that no session date is needed. A ruling log given without the
results it is about is checked on its own (notation and the rules of each kind). Each
problem is one line
``file:location: field: message``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.formats import read_file
from pipelines.formats.model import EVENT_COLUMNS, REJECT_COLUMNS, RESULT_COLUMNS, empty_frame
from pipelines.formats.rulings import APPEAL_COLUMNS, RULING_COLUMNS
from pipelines.inbox import validate_contestants
from pipelines.scoring.events import resolve_events, with_defaults
from pipelines.scoring.rulings import validate_rulings
from pipelines.scoring.validate import validate_results


def problems(paths: list[Path]) -> tuple[list[str], int]:
    """Problems found in ``paths`` (in file order), and the number of rows checked.

    Warnings (kept inputs worth a look) are not problems: see :func:`warnings`.
    """
    reads = [read_file(p, Path.cwd()) for p in paths]
    rows = sum(r.rows_read for r in reads)
    lines: list[str] = []
    events = pl.concat(
        [
            r.events.select(EVENT_COLUMNS).with_columns(
                pl.lit(0 if r.format == "events_csv" else 1).alias("priority")
            )
            for r in reads
        ]
    )
    resolved, ev_rejected = resolve_events(events)
    contestants = pl.concat([r.contestants for r in reads])
    _, cont_rejected = validate_contestants(contestants)
    results = pl.concat([r.results.select(RESULT_COLUMNS) for r in reads])
    resolved = with_defaults(resolved)
    validated, rejected = validate_results(results, resolved)
    ruling_rejected = _logs(reads, validated if results.height else None, resolved)
    every = pl.concat(
        [*(r.rejected for r in reads), ev_rejected, cont_rejected, rejected, ruling_rejected]
    )
    for r in every.iter_rows(named=True):
        lines.append(f"{r['file']}:{r['location']}: {r['field']}: {r['reason']}")
    wrong = validated.filter(pl.col("score_agrees") == False)  # noqa: E712
    for r in wrong.iter_rows(named=True):
        lines.append(
            f"{r['file']}:{r['location']}: score: stated {r['stated_score']} but "
            f"{r['contract']} by {r['declarer']} taking {r['tricks']} tricks on board "
            f"{r['board']} scores {r['computed_score']} for NS (Law 77)"
        )
    order = {p: i for i, p in enumerate(r.file for r in reads)}
    lines.sort(key=lambda line: order.get(line.split(":", 1)[0], len(order)))
    return lines, rows


def _logs(reads: list, validated: pl.DataFrame | None, events: pl.DataFrame) -> pl.DataFrame:
    """Check the ruling and appeal logs among the files: against the results among them if
    there are any, else on their own (notation and the rules of each kind)."""
    rulings = [r.rulings for r in reads if r.rulings is not None and r.rulings.height]
    appeals = [r.appeals for r in reads if r.appeals is not None and r.appeals.height]
    if not rulings and not appeals:
        return pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    rf = (pl.concat(rulings) if rulings else empty_frame(RULING_COLUMNS)).with_columns(
        pl.lit(None, pl.Utf8).alias("session_date")
    )
    af = (
        (pl.concat(appeals) if appeals else empty_frame(APPEAL_COLUMNS))
        .join(
            rf.select("ruling_id", "event_id", "session").unique("ruling_id"),
            on="ruling_id",
            how="left",
        )
        .with_columns(pl.lit(None, pl.Utf8).alias("session_date"))
    )
    return validate_rulings(rf, af, validated, events).rejected


def warnings(paths: list[Path]) -> list[str]:
    """Warnings about ``paths``: inputs that are kept but deserve a look (e.g. a Bridgemate
    entry superseded by a later one), as ``warning: file:location: field: message``."""
    out = []
    for p in paths:
        r = read_file(p, Path.cwd())
        for w in r.warnings.iter_rows(named=True):
            out.append(f"warning: {w['file']}:{w['location']}: {w['field']}: {w['reason']}")
    return out
