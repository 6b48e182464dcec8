"""Is a session complete? Its results checked against what its movement and its event say.

A session whose file was cut short, lost a run of boards or carries a mistyped pair number
must not be published as official standings: the boards that are missing change every
other pair's matchpoints, and a mistyped number ranks a pair that never played. A board
short of a result or two is normal (a board not played, a result not entered: it is
factored, Law 78A and the Neuberg formula), and so is a sit-out (a pair with no opponents
for one round: it plays one round's boards fewer). What is checked, per event session and
section, from what the event states and from the session's own structure:

* **Contestants the event lists** (:func:`unknown_contestants`): where the event has a list
  of its contestants — ``contestants*.csv``, a USEBIO file's ``PARTICIPANTS``, a PBN
  ``TotalScoreTable`` — a result naming a pair (team, player) the list does not know is
  rejected at its row: a mistyped pair number is an error, never a new contestant. Such a
  list is the event's whole field: a ``contestants*.csv`` naming some pairs only rejects the
  others' results (each with that reason). In a Mitchell (two fields) a pair named at the
  other direction's seat (USEBIO ``14EW`` at NS) is an arrow-switched line, rejected as such:
  Traveller scores arrow switches only in one field, a one-winner Mitchell being read as a
  Howell of pairs ``1NS`` … ``21EW`` (:mod:`pipelines.formats.usebio`). (A Bridgemate
  file's results are checked against its own movement, ``RoundData``, by its reader; its
  ``PlayerNumbers`` name only the players entered, so they are no list.)
* **Declared boards and pairs** (``events.csv`` ``boards`` and ``pairs``; a Magic Contest
  PBN's ``BoardCountSession``): a section whose results cover another number of boards, or
  a session with another number of contestants, than the event states — the boards or the
  contestants that are missing, or the ones too many, are listed.
* **Contestants that are no part of the movement**: every contestant of a movement plays
  every round but a sit-out, and no movement seats a pair out of half its session; a
  contestant that played fewer than ``completeness.contestant_boards`` % (50) of the boards
  of the session's fullest contestant is a mistyped number (or a pair that left: then the
  director's artificial scores belong in the file).
* **Boards mostly missing**: a board with fewer than ``completeness.board_results`` % (50)
  of the results expected on it — the event's ``expected_results``, else the most results
  any board of its section has — is not short of a result but missing (a file cut in the
  middle of a board); one with more results than ``expected_results`` contradicts the event.
* **A field whose sections play other boards**: a session scored across the field
  (``compare`` = ``field``, Law 78A) compares each board over every section, which
  presumes the sections play the same boards; a board some section of the session never
  played (while another did) would be compared, and factored, over sections that did not
  play it: the sections lacking it are listed (compare the session by section, or send the
  missing results).
* **A match length no match comes near** (teams): ``boards_per_match`` above the boards every
  match of the session played.
* **Rounds missing tables** (where every result gives its round): in a round, every
  contestant of the section plays but the sit-outs the movement needs — one pair (or team)
  when their number is odd, none when it is even; for individuals the players above a
  multiple of four. More contestants without a result in a round are tables missing from the
  file (a file cut at the end of a line in the last round).

Each finding is a row of :data:`SHORTFALL_COLUMNS` (the ``incomplete_sessions`` table) that
holds its event (``sql/read/holds_for_dates.sql``) until the file or the event's row is
corrected; the tolerances are profile settings (``[completeness]``), never hidden constants.
What cannot be told from the results alone is not guessed: a results CSV cut exactly after a
whole board or round plays like a shorter session unless ``events.csv`` states ``boards``.
"""

from __future__ import annotations

import re
from itertools import pairwise

import polars as pl

from pipelines.formats.model import REJECT_COLUMNS
from pipelines.profiles import ProfileSet

#: Columns of a finding (the ``incomplete_sessions`` table less its ``session_date``).
SHORTFALL_COLUMNS: tuple[str, ...] = (
    "event_id",
    "session",
    "section",
    "file",
    "location",
    "field",
    "reason",
)

