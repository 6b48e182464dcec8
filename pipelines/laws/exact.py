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
* :func:`exact_rank` ranks fractions exactly (shared places for exact ties);
* :func:`dense_ids` / :func:`group_ids` number groups of rows with integers
  (exactly: equal keys and only equal keys share an id, no hashing), and
  :func:`sum_fractions` sums fractions exactly per such integer id, so that
  the engine groups millions of rows on integers rather than on text keys.

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


def column(df: pl.DataFrame, name: str) -> pl.Series:
    """Column ``name`` of ``df`` as a Series.

    Unlike ``df[name]``, this does not make a constant (literal) column of a
    large frame build and keep a full copy of its value inside the frame.
    """
    return df.select(pl.col(name)).to_series()


def _int_type(k: int) -> type[np.integer]:
    """The narrowest of ``int32``/``int64`` that holds every integer below ``k``."""
    return np.int32 if k < 2**31 else np.int64


def dense_ids(keys: np.ndarray, overwrite: bool = False) -> tuple[np.ndarray, int]:
    """Number the distinct values of an integer array ``0..k-1`` in increasing order of value.

    Returns ``(ids, k)`` (``int32`` ids when they fit). A lookup table is used
    when the values span a range not much larger than the array (the usual case
    for packed codes), else a sort. With ``overwrite`` the function may change
    ``keys`` (saves a copy of a large array).
    """
    keys = np.asarray(keys)
    if keys.dtype.kind not in "iu":
        keys = keys.astype(np.int64)
    if keys.size == 0:
        return np.zeros(0, dtype=np.int32), 0
    lo, hi = int(keys.min()), int(keys.max())
    span = hi - lo + 1
    if span <= 4 * keys.size + 1024:
        if lo and overwrite:
            keys -= keys.dtype.type(lo)
        elif lo:
            keys = keys - keys.dtype.type(lo)
        present = np.zeros(span, dtype=bool)
        present[keys] = True
        remap = np.cumsum(present, dtype=_int_type(span))
        del present
        remap -= 1
        return remap[keys], int(remap[-1]) + 1
    uniq, ids = np.unique(keys, return_inverse=True)
    return ids.astype(_int_type(len(uniq)), copy=False), len(uniq)


def column_codes(s: pl.Series) -> tuple[np.ndarray, int]:
    """Integer codes ``0..k-1`` of the values of one column (null is a value of its own).

    Text is coded through an ``Enum`` of its distinct values (a hash lookup, no
    sort); integers by their offset from the minimum. Returns ``(codes, k)``;
    the codes are the narrowest integers that hold them (treat them as read-only).
    """
    n = len(s)
    if s.dtype in (pl.Utf8, pl.Categorical) or isinstance(s.dtype, pl.Enum):
        s = s.cast(pl.Utf8)
        cats = s.unique().drop_nulls().sort()
        nulls = s.null_count()
        if len(cats) <= 1 and not nulls:
            return np.zeros(n, dtype=np.uint8), 1
        codes = s.cast(pl.Enum(cats)).to_physical()
        if nulls:
            codes = codes.cast(pl.UInt32).fill_null(len(cats))
        return codes.to_numpy(), len(cats) + (1 if nulls else 0)
    if (s.dtype.is_integer() and s.dtype != pl.UInt64) or s.dtype == pl.Boolean:
        nulls = s.null_count()
        if nulls == n:
            return np.zeros(n, dtype=np.uint8), 1
        lo, hi = int(s.min()), int(s.max())
        span = hi - lo + 1
        if span <= 4 * n + 1024:
            if nulls:
                v = (s.cast(pl.Int64) - lo).fill_null(span).to_numpy()
                return v.astype(_int_type(span + 1)), span + 1
            v = s.to_numpy()
            if v.dtype == np.bool_:
                return v.astype(np.uint8), 2
            codes = np.subtract(v, lo, dtype=np.int64)
            return codes.astype(_int_type(span), copy=False), span
        if span < LIMIT:
            return dense_ids((s.cast(pl.Int64) - lo).fill_null(span).to_numpy(), overwrite=True)
    ids = s.rank("dense").cast(pl.Int64).fill_null(0).to_numpy()
    return ids, int(ids.max()) + 1 if n else 0


