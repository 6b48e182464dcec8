"""The warehouse's tables, declared once: names, columns, types, keys and slices.

Every statement that only restates a table is produced here from :data:`TABLES` — the
``CREATE TABLE`` (:meth:`Table.ddl`), the ``DROP``, the ``INSERT ... BY NAME`` of a frame, the
``DELETE`` of the slice a write replaces and the ``SELECT`` of an export — and the Polars
schema of the frames the engine builds for a table (:func:`polars_schema`). Identifiers come
only from this registry (checked against :data:`IDENTIFIER` when it is built), never from
input; values are always bound as parameters (``$session_date``, ``$event_id``, ...).

A table's *partition* names the columns a write replaces a slice by: the session date for
the results tables, the event for team matches, the stage (and date) for rejections; a table
without one is rewritten whole. A slice that is not a plain equality (the standings: a
session date's session rows and its events' event rows) is SQL that says something and
lives in ``sql/write/<delete>.delete.sql``.

The engine holds dates and times as ISO text (``DATE`` and ``TIMESTAMP`` columns are ``Utf8``
in its frames, DuckDB casts them on insert) and a list of dates as a list of text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

# DuckDB column types used by the warehouse
VARCHAR = "VARCHAR"
INTEGER = "INTEGER"
BIGINT = "BIGINT"
TINYINT = "TINYINT"
DOUBLE = "DOUBLE"
BOOLEAN = "BOOLEAN"
DATE = "DATE"
TIMESTAMP = "TIMESTAMP"
DATE_LIST = "DATE[]"

#: ``NOT NULL`` (the third argument of :class:`Column`).
NOT_NULL = True

#: How the engine's frames hold each DuckDB type.
POLARS_TYPES: dict[str, pl.DataType] = {
    VARCHAR: pl.Utf8(),
    INTEGER: pl.Int32(),
    BIGINT: pl.Int64(),
    TINYINT: pl.Int8(),
    DOUBLE: pl.Float64(),
    BOOLEAN: pl.Boolean(),
    DATE: pl.Utf8(),
    TIMESTAMP: pl.Utf8(),
    DATE_LIST: pl.List(pl.Utf8),
}

#: A table or column name: lower-case letters, digits and underscores.
IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")


def _quoted(name: str) -> str:
    if not IDENTIFIER.match(name):
        raise ValueError(f"not an identifier of the warehouse: {name!r}")
    return f'"{name}"'


@dataclass(frozen=True)
class Column:
    """One column: its name, DuckDB type, whether it may be null, and what it holds."""

    name: str
    type: str
    not_null: bool = False
    doc: str = ""

    def __post_init__(self) -> None:
        _quoted(self.name)
        if self.type not in POLARS_TYPES:
            raise ValueError(f"column {self.name}: unknown type {self.type!r}")


@dataclass(frozen=True)
class Table:
    """A warehouse table and the statements that restate it."""

    name: str
    doc: str
    columns: tuple[Column, ...]
    #: columns a write replaces a slice by (``()``: the whole table)
    partition: tuple[str, ...] = ()
    primary_key: tuple[str, ...] = ()
    #: ``sql/write/<delete>.delete.sql`` when the slice is not an equality on ``partition``
    delete: str | None = None
    #: ``ORDER BY`` of the table's export (``()``: none, the table is not exported in order)
    export: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _quoted(self.name)
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: a column is declared twice")
        for key in (*self.partition, *self.primary_key, *self.export):
            if key not in names:
                raise ValueError(f"table {self.name}: no column {key!r}")

    @property
    def names(self) -> list[str]:
        """The column names, in order."""
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column:
        """The column ``name``."""
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(f"table {self.name} has no column {name!r}")

    def ddl(self) -> str:
        """``CREATE TABLE IF NOT EXISTS`` of the table."""
        lines = [
            f"    {_quoted(c.name)} {c.type}{' NOT NULL' if c.not_null else ''}"
            for c in self.columns
        ]
        if self.primary_key:
            lines.append(f"    PRIMARY KEY ({', '.join(map(_quoted, self.primary_key))})")
        return f"CREATE TABLE IF NOT EXISTS {_quoted(self.name)} (\n" + ",\n".join(lines) + "\n);"

    def drop_sql(self) -> str:
        """``DROP TABLE IF EXISTS`` of the table."""
        return f"DROP TABLE IF EXISTS {_quoted(self.name)};"

    def insert_sql(self, view: str = "incoming") -> str:
        """Copy the registered frame ``view`` into the table by column name."""
        return f"INSERT INTO {_quoted(self.name)} BY NAME SELECT * FROM {_quoted(view)};"

    def delete_sql(self, params: Mapping[str, Any] | None = None) -> str:
        """``DELETE`` of the slice chosen by ``params``: ``col = $col`` for the partition
        columns given (``col IN (...)`` for a list of values), the whole table when it has no
        partition.

        The partition columns go from the coarsest (``stage``, then ``session_date``): a write
        names the first one or more of them. Naming none of a partitioned table's, or a finer
        one without the coarser, is an error, never a wider delete."""
        if not self.partition:
            return f"DELETE FROM {_quoted(self.name)};"
        given = [k for k in self.partition if params and k in params]
        if not given or given != list(self.partition[: len(given)]):
            raise ValueError(
                f"a write to {self.name} must name its slice by {', '.join(self.partition)} "
                f"(from the first), not {', '.join(given) or 'nothing'}"
            )
        terms = []
        for k in given:
            if isinstance(params[k], list | tuple):  # type: ignore[index]
                terms.append(f"{_quoted(k)} IN (SELECT UNNEST(${k}::{self.column(k).type}[]))")
            else:
                terms.append(f"{_quoted(k)} = ${k}")
        return f"DELETE FROM {_quoted(self.name)} WHERE {' AND '.join(terms)};"

    def export_sql(self) -> str:
        """Every row of the table, in its export order."""
        order = f" ORDER BY {', '.join(map(_quoted, self.export))}" if self.export else ""
        return f"SELECT * FROM {_quoted(self.name)}{order};"

    def polars_schema(self, drop: Sequence[str] = ()) -> dict[str, pl.DataType]:
        """The schema of the engine's frames for this table (``drop``: columns it adds later)."""
        return {c.name: POLARS_TYPES[c.type] for c in self.columns if c.name not in drop}