#: The formats whose contestant rows list every contestant of their event (a Bridgemate
#: file's ``PlayerNumbers`` name only the players entered at the tables).
LIST_FORMATS: tuple[str, ...] = ("contestants_csv", "usebio", "pbn")

#: Players seated at one table, by form: the sit-outs a round may have are the contestants
#: above a multiple of this.
_SEATS = {"pairs": 2, "teams": 2, "individual": 4}

_SESSION = ["event_id", "session"]
_SECTION = ["event_id", "session", "section"]
_BOARD = ["event_id", "session", "section", "deal_round", "board"]


def _empty() -> pl.DataFrame:
    return pl.DataFrame(
        schema={c: (pl.Int32 if c == "session" else pl.Utf8) for c in SHORTFALL_COLUMNS}
    )


def _word(form: pl.Expr) -> pl.Expr:
    """``pair``, ``team`` or ``player``: what a contestant of the form is called."""
    return (
        pl.when(form == "teams")
        .then(pl.lit("team"))
        .when(form == "individual")
        .then(pl.lit("player"))
        .otherwise(pl.lit("pair"))
    )


def sides(validated: pl.DataFrame) -> pl.DataFrame:
    """One row per contestant taking part in each result: ``contestant`` (a pair or team id,
    with its direction in a Mitchell, where NS 3 and EW 3 are two pairs; an individual's
    player), ``label`` (how a message names it: ``pair 3 NS``), ``field`` (the column that
    names it), ``pairing`` (who sat at that table: the result's contestants, sorted), with
    the result's event, session, section, round, board and lineage."""
    keep = [*_BOARD, "round", "form", "movement", "profile", "file", "location"]
    base = validated if "__row" in validated.columns else validated.with_row_index("__row")
    parts = []
    individual = pl.col("form") == "individual"
    for col, direction in (("ns_pair", "NS"), ("ew_pair", "EW")):
        sided = (pl.col("movement") == "mitchell") & (pl.col("form") == "pairs")
        parts.append(
            base.filter(~individual).select(
                "__row",
                *keep,
                pl.col(col).alias("id"),
                pl.when(sided).then(pl.lit(direction)).otherwise(None).alias("direction"),
                pl.lit(col).alias("field"),
            )
        )
    for seat in ("north", "south", "east", "west"):
        parts.append(
            base.filter(individual).select(
                "__row",
                *keep,
                pl.col(seat).alias("id"),
                pl.lit(None, pl.Utf8).alias("direction"),
                pl.lit(seat).alias("field"),
            )
        )
    out = pl.concat(parts, how="vertical_relaxed").filter(pl.col("id").is_not_null())
    # the pairing: the table's ids sorted and joined by "|" — for two ids their lesser and
    # greater (as a sorted list of them would be, without building one per result); the
    # individuals' four players as a list
    ns, ew = pl.col("ns_pair"), pl.col("ew_pair")
    two = (
        pl.when(ns.is_null() | ew.is_null())
        .then(pl.coalesce(ns, ew, pl.lit("")))
        .otherwise(
            pl.concat_str([pl.min_horizontal(ns, ew), pl.lit("|"), pl.max_horizontal(ns, ew)])
        )
    )
    pairing = pl.concat(
        [
            base.filter(~individual).select("__row", two.alias("pairing")),
            base.filter(individual).select(
                "__row",
                pl.concat_list("north", "south", "east", "west")
                .list.drop_nulls()
                .list.sort()
                .list.join("|")
                .alias("pairing"),
            ),
        ]
    )
    out = out.join(pairing, on="__row", how="left")
    return out.with_columns(
        pl.concat_str(["id", pl.col("direction").fill_null("")], separator=" ")
        .str.strip_chars()
        .alias("contestant"),
        pl.concat_str(
            [_word(pl.col("form")), "id", pl.col("direction").fill_null("")], separator=" "
        )
        .str.strip_chars()
        .alias("label"),
    )


