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
  same board is rejected, naming where the first one is — when it repeats the first
  (same table, pairs, contract, declarer, tricks and score: one result sent twice);
  when it differs, nothing says which is right, so **both** are rejected (field
  ``result``) and the event is held (``sql/read/holds_for_dates.sql``). A board is identified by
  its number and, where every round plays its own deals 1..N, its round
  (``deal_round``, :func:`pipelines.scoring.score.deal_round_expr`): always at
  teams (a match board is event, session, round, board), and for pairs and
  individuals under a profile whose ``boards.redealt_per_round`` is set.

Law 77 check: for a played result, the score computed from the contract,
declarer, tricks and the Law 2 vulnerability of the board is compared with the
score the club program stated. A disagreement is **kept** (``score_agrees``
false, both values kept) — never silently replaced — and holds back its event's
official standings until corrected (``pipelines.stages.hold_events``).
"""

from __future__ import annotations

import functools

import numpy as np
import polars as pl

from pipelines import profiles
from pipelines.formats.model import REJECT_COLUMNS, RESULT_COLUMNS, RESULT_CSV_HEADER
from pipelines.laws.contract import contract_parts_expr, is_pass_expr, ns_score_expr
from pipelines.laws.exact import column, column_codes, dense_ids, distinct, pack
from pipelines.profiles import ProfileSet
from pipelines.scoring.checks import Check, apply_checks, quote, too_large
from pipelines.scoring.score import deal_round_expr, redealt_profiles
from pipelines.tables import polars_schema

#: Artificial score codes: ``A<ns>/<ew>``, each side a fixed percentage or a variable average.
ARTIFICIAL_RE = r"^A(60|50|40|\+|=|-)/(60|50|40|\+|=|-)$"
_INT = r"^\d+$"
_SIGNED = r"^[+-]?\d+$"

#: Forms and scorings this version scores (others are rejected with a reason).
SUPPORTED = {
    ("pairs", "matchpoints"),
    ("individual", "matchpoints"),
    ("pairs", "butler"),
    ("pairs", "cross_imps"),
    ("individual", "butler"),
    ("individual", "cross_imps"),
    ("teams", "imps"),
}

#: The players of a table in an individual event (their sides are "north/south", "east/west").
SEATS = ("north", "south", "east", "west")

#: Columns of a validated result, in order (the ``validated_results`` table).
VALIDATED_SCHEMA: dict[str, pl.DataType] = polars_schema("validated_results")


def _raw() -> pl.Expr:
    return pl.concat_str([pl.col(c).fill_null("") for c in RESULT_CSV_HEADER], separator=",")


def _whole(col: str, minimum: int) -> pl.Expr:
    """True where ``col`` is not a whole number >= ``minimum`` (null counts as failing)."""
    v = pl.col(col).fill_null("")
    return ~v.str.contains(_INT) | (v.cast(pl.Int64, strict=False).fill_null(-1) < minimum)


def _individual_checks() -> list[Check]:
    """An individual event's row names four different players (north, south, east, west)."""
    individual = pl.col("form") == "individual"
    checks = [
        Check(
            seat,
            individual & pl.col(seat).is_null(),
            pl.lit(f"{seat} is empty: an individual event names the four players"),
        )
        for seat in SEATS
    ]
    players = [pl.col(s).fill_null("") for s in SEATS]
    clash = pl.lit(False)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            clash = clash | ((a == b) & (a != ""))
    checks.append(
        Check(
            "north",
            individual & clash,
            pl.format(
                "a player sits twice at the table ({}, {}, {}, {})", *[quote(s) for s in SEATS]
            ),
        )
    )
    return checks


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
        Check(
            "session",
            _whole("session", 1),
            pl.format("session must be a whole number >= 1, not '{}'", quote("session")),
        ),
        Check(
            "board",
            _whole("board", 1),
            pl.format("board must be a whole number >= 1, not '{}'", quote("board")),
        ),
        Check(
            "round",
            pl.col("round").is_not_null() & _whole("round", 1),
            pl.format("round must be empty or a whole number >= 1, not '{}'", quote("round")),
        ),
        Check(
            "table",
            pl.col("table").is_not_null() & _whole("table", 1),
            pl.format("table must be empty or a whole number >= 1, not '{}'", quote("table")),
        ),
        *(too_large(c) for c in ("session", "board", "round", "table")),
        *_individual_checks(),
        Check(
            "ns_pair",
            pl.col("ns_pair").is_null() & (pl.col("form") != "individual"),
            pl.lit("ns_pair is empty"),
        ),
        Check(
            "ew_pair",
            pl.col("ew_pair").is_null() & (pl.col("form") != "individual"),
            pl.lit("ew_pair is empty"),
        ),
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
            pl.format(
                "tricks must be the tricks taken by declarer, 0 to 13, not '{}'", quote("tricks")
            ),
        ),
        Check(
            "event_id",
            ~form_ok,
            pl.format(
                "{} {} events are not scored by this version of Traveller yet "
                "(pairs and individuals at matchpoints, Butler or cross-IMPs; teams at IMPs)",
                quote("form"),
                quote("scoring"),
            ),
        ),
    ]


