"""Resolve the details of every event session: form, scoring, movement, profile, date, ...

Sources, strongest first: a row of ``events.csv``; the header of a USEBIO or
PBN file (which carries its own event details); the defaults for an event not
listed anywhere (pairs, matchpoints, Howell, profile ``wbf``, 2017 Laws, the
profile's correction and appeal periods, Laws 79C and 92B; level ``club``, the club
taken from the event id's prefix). Fields are merged one by one, so an
``events.csv`` row may override only the profile of a USEBIO event.

The profile, and why it was chosen (``profile_source``, stored on the event and shown in
the run summary), comes from the first of: an ``events.csv`` row naming one; the exporting
program the file names (USEBIO ``PROGRAM_NAME``, PBN ``Generator``), matched against the
profiles' ``programs`` (:func:`pipelines.profiles.detect`: Compscore -> ``abf``, Magic
Contest -> ``ffb``); ``traveller run --profile``; the default ``wbf``.

A date written with slashes (``11/03/2026``) is read in the order its file or its event's
profile (``date_order``) states; an ambiguous one with neither is rejected and holds its event
(:mod:`pipelines.scoring.dates`, :func:`read_event_dates`).

``published_at`` is when the session's official scores were made available: the
correction period (Law 79C) and the appeal period (92B) run from it. When no source
gives it, the end of the session's day (23:59) is taken.
"""

from __future__ import annotations

import polars as pl

from pipelines import profiles
from pipelines.formats.model import EVENT_COLUMNS, REJECT_COLUMNS
from pipelines.scoring import dates
from pipelines.scoring.checks import (
    INT32_MAX,
    Check,
    apply_checks,
    quote,
    rejections,
    too_large,
)
from pipelines.tables import polars_schema

FORMS = ("pairs", "teams", "individual")
SCORINGS = ("matchpoints", "butler", "cross_imps", "imps")
MOVEMENTS = ("howell", "mitchell")
#: The field a matchpoint board is compared in (Law 78A): its section, or the session's
#: sections together ("scored across the field").
COMPARES = ("section", "field")
#: Victory-point scales of a team match (``none``: a knockout, decided on IMPs).
VP_SCALES = ("wbf2013", "wbf2013_discrete", "none")
#: Stages of a team event.
STAGES = ("round_robin", "swiss", "knockout")
LAWS = ("2017", "2007")
#: The level of an event: what the director-consistency audit compares like with like.
LEVELS = ("club", "congress", "national")

#: Defaults for an event session not listed in events.csv nor carried by its file.
DEFAULTS: dict[str, str | int] = {
    "form": "pairs",
    "scoring": "matchpoints",
    "movement": "howell",
    "profile": profiles.DEFAULT_PROFILE,
    "laws": "2017",
    "level": "club",
}

#: Schema of the resolved events table.
EVENTS_SCHEMA: dict[str, pl.DataType] = polars_schema("events")

_INT = r"^\d+$"


def parse_time(expr: pl.Expr) -> pl.Expr:
    """An ISO date and time (``YYYY-MM-DD HH:MM[:SS]``, ``T`` allowed) as a Datetime; null if
    it is not one."""
    t = expr.str.strip_chars().str.replace("T", " ")
    return pl.coalesce(
        t.str.strptime(pl.Datetime("us"), "%Y-%m-%d %H:%M:%S", strict=False),
        t.str.strptime(pl.Datetime("us"), "%Y-%m-%d %H:%M", strict=False),
    )


def _one_of(col: str, allowed: tuple[str, ...]) -> Check:
    return Check(
        col,
        pl.col(col).is_not_null() & ~pl.col(col).is_in(list(allowed)),
        pl.format(f"{col} must be one of {', '.join(allowed)}, not '{{}}'", quote(col)),
    )


