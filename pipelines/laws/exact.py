"""Exact rational arithmetic on integer columns, so that equal totals tie exactly.

Matchpoints after factoring are rationals: Neuberg gives ``(M*N + N - n) / n``,
an artificial 60 % of a top of 20 is ``1200 / 100``. Floating point would let
two mathematically equal totals differ in the last bit and split a tie, which
a player would find. Every figure that is summed or ranked is therefore kept
as a numerator and a positive denominator (two ``Int64`` columns):

* :func:`reduce` divides both by their gcd;
* :func:`common_denominator` gives, per group, the lcm of the denominators in
  the group, so sums are plain integer sums of rescaled numerators;
* :func:`sum_by` sums fractions per key exactly;
* :func:`exact_rank` ranks fractions exactly (shared places for exact ties).

Everything is vectorised; the only Python loops run over *distinct*
denominators or over the (rare) groups where two different fractions round
to the same float. Intermediate values are checked against :data:`LIMIT` so
that an ``Int64`` overflow can never pass silently.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl

#: Largest magnitude allowed for an intermediate integer (leaves headroom in Int64).
LIMIT = 2**62


class ExactArithmeticOverflow(ArithmeticError):
    """An exact figure would not fit in 64-bit integers."""


def _check(values: np.ndarray, what: str) -> None:
    if values.size and np.abs(values.astype(np.float64)).max() >= float(LIMIT) / 4:
        raise ExactArithmeticOverflow(f"{what} exceed the 64-bit range for exact arithmetic")


def reduce(df: pl.DataFrame, num: str, den: str) -> pl.DataFrame:
    """Divide ``num``/``den`` columns by their gcd (den stays positive); nulls stay null."""
    null = (df[num].is_null() | df[den].is_null()).to_numpy()
    ni = df[num].fill_null(0).cast(pl.Int64).to_numpy()
    di = df[den].fill_null(1).cast(pl.Int64).to_numpy()
    if (di[~null] <= 0).any():
        raise ValueError(f"{den} must be positive")
    g = np.gcd(ni, di)
    g[g == 0] = 1
    out = df.with_columns(
        pl.Series(num, ni // g, dtype=pl.Int64), pl.Series(den, di // g, dtype=pl.Int64)
    )
    if null.any():
        isnull = pl.lit(pl.Series(null))
        out = out.with_columns(
            pl.when(isnull).then(None).otherwise(pl.col(num)).alias(num),
            pl.when(isnull).then(None).otherwise(pl.col(den)).alias(den),
        )
    return out


def common_denominator(df: pl.DataFrame, den: str, by: list[str], out: str) -> pl.DataFrame:
    """Add column ``out``: per group ``by``, the lcm of the (non-null) denominators ``den``."""
    pairs = (
        df.select([*by, den])
        .drop_nulls(den)
        .unique()
        .sort([*by, den])
        .with_columns(pl.struct(by).rank("dense").alias("__g"))
    )
    if pairs.height == 0:
        return df.with_columns(pl.lit(1, pl.Int64).alias(out))
    gid = pairs["__g"].to_numpy()
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    dens = pairs[den].to_numpy().astype(object)
    lcms = np.lcm.reduceat(dens, starts)
    if max(lcms) >= LIMIT:
        raise ExactArithmeticOverflow("common denominator exceeds the 64-bit range")
    keys = pairs[starts.tolist()].select(by).with_columns(
        pl.Series(out, [int(x) for x in lcms], dtype=pl.Int64)
    )
    return df.join(keys, on=by, how="left", nulls_equal=True)


def sum_by(
    df: pl.DataFrame,
    num: str,
    den: str,
    keys: list[str],
    common: list[str],
    aggs: list[pl.Expr] | None = None,
) -> pl.DataFrame:
    """Sum the fractions ``num/den`` exactly per ``keys``.

    ``common`` (a subset of ``keys``) is the group within which one common
    denominator is used, e.g. a ranking group, so that sums in one group are
    directly comparable. Returns ``keys``, the summed ``num`` over the common
    ``den`` (reduced), and any extra ``aggs`` (computed per ``keys``).
    """
    # Sum numerators per (keys, den) first: few distinct denominators per key.
    partial = df.group_by([*keys, den]).agg(pl.col(num).sum())
    partial = common_denominator(partial, den, common, "__D")
    scaled = pl.col(num) * (pl.col("__D") // pl.col(den))
    out = partial.group_by(keys).agg(
        scaled.sum().alias(num),
        pl.col("__D").first().alias(den),
        scaled.abs().max().alias("__max"),
        pl.len().alias("__parts"),
    )
    _check((out["__max"] * out["__parts"]).to_numpy(), "summed numerators")
    out = out.drop("__max", "__parts")
    if aggs:
        out = out.join(df.group_by(keys).agg(*aggs), on=keys, how="left", nulls_equal=True)
    return reduce(out, num, den)


def to_float(num: pl.Expr, den: pl.Expr) -> pl.Expr:
    """The float nearest an exact fraction (for storage and display only, never for ties)."""
    return num.cast(pl.Float64) / den.cast(pl.Float64)


def exact_rank(
    df: pl.DataFrame, num: str, den: str, by: list[str], descending: bool = True
) -> pl.DataFrame:
    """Rank the fractions ``num/den`` within groups ``by``: adds ``rank`` (UInt32) and ``tied``.

    Equal fractions share the best place (1, 2, 2, 4 …) and are ``tied``. Order
    comes from the float value; ties are decided on the *reduced* fractions, so
    float noise can neither create nor split a tie. Where two different
    fractions share a float (possible only with huge denominators) that group
    is ranked again with exact :class:`~fractions.Fraction` comparisons.
    """
    work = reduce(df, num, den).with_columns(to_float(pl.col(num), pl.col(den)).alias("__v"))
    sign = -1 if descending else 1
    work = work.with_columns(
        (pl.col("__v") * sign).rank("min").over(by).cast(pl.UInt32).alias("rank"),
    )
    # Exact ties: same reduced fraction within the group.
    work = work.with_columns(
        (pl.len().over([*by, num, den]) > 1).alias("tied"),
        pl.struct(num, den).n_unique().over([*by, "__v"]).alias("__distinct"),
    )
    if (work["__distinct"] > 1).any():
        work = _rerank_exact(work, num, den, by, descending)
    return work.drop("__v", "__distinct")


def _rerank_exact(
    work: pl.DataFrame, num: str, den: str, by: list[str], descending: bool
) -> pl.DataFrame:
    """Fallback for float collisions: rank every affected group with Fractions."""
    bad = work.filter(pl.col("__distinct") > 1).select(by).unique()
    affected = work.join(bad, on=by, how="semi", nulls_equal=True).with_row_index("__i")
    rest = work.join(bad, on=by, how="anti", nulls_equal=True)
    ranks: dict[int, int] = {}
    for _, grp in affected.group_by(by, maintain_order=True):
        vals = sorted(
            (
                (Fraction(int(n), int(d)), int(i))
                for n, d, i in zip(grp[num], grp[den], grp["__i"], strict=True)
            ),
            key=lambda t: t[0],
            reverse=descending,
        )
        place, previous = 0, None
        for pos, (v, i) in enumerate(vals, start=1):
            if v != previous:
                place, previous = pos, v
            ranks[i] = place
    fixed = affected.with_columns(
        pl.Series("rank", [ranks[int(i)] for i in affected["__i"]], dtype=pl.UInt32)
    ).drop("__i")
    return pl.concat([rest, fixed.select(rest.columns)])
