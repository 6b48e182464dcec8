"""Apply directors' rulings to the table results and score the boards they touch.

The rules are in :mod:`pipelines.laws.adjustments`; this module applies them to frames:

* :func:`apply_rulings` rewrites the rows a ruling is about. A balanced assigned score
  (Law 12C1(b)) simply becomes the table's score; an artificial score (12C2) the table's
  artificial codes; a split (non-balancing) or weighted score (12C1(c), (e)) makes the row
  ``adjusted``, with its possible results per side in a separate components frame; a
  fouled board (87) records the version the table played.
* :func:`score_with_rulings` scores boards no ruling made irregular with the ordinary
  scorer (:mod:`pipelines.scoring.score`), and the others — boards with a split or
  weighted score, or played in several versions — with :func:`score_irregular`, which
  uses the frequency form of Law 78A field by field: the NS field compares the NS sides'
  results, the EW field the EW sides' (so each field sums correctly while a split table
  need not), every component counting with its weight; a fouled board is scored version
  by version and each group factored to the full field, small groups as the profile says.
* :func:`apply_session_rule` then gives variable artificial scores their Law 12C2(c)
  value (2007: Law 88) from each contestant's percentage on the other boards.

All arithmetic is exact: weights are integers over one denominator ``W`` (100 for whole
percentages, 300 with thirds, :func:`~pipelines.scoring.components.weight_den`), so a
weighted table's matchpoints are integers over ``W²`` before factoring.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import polars as pl

from pipelines import profiles
from pipelines.laws.adjustments import (
    Artificial,
    SideResult,
    parse_side_result,
    resolve_artificial,
)
from pipelines.laws.exact import sum_by, to_float
from pipelines.laws.rounding import round_expr, shown
from pipelines.laws.vocabulary import SCORE_ADJUSTING, RulingKind
from pipelines.profiles import ProfileSet
from pipelines.scoring.components import (
    COMPONENT_COLUMNS,
    components_frame,
    side_components,
    weight_den,
)
from pipelines.scoring.imp_forms import IMP_SCORINGS, score_imp_rows
from pipelines.scoring.score import (
    BOARD,
    SCORED_COLUMNS,
    SECTION,
    compared_section,
    counted_and_shown,
    percentages,
    score_results,
)

#: Columns a ruling adds to a result row.
ADJUSTMENT_COLUMNS: dict[str, pl.DataType] = {
    "board_version": pl.Utf8,
    "adjustment": pl.Utf8,
    "ruling_id": pl.Utf8,
    "recorded_score": pl.Int64,
    "correction_id": pl.Utf8,
}


def apply_rulings(
    results: pl.DataFrame, rulings: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Apply the board rulings in effect to validated ``results``.

    ``rulings`` holds the rulings to apply with the results they give each side
    (``ns_result``, ``ew_result``) and their effective ``kind``, in the order they were made.
    Returns the rows (the validated columns, ``kind`` possibly changed to ``artificial`` or
    ``adjusted``, a new ``computed_score`` for a balanced assigned score, plus
    :data:`ADJUSTMENT_COLUMNS` and a ``__row`` index) and the components of the ``adjusted``
    rows (:data:`~pipelines.scoring.components.COMPONENT_COLUMNS`).

    Per table and board, in the order the rulings were made:

    * a fouled-board ruling records the version the table played (Law 87);
    * a score correction (Law 79C) changes the table result kept for the record
      (``recorded_score``, ``correction_id``); it is what the table is scored with unless
      an adjusted score applies;
    * an adjusted score (assigned, weighted, artificial, director's error; Laws 12C, 82C)
      replaces the table result for scoring, a later one replacing an earlier one; a side
      given ``score stands`` keeps the table result (as corrected); a later ``score_stands``
      ruling (or an appeal deciding that the score stands) withdraws the adjusted score.

    ``adjustment`` and ``ruling_id`` name the ruling that decides the score: the adjusted
    score, else an IMP award (its IMPs are applied by
    :func:`pipelines.scoring.imp_forms.with_imp_awards`), else the correction, else the
    ruling that let the score stand, else the fouled-board ruling.
    """
    rows = results.with_row_index("__row").with_columns(
        pl.col("__row").cast(pl.Int64),
        pl.lit("A").alias("board_version"),
        pl.lit(None, pl.Utf8).alias("adjustment"),
        pl.lit(None, pl.Utf8).alias("ruling_id"),
        pl.when(pl.col("kind") == "played")
        .then(pl.col("computed_score"))
        .cast(pl.Int64)
        .alias("recorded_score"),
        pl.lit(None, pl.Utf8).alias("correction_id"),
    )
    board_rulings = rulings.filter(pl.col("board").is_not_null())
    if board_rulings.height == 0:
        return rows, pl.DataFrame(schema=COMPONENT_COLUMNS)
    keys = ["event_id", "session", "deal_round", "board", "ns_pair", "ew_pair"]
    targets = (
        rows.select(
            "__row",
            "section",
            *keys,
            pl.col("kind").alias("__kind0"),
            "computed_score",
            "ns_art",
            "ew_art",
        )
        .join(
            board_rulings.select(
                *keys,
                pl.col("section").alias("__rsec"),
                "ruling_id",
                "kind",
                "ns_result",
                "ew_result",
                "board_version",
                pl.int_range(pl.len()).alias("__order"),
            ),
            on=keys,
        )
        .filter((pl.col("__rsec") == "") | (pl.col("__rsec") == pl.col("section")))
        .sort("__row", "__order")
    )
    updates: list[dict] = []
    comps: list[tuple[int, str, int | None, Fraction, str | None]] = []
    # each table's rulings in the order they were made (the rows sorted so): one reading of
    # the joined rows, not a frame per table
    by_row: dict[int, list[dict]] = {}
    for t in targets.to_dicts():
        by_row.setdefault(t["__row"], []).append(t)
    for row, rs in by_row.items():
        first = rs[0]
        board, kind0 = first["board"], first["__kind0"]
        up: dict = {"__row": row}
        adjust = correction = stands = fouled = award = None
        for t in rs:
            if t["kind"] == RulingKind.IMP_AWARD:  # the IMPs come from with_imp_awards (Law 86D)
                award = t
            elif t["kind"] == RulingKind.FOULED_BOARD:
                fouled = t
                up["board_version"] = t["board_version"]
            elif t["kind"] == RulingKind.SCORE_CORRECTION:
                correction = t
            elif t["kind"] == RulingKind.SCORE_STANDS:
                adjust, stands = None, t
            elif t["kind"] in SCORE_ADJUSTING:
                adjust = t
        decider = adjust or award or correction or stands or fouled
        if decider is None:
            continue
        up["adjustment"], up["ruling_id"] = decider["kind"], decider["ruling_id"]
        table_score = first["computed_score"] if kind0 == "played" else None
        if correction is not None:
            (fixed,) = parse_side_result(correction["ns_result"], board)
            table_score = fixed.ns_score
            up.update(recorded_score=table_score, correction_id=correction["ruling_id"])
        updates.append(up)
        if adjust is None:
            if correction is not None:
                up.update(kind="played", computed_score=table_score, ns_art=None, ew_art=None)
            continue

        ns = _side_result(adjust["ns_result"], first["ns_art"], table_score, board)
        ew = _side_result(
            adjust["ew_result"] or adjust["ns_result"], first["ew_art"], table_score, board
        )
        if isinstance(ns, Artificial) and isinstance(ew, Artificial):
            up.update(kind="artificial", ns_art=ns.code, ew_art=ew.code, computed_score=None)
        elif (
            isinstance(ns, tuple)
            and isinstance(ew, tuple)
            and len(ns) == 1
            and len(ew) == 1
            and ns[0].ns_score == ew[0].ns_score
        ):
            up.update(kind="played", computed_score=ns[0].ns_score, ns_art=None, ew_art=None)
        else:
            # split or weighted: the side given an artificial score keeps its code here too
            up.update(
                kind="adjusted",
                computed_score=None,
                ns_art=ns.code if isinstance(ns, Artificial) else None,
                ew_art=ew.code if isinstance(ew, Artificial) else None,
            )
            for name, res in (("NS", ns), ("EW", ew)):
                if isinstance(res, Artificial):
                    comps.append((row, name, None, Fraction(1), res.code))
                elif res is not None:
                    comps.extend((row, name, c.ns_score, c.weight, None) for c in res)
    schema = {
        "__row": pl.Int64,
        "adjustment": pl.Utf8,
        "ruling_id": pl.Utf8,
        "board_version": pl.Utf8,
        "kind": pl.Utf8,
        "computed_score": pl.Int64,
        "ns_art": pl.Utf8,
        "ew_art": pl.Utf8,
        "recorded_score": pl.Int64,
        "correction_id": pl.Utf8,
    }
    change = pl.DataFrame(
        [{c: u.get(c) for c in schema} for u in updates], schema=schema, orient="row"
    )
    touched = {k for u in updates for k in u}
    rows = rows.join(change, on="__row", how="left", suffix="__new")
    for col in ("adjustment", "ruling_id", "board_version"):
        rows = rows.with_columns(pl.coalesce(f"{col}__new", col).alias(col))
    for col in ("kind", "computed_score", "ns_art", "ew_art", "recorded_score", "correction_id"):
        if col in touched:
            changed = pl.col("__row").is_in([u["__row"] for u in updates if col in u])
            rows = rows.with_columns(
                pl.when(changed).then(pl.col(f"{col}__new")).otherwise(pl.col(col)).alias(col)
            )
    rows = rows.drop([c for c in rows.columns if c.endswith("__new")])
    return rows, components_frame(comps)


