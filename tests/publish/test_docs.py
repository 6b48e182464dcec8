"""Every code block of README.md and docs/ runs, or is checked against what it shows.

A fenced block is claimed by exactly one check, chosen by its language and first line; a
block no check claims fails (so a new example cannot go untested):

* ``csv`` / ``pbn`` — an inbox file: ``traveller validate`` on it says "no problems";
* ``xml`` — a USEBIO file: read with no row rejected;
* ``sh`` — each command: ``make T`` names a Makefile target; ``traveller …`` parses with the
  CLI's own options; ``python -c`` runs against the published sample's warehouse; the
  reconciliation example runs as written; ``dagster…`` commands and options exist in the
  installed Dagster; ``docker``/``kubectl``/``helm`` (not on this machine) name files that
  exist; ``psql`` queries of the dashboards' views are run by tests/postgres/test_dashboards.py;
* ``sql`` — runs in a real PostgreSQL (skipped when PostgreSQL is absent, unless
  ``TRAVELLER_REQUIRE_POSTGRES=1``, which ``.ci/run`` sets);
* ``text`` — a run summary: the lines appear in the output of a real run of the case it
  describes (for the incremental run's, of a second run too); a field list: the reader's
  columns; a map or diagram: every path it names exists.

Uses the published sample of ``tests/publish/conftest.py`` (one run shared with the other
publication tests).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
import typer
from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.formats import read_file
from pipelines.formats.rulings import RULING_COLUMNS
from tests.conftest import REALDATA, ROOT, shared_file
from tests.publish.conftest import Sample
from tests.publish.test_official_only import RESULTS

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent


@dataclass(frozen=True)
class Block:
    """One fenced code block: its file, first line number, language and text."""

    path: Path
    line: int
    lang: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def first(self) -> str:
        return self.text.lstrip().split("\n", 1)[0]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of ``path`` (fences of three backticks at any indent)."""
    out, lines, start, lang = [], path.read_text(encoding="utf-8").split("\n"), None, ""
    for n, line in enumerate(lines, 1):
        fence = re.match(r"^\s*```(\w*)\s*$", line)
        if not fence:
            continue
        if start is None:
            start, lang = n, fence.group(1)
        else:
            body = "\n".join(lines[start : n - 1])
            indent = min(
                (len(x) - len(x.lstrip()) for x in body.split("\n") if x.strip()), default=0
            )
            text = "\n".join(x[indent:] for x in body.split("\n")) + "\n"
            out.append(Block(path, start, lang, text))
            start = None
    return out


ALL = [b for p in DOCS for b in blocks(p)]


def commands(text: str) -> list[list[str]]:
    """The shell commands of a block: comments dropped, continued lines joined, split as the
    shell does (``&&`` separates commands)."""
    joined = re.sub(r"\\\n", " ", text)
    out: list[list[str]] = []
    for line in _lines(joined):
        words = shlex.split(line, comments=True)
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            out.append(words[:cut])
            words = words[cut + 1 :]
    return [c for c in out if c]


def _lines(text: str) -> list[str]:
    """The command lines of ``text``: a line continues while a quote is open."""
    out: list[str] = []
    pending = ""
    for line in text.split("\n"):
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending, comments=True)
        except ValueError:
            continue
        out.append(pending)
        pending = ""
    assert not pending, f"unclosed quote: {pending}"
    return out


# --- inbox files ---------------------------------------------------------------------------

#: The name an inbox example is written under, from its header's first column (results are
#: dated by their file's name, as a club that sends no ``events.csv`` names them).
CSV_NAMES = {
    "event_id,session,section": "results-2026-11-02.csv",
    "event_id,session,section,board,dealer": "hands-2026-11-02.csv",
    "event_id,session,date": "events.csv",
    "event_id,contestant": "contestants.csv",
    "ruling_id,": "rulings.csv",
}


def check_inbox_file(block: Block, tmp_path: Path, sample: Sample) -> None:
    """An inbox example is a file ``traveller validate`` accepts as it is."""
    if block.lang == "csv":
        heads = [head for head in CSV_NAMES if block.first.startswith(head)]
        assert heads, f"{block.id}: which inbox file is this? {block.first}"
        name = CSV_NAMES[max(heads, key=len)]  # the longest header that fits
    else:
        name = "example-2026-11-02.pbn"
    path = tmp_path / name
    path.write_text(block.text, encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(path)])
    assert r.exit_code == 0 and "no problems" in r.output, f"{block.id}:\n{r.output}"


