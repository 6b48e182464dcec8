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
        (:mod:`pipelines.run_lock`): a ``traveller run`` and a run of ``make dev`` never
        interleave their stages; a DuckDB file stays open for the run's steps
        (:meth:`pipelines.warehouse.Warehouse.keep_open`). Waits ``$TRAVELLER_WAIT`` (e.g.
        ``5m``; default: not at all), then fails the run before any step with one line naming
        the holder. Schedules and sensors, which only read, take no lock."""
        if getattr(context, "run", None) is not None:
            from pipelines import run_lock

            wait = run_lock.parse_wait(os.environ.get("TRAVELLER_WAIT"))
            run_lock.acquire(self.path, wait)
            try:
                # the file stays open for the run's stages (Warehouse.keep_open)
                self.get().keep_open()
            except BaseException:
                run_lock.release(self.path)
                raise

    def teardown_after_execution(self, context: dg.InitResourceContext) -> None:
        """Give the run lock back (:meth:`setup_for_execution`)."""
        if getattr(context, "run", None) is not None:
            from pipelines import run_lock

            try:
                self.get().release()
            finally:
                run_lock.release(self.path)


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
