"""Law 78A conservation: the check that guards every scored board.

On a board every field (the NS results compared with each other, and the EW results) sums
to ``n x top / 2`` — ``k(k-1)`` for ``k`` results on the 2/1 scale, ``n(N-1)`` when ``n``
results are factored to ``N`` (Neuberg and linear factoring keep the field's average) — and
a balanced table's NS + EW = top. A split (non-balancing) table need not balance — nor,
then, need the other tables of its board, whose EW pairs are compared with its EW result —
but each field still sums correctly; a weighted table counts with its weights. A field is the rows
whose side has a real result (an artificial score takes no part). The small-group rules of
a fouled board (EBU 65/55 and 70/60/50, ACBL 1991, and 60 % for a result alone on its
version) deliberately give more than the average and are not checked.
"""

from __future__ import annotations

from fractions import Fraction

import polars as pl

from pipelines.laws.vocabulary import RulingKind
from pipelines.scoring.score import BOARD, compared_section

#: Factoring labels of fouled-board groups scored by a small-group rule (not conserved).
SMALL_GROUP_METHODS = frozenset({"fouled_single", "fouled_ebu", "fouled_acbl"})


def _exact_sum(num: str, den: str) -> list[pl.Expr]:
    """A field's fractions ``num/den`` summed: ``__num`` (the numerators' sum) and ``__den``
    (the denominator) when every row has the same denominator (``__den_n`` 1), the fractions
    themselves (``__f``) for an exact sum otherwise."""
    return [
        pl.col(num).cast(pl.Int64).sum().alias("__num"),
        pl.col(den).cast(pl.Int64).first().alias("__den"),
        pl.col(den).n_unique().alias("__den_n"),
        pl.struct(num, den).alias("__f"),
    ]


def _table_breaches(
    tables: pl.DataFrame, side: str, total: pl.Expr, expected: pl.Expr | str
) -> list[dict]:
    """One breach per row of ``tables`` (tables that do not balance): ``total`` is what the
    table's two sides sum to, ``expected`` what they must."""
    version = (
        pl.col("board_version") if "board_version" in tables.columns else pl.lit(None, pl.Utf8)
    )
    return tables.select(
        *BOARD,
        version.alias("board_version"),
        pl.lit(side).alias("side"),
        pl.lit(1, pl.Int64).alias("results"),
        total.cast(pl.Float64).alias("sum"),
        (pl.col(expected) if isinstance(expected, str) else expected)
        .cast(pl.Float64)
        .alias("expected_sum"),
    ).to_dicts()


