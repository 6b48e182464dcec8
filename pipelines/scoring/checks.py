"""Small helpers to express row checks as data: (failing condition, field, reason)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from pipelines.formats.model import REJECT_COLUMNS


@dataclass(frozen=True)
class Check:
    """A row check: rows where ``fails`` is true are rejected for ``field`` with ``reason``.

    ``reason`` is an expression so the message can quote the offending value.
    """

    field: str
    fails: pl.Expr
    reason: pl.Expr


def apply_checks(
    df: pl.DataFrame, checks: list[Check], raw: pl.Expr
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Split ``df`` into (accepted rows, rejected rows) by ``checks``.

    A row failing several checks yields one rejected row per failure, so the
    scorer sees every problem at once; it is accepted only if it fails none.
    ``raw`` renders the original row for the ``raw`` column.
    """
    if df.height == 0 or not checks:
        return df, pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    flags = df.select(
        *(c.fails.fill_null(False).alias(f"__f{i}") for i, c in enumerate(checks)),
    )
    any_fail = flags.select(pl.any_horizontal(pl.all())).to_series()
    parts = []
    for i, c in enumerate(checks):
        mask = flags[f"__f{i}"]
        if mask.any():
            parts.append(rejections(df.filter(mask), c.field, c.reason, raw))
    rejected = (
        pl.concat(parts) if parts else pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    )
    return df.filter(~any_fail), rejected


def rejections(df: pl.DataFrame, field: str, reason: pl.Expr, raw: pl.Expr) -> pl.DataFrame:
    """Every row of ``df`` rejected for ``field`` with ``reason``: its file and location, the
    reason a scorer reads and the original row (``raw``), as in ``rejected_inputs``."""
    return df.select(
        pl.col("file"),
        pl.col("location"),
        pl.lit(field).alias("field"),
        reason.cast(pl.Utf8).alias("reason"),
        raw.cast(pl.Utf8).alias("raw"),
    )


def quote(col: str) -> pl.Expr:
    """The value of ``col`` for a message: the text, or ``(empty)``."""
    return pl.col(col).fill_null("(empty)")


#: The largest whole number an input field stores (session, board, round, table and the
#: event-session counts are 32-bit integers in the warehouse).
INT32_MAX = 2**31 - 1


def too_large(col: str) -> Check:
    """``col``, when a whole number, is no larger than :data:`INT32_MAX`: a larger one is a
    typo, rejected at its row rather than stopping the run at the cast (digits beyond a
    64-bit integer count as too large too)."""
    v = pl.col(col).fill_null("")
    return Check(
        col,
        v.str.contains(r"^\d+$")
        & (v.cast(pl.Int64, strict=False).fill_null(INT32_MAX + 1) > INT32_MAX),
        pl.format(
            f"{col} '{{}}' is larger than {INT32_MAX}, the largest number Traveller stores: "
            "correct the row",
            quote(col),
        ),
    )
