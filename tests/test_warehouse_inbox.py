"""The inbox scan (dating, accounting) and the warehouse's transactional partition writes."""

from __future__ import annotations

from datetime import date

import duckdb
import polars as pl
import pytest

from pipelines.inbox import scan
from pipelines.incremental import changed_dates, watch_state
from pipelines.warehouse import Warehouse, Write, write

RESULTS = """event_id,session,board,ns_pair,ew_pair,contract,declarer,tricks,score
E1,1,1,1,2,4S,N,10,420
E1,1,1,3,4,4S,N,9,-50
E2,1,1,1,2,3NT,S,9,400
"""


def test_dates_from_events_then_file_name(tmp_path):
    (tmp_path / "results-2026-11-05.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text("event_id,session,date\nE1,1,2026-11-04\n")
    snap = scan(tmp_path, today=date(2026, 11, 30))
    dates = dict(zip(snap.results["event_id"], snap.results["session_date"], strict=True))
    assert dates == {"E1": "2026-11-04", "E2": "2026-11-05"}
    assert snap.rejected.height == 0
    reg = snap.files.filter(pl.col("file") == "results-2026-11-05.csv").row(0, named=True)
    assert reg["dates"] == ["2026-11-04", "2026-11-05"]
    assert reg["rows_read"] == reg["rows_reference"] + reg["rows_dated"] + reg["rows_rejected"]


def test_future_dates_and_undated_rows_are_rejected(tmp_path):
    (tmp_path / "results.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text("event_id,session,date\nE1,1,2031-01-01\n")
    snap = scan(tmp_path, today=date(2026, 11, 30))
    assert snap.results.height == 0
    reasons = snap.rejected.sort("location")["reason"].to_list()
    assert "session date '2031-01-01' is not a date between 1990-01-01 and tomorrow" in reasons
    assert any(r.startswith("no date for event E2 session 1") for r in reasons)
    reg = snap.files.filter(pl.col("file") == "results.csv").row(0, named=True)
    assert reg["rows_rejected"] == 3 and reg["rows_dated"] == 0


def test_duplicate_event_definitions_are_rejected(tmp_path):
    (tmp_path / "results.csv").write_text(
        "event_id,session,board,ns_pair,ew_pair,contract,declarer,tricks,score\n"
        "E1,1,1,1,2,4S,N,10,420\nE3,1,1,1,2,4S,N,10,420\n"
    )
    (tmp_path / "events.csv").write_text(
        "event_id,session,date,profile\nE1,1,2026-11-04,ebu\nE1,1,2026-11-05,wbf\nE3,1,x,zzz\n"
    )
    snap = scan(tmp_path, today=date(2026, 11, 30))
    # E3's row names its event session but none of its details passes: the event is known,
    # its details are the defaults, and it is held (never scored on them in silence)
    assert snap.events.select("event_id", "date", "profile").rows() == [
        ("E1", "2026-11-04", "ebu"),
        ("E3", None, "wbf"),
    ]
    assert snap.event_holds.select("event_id", "session", "location", "field").rows() == [
        ("E3", "1", "line 4", "date"),
        ("E3", "1", "line 4", "profile"),
    ]
    rows = snap.rejected.filter(pl.col("file") == "events.csv")
    by_line = rows.group_by("location").agg(pl.col("field"))
    fields = {r["location"]: sorted(r["field"]) for r in by_line.iter_rows(named=True)}
    assert fields == {"line 3": ["event_id"], "line 4": ["date", "profile"]}


def test_an_events_row_naming_no_event_is_rejected_with_the_known_events(tmp_path):
    """An events.csv key that is no event id, no file and no program identifier is a typo
    (E9 for E1), not a new event: rejected, with the events the inbox knows."""
    (tmp_path / "results.csv").write_text(RESULTS)
    (tmp_path / "events.csv").write_text(
        "event_id,session,date\nE1,1,2026-11-04\nE9,1,2026-11-04\n"
    )
    snap = scan(tmp_path, today=date(2026, 11, 30))
    assert snap.events["event_id"].to_list() == ["E1"]
    bad = snap.rejected.filter(pl.col("file") == "events.csv").row(0, named=True)
    assert (bad["location"], bad["field"], bad["raw"]) == ("line 3", "event_id", "E9")
    assert "known events: E1, E2" in bad["reason"]


def test_watch_state_and_changed_dates(tmp_path):
    (tmp_path / "results-2026-11-05.csv").write_text(RESULTS)
    s1 = watch_state(tmp_path)
    assert changed_dates({}, s1) == ["2026-11-05"]
    assert changed_dates(s1, s1) == []
    (tmp_path / "events.csv").write_text("event_id,session,date\nE1,1,2026-11-04\n")
    s2 = watch_state(tmp_path)
    # the events file moves E1 to the 4th: both dates are touched
    assert changed_dates(s1, s2) == ["2026-11-04", "2026-11-05"]
    # appending an event for another date touches none of the dates already there
    (tmp_path / "events.csv").write_text(
        "event_id,session,date\nE1,1,2026-11-04\nE9,1,2026-11-09\n"
    )
    assert changed_dates(s2, watch_state(tmp_path)) == []
    # the results withdrawn: both their dates are touched (withdrawn)
    (tmp_path / "results-2026-11-05.csv").unlink()
    assert changed_dates(s2, watch_state(tmp_path)) == ["2026-11-04", "2026-11-05"]


def test_partition_write_is_one_transaction(tmp_path):
    wh = Warehouse(tmp_path / "w.duckdb")
    good = pl.DataFrame(
        {
            "stage": ["validate"],
            "session_date": ["2026-11-02"],
            "file": ["f"],
            "location": ["line 2"],
            "field": ["x"],
            "reason": ["r"],
            "raw": [None],
        }
    )
    day = {"session_date": "2026-11-02"}
    with wh.connect() as conn:
        write(conn, [Write("rejected_inputs", good, {"stage": "validate", **day})])
    bad = good.with_columns(pl.lit(None, pl.Utf8).alias("reason"))  # violates NOT NULL
    with wh.connect() as conn, pytest.raises(duckdb.Error):
        write(conn, [Write("rejected_inputs", bad, {"stage": "validate", **day})])
    with wh.connect() as conn:
        rows = conn.sql("SELECT reason FROM rejected_inputs").pl()
    assert rows["reason"].to_list() == ["r"]  # the delete was rolled back with the insert


def test_player_ids_never_reach_the_standings(tmp_path):
    from pipelines.runner import run_inbox
    from pipelines.synth.inbox import generate_inbox

    generate_inbox(tmp_path / "inbox", sessions=1, clubs=1, seed=5)
    db = tmp_path / "w.duckdb"
    run_inbox(tmp_path / "inbox", db)
    with duckdb.connect(str(db), read_only=True) as c:
        cols = [r[0] for r in c.sql("DESCRIBE standings").fetchall()]
        ids = [r[0] for r in c.sql("SELECT player_ids FROM contestants").fetchall()]
        text = c.sql("SELECT * FROM standings").pl().write_csv()
    assert "player_ids" not in cols
    assert ids and not any(i.split(";")[0] in text for i in ids)


def test_ruling_and_appeal_logs_as_json_lines(tmp_path):
    # the same fields as the CSV logs, one JSON object per line, detected by content
    (tmp_path / "results-2026-11-05.csv").write_text(RESULTS)
    (tmp_path / "rulings-2026-11-05.jsonl").write_text(
        '{"ruling_id": "R1", "event_id": "E1", "session": 1, "board": 1, "ns_pair": "1", '
        '"ew_pair": "2", "kind": "assigned", "offending": "EW", "ns_result": "4S N +1"}\n'
        '{"ruling_id": "R2", "event_id": "E1", "session": 1, "kind": "procedural_penalty", '
        '"penalized": "3", "penalty": "25%", "approved": false}\n'
    )
    (tmp_path / "log-b.jsonl").write_text(
        '{"appeal_id": "A1", "ruling_id": "R1", "outcome": "upheld", '
        '"decided_at": "2026-11-05 23:00"}\nnot json\n'
    )
    snap = scan(tmp_path, today=date(2026, 11, 30))
    assert snap.rulings.select("ruling_id", "kind", "session", "approved").rows() == [
        ("R1", "assigned", "1", None),
        ("R2", "procedural_penalty", "1", "false"),
    ]
    assert snap.appeals.select("appeal_id", "ruling_id", "session_date").rows() == [
        ("A1", "R1", "2026-11-05")
    ]
    bad = snap.rejected.row(0, named=True)
    assert (bad["file"], bad["location"]) == ("log-b.jsonl", "line 2")
    assert bad["reason"].startswith("not valid JSON")


def test_a_contestant_listed_by_every_session_is_one_contestant():
    """Each session of a multi-session event lists its pairs (USEBIO SESSION/.../PARTICIPANTS):
    the same pair, same names and numbers, is kept once; other names under the same number in
    the same event are rejected with where the pair was first listed."""
    from pipelines.formats.model import CONTESTANT_COLUMNS
    from pipelines.inbox import validate_contestants

    def row(loc: str, contestant: str, names: str) -> dict:
        return dict(
            zip(
                CONTESTANT_COLUMNS,
                ("club.xml", loc, "E1", contestant, None, names, None, "A"),
                strict=True,
            )
        )

    frame = pl.DataFrame(
        [
            row("SESSION[1]/PAIR[1]", "1", "Ann A - Bob B"),
            row("SESSION[1]/PAIR[2]", "2", "Cid C - Dee D"),
            row("SESSION[2]/PAIR[1]", "2", "Cid C - Dee D"),  # the same pair again
            row("SESSION[2]/PAIR[2]", "1", "Eve E - Fay F"),  # another pair as number 1
        ],
        schema={c: pl.Utf8 for c in CONTESTANT_COLUMNS},
    )
    ok, rejected = validate_contestants(frame)
    assert sorted(ok["names"].to_list()) == ["Ann A - Bob B", "Cid C - Dee D"]
    assert rejected["location"].to_list() == ["SESSION[2]/PAIR[2]"]
    assert "already listed at club.xml:SESSION[1]/PAIR[1]" in rejected["reason"][0]


def _compscore(club: str, ident: str) -> str:
    """A small Compscore USEBIO file of club ``club``'s event ``ident``."""
    from tests.formats.test_usebio import BOARDS, PAIRS, usebio

    return (
        usebio(PAIRS + BOARDS)
        .replace("<CLUB_ID_NUMBER>77<", f"<CLUB_ID_NUMBER>{club}<")
        .replace("<EVENT_IDENTIFIER>501<", f"<EVENT_IDENTIFIER>{ident}<")
    )


def test_events_csv_keyed_by_the_programs_own_event_identifier(tmp_path):
    """Compscore numbers a club's events (EVENT_IDENTIFIER 501); Traveller's id adds the
    club (77-501). A scorer may key events.csv by the number the file carries."""
    (tmp_path / "club77.xml").write_text(_compscore("77", "501"))
    (tmp_path / "club78.xml").write_text(_compscore("78", "502"))
    (tmp_path / "events.csv").write_text("event_id,session,profile\n501,,wbf\n")
    snap = scan(tmp_path, today=date(2026, 11, 30))
    chosen = snap.events.sort("event_id").select("event_id", "profile", "profile_source").rows()
    assert chosen[0][:2] == ("77-501", "wbf") and "events.csv" in chosen[0][2]
    assert chosen[1][:2] == ("78-502", "abf")  # Compscore3 → abf, from the file's program
    assert snap.rejected.filter(pl.col("file") == "events.csv").height == 0


def test_a_program_identifier_two_files_share_is_rejected(tmp_path):
    """Two clubs may both number an event 501: the key is ambiguous, never applied to both."""
    (tmp_path / "club77.xml").write_text(_compscore("77", "501"))
    (tmp_path / "club78.xml").write_text(_compscore("78", "501"))
    (tmp_path / "events.csv").write_text("event_id,session,profile\n501,,wbf\n")
    snap = scan(tmp_path, today=date(2026, 11, 30))
    assert set(snap.events["profile"].to_list()) == {"abf"}
    bad = snap.rejected.filter(pl.col("file") == "events.csv").row(0, named=True)
    assert (bad["location"], bad["field"], bad["raw"]) == ("line 2", "event_id", "501")
    assert "several events (77-501, 78-501)" in bad["reason"]


LOG_HEADER = (
    "ruling_id,event_id,session,section,board,round,table,ns_pair,ew_pair,director,called_at,"
    "ruled_at,laws,kind,offending,ns_result,ew_result,board_version,penalized,penalty,"
    "approved,note\n"
)


def test_a_ruling_takes_its_sessions_date_from_the_results(tmp_path):
    """E1 is dated by its results file's name only (no events.csv): its ruling log, whose
    own name carries no date, is dated by the session's results; a ruling for a session
    dated nowhere (E7) is still rejected."""
    (tmp_path / "results-2026-11-05.csv").write_text(RESULTS)
    (tmp_path / "rulings.csv").write_text(
        LOG_HEADER
        + "R1,E1,1,,1,,,3,4,TD A,2026-11-05 20:00,2026-11-05 20:05,12C2(a),artificial,NS,"
        "A-,A+,,,,,board could not be played\n"
        + "R2,E7,1,,1,,,1,2,TD A,2026-11-05 20:00,2026-11-05 20:05,12C2(a),artificial,NS,"
        "A-,A+,,,,,\n"
    )
    snap = scan(tmp_path, today=date(2026, 11, 30))
    assert snap.rulings.select("ruling_id", "session_date").rows() == [("R1", "2026-11-05")]
    (bad,) = snap.rejected.filter(pl.col("file") == "rulings.csv").to_dicts()
    assert bad["location"] == "line 3" and bad["reason"].startswith("no date for event E7")
    reg = snap.files.filter(pl.col("file") == "rulings.csv").row(0, named=True)
    assert reg["dates"] == ["2026-11-05"]


def test_a_ruling_dated_by_the_results_is_applied_by_a_run(tmp_path):
    from pipelines.runner import run_inbox

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "results-2026-11-05.csv").write_text(RESULTS)
    (inbox / "rulings.csv").write_text(
        LOG_HEADER
        + "R1,E1,1,,1,,,3,4,TD A,2026-11-05 20:00,2026-11-05 20:05,12C2(a),artificial,NS,"
        "A-,A+,,,,,board could not be played\n"
    )
    wh = tmp_path / "w.duckdb"
    run_inbox(inbox, wh)
    with duckdb.connect(str(wh), read_only=True) as conn:
        rows = conn.execute(
            "SELECT ruling_id, CAST(session_date AS VARCHAR) FROM rulings ORDER BY ALL"
        ).fetchall()
        rejected = conn.execute("SELECT count(*) FROM rejected_inputs").fetchone()[0]
        table = conn.execute(
            "SELECT ns_art, ew_art FROM scored_results WHERE event_id = 'E1' AND ns_pair = '3'"
        ).fetchall()
    # the director's Av-/Av+ (Law 12C2(a)) replaced the table's result
    assert rows == [("R1", "2026-11-05")] and rejected == 0 and table == [("-", "+")]


def test_the_inbox_lists_every_file_a_link_names_and_nothing_hidden_in_path_order(tmp_path):
    """``inbox_files`` (one listing per folder) lists what the inbox holds as ``rglob`` and
    paths' own order would: regular files under any folder, links to files and broken links
    (refused later by name, never skipped), in paths' part-by-part order; not hidden files,
    what hidden folders hold, links to folders (neither listed nor followed) or a pipe."""
    import os

    from pipelines.inbox import inbox_files

    inbox = tmp_path / "inbox"
    (inbox / "b" / "c").mkdir(parents=True)
    (inbox / "a-b").mkdir()
    (inbox / ".hidden").mkdir()
    for rel in ["z.csv", "b/x.pbn", "b/c/y.xml", "a-b/w.csv", "b.csv", ".dot.csv", ".hidden/h.csv"]:
        (inbox / rel).write_text("x")
    (inbox / "link.csv").symlink_to(inbox / "z.csv")
    (inbox / "broken.csv").symlink_to(tmp_path / "gone.csv")
    (inbox / "folder-link").symlink_to(inbox / "b", target_is_directory=True)
    os.mkfifo(inbox / "pipe")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.csv").write_text("x")
    (inbox / "b" / "out").symlink_to(outside, target_is_directory=True)

    listed = inbox_files(inbox)
    reference = sorted(
        p
        for p in inbox.rglob("*")
        if (p.is_file() or (p.is_symlink() and not p.is_dir()))
        and not any(part.startswith(".") for part in p.relative_to(inbox).parts)
    )
    assert listed == reference
    assert [p.relative_to(inbox).as_posix() for p in listed] == [
        "a-b/w.csv",
        "b/c/y.xml",
        "b/x.pbn",
        "b.csv",
        "broken.csv",
        "link.csv",
        "z.csv",
    ]