def joint_codes(columns: list[pl.Series]) -> tuple[list[np.ndarray], int]:
    """Integer codes of several text columns over one shared list of values: ``(codes, k)``.

    Equal values get equal codes in every column (null is a value of its own).
    """
    columns = [c.cast(pl.Utf8) for c in columns]
    cats = pl.concat([c.unique().drop_nulls() for c in columns]).unique().sort()
    k = len(cats)
    has_null = any(c.null_count() for c in columns)
    if k <= 1 and not has_null:
        return [np.zeros(len(c), dtype=np.int32) for c in columns], 1
    codes = [
        c.cast(pl.Enum(cats)).to_physical().cast(pl.Int32).fill_null(k).to_numpy() for c in columns
    ]
    return codes, k + (1 if has_null else 0)


def pack(parts: list[tuple[np.ndarray, int]]) -> tuple[np.ndarray, int] | None:
    """Pack codes ``(codes, k)`` of several columns into one integer per row: ``(key, space)``.

    ``key = c0 + k0 * (c1 + k1 * (c2 + ...))``, so equal keys mean equal codes in
    every part; ``space`` is the product of the ``k``. ``int32`` when it fits,
    ``int64`` otherwise; ``None`` if even that would not hold every key.
    """
    space = 1
    for _, k in parts:
        space *= max(k, 1)
    if space >= LIMIT:
        return None
    dtype = _int_type(space)
    key = np.empty(len(parts[0][0]), dtype=dtype)
    key[...] = parts[0][0]
    stride = max(parts[0][1], 1)
    tmp = None
    for codes, k in parts[1:]:
        if k > 1:
            if tmp is None:
                tmp = np.empty_like(key)
            np.multiply(codes, dtype(stride), out=tmp, dtype=dtype, casting="unsafe")
            key += tmp
        stride *= max(k, 1)
    return key, space


def group_ids(df: pl.DataFrame, cols: list[str]) -> tuple[np.ndarray, int]:
    """One integer id per row for its combination of values of ``cols``: ``(ids, k)``.

    Ids are dense (``0..k-1``); rows share an id exactly when they agree on
    every column (nulls equal). Codes of each column are packed into one
    integer (:func:`pack`) and renumbered; if the packing would not fit, a
    dense rank of the struct of the columns is used instead.
    """
    if df.height == 0:
        return np.zeros(0, dtype=np.int32), 0
    packed = pack([column_codes(column(df, c)) for c in cols])
    if packed is None:
        ids = df.select(pl.struct(cols).rank("dense")).to_series().cast(pl.Int64) - 1
        return ids.to_numpy(), int(ids.max()) + 1
    return dense_ids(packed[0], overwrite=True)


