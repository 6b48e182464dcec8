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

All arithmetic is exact: weights are whole percentages, so a weighted table's
matchpoints are integers over 10,000 before factoring.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import polars as pl

from pipelines import profiles
from pipelines.laws.adjustments import Artificial, parse_side_result, resolve_artificial
from pipelines.scoring.score import (
    BOARD,
    SCORED_COLUMNS,
    SECTION,
    counted_and_shown,
    percentages,
    score_results,
)

#: Columns a ruling adds to a result row.
ADJUSTMENT_COLUMNS: dict[str, pl.DataType] = {
    "board_version": pl.Utf8,
    "adjustment": pl.Utf8,
    "ruling_id": pl.Utf8,
}

_COMPONENTS = {
    "__row": pl.Int64,
    "side": pl.Utf8,
    "ns_score": pl.Int64,
    "weight": pl.Int64,
    "art": pl.Utf8,
}

#: Ruling kinds that change a table's result.
CHANGING = ("assigned", "weighted", "artificial", "director_error", "score_correction")


def apply_rulings(
    results: pl.DataFrame, rulings: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Apply the board rulings in effect to validated ``results``.

    ``rulings`` holds the rulings to apply with the results they give each side
    (``ns_result``, ``ew_result``), in the order they were made. Returns the rows (the
    validated columns, ``kind`` possibly changed to ``artificial`` or ``adjusted``, a new
    ``computed_score`` for a balanced assigned score, plus :data:`ADJUSTMENT_COLUMNS` and a
    ``__row`` index) and the components of the ``adjusted`` rows (:data:`_COMPONENTS`).
    A later ruling about the same table and board replaces an earlier one.
    """
    rows = results.with_row_index("__row").with_columns(
        pl.col("__row").cast(pl.Int64),
        pl.lit("A").alias("board_version"),
        pl.lit(None, pl.Utf8).alias("adjustment"),
        pl.lit(None, pl.Utf8).alias("ruling_id"),
    )
    board_rulings = rulings.filter(pl.col("board").is_not_null())
    if board_rulings.height == 0:
        return rows, pl.DataFrame(schema=_COMPONENTS)
    keys = ["event_id", "session", "deal_round", "board", "ns_pair", "ew_pair"]
    targets = (
        rows.select("__row", "section", *keys)
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
    )
    updates: dict[int, dict] = {}
    comps: list[dict] = []
    for t in targets.sort("__order").iter_rows(named=True):
        row, board = t["__row"], t["board"]
        up = updates.setdefault(row, {})
        up["adjustment"], up["ruling_id"] = t["kind"], t["ruling_id"]
        if t["kind"] == "fouled_board":
            up["board_version"] = t["board_version"]
            continue
        if t["kind"] not in CHANGING:
            continue
        ns = parse_side_result(t["ns_result"], board)
        ew = parse_side_result(t["ew_result"] or t["ns_result"], board)
        comps = [c for c in comps if c["__row"] != row]
        up.pop("computed_score", None)
        if isinstance(ns, Artificial) and isinstance(ew, Artificial):
            up.update(kind="artificial", ns_art=ns.code, ew_art=ew.code, computed_score=None)
        elif (
            not isinstance(ns, Artificial)
            and not isinstance(ew, Artificial)
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
            for side, res in (("NS", ns), ("EW", ew)):
                if isinstance(res, Artificial):
                    comps.append(
                        {
                            "__row": row,
                            "side": side,
                            "ns_score": None,
                            "weight": 100,
                            "art": res.code,
                        }
                    )
                else:
                    for c in res:
                        comps.append(
                            {
                                "__row": row,
                                "side": side,
                                "ns_score": c.ns_score,
                                "weight": int(c.weight * 100),
                                "art": None,
                            }
                        )
    change = pl.DataFrame(
        [{"__row": r, **u} for r, u in updates.items()],
        schema={
            "__row": pl.Int64,
            "adjustment": pl.Utf8,
            "ruling_id": pl.Utf8,
            "board_version": pl.Utf8,
            "kind": pl.Utf8,
            "computed_score": pl.Int64,
            "ns_art": pl.Utf8,
            "ew_art": pl.Utf8,
        },
        orient="row",
    )
    touched = {k for u in updates.values() for k in u}
    rows = rows.join(change, on="__row", how="left", suffix="__new")
    for col in ("adjustment", "ruling_id", "board_version"):
        rows = rows.with_columns(pl.coalesce(f"{col}__new", col).alias(col))
    for col in ("kind", "computed_score", "ns_art", "ew_art"):
        if col in touched:
            changed = pl.col("__row").is_in([r for r, u in updates.items() if col in u])
            rows = rows.with_columns(
                pl.when(changed).then(pl.col(f"{col}__new")).otherwise(pl.col(col)).alias(col)
            )
    rows = rows.drop([c for c in rows.columns if c.endswith("__new")])
    return rows, pl.DataFrame(comps, schema=_COMPONENTS, orient="row")


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


def score_with_rulings(rows: pl.DataFrame, components: pl.DataFrame) -> pl.DataFrame:
    """Score rows after :func:`apply_rulings` (each event under its own profile).

    Returns the scored columns plus :data:`ADJUSTMENT_COLUMNS`, in row order; variable
    artificial scores still carry the profile's fixed values (see :func:`apply_session_rule`).
    """
    extra = ["__row", *ADJUSTMENT_COLUMNS]
    if rows.height == 0:
        return score_results(rows.drop(extra)).with_columns(rows.select(extra))
    if "scoring" in rows.columns:
        from pipelines.scoring.imp_forms import IMP_SCORINGS, score_imp_rows

        at_imps = pl.col("scoring").is_in(IMP_SCORINGS).fill_null(False)
        imp_rows = rows.filter(at_imps)
        if imp_rows.height:
            rest = rows.filter(~at_imps)
            parts = [score_imp_rows(imp_rows, components)]
            if rest.height:
                parts.insert(0, score_with_rulings(rest, components))
            return pl.concat(parts, how="diagonal_relaxed").sort("__row")
    rows = rows.with_columns(expected_results(rows).alias("expected_results"))
    rows = rows.with_columns(_irregular_boards(rows))
    regular = rows.filter(~pl.col("__irregular"))
    irregular = rows.filter(pl.col("__irregular"))
    parts = []
    if regular.height:
        scored = score_results(regular.drop(extra, "__irregular"))
        parts.append(scored.with_columns(regular.select(extra)))
    if irregular.height:
        for name in sorted(irregular["profile"].unique().to_list()):
            sub = irregular.filter(pl.col("profile") == name)
            parts.append(score_irregular(sub.drop("__irregular"), components, profiles.load(name)))
    out = pl.concat(parts, how="diagonal_relaxed").sort("__row")
    return out


def side_components(rows: pl.DataFrame, components: pl.DataFrame) -> pl.DataFrame:
    """Every side's possible results: (``__row``, ``side``, ``ns_score``, ``weight``, ``art``).

    A played row is one result of weight 100 for each side; an artificial row one code per
    side; an adjusted (split or weighted) row its components."""
    plain = rows.filter(pl.col("kind").is_in(["played", "artificial"]))
    base = []
    for side, art in (("NS", "ns_art"), ("EW", "ew_art")):
        base.append(
            plain.select(
                "__row",
                pl.lit(side).alias("side"),
                pl.when(pl.col("kind") == "played")
                .then(pl.col("computed_score"))
                .cast(pl.Int64)
                .alias("ns_score"),
                pl.lit(100, pl.Int64).alias("weight"),
                pl.when(pl.col("kind") == "artificial").then(pl.col(art)).alias("art"),
            )
        )
    adjusted = components.join(
        rows.filter(pl.col("kind") == "adjusted").select("__row"), on="__row", how="semi"
    )
    return pl.concat([*base, adjusted.select(list(_COMPONENTS))])


def score_irregular(
    rows: pl.DataFrame, components: pl.DataFrame, prof: profiles.Profile
) -> pl.DataFrame:
    """Score boards with split, weighted or fouled results under ``prof`` (see module doc).

    Per field (board, version, side): ``n`` = tables whose side has a real result; for
    each component ``c`` of table ``t``, ``2·W_below + W_equal`` over the *other* tables'
    components (weights in percent); the table's matchpoints = ``Σ w_c (2·W_below +
    W_equal) / 10000``. A field with ``n < N`` is factored: Neuberg or linearly as the
    profile says, or for a fouled board's group by the profile's small-group rule.
    """
    u = prof.unit_den
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
    fractions = [_factored(r, prof) for r in per_side.iter_rows(named=True)]
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


def _factored(r: dict, prof: profiles.Profile) -> tuple[int, int, str]:
    """A field result ``A/10000`` (2/1 scale) of a group of ``n`` factored to ``N``."""
    a, n, big_n = r["__a"], r["__n"], r["expected_results"]
    fouled = r["__versions"] > 1
    if n >= big_n and not fouled:
        return a, 10000, "none"
    if fouled:
        from pipelines.laws.adjustments import fouled_group_percentage

        pct = fouled_group_percentage(
            prof.small_groups, n, big_n, Fraction(a, 10000), n == r["__largest"]
        )
        if pct is not None:  # a percentage of the full top 2(N-1)
            v = pct * 2 * (big_n - 1) / 100
            label = "fouled_single" if n == 1 else f"fouled_{prof.small_groups}"
            return v.numerator, v.denominator, label
        v = (Fraction(a, 10000) + 1) * Fraction(big_n, n) - 1
        return v.numerator, v.denominator, "fouled_neuberg"
    method = prof.factoring_adjusted if r["__has_art"] else prof.factoring_missing
    if method == "neuberg":
        v = (Fraction(a, 10000) + 1) * Fraction(big_n, n) - 1
    elif n == 1:
        v = Fraction(big_n - 1)
    else:
        v = Fraction(a, 10000) * Fraction(big_n - 1, n - 1)
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


def apply_session_rule(scored: pl.DataFrame) -> pl.DataFrame:
    """Law 12C2(c) (2007: Law 88): give variable averages their session-percentage value.

    For every artificial side coded ``+`` (average-plus, a non-offending contestant) the
    contestant gets ``max(60 %, p)``; for ``-`` (average-minus, offending) under the 2017
    Laws ``min(40 %, p)``, under the 2007 Laws 40 %; where ``p`` is its percentage on the
    other boards of the session, every board on which it received an artificial score
    left out. A contestant with no such board keeps the fixed value; ``=`` is always 50 %.
    Only profiles with ``session_percentage_rule`` apply it.
    """
    variable = (pl.col("kind") == "artificial") & (
        pl.col("ns_art").is_in(["+", "-"]) | pl.col("ew_art").is_in(["+", "-"])
    )
    if "scoring" in scored.columns:  # at IMPs, Av+ and Av- are fixed IMPs (Law 12C2(b))
        variable = variable & (pl.col("scoring").fill_null("matchpoints") == "matchpoints")
    targets = scored.filter(variable)
    if targets.height == 0:
        return scored
    rule = {
        n for n in targets["profile"].unique().to_list() if profiles.load(n).session_percentage_rule
    }
    targets = targets.filter(pl.col("profile").is_in(list(rule)))
    if targets.height == 0:
        return scored
    sessions = targets.select("event_id", "session").unique()
    pool = scored.join(sessions, on=["event_id", "session"], how="semi")
    totals = _other_board_totals(pool)
    updates = []
    for r in targets.iter_rows(named=True):
        prof = profiles.load(r["profile"])
        big_n = r["expected"]
        fr = {}
        for side, pair, code in (
            ("ns", r["ns_pair"], r["ns_art"]),
            ("ew", r["ew_pair"], r["ew_art"]),
        ):
            direction = side.upper() if r["movement"] == "mitchell" else ""
            t = totals.get((r["event_id"], r["session"], r["section"], pair, direction))
            p = t[0] / t[1] * 100 if t and t[1] else None
            pct = resolve_artificial(
                code, p, r["laws"] or "2017", prof.average_plus, prof.average, prof.average_minus
            )
            fr[side] = pct * 2 * (big_n - 1) / 100 / prof.unit_den
        den = lcm(fr["ns"].denominator, fr["ew"].denominator)
        updates.append(
            (
                r["__row"],
                fr["ns"].numerator * (den // fr["ns"].denominator),
                fr["ew"].numerator * (den // fr["ew"].denominator),
                den,
            )
        )
    upd = pl.DataFrame(
        updates,
        schema={"__row": pl.Int64, "__ns": pl.Int64, "__ew": pl.Int64, "__den": pl.Int64},
        orient="row",
    )
    out = scored.join(upd, on="__row", how="left").with_columns(
        pl.coalesce("__ns", "ns_mp_num").alias("ns_mp_num"),
        pl.coalesce("__ew", "ew_mp_num").alias("ew_mp_num"),
        pl.coalesce("__den", "mp_den").alias("mp_den"),
    )
    changed = out.filter(pl.col("__den").is_not_null())
    rest = out.filter(pl.col("__den").is_null())
    parts = [rest.drop("__ns", "__ew", "__den")]
    for name in sorted(changed["profile"].unique().to_list()):
        parts.append(
            figures(
                changed.filter(pl.col("profile") == name).drop("__ns", "__ew", "__den"),
                profiles.load(name),
            )
        )
    return pl.concat(parts, how="diagonal_relaxed").sort("__row")


def _other_board_totals(scored: pl.DataFrame) -> dict[tuple, tuple[Fraction, Fraction]]:
    """Per contestant (event, session, section, pair, direction or ''): exact matchpoints and
    tops over the boards on which it did not receive an artificial score."""
    out: dict[tuple, list[Fraction]] = {}
    cols = [
        "event_id",
        "session",
        "section",
        "movement",
        "kind",
        "ns_pair",
        "ew_pair",
        "ns_mp_num",
        "ew_mp_num",
        "mp_den",
        "expected",
        "profile",
    ]
    for r in scored.select(cols).iter_rows(named=True):
        if r["kind"] not in ("played", "adjusted") or r["mp_den"] is None:
            continue
        u = profiles.load(r["profile"]).unit_den
        top = Fraction(2 * (r["expected"] - 1), u)
        for side, pair in (("ns", r["ns_pair"]), ("ew", r["ew_pair"])):
            if r[f"{side}_mp_num"] is None:
                continue
            direction = side.upper() if r["movement"] == "mitchell" else ""
            acc = out.setdefault(
                (r["event_id"], r["session"], r["section"], pair, direction),
                [Fraction(0), Fraction(0)],
            )
            acc[0] += Fraction(r[f"{side}_mp_num"], r["mp_den"])
            acc[1] += top
    return {k: (v[0], v[1]) for k, v in out.items()}
