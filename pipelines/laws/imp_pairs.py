"""Pairs events scored at IMPs: Butler (IMPs against a datum) and cross-IMPs.

Neither method is defined by the Laws (Law 78B only gives the IMP scale; Law 78D leaves
the scoring method to the regulations), so every choice here is a named parameter [reg].
Sources: ``../shared/domain/scoring-rules.md`` §6, the ACBLscore manual (IMP scoring
methods), and the Compscore3 (ABF) exports in ``../shared/realdata`` (see below).

**Butler.** Each board gets a *datum*: the mean of the NS scores after dropping a share of
the top and bottom results, rounded to a multiple of 10. Each NS pair gets
``imps(ns_score − datum)`` (Law 78B) and its EW opponents the negation. Artificial
scores are not part of the datum; they score average 0, average-plus +3, average-minus
−3 IMPs (Law 12C2(b), value [reg]). A fouled board gets a separate datum for each group
(Law 87; the caller puts the group in ``group``). Conventions (:data:`BUTLER_CONVENTIONS`):

* ``"acbl"`` (ACBLscore manual): drop 5 % of the results at each end, round the mean to
  the nearest 10 with a final 5 to the even ten (425 → 420, 435 → 440). **[uncertain]**
  how ACBLscore turns 5 % of ``n`` into a count; we round half-up (10 results → 1);
* ``"compscore"`` (Compscore3, ABF): drop the **single** top and the single bottom result,
  round the mean to the nearest 10. Evidence: this reproduces every ``BOARD_AVERAGE``
  (35/35 boards, 6 or 7 results each, the ``A5050`` line left out of the datum) and every
  ``NS_BUTLER_POINTS``/``EW_BUTLER_POINTS`` (244 played lines, and the ``A5050`` line as
  0/0) of ``compscore_usebio_butler_mitchell_14p.xml``. No trimmed mean in that file ends
  in an exact 5, so its rule for halves is not known (we use the ACBL rule).

Trimming never removes every result: at most ``(n − 1) // 2`` are dropped at each end.

**Cross-IMPs** (ACBLscore "Total IMPs" / "Average IMPs"): each result is IMPed against
every other result on the board (NS view; EW gets the negation). ``"total"`` is the sum
of the comparisons; ``"average"`` divides it by their number ``n − 1``. On a board with
fewer real results ``n`` than expected ``N`` (artificial scores, or a fouled board split
into groups of ``g``), the real results are compared only among themselves (each group
separately), and in ``"total"`` mode the sums are factored by ``(N − 1)/(g − 1)``;
averages need no factor. Artificial: total ``±3·(N − 1)``, average ``±3``. Compscore3
(ABF) uses ``"average"``: it reproduces all 108 ``NS_CROSS_IMP_POINTS``/``EW_…`` of
``compscore_usebio_cross_imp_howell_9p.xml``, displayed to 2 decimals (nearest; thirds
never fall on a half), and each pair's ``TOTAL_SCORE`` is the exact sum of its averages
rounded to 2 decimals (not the sum of the displayed figures: 91/3 shows 30.33, whereas the
displayed lines add up to 30.34).

Every scalar rule has a vectorised twin over a Polars frame (:func:`butler_frame`,
:func:`cross_imps_frame`), tested equal; all arithmetic is exact (integers, fractions as
numerator/denominator).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from pipelines.laws.imps import bounds, imps
from pipelines.laws.teams import ARTIFICIAL_CODES

TRIM_ROUNDING: tuple[str, ...] = ("floor", "ceil", "round_half_up")
HALF: tuple[str, ...] = ("even", "up", "down", "away")
MODES: tuple[str, ...] = ("total", "average")
ARTIFICIAL: dict[str, int] = ARTIFICIAL_CODES
"""Artificial-score codes (``+ = -``, ``A+``, ``Av-`` …): the sign of the award."""

BUTLER_CONVENTIONS: dict[str, dict[str, Any]] = {
    "acbl": {
        "trim": Fraction(1, 20),
        "trim_rounding": "round_half_up",
        "trim_count": None,
        "round_to": 10,
        "half": "even",
    },
    "compscore": {
        "trim": Fraction(0),
        "trim_rounding": "floor",
        "trim_count": 1,
        "round_to": 10,
        "half": "even",
    },
}
"""Named Butler datum conventions (keyword arguments of :func:`butler_datum`)."""


def trimmed_each_end(
    n: int, trim: Fraction = Fraction(0), trim_rounding: str = "floor", count: int | None = None
) -> int:
    """How many results are dropped at *each* end of a board of ``n`` results.

    ``count`` if given, else ``trim · n`` rounded by ``trim_rounding``; never more than
    ``(n − 1) // 2`` so that at least one result remains.

    >>> trimmed_each_end(7, count=1), trimmed_each_end(2, count=1)
    (1, 0)
    >>> trimmed_each_end(10, Fraction(1, 20), "round_half_up")
    1
    >>> trimmed_each_end(9, Fraction(1, 20))
    0
    """
    if count is None:
        share = Fraction(trim) * n
        if trim_rounding == "floor":
            count = math.floor(share)
        elif trim_rounding == "ceil":
            count = math.ceil(share)
        elif trim_rounding == "round_half_up":
            count = math.floor(share + Fraction(1, 2))
        else:
            raise ValueError(f"trim_rounding must be one of {TRIM_ROUNDING}, not {trim_rounding!r}")
    return max(0, min(count, (n - 1) // 2))


def _round_multiple(num: int, den: int, step: int, half: str) -> int:
    """``num/den`` rounded to a multiple of ``step`` (exact); ``half`` decides exact halves."""
    if half not in HALF:
        raise ValueError(f"half must be one of {HALF}, not {half!r}")
    q, r = divmod(num, den * step)  # floor division: 0 <= r < den·step
    twice, unit = 2 * r, den * step
    if twice > unit:
        q += 1
    elif twice == unit:
        q += {"even": q % 2, "up": 1, "down": 0, "away": 1 if q >= 0 else 0}[half]
    return q * step


def butler_datum(
    ns_scores: Sequence[int],
    *,
    trim: Fraction = Fraction(0),
    trim_rounding: str = "floor",
    trim_count: int | None = None,
    round_to: int | None = 10,
    half: str = "even",
) -> int | Fraction:
    """The Butler datum of a board's (real, NS-signed) scores.

    Drop :func:`trimmed_each_end` results at each end, take the mean, round it to a multiple of
    ``round_to`` (halves by ``half``: ``even`` to the even multiple, ``up`` towards +∞,
    ``down`` towards −∞, ``away`` from zero). ``round_to=None`` returns the exact mean
    (a :class:`Fraction`); IMP it with a ``gaps`` convention of :func:`imps`.

    >>> butler_datum([-140, -140, 50, 100, -420, 50, 50], **BUTLER_CONVENTIONS["compscore"])
    -30
    >>> butler_datum([425]), butler_datum([435]), butler_datum([-425])
    (420, 440, -420)
    """
    if not ns_scores:
        raise ValueError("a Butler datum needs at least one result")
    ordered = sorted(int(s) for s in ns_scores)
    k = trimmed_each_end(len(ordered), trim, trim_rounding, trim_count)
    kept = ordered[k : len(ordered) - k]
    if round_to is None:
        return Fraction(sum(kept), len(kept))
    return _round_multiple(sum(kept), len(kept), round_to, half)


def butler_imps(ns_score: int, datum: int | Fraction, gaps: str = "strict") -> int:
    """IMPs to the NS pair: ``imps(ns_score − datum)``; the EW pair gets the negation.

    >>> butler_imps(-140, -30), butler_imps(100, -30)
    (-3, 4)
    """
    return imps(ns_score - datum, gaps)


def artificial_imps(code: str, value: int = 3) -> int:
    """Butler/average cross-IMP artificial score: ``+`` → +3, ``=`` → 0, ``-`` → −3 [reg]."""
    if code not in ARTIFICIAL:
        raise ValueError(f"artificial code must be one of {tuple(ARTIFICIAL)}, not {code!r}")
    return ARTIFICIAL[code] * value


def cross_imps(
    ns_scores: Sequence[int], mode: str = "average", expected: int | None = None
) -> list[Fraction]:
    """Cross-IMPs of each result against every other result of its group (NS view).

    ``total``: the sum of ``imps(s − t)`` over the other results ``t``, factored by
    ``(N − 1)/(n − 1)`` when ``expected = N`` exceeds the ``n`` results given (a fouled
    group, or a board with artificial scores); ``average``: the sum divided by ``n − 1``.
    A single result scores 0. EW get the negation.

    >>> [str(x) for x in cross_imps([-140, 50, 100, -420])]
    ['-4/3', '13/3', '19/3', '-28/3']
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    n = len(ns_scores)
    big = n if expected is None else expected
    if big < n:
        raise ValueError(f"expected ({big}) is smaller than the {n} results given")
    if n < 2:
        return [Fraction(0)] * n
    sums = [
        sum(imps(s - t) for j, t in enumerate(ns_scores) if j != i) for i, s in enumerate(ns_scores)
    ]
    factor = Fraction(big - 1, n - 1) if mode == "total" else Fraction(1, n - 1)
    return [s * factor for s in sums]