def check_usebio(block: Block, tmp_path: Path, sample: Sample) -> None:
    """A USEBIO example reads with nothing rejected."""
    path = tmp_path / "example.xml"
    path.write_text(block.text, encoding="utf-8")
    result = read_file(path, tmp_path)
    assert result.format == "usebio" and result.rejected.height == 0, result.rejected
    assert result.results.height >= 1


# --- shell ---------------------------------------------------------------------------------

MAKE_TARGETS = set(
    re.findall(r"^([A-Za-z][\w-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
)
#: Tools a deployment uses that this machine does not have: their commands are checked for
#: the repository files they name.
EXTERNAL = {"docker", "kubectl", "helm"}


def parse_traveller(args: list[str]) -> None:
    """Parse ``traveller ARGS`` with the CLI's own click commands (options, arguments), down
    to the subcommand, without running it."""
    cmd: click.Command = typer.main.get_command(app)
    ctx = cmd.make_context("traveller", list(args), resilient_parsing=False)
    while isinstance(cmd, click.Group):
        rest = [*ctx.protected_args, *ctx.args]
        name, cmd, rest = cmd.resolve_command(ctx, rest)
        ctx = cmd.make_context(name, rest, parent=ctx)


def check_dagster(words: list[str]) -> None:
    """A Dagster command exists in the installed Dagster with every option it uses: the
    longest run of its leading words that ``--help`` shows as the command's usage."""
    exe = BIN / words[0]
    assert exe.exists(), f"{words[0]} is not installed in the environment"
    lead = []
    for w in words[1:]:
        if w.startswith("-"):
            break
        lead.append(w)
    for k in range(len(lead), -1, -1):
        r = subprocess.run([exe, *lead[:k], "--help"], capture_output=True, text=True, timeout=120)
        usage = r.stdout.split("\n", 1)[0]
        if r.returncode == 0 and " ".join([words[0], *lead[:k]]) in usage:
            break
    else:
        pytest.fail(f"no such command: {words}")
    for option in (w for w in words[1:] if w.startswith("-")):
        assert re.search(rf"(^|[\s,]){re.escape(option)}\b", r.stdout), (words, option)


def check_external(words: list[str]) -> None:
    """A docker/kubectl/helm command: every repository file it names exists."""
    for w in words:
        if re.match(r"^(docs|pipelines|assets|sql)/", w):
            assert (ROOT / w).exists(), f"{w} does not exist"


def run_python_example(code: str, sample: Sample, tmp_path: Path) -> None:
    """A ``python -c`` example runs from the project folder of a user who has run the sample."""
    (tmp_path / "data").mkdir(exist_ok=True)
    shutil.copy(sample.warehouse, tmp_path / "data" / "warehouse.duckdb")
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip(), "the example printed nothing"


def check_shell(block: Block, tmp_path: Path, sample: Sample) -> None:
    """Each command of a shell block: see the module docstring."""
    cmds = commands(block.text)
    assert cmds, block.id
    if any(c[:2] == ["mkdir", "-p"] for c in cmds):
        run_shell_example(block, tmp_path, sample)
    for words in cmds:
        tool = Path(words[0]).name
        if tool == "make":
            assert words[1] in MAKE_TARGETS, f"{block.id}: no make target {words[1]}"
        elif tool == "traveller":
            parse_traveller(words[1:])
        elif tool.startswith("python"):
            assert words[1] == "-c", words
            run_python_example(words[2], sample, tmp_path)
        elif tool.startswith("dagster"):
            check_dagster([tool, *words[1:]])
        elif tool in EXTERNAL:
            check_external(words)
        elif tool in {"mkdir", "cp"}:
            continue  # run by run_shell_example
        elif tool == "psql":
            # a dashboard's query of the PostgreSQL warehouse: tests/postgres/test_dashboards.py
            # runs it as written, as the dashboards' role, on a warehouse
            assert "dashboards." in block.text, f"{block.id}: a psql example not run anywhere"
        else:
            pytest.fail(f"{block.id}: no check knows the command {words[0]!r}")


def run_shell_example(block: Block, tmp_path: Path, sample: Sample) -> None:
    """An example that builds on ``make run`` runs as written, in a project folder where
    ``make run`` has been done (the published sample), each command in turn."""
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    shutil.copytree(sample.exports, project / "data" / "exports")
    shutil.copy(sample.warehouse, project / "data" / "warehouse.duckdb")
    (project / ".venv").mkdir()
    (project / ".venv" / "bin").symlink_to(BIN)
    env = {**os.environ, "TRAVELLER_NOW": "2026-11-30 12:00"}
    for line in _lines(block.text):
        words = shlex.split(line, comments=True)
        if not words or words[0] == "make":
            continue
        r = subprocess.run(
            line, shell=True, cwd=project, capture_output=True, text=True, timeout=600, env=env
        )
        # traveller run exits 3 when rows were rejected (see the README's exit statuses)
        assert r.returncode in (0, 3), f"{block.id}: {line}\n{r.stdout}\n{r.stderr}"
    made = [p for p in (project / "data").rglob("*.html")]
    assert made, f"{block.id}: the example wrote no report"


# --- SQL (PostgreSQL) ----------------------------------------------------------------------


def _pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return versions[-1].parent if versions else None


def check_postgres_sql(block: Block, tmp_path: Path, sample: Sample) -> None:
    """A PostgreSQL example runs in a real PostgreSQL (a throw-away cluster), after creating
    the database and the writer role it names."""
    pg = _pg_bin()
    if pg is None:
        if os.environ.get("TRAVELLER_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL is not installed (TRAVELLER_REQUIRE_POSTGRES=1)")
        pytest.skip("PostgreSQL is not installed")
    root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="traveller-pg-", dir="/tmp"))
    as_pg = ["runuser", "-u", "postgres", "--"] if root else []
    try:
        if root:
            shutil.chown(base, "postgres")
        data, sock = base / "data", base
        subprocess.run(
            [*as_pg, pg / "initdb", "-D", data, "-A", "trust", "-U", "postgres"],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                *as_pg,
                pg / "pg_ctl",
                "-D",
                data,
                "-w",
                "-l",
                base / "log",
                "-o",
                f"-k {sock} -c listen_addresses='' -p 54329",
                "start",
            ],
            check=True,
            capture_output=True,
        )
        psql = [
            *as_pg,
            pg / "psql",
            "-h",
            str(sock),
            "-p",
            "54329",
            "-U",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-q",
        ]
        setup = ["-c", "CREATE ROLE traveller_writer LOGIN", "-c", "CREATE DATABASE traveller"]
        subprocess.run([*psql, *setup], check=True, capture_output=True)
        script = base / "example.sql"
        script.write_text(block.text, encoding="utf-8")
        if root:
            shutil.chown(script, "postgres")
        r = subprocess.run([*psql, "-d", "traveller", "-f", script], capture_output=True, text=True)
        assert r.returncode == 0, f"{block.id}: {r.stderr}"
    finally:
        if (base / "data" / "postmaster.pid").exists():
            subprocess.run(
                [*as_pg, pg / "pg_ctl", "-D", base / "data", "-m", "immediate", "stop"],
                capture_output=True,
            )
        shutil.rmtree(base, ignore_errors=True)