def _whole_from_one(col: str) -> Check:
    """``col``, when given, is a whole number >= 1."""
    return Check(
        col,
        pl.col(col).is_not_null() & (pl.col(col).cast(pl.Int64, strict=False).fill_null(0) < 1),
        pl.format(f"{col} must be a whole number >= 1, not '{{}}'", quote(col)),
    )


def event_checks() -> list[Check]:
    """The row checks an event-session row must pass."""
    return [
        Check("event_id", pl.col("event_id").is_null(), pl.lit("event_id is empty")),
        Check(
            "session",
            ~pl.col("session").fill_null("").str.contains(_INT)
            | (
                pl.col("session")
                .fill_null("0")
                .str.replace(r"^$", "0")
                .cast(pl.Int64, strict=False)
                < 1
            ),
            pl.format("session must be a whole number >= 1, not '{}'", quote("session")),
        ),
        Check(
            "date",
            pl.col("date").is_not_null()
            & pl.col("date").str.to_date("%Y-%m-%d", strict=False).is_null(),
            pl.format("date must be a calendar date YYYY-MM-DD, not '{}'", quote("date")),
        ),
        _one_of("form", FORMS),
        _one_of("scoring", SCORINGS),
        _one_of("movement", MOVEMENTS),
        _one_of("compare", COMPARES),
        _one_of("profile", tuple(profiles.available())),
        _one_of("laws", LAWS),
        _one_of("level", LEVELS),
        Check(
            "correction_minutes",
            pl.col("correction_minutes").is_not_null()
            & ~pl.col("correction_minutes").str.contains(_INT),
            pl.format(
                "correction_minutes must be a whole number of minutes, not '{}'",
                quote("correction_minutes"),
            ),
        ),
        Check(
            "appeal_minutes",
            pl.col("appeal_minutes").is_not_null() & ~pl.col("appeal_minutes").str.contains(_INT),
            pl.format(
                "appeal_minutes must be a whole number of minutes, not '{}'",
                quote("appeal_minutes"),
            ),
        ),
        Check(
            "published_at",
            pl.col("published_at").is_not_null() & parse_time(pl.col("published_at")).is_null(),
            pl.format(
                "published_at must be a date and time YYYY-MM-DD HH:MM, not '{}'",
                quote("published_at"),
            ),
        ),
        _one_of("vp_scale", VP_SCALES),
        _one_of("stage", STAGES),
        _whole_from_one("boards_per_match"),
        _whole_from_one("expected_results"),
        _whole_from_one("boards"),
        _whole_from_one("pairs"),
        *(
            too_large(c)
            for c in (
                "session",
                "correction_minutes",
                "appeal_minutes",
                "boards_per_match",
                "expected_results",
                "boards",
                "pairs",
            )
        ),
    ]


def _raw() -> pl.Expr:
    return pl.concat_str([pl.col(c).fill_null("") for c in EVENT_COLUMNS[2:]], separator=",")


