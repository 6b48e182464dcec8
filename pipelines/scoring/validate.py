"""Validation: raw canonical rows -> typed, checked table results, or rejected rows.

Every row either comes out typed and accepted, or goes to the rejected inputs
with the field and a reason a club scorer understands. Checks:

* types and ranges: ``session`` and ``board`` whole numbers >= 1, ``round`` and
  ``table`` empty or >= 1, ``tricks`` 0..13, ``declarer`` one of ``N E S W``;
* the contract is legal notation (``4S``, ``3NT``, ``6HX``, ``7NTXX``, ``PASS``);
* the score is an NS-signed whole number, an artificial score ``A<ns>/<ew>``
  (each side ``60 50 40`` or ``+ = -``, Law 12C2) or ``NP``;
* an artificial score or ``NP`` does not also carry a contract;
* the event's form and scoring are ones this version scores;
* one result per pair per board: a second result for the same pair on the
  same board is rejected, naming where the first one is.

Law 77 check: for a played result, the score computed from the contract,
declarer, tricks and the Law 2 vulnerability of the board is compared with the
score the club program stated. A disagreement is **kept** (``score_agrees``
false, both values kept) — never silently replaced — and blocks the official
standings until corrected (an asset check reads this column).
"""

from __future__ import annotations

import polars as pl

from pipelines.formats.model import REJECT_COLUMNS, RESULT_COLUMNS
from pipelines.laws.contract import contract_parts_expr, is_pass_expr, ns_score_expr
from pipelines.scoring.checks import Check, apply_checks, quote

#: Artificial score codes: ``A<ns>/<ew>``, each side a fixed percentage or a variable average.
ARTIFICIAL_RE = r"^A(60|50|40|\+|=|-)/(60|50|40|\+|=|-)$"
_INT = r"^\d+$"
_SIGNED = r"^[+-]?\d+$"

#: Forms and scorings this version scores (others are rejected with a reason).
SUPPORTED = {("pairs", "matchpoints")}

#: Columns of a validated result, in order.
VALIDATED_SCHEMA: dict[str, pl.DataType] = {
    "session_date": pl.Utf8,
    "event_id": pl.Utf8,
    "session": pl.Int32,
    "section": pl.Utf8,
    "round": pl.Int32,
    "table": pl.Int32,
    "board": pl.Int32,
    "ns_pair": pl.Utf8,
    "ew_pair": pl.Utf8,
    "contract": pl.Utf8,
    "declarer": pl.Utf8,
    "tricks": pl.Int8,
    "score_stated": pl.Utf8,
    "stated_score": pl.Int64,
    "computed_score": pl.Int64,
    "score_agrees": pl.Boolean,
    "kind": pl.Utf8,
    "ns_art": pl.Utf8,
    "ew_art": pl.Utf8,
    "movement": pl.Utf8,
    "profile": pl.Utf8,
    "expected_results": pl.Int32,
    "laws": pl.Utf8,
    "source_ns_mp": pl.Float64,
    "source_ew_mp": pl.Float64,
    "file": pl.Utf8,
    "location": pl.Utf8,
    "format": pl.Utf8,
}


def _raw() -> pl.Expr:
    cols = ["event_id", "session", "section", "round", "table", "board", "ns_pair", "ew_pair",
            "contract", "declarer", "tricks", "score"]
    return pl.concat_str([pl.col(c).fill_null("") for c in cols], separator=",")


def _whole(col: str, minimum: int) -> pl.Expr:
    """True where ``col`` is not a whole number >= ``minimum`` (null counts as failing)."""
    v = pl.col(col).fill_null("")
    return ~v.str.contains(_INT) | (v.cast(pl.Int64, strict=False).fill_null(-1) < minimum)