def _side_result(
    text: str | None, art0: str | None, table_score: int | None, board: int
) -> SideResult | None:
    """One side's result in a ruling; ``score stands`` is the table result (as corrected),
    or the table's own artificial score ``art0`` when it had no played result."""
    from pipelines.laws.adjustments import Component, is_stands

    if is_stands(text):
        if table_score is not None:
            return (Component(table_score),)
        return Artificial(art0) if art0 else None
    return parse_side_result(text, board)


def _irregular_boards(rows: pl.DataFrame) -> pl.Series:
    """Whether each row's board needs the field-by-field scorer (split/weighted/fouled)."""
    return (
        ((pl.col("kind") == "adjusted") | (pl.col("board_version") != "A")).any().over(BOARD)
    ).alias("__irregular")


def expected_results(rows: pl.DataFrame) -> pl.Expr:
    """N per row: the event's ``expected_results``, else the most rows on a board of the
    section (the same rule as :mod:`pipelines.scoring.score`)."""
    del rows
    return pl.max_horizontal(
        pl.len().over(BOARD).max().over(SECTION), pl.col("expected_results").fill_null(0)
    ).cast(pl.Int64)


def score_with_rulings(
    rows: pl.DataFrame, components: pl.DataFrame, *, profs: ProfileSet | None = None
) -> pl.DataFrame:
    """Score rows after :func:`apply_rulings` (each event under its own profile).

    Returns the scored columns plus :data:`ADJUSTMENT_COLUMNS`, in row order; variable
    artificial scores still carry the profile's fixed values (see :func:`apply_session_rule`).
    """
    profs = ProfileSet.ensure(profs)
    extra = ["__row", *ADJUSTMENT_COLUMNS]
    if rows.height == 0:
        return score_results(rows.drop(extra), profs=profs).with_columns(rows.select(extra))
    if "scoring" in rows.columns:
        at_imps = pl.col("scoring").is_in(IMP_SCORINGS).fill_null(False)
        imp_rows = rows.filter(at_imps)
        if imp_rows.height:
            rest = rows.filter(~at_imps)
            parts = [score_imp_rows(imp_rows, components, profs=profs)]
            if rest.height:
                parts.insert(0, score_with_rulings(rest, components, profs=profs))
            return pl.concat(parts, how="diagonal_relaxed").sort("__row")
    field = compared_section(rows)
    if field is not rows:
        # a session scored across the field: its boards are compared, counted and factored
        # over all its sections (Law 78A), each row keeping its own section
        out = _score_mp_rows(field, components, profs)
        return (
            out.drop("section")
            .join(rows.select("__row", "section"), on="__row", how="left", maintain_order="left")
            .select(out.columns)
        )
    return _score_mp_rows(rows, components, profs)


