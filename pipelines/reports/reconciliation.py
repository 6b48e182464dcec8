"""The reconciliation report: per file, the official figures compared and reproduced, and
each difference with both values and its reason (from the ``reconciliation`` and
``reconciliation_files`` tables; see :mod:`pipelines.scoring.reconcile`). HTML (Jinja2,
autoescape on) or CSV of the differences."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.reports.audit import _env


def write(diffs: pl.DataFrame, files: pl.DataFrame, out: Path, fmt: str = "html") -> Path:
    """Write ``out/reconciliation.html`` (or ``.csv``: the differences, one a row)."""
    out.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        path = out / "reconciliation.csv"
        diffs.write_csv(path)
        return path
    path = out / "reconciliation.html"
    html = (
        _env()
        .get_template("reconciliation.html.j2")
        .render(
            files=files.to_dicts(),
            diffs=diffs.to_dicts(),
            compared=int(files["compared"].sum()) if files.height else 0,
            reproduced=int(files["reproduced"].sum()) if files.height else 0,
            unexplained=int(files["unexplained"].sum()) if files.height else 0,
        )
    )
    path.write_text(html, encoding="utf-8")
    return path
