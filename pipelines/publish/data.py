"""What publication reads from the warehouse: one SQL model per question (``sql/publish/``).

Only the newest version of the standings is published (``status <> 'superseded'``), with
the changes that made it; national membership numbers (``contestants.player_ids``) are
never selected, and of a ruling's or an appeal's texts only its ``public_note`` — the
director's and the committee's own ``note`` stays in the warehouse for the audit. A frame
holding a column the registry declares private is refused (:func:`refuse_private`), never
published. Tables and columns that a later stage adds (the IMP forms' ``matches``,
``ns_imps``, ...) are read when the warehouse has them, so pages can show them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from pipelines.tables import private_columns
from pipelines.warehouse import Warehouse, query


@dataclass
class Published:
    """Everything the site and the exports are made from (Polars frames)."""

    sessions: pl.DataFrame
    standings: pl.DataFrame
    results: pl.DataFrame
    changes: pl.DataFrame
    penalties: pl.DataFrame
    extra: dict[str, pl.DataFrame] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """No session has official standings yet."""
        return self.sessions.height == 0


class PrivateColumnError(ValueError):
    """A frame on its way to publication holds a column that is never published."""


def refuse_private(frames: dict[str, pl.DataFrame]) -> None:
    """Raise :class:`PrivateColumnError` when a frame holds a private column of the registry
    (:func:`pipelines.tables.is_private`: a director's note, membership numbers, a rejected
    row as read) under its name or an alias (``ruling_note``)."""
    found = {name: private_columns(df.columns) for name, df in frames.items()}
    found = {name: cols for name, cols in found.items() if cols}
    if found:
        listed = "; ".join(f"{name}: {', '.join(cols)}" for name, cols in sorted(found.items()))
        raise PrivateColumnError(f"private columns would be published ({listed})")


def has_table(conn: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether the warehouse holds ``table`` (a stage that may not exist in this version)."""
    found = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = $t", {"t": table}
    ).fetchall()
    return bool(found and found[0][0])


#: Tables later stages add that publication shows when present (read with ``sql/publish``).
OPTIONAL_TABLES: tuple[str, ...] = ("matches", "reconciliation", "deals")


#: The frames of :class:`Published` read per event (the others are read whole).
PER_EVENT: tuple[str, ...] = ("results", "changes", "penalties")


def load(
    warehouse: Path | str,
    events: Iterable[str] | None = None,
    share: Iterable[str] | None = None,
) -> Published:
    """Read what is published from the warehouse file (read-only): the sessions (the index)
    and the standings (the player pages, across the season) whole; the results, changes,
    penalties, matches, deals and reconciliation of ``events`` only (every event when
    ``None``: :func:`load_events` reads another batch of them). ``share``: the events a
    helper process of the publication makes the pages of — only their standings are kept,
    and no player's lines are read (the player pages are made by the publication itself)."""
    wh = Warehouse(warehouse)
    with wh.connect(read_only=True) as conn:
        if events is None:
            events = query(conn, "publish/sessions")["event_id"].unique().to_list()
        frames = {name: query(conn, f"publish/{name}") for name in ("sessions", "standings")}
        # every player's lines, for the player pages (membership numbers never selected)
        players = query(conn, "publish/players") if share is None else pl.DataFrame()
    if share is not None:
        mine = pl.Series(sorted(set(share)), dtype=pl.Utf8).implode()
        frames["standings"] = frames["standings"].filter(pl.col("event_id").is_in(mine))
    refuse_private({**frames, "players": players})
    batch = load_events(warehouse, events)
    return Published(
        **frames,
        **{name: getattr(batch, name) for name in PER_EVENT},
        extra={**batch.extra, "players": players},
    )


def load_events(warehouse: Path | str, events: Iterable[str]) -> Published:
    """The results, changes, penalties (and, where the warehouse has them, matches, deals and
    reconciliation) of ``events``: one batch of the events a publication makes again. The
    sessions and standings of the batch are left empty (:func:`load` reads them whole)."""
    params = {"events": sorted(events)}
    with Warehouse(warehouse).connect(read_only=True) as conn:
        frames = {name: query(conn, f"publish/{name}", params) for name in PER_EVENT}
        extra = {
            t: query(conn, f"publish/{t}", params) for t in OPTIONAL_TABLES if has_table(conn, t)
        }
    refuse_private({**frames, **extra})
    return Published(sessions=pl.DataFrame(), standings=pl.DataFrame(), **frames, extra=extra)


def event_sizes(warehouse: Path | str) -> dict[str, int]:
    """How many scored results each event has (a batch of events to publish is bounded by
    them)."""
    with Warehouse(warehouse).connect(read_only=True) as conn:
        return dict(query(conn, "publish/event_sizes").rows())


def event_keys(warehouse: Path | str) -> dict[str, str]:
    """What each event's pages and files are made from, as one key per event
    (``sql/publish/event_keys.sql``: its dates' input fingerprints and output hashes, its hand
    records), with the engine's code and templates: an event whose key is the one of the last
    publication needs nothing read, rendered or written."""
    from pipelines.incremental import code_fingerprint

    with Warehouse(warehouse).connect(read_only=True) as conn:
        rows = query(conn, "publish/event_keys").rows()
    code = code_fingerprint()
    return {event_id: f"{code[:16]}:{made_from}" for event_id, made_from in rows}