def result_checks() -> list[Check]:
    """The checks a table-result row must pass (see the module docstring)."""
    score = pl.col("score").fill_null("")
    is_art = score.str.contains(ARTIFICIAL_RE)
    is_np = score == "NP"
    contract = pl.col("contract").fill_null("")
    has_contract = contract != ""
    is_pass = is_pass_expr(pl.col("contract")).fill_null(False)
    legal = is_pass | contract.str.contains(r"^[1-7](NT|C|D|H|S)(XX|X)?$")
    played = ~is_art & ~is_np
    needs_play = played & has_contract & ~is_pass
    form_ok = pl.lit(False)
    for form, scoring in SUPPORTED:
        form_ok = form_ok | ((pl.col("form") == form) & (pl.col("scoring") == scoring))
    return [
        Check("event_id", pl.col("event_id").is_null(), pl.lit("event_id is empty")),
        Check("session", _whole("session", 1),
              pl.format("session must be a whole number >= 1, not '{}'", quote("session"))),
        Check("board", _whole("board", 1),
              pl.format("board must be a whole number >= 1, not '{}'", quote("board"))),
        Check("round", pl.col("round").is_not_null() & _whole("round", 1),
              pl.format("round must be empty or a whole number >= 1, not '{}'", quote("round"))),
        Check("table", pl.col("table").is_not_null() & _whole("table", 1),
              pl.format("table must be empty or a whole number >= 1, not '{}'", quote("table"))),
        Check("ns_pair", pl.col("ns_pair").is_null(), pl.lit("ns_pair is empty")),
        Check("ew_pair", pl.col("ew_pair").is_null(), pl.lit("ew_pair is empty")),
        Check(
            "ew_pair",
            (pl.col("movement") == "howell") & (pl.col("ns_pair") == pl.col("ew_pair")),
            pl.format("pair {} cannot play against itself", quote("ns_pair")),
        ),
        Check(
            "score",
            (score != "") & ~is_art & ~is_np & ~score.str.contains(_SIGNED),
            pl.format(
                "score must be an NS-signed whole number, an artificial score like A60/40 "
                "or A+/-, or NP; not '{}'",
                quote("score"),
            ),
        ),
        Check(
            "contract",
            played & ~has_contract,
            pl.lit("contract is empty: give the contract (or PASS), or NP for a board not played"),
        ),
        Check(
            "contract",
            played & has_contract & ~legal,
            pl.format(
                "contract '{}' is not a legal contract (level 1-7, strain C D H S NT, "
                "optional X or XX, or PASS)",
                quote("contract"),
            ),
        ),
        Check(
            "contract",
            ~played & has_contract,
            pl.format(
                "score '{}' is an artificial score or NP but a contract '{}' is also given; "
                "give one or the other",
                quote("score"),
                quote("contract"),
            ),
        ),
        Check(
            "declarer",
            needs_play & legal & ~pl.col("declarer").fill_null("").is_in(["N", "E", "S", "W"]),
            pl.format("declarer must be N, E, S or W, not '{}'", quote("declarer")),
        ),
        Check(
            "tricks",
            needs_play & legal & _whole("tricks", 0)
            | (needs_play & (pl.col("tricks").cast(pl.Int64, strict=False).fill_null(0) > 13)),
            pl.format("tricks must be the tricks taken by declarer, 0 to 13, not '{}'",
                      quote("tricks")),
        ),
        Check(
            "event_id",
            ~form_ok,
            pl.format(
                "{} {} events are not scored by this version of Traveller yet "
                "(only pairs at matchpoints)",
                quote("form"),
                quote("scoring"),
            ),
        ),
    ]


