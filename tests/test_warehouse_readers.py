"""A run that keeps its DuckDB file open lets other processes read it for a while
(:meth:`pipelines.warehouse.Warehouse.open_to_readers`), then keeps it open again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipelines import warehouse as warehouse_mod
from pipelines.warehouse import Warehouse

#: A reader in another process (a sensor's tick, a report): opens the file read-only, says
#: so, reads for two seconds.
_READER = (
    "import duckdb, sys, time\n"
    "c = duckdb.connect(sys.argv[1], read_only=True)\n"
    "print('reading', flush=True)\n"
    "time.sleep(2)\n"
)


def test_the_file_is_kept_open_again_once_another_reader_has_finished(tmp_path: Path):
    """A process still reading the file when the block ends (the file was open to any reader
    meanwhile) does not fail the run: the file is opened for writing again once it is done,
    held as many times as before."""
    path = tmp_path / "w.duckdb"
    wh = Warehouse(path)
    wh.keep_open()
    wh.keep_open()
    reader = None
    try:
        with wh.open_to_readers():
            assert wh._key() not in warehouse_mod._KEPT
            reader = subprocess.Popen(
                [sys.executable, "-c", _READER, str(path)], stdout=subprocess.PIPE, text=True
            )
            assert reader.stdout.readline().strip() == "reading"
        assert reader.poll() is not None  # it had finished before the file was opened again
        _conn, holds = warehouse_mod._KEPT[wh._key()]
        assert holds == 2
        with wh.connect() as cur:
            cur.execute("CREATE TABLE written_after (x INTEGER)")
    finally:
        if reader is not None:
            reader.wait()
        wh.release()
        wh.release()
    assert wh._key() not in warehouse_mod._KEPT