def sum_fractions(
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]], n_ids: int, common: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Exact sums of fractions per integer id: ``parts`` are arrays ``(ids, num, den)``.

    Each row adds ``num/den`` to the sum of its id (``0..n_ids-1``); a row whose
    ``den`` is 0 (a null fraction) adds nothing. ``common[id]`` is the group
    within which one common denominator is used: the lcm of the denominators
    met in the group (e.g. a ranking group). Every numerator is rescaled to
    that denominator and the integers are summed; the sums come back reduced
    (numerator, positive denominator). Magnitudes are checked against
    :data:`LIMIT` before anything could overflow.
    """
    common = np.asarray(common)
    n_common = int(common.max()) + 1 if len(common) else 0
    # The distinct denominators (few) and, per common group, the lcm of those it meets.
    dvals = np.zeros(0, dtype=np.int64)
    for _, _, den in parts:
        if den.size and den.min() < 0:
            raise ValueError("denominators must be positive")
        dvals = np.union1d(dvals, distinct(den, int(den.max(initial=0)) + 1))
    n_d = len(dvals)
    if n_d == 0 or n_ids == 0:
        return np.zeros(n_ids, dtype=np.int64), np.ones(n_ids, dtype=np.int64)
    space = n_common * n_d
    key_type = _int_type(space)
    small = int(dvals.max(initial=0)) <= 8 * sum(len(d) for _, _, d in parts) + 1024
    if small:
        code_of = np.zeros(int(dvals.max(initial=0)) + 1, dtype=key_type)
        code_of[dvals] = np.arange(n_d, dtype=key_type)
    group_of = common.astype(key_type, copy=False)

    def pair_keys(ids: np.ndarray, den: np.ndarray) -> np.ndarray:
        """(common group, denominator) of each row, as one integer."""
        key = code_of[den] if small else np.searchsorted(dvals, den).astype(key_type)
        key += group_of[ids] * key_type(n_d)
        return key

    keys = [pair_keys(ids, den) for ids, _, den in parts]
    pairs = (
        np.unique(np.concatenate([distinct(k, space) for k in keys]))
        if keys
        else (np.zeros(0, dtype=np.int64))
    )
    pair_den = dvals[pairs % n_d]
    real = pair_den > 0
    lcm = _lcm_per_group(pairs[real] // n_d, n_common, pair_den[real])
    factors = np.zeros(len(pairs), dtype=np.int64)
    factors[real] = lcm[pairs[real] // n_d] // pair_den[real]
    if space <= 8 * sum(len(k) for k in keys) + 1024:
        table = np.zeros(space, dtype=np.int64)
        table[pairs] = factors

        def factor(key: np.ndarray) -> np.ndarray:
            return table[key]
    else:

        def factor(key: np.ndarray) -> np.ndarray:
            return factors[np.searchsorted(pairs, key)]

    # Bound every rescaled numerator and every sum before summing in Int64.
    count = np.zeros(n_ids, dtype=np.int64)
    biggest = 0.0
    for ids, num, _ in parts:
        count += np.bincount(ids, minlength=n_ids)[:n_ids]
        biggest = max(biggest, float(np.abs(num).max(initial=0)))
    if biggest * float(factors.max(initial=0)) * float(count.max(initial=0)) >= float(LIMIT) / 4:
        bound = np.zeros(n_ids, dtype=np.float64)
        for (ids, num, _), key in zip(parts, keys, strict=True):
            f = np.abs(num) * factor(key).astype(np.float64)
            _check(f, "rescaled numerators")
            np.add.at(bound, ids, f)
        _check(bound, "summed numerators")
    total = np.zeros(n_ids, dtype=np.int64)
    for (ids, num, _), key in zip(parts, keys, strict=True):
        scaled = factor(key)
        scaled *= num
        np.add.at(total, ids, scaled)
        del scaled
    out_den = lcm[common] if n_ids else np.zeros(0, dtype=np.int64)
    g = np.gcd(total, out_den)
    g[g == 0] = 1
    return total // g, out_den // g


def distinct(key: np.ndarray, space: int) -> np.ndarray:
    """The distinct values, sorted, of a non-negative integer array with values below ``space``."""
    if space <= 8 * len(key) + 1024:
        present = np.zeros(space, dtype=bool)
        present[key] = True
        return np.flatnonzero(present)
    return np.unique(key)


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
    pairs = df.select([*by, den]).drop_nulls(den).unique()
    if pairs.height == 0:
        return df.with_columns(pl.lit(1, pl.Int64).alias(out))
    gid, n_groups = group_ids(pairs, by)
    lcms = _lcm_per_group(gid, n_groups, pairs[den].cast(pl.Int64).to_numpy())
    first = pl.Series(gid).arg_unique().to_numpy()
    keys = pairs[first].select(by).with_columns(pl.Series(out, lcms[gid[first]], dtype=pl.Int64))
    return df.join(keys, on=by, how="left", nulls_equal=True)


def _lcm_per_group(gid: np.ndarray, n_groups: int, dens: np.ndarray) -> np.ndarray:
    """The lcm of the positive denominators ``dens`` per group ``gid`` (ids ``0..n_groups-1``).

    One vectorised step per *distinct* denominator (there are few: matchpoint
    denominators are small counts of results), in ``Int64`` with an overflow
    check before every step.
    """
    lcm = np.ones(n_groups, dtype=np.int64)
    if dens.size and dens.min() <= 0:
        raise ValueError("denominators must be positive")
    order = np.argsort(dens, kind="stable")
    dens_sorted, gid_sorted = dens[order], gid[order]
    starts = np.flatnonzero(np.r_[True, dens_sorted[1:] != dens_sorted[:-1]])
    ends = np.r_[starts[1:], len(dens_sorted)]
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        d = int(dens_sorted[start])
        if d == 1:
            continue
        groups = gid_sorted[start:end]
        cur = lcm[groups]
        step = cur // np.gcd(cur, d)
        if step.size and step.max() >= LIMIT // d:
            raise ExactArithmeticOverflow("common denominator exceeds the 64-bit range")
        lcm[groups] = step * d
    return lcm


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

    Rows keep their order (except that groups ranked again come last). The
    ``num`` and ``den`` columns come back reduced. One sort by (group, value,
    reduced fraction) does it: a place is the start of its run of equal values
    within the group, a tie a run of equal fractions longer than one.
    """
    work = reduce(df, num, den)
    if work.height == 0 or work[num].null_count() or work[den].null_count():
        return _exact_rank_frame(work, num, den, by, descending)
    n = work[num].to_numpy()
    d = work[den].to_numpy()
    key = to_float_np(n, d) * (-1.0 if descending else 1.0)
    gid, _ = group_ids(work, by)
    # Sort by group, then value; equal values then equal reduced fractions are adjacent.
    order = np.lexsort((d, n, key, gid))
    gs, ks, ns, ds = gid[order], key[order], n[order], d[order]
    pos = np.arange(len(order))
    new_group = np.r_[True, gs[1:] != gs[:-1]]
    new_value = new_group | np.r_[True, ks[1:] != ks[:-1]]
    new_frac = new_value | np.r_[True, (ns[1:] != ns[:-1]) | (ds[1:] != ds[:-1])]
    group_start = np.maximum.accumulate(np.where(new_group, pos, 0))
    value_start = np.maximum.accumulate(np.where(new_value, pos, 0))
    frac_id = np.cumsum(new_frac) - 1
    frac_len = np.bincount(frac_id)
    value_id = np.cumsum(new_value) - 1
    fracs_per_value = np.zeros(value_id[-1] + 1, dtype=np.int64)
    np.add.at(fracs_per_value, value_id, new_frac.astype(np.int64))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = value_start - group_start + 1
    tied = np.empty(len(order), dtype=bool)
    tied[order] = frac_len[frac_id] > 1
    work = work.with_columns(
        pl.Series("rank", rank, dtype=pl.UInt32), pl.Series("tied", tied, dtype=pl.Boolean)
    )
    if (fracs_per_value > 1).any():
        distinct = np.empty(len(order), dtype=np.int64)
        distinct[order] = fracs_per_value[value_id]
        work = work.with_columns(
            pl.Series("__v", key * (-1.0 if descending else 1.0)),
            pl.Series("__distinct", distinct),
        )
        work = _rerank_exact(work, num, den, by, descending)
        return work.drop("__v", "__distinct")
    return work


def to_float_np(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """:func:`to_float` on numpy arrays (the same IEEE division, for order only)."""
    return num.astype(np.float64) / den.astype(np.float64)


def _exact_rank_frame(
    work: pl.DataFrame, num: str, den: str, by: list[str], descending: bool
) -> pl.DataFrame:
    """:func:`exact_rank` with Polars windows (frames with null fractions)."""
    work = work.with_columns(to_float(pl.col(num), pl.col(den)).alias("__v"))
    sign = -1 if descending else 1
    work = work.with_columns(
        (pl.col("__v") * sign).rank("min").over(by).cast(pl.UInt32).alias("rank"),
    )
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
