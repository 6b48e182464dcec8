"""A run's process settles its heap (:mod:`pipelines.heap`): the objects alive then leave
the cyclic collector's sight, the collector goes on freeing the cycles made after, and the
command's exit status is the command's. Each case runs in its own Python (settling the
test process's heap would keep every test's garbage)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_settled_objects_leave_the_collector_and_new_cycles_are_still_freed() -> None:
    done = _python(
        """
        import gc, weakref
        from pipelines import heap

        class Node:
            pass

        kept = Node(); kept.me = kept            # alive when settled, in a cycle
        tracked = len(gc.get_objects())
        heap.settle()
        assert gc.get_freeze_count() > tracked // 2 > 0   # the objects alive then
        assert len(gc.get_objects()) < tracked // 10      # the collector's own lists emptied
        assert not any(o is kept for o in gc.get_objects())  # no collection looks at it
        later = Node(); later.me = later          # made after: a cycle as any other
        gone = weakref.ref(later)
        del later
        gc.collect()
        assert gone() is None                     # the collector still frees it
        assert kept.me is kept                    # the settled object is untouched
        print("ok")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_command_line_keeps_its_exit_status(tmp_path: Path) -> None:
    """``traveller`` settles its heap as it ends (``main``), whatever the command's status:
    a usage error is still 2, a command that succeeds still 0."""
    missing = tmp_path / "no-such-inbox"
    usage = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "run", "--inbox", str(missing),
         "--warehouse", str(tmp_path / "w.duckdb")],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert usage.returncode == 2, usage.stderr
    assert "no-such-inbox" in usage.stderr + usage.stdout
    listed = subprocess.run(
        [sys.executable, "-m", "pipelines.cli", "profiles", "--brief"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    assert "ebu" in listed.stdout
