"""Render frames as Markdown metadata for the Dagster UI; the result of an asset that wrote."""

from collections.abc import Mapping
from typing import Any

import dagster as dg
import polars as pl


def table(df: pl.DataFrame, rows: int = 30) -> dg.MetadataValue:
    """A Polars frame as a Markdown table (first ``rows`` rows), or ``none``."""
    if df.height == 0:
        return dg.MetadataValue.text("none")
    with pl.Config(
        tbl_formatting="MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        tbl_rows=rows,
        tbl_cols=-1,
        fmt_str_lengths=80,
    ):
        return dg.MetadataValue.md(str(df.head(rows)))


def materialized(
    rows: int, figures: Mapping[str, Any] | None = None, **result: Any
) -> dg.MaterializeResult:
    """The result of an asset that wrote ``rows`` rows (``dagster/row_count``), with the
    stage's ``figures`` as further metadata (``result``: e.g. the ``asset_key``)."""
    return dg.MaterializeResult(metadata={"dagster/row_count": rows, **(figures or {})}, **result)