def resolve_events(events: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Validate and merge event-session rows; returns (resolved events, rejected rows).

    ``events`` has the canonical :data:`~pipelines.formats.model.EVENT_COLUMNS`
    plus ``priority`` (0 for ``events.csv``, 1 for a file header). Within one
    priority a second definition of the same event session is rejected; across
    priorities fields merge, the stronger source winning field by field.
    Defaults are *not* applied here (see :func:`with_defaults`).
    """
    if events.height == 0:
        return pl.DataFrame(schema=EVENTS_SCHEMA), pl.DataFrame(
            schema={c: pl.Utf8 for c in REJECT_COLUMNS}
        )
    _, rejected = apply_checks(events, event_checks(), _raw())
    ok = _kept_details(events)
    ok = ok.with_row_index("__order").with_columns(
        pl.col("session").cast(pl.Int32),
        pl.col("correction_minutes").cast(pl.Int32, strict=False),
        pl.col("appeal_minutes").cast(pl.Int32, strict=False),
        pl.col("expected_results").cast(pl.Int32, strict=False),
        pl.col("boards").cast(pl.Int32, strict=False),
        pl.col("pairs").cast(pl.Int32, strict=False),
        pl.col("boards_per_match").cast(pl.Int32, strict=False),
    )
    first = ok.with_columns(
        pl.col("__order").min().over(["event_id", "session", "priority"]).alias("__first")
    )
    dup = first.filter(pl.col("__order") != pl.col("__first"))
    if dup.height:
        firsts = first.filter(pl.col("__order") == pl.col("__first")).select(
            "event_id",
            "session",
            "priority",
            pl.format("{}:{}", "file", "location").alias("__where"),
        )
        dup = dup.join(firsts, on=["event_id", "session", "priority"], how="left")
        reason = pl.format(
            "event {} session {} is already defined at {}", "event_id", "session", "__where"
        )
        rejected = pl.concat([rejected, rejections(dup, "event_id", reason, _raw())])
    kept = first.filter(pl.col("__order") == pl.col("__first")).sort("priority", "__order")
    kept = kept.with_columns(
        pl.when(pl.col("profile").is_not_null())
        .then(pl.format("{} names profile {}", "file", "profile"))
        .alias("profile_source")
    )
    fields = [c for c in EVENTS_SCHEMA if c not in ("event_id", "session")]
    merged = kept.group_by(["event_id", "session"], maintain_order=True).agg(
        *(pl.col(c).drop_nulls().first().alias(c) for c in fields)
    )
    return merged.select([pl.col(c).cast(t) for c, t in EVENTS_SCHEMA.items()]), rejected


#: The fields that say which event session a row describes (a row failing one of these
#: describes no event session Traveller can name).
KEY_FIELDS: tuple[str, ...] = ("event_id", "session")


def _kept_details(events: pl.DataFrame) -> pl.DataFrame:
    """Every row whose event session is named (``event_id``, ``session`` valid), with each
    detail that fails its check emptied: the row is rejected for that detail (see
    :func:`resolve_events`) and its event is held (:func:`event_holds`), but what it does
    say — its date above all, which dates the event's results and rulings — still counts."""
    checks = event_checks()
    key_ok = ~pl.any_horizontal(
        *(c.fails.fill_null(False) for c in checks if c.field in KEY_FIELDS)
    )
    fails = _fails_by_field(checks)
    return events.filter(key_ok).with_columns(
        pl.when(failed).then(None).otherwise(pl.col(field)).alias(field)
        for field, failed in fails.items()
        if field not in KEY_FIELDS
    )


def _fails_by_field(checks: list[Check]) -> dict[str, pl.Expr]:
    """Per field, whether a row fails any of the ``checks`` on it (null read as passing)."""
    fails: dict[str, pl.Expr] = {}
    for c in checks:
        failed = c.fails.fill_null(False)
        fails[c.field] = fails[c.field] | failed if c.field in fails else failed
    return fails


#: Columns of an event held back because its details are unknown (the ``event_holds`` table).
EVENT_HOLD_COLUMNS: tuple[str, ...] = ("event_id", "session", "file", "location", "field", "reason")


def event_holds(
    events: pl.DataFrame, unknown_columns: dict[str, tuple[str, ...]] | None = None
) -> pl.DataFrame:
    """The event sessions whose details cannot be trusted, one row per reason: a row of
    ``events.csv`` (or a file's header) that fails a check, and every row of an
    ``events.csv`` that has a column Traveller does not know (``unknown_columns``: file →
    columns; a renamed header, its values never read). Scoring such an event on the
    defaults (a Mitchell as a Howell, the wrong profile or Laws, an unknown date) would
    publish wrong standings, so its standings are held until the row is corrected.

    ``session`` is null when the row's session names no session (not a whole number from 1
    to 2147483647: ``x``, ``0``, ``3000000000``): which session the row describes is not
    known, so every session of the event is held; a row without an ``event_id`` names no
    event and holds nothing (it is rejected). A file's own header (``priority`` 1) failing
    a check holds nothing where an ``events.csv`` row (``priority`` 0) of the same event
    session gives that detail validly: the stronger row states it (the file's value is still
    rejected). Columns :data:`EVENT_HOLD_COLUMNS`, all text."""
    empty = pl.DataFrame(schema={c: pl.Utf8 for c in EVENT_HOLD_COLUMNS})
    if events.height == 0:
        return empty
    number = (
        pl.when(pl.col("session").fill_null("").str.contains(_INT))
        .then(pl.col("session").cast(pl.Int64, strict=False))
        .otherwise(None)
    )
    session = pl.when(number.is_between(1, INT32_MAX)).then(number.cast(pl.Utf8)).otherwise(None)
    where = ("event_id", session.alias("session"), "file", "location")
    parts = [empty]
    checks = event_checks()
    fails = _fails_by_field(checks)
    header = pl.col("priority") == 1 if "priority" in events.columns else pl.lit(False)
    stated = pl.col("priority") == 0 if "priority" in events.columns else pl.lit(False)
    for c in checks:
        if c.field == "event_id":
            continue
        hit = events.filter(c.fails.fill_null(False) & pl.col("event_id").is_not_null())
        if hit.height and c.field in events.columns:
            # an events.csv row of the event session that states this detail validly
            given = events.filter(stated & pl.col(c.field).is_not_null() & ~fails[c.field]).select(
                "event_id", "session", pl.lit(True).alias("__given")
            )
            hit = (
                hit.join(given.unique(), on=["event_id", "session"], how="left", nulls_equal=True)
                .filter(~(header & pl.col("__given").fill_null(False)))
                .drop("__given")
            )
        if hit.height:
            reason = pl.format(
                "the event's row was rejected ({}), so its details are not known: {}",
                c.reason,
                pl.when(header)
                .then(pl.lit("give this detail in an events.csv row for the file or the event"))
                .otherwise(pl.lit("correct the row")),
            )
            parts.append(hit.select(*where, pl.lit(c.field).alias("field"), reason.alias("reason")))
    for file, cols in (unknown_columns or {}).items():
        hit = events.filter((pl.col("file") == file) & pl.col("event_id").is_not_null())
        for col in cols:
            reason = pl.lit(
                f"the file has a column '{col}' that is not an events.csv column (a renamed "
                "header?): its values were not read, so the event's details are not known; "
                "name it as docs/inputs.md lists the columns"
            )
            parts.append(hit.select(*where, pl.lit(col).alias("field"), reason.alias("reason")))
    return pl.concat(parts).unique(maintain_order=True)


def read_event_dates(
    rows: pl.DataFrame,
    profile: str | None = None,
    written: dict[str, list[str | None]] | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Read the slashed dates of event-session ``rows`` as the files and the events' profiles
    state their order (:func:`pipelines.scoring.dates.read_dates`, whose docstring gives the
    rule); returns ``(rows, rejected, held)``, ``held`` in :data:`EVENT_HOLD_COLUMNS`.

    Each row's profile is its event session's as :func:`choose_profile` resolves it (the
    ``events.csv`` row, the file's program, ``profile``, the default), so a date is read by
    the same profile that scores its event. Call before :func:`resolve_events`."""
    has_slash = rows.height and rows["date"].drop_nulls().str.contains("/").any()
    if not has_slash:
        empty = pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
        return rows, empty, pl.DataFrame(schema={c: pl.Utf8 for c in EVENT_HOLD_COLUMNS})
    # the profiles only: the dates, not read yet, take no part
    first, _ = resolve_events(rows.with_columns(pl.lit(None, pl.Utf8).alias("date")))
    chosen = choose_profile(first, profile)
    profile_of = {
        (e, dates.session_key(s)): p
        for e, s, p in chosen.select("event_id", "session", "profile").rows()
    }
    default = profiles.load(profile).name if profile is not None else profiles.DEFAULT_PROFILE
    for key in zip(rows["event_id"].to_list(), rows["session"].to_list(), strict=True):
        profile_of.setdefault((key[0], dates.session_key(key[1])), default)
    order = {k: profiles.load(p).date_order for k, p in profile_of.items()}
    return dates.read_dates(rows, order, profile_of, written)


def club_from_event_id(event_id: pl.Expr) -> pl.Expr:
    """The club of an event not saying it: the event id's prefix before the first ``-``, ``_``
    or space (``CLUB1-2026-11-02`` → ``CLUB1``)."""
    return event_id.str.extract(r"^([^-_ ]+)", 1)


def choose_profile(df: pl.DataFrame, profile: str | None = None) -> pl.DataFrame:
    """Fill each event's missing ``profile`` and say why in ``profile_source`` (see the
    module docstring): the file's program (a profile whose ``programs`` it names), else
    ``profile`` (``traveller run --profile``, validated: an unknown name raises
    :class:`~pipelines.profiles.ProfileError`), else the default profile."""
    fallback = profiles.load(profile).name if profile is not None else profiles.DEFAULT_PROFILE
    programs = df["program"].drop_nulls().unique().to_list() if df.height else []
    detected = {p: profiles.detect(p) for p in programs}
    found = pl.col("program").replace_strict(
        {k: v for k, v in detected.items() if v}, default=None, return_dtype=pl.Utf8
    )
    program_words = pl.format("the file was written by {}", "program")
    why_fallback = (
        pl.lit(f"traveller run --profile {fallback}")
        if profile is not None
        else pl.lit(f"the default profile ({fallback})")
    )
    return df.with_columns(
        pl.coalesce("profile", found, pl.lit(fallback)).alias("profile"),
        pl.when(pl.col("profile").is_not_null())
        .then(pl.col("profile_source"))
        .when(found.is_not_null())
        .then(pl.format("{}, which profile {} reproduces", program_words, found))
        .when(pl.col("program").is_not_null())
        .then(pl.format("{}: {}, which no profile reproduces", why_fallback, program_words))
        .otherwise(
            pl.format(
                "{}: no events.csv row names a profile and the file names no program", why_fallback
            )
        )
        .alias("profile_source"),
    )


def with_defaults(df: pl.DataFrame, profile: str | None = None) -> pl.DataFrame:
    """Fill every missing event detail with :data:`DEFAULTS`; a missing ``club`` with the
    event id's prefix (:func:`club_from_event_id`); a missing correction period (Law 79C) or
    appeal period (Law 92B) with the event's profile's ``[periods]``; a missing ``compare``
    (the field a board is compared in, Law 78A) with the profile's ``matchpoints.compare``.

    ``profile`` (``traveller run --profile``) is the profile of events that neither
    ``events.csv`` nor their file's header names; an unknown name raises
    :class:`~pipelines.profiles.ProfileError` (never a silent fallback)."""
    df = choose_profile(df, profile)
    defaults = dict(DEFAULTS)
    df = df.with_columns(
        *(pl.col(c).fill_null(pl.lit(v)).cast(EVENTS_SCHEMA[c]) for c, v in defaults.items()),
        pl.col("club").fill_null(club_from_event_id(pl.col("event_id"))),
    )
    periods = {
        key: {n: getattr(profiles.load(n), key) for n in profiles.available()}
        for key in ("correction_minutes", "appeal_minutes")
    }
    compare = {n: profiles.load(n).compare for n in profiles.available()}
    return df.with_columns(
        *(
            pl.col(key)
            .fill_null(pl.col("profile").replace_strict(by_profile, default=None))
            .cast(pl.Int32)
            for key, by_profile in periods.items()
        ),
        pl.col("compare").fill_null(
            pl.col("profile").replace_strict(compare, default=None, return_dtype=pl.Utf8)
        ),
    )