#: The warehouse's own bookkeeping: the fingerprint of the definitions it was built with.
META = Table(
    "warehouse_meta",
    "The fingerprint of the table definitions this warehouse was built with.",
    (Column("schema_version", VARCHAR, NOT_NULL),),
)

#: Every table, in dependency order (created in this order, dropped in the reverse).
#: The columns of a checked table result, shared by ``validated_results`` and the head of
#: ``scored_results`` (which adds the scores, the matchpoints and the IMPs).
RESULT_LINE: tuple[Column, ...] = (
    Column("session_date", DATE, NOT_NULL),
    Column("event_id", VARCHAR, NOT_NULL),
    Column("session", INTEGER, NOT_NULL),
    Column("section", VARCHAR, NOT_NULL),
    Column("round", INTEGER),
    Column(
        "deal_round",
        INTEGER,
        NOT_NULL,
        doc=(
            "the round whose deal the board is (teams; pairs whose profile re-deals per "
            "round); 0: same deals all session"
        ),
    ),
    Column("table", INTEGER),
    Column("board", INTEGER, NOT_NULL),
    Column("ns_pair", VARCHAR, NOT_NULL),
    Column("ew_pair", VARCHAR, NOT_NULL),
    Column("contract", VARCHAR),
    Column("declarer", VARCHAR),
    Column("tricks", TINYINT),
    Column("score_stated", VARCHAR, doc="the score column as the club program wrote it"),
    Column("stated_score", BIGINT, doc="... when it is an NS-signed number"),
    Column(
        "computed_score",
        BIGINT,
        doc="Law 77 score from contract, declarer, tricks, Law 2 vulnerability",
    ),
    Column(
        "score_agrees",
        BOOLEAN,
        doc="false: kept with both values, blocks official standings",
    ),
    Column("kind", VARCHAR, NOT_NULL, doc="played | artificial | not_played"),
    Column("ns_art", VARCHAR, doc="artificial score of each side: 60 50 40 or + = -"),
    Column("ew_art", VARCHAR),
    Column("movement", VARCHAR, NOT_NULL),
    Column("profile", VARCHAR, NOT_NULL),
    Column("expected_results", INTEGER),
    Column("laws", VARCHAR),
    Column("source_ns_mp", DOUBLE, doc="matchpoints the exporting program computed"),
    Column("source_ew_mp", DOUBLE),
    Column("file", VARCHAR, NOT_NULL),
    Column("location", VARCHAR, NOT_NULL),
    Column("format", VARCHAR),
    Column("form", VARCHAR, doc="pairs | individual"),
    Column("scoring", VARCHAR, doc="matchpoints | butler | cross_imps | imps"),
    Column("stage", VARCHAR, doc="teams: round_robin | swiss | knockout"),
    Column("vp_scale", VARCHAR, doc="teams: wbf2013 | wbf2013_discrete | none"),
    Column(
        "boards_per_match",
        INTEGER,
        doc="teams: boards of a match (the VP scale's length)",
    ),
    Column("north", VARCHAR, doc="an individual event's players (sides north/south,"),
    Column("south", VARCHAR, doc="east/west: each player gets its side's score)"),
    Column("east", VARCHAR),
    Column("west", VARCHAR),
)


def _with_doc(columns: tuple[Column, ...], **docs: str) -> tuple[Column, ...]:
    """``columns`` with the docs of the columns named in ``docs`` replaced."""
    return tuple(
        Column(c.name, c.type, c.not_null, docs[c.name]) if c.name in docs else c for c in columns
    )


