"""``traveller validate``: every problem in a set of files, without touching the warehouse.

The files are read and validated exactly as the pipeline would (same readers,
same event resolution, same row checks, same Law 77 check), except that no
session date is needed. Each problem is one line
``file:location: field: message``.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.formats import read_file
from pipelines.formats.model import EVENT_COLUMNS, RESULT_COLUMNS
from pipelines.inbox import validate_contestants
from pipelines.scoring.events import resolve_events, with_defaults
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
    validated, rejected = validate_results(results, with_defaults(resolved))
    every = pl.concat([*(r.rejected for r in reads), ev_rejected, cont_rejected, rejected])
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


def warnings(paths: list[Path]) -> list[str]:
    """Warnings about ``paths``: inputs that are kept but deserve a look (e.g. a Bridgemate
    entry superseded by a later one), as ``warning: file:location: field: message``."""
    out = []
    for p in paths:
        r = read_file(p, Path.cwd())
        for w in r.warnings.iter_rows(named=True):
            out.append(f"warning: {w['file']}:{w['location']}: {w['field']}: {w['reason']}")
    return out