# --- text ----------------------------------------------------------------------------------


def _same_lines(block: Block, output: str) -> None:
    squash = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    got = {squash(x) for x in output.splitlines()}
    for line in block.text.strip().splitlines():
        assert squash(line) in got, f"{block.id}: not in the run's output: {line}\n{output}"


def check_held_summary(block: Block, tmp_path: Path, sample: Sample) -> None:
    """The held-event summary is what ``traveller run`` prints for two clubs' files of one
    evening, one stating 450 for 4S= (420, Law 77)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1", s=420))
    (inbox / "results-2026-11-21-b.csv").write_text(RESULTS.format(e="BAD2", s=450))
    r = CliRunner().invoke(
        app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")]
    )
    assert r.exit_code == 4, r.output
    _same_lines(block, r.output)


def check_incremental_summary(block: Block, tmp_path: Path, sample: Sample) -> None:
    """What ``traveller run`` says it recomputes for one club's file of 21 November in a new
    inbox (``recompute:``), and what it says when run again on the same inbox (``nothing
    new:``, the warehouse file not written)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-21-a.csv").write_text(RESULTS.format(e="OK1", s=420))
    args = ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    if block.text.startswith("recompute:"):
        _same_lines(block, first.output)
        return
    before = (tmp_path / "w.duckdb").read_bytes()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    _same_lines(block, again.output)
    assert (tmp_path / "w.duckdb").read_bytes() == before