def breaches(scored: pl.DataFrame) -> pl.DataFrame:
    """The fields (board, version, side) or tables that break conservation (empty if none).

    A session scored across the field is checked on its boards' results in all its
    sections together (their ``section`` given as ``""``, :func:`compared_section`)."""
    out = []
    scored = compared_section(scored)
    if "board_version" not in scored.columns:
        scored = scored.with_columns(pl.lit("A").alias("board_version"))
    live = scored.filter(pl.col("kind").is_in(["played", "adjusted"]))
    for side, art in (("NS", "ns_art"), ("EW", "ew_art")):
        num = f"{side.lower()}_mp_num"
        field = live.filter(pl.col(art).is_null() & pl.col(num).is_not_null())
        sums = field.group_by([*BOARD, "board_version"]).agg(
            pl.len().alias("n"),
            pl.col("top").first(),
            pl.col("factoring").drop_nulls().first(),
            *_exact_sum(num, "mp_den"),
        )
        sums = sums.filter(
            ~pl.col("factoring").fill_null("").is_in(list(SMALL_GROUP_METHODS))
        ).with_columns((pl.col("top") * 2).alias("__top2"))
        # one denominator and a top in halves (every scale): exact in integers, vectorised —
        # the field sums to n x top / 2 when 4 x sum(num) = n x (2 top) x den
        whole = (pl.col("__den_n") == 1) & (
            (pl.col("__top2") - pl.col("__top2").round(0)).abs() < 1e-9
        )
        quick = sums.filter(whole)
        off = quick.filter(
            4 * pl.col("__num")
            != pl.col("n") * pl.col("__top2").round(0).cast(pl.Int64) * pl.col("__den")
        )
        out.extend(
            off.select(
                *BOARD,
                "board_version",
                pl.lit(side).alias("side"),
                pl.col("n").cast(pl.Int64).alias("results"),
                (pl.col("__num") / pl.col("__den")).alias("sum"),
                (pl.col("n") * pl.col("top") / 2).alias("expected_sum"),
            ).to_dicts()
        )
        for r in sums.filter(~whole).iter_rows(named=True):  # the rare rest, in fractions
            total = sum((Fraction(f[num], f["mp_den"]) for f in r["__f"]), Fraction(0))
            want = Fraction(r["n"]) * Fraction(r["top"]).limit_denominator() / 2
            if total != want:
                out.append(
                    {
                        **{k: r[k] for k in BOARD},
                        "board_version": r["board_version"],
                        "side": side,
                        "results": r["n"],
                        "sum": float(total),
                        "expected_sum": float(want),
                    }
                )
    # A split (non-balancing) table makes the two fields differ, so on its board no table
    # need balance; elsewhere every played table does.
    split_board = (pl.col("kind") == "adjusted").any().over(BOARD)
    small = pl.col("factoring").fill_null("").is_in(list(SMALL_GROUP_METHODS))
    balanced = live.filter(
        ~split_board
        & ~small
        & (pl.col("kind") == "played")
        & pl.col("ns_mp_num").is_not_null()
        & (
            pl.col("ns_mp_num") + pl.col("ew_mp_num")
            != (pl.col("top") * pl.col("mp_den")).round(0).cast(pl.Int64)
        )
    )
    out.extend(
        _table_breaches(
            balanced, "NS+EW", (pl.col("ns_mp_num") + pl.col("ew_mp_num")) / pl.col("mp_den"), "top"
        )
    )
    out.extend(imp_breaches(scored))
    schema = {
        "event_id": pl.Utf8,
        "session": pl.Int32,
        "section": pl.Utf8,
        "deal_round": pl.Int32,
        "board": pl.Int32,
        "board_version": pl.Utf8,
        "side": pl.Utf8,
        "results": pl.Int64,
        "sum": pl.Float64,
        "expected_sum": pl.Float64,
    }
    return pl.DataFrame(out, schema=schema, orient="row") if out else pl.DataFrame(schema=schema)


def imp_breaches(scored: pl.DataFrame) -> list[dict]:
    """The IMP forms' invariants (Law 78B): the IMPs of a result are antisymmetric (what NS
    win EW lose) at every played table of a board no split or weighted score unbalanced; on
    such a cross-IMP board, every comparison counted once each way, the NS IMPs sum to 0."""
    if "ns_imps_num" not in scored.columns:
        return []
    imp = scored.filter(pl.col("ns_imps_num").is_not_null() | pl.col("ew_imps_num").is_not_null())
    if imp.height == 0:
        return []
    unbalanced = (pl.col("kind") != "played").any().over(BOARD)
    if "adjustment" in imp.columns:  # an IMP award (Law 86B1) may be non-balancing
        unbalanced = unbalanced | (pl.col("adjustment") == RulingKind.IMP_AWARD).fill_null(
            False
        ).any().over(BOARD)
    if "missing_result" in imp.columns:
        unbalanced = unbalanced | pl.col("missing_result").fill_null(False).any().over(BOARD)
    clean = imp.filter(~unbalanced)
    out = []
    tables = clean.filter(pl.col("ns_imps_num") + pl.col("ew_imps_num") != 0)
    imps = (pl.col("ns_imps_num") + pl.col("ew_imps_num")) / pl.col("imps_den")
    out.extend(_table_breaches(tables, "NS+EW IMPs", imps, pl.lit(0.0)))
    cross = clean.filter(pl.col("scoring") == "cross_imps") if "scoring" in clean.columns else None
    if cross is not None and cross.height:
        keys = [*BOARD, "board_version"]
        sums = cross.group_by(keys).agg(pl.len().alias("n"), *_exact_sum("ns_imps_num", "imps_den"))
        one = pl.col("__den_n") == 1
        rows = sums.filter(one & (pl.col("__num") != 0)).to_dicts()
        rows += [
            r
            for r in sums.filter(~one).to_dicts()
            if sum((Fraction(f["ns_imps_num"], f["imps_den"]) for f in r["__f"]), Fraction(0))
        ]
        for r in rows:
            total = sum((Fraction(f["ns_imps_num"], f["imps_den"]) for f in r["__f"]), Fraction(0))
            out.append(
                {
                    **{k: r[k] for k in keys},
                    "side": "NS cross-IMPs",
                    "results": r["n"],
                    "sum": float(total),
                    "expected_sum": 0.0,
                }
            )
    return out
