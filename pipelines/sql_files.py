"""The SQL models of ``sql/``: where the folder is and a model's text (no database here), for
both warehouse backends (:mod:`pipelines.warehouse`, :mod:`pipelines.pg_warehouse`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path


def sql_dir() -> Path:
    """The ``sql/`` folder: beside the package in a checkout, inside it (``_sql``) in a
    wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "sql", here / "_sql"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the sql/ folder was not found beside the pipelines package")


@cache
def sql(name: str) -> str:
    """The text of ``sql/<name>.sql`` (e.g. ``"read/events"``)."""
    path = sql_dir() / f"{name}.sql"
    if not path.is_file():
        raise FileNotFoundError(f"no SQL model {name!r} at {path}")
    return path.read_text(encoding="utf-8")