def validate_results(raw: pl.DataFrame, events: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Validate canonical result rows against the resolved ``events`` (defaults applied).

    Returns ``(validated, rejected)``: ``validated`` has :data:`VALIDATED_SCHEMA`;
    ``rejected`` has the reject columns. Rows keep their input order.
    """
    if raw.height == 0:
        return pl.DataFrame(schema=VALIDATED_SCHEMA), pl.DataFrame(
            schema={c: pl.Utf8 for c in REJECT_COLUMNS}
        )
    ev = events.select(
        "event_id", "session", "form", "scoring", "movement", "profile", "expected_results", "laws"
    )
    df = (
        raw.select(RESULT_COLUMNS)
        .with_row_index("__order")
        .with_columns(pl.col("session").cast(pl.Int32, strict=False).alias("__session"))
        .join(ev, left_on=["event_id", "__session"], right_on=["event_id", "session"], how="left")
        .sort("__order")
    )
    from pipelines.scoring.events import DEFAULTS

    df = df.with_columns(
        *(pl.col(c).fill_null(pl.lit(DEFAULTS[c])) for c in
          ("form", "scoring", "movement", "profile", "laws"))
    )
    ok, rejected = apply_checks(df, result_checks(), _raw())
    typed = _type(ok)
    typed, dup_rejected = _reject_duplicates(typed)
    if dup_rejected.height:
        rejected = pl.concat([rejected, dup_rejected])
    return typed.select([pl.col(c).cast(t) for c, t in VALIDATED_SCHEMA.items()]), rejected


def _type(df: pl.DataFrame) -> pl.DataFrame:
    """Cast checked rows to their types; classify the result; compute the Law 77 score."""
    score = pl.col("score").fill_null("")
    art = score.str.extract_groups(ARTIFICIAL_RE)
    df = df.with_columns(
        pl.col("session").cast(pl.Int32),
        pl.col("section").fill_null(""),
        pl.col("round").cast(pl.Int32),
        pl.col("table").cast(pl.Int32),
        pl.col("board").cast(pl.Int32),
        pl.col("tricks").cast(pl.Int8, strict=False),
        pl.when(score.str.contains(ARTIFICIAL_RE))
        .then(pl.lit("artificial"))
        .when(score == "NP")
        .then(pl.lit("not_played"))
        .otherwise(pl.lit("played"))
        .alias("kind"),
        art.struct.field("1").alias("ns_art"),
        art.struct.field("2").alias("ew_art"),
        pl.col("score").alias("score_stated"),
        pl.when(score.str.contains(_SIGNED)).then(score.cast(pl.Int64, strict=False))
        .alias("stated_score"),
        pl.col("source_ns_mp").cast(pl.Float64, strict=False),
        pl.col("source_ew_mp").cast(pl.Float64, strict=False),
    )
    # Materialise the contract's parts once: every later reference reads a column.
    df = df.with_columns(
        is_pass_expr(pl.col("contract")).fill_null(False).alias("__pass"),
        *(v.alias(f"__{k}") for k, v in contract_parts_expr(pl.col("contract")).items()),
    )
    computed = (
        pl.when(pl.col("kind") != "played")
        .then(None)
        .when(pl.col("__pass"))
        .then(pl.lit(0, pl.Int64))
        .otherwise(
            ns_score_expr(
                pl.col("board"), pl.col("__level"), pl.col("__strain"), pl.col("__doubled"),
                pl.col("declarer"), pl.col("tricks"),
            )
        )
    )
    df = df.with_columns(
        computed.cast(pl.Int64).alias("computed_score"),
        pl.when(pl.col("__pass")).then(pl.lit("PASS")).otherwise(pl.col("contract"))
        .alias("contract"),
    ).drop("__level", "__strain", "__doubled", "__pass")
    return df.with_columns(
        pl.when(pl.col("stated_score").is_null() | pl.col("computed_score").is_null())
        .then(None)
        .otherwise(pl.col("stated_score") == pl.col("computed_score"))
        .alias("score_agrees"),
    )


def _reject_duplicates(df: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One result per pair per board: later duplicates are rejected, naming the first.

    In a Howell a pair id is one contestant whichever direction it sits; in a
    Mitchell the contestant is the pair id together with its direction.
    """
    board = ["event_id", "session", "section", "board"]
    mitchell = pl.col("movement") == "mitchell"
    # Only small columns go into the two-sided frame: an integer board id, the pair, and
    # the direction that makes a contestant in a Mitchell (0 in a Howell).
    keyed = df.select(
        "__order",
        pl.struct(board).rank("dense").alias("__g"),
        "ns_pair",
        "ew_pair",
        pl.when(mitchell).then(1).otherwise(0).cast(pl.Int8).alias("__ns_dir"),
        pl.when(mitchell).then(2).otherwise(0).cast(pl.Int8).alias("__ew_dir"),
    )
    sides = pl.concat(
        [
            keyed.select("__order", "__g", pl.col("ns_pair").alias("pair"),
                         pl.col("__ns_dir").alias("__dir")),
            keyed.select("__order", "__g", pl.col("ew_pair").alias("pair"),
                         pl.col("__ew_dir").alias("__dir")),
        ]
    )
    del keyed
    sides = sides.with_columns(pl.col("__order").min().over(["__g", "pair", "__dir"])
                               .alias("__first"))
    dups = sides.filter(pl.col("__order") != pl.col("__first"))
    del sides
    if dups.height == 0:
        return df, pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    firsts = df.join(dups.select(pl.col("__first").alias("__order")).unique(), on="__order",
                     how="semi").select(
        pl.col("__order").alias("__first"),
        pl.format("{}:{}", "file", "location").alias("__where"),
    )
    dups = (
        dups.join(firsts, on="__first", how="left")
        .group_by("__order", maintain_order=True)
        .agg(pl.all().first())
    )
    bad = df.join(dups.select("__order", "pair", "__where"), on="__order", how="inner")
    rejected = bad.select(
        "file",
        "location",
        pl.lit("board").alias("field"),
        pl.format(
            "pair {} already has a result on board {} of this session (at {}); "
            "a pair plays each board once",
            "pair",
            "board",
            "__where",
        ).alias("reason"),
        pl.concat_str(
            [pl.col(c).cast(pl.Utf8).fill_null("") for c in
             ("event_id", "session", "section", "round", "table", "board", "ns_pair", "ew_pair",
              "contract", "declarer", "tricks", "score_stated")],
            separator=",",
        ).alias("raw"),
    )
    return df.join(dups.select("__order"), on="__order", how="anti"), rejected