def cross_imps_fouled(
    groups: Sequence[Sequence[int]], mode: str = "average", expected: int | None = None
) -> list[list[Fraction]]:
    """Cross-IMPs on a fouled board (Law 87): each group IMPed separately.

    ``total`` factors each group's sums by ``(N − 1)/(g − 1)``, ``N`` being ``expected``
    (default: all the results of all groups); ``average`` needs no factor.
    """
    big = sum(len(g) for g in groups) if expected is None else expected
    return [cross_imps(g, mode, expected=big) for g in groups]


def cross_imps_artificial(code: str, results: int, mode: str = "average", value: int = 3) -> int:
    """Cross-IMPs of an artificial score: total ``±value·(results − 1)``, average ``±value``.

    ``results`` is the number of results the board should have had (ACBLscore manual).

    >>> cross_imps_artificial("+", 7, "total"), cross_imps_artificial("-", 7)
    (18, -3)
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    per = artificial_imps(code, value)
    return per * (results - 1) if mode == "total" else per


# --------------------------------------------------------------------------- vectorised


def _imps_scaled(diff_num: pl.Expr, den: pl.Expr, gaps: str = "strict") -> pl.Expr:
    """IMPs of the exact difference ``diff_num / den`` (``den > 0``): count the band bounds
    ``b`` with ``b·den < |diff_num|``; the sign follows ``diff_num``."""
    a = diff_num.abs()
    n = pl.sum_horizontal([(a > den * b).cast(pl.Int64) for b in bounds(gaps)])
    return pl.when(diff_num < 0).then(-n).otherwise(n)


def _art_expr(col: str, value: int) -> pl.Expr:
    return pl.col(col).replace_strict(ARTIFICIAL, default=None, return_dtype=pl.Int64).mul(value)


def butler_frame(
    df: pl.DataFrame,
    *,
    group: list[str],
    convention: dict[str, Any] | str = "acbl",
    artificial_value: int = 3,
    gaps: str = "strict",
) -> pl.DataFrame:
    """Vectorised Butler scoring: ``df`` with ``datum``, ``ns_imps`` and ``ew_imps`` added.

    ``df`` has the ``group`` columns (board, plus the fouled-board group if any), and
    ``ns_score`` (Int, null when the table has no real result). Optional ``ns_art`` /
    ``ew_art`` columns hold artificial codes ``+``, ``=``, ``-`` for such tables: their
    IMPs are ``±artificial_value`` / 0, side by side (they need not balance). Rows with
    neither a score nor a code get null IMPs (not played). ``convention`` is a name in
    :data:`BUTLER_CONVENTIONS` or a dict of :func:`butler_datum` keywords. With
    ``round_to=None`` the datum is exact: ``datum_num``/``datum_den`` columns are added and
    ``datum`` is their float quotient.
    """
    conv = BUTLER_CONVENTIONS[convention] if isinstance(convention, str) else convention
    trim = Fraction(conv.get("trim", 0))
    rounding = conv.get("trim_rounding", "floor")
    count = conv.get("trim_count")
    round_to = conv.get("round_to", 10)
    half = conv.get("half", "even")
    if rounding not in TRIM_ROUNDING:
        raise ValueError(f"trim_rounding must be one of {TRIM_ROUNDING}, not {rounding!r}")
    if half not in HALF:
        raise ValueError(f"half must be one of {HALF}, not {half!r}")

    s = pl.col("ns_score").cast(pl.Int64)
    n = s.count().over(group).cast(pl.Int64)  # real results in the group
    if count is not None:
        k = pl.lit(int(count), dtype=pl.Int64)
    else:
        tn, td = trim.numerator, trim.denominator
        if rounding == "floor":
            k = (n * tn) // td
        elif rounding == "ceil":
            k = -((-n * tn) // td)
        else:
            k = (2 * n * tn + td) // (2 * td)
    k = pl.min_horizontal(k, (n - 1) // 2).clip(lower_bound=0)
    pos = s.rank("ordinal").over(group).cast(pl.Int64)
    keep = s.is_not_null() & (pos > k) & (pos <= n - k)
    total = pl.when(keep).then(s).otherwise(None).sum().over(group)
    kept = keep.cast(pl.Int64).sum().over(group)

    out = df.with_columns(_sum=total, _cnt=kept)
    if round_to is None:
        out = out.with_columns(
            datum_num=pl.when(pl.col("_cnt") > 0).then(pl.col("_sum")),
            datum_den=pl.when(pl.col("_cnt") > 0).then(pl.col("_cnt")),
        ).with_columns(datum=pl.col("datum_num") / pl.col("datum_den"))
        imps_ns = _imps_scaled(
            s * pl.col("datum_den") - pl.col("datum_num"), pl.col("datum_den"), gaps
        )
    else:
        unit = pl.col("_cnt") * round_to
        q = pl.col("_sum") // unit
        twice = 2 * (pl.col("_sum") - q * unit)
        tie = {
            "even": q % 2,
            "up": pl.lit(1),
            "down": pl.lit(0),
            "away": pl.when(q >= 0).then(1).otherwise(0),
        }[half]
        q = pl.when(twice > unit).then(q + 1).when(twice == unit).then(q + tie).otherwise(q)
        out = out.with_columns(datum=pl.when(pl.col("_cnt") > 0).then(q * round_to))
        imps_ns = _imps_scaled(s - pl.col("datum"), pl.lit(1), gaps)
    ns = pl.when(s.is_not_null()).then(imps_ns)
    ew = pl.when(s.is_not_null()).then(-imps_ns)
    if "ns_art" in df.columns:
        ns = ns.otherwise(_art_expr("ns_art", artificial_value))
    if "ew_art" in df.columns:
        ew = ew.otherwise(_art_expr("ew_art", artificial_value))
    return out.with_columns(ns_imps=ns.cast(pl.Int64), ew_imps=ew.cast(pl.Int64)).drop(
        "_sum", "_cnt"
    )


def cross_imps_frame(
    df: pl.DataFrame,
    *,
    group: list[str],
    mode: str = "average",
    expected: str | None = None,
    artificial_value: int = 3,
) -> pl.DataFrame:
    """Vectorised :func:`cross_imps`: ``df`` with exact cross-IMPs added.

    ``df`` has the ``group`` columns (board, plus the fouled-board group if any) and
    ``ns_score`` (Int, null when the table has no real result); optionally ``expected``
    (name of an Int column: the results the *board* should have had, ``N``, for the total
    mode's ``(N − 1)/(g − 1)`` factor and the artificial ``±3·(N − 1)``; default: the real
    results of the group) and ``ns_art``/``ew_art`` artificial codes (``+ = -``).

    Adds ``ns_imps_num``, ``ew_imps_num`` and ``imps_den`` (Int64, the fraction in lowest
    terms, ``den > 0``) and the float convenience columns ``ns_imps``/``ew_imps``. Each
    result is compared with every other real result of its group (a self-join).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    idx = "__row"
    base = df.with_row_index(idx).with_columns(pl.col("ns_score").cast(pl.Int64))
    real = base.filter(pl.col("ns_score").is_not_null()).select(idx, *group, "ns_score")
    other = real.select(*group, pl.col("ns_score").alias("__t"), pl.col(idx).alias("__j"))
    pairs = real.join(other, on=group, how="inner", nulls_equal=True).filter(
        pl.col(idx) != pl.col("__j")
    )
    sums = pairs.group_by(idx).agg(
        _imps_scaled(pl.col("ns_score") - pl.col("__t"), pl.lit(1)).sum().alias("__sum")
    )
    n = pl.col("ns_score").count().over(group).cast(pl.Int64)
    big = pl.col(expected).cast(pl.Int64) if expected is not None else n
    out = (
        base.join(sums, on=idx, how="left", maintain_order="left")
        .sort(idx)  # the input's row order
        .with_columns(__n=n, __N=big)
    )
    played = pl.col("ns_score").is_not_null()
    single = pl.col("__n") < 2
    s = pl.col("__sum").fill_null(0)
    if mode == "total":
        num = s * (pl.col("__N") - 1)
        den = pl.col("__n") - 1
    else:
        num, den = s, pl.col("__n") - 1
    num = pl.when(single).then(0).otherwise(num)
    den = pl.when(single).then(1).otherwise(den)
    out = out.with_columns(
        __num=pl.when(played).then(num).cast(pl.Int64),
        __den=pl.when(played).then(den).cast(pl.Int64),
    )
    # lowest terms (numpy gcd over the played rows)
    nums = out["__num"].fill_null(0).to_numpy()
    dens = out["__den"].fill_null(1).to_numpy()
    g = np.gcd(nums, dens)
    g[g == 0] = 1
    out = out.with_columns(__g=pl.Series(g, dtype=pl.Int64))
    ns_num = pl.col("__num") // pl.col("__g")
    ew_num = -ns_num
    den = pl.col("__den") // pl.col("__g")
    factor = (pl.col("__N") - 1) if mode == "total" else pl.lit(1)
    arts = [c for c in ("ns_art", "ew_art") if c in df.columns]
    if arts:
        any_art = pl.any_horizontal([pl.col(c).is_not_null() for c in arts])
        den = pl.when(played).then(den).when(any_art).then(1)
        if "ns_art" in arts:
            ns_num = (
                pl.when(played)
                .then(ns_num)
                .otherwise(_art_expr("ns_art", artificial_value) * factor)
            )
        if "ew_art" in arts:
            ew_num = (
                pl.when(played)
                .then(ew_num)
                .otherwise(_art_expr("ew_art", artificial_value) * factor)
            )
    out = out.with_columns(
        ns_imps_num=ns_num.cast(pl.Int64),
        ew_imps_num=ew_num.cast(pl.Int64),
        imps_den=den.cast(pl.Int64),
    ).with_columns(
        ns_imps=pl.col("ns_imps_num") / pl.col("imps_den"),
        ew_imps=pl.col("ew_imps_num") / pl.col("imps_den"),
    )
    return out.drop(idx, "__sum", "__n", "__N", "__num", "__den", "__g")