def _score_mp_rows(rows: pl.DataFrame, components: pl.DataFrame, profs: ProfileSet) -> pl.DataFrame:
    """:func:`score_with_rulings` for rows at matchpoints (``section``: the field compared)."""
    extra = ["__row", *ADJUSTMENT_COLUMNS]
    rows = rows.with_columns(expected_results(rows).alias("expected_results"))
    rows = rows.with_columns(_irregular_boards(rows))
    regular = rows.filter(~pl.col("__irregular"))
    irregular = rows.filter(pl.col("__irregular"))
    parts = []
    if regular.height:
        scored = score_results(regular.drop(extra, "__irregular"), profs=profs)
        parts.append(scored.with_columns(regular.select(extra)))
    if irregular.height:
        for name in sorted(irregular["profile"].unique().to_list()):
            sub = irregular.filter(pl.col("profile") == name)
            parts.append(score_irregular(sub.drop("__irregular"), components, profs[name]))
    out = pl.concat(parts, how="diagonal_relaxed").sort("__row")
    return out


def score_irregular(
    rows: pl.DataFrame, components: pl.DataFrame, prof: profiles.Profile
) -> pl.DataFrame:
    """Score boards with split, weighted or fouled results under ``prof`` (see module doc).

    Per field (board, version, side): ``n`` = tables whose side has a real result; for
    each component ``c`` of table ``t``, ``2·W_below + W_equal`` over the *other* tables'
    components (weights over ``W``, :func:`weight_den`); the table's matchpoints = ``Σ w_c
    (2·W_below + W_equal) / W²``. A field with ``n < N`` is factored: Neuberg or linearly as
    the profile says, or for a fouled board's group by the profile's small-group rule.
    """
    u = prof.unit_den
    ww = weight_den(components) ** 2
    comps = side_components(rows, components).join(
        rows.select("__row", *BOARD, "board_version", "expected_results"), on="__row"
    )
    real = comps.filter(pl.col("art").is_null())
    field = [*BOARD, "board_version", "side"]
    signed = pl.when(pl.col("side") == "NS").then(pl.col("ns_score")).otherwise(-pl.col("ns_score"))
    real = real.with_columns(signed.alias("__s"))
    at_score = real.group_by([*field, "__s"]).agg(pl.col("weight").sum().alias("__w_at"))
    at_score = at_score.sort([*field, "__s"]).with_columns(
        (pl.col("__w_at").cum_sum().over(field) - pl.col("__w_at")).alias("__w_below")
    )
    own = real.group_by(["__row", "side", "__s"]).agg(pl.col("weight").sum().alias("__own_at"))
    own = own.sort(["__row", "side", "__s"]).with_columns(
        (pl.col("__own_at").cum_sum().over(["__row", "side"]) - pl.col("__own_at")).alias(
            "__own_below"
        )
    )
    real = real.join(at_score, on=[*field, "__s"]).join(own, on=["__row", "side", "__s"])
    real = real.with_columns(
        (
            pl.col("weight")
            * (
                2 * (pl.col("__w_below") - pl.col("__own_below"))
                + pl.col("__w_at")
                - pl.col("__own_at")
            )
        ).alias("__a")
    )
    per_side = real.group_by(["__row", "side", *field[:-1], "expected_results"]).agg(
        pl.col("__a").sum()
    )
    per_side = per_side.with_columns(
        pl.len().over(field).alias("__n"),
        pl.col("__row").n_unique().over([*BOARD, "side"]).alias("__board_n"),
        pl.col("board_version").n_unique().over([*BOARD, "side"]).alias("__versions"),
        pl.len().over(field).max().over([*BOARD, "side"]).alias("__largest"),
    )
    has_art = (
        comps.filter(pl.col("art").is_not_null())
        .select(BOARD)
        .unique()
        .with_columns(pl.lit(True).alias("__has_art"))
    )
    per_side = per_side.join(has_art, on=BOARD, how="left").with_columns(
        pl.col("__has_art").fill_null(False)
    )
    fractions = [_factored(r, prof, ww) for r in per_side.iter_rows(named=True)]
    per_side = per_side.with_columns(
        pl.Series("__num", [f[0] for f in fractions], dtype=pl.Int64),
        pl.Series("__den", [f[1] * u for f in fractions], dtype=pl.Int64),
        pl.Series("__method", [f[2] for f in fractions], dtype=pl.Utf8),
    )
    arts = comps.filter(pl.col("art").is_not_null()).select(
        "__row", "side", "art", "expected_results"
    )
    art_frac = [
        (r["__row"], r["side"], *_artificial(r["art"], r["expected_results"], prof))
        for r in arts.iter_rows(named=True)
    ]
    sides: dict[tuple[int, str], tuple[int, int]] = {}
    methods: dict[int, str] = {}
    n_of: dict[int, int] = {}
    for r in per_side.iter_rows(named=True):
        sides[(r["__row"], r["side"])] = (r["__num"], r["__den"])
        if r["side"] == "NS" or r["__row"] not in methods:
            methods[r["__row"]] = r["__method"]
            n_of[r["__row"]] = r["__n"]
    for row, side, num, den in art_frac:
        sides[(row, side)] = (num, den * u)
    out_rows = []
    for row in rows["__row"].to_list():
        ns, ew = sides.get((row, "NS")), sides.get((row, "EW"))
        if ns is None or ew is None:
            out_rows.append((row, None, None, None, methods.get(row), n_of.get(row)))
            continue
        den = lcm(ns[1], ew[1])
        out_rows.append(
            (
                row,
                ns[0] * (den // ns[1]),
                ew[0] * (den // ew[1]),
                den,
                methods.get(row),
                n_of.get(row),
            )
        )
    exact = pl.DataFrame(
        out_rows,
        schema={
            "__row": pl.Int64,
            "ns_mp_num": pl.Int64,
            "ew_mp_num": pl.Int64,
            "mp_den": pl.Int64,
            "factoring": pl.Utf8,
            "n_results": pl.Int32,
        },
        orient="row",
    )
    scored = rows.join(exact, on="__row", how="left").with_columns(
        pl.when(pl.col("kind") == "played").then(pl.col("computed_score")).alias("ns_score"),
        pl.col("expected_results").cast(pl.Int32).alias("expected"),
        (2 * (pl.col("expected_results") - 1) / u).cast(pl.Float64).alias("top"),
    )
    return figures(scored, prof)


def _factored(r: dict, prof: profiles.Profile, ww: int = 10000) -> tuple[int, int, str]:
    """A field result ``A/ww`` (2/1 scale; ``ww`` = W²) of a group of ``n`` factored to ``N``."""
    a, n, big_n = r["__a"], r["__n"], r["expected_results"]
    fouled = r["__versions"] > 1
    if n >= big_n and not fouled:
        return a, ww, "none"
    if fouled:
        from pipelines.laws.adjustments import fouled_group_percentage

        pct = fouled_group_percentage(
            prof.small_groups, n, big_n, Fraction(a, ww), n == r["__largest"]
        )
        if pct is not None:  # a percentage of the full top 2(N-1)
            v = pct * 2 * (big_n - 1) / 100
            label = "fouled_single" if n == 1 else f"fouled_{prof.small_groups}"
            return v.numerator, v.denominator, label
        v = (Fraction(a, ww) + 1) * Fraction(big_n, n) - 1
        return v.numerator, v.denominator, "fouled_neuberg"
    method = prof.factoring_adjusted if r["__has_art"] else prof.factoring_missing
    if method == "neuberg":
        v = (Fraction(a, ww) + 1) * Fraction(big_n, n) - 1
    elif n == 1:
        v = Fraction(big_n - 1)
    else:
        v = Fraction(a, ww) * Fraction(big_n - 1, n - 1)
    return v.numerator, v.denominator, method


def _artificial(code: str, big_n: int, prof: profiles.Profile) -> tuple[int, int]:
    pct = {"+": prof.average_plus, "=": prof.average, "-": prof.average_minus}.get(code)
    v = Fraction(pct if pct is not None else int(code)) * 2 * (big_n - 1) / 100
    return v.numerator, v.denominator


def figures(scored: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """From exact ``ns_mp_num/mp_den``, ``ew_mp_num/mp_den`` and ``top``: the counted
    matchpoints, the shown ones and the percentages (the same rules as the ordinary scorer,
    :func:`pipelines.scoring.score.counted_and_shown`)."""
    out = scored.with_columns(*counted_and_shown(prof, pl.col("top"))).with_columns(*percentages())
    return out.with_columns(*(pl.col(c).cast(t) for c, t in SCORED_COLUMNS.items()))


#: Per-player figures of an individual event (Law 89) where the session-percentage rule
#: (Law 12C2(c)) gives the two members of a side different scores: the south player's (of
#: the NS side) and the west player's (of the EW side); ``ns_*`` / ``ew_*`` are then the
#: north and east players'. Null where both members of a side have the side's figures.
PLAYER_COLUMNS: dict[str, pl.DataType] = {
    **{
        f"{seat}_{c}": t
        for seat in ("south", "west")
        for c, t in (
            ("mp_num", pl.Int64),
            ("mp", pl.Float64),
            ("mp_display", pl.Float64),
            ("pct", pl.Float64),
            ("imps_num", pl.Int64),
            ("imps", pl.Float64),
            ("imps_display", pl.Float64),
        )
    },
}

#: Variable artificial codes, which the session-percentage rule may change (``=`` never does).
_VARIABLE = ("+", "-")


def apply_session_rule(scored: pl.DataFrame, *, profs: ProfileSet | None = None) -> pl.DataFrame:
    """Law 12C2(c) (2007: Law 88): give variable averages their session-percentage value.

    Every side given a variable artificial score is concerned — a table-level artificial
    score (``kind`` ``artificial``, an 82C ``A+``/``A+`` among them) and the artificial side
    of a split score whose other side was assigned a result (``kind`` ``adjusted`` with its
    ``ns_art``/``ew_art``): each artificial side gets its *own* contestant's figure.

    **Matchpoints** (profiles with ``session_percentage_rule``): for ``+`` (average-plus, a
    non-offending contestant) the contestant gets ``max(60 %, p)``; for ``-`` (average-minus,
    offending) under the 2017 Laws ``min(40 %, p)``, under the 2007 Laws 40 % (Law 88 gives
    only the first rule); ``p`` is its percentage on the other boards of the session, every
    board on which it received an artificial score left out
    (:func:`pipelines.laws.adjustments.resolve_artificial`).

    **At IMPs** (Butler, cross-IMPs; profiles with ``imps.imp_session_average``; Law 12C2(c)
    "or the IMP equivalent"): Av+ is the better of the profile's Av+ (+3 IMPs, Law 12C2(b))
    and the contestant's average IMPs per board on its other boards of the session; Av−
    under the 2017 Laws the worse of −3 and that average. Profiles without the setting keep
    the fixed IMPs of Law 12C2(b).

    **Individuals** (Law 89): the contestant is the *player*: each member of the side gets
    his own percentage (or IMPs) on his other boards, so the north and south players of one
    side may get different figures; the south and west players' are then in
    :data:`PLAYER_COLUMNS`.

    A contestant with no other board keeps the fixed value; fixed codes (``60 50 40``) are
    never changed.
    """
    profs = ProfileSet.ensure(profs)
    scored = scored.with_columns(
        *(pl.lit(None, t).alias(c) for c, t in PLAYER_COLUMNS.items() if c not in scored.columns)
    )
    scored = _mp_session_rule(scored, profs=profs)
    scored = _imp_session_rule(scored, profs=profs)
    return scored


def _variable_sides() -> pl.Expr:
    """Rows where a side carries a variable artificial code (a table-level artificial score,
    or the artificial side of a split score)."""
    return pl.col("kind").is_in(["artificial", "adjusted"]) & (
        pl.col("ns_art").is_in(list(_VARIABLE)) | pl.col("ew_art").is_in(list(_VARIABLE))
    )


def _scoring(scored: pl.DataFrame) -> pl.Expr:
    return (
        pl.col("scoring").fill_null("matchpoints")
        if "scoring" in scored.columns
        else pl.lit("matchpoints")
    )


def _individual(scored: pl.DataFrame) -> pl.Expr:
    return (
        (pl.col("form") == "individual").fill_null(False)
        if "form" in scored.columns
        else (pl.lit(False))
    )


def _seats(individual: bool, side: str, r: dict) -> list[str]:
    """The contestants of one side of a row: its pair, or (Law 89) its two players."""
    if individual:
        return [r["north"], r["south"]] if side == "ns" else [r["east"], r["west"]]
    return [r[f"{side}_pair"]]


def _ruled_targets(
    scored: pl.DataFrame, form: pl.Expr, setting: str, profs: ProfileSet
) -> pl.DataFrame:
    """The lines of ``form`` with a variable artificial score (12C2(c): Av+/Av- that depend on
    the contestant's session) under a profile whose ``setting`` applies the session rule, with
    ``__ind`` (an individual's line)."""
    targets = scored.filter(_variable_sides() & form)
    if targets.height == 0:
        return targets
    rule = [n for n in targets["profile"].unique().to_list() if getattr(profs[n], setting)]
    targets = targets.filter(pl.col("profile").is_in(rule))
    return targets.with_columns(_individual(targets).alias("__ind"))


def _mp_session_rule(scored: pl.DataFrame, *, profs: ProfileSet | None = None) -> pl.DataFrame:
    """The matchpoint part of :func:`apply_session_rule` (per ruled row: they are few)."""
    profs = ProfileSet.ensure(profs)
    targets = _ruled_targets(
        scored, _scoring(scored) == "matchpoints", "session_percentage_rule", profs
    )
    if targets.height == 0:
        return scored
    sessions = targets.select("event_id", "session").unique()
    totals = _other_board_totals(
        scored.join(sessions, on=["event_id", "session"], how="semi"), profs=profs
    )
    updates = []
    for r in targets.iter_rows(named=True):
        prof = profs[r["profile"]]
        top = Fraction(2 * (r["expected"] - 1), prof.unit_den)
        fr: dict[str, Fraction | None] = {}
        for side in ("ns", "ew"):
            code = r[f"{side}_art"]
            seats = _seats(r["__ind"], side, r)
            if code is None:  # the assigned side of a split score keeps its matchpoints
                own = Fraction(r[f"{side}_mp_num"], r["mp_den"])
                values = [own] * len(seats)
            else:
                mitchell = r["movement"] == "mitchell" and not r["__ind"]
                direction = side.upper() if mitchell else ""
                values = []
                for who in seats:
                    t = totals.get((r["event_id"], r["session"], r["section"], who, direction))
                    p = t[0] / t[1] * 100 if t and t[1] else None
                    pct = resolve_artificial(
                        code,
                        p,
                        r["laws"] or "2017",
                        prof.average_plus,
                        prof.average,
                        prof.average_minus,
                    )
                    values.append(pct * top / 100)
            fr[side] = values[0]
            fr["south" if side == "ns" else "west"] = values[1] if r["__ind"] else None
        updates.append(_over_one_den(r["__row"], r["__ind"], fr))
    upd = _updates_frame(updates)
    out = scored.join(upd, on="__row", how="left").with_columns(
        pl.coalesce("__ns", "ns_mp_num").alias("ns_mp_num"),
        pl.coalesce("__ew", "ew_mp_num").alias("ew_mp_num"),
        pl.coalesce("__den", "mp_den").alias("mp_den"),
    )
    changed = out.filter(pl.col("__den").is_not_null())
    rest = out.filter(pl.col("__den").is_null())
    temp = ["__ns", "__ew", "__den", "__south", "__west"]
    parts = [rest.drop(temp)]
    for name in sorted(changed["profile"].unique().to_list()):
        prof = profs[name]
        part = figures(changed.filter(pl.col("profile") == name), prof)
        parts.append(_player_figures(part, prof).drop(temp))
    return pl.concat(parts, how="diagonal_relaxed").sort("__row")


def _player_figures(part: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """The south and west players' figures of :data:`PLAYER_COLUMNS` from ``__south`` /
    ``__west`` (over ``mp_den``): the same counting and display rules as the side's."""
    has = pl.col("__south").is_not_null()
    swapped = figures(
        part.with_columns(
            pl.col("__south").fill_null(pl.col("ns_mp_num")).alias("ns_mp_num"),
            pl.col("__west").fill_null(pl.col("ew_mp_num")).alias("ew_mp_num"),
        ),
        prof,
    )
    out = part.with_columns(
        pl.when(has).then(pl.col("__south")).alias("south_mp_num"),
        pl.when(has).then(pl.col("__west")).alias("west_mp_num"),
    )
    for seat, side in (("south", "ns"), ("west", "ew")):
        for c in ("mp", "mp_display", "pct"):
            out = out.with_columns(
                pl.when(has).then(swapped[f"{side}_{c}"]).otherwise(None).alias(f"{seat}_{c}")
            )
    return out


def _other_board_totals(
    scored: pl.DataFrame, *, profs: ProfileSet | None = None
) -> dict[tuple, tuple[Fraction, Fraction]]:
    """Per contestant (event, session, section, contestant, direction or ''): exact
    matchpoints and tops over the boards on which it did not receive an artificial score
    (a side with an artificial code is left out, the assigned side of a split score counts).
    The contestant of an individual (Law 89) is each player of the side."""
    profs = ProfileSet.ensure(profs)
    long = _contestant_boards(scored, "mp_num", "mp_den")
    if long.height == 0:
        return {}
    unit = {n: profs[n].unit_den for n in long["profile"].unique().to_list()}
    long = long.with_columns(
        (2 * (pl.col("expected") - 1)).cast(pl.Int64).alias("__top"),
        pl.col("profile").replace_strict(unit, return_dtype=pl.Int64).alias("__unit"),
    )
    keys = ["event_id", "session", "section", "contestant", "direction"]
    mp = sum_by(long, "num", "den", keys, keys)
    top = sum_by(long, "__top", "__unit", keys, keys)
    both = mp.join(top, on=keys)
    return {
        tuple(r[k] for k in keys): (Fraction(r["num"], r["den"]), Fraction(r["__top"], r["__unit"]))
        for r in both.iter_rows(named=True)
    }


def _contestant_boards(scored: pl.DataFrame, num: str, den: str) -> pl.DataFrame:
    """One row per contestant per board with a real result on its side: ``contestant``,
    ``direction`` (NS/EW in a Mitchell, else ''), its figure ``num/den`` (``{side}_{num}``
    over ``den``; a south or west player's own figure where :data:`PLAYER_COLUMNS` has it)."""
    rows = scored.filter(pl.col("kind").is_in(["played", "adjusted"]) & pl.col(den).is_not_null())
    individual = _individual(rows)
    mitchell = pl.col("movement") == "mitchell"
    parts = []
    for side, pair, seats in (
        ("ns", "ns_pair", ("north", "south")),
        ("ew", "ew_pair", ("east", "west")),
    ):
        real = rows.filter(pl.col(f"{side}_art").is_null() & pl.col(f"{side}_{num}").is_not_null())
        for k, seat in enumerate(seats):
            src = real.filter(individual) if k else real
            own = pl.col(f"{side}_{num}")
            if k and f"{seat}_{num}" in src.columns:
                own = pl.coalesce(f"{seat}_{num}", own)
            who = (
                pl.when(individual).then(pl.col(seat)).otherwise(pl.col(pair))
                if seat in src.columns
                else pl.col(pair)
            )
            parts.append(
                src.select(
                    "event_id",
                    "session",
                    "section",
                    "profile",
                    "expected",
                    who.alias("contestant"),
                    pl.when(mitchell & ~individual)
                    .then(pl.lit(side.upper()))
                    .otherwise(pl.lit(""))
                    .alias("direction"),
                    own.cast(pl.Int64).alias("num"),
                    pl.col(den).cast(pl.Int64).alias("den"),
                )
            )
    return pl.concat(parts) if parts else pl.DataFrame()


def _imp_session_rule(scored: pl.DataFrame, *, profs: ProfileSet | None = None) -> pl.DataFrame:
    """The IMP part of :func:`apply_session_rule`: Butler and cross-IMP pairs and individuals
    under a profile with ``imp_session_average`` (teams:
    :func:`pipelines.scoring.imp_forms._team_session_rule`)."""
    profs = ProfileSet.ensure(profs)
    if "scoring" not in scored.columns or "ns_imps_num" not in scored.columns:
        return scored
    at = _scoring(scored).is_in(["butler", "cross_imps"])
    targets = _ruled_targets(scored, at, "imp_session_average", profs)
    if targets.height == 0:
        return scored
    sessions = targets.select("event_id", "session").unique()
    pool = scored.join(sessions, on=["event_id", "session"], how="semi")
    long = _contestant_boards(pool, "imps_num", "imps_den")
    keys = ["event_id", "session", "section", "contestant", "direction"]
    sums = sum_by(long, "num", "den", keys, keys, aggs=[pl.len().alias("__boards")])
    avg = {
        tuple(r[k] for k in keys): Fraction(r["num"], r["den"] * r["__boards"])
        for r in sums.iter_rows(named=True)
    }
    updates = []
    for r in targets.iter_rows(named=True):
        fr: dict[str, Fraction | None] = {}
        for side in ("ns", "ew"):
            code = r[f"{side}_art"]
            fixed = Fraction(r[f"{side}_imps_num"], r["imps_den"])
            seats = _seats(r["__ind"], side, r)
            values = []
            for who in seats:
                mitchell = r["movement"] == "mitchell" and not r["__ind"]
                direction = side.upper() if mitchell else ""
                a = avg.get((r["event_id"], r["session"], r["section"], who, direction))
                values.append(_imp_value(code, fixed, a, r["laws"] or "2017"))
            fr[side] = values[0]
            fr["south" if side == "ns" else "west"] = values[1] if r["__ind"] else None
        updates.append(_over_one_den(r["__row"], r["__ind"], fr))
    upd = _updates_frame(updates)
    out = scored.join(upd, on="__row", how="left")
    has = pl.col("__den").is_not_null()
    out = out.with_columns(
        pl.when(has).then("__ns").otherwise("ns_imps_num").alias("ns_imps_num"),
        pl.when(has).then("__ew").otherwise("ew_imps_num").alias("ew_imps_num"),
        pl.when(has).then("__den").otherwise("imps_den").alias("imps_den"),
        pl.when(has).then("__south").otherwise("south_imps_num").alias("south_imps_num"),
        pl.when(has).then("__west").otherwise("west_imps_num").alias("west_imps_num"),
    )
    parts = [out.filter(~has)]
    for name in sorted(out.filter(has)["profile"].unique().to_list()):
        prof = profs[name]
        d, mode = prof.imp_decimals, prof.imp_rounding
        den = pl.col("imps_den")
        part = out.filter(has & (pl.col("profile") == name)).with_columns(
            *(
                to_float(pl.col(f"{s}_imps_num"), den).alias(f"{s}_imps")
                for s in ("ns", "ew", "south", "west")
            ),
            *(
                shown(round_expr(pl.col(f"{s}_imps_num"), den, d, mode), d).alias(
                    f"{s}_imps_display"
                )
                for s in ("ns", "ew", "south", "west")
            ),
        )
        parts.append(part)
    return (
        pl.concat(parts, how="diagonal_relaxed")
        .sort("__row")
        .drop("__ns", "__ew", "__den", "__south", "__west")
    )


def _imp_value(code: str | None, fixed: Fraction, average: Fraction | None, laws: str) -> Fraction:
    """A side's IMPs on a board it got an artificial score on, under the IMP equivalent of
    Law 12C2(c): ``+`` the better of its fixed Av+ and ``average`` (its average IMPs per
    board on its other boards); ``-`` under the 2017 Laws the worse of its fixed Av− and
    that average (2007 Law 88: fixed); otherwise (no code: an assigned side; ``=``; a fixed
    percentage) unchanged, as without another board."""
    if average is None or code not in _VARIABLE:
        return fixed
    if code == "+":
        return max(fixed, average)
    return min(fixed, average) if laws == "2017" else fixed


_Update = tuple[int, int | None, int | None, int, int | None, int | None]


def _over_one_den(row: int, individual: bool, fr: dict[str, Fraction | None]) -> _Update:
    """A table's exact values (``ns``, ``ew`` and, at an individual, ``south``, ``west``)
    over their least common denominator: ``(row, ns, ew, den, south, west)``; the south and
    west players' values only where they differ from their side's (at an individual, Law 89,
    each player of a side takes the side's score, unless an artificial score that depends on
    his own session percentage, 12C2(c), gives the two players different values)."""
    present = [v for v in fr.values() if v is not None]
    den = lcm(*(v.denominator for v in present))
    num = {
        k: (v.numerator * (den // v.denominator) if v is not None else None) for k, v in fr.items()
    }
    split = individual and (fr["south"] != fr["ns"] or fr["west"] != fr["ew"])
    return (
        row,
        num["ns"],
        num["ew"],
        den,
        num["south"] if split else None,
        num["west"] if split else None,
    )


def _updates_frame(updates: list[_Update]) -> pl.DataFrame:
    """The rows of :func:`_over_one_den` as a frame (``__row``, ``__ns``, ``__ew``,
    ``__den``, ``__south``, ``__west``) to join back onto the scored lines."""
    names = ("__row", "__ns", "__ew", "__den", "__south", "__west")
    return pl.DataFrame(updates, schema=dict.fromkeys(names, pl.Int64), orient="row")
