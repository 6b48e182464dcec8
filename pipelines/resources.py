"""Dagster resources: where the inbox is and where the warehouse file lives.

Both default from the environment so that ``dagster dev``, the schedule, the
sensor and ``traveller run`` agree: ``TRAVELLER_INBOX`` (default: the bundled
sample inbox) and ``TRAVELLER_WAREHOUSE`` (default ``data/warehouse.duckdb``,
relative to the working directory).
"""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from pipelines.settings import SAMPLE_INBOX, default_inbox, default_warehouse
from pipelines.warehouse import Warehouse

__all__ = ["SAMPLE_INBOX", "default_inbox", "default_warehouse"]


class WarehouseResource(dg.ConfigurableResource):
    """The warehouse: a DuckDB file (one writer at a time: runs are queued one by one) or a
    ``postgresql://`` URL (:mod:`pipelines.pg_warehouse`: concurrent runs of different dates,
    readers while a run writes)."""

    path: str

    def get(self) -> Warehouse:
        """The warehouse handle."""
        return Warehouse(self.path)

    def setup_for_execution(self, context: dg.InitResourceContext) -> None:
        """A run holds the warehouse's run lock from its first step to its last
        (:mod:`pipelines.run_lock`). A DuckDB file's is exclusive — a ``traveller run`` and a
        run of ``make dev`` never interleave their stages — and the file stays open for the
        run's steps (:meth:`pipelines.warehouse.Warehouse.keep_open`). A PostgreSQL
        warehouse's is shared by the runs of session dates and held alone by a run of the
        whole-warehouse steps (tagged ``traveller/warehouse: whole``,
        :mod:`pipelines.partition_tags`). Waits ``$TRAVELLER_WAIT`` (e.g. ``5m``; default: not
        at all for a DuckDB file, :data:`pipelines.run_lock.PG_WAIT` for PostgreSQL), then
        fails the run before any step with one line naming the holder. Schedules and
        sensors, which only read, take no lock."""
        run = getattr(context, "run", None)
        if run is not None:
            from pipelines import run_lock
            from pipelines.partition_tags import holds_whole_warehouse

            postgres = run_lock.lock_path(self.path) is None
            wait = run_lock.parse_wait(
                os.environ.get("TRAVELLER_WAIT"), run_lock.PG_WAIT if postgres else 0.0
            )
            run_lock.acquire_run(
                self.path,
                wait,
                shared=not holds_whole_warehouse(dict(run.tags)),
                holder=f"Dagster run {run.run_id[:8]} ({run.job_name})",
            )
            try:
                # the file stays open for the run's stages (Warehouse.keep_open)
                self.get().keep_open()
            except BaseException:
                run_lock.release_run(self.path)
                raise

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        """Give the run lock back (:meth:`setup_for_execution`)."""
        if getattr(context, "run", None) is not None:
            from pipelines import run_lock

            try:
                self.get().release()
            finally:
                run_lock.release_run(self.path)


class InboxResource(dg.ConfigurableResource):
    """The inbox folder scorers drop session results into."""

    path: str

    def get(self) -> Path:
        """The inbox folder."""
        return Path(self.path)


class PublicationResource(dg.ConfigurableResource):
    """The folder publication writes into: ``site/``, ``exports/`` and ``season.html``."""

    path: str

    def get(self) -> Path:
        """The publication folder."""
        return Path(self.path)