def unknown_contestants(
    validated: pl.DataFrame, lists: pl.DataFrame | None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Reject the results naming a contestant their event's list does not know:
    ``(kept, rejected)``.

    ``lists`` are the contestant rows of the lists (:data:`LIST_FORMATS`): ``event_id``,
    ``contestant``, ``direction``, ``section``. An event with no list is not checked. A
    listed contestant matches a result's pair (team, player) of the same id in its section
    (a list row without a section, or a result without one: any section) and, in a Mitchell
    where the list gives a direction, in that direction (in a Howell a pair is one
    contestant whichever way it sits, so a ranking's starting direction is not compared).
    One rejected row per result, naming the first unknown side."""
    empty = pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    if lists is None or lists.height == 0 or validated.height == 0:
        return validated, empty
    listed = lists.select(
        "event_id",
        pl.col("contestant").alias("id"),
        pl.col("direction").fill_null("").str.to_uppercase().alias("__dir"),
        pl.col("section").fill_null("").alias("__sec"),
    ).unique()
    events = listed.select("event_id").unique()
    indexed = validated.with_row_index("__row")
    side = sides(indexed.join(events, on="event_id", how="semi"))
    if side.height == 0:
        return validated, empty
    candidates = side.join(listed, on=["event_id", "id"], how="left")
    match = (
        pl.col("__sec").is_not_null()
        & (
            (pl.col("__sec") == "")
            | (pl.col("section").fill_null("") == "")
            | (pl.col("__sec") == pl.col("section"))
        )
        & (
            (pl.col("__dir") == "")
            | pl.col("direction").is_null()
            | (pl.col("__dir") == pl.col("direction"))
        )
    )
    known = candidates.group_by("__row", "field").agg(match.fill_null(False).any().alias("ok"))
    unknown = (
        side.join(known, on=["__row", "field"])
        .filter(~pl.col("ok"))
        .sort("__row", "field")
        .unique("__row", keep="first", maintain_order=True)
    )
    if unknown.height == 0:
        return validated, empty
    counts = listed.group_by("event_id").agg(pl.len().alias("__n"))
    unknown = unknown.join(counts, on="event_id", how="left").with_columns(
        _word(pl.col("form")).alias("__word")
    )
    # a pair named by the other direction's number (14EW at NS): an arrow-switched line
    other = pl.when(pl.col("field") == "ns_pair").then(pl.lit("EW")).otherwise(pl.lit("NS"))
    switched = (
        pl.col("field").is_in(["ns_pair", "ew_pair"])
        & pl.col("id").str.to_uppercase().str.contains(r"^\d+(NS|EW)$")
        & pl.col("id").str.to_uppercase().str.ends_with(other)
    )
    rejected = unknown.select(
        "file",
        "location",
        "field",
        pl.when(switched)
        .then(
            pl.format(
                "the {} pair is {}, a pair of the other direction: an arrow-switched line (the "
                "pairs sat the other way round on this board); Traveller scores arrow switches "
                "only where all pairs are ranked in one field (a one-winner Mitchell: USEBIO "
                "WINNER_TYPE 1, and no movement mitchell in events.csv), not in two, so the "
                "event is held: score the board with each pair in its own direction, or send "
                "the session without the switch",
                pl.when(pl.col("field") == "ns_pair").then(pl.lit("NS")).otherwise(pl.lit("EW")),
                "id",
            )
        )
        .otherwise(
            pl.format(
                "{} is not a contestant of event {}{}: its list of contestants ({} names) does "
                "not know it, so this is a mistyped number, not a new contestant; correct the "
                "row (or the list)",
                "label",
                "event_id",
                pl.when(pl.col("section") != "")
                .then(pl.format(" section {}", "section"))
                .otherwise(pl.lit("")),
                "__n",
            )
        )
        .alias("reason"),
        pl.lit(None, pl.Utf8).alias("raw"),
    )
    kept = indexed.join(unknown.select("__row"), on="__row", how="anti")
    return kept.drop("__row"), rejected


def _ranges(values: list[int]) -> str:
    """``1-3, 7, 9-10``: whole numbers as runs."""
    values = sorted(set(values))
    runs: list[str] = []
    start = prev = None
    for v in values:
        if start is None:
            start = prev = v
        elif v == prev + 1:
            prev = v
        else:
            runs.append(f"{start}-{prev}" if start != prev else f"{start}")
            start = prev = v
    if start is not None:
        runs.append(f"{start}-{prev}" if start != prev else f"{start}")
    return ", ".join(runs)


def _gaps(present: list[int], last: int, most: int = 12) -> str:
    """The runs of whole numbers from ``min(present)`` to ``last`` that ``present`` lacks
    (``18-30``), at most ``most`` of them: worked out from the runs, never by counting to
    ``last``, which a file states and so may be any size."""
    values = sorted(set(present))
    runs = [(a + 1, b - 1) for a, b in pairwise(values) if b > a + 1]
    if last > values[-1]:
        runs.append((values[-1] + 1, last))
    shown = [f"{a}-{b}" if a != b else f"{a}" for a, b in runs[:most]]
    return ", ".join(shown) + (f" and {len(runs) - most} more runs" if len(runs) > most else "")


def _listed(items: list[str], most: int = 12) -> str:
    """At most ``most`` items, then how many more."""
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def _section_words(section: str | None) -> str:
    return f"section {section}" if section else "the session"


def shortfalls(
    validated: pl.DataFrame,
    events: pl.DataFrame,
    profs: ProfileSet | None = None,
    rejected_rows: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Everything a date's sessions miss against their movement and their event (the module
    docstring gives the rules), one row of :data:`SHORTFALL_COLUMNS` per finding.

    ``validated`` are the date's validated results (with ``form``, ``movement``, ``profile``
    and ``expected_results`` from their event), ``events`` the resolved events (``boards``,
    ``pairs``, and the ``file``/``location`` of the row that states them).
    ``rejected_rows`` (canonical result rows, as read) are the results of the date that were
    rejected: the file holds them, so a table they give is not missing from it — its
    contestants are not absent from their round, its board not short of it — but they are
    no contestant's results either (each holds its event for its own reason)."""
    if validated.height == 0:
        return _empty()
    validated = validated.with_columns(pl.col("section").fill_null(""))
    held = _as_read(rejected_rows, validated)
    profs = ProfileSet.of(validated["profile"].unique().to_list()) if profs is None else profs
    share = {
        name: (p.completeness.contestant_boards, p.completeness.board_results)
        for name in validated["profile"].unique().to_list()
        for p in [profs[name]]
    }
    side = sides(validated)
    found = [
        f
        for f in (
            _phantoms(side, share),
            _short_boards(validated, share, held),
            _field_boards(validated, held),
            _absent_in_rounds(side, sides(held) if held.height else None),
            _declared(validated, side, events),
            _match_length(validated, events),
        )
        if f.height
    ]
    if not found:
        return _empty()
    typed = [
        f.select(
            pl.col("event_id").cast(pl.Utf8),
            pl.col("session").cast(pl.Int32),
            *(pl.col(c).cast(pl.Utf8) for c in SHORTFALL_COLUMNS[2:]),
        )
        for f in found
    ]
    return pl.concat(typed).sort("event_id", "session", "section", "field", "location")


def _as_read(rows: pl.DataFrame | None, validated: pl.DataFrame) -> pl.DataFrame:
    """The rejected ``rows`` whose event session, round and board are whole numbers, typed as
    far as :func:`sides` needs them, with their event session's form, movement and profile
    (those of its validated results)."""
    details = validated.select(
        "event_id", "session", "form", "movement", "profile", "expected_results"
    ).unique(subset=["event_id", "session"], keep="first")
    if rows is None or rows.height == 0:
        return validated.head(0)
    whole = {c: pl.col(c).cast(pl.Int32, strict=False) for c in ("session", "round", "board")}
    typed = (
        rows.with_columns(
            *(e.alias(c) for c, e in whole.items()),
            pl.col("section").fill_null(""),
        )
        .filter(pl.col("session").is_not_null() & pl.col("board").is_not_null())
        .join(details, on=["event_id", "session"], how="inner")
    )
    redealt = (
        validated.select("event_id", "session", "deal_round")
        .filter(pl.col("deal_round") > 0)
        .select("event_id", "session")
        .unique()
    )
    return (
        typed.join(
            redealt.with_columns(pl.lit(True).alias("__redealt")),
            on=["event_id", "session"],
            how="left",
        )
        .with_columns(
            pl.when(pl.col("__redealt").fill_null(False))
            .then(pl.col("round").fill_null(0))
            .otherwise(0)
            .cast(pl.Int32)
            .alias("deal_round")
        )
        .drop("__redealt")
    )


def _first_file(frame: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The file of each group's first result (the group's results are in it, or most are)."""
    return frame.group_by(keys).agg(pl.col("file").min().alias("file"))


def _phantoms(side: pl.DataFrame, share: dict[str, tuple[int, int]]) -> pl.DataFrame:
    """Contestants that played fewer than ``contestant_boards`` % of the boards the fullest
    contestant of their session played."""
    per = side.group_by([*_SECTION, "contestant"]).agg(
        pl.len().alias("n"),
        pl.col("label").first(),
        pl.col("field").first(),
        pl.col("form").first(),
        pl.col("profile").first(),
        pl.col("file").first(),
        pl.col("location").first(),
    )
    per = per.with_columns(pl.col("n").max().over(_SESSION).alias("full"))
    return (
        per.filter(pl.col("n") < pl.col("full"))
        .pipe(_below, share, 0)
        .select(
            *_SECTION,
            "file",
            "location",
            "field",
            pl.format(
                "{} played {} {} in {} where the session's fullest {} played {}: no movement "
                "seats a {} out for half a session (under {} % of the boards: profile "
                "completeness.contestant_boards) — a mistyped number? correct the file (a {} "
                "that left early gets the director's scores for the boards it missed)",
                "label",
                "n",
                pl.when(pl.col("n") == 1).then(pl.lit("board")).otherwise(pl.lit("boards")),
                pl.when(pl.col("section") != "")
                .then(pl.format("section {}", "section"))
                .otherwise(pl.lit("the session")),
                _word(pl.col("form")),
                "full",
                _word(pl.col("form")),
                "__pct",
                _word(pl.col("form")),
            ).alias("reason"),
        )
    )


def _below(frame: pl.DataFrame, share: dict[str, tuple[int, int]], which: int) -> pl.DataFrame:
    """The rows whose ``n`` is below ``__pct`` % of ``full`` (``__pct`` the profile's
    ``contestant_boards`` for ``which`` 0, ``board_results`` for 1), exactly: ``100 n < pct
    full``."""
    if frame.height == 0:
        return frame.with_columns(pl.lit(0).alias("__pct"))
    pct = pl.col("profile").replace_strict(
        {p: s[which] for p, s in share.items()}, default=50, return_dtype=pl.Int64
    )
    return frame.with_columns(pct.alias("__pct")).filter(
        pl.col("n").cast(pl.Int64) * 100 < pl.col("__pct") * pl.col("full").cast(pl.Int64)
    )


def _short_boards(
    validated: pl.DataFrame, share: dict[str, tuple[int, int]], held: pl.DataFrame
) -> pl.DataFrame:
    """Boards with fewer than ``board_results`` % of their expected results, or more than the
    event's ``expected_results``; one finding per section listing them. A rejected row
    (``held``) counts as a result the file holds."""
    cols = [*_BOARD, "expected_results", "profile", "file"]
    rows = pl.concat([validated.select(cols), held.select(cols)], how="vertical_relaxed")
    boards = rows.group_by(_BOARD).agg(
        pl.len().alias("n"),
        pl.col("expected_results").first(),
        pl.col("profile").first(),
        pl.col("file").min(),
    )
    boards = boards.with_columns(
        pl.coalesce(
            pl.col("expected_results").cast(pl.Int64), pl.col("n").max().over(_SECTION)
        ).alias("full")
    )
    short = _below(boards, share, 1)
    over = boards.filter(
        pl.col("expected_results").is_not_null() & (pl.col("n") > pl.col("expected_results"))
    ).with_columns(pl.lit(0).alias("__pct"))
    out = []
    for frame, too_many in ((short, False), (over, True)):
        if frame.height == 0:
            continue
        for key, group in frame.sort("deal_round", "board").group_by(_SECTION, maintain_order=True):
            event_id, session, section = key
            named = [
                (f"board {b}" if not r else f"board {b} of round {r}")
                + f" ({n} result{'' if n == 1 else 's'})"
                for r, b, n in group.select("deal_round", "board", "n").rows()
            ]
            full = group["full"][0]
            declared = group["expected_results"][0] is not None
            where = _section_words(section)
            expected = (
                f"{full} (the event's expected_results)"
                if declared
                else f"{full}, the most any board of {where} has"
            )
            if too_many:
                reason = (
                    f"{_listed(named)} of {where}: more results than the {full} per board the "
                    "event expects (expected_results) — a board is played once at each table; "
                    "correct the file or expected_results"
                )
            else:
                reason = (
                    f"{_listed(named)} of {where}: under {group['__pct'][0]} % of the results "
                    f"expected on a board ({expected}), a board mostly missing, not short of a "
                    "result or two (profile completeness.board_results) — is the file "
                    "complete? send it whole"
                )
            out.append(
                {
                    "event_id": event_id,
                    "session": session,
                    "section": section,
                    "file": group["file"].min(),
                    "location": "board " + _ranges(group["board"].to_list()),
                    "field": "board",
                    "reason": reason,
                }
            )
    return pl.DataFrame(out) if out else _empty()


def _field_boards(validated: pl.DataFrame, held: pl.DataFrame) -> pl.DataFrame:
    """Sections of a session scored across the field that lack a board another section of
    the session played: one finding per such section, listing the boards (a rejected row,
    ``held``, counts as a result the file holds)."""
    if "compare" not in validated.columns:
        return _empty()
    across = (pl.col("compare") == "field") & (
        pl.col("scoring").fill_null("matchpoints") == "matchpoints"
        if "scoring" in validated.columns
        else pl.lit(True)
    )
    rows = validated.filter(across)
    if rows.height == 0:
        return _empty()
    played = pl.concat(
        [rows.select(*_BOARD, "file"), held.select(*_BOARD, "file").join(
            rows.select(_SESSION).unique(), on=_SESSION, how="semi"
        )],
        how="vertical_relaxed",
    )  # fmt: skip
    sections = played.select(*_SECTION).unique()
    boards = played.select(*_SESSION, "deal_round", "board").unique()
    lacking = (
        sections.join(boards, on=_SESSION)
        .join(played.select(_BOARD).unique(), on=_BOARD, how="anti")
        .sort(*_SECTION, "deal_round", "board")
    )
    if lacking.height == 0:
        return _empty()
    files = played.group_by(_SESSION).agg(pl.col("file").min())
    out = []
    for (event_id, session, section), group in lacking.group_by(_SECTION, maintain_order=True):
        named = [
            f"board {b}" if not r else f"board {b} of round {r}"
            for r, b in group.select("deal_round", "board").rows()
        ]
        where = _section_words(section)
        out.append(
            {
                "event_id": event_id,
                "session": session,
                "section": section,
                "file": files.filter(
                    (pl.col("event_id") == event_id) & (pl.col("session") == session)
                )["file"][0],
                "location": "board " + _ranges(group["board"].to_list()),
                "field": "compare",
                "reason": (
                    f"{_listed(named)} not played in {where}, while the session is scored "
                    "across the field (compare = field): its boards are compared over every "
                    "section, which must all play them (Law 78A) — compare the session by "
                    "section (events.csv compare = section) or send the missing results"
                ),
            }
        )
    return pl.DataFrame(out)


def _absent_in_rounds(side: pl.DataFrame, held: pl.DataFrame | None) -> pl.DataFrame:
    """Rounds in which more contestants of a section have no result than the movement's
    sit-outs (sections where every result gives its round). The contestants a rejected row
    (``held``) names sat at their table: they are not absent."""
    # the rounds are a movement's only where every result gives its round and no contestant
    # sits at two different tables (pairings) in one round
    one_table = pl.col("pairing").n_unique().over([*_SECTION, "round", "contestant"]) == 1
    with_round = side.filter(
        pl.col("round").is_not_null().all().over(_SECTION) & one_table.all().over(_SECTION)
    )
    if with_round.height == 0:
        return _empty()
    seats = pl.col("form").replace_strict(_SEATS, default=2, return_dtype=pl.Int64)
    members = with_round.group_by([*_SECTION, "contestant"]).agg(
        pl.col("label").first(), pl.col("form").first()
    )
    members = members.with_columns(
        pl.len().over(_SECTION).alias("size"),
    ).with_columns((pl.col("size") % seats).alias("sitouts"))
    rounds = with_round.select(*_SECTION, "round").unique()
    present = with_round.select(*_SECTION, "round", "contestant")
    if held is not None and held.height:
        present = pl.concat(
            [present, held.filter(pl.col("round").is_not_null()).select(present.columns)],
            how="vertical_relaxed",
        )
    present = present.unique()
    absent = (
        rounds.join(members, on=_SECTION)
        .join(present, on=[*_SECTION, "round", "contestant"], how="anti")
        .with_columns(pl.len().over([*_SECTION, "round"]).alias("absent"))
        .filter(pl.col("absent") > pl.col("sitouts"))
    )
    if absent.height == 0:
        return _empty()
    files = _first_file(with_round, [*_SECTION, "round"])
    out = []
    grouped = absent.sort("contestant").group_by([*_SECTION, "round"], maintain_order=True)
    for (event_id, session, section, rnd), group in sorted(
        grouped, key=lambda kv: (str(kv[0][0]), kv[0][1], str(kv[0][2]), kv[0][3])
    ):
        size, sitouts, form = group["size"][0], group["sitouts"][0], group["form"][0]
        word = {"teams": "team", "individual": "player"}.get(form, "pair")
        full = size // _SEATS.get(form, 2)
        fill = f"{size} fill {full} {'matches' if form == 'teams' else 'tables'}"
        allowed = (
            f"seats all but {sitouts} of them each round ({fill}, {sitouts} sitting out)"
            if sitouts
            else f"({fill}: no sit-out) seats every {word} each round"
        )
        labels = sorted(group["label"].to_list(), key=_natural)
        file = files.filter(
            (pl.col("event_id") == event_id)
            & (pl.col("session") == session)
            & (pl.col("section") == section)
            & (pl.col("round") == rnd)
        )["file"][0]
        out.append(
            {
                "event_id": event_id,
                "session": session,
                "section": section,
                "file": file,
                "location": (f"section {section} " if section else "") + f"round {rnd}",
                "field": "round",
                "reason": (
                    f"round {rnd} of {_section_words(section)}: {_listed(labels)} have no "
                    f"result, where the movement of its {size} {word}s {allowed} — tables "
                    f"missing from the file? send it whole (a {word} that left gets the "
                    "director's scores for the boards it missed)"
                ),
            }
        )
    return pl.DataFrame(out)


def _natural(label: str) -> tuple:
    """Sort key putting ``pair 2`` before ``pair 10`` and ``player P2`` before ``P12``."""
    return tuple(
        (0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", label)
    )


def _match_length(validated: pl.DataFrame, events: pl.DataFrame) -> pl.DataFrame:
    """Team sessions whose ``boards_per_match`` is longer than every match the session
    played (the boards of a round: its matches play the same deals). The VP scale is that of
    the match's scheduled length, so a match short of a board keeps its scale; but a length
    no match comes near is a typo — and a count the scale would be computed up to."""
    teams = validated.filter((pl.col("form") == "teams") & pl.col("boards_per_match").is_not_null())
    if teams.height == 0:
        return _empty()
    most = (
        teams.group_by([*_SECTION, "deal_round"])
        .agg(pl.col("board").n_unique().alias("n"), pl.col("boards_per_match").first())
        .group_by(_SESSION)
        .agg(pl.col("n").max().alias("most"), pl.col("boards_per_match").first())
        .filter(pl.col("boards_per_match") > pl.col("most"))
    )
    if most.height == 0:
        return _empty()
    where = events.select(
        pl.col("event_id").cast(pl.Utf8), pl.col("session").cast(pl.Int32), "file", "location"
    )
    return most.join(where, on=_SESSION, how="left").select(
        *_SESSION,
        pl.lit("").alias("section"),
        pl.col("file").fill_null(""),
        pl.col("location").fill_null(""),
        pl.lit("boards_per_match").alias("field"),
        pl.format(
            "boards_per_match states {} boards a match where no match of the session played "
            "more than {}: correct boards_per_match",
            "boards_per_match",
            "most",
        ).alias("reason"),
    )


def _declared(validated: pl.DataFrame, side: pl.DataFrame, events: pl.DataFrame) -> pl.DataFrame:
    """Sections whose results cover another number of boards, and sessions with another
    number of contestants, than the event states (``boards``, ``pairs``)."""
    if events.height == 0 or not {"boards", "pairs"} <= set(events.columns):
        return _empty()
    stated = events.filter(pl.col("boards").is_not_null() | pl.col("pairs").is_not_null()).select(
        pl.col("event_id").cast(pl.Utf8),
        pl.col("session").cast(pl.Int32),
        "boards",
        "pairs",
        pl.col("file").alias("__efile"),
        pl.col("location").alias("__eloc"),
    )
    if stated.height == 0:
        return _empty()
    out = []
    played = validated.join(stated, on=_SESSION, how="semi")
    for (event_id, session, section), group in played.group_by(_SECTION):
        row = stated.filter((pl.col("event_id") == event_id) & (pl.col("session") == session))
        want = row["boards"][0]
        if want is None:
            continue
        keys = group.select("deal_round", "board").unique()
        if keys.height == want:
            continue
        efile, eloc = row["__efile"][0], row["__eloc"][0]
        numbers = keys["board"].to_list()
        if keys["deal_round"].max() == 0 and keys.height < want:
            gone = _gaps(numbers, min(numbers) + want - 1)
            what = f": boards {gone} have no result" if gone else ""
        elif keys.height > want:
            what = ": results on more boards than the session plays"
        else:
            what = ""
        out.append(
            {
                "event_id": event_id,
                "session": session,
                "section": section,
                "file": efile or group["file"].min(),
                "location": eloc or "",
                "field": "boards",
                "reason": (
                    f"{_section_words(section)} has results on {keys.height} board(s) "
                    f"({_ranges(numbers)}) where the event states {want}{what} — is the "
                    "results file complete? send it whole, or correct boards"
                ),
            }
        )
    counts = (
        side.join(stated, on=_SESSION, how="semi")
        .group_by([*_SESSION, "section", "contestant"])
        .agg(pl.len().alias("n"), pl.col("label").first(), pl.col("form").first())
    )
    for (event_id, session), group in counts.group_by(_SESSION):
        row = stated.filter((pl.col("event_id") == event_id) & (pl.col("session") == session))
        want = row["pairs"][0]
        if want is None or group.height == want:
            continue
        word = {"teams": "teams", "individual": "players"}.get(group["form"][0], "pairs")
        if group.height > want:
            fewest = group.sort("n", "label").head(group.height - want)
            what = (
                ": fewest boards, "
                + _listed([f"{lab} ({n})" for lab, n in fewest.select("label", "n").rows()])
                + " — a mistyped number?"
            )
        else:
            what = ""
        out.append(
            {
                "event_id": event_id,
                "session": session,
                "section": "",
                "file": row["__efile"][0] or "",
                "location": row["__eloc"][0] or "",
                "field": "pairs",
                "reason": (
                    f"{group.height} {word} have results in the session where the event states "
                    f"{want}{what}; correct the file or pairs"
                ),
            }
        )
    return pl.DataFrame(out) if out else _empty()
