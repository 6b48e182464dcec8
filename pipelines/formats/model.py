"""The canonical frames every reader produces, whatever the file format.

Readers translate a file into these frames and nothing else: they keep every
value as text exactly as the file states it (normalised to the canonical
notation described below) and never score, validate ranges or drop rows. The
validation stage (:mod:`pipelines.scoring.validate`) decides what is accepted.

Canonical notation of a table result (the columns of :data:`RESULT_COLUMNS`):

* ``contract``: level + strain (``C D H S NT``) + optional ``X``/``XX``
  (``4S``, ``3NT``, ``6HX``, ``7NTXX``), or ``PASS``; empty for a table-level
  artificial score or a board not played.
* ``declarer``: ``N E S W``; ``tricks``: tricks taken by declarer (``0``..``13``).
* ``score``: the NS-signed score as the club program recorded it (``-620``),
  a table-level artificial score ``A<ns>/<ew>`` where each side is ``60``,
  ``50``, ``40`` or ``+``, ``=``, ``-`` (``A60/60``, ``A+/-``), ``NP`` (not
  played), or empty.
* ``source_ns_mp`` / ``source_ew_mp``: the matchpoints the exporting program
  computed, when the file carries them (USEBIO, PBN); kept to compare with ours.
* ``lead``: the opening lead exactly as the file states it, when it carries one
  (Bridgemate ``LeadCard`` ``SQ``, ``D10``; USEBIO ``LEAD`` ``AC``; PBN ScoreTable ``Lead``).
* ``entered_at``: when the result was entered at the table, ``YYYY-MM-DD HH:MM:SS``
  (Bridgemate ``DateLog`` + ``TimeLog``); null for the other formats.

Every row carries its lineage: ``file`` (path relative to the inbox) and
``location`` (``line 12``, ``BOARD[3]/TRAVELLER_LINE[2]``, ``board 3 ScoreTable
row 4``), so a scorer can find it in the original file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

#: Columns of a canonical table-result frame (all Utf8, nullable).
RESULT_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "format",
    "event_id",
    "session",
    "section",
    "round",
    "table",
    "board",
    "ns_pair",
    "ew_pair",
    "contract",
    "declarer",
    "tricks",
    "score",
    "source_ns_mp",
    "source_ew_mp",
    "session_date",
    "lead",
    "entered_at",
    "north",
    "south",
    "east",
    "west",
)

#: The header of a canonical results CSV: the columns of a table result as a club program
#: writes it (also the order in which a rejected result row is shown in ``raw``).
RESULT_CSV_HEADER: tuple[str, ...] = RESULT_COLUMNS[3:15]

#: Columns of an event-session frame (``events.csv`` or the header of a USEBIO/PBN file).
EVENT_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "event_id",
    "session",
    "date",
    "name",
    "form",
    "scoring",
    "movement",
    "profile",
    "laws",
    "director",
    "correction_minutes",
    "expected_results",
    "boards",
    "pairs",
    "published_at",
    "boards_per_match",
    "vp_scale",
    "stage",
    "club",
    "level",
    "appeal_minutes",
    "program",
    "source_event_id",
    "compare",  # matchpoints: "section" (each section its own field) or "field" (Law 78A)
)

#: Columns of a contestant frame (``contestants*.csv`` or USEBIO/PBN participants).
#: ``player_ids`` are national membership numbers: stored, never published.
CONTESTANT_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "event_id",
    "contestant",
    "direction",
    "names",
    "player_ids",
    "section",  # a pair number names a contestant of one section; empty: every section
)

#: The official figures an exporting program computed for each contestant
#: (USEBIO ``PARTICIPANTS``, PBN ``[TotalScoreTable]``): kept to compare with ours.
SOURCE_STANDING_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "event_id",
    "session",
    "section",
    "contestant",
    "direction",
    "total",
    "percentage",
    "place",
    "tiebreak",
    "figures",
)

#: Columns of a deal frame (a hand record: USEBIO ``HANDSET``, PBN ``[Deal]``, Bridgemate
#: ``HandRecord``). Each hand is written ``spades.hearts.diamonds.clubs`` with the ranks
#: ``AKQJT98765432`` (``AKQ.JT9.876.5432``, a void empty), as PBN writes one hand; ``section``
#: empty: the deal of that board in every section. ``dealer``/``vulnerability`` as the file
#: states them (empty: the board number's, Law 2). Checked in :mod:`pipelines.deals`.
DEAL_COLUMNS: tuple[str, ...] = (
    "file",
    "location",
    "event_id",
    "session",
    "section",
    "board",
    "dealer",
    "vulnerability",
    "north",
    "east",
    "south",
    "west",
)

#: Columns of a rejected input: what, where, and a reason a scorer understands.
REJECT_COLUMNS: tuple[str, ...] = ("file", "location", "field", "reason", "raw")

#: Columns of a warning: an input that was kept but that a scorer should look at (a result
#: the table flagged as suspicious, a table short of results). Same shape as a reject.
WARNING_COLUMNS: tuple[str, ...] = REJECT_COLUMNS


#: One empty frame per tuple of columns, whose :meth:`~polars.DataFrame.clear` copies
#: :func:`empty_frame` gives (a frame built from a schema costs a Series per column: a
#: reader's result of a small file holds several).
_EMPTY: dict[tuple[str, ...], pl.DataFrame] = {}


def empty_frame(columns: tuple[str, ...]) -> pl.DataFrame:
    """An empty frame with the given columns, all ``Utf8`` (a new frame each time)."""
    columns = tuple(columns)
    template = _EMPTY.get(columns)
    if template is None:
        template = _EMPTY[columns] = pl.DataFrame(schema={c: pl.Utf8 for c in columns})
    return template.clear()


def frame(rows: list[dict[str, str | None]], columns: tuple[str, ...]) -> pl.DataFrame:
    """Build a canonical frame from dict rows; missing keys become null, all columns ``Utf8``."""
    if not rows:
        return empty_frame(columns)
    return pl.DataFrame(
        {c: [r.get(c) for r in rows] for c in columns},
        schema={c: pl.Utf8 for c in columns},
    )


@dataclass
class ReadResult:
    """What a reader found in one file.

    ``rows_read`` counts the data rows (table results, event rows, contestant
    rows) the file holds; each of them must end up either in one of the frames
    or in ``rejected``. A file that cannot be read at all yields one rejected
    row with ``location`` ``file``.

    ``warnings`` (:data:`WARNING_COLUMNS`) report inputs that were *kept* but deserve a
    look; they take no part in the row accounting (a warned row is still counted where
    it ended, in a frame or in ``rejected``).
    """

    file: str
    format: str
    results: pl.DataFrame = field(default_factory=lambda: empty_frame(RESULT_COLUMNS))
    events: pl.DataFrame = field(default_factory=lambda: empty_frame(EVENT_COLUMNS))
    contestants: pl.DataFrame = field(default_factory=lambda: empty_frame(CONTESTANT_COLUMNS))
    source_standings: pl.DataFrame = field(
        default_factory=lambda: empty_frame(SOURCE_STANDING_COLUMNS)
    )
    rejected: pl.DataFrame = field(default_factory=lambda: empty_frame(REJECT_COLUMNS))
    #: the deals the file carries (:data:`DEAL_COLUMNS`); they take no part in the row
    #: accounting (a hand record is not a result: a deal that cannot be read is a warning)
    deals: pl.DataFrame = field(default_factory=lambda: empty_frame(DEAL_COLUMNS))
    warnings: pl.DataFrame = field(default_factory=lambda: empty_frame(WARNING_COLUMNS))
    rulings: pl.DataFrame | None = None  # a ruling log (pipelines.formats.rulings)
    appeals: pl.DataFrame | None = None  # an appeal log
    rows_read: int = 0
    #: header columns the reader does not know (their values are not read): an events.csv
    #: holds its events back on one (a renamed header, see pipelines.scoring.events)
    unknown_columns: tuple[str, ...] = ()
    #: every date the file writes as written (USEBIO ``EVENT`` and ``SESSION`` ``DATE``):
    #: its slashed dates state the file's order (pipelines.scoring.dates)
    dates_written: tuple[str, ...] = ()
    #: whether ``results`` are written canonically already (``normalise_results``); false
    #: only where the caller asked a reader to leave that to it, to do it once for many
    #: files (:func:`pipelines.inbox.read_all`)
    normalised: bool = True
