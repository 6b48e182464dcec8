"""The helper processes of a shared publication tell it on one queue; a helper killed while
it tells (the out-of-memory killer at its peak) must not leave the publication waiting."""

from __future__ import annotations

import pickle
import select
from pathlib import Path

import pipelines.publish as publish_mod

#: The largest write a pipe takes whole (POSIX: at least 512; Linux: 4096).
PIPE_BUF = getattr(select, "PIPE_BUF", 512)


class _Queue:
    def __init__(self) -> None:
        self.messages: list = []

    def put(self, message) -> None:
        self.messages.append(message)


def _make_a_lot(job: dict) -> dict:
    for event in job["events"]:
        publish_mod._TOLD(event)
    return {"site": {"pages": ["x" * 1000] * 5000}, "events": job["events"]}


def test_every_message_of_a_helper_is_one_whole_write(tmp_path: Path) -> None:
    """A message larger than a pipe's atomic write is written in pieces: a helper killed
    between them leaves the publication reading the rest of it for ever (it reads while the
    helpers run, and a message begun is read to its end). So what a helper made — megabytes
    of pages — does not go on the queue: each message fits one write, and the part is taken
    whole from where the helper left it."""
    queue = _Queue()
    old = publish_mod._TOLD
    try:
        publish_mod._helper(0, _make_a_lot, {"events": ["E1", "E2"]}, queue, str(tmp_path))
    finally:
        publish_mod._TOLD = old
    sizes = [len(pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL)) for m in queue.messages]
    assert max(sizes) + 4 <= PIPE_BUF, sizes  # + the length the connection writes first
    kinds = [m[0] for m in queue.messages]
    assert kinds == ["event", "event", "done"]
    part = publish_mod._taken(Path(queue.messages[-1][2]))
    assert part["events"] == ["E1", "E2"]
    assert len(part["site"]["pages"]) == 5000
    assert not list(tmp_path.iterdir())  # the file is removed once taken


def test_helpers_that_cannot_all_be_started_leave_none_running(monkeypatch) -> None:
    """The second helper cannot be started (no memory for one more process): the first,
    started already, is stopped, and the error raised."""
    import multiprocessing

    import pytest

    ctx = multiprocessing.get_context("spawn")
    real = ctx.Process.start
    started = []

    def start(self):
        if started:
            raise OSError("cannot start another process")
        real(self)
        started.append(self)

    monkeypatch.setattr(ctx.Process, "start", start)
    monkeypatch.setattr(publish_mod, "_made_apart", _make_a_lot)
    with pytest.raises(OSError, match="another process"):
        publish_mod._Helpers([["E1"], ["E2"]], {})
    assert len(started) == 1 and not started[0].is_alive()