def check_profiles_summary(block: Block, tmp_path: Path, sample: Sample) -> None:
    """The ``profiles`` summary is what ``traveller run`` prints for the real files."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for f in sorted(shared_file(REALDATA).glob("*")):
        if f.suffix in (".xml", ".pbn", ".bws"):
            shutil.copy(f, inbox / f.name)
    r = CliRunner().invoke(
        app, ["run", "--inbox", str(inbox), "--warehouse", str(tmp_path / "w.duckdb")]
    )
    assert r.exit_code in (0, 3, 4), r.output
    _same_lines(block, r.output)


def check_field_list(block: Block, tmp_path: Path, sample: Sample) -> None:
    """The ruling log's field list is the reader's columns, in order."""
    fields = [f.strip() for f in block.text.replace("\n", " ").split(",") if f.strip()]
    assert fields == list(RULING_COLUMNS[2:])


def check_targets(block: Block, tmp_path: Path, sample: Sample) -> None:
    """The benchmark's targets list as ``traveller bench --end-to-end`` prints it: the
    targets of :data:`pipelines.bench_e2e.TARGETS`, in order, each verdict the one its
    measured figure gives against the target's bound."""
    from pipelines.bench_e2e import TARGETS

    lines = block.text.splitlines()
    assert lines[0] == "targets (nightly scale)"
    rows = [re.fullmatch(r"  (.+?)\s{2,}(\S.*?)  (met|not met)", line) for line in lines[1:]]
    assert all(rows), f"{block.id}: a line is not 'target  measured  verdict'"
    assert [m.group(1) for m in rows] == [label for label, _ in TARGETS]
    for m in rows:
        label, measured, verdict = m.groups()
        value = float(re.sub(r"[^\d.]", "", measured.split()[0]))
        if "writes nothing" in label:
            met = value == 0
        else:
            bound = float(re.sub(r"[^\d.]", "", label.split("=")[-1].split()[0]))
            bound *= 1024 if label.endswith("GB") else 1  # the peak is measured in MB
            met = value >= bound if ">=" in label else value <= bound
        assert verdict == ("met" if met else "not met"), f"{block.id}: {label}: {measured}"


def check_paths(block: Block, tmp_path: Path, sample: Sample) -> None:
    """A map or diagram: every path of the project it names exists."""
    named = re.findall(r"(?<![\w./])((?:pipelines|assets|sql|tests|docs)/[\w./*-]*\w)", block.text)
    assert named, f"{block.id}: no path named"
    for p in named:
        assert list(ROOT.glob(p)) or (ROOT / p).exists(), f"{block.id}: {p} does not exist"


Check = Callable[[Block, Path, Sample], None]


def check_for(block: Block) -> Check | None:
    """The one check that claims ``block``, or None."""
    first = block.first
    if block.lang in ("csv", "pbn"):
        return check_inbox_file
    if block.lang == "xml" and "<USEBIO" in first:
        return check_usebio
    if block.lang == "sh":
        return check_shell
    if block.lang == "sql":
        return check_postgres_sql
    if block.lang == "text":
        if first.startswith("status "):
            return check_held_summary
        if first.startswith("profiles "):
            return check_profiles_summary
        if first.startswith(("recompute: ", "nothing new: ")):
            return check_incremental_summary
        if first.startswith("ruling_id,"):
            return check_field_list
        if first.startswith("targets (nightly scale)"):
            return check_targets
        return check_paths
    return None


def test_the_documents_have_code_blocks():
    assert len(ALL) >= 20 and {b.lang for b in ALL} >= {"sh", "csv", "xml", "pbn", "sql", "text"}


@pytest.mark.parametrize("block", ALL, ids=[b.id for b in ALL])
def test_every_code_block_runs_or_is_checked(block: Block, tmp_path: Path, sample: Sample):
    check = check_for(block)
    assert check is not None, f"{block.id}: a {block.lang or 'plain'} block no test checks"
    check(block, tmp_path, sample)