#: Text columns whose checks and types are worked out once per distinct value (or
#: combination of values), then mapped back to the rows: they hold few distinct values.
_CODED = ("session", "board", "round", "table", "score", "contract", "declarer", "tricks")

#: Event-session details every result row carries (from the resolved events, else defaults).
_EVENT_FIELDS = (
    "form",
    "scoring",
    "movement",
    "profile",
    "expected_results",
    "laws",
    "compare",
    "stage",
    "vp_scale",
    "boards_per_match",
)

#: Index of a contract in the Law 77 table: ``(level - 1) * 15 + strain * 3 + doubled``.
_STRAIN_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}
_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}


def validate_results(
    raw: pl.DataFrame, events: pl.DataFrame, *, profs: ProfileSet | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Validate canonical result rows against the resolved ``events`` (defaults applied).

    Returns ``(validated, rejected)``: ``validated`` has :data:`VALIDATED_SCHEMA`;
    ``rejected`` has the reject columns. Rows keep their input order.

    How (the rules are the module docstring's): the text columns are coded as
    integers once (:class:`_Codes`). Every check of :func:`result_checks` that
    reads only columns of :data:`_CODED` is evaluated once per distinct
    combination of their values and mapped back to the rows through the
    codes; the others row by row. Only rows failing some check are then
    described (one rejected row per failed check, as
    :func:`~pipelines.scoring.checks.apply_checks` does).
    """
    profs = ProfileSet.ensure(profs)
    if raw.height == 0:
        return pl.DataFrame(schema=VALIDATED_SCHEMA), pl.DataFrame(
            schema={c: pl.Utf8 for c in REJECT_COLUMNS}
        )
    df = raw.select(RESULT_COLUMNS)
    coded = (*_CODED, "event_id")
    codes = _Codes(df, coded, joint=("ns_pair", "ew_pair"))
    detailed = _with_event_details(df, events, codes)
    if detailed.height != df.height:  # a session defined twice multiplied its rows
        codes = _Codes(detailed, coded, joint=("ns_pair", "ew_pair"))
    df = codes.df = detailed
    del detailed
    checks = result_checks()
    failing = _failing(df, checks, codes)
    if failing is not None:
        _, rejected = apply_checks(df.filter(pl.Series(failing)), checks, _raw())
        codes = codes.filter(~failing)
        df = codes.df
    else:
        rejected = pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    typed = _type(df, codes)
    del df
    names = typed["profile"].unique().drop_nulls().to_list()
    typed = typed.with_columns(deal_round_expr(redealt_profiles(names, profs=profs)))
    typed, dup_rejected = _reject_duplicates(typed, codes)
    del codes
    if dup_rejected.height:
        rejected = pl.concat([rejected, dup_rejected])
    typed, seat_rejected = _reject_player_duplicates(typed)
    if seat_rejected.height:
        rejected = pl.concat([rejected, seat_rejected])
    return typed.select([pl.col(c).cast(t) for c, t in VALIDATED_SCHEMA.items()]), rejected


class _Codes:
    """Integer codes of text columns of a frame: ``get(col)`` gives ``(codes, values)``.

    ``values`` holds the column's distinct values, sorted, then null; row ``i``
    holds ``values[codes[i]]``. Columns named in ``joint`` share one list of
    values (so equal pair ids get equal codes in both columns). All columns
    are coded together, through an ``Enum`` of their values (hash lookups, no
    sort), so Polars can do them in parallel.
    """

    def __init__(
        self, df: pl.DataFrame, cols: tuple[str, ...], joint: tuple[str, ...] = ()
    ) -> None:
        self.df = df
        every = [*cols, *joint]
        uniques = (
            df.lazy().select(pl.col(c).unique().drop_nulls().implode() for c in every).collect()
        )
        cats = {c: uniques[c][0].sort() for c in every}
        if joint:
            shared = pl.concat([cats[c] for c in joint]).unique().sort()
            cats.update(dict.fromkeys(joint, shared))
        self.values = {
            c: pl.concat([cats[c], pl.Series([None], dtype=cats[c].dtype)]) for c in every
        }
        self.codes: dict[str, np.ndarray] = {}
        cast = []
        for c in every:
            if len(cats[c]) == 0 or (len(cats[c]) == 1 and not column(df, c).null_count()):
                self.codes[c] = np.zeros(df.height, dtype=np.uint32)  # one value (or all null)
            else:
                cast.append(
                    pl.col(c)
                    .cast(pl.Enum(cats[c]))
                    .to_physical()
                    .cast(pl.UInt32)
                    .fill_null(len(cats[c]))
                )
        if cast:
            for c, s in df.select(cast).to_dict().items():
                self.codes[c] = s.to_numpy()

    def get(self, col: str) -> tuple[np.ndarray, pl.Series]:
        return self.codes[col], self.values[col]

    def filter(self, keep: np.ndarray) -> _Codes:
        """The codes of the rows where ``keep`` is true (``df`` filtered alike)."""
        out = object.__new__(_Codes)
        out.df = self.df.filter(pl.Series(keep))
        out.values = self.values
        out.codes = {c: codes[keep] for c, codes in self.codes.items()}
        return out

    def combinations(self, cols: tuple[str, ...]) -> tuple[np.ndarray, pl.DataFrame] | None:
        """A key per row for its combination of ``cols``, and the distinct combinations.

        Returns ``(key, combos)``: ``combos`` has the columns ``cols`` and a
        ``__key`` column; ``None`` when the combinations could not be packed.
        """
        total = 1
        for c in cols:
            total *= len(self.values[c])
        if total >= 2**62:
            return None
        key = np.zeros(self.df.height, dtype=np.int64)
        stride = 1
        for c in cols:
            key += self.codes[c].astype(np.int64) * stride
            stride *= len(self.values[c])
        seen = distinct(key, total)
        stride, columns = 1, {}
        for c in cols:
            v = self.values[c]
            columns[c] = v.gather(pl.Series((seen // stride) % len(v)))
            stride *= len(v)
        return key, pl.DataFrame({**columns, "__key": seen})


def _member(key: np.ndarray, values: np.ndarray, space: int) -> np.ndarray:
    """Whether each element of ``key`` (values below ``space``) is one of ``values``."""
    if space <= 8 * len(key) + 1024:
        table = np.zeros(space, dtype=bool)
        table[values] = True
        return table[key]
    return np.isin(key, values)


def _with_event_details(df: pl.DataFrame, events: pl.DataFrame, codes: _Codes) -> pl.DataFrame:
    """Add the event-session details of :data:`_EVENT_FIELDS` to every row.

    A row takes the details of its (``event_id``, ``session``) in ``events``;
    where a row's session is not listed (or a detail is empty) the defaults of
    :mod:`pipelines.scoring.events` apply. The lookup runs on the distinct
    sessions; a detail shared by every row is added as a single value.
    """
    from pipelines.scoring.events import DEFAULTS

    ev = events.select("event_id", "session", *_EVENT_FIELDS)
    fill = [pl.col(c).fill_null(pl.lit(DEFAULTS[c])) for c in _EVENT_FIELDS if c in DEFAULTS]
    # a session not listed compares its boards as its profile says (matchpoints.compare)
    compare = {n: profiles.load(n).compare for n in profiles.available()}
    fill.append(
        pl.col("compare").fill_null(
            pl.col("profile")
            .fill_null(pl.lit(DEFAULTS["profile"]))
            .replace_strict(compare, default="section", return_dtype=pl.Utf8)
        )
    )
    on = dict(left_on=["event_id", "__session"], right_on=["event_id", "session"])
    session = column(df, "session").cast(pl.Int32, strict=False).alias("__session")
    if ev.select("event_id", "session").is_duplicated().any():
        # The same session defined twice: every row joins each definition, as it always has
        # (the copies keep the row's identity ``__row``, so they are not each other's duplicates).
        out = (
            df.with_row_index("__row")
            .with_columns(session)
            .join(ev, how="left", maintain_order="left", **on)
        )
        return out.with_columns(fill).drop("__session")
    e_codes, e_values = codes.get("event_id")
    s_codes, n_s = column_codes(session)
    ids, _ = dense_ids(e_codes.astype(np.int64) * n_s + s_codes)
    first = pl.Series(ids).arg_unique()
    sessions = pl.DataFrame(
        {
            "event_id": e_values.gather(pl.Series(e_codes).gather(first)),
            "__session": session.gather(first),
        }
    )
    order = np.empty(len(first), dtype=np.int64)
    order[ids[first.to_numpy()]] = np.arange(len(first))
    joined = sessions.join(ev, how="left", maintain_order="left", **on).with_columns(fill)
    details = []
    for c in _EVENT_FIELDS:
        values = joined[c].unique()
        if len(values) == 1:
            details.append(pl.lit(values[0], dtype=joined[c].dtype).alias(c))
        else:
            details.append(joined[c].gather(pl.Series(order[ids])).alias(c))
    return df.with_columns(details)


def _failing(df: pl.DataFrame, checks: list[Check], codes: _Codes) -> np.ndarray | None:
    """Which rows fail at least one check; ``None`` when every row passes.

    A check reading only :data:`_CODED` columns is decided on the distinct
    combinations of the values it reads (its own expression, so the same
    decision as row by row) and mapped back to rows through the codes.
    """
    grouped: dict[tuple[str, ...], list[pl.Expr]] = {}
    direct: list[pl.Expr] = []
    for c in checks:
        fails = c.fails.fill_null(False)
        roots = tuple(sorted(set(c.fails.meta.root_names())))
        if roots and all(r in _CODED for r in roots):
            grouped.setdefault(roots, []).append(fails)
        else:
            direct.append(fails)
    mask = np.zeros(df.height, dtype=bool)
    if direct:
        mask |= df.lazy().select(pl.any_horizontal(direct)).collect().to_series().to_numpy()
    for roots, fails in grouped.items():
        packed = codes.combinations(roots)
        if packed is None:
            mask |= df.lazy().select(pl.any_horizontal(fails)).collect().to_series().to_numpy()
            continue
        key, combos = packed
        bad = combos.filter(pl.any_horizontal(fails))["__key"].to_numpy()
        if len(bad):
            space = 1
            for r in roots:
                space *= len(codes.values[r])
            mask |= _member(key, bad, space)
    return mask if mask.any() else None


@functools.cache
def _law77_table() -> np.ndarray:
    """The NS score of every contract result by :func:`ns_score_expr`, as an ``Int64`` array.

    Indexed by ``((((board - 1) mod 16) * 105 + contract) * 4 + declarer) * 14 + tricks``
    with ``contract = (level - 1) * 15 + strain * 3 + doubled`` (strains C D H S NT,
    doubled 0/1/2), ``declarer`` a seat index (N E S W) and ``tricks`` 0..13. Law 2
    repeats every 16 boards, so these 94,080 figures are every score there is.
    """
    pattern, contract, declarer, tricks = (
        a.ravel()
        for a in np.meshgrid(
            np.arange(16), np.arange(105), np.arange(4), np.arange(14), indexing="ij"
        )
    )
    grid = pl.DataFrame(
        {
            "board": pattern + 1,
            "level": contract // 15 + 1,
            "strain": pl.Series(list(_STRAIN_INDEX)).gather((contract % 15) // 3),
            "doubled": contract % 3,
            "declarer": pl.Series(list(_SEAT_INDEX)).gather(declarer),
            "tricks": tricks,
        }
    )
    c = pl.col
    return (
        grid.select(
            ns_score_expr(
                c("board"), c("level"), c("strain"), c("doubled"), c("declarer"), c("tricks")
            ).cast(pl.Int64)
        )
        .to_series()
        .to_numpy()
    )


def _type(df: pl.DataFrame, codes: _Codes) -> pl.DataFrame:
    """Cast checked rows to their types; classify the result; compute the Law 77 score.

    What depends on one text column only (the kind of result, the artificial
    score and the stated score from ``score``; the parts of ``contract``; the
    declarer's seat; the tricks) is worked out once per distinct value with the
    same expressions as row by row, then gathered back to the rows. The Law 77
    score of a played contract is read from :func:`_law77_table` (board mod 16,
    contract, declarer, tricks); a pass-out scores 0; other results have none.
    """
    score = pl.col("score").fill_null("")
    art = score.str.extract_groups(ARTIFICIAL_RE)
    sc, sv = codes.get("score")
    per_score = pl.DataFrame({"score": sv}).select(
        pl.when(score.str.contains(ARTIFICIAL_RE))
        .then(pl.lit("artificial"))
        .when(score == "NP")
        .then(pl.lit("not_played"))
        .otherwise(pl.lit("played"))
        .alias("kind"),
        art.struct.field("1").alias("ns_art"),
        art.struct.field("2").alias("ew_art"),
        pl.when(score.str.contains(_SIGNED))
        .then(score.cast(pl.Int64, strict=False))
        .alias("stated_score"),
    )
    cc, cv = codes.get("contract")
    parts = contract_parts_expr(pl.col("contract"))
    strain = parts["strain"].replace_strict(_STRAIN_INDEX, default=None, return_dtype=pl.Int64)
    per_contract = (
        pl.DataFrame({"contract": cv})
        .with_columns(
            is_pass_expr(pl.col("contract")).fill_null(False).alias("__pass"),
            (
                (parts["level"].cast(pl.Int64) - 1) * 15
                + strain * 3
                + parts["doubled"].cast(pl.Int64)
            )
            .fill_null(-1)
            .alias("__cidx"),
        )
        .with_columns(
            pl.when(pl.col("__pass"))
            .then(pl.lit("PASS"))
            .otherwise(pl.col("contract"))
            .alias("__contract"),
        )
    )
    dc, dv = codes.get("declarer")
    seat = dv.replace_strict(_SEAT_INDEX, default=None, return_dtype=pl.Int64).fill_null(-1)
    tc, tv = codes.get("tricks")
    tricks_values = tv.cast(pl.Int8, strict=False)

    def gather(values: pl.Series, idx: np.ndarray, name: str) -> pl.Series:
        return values.gather(pl.Series(idx)).alias(name)

    # The contract column as given, unless a pass-out is spelt otherwise than PASS.
    if per_contract["__contract"].eq_missing(per_contract["contract"]).all():
        contract = column(df, "contract")
    else:
        contract = gather(per_contract["__contract"], cc, "contract")
    board = column(df, "board").cast(pl.Int32)
    played = (per_score["kind"] == "played").to_numpy()[sc]
    passed = per_contract["__pass"].to_numpy()[cc]
    cidx = per_contract["__cidx"].cast(pl.Int16).to_numpy()[cc]
    seats = seat.cast(pl.Int8).to_numpy()[dc]
    tricks_np = tricks_values.fill_null(-1).to_numpy()[tc]
    key = board.fill_null(0).to_numpy().astype(np.int32)
    scoreable = (
        played
        & ~passed
        & (cidx >= 0)
        & (seats >= 0)
        & (tricks_np >= 0)
        & (tricks_np <= 13)
        & (key >= 1)
    )
    # ((((board - 1) mod 16) * 105 + contract) * 4 + declarer) * 14 + tricks, in place
    key -= 1
    key %= 16
    key *= 105
    key += cidx
    key *= 4
    key += seats
    key *= 14
    key += tricks_np
    key[~scoreable] = 0
    del cidx, seats, tricks_np
    computed = _law77_table()[key]
    computed[~scoreable] = 0
    del key
    computed_s = pl.Series("computed_score", computed, dtype=pl.Int64)
    no_score = ~played | (~passed & ~scoreable)
    if no_score.any():
        computed_s = computed_s.scatter(np.flatnonzero(no_score), None)
    return df.with_columns(
        pl.col("session").cast(pl.Int32),
        pl.col("section").fill_null(""),
        pl.col("round").cast(pl.Int32),
        pl.col("table").cast(pl.Int32),
        board,
        gather(tricks_values, tc, "tricks"),
        gather(per_score["kind"], sc, "kind"),
        gather(per_score["ns_art"], sc, "ns_art"),
        gather(per_score["ew_art"], sc, "ew_art"),
        pl.col("score").alias("score_stated"),
        gather(per_score["stated_score"], sc, "stated_score"),
        computed_s,
        pl.col("source_ns_mp").cast(pl.Float64, strict=False),
        pl.col("source_ew_mp").cast(pl.Float64, strict=False),
        contract.alias("contract"),
    ).with_columns(
        pl.when(pl.col("stated_score").is_null() | pl.col("computed_score").is_null())
        .then(None)
        .otherwise(pl.col("stated_score") == pl.col("computed_score"))
        .alias("score_agrees"),
    )


def _reject_duplicates(df: pl.DataFrame, codes: _Codes) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One result per pair per board: later duplicates are rejected, naming the first.

    In a Howell a pair id is one contestant whichever direction it sits; in a
    Mitchell the contestant is the pair id together with its direction.

    Every (board, pair, direction) of every row is packed into one integer;
    only the boards where such a key repeats are examined row by row.
    """
    n = df.height
    e_codes, e_values = codes.get("event_id")
    packed = pack(
        [
            (e_codes, len(e_values)),
            *(column_codes(column(df, c)) for c in ("session", "section", "deal_round", "board")),
        ]
    )
    if packed is None:
        return _describe_duplicates(_ordered(df))
    key = packed[0]
    board, n_boards = dense_ids(key, overwrite=True)
    ns, pairs = codes.get("ns_pair")
    ew = codes.get("ew_pair")[0]
    stride = 3 * len(pairs)
    if n_boards * stride >= 2**62:
        return _describe_duplicates(_ordered(df))
    mitchell = df.select(_sided()).to_series().fill_null(False).to_numpy()
    base = board.astype(np.int64)
    base *= stride
    sides = np.empty(2 * n, dtype=np.int64)
    for half, pair, direction in ((sides[:n], ns, 1), (sides[n:], ew, 2)):
        np.multiply(pair, 3, out=half, dtype=np.int64, casting="unsafe")
        half += base
        half += mitchell * np.int64(direction)
    del base
    sides.sort()
    repeated = sides[1:][sides[1:] == sides[:-1]]
    if not len(repeated):
        return df, pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    affected = _member(board, np.unique(repeated // stride), n_boards)
    rows = df.with_row_index("__pos").filter(pl.Series(affected))
    order = pl.col("__row") if "__row" in df.columns else pl.col("__pos")
    kept, rejected = _describe_duplicates(rows.with_columns(order.alias("__order")))
    keep = ~affected
    keep[kept["__pos"].to_numpy()] = True
    return df.filter(pl.Series(keep)), rejected


def _sided() -> pl.Expr:
    """Whether a contestant is its id *and* its direction: pairs in a Mitchell, and teams
    (a team plays each board of a match twice, once NS at one table and once EW at the
    other, Law 86)."""
    return (pl.col("movement") == "mitchell") | (pl.col("form") == "teams")


def _ordered(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with ``__order``: each row's identity (its input row)."""
    if "__row" in df.columns:
        return df.with_columns(pl.col("__row").alias("__order"))
    return df.with_row_index("__order")


def _describe_duplicates(df: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The rule of :func:`_reject_duplicates` on rows with an ``__order``: ``(kept, rejected)``."""
    board = ["event_id", "session", "section", "deal_round", "board"]
    mitchell = _sided()
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
            keyed.select(
                "__order", "__g", pl.col("ns_pair").alias("pair"), pl.col("__ns_dir").alias("__dir")
            ),
            keyed.select(
                "__order", "__g", pl.col("ew_pair").alias("pair"), pl.col("__ew_dir").alias("__dir")
            ),
        ]
    )
    del keyed
    sides = sides.with_columns(
        pl.col("__order").min().over(["__g", "pair", "__dir"]).alias("__first")
    )
    dups = sides.filter(pl.col("__order") != pl.col("__first"))
    del sides
    if dups.height == 0:
        return df, pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    # A repeat of the same result (the same table, pairs, contract, tricks and score) is one
    # result sent twice: the first stands. Two *different* results for a pair on a board
    # cannot both be right and nothing says which is: both are rejected (field 'result').
    sig = df.select(
        "__order",
        pl.concat_str(
            [pl.col(c).cast(pl.Utf8).fill_null("") for c in _RESULT_CONTENT], separator="\x1f"
        ).alias("__sig"),
    )
    dups = (
        dups.join(sig, on="__order", how="left")
        .join(sig.rename({"__order": "__first", "__sig": "__first_sig"}), on="__first", how="left")
        .with_columns((pl.col("__sig") != pl.col("__first_sig")).alias("__conflict"))
        .drop("__sig", "__first_sig")
    )
    where = df.select(pl.col("__order"), pl.format("{}:{}", "file", "location").alias("__here"))
    conflicting_firsts = (
        dups.filter("__conflict")
        .join(where, on="__order", how="left")
        .sort("__first", "__order")
        .group_by("__first", maintain_order=True)
        .agg(pl.col("pair").first(), pl.col("__here").first().alias("__where"))
        .rename({"__first": "__order"})
        .join(dups.select("__order"), on="__order", how="anti")  # not itself a later one
    )
    firsts = df.join(
        dups.select(pl.col("__first").alias("__order")).unique(), on="__order", how="semi"
    ).select(
        pl.col("__order").alias("__first"),
        pl.format("{}:{}", "file", "location").alias("__where"),
    )
    dups = (
        dups.join(firsts, on="__first", how="left")
        .sort("__order", pl.col("__conflict").not_())
        .group_by("__order", maintain_order=True)
        .agg(pl.all().first())
    )
    bad = pl.concat(
        [
            df.join(
                dups.select("__order", "pair", "__where", "__conflict"), on="__order", how="inner"
            ),
            df.join(conflicting_firsts, on="__order", how="inner").with_columns(
                pl.lit(True).alias("__conflict")
            ),
        ],
        how="diagonal_relaxed",
    )
    rejected = bad.select(
        "file",
        "location",
        pl.when("__conflict").then(pl.lit("result")).otherwise(pl.lit("board")).alias("field"),
        pl.when("__conflict")
        .then(
            pl.format(
                "pair {} has two different results on board {}{} of this session (here and "
                "at {}): both rejected and the event held, since a pair plays each board once "
                "and nothing says which is right; correct the file",
                "pair",
                "board",
                _of_round(),
                "__where",
            )
        )
        .otherwise(
            pl.format(
                "pair {} already has a result on board {}{} of this session (at {}); "
                "a pair plays each board once",
                "pair",
                "board",
                _of_round(),
                "__where",
            )
        )
        .alias("reason"),
        pl.concat_str(
            [
                pl.col("score_stated" if c == "score" else c).cast(pl.Utf8).fill_null("")
                for c in RESULT_CSV_HEADER
            ],
            separator=",",
        ).alias("raw"),
    )
    gone = pl.concat([dups.select("__order"), conflicting_firsts.select("__order")])
    return df.join(gone, on="__order", how="anti"), rejected


#: What makes two result rows of a pair on a board the same result (a repeat), not two.
_RESULT_CONTENT: tuple[str, ...] = (
    "round",
    "table",
    "ns_pair",
    "ew_pair",
    "contract",
    "declarer",
    "tricks",
    "score_stated",
)


def _of_round() -> pl.Expr:
    """`` of round R`` where a board is identified by its round (``deal_round``), else ''."""
    return (
        pl.when(pl.col("deal_round") > 0)
        .then(pl.format(" of round {}", "deal_round"))
        .otherwise(pl.lit(""))
    )


def _reject_player_duplicates(df: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """In an individual event a player plays each board once: a later row with the same
    player on the same board is rejected, naming the first (individual rows only)."""
    empty = pl.DataFrame(schema={c: pl.Utf8 for c in REJECT_COLUMNS})
    if "form" not in df.columns or not (df["form"] == "individual").any():
        return df, empty
    board = ["event_id", "session", "section", "deal_round", "board"]
    ind = df.with_row_index("__i").filter(pl.col("form") == "individual")
    seats = pl.concat(
        [ind.select("__i", *board, "file", "location", pl.col(s).alias("player")) for s in SEATS]
    ).with_columns(pl.col("__i").min().over([*board, "player"]).alias("__first"))
    dups = seats.filter(pl.col("__i") != pl.col("__first"))
    if dups.height == 0:
        return df, empty
    where = ind.select(
        pl.col("__i").alias("__first"), pl.format("{}:{}", "file", "location").alias("__where")
    )
    dups = dups.join(where, on="__first").unique("__i", keep="first", maintain_order=True)
    rejected = dups.select(
        "file",
        "location",
        pl.lit("board").alias("field"),
        pl.format(
            "player {} already has a result on board {}{} of this session (at {}); a "
            "player plays each board once",
            "player",
            "board",
            _of_round(),
            "__where",
        ).alias("reason"),
        pl.lit(None, pl.Utf8).alias("raw"),
    )
    keep = df.with_row_index("__i").join(dups.select("__i"), on="__i", how="anti").drop("__i")
    return keep, rejected
