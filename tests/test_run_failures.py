"""A run stopped by an error nobody foresaw says, on its first line, which step failed and
with what: ``traveller run`` without ``--debug`` shows that line alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.runner import RunFailed, run_inbox


def _inbox(tmp_path: Path) -> Path:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-a.csv").write_text(
        "event_id,session,section,round,table,board,ns_pair,ew_pair,contract,declarer,tricks,"
        "score\n"
        "EV1,1,A,1,1,1,1,2,4S,N,10,420\n"
        "EV1,1,A,1,2,1,3,4,4S,N,11,450\n"
        "EV1,1,A,2,1,2,1,4,2H,E,8,-110\n"
        "EV1,1,A,2,2,2,3,2,2H,E,9,-140\n",
        encoding="utf-8",
    )
    (inbox / "events.csv").write_text(
        "event_id,session,date,name,movement\nEV1,1,2026-11-21,Failing Pairs,howell\n",
        encoding="utf-8",
    )
    return inbox


def test_a_publication_that_fails_names_its_step_and_error_first(tmp_path, monkeypatch):
    """The publication raises (a full disk): the run's error begins "publishing failed:
    publication: OSError: [Errno 28] ..." — the step and the engine's own error, not
    Dagster's wrapper —, and the whole error follows on the next lines."""
    import assets.publish

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.setattr(assets.publish, "publish", full_disk)
    with pytest.raises(RunFailed) as failed:
        run_inbox(_inbox(tmp_path), tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    lines = str(failed.value).splitlines()
    assert lines[0] == (
        "publishing failed: publication: OSError: [Errno 28] No space left on device"
    )
    assert any("full_disk" in line for line in lines[1:])  # the traceback follows


def test_the_command_line_shows_that_first_line(tmp_path, monkeypatch, capsys):
    """Without ``--debug`` the command line prints one line: the first of the run's error."""
    import assets.publish
    from pipelines import cli

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.setattr(assets.publish, "publish", full_disk)
    monkeypatch.setenv("TRAVELLER_PUBLISH", str(tmp_path / "out"))
    inbox = _inbox(tmp_path)
    with pytest.raises(SystemExit) as ended:
        cli.app(["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")])
    assert ended.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        "traveller: unexpected error: RunFailed: publishing failed: publication: OSError: "
        "[Errno 28] No space left on device (run again with --debug for the details, and "
        "please report it)"
    )


class DiskTrouble(RuntimeError):
    """An engine's own exception, outside ``builtins`` (Python names it with its module)."""


def test_the_first_line_names_the_engines_exception_not_its_cause(tmp_path, monkeypatch):
    """The publication raises its own exception from an ``OSError``: the first line names
    that exception by its class name (not ``tests.test_run_failures.DiskTrouble``, nor the
    ``OSError`` it was raised from)."""
    import assets.publish

    def full_disk(*args, **kwargs):
        try:
            raise OSError(28, "No space left on device")
        except OSError as exc:
            raise DiskTrouble("the site's disk is full\nsecond line") from exc

    monkeypatch.setenv("TRAVELLER_NOW", "2026-11-30 12:00")
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.setattr(assets.publish, "publish", full_disk)
    with pytest.raises(RunFailed) as failed:
        run_inbox(_inbox(tmp_path), tmp_path / "w.duckdb", publish_to=tmp_path / "out")
    assert str(failed.value).splitlines()[0] == (
        "publishing failed: publication: DiskTrouble: the site's disk is full"
    )


def test_an_error_line_keeps_the_bare_class_name():
    """A Dagster error record's message names a class outside ``builtins`` with its module;
    the line keeps the class name alone, and a message without text is the class name."""
    from types import SimpleNamespace

    from pipelines.runner import _error_line

    def record(message, cls_name):
        return SimpleNamespace(message=message, cls_name=cls_name)

    assert _error_line(
        record("pipelines.publish.HelperFailed: it failed: why\nmore", "HelperFailed")
    ) == ("HelperFailed: it failed: why")
    assert (
        _error_line(record("OSError: [Errno 28] full\n", "OSError")) == "OSError: [Errno 28] full"
    )
    assert _error_line(record("_duckdb.IOException\n", "IOException")) == "IOException"
    assert _error_line(record("", "KeyError")) == "KeyError"
    assert _error_line(record("something else entirely", "ValueError")) == (
        "ValueError: something else entirely"
    )