TABLES: tuple[Table, ...] = (
    Table(
        "source_files",
        (
            "The inbox registry: one row per file, the dates it touches, and how its rows were "
            "accounted for."
        ),
        (
            Column("file", VARCHAR, NOT_NULL, doc="path relative to the inbox"),
            Column("sha256", VARCHAR, NOT_NULL, doc="a changed file is a new version"),
            Column("size", BIGINT, NOT_NULL),
            Column(
                "format",
                VARCHAR,
                NOT_NULL,
                doc="detected from content: csv, events_csv, usebio, pbn, ...",
            ),
            Column("rows_read", BIGINT, NOT_NULL, doc="data rows the file holds"),
            Column(
                "rows_reference",
                BIGINT,
                NOT_NULL,
                doc="event / contestant / official-standing rows emitted",
            ),
            Column(
                "rows_dated",
                BIGINT,
                NOT_NULL,
                doc="table results dated (passed to their partition)",
            ),
            Column(
                "rows_rejected",
                BIGINT,
                NOT_NULL,
                doc="distinct locations rejected while reading",
            ),
            Column(
                "rows_superseded",
                BIGINT,
                NOT_NULL,
                doc="entries a later entry replaced (Bridgemate history)",
            ),
            Column(
                "whole_file_rejected",
                BOOLEAN,
                NOT_NULL,
                doc="the file could not be read at all",
            ),
            Column("dates", DATE_LIST, NOT_NULL, doc="session dates its results belong to"),
        ),
        primary_key=("file",),
    ),
    Table(
        "events",
        (
            "Each event session's details, resolved: events.csv over the file's own header over "
            "defaults."
        ),
        (
            Column("event_id", VARCHAR, NOT_NULL),
            Column("session", INTEGER, NOT_NULL),
            Column("date", DATE),
            Column("name", VARCHAR),
            Column("form", VARCHAR, NOT_NULL, doc="pairs | teams | individual"),
            Column("scoring", VARCHAR, NOT_NULL, doc="matchpoints | butler | cross_imps | imps"),
            Column("movement", VARCHAR, NOT_NULL, doc="howell | mitchell"),
            Column(
                "profile",
                VARCHAR,
                NOT_NULL,
                doc="regulations profile: wbf, ebu, acbl, abf, ffb",
            ),
            Column(
                "profile_source",
                VARCHAR,
                NOT_NULL,
                doc="why this profile: events.csv, the program, --profile, default",
            ),
            Column("program", VARCHAR, doc="the exporting program the file names (USEBIO, PBN)"),
            Column("laws", VARCHAR, NOT_NULL, doc="2017 | 2007"),
            Column("director", VARCHAR),
            Column(
                "correction_minutes",
                INTEGER,
                NOT_NULL,
                doc="Law 79C correction period (default: the profile's)",
            ),
            Column(
                "expected_results",
                INTEGER,
                doc="results expected per board, if the event says",
            ),
            Column(
                "published_at",
                VARCHAR,
                doc="when official scores were made available (Law 79C)",
            ),
            Column("boards_per_match", INTEGER, doc="teams: boards in a match (VP scale length)"),
            Column("vp_scale", VARCHAR, doc="teams: wbf2013 | wbf2013_discrete | none (knockout)"),
            Column("stage", VARCHAR, doc="teams: round_robin | swiss | knockout"),
            Column("file", VARCHAR, doc="where the (strongest) definition came from"),
            Column("location", VARCHAR),
            Column("club", VARCHAR, doc="the organising club (default: the event id's prefix)"),
            Column(
                "level",
                VARCHAR,
                NOT_NULL,
                doc="club | congress | national (the audit's controls)",
            ),
            Column(
                "appeal_minutes",
                INTEGER,
                NOT_NULL,
                doc="Law 92B time to appeal (default: the profile's)",
            ),
        ),
        primary_key=("event_id", "session"),
    ),
    Table(
        "contestants",
        (
            "Contestants' names. player_ids are national membership numbers: stored, never "
            "published."
        ),
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("contestant", VARCHAR, NOT_NULL),
            Column("direction", VARCHAR, doc="NS | EW in a Mitchell, null in a Howell"),
            Column("names", VARCHAR),
            Column("player_ids", VARCHAR),
            Column("section", VARCHAR, doc="the contestant's section; null: that number in any"),
        ),
    ),
    Table(
        "deals",
        (
            "Hand records: the deal of each board as the files carry it (USEBIO HANDSET, PBN "
            "[Deal], Bridgemate HandRecord, a hands.pbn), checked to be a deal of the pack "
            "(pipelines/deals.py). Hands are spades.hearts.diamonds.clubs."
        ),
        (
            Column("event_id", VARCHAR, NOT_NULL),
            Column("session", INTEGER, NOT_NULL),
            Column("section", VARCHAR, doc="null: the deal of that board in every section"),
            Column("board", INTEGER, NOT_NULL),
            Column("dealer", VARCHAR, NOT_NULL, doc="N E S W (the file's, else Law 2's)"),
            Column(
                "vulnerability", VARCHAR, NOT_NULL, doc="None NS EW Both (the file's, else Law 2's)"
            ),
            Column("north", VARCHAR, NOT_NULL),
            Column("east", VARCHAR, NOT_NULL),
            Column("south", VARCHAR, NOT_NULL),
            Column("west", VARCHAR, NOT_NULL),
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
        ),
        export=("event_id", "session", "section", "board"),
    ),
    Table(
        "deal_analysis",
        (
            "Double-dummy tricks (declarer_strain: n_nt ... w_c) and par of each deal, computed "
            "once per deal (its cards, dealer and vulnerability) with endplay (DDS)."
        ),
        (
            Column("north", VARCHAR, NOT_NULL),
            Column("east", VARCHAR, NOT_NULL),
            Column("south", VARCHAR, NOT_NULL),
            Column("west", VARCHAR, NOT_NULL),
            Column("dealer", VARCHAR, NOT_NULL),
            Column("vulnerability", VARCHAR, NOT_NULL),
            *(
                Column(f"{seat}_{strain}", TINYINT, NOT_NULL)
                for seat in "nesw"
                for strain in ("nt", "s", "h", "d", "c")
            ),
            Column("par_score", INTEGER, NOT_NULL, doc="NS-signed"),
            Column("par_contracts", VARCHAR, NOT_NULL, doc="'4S by N, S'; several ;-separated"),
        ),
        primary_key=("north", "east", "south", "west", "dealer", "vulnerability"),
    ),
    Table(
        "source_standings",
        (
            "The official figures an exporting program (Compscore, Magic Contest, ...) computed, as"
            " given."
        ),
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("event_id", VARCHAR),
            Column("session", VARCHAR),
            Column("section", VARCHAR),
            Column("contestant", VARCHAR),
            Column("direction", VARCHAR),
            Column("total", VARCHAR),
            Column("percentage", VARCHAR),
            Column("place", VARCHAR),
            Column("tiebreak", VARCHAR),
        ),
    ),
    Table(
        "rejected_inputs",
        "Every row or file not accepted, with where it is and a reason a scorer understands.",
        (
            Column(
                "stage",
                VARCHAR,
                NOT_NULL,
                doc="read (whole inbox) | validate, rulings (one session date)",
            ),
            Column("session_date", DATE, doc="the partition, for stage validate"),
            Column("file", VARCHAR, NOT_NULL),
            Column(
                "location",
                VARCHAR,
                NOT_NULL,
                doc="'line 12', 'EVENT/BOARD[3]/TRAVELLER_LINE[2]', 'file'",
            ),
            Column("field", VARCHAR, NOT_NULL),
            Column("reason", VARCHAR, NOT_NULL),
            Column("raw", VARCHAR),
        ),
        partition=("stage", "session_date"),
    ),
    Table(
        "input_warnings",
        (
            "Things a scorer should look at that reject nothing: a Bridgemate entry superseded by a"
            " later one (field 'superseded'), a table short of results, a contract flagged as "
            "suspicious, ..."
        ),
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("field", VARCHAR, NOT_NULL),
            Column("reason", VARCHAR, NOT_NULL),
            Column("raw", VARCHAR),
        ),
    ),
    Table(
        "event_holds",
        (
            "Event sessions whose details are not known, one row per reason: a row of events.csv "
            "(or of a file's header) that was rejected, or an events.csv with a column Traveller "
            "does not read. Their results are scored on what is known, their standings held (status"
            " 'held', never published) until the row is corrected (pipelines/scoring/events.py: "
            "event_holds)."
        ),
        (
            Column("event_id", VARCHAR, NOT_NULL),
            Column(
                "session",
                VARCHAR,
                doc="null: every session of the event (the row's session unreadable)",
            ),
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("field", VARCHAR, NOT_NULL),
            Column("reason", VARCHAR, NOT_NULL),
        ),
    ),
    Table(
        "raw_results",
        "Table results as read, in canonical notation, dated; partitioned by session_date.",
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("format", VARCHAR),
            Column("event_id", VARCHAR),
            Column("session", VARCHAR),
            Column("section", VARCHAR),
            Column("round", VARCHAR),
            Column("table", VARCHAR),
            Column("board", VARCHAR),
            Column("ns_pair", VARCHAR),
            Column("ew_pair", VARCHAR),
            Column("contract", VARCHAR),
            Column("declarer", VARCHAR),
            Column("tricks", VARCHAR),
            Column("score", VARCHAR),
            Column("source_ns_mp", VARCHAR),
            Column("source_ew_mp", VARCHAR),
            Column("session_date", DATE, NOT_NULL),
            Column("lead", VARCHAR, doc="opening lead as the file states it (SQ, D10), if given"),
            Column(
                "entered_at",
                VARCHAR,
                doc="when entered at the table, YYYY-MM-DD HH:MM:SS (.bws)",
            ),
            Column("north", VARCHAR, doc="an individual event's players (ns_pair = north/south)"),
            Column("south", VARCHAR),
            Column("east", VARCHAR),
            Column("west", VARCHAR),
        ),
        partition=("session_date",),
    ),
    Table(
        "raw_rulings",
        (
            "Directors' rulings as read from the ruling logs (text, with file and location); by "
            "date."
        ),
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("ruling_id", VARCHAR),
            Column("event_id", VARCHAR),
            Column("session", VARCHAR),
            Column("section", VARCHAR),
            Column("board", VARCHAR),
            Column("round", VARCHAR),
            Column("table", VARCHAR),
            Column("ns_pair", VARCHAR),
            Column("ew_pair", VARCHAR),
            Column("director", VARCHAR),
            Column("called_at", VARCHAR),
            Column("ruled_at", VARCHAR),
            Column("laws", VARCHAR),
            Column("kind", VARCHAR),
            Column("offending", VARCHAR),
            Column("ns_result", VARCHAR),
            Column("ew_result", VARCHAR),
            Column("board_version", VARCHAR),
            Column("penalized", VARCHAR),
            Column("penalty", VARCHAR),
            Column("approved", VARCHAR),
            Column("note", VARCHAR),
            Column("supersedes", VARCHAR),
            Column("session_date", DATE, NOT_NULL),
        ),
        partition=("session_date",),
    ),
    Table(
        "raw_appeals",
        "Appeals as read from the appeal logs, dated by the ruling they are about.",
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("appeal_id", VARCHAR),
            Column("ruling_id", VARCHAR),
            Column("lodged_at", VARCHAR),
            Column("lodged_by", VARCHAR),
            Column("heard_by", VARCHAR),
            Column("decided_at", VARCHAR),
            Column("outcome", VARCHAR),
            Column("ns_result", VARCHAR),
            Column("ew_result", VARCHAR),
            Column("penalty", VARCHAR),
            Column("deposit_retained", VARCHAR),
            Column("without_merit", VARCHAR),
            Column("note", VARCHAR),
            Column("session_date", DATE, NOT_NULL),
            Column("event_id", VARCHAR),
            Column("session", VARCHAR),
        ),
        partition=("session_date",),
    ),
    Table(
        "validated_results",
        "Typed, checked table results with the Law 77 score; partitioned by session_date.",
        RESULT_LINE,
        partition=("session_date",),
    ),
    Table(
        "rulings",
        (
            "Every accepted ruling, cleaned, with its effective outcome after appeals (latest "
            "decision wins). The analytics marts read this table."
        ),
        (
            Column("session_date", DATE, NOT_NULL),
            Column("ruling_id", VARCHAR, NOT_NULL),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("session", INTEGER, NOT_NULL),
            Column("section", VARCHAR, NOT_NULL),
            Column("board", INTEGER, doc="null for a penalty"),
            Column("round", VARCHAR),
            Column(
                "deal_round",
                INTEGER,
                doc="the round whose deal the board is (0: same deals all session)",
            ),
            Column("table", VARCHAR),
            Column("ns_pair", VARCHAR),
            Column("ew_pair", VARCHAR),
            Column("director", VARCHAR),
            Column("called_at", TIMESTAMP),
            Column("ruled_at", TIMESTAMP),
            Column("laws", VARCHAR, doc="';'-separated citations"),
            Column("kind", VARCHAR, NOT_NULL),
            Column("offending", VARCHAR, NOT_NULL, doc="NS | EW | both | none"),
            Column("ns_result", VARCHAR, doc="as ruled (canonical notation)"),
            Column("ew_result", VARCHAR),
            Column("board_version", VARCHAR),
            Column("penalized", VARCHAR),
            Column("penalized_direction", VARCHAR),
            Column("penalty", VARCHAR),
            Column("approved", BOOLEAN),
            Column("note", VARCHAR),
            Column("appeals", INTEGER, NOT_NULL, doc="appeals lodged against it"),
            Column("pending_appeals", INTEGER, NOT_NULL),
            Column("appeal_outcome", VARCHAR, doc="outcome of the latest decided appeal"),
            Column("effective_ns_result", VARCHAR, doc="after appeals"),
            Column("effective_ew_result", VARCHAR),
            Column("changed_on_appeal", BOOLEAN, NOT_NULL),
            Column(
                "effective_kind",
                VARCHAR,
                NOT_NULL,
                doc="the kind its results make after appeals (Law 93)",
            ),
            Column("effective_penalty", VARCHAR, doc="a penalty's amount after appeals"),
            Column("late", BOOLEAN, NOT_NULL, doc="requested or made after the period (79C, 92B)"),
            Column("applies", BOOLEAN, NOT_NULL, doc="false: late, withdrawn on appeal, ..."),
            Column("not_applied_reason", VARCHAR),
            Column(
                "supersedes",
                VARCHAR,
                doc="the ruling (same table and board) this one replaces",
            ),
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
        ),
        partition=("session_date",),
        export=("session_date", "event_id", "session", "ruling_id"),
    ),
    Table(
        "appeals",
        "Every accepted appeal (Laws 92, 93).",
        (
            Column("session_date", DATE, NOT_NULL),
            Column("appeal_id", VARCHAR, NOT_NULL),
            Column("ruling_id", VARCHAR, NOT_NULL),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("session", INTEGER, NOT_NULL),
            Column("lodged_at", TIMESTAMP),
            Column("lodged_by", VARCHAR),
            Column("heard_by", VARCHAR, doc="committee | panel | td_in_charge"),
            Column("decided_at", TIMESTAMP),
            Column(
                "outcome",
                VARCHAR,
                doc="upheld | changed | changed_one_side | withdrawn | referred_back",
            ),
            Column("ns_result", VARCHAR, doc="new results ('score stands': the table result)"),
            Column("ew_result", VARCHAR),
            Column("penalty", VARCHAR, doc="an appeal about a penalty: its new amount"),
            Column("deposit_retained", BOOLEAN),
            Column("without_merit", BOOLEAN),
            Column("pending", BOOLEAN, NOT_NULL, doc="undecided and admissible"),
            Column("late", BOOLEAN, NOT_NULL, doc="lodged after the appeal period (Law 92B)"),
            Column("applies", BOOLEAN, NOT_NULL, doc="false: late, against discipline (93B3), ..."),
            Column("not_applied_reason", VARCHAR),
            Column("note", VARCHAR),
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
        ),
        partition=("session_date",),
        export=("session_date", "event_id", "session", "appeal_id"),
    ),
    Table(
        "scored_results",
        (
            "One row per table result with its matchpoints under the event's profile; partitioned "
            "by session_date."
        ),
        (
            *_with_doc(
                RESULT_LINE,
                kind="played | artificial | adjusted (split, weighted) | not_played",
            ),
            Column(
                "ns_score",
                BIGINT,
                doc="NS score compared with the field; null for artificial / not played",
            ),
            Column("n_results", INTEGER, doc="played results on the board"),
            Column(
                "expected",
                INTEGER,
                doc="results expected (N); the board is factored when n < N",
            ),
            Column("factoring", VARCHAR, doc="none | neuberg | linear"),
            Column("top", DOUBLE, doc="full-field top 2(N-1) (N-1 on the 1/0.5 scale)"),
            Column("ns_mp_num", BIGINT, doc="exact matchpoints: ns_mp_num / mp_den"),
            Column("ew_mp_num", BIGINT),
            Column("mp_den", BIGINT),
            Column("ns_mp", DOUBLE, doc="matchpoints as they count in totals under the profile"),
            Column("ew_mp", DOUBLE),
            Column("ns_pct", DOUBLE),
            Column("ew_pct", DOUBLE),
            Column("ns_mp_display", DOUBLE, doc="as shown on the traveller under the profile"),
            Column("ew_mp_display", DOUBLE),
            Column("top_display", DOUBLE),
            Column(
                "board_version",
                VARCHAR,
                doc="the version of the board the table played (Law 87)",
            ),
            Column("adjustment", VARCHAR, doc="the kind of the ruling that changed this result"),
            Column("ruling_id", VARCHAR),
            Column(
                "recorded_score",
                BIGINT,
                doc="the table result for the record (as corrected, 79C)",
            ),
            Column(
                "correction_id",
                VARCHAR,
                doc="the score correction of the table result, if any",
            ),
            # IMP forms (Law 78B): exact IMPs ns_imps_num / imps_den; Butler datum; teams' match
            Column("datum", BIGINT, doc="Butler: the board's datum (NS score)"),
            Column("ns_imps_num", BIGINT),
            Column("ew_imps_num", BIGINT),
            Column("imps_den", BIGINT),
            Column("ns_imps", DOUBLE, doc="IMPs to the NS side (teams: to the team seated NS)"),
            Column("ew_imps", DOUBLE),
            Column("ns_imps_display", DOUBLE),
            Column("ew_imps_display", DOUBLE),
            Column("match_id", VARCHAR, doc="teams: the match this board belongs to"),
            Column("home", VARCHAR),
            Column("away", VARCHAR),
            Column("missing_result", BOOLEAN, doc="teams: the board had no comparable result"),
            # Individuals (Law 89): the south and west players' own figures where the session-
            # percentage rule (Law 12C2(c)) gave them another than their partner's; null elsewhere
            Column("south_mp_num", BIGINT, doc="over mp_den"),
            Column("south_mp", DOUBLE),
            Column("south_mp_display", DOUBLE),
            Column("south_pct", DOUBLE),
            Column("south_imps_num", BIGINT, doc="over imps_den"),
            Column("south_imps", DOUBLE),
            Column("south_imps_display", DOUBLE),
            Column("west_mp_num", BIGINT),
            Column("west_mp", DOUBLE),
            Column("west_mp_display", DOUBLE),
            Column("west_pct", DOUBLE),
            Column("west_imps_num", BIGINT),
            Column("west_imps", DOUBLE),
            Column("west_imps_display", DOUBLE),
        ),
        partition=("session_date",),
        export=("session_date", "event_id", "session", "section", "deal_round", "board"),
    ),
    Table(
        "adjustments",
        "One row per contestant per applied ruling of the official version: what it changed.",
        (
            Column("session_date", DATE, NOT_NULL),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("session", INTEGER, NOT_NULL),
            Column("section", VARCHAR),
            Column("ruling_id", VARCHAR, NOT_NULL),
            Column("appeal_id", VARCHAR, doc="the appeal that last changed the ruling, if any"),
            Column("laws", VARCHAR),
            Column("kind", VARCHAR, NOT_NULL),
            Column(
                "deal_round",
                INTEGER,
                doc="the round whose deal the board is (0: same deals all session)",
            ),
            Column("board", INTEGER, doc="null for a penalty"),
            Column("contestant", VARCHAR, NOT_NULL),
            Column("direction", VARCHAR),
            Column("role", VARCHAR, NOT_NULL, doc="table | field | penalized"),
            Column("score_before", DOUBLE, doc="board MPs (session score for a penalty) before"),
            Column("score_after", DOUBLE),
            Column("mp_change", DOUBLE),
            Column(
                "percentage_points",
                DOUBLE,
                doc="mp_change / the contestant's session top x 100",
            ),
            Column("unit", VARCHAR, doc="MP | IMP (IMP forms) | VP (a teams VP penalty)"),
            Column(
                "change",
                DOUBLE,
                doc="score_after - score_before (a penalty: -amount), in unit",
            ),
        ),
        partition=("session_date",),
        export=("session_date", "event_id", "session", "ruling_id", "contestant"),
    ),
    Table(
        "standings",
        "Official standings per session (scope 'session') and per event (scope 'event').",
        (
            Column("event_id", VARCHAR, NOT_NULL),
            Column("scope", VARCHAR, NOT_NULL, doc="session | event"),
            Column("session", INTEGER, doc="null for scope event"),
            Column("session_date", DATE, doc="the session's date; for an event its last session's"),
            Column("section", VARCHAR, NOT_NULL),
            Column("contestant", VARCHAR, NOT_NULL),
            Column("direction", VARCHAR, doc="NS | EW in a Mitchell, null in a Howell"),
            Column("names", VARCHAR),
            Column("boards", INTEGER, NOT_NULL),
            Column(
                "score",
                DOUBLE,
                NOT_NULL,
                doc="= score_num / score_den (exact, in unit), penalties deducted",
            ),
            Column("score_num", BIGINT, NOT_NULL),
            Column("score_den", BIGINT, NOT_NULL),
            Column("top", DOUBLE, doc="= top_num / top_den (null at IMPs and VPs)"),
            Column("top_num", BIGINT),
            Column("top_den", BIGINT),
            Column("percentage", DOUBLE, doc="score / top (null at IMPs and VPs)"),
            Column("unit", VARCHAR, doc="MP | IMP (Butler, cross-IMPs, knockouts) | VP (teams)"),
            Column(
                "penalties",
                DOUBLE,
                NOT_NULL,
                doc="penalties deducted (Laws 90, 91), in penalty_unit",
            ),
            Column("penalty_num", BIGINT, NOT_NULL),
            Column("penalty_den", BIGINT, NOT_NULL),
            Column(
                "penalty_unit",
                VARCHAR,
                doc="MP | IMP (IMP forms; teams: off the match margins)",
            ),
            Column(
                "vp_penalties",
                DOUBLE,
                doc="teams scored in VPs: VP penalties off the VP score",
            ),
            Column("vp_penalty_num", BIGINT),
            Column("vp_penalty_den", BIGINT),
            Column("sanction", VARCHAR, doc="suspended | disqualified (Law 91): no place"),
            Column("rank", INTEGER, doc="place; equal percentages share it"),
            Column("tied", BOOLEAN, NOT_NULL),
            Column(
                "tiebreak",
                VARCHAR,
                doc="head-to-head tie-break points, where the profile breaks ties",
            ),
            Column("score_display", DOUBLE, doc="rounded as the profile shows them"),
            Column("percentage_display", DOUBLE),
            Column("movement", VARCHAR),
            Column("profile", VARCHAR),
            Column("version", INTEGER, doc="1, 2, ...: each appeal decision or correction"),
            Column("status", VARCHAR, doc="provisional | final | superseded (older versions)"),
        ),
        delete="standings",
        export=("session_date", "event_id", "scope", "session", "version", "section", "rank"),
    ),
    Table(
        "standings_changes",
        ("What each new version of the standings changed, and why (Law 79C corrections, appeals)."),
        (
            Column("event_id", VARCHAR, NOT_NULL),
            Column("scope", VARCHAR, NOT_NULL, doc="session | event"),
            Column("session", INTEGER),
            Column("session_date", DATE),
            Column("version", INTEGER, NOT_NULL, doc="the new version"),
            Column("cause", VARCHAR, NOT_NULL, doc="appeal | correction"),
            Column("cause_id", VARCHAR, NOT_NULL),
            Column("ruling_id", VARCHAR),
            Column("section", VARCHAR),
            Column("contestant", VARCHAR, NOT_NULL),
            Column("direction", VARCHAR),
            Column("score_before", DOUBLE),
            Column("score_after", DOUBLE),
            Column("score_change", DOUBLE),
            Column("percentage_before", DOUBLE),
            Column("percentage_after", DOUBLE),
            Column("rank_before", INTEGER),
            Column("rank_after", INTEGER),
        ),
        delete="standings_changes",
        export=("session_date", "event_id", "scope", "session", "version"),
    ),
    Table(
        "matches",
        (
            "Team matches (Law 86): one row per match per session (a knockout segment). IMPs won on"
            " the boards (as a scoreboard shows them), net IMPs (penalties deducted) that decide "
            "the VPs, knockout carry-over and the winner."
        ),
        (
            Column("session_date", DATE, NOT_NULL),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("session", INTEGER, NOT_NULL),
            Column("section", VARCHAR),
            Column("round", INTEGER),
            Column("match_id", VARCHAR, NOT_NULL),
            Column("stage", VARCHAR, doc="round_robin | swiss | knockout"),
            Column("home", VARCHAR, NOT_NULL, doc="the team seated NS at the match's first table"),
            Column("away", VARCHAR, NOT_NULL),
            Column("boards", INTEGER, NOT_NULL),
            Column(
                "missing_boards",
                INTEGER,
                NOT_NULL,
                doc="boards with no comparable result (profile's score)",
            ),
            Column("home_imps", DOUBLE, NOT_NULL, doc="IMPs won on the boards"),
            Column("away_imps", DOUBLE),
            Column("home_net", DOUBLE, NOT_NULL, doc="net IMPs of the match, penalties deducted"),
            Column("away_net", DOUBLE),
            Column(
                "home_penalties",
                DOUBLE,
                doc="IMP penalties off the team's side, in full (Law 90)",
            ),
            Column("away_penalties", DOUBLE),
            Column(
                "home_carry_over",
                DOUBLE,
                doc="knockout: net IMPs brought from earlier segments",
            ),
            Column("away_carry_over", DOUBLE),
            Column("home_vp", DOUBLE, doc="null in a knockout"),
            Column("away_vp", DOUBLE),
            Column("vp_scale", VARCHAR),
            Column("winner", VARCHAR, doc="null when level"),
            Column("profile", VARCHAR),
        ),
        partition=("event_id",),
        export=("session_date", "event_id", "session", "round", "match_id"),
    ),
    Table(
        "holds",
        (
            "Events whose official standings are held back, one row per reason: the event's other "
            "results are scored, its standings are kept with status 'held' (never published), and "
            "every other event of the date is published."
        ),
        (
            Column("session_date", DATE, NOT_NULL, doc="the partition"),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, NOT_NULL),
            Column("field", VARCHAR, NOT_NULL),
            Column("reason", VARCHAR, NOT_NULL),
        ),
        partition=("session_date",),
    ),
    Table(
        "penalty_stats",
        (
            "Mart: procedural (Law 90) and disciplinary (Law 91) penalties by period and dimension "
            "(pipelines/audit/marts.py). Stable names: dashboards read this table."
        ),
        (
            Column("period_kind", VARCHAR, NOT_NULL, doc="season (calendar year) | month"),
            Column("period", VARCHAR, NOT_NULL, doc="2026 | 2026-11"),
            Column(
                "dimension",
                VARCHAR,
                NOT_NULL,
                doc="all | event | event_type | level | club | director | law",
            ),
            Column(
                "value",
                VARCHAR,
                doc="the event id, form/scoring, level, club, director or law cited",
            ),
            Column("penalty_kind", VARCHAR, NOT_NULL, doc="procedural | disciplinary"),
            Column(
                "category",
                VARCHAR,
                NOT_NULL,
                doc="all, or the item of the law cited: B1..B8 (90B), A (91A), other",
            ),
            Column("penalties", BIGINT, NOT_NULL, doc="warnings included"),
            Column("warnings", BIGINT, NOT_NULL),
            Column("sanctions", BIGINT, NOT_NULL, doc="suspended | disqualified (Law 91B)"),
            Column("late", BIGINT, NOT_NULL, doc="given after the period: not applied (79C)"),
            Column(
                "matchpoints_deducted",
                DOUBLE,
                NOT_NULL,
                doc="from the adjustments table (role penalized)",
            ),
            Column("percentage_points_deducted", DOUBLE, NOT_NULL),
            Column("imps_deducted", DOUBLE, NOT_NULL, doc="IMP forms"),
            Column("vps_deducted", DOUBLE, NOT_NULL, doc="teams VP penalties"),
            Column(
                "boards_played",
                BIGINT,
                NOT_NULL,
                doc="table results of the slice (law: of the period)",
            ),
            Column("per_1000_boards", DOUBLE, doc="penalties per 1,000 boards played"),
        ),
        export=(),
    ),
    Table(
        "appeal_stats",
        (
            "Mart: appeals (Laws 92, 93) and the Board-Appeal Ratio by period and dimension "
            "(pipelines/audit/marts.py). An appeal counts in the period and slice of its ruling."
        ),
        (
            Column("period_kind", VARCHAR, NOT_NULL, doc="season (calendar year) | month"),
            Column("period", VARCHAR, NOT_NULL),
            Column(
                "dimension",
                VARCHAR,
                NOT_NULL,
                doc="all | event | event_type | level | club | director | law",
            ),
            Column("value", VARCHAR),
            Column("appeals", BIGINT, NOT_NULL, doc="lodged"),
            Column("pending", BIGINT, NOT_NULL),
            Column(
                "decided",
                BIGINT,
                NOT_NULL,
                doc="upheld, changed, changed_one_side, referred_back",
            ),
            Column("upheld", BIGINT, NOT_NULL),
            Column("changed", BIGINT, NOT_NULL),
            Column("changed_one_side", BIGINT, NOT_NULL),
            Column("withdrawn", BIGINT, NOT_NULL),
            Column("referred_back", BIGINT, NOT_NULL),
            Column("overturned", BIGINT, NOT_NULL, doc="changed + changed_one_side"),
            Column("overturn_rate", DOUBLE, doc="overturned / decided"),
            Column("late", BIGINT, NOT_NULL, doc="lodged after the appeal period (Law 92B)"),
            Column("not_allowed", BIGINT, NOT_NULL, doc="kept but not applied: late, 93B3, ..."),
            Column("deposits_retained", BIGINT, NOT_NULL),
            Column("without_merit", BIGINT, NOT_NULL),
            Column("median_hours_to_decision", DOUBLE, doc="from the ruling to the decision"),
            Column("rulings", BIGINT, NOT_NULL, doc="rulings of the slice"),
            Column("late_rulings", BIGINT, NOT_NULL, doc="requested after the period (79C, 92B)"),
            Column("boards_played", BIGINT, NOT_NULL),
            Column("board_appeal_ratio", DOUBLE, doc="appeals per 1,000 boards played (EBL)"),
        ),
        export=(),
    ),
    Table(
        "director_audit",
        (
            "Mart: the director-consistency audit (pipelines/audit/marts.py, funnel.py, "
            "shrinkage.py). One row per period, comparison stratum, director and rate. No ranks, by"
            " design."
        ),
        (
            Column(
                "period_kind",
                VARCHAR,
                NOT_NULL,
                doc="season (calendar year) | window (a report's dates)",
            ),
            Column("period", VARCHAR, NOT_NULL),
            Column(
                "stratum",
                VARCHAR,
                NOT_NULL,
                doc="the values of the controls, e.g. club · pairs · matchpoints",
            ),
            Column("controls", VARCHAR, NOT_NULL, doc="the controls applied: level, form, scoring"),
            Column("director", VARCHAR, NOT_NULL),
            Column(
                "sessions_directed",
                BIGINT,
                NOT_NULL,
                doc="sessions whose event names him director",
            ),
            Column("boards_directed", BIGINT, NOT_NULL, doc="table results of those sessions"),
            Column("rulings", BIGINT, NOT_NULL, doc="rulings he gave (any session of the stratum)"),
            Column("rulings_per_1000_boards", DOUBLE, doc="at the sessions he directed"),
            Column("score_stands", BIGINT, NOT_NULL, doc="mix of ruling kinds"),
            Column("assigned", BIGINT, NOT_NULL),
            Column("weighted", BIGINT, NOT_NULL),
            Column("artificial", BIGINT, NOT_NULL),
            Column("director_error", BIGINT, NOT_NULL),
            Column("fouled_board", BIGINT, NOT_NULL),
            Column("procedural_penalty", BIGINT, NOT_NULL),
            Column("disciplinary_penalty", BIGINT, NOT_NULL),
            Column("score_correction", BIGINT, NOT_NULL),
            Column("imp_award", BIGINT, NOT_NULL, doc="teams: IMP awards (Law 86B1; 2007 86D)"),
            Column("appeals_against", BIGINT, NOT_NULL),
            Column("appeals_decided", BIGINT, NOT_NULL),
            Column(
                "mean_adjustment_pct",
                DOUBLE,
                doc="mean size of his adjusted scores, % of a top (MP)",
            ),
            Column("mean_adjustment_imps", DOUBLE, doc="the same in IMPs (IMP forms)"),
            Column(
                "measure",
                VARCHAR,
                NOT_NULL,
                doc="rulings_per_board | adjustment_rate | procedural_penalty_rate | overturn_rate",
            ),
            Column("x", BIGINT, NOT_NULL, doc="events"),
            Column("n", BIGINT, NOT_NULL, doc="opportunities"),
            Column("rate", DOUBLE, doc="x / n (null when n = 0)"),
            Column("target", DOUBLE, doc="pooled rate of the stratum"),
            Column("lower95", DOUBLE, doc="exact binomial funnel limits (Spiegelhalter 2005)"),
            Column("upper95", DOUBLE),
            Column("lower998", DOUBLE),
            Column("upper998", DOUBLE),
            Column("phi", DOUBLE, doc="over-dispersion factor (winsorised z^2 mean)"),
            Column("over_dispersed", BOOLEAN, doc="k phi above chi-squared(k) 95 %"),
            Column("lower95_widened", DOUBLE, doc="limits widened by sqrt(phi)"),
            Column("upper95_widened", DOUBLE),
            Column("lower998_widened", DOUBLE),
            Column("upper998_widened", DOUBLE),
            Column("shrunk_rate", DOUBLE, doc="empirical-Bayes beta-binomial posterior mean"),
            Column("shrunk_lower", DOUBLE, doc="its 95 % interval"),
            Column("shrunk_upper", DOUBLE),
            Column("flagged", BOOLEAN, doc="outside the 99.8 % limits in force (and tail < 0.1 %)"),
            Column("flag_direction", VARCHAR, doc="high | low"),
        ),
        export=(),
    ),
    Table(
        "ruling_discrepancies",
        (
            "Mart: pairs of rulings by different directors with materially different outcomes, side"
            " by side (pipelines/audit/marts.py): the cases an auditor should read."
        ),
        (
            Column("case_type", VARCHAR, NOT_NULL, doc="same_board | adjustment_size | same_law"),
            Column("event_id", VARCHAR, NOT_NULL),
            Column("law", VARCHAR, doc="first law cited by ruling a"),
            Column("reason", VARCHAR, NOT_NULL),
            Column("a_ruling_id", VARCHAR, NOT_NULL, doc="a: the ruling that adjusted"),
            Column("a_director", VARCHAR),
            Column("a_session", BIGINT),
            Column("a_session_date", DATE),
            Column("a_board", BIGINT),
            Column("a_table", VARCHAR),
            Column("a_ns_pair", VARCHAR),
            Column("a_ew_pair", VARCHAR),
            Column("a_kind", VARCHAR),
            Column("a_laws", VARCHAR),
            Column("a_offending", VARCHAR),
            Column("a_ns_result", VARCHAR),
            Column("a_ew_result", VARCHAR),
            Column("a_adjustment_pct", DOUBLE, doc="size in % of a top (matchpoints)"),
            Column("a_adjustment_imps", DOUBLE, doc="size in IMPs (IMP forms)"),
            Column("a_note", VARCHAR),
            Column(
                "b_ruling_id",
                VARCHAR,
                NOT_NULL,
                doc="b: the ruling that let the score stand (or adjusted otherwise)",
            ),
            Column("b_director", VARCHAR),
            Column("b_session", BIGINT),
            Column("b_session_date", DATE),
            Column("b_board", BIGINT),
            Column("b_table", VARCHAR),
            Column("b_ns_pair", VARCHAR),
            Column("b_ew_pair", VARCHAR),
            Column("b_kind", VARCHAR),
            Column("b_laws", VARCHAR),
            Column("b_offending", VARCHAR),
            Column("b_ns_result", VARCHAR),
            Column("b_ew_result", VARCHAR),
            Column("b_adjustment_pct", DOUBLE),
            Column("b_adjustment_imps", DOUBLE),
            Column("b_note", VARCHAR),
        ),
        export=(),
    ),
    Table(
        "reconciliation",
        (
            "One row per official figure (the exporting program's) that Traveller does not "
            "reproduce as published: both values and the reason (pipelines/scoring/reconcile.py). "
            "Recomputed whole."
        ),
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("location", VARCHAR, doc="where the official figure is in the file"),
            Column("event_id", VARCHAR),
            Column("session", VARCHAR),
            Column("section", VARCHAR),
            Column("board", VARCHAR, doc="traveller lines"),
            Column("contestant", VARCHAR, doc="a pair, or 'ns-ew' for a traveller line"),
            Column("direction", VARCHAR),
            Column("what", VARCHAR, NOT_NULL, doc="line | imps | total | percentage | place | vp"),
            Column("official", VARCHAR, doc="as the file shows it (a line: 'ns/ew')"),
            Column("traveller", VARCHAR, doc="as Traveller publishes it"),
            Column("code", VARCHAR, NOT_NULL, doc="the reason (unknown: unexplained)"),
            Column("explanation", VARCHAR, NOT_NULL),
        ),
    ),
    Table(
        "reconciliation_files",
        (
            "Per file carrying official figures: how many were compared, reproduced, differ, could "
            "not be compared; and whether its sessions are held (profile "
            "reconciliation.on_difference)."
        ),
        (
            Column("file", VARCHAR, NOT_NULL),
            Column("event_id", VARCHAR),
            Column("profile", VARCHAR),
            Column("compared", BIGINT, NOT_NULL),
            Column("reproduced", BIGINT, NOT_NULL),
            Column("differing", BIGINT, NOT_NULL),
            Column("unexplained", BIGINT, NOT_NULL),
            Column("not_comparable", BIGINT, NOT_NULL),
            Column(
                "running_totals",
                BOOLEAN,
                NOT_NULL,
                doc="the official totals are the event's running totals",
            ),
            Column(
                "on_difference",
                VARCHAR,
                doc="report | provisional | hold (the profile's setting)",
            ),
            Column(
                "action",
                VARCHAR,
                NOT_NULL,
                doc="published | provisional | held (its sessions' standings)",
            ),
        ),
    ),
)

#: The tables by name.
BY_NAME: dict[str, Table] = {t.name: t for t in TABLES}


def table(name: str) -> Table:
    """The table ``name`` of the registry."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no warehouse table {name!r}") from None


def polars_schema(name: str, drop: Sequence[str] = ()) -> dict[str, pl.DataType]:
    """The Polars schema of the engine's frames for the table ``name``."""
    return table(name).polars_schema(drop)
