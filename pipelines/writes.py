"""A write to the warehouse, whatever the backend: which slice of which table a frame replaces
(:class:`Write`), and the parameters a statement binds (:func:`bound`). Both
:mod:`pipelines.warehouse` (DuckDB) and :mod:`pipelines.pg_warehouse` (PostgreSQL) use them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import polars as pl


@dataclass(frozen=True)
class Write:
    """Replace the slice of ``table`` chosen by ``params`` with ``frame``.

    The slice is the registry's (:meth:`pipelines.tables.Table.delete_sql`: the partition
    columns named in ``params``), or the model ``sql/write/<delete>.delete.sql`` when
    ``delete`` is given or the table declares one (a slice with logic)."""

    table: str
    frame: pl.DataFrame
    params: dict[str, Any] | None = None
    delete: str | None = None  # a delete model with logic instead of the table's slice
    #: a write of a whole table (no slice) that keeps the rows the table holds when they are,
    #: in its order, row for row, the first rows of ``frame``, and inserts only the rest:
    #: the same table, without rewriting what a night only added to (DuckDB; PostgreSQL
    #: rewrites the table)
    keep_head: bool = False


def bound(text: str, params: dict[str, Any] | None) -> dict[str, Any] | None:
    """Only the parameters a statement names (DuckDB rejects unused named parameters)."""
    if not params:
        return None
    used = {k: v for k, v in params.items() if re.search(rf"\${k}\b", text)}
    return used or None
