"""The components of split and weighted scores (Law 12C1(c), (e)) as frames.

A table whose result a ruling splits or weights has, per side, several possible results, each
with a weight; :func:`pipelines.scoring.adjust.apply_rulings` writes them as one components
frame (:data:`COMPONENT_COLUMNS`), and both the matchpoint scorer
(:func:`pipelines.scoring.adjust.score_irregular`) and the IMP scorer
(:func:`pipelines.scoring.imp_forms.score_imp_rows`) read every side's possible results from it
(:func:`side_components`). Weights are integers over one denominator ``W``
(:func:`weight_den`: 100 for whole percentages, 300 with thirds), so the arithmetic stays exact.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import polars as pl

#: Columns of the components of split and weighted scores: one possible result of one side
#: of a table, its weight an integer over ``weight_den`` (100 when every weight is a whole
#: percentage).
COMPONENT_COLUMNS: dict[str, pl.DataType] = {
    "__row": pl.Int64,
    "side": pl.Utf8,
    "ns_score": pl.Int64,
    "weight": pl.Int64,
    "art": pl.Utf8,
    "weight_den": pl.Int64,
}


def components_frame(
    comps: list[tuple[int, str, int | None, Fraction, str | None]],
) -> pl.DataFrame:
    """The components as integers over one weight denominator: 100 when every weight is a
    whole percentage (the usual case), else the least common multiple of 100 and the
    weights' denominators (a third: 300)."""
    den = 100
    for *_, w, _art in comps:
        den = lcm(den, w.denominator)
    return pl.DataFrame(
        [(r, side, score, int(w * den), art, den) for r, side, score, w, art in comps],
        schema=COMPONENT_COLUMNS,
        orient="row",
    )


def weight_den(components: pl.DataFrame) -> int:
    """The denominator ``W`` of the components' weights (100 when there are none)."""
    if components.height == 0 or "weight_den" not in components.columns:
        return 100
    return int(components["weight_den"].max())


def side_components(rows: pl.DataFrame, components: pl.DataFrame) -> pl.DataFrame:
    """Every side's possible results: (``__row``, ``side``, ``ns_score``, ``weight``, ``art``).

    A played row is one result of weight ``W`` (:func:`weight_den`: a whole) for each side;
    an artificial row one code per side; an adjusted (split or weighted) row its components,
    weights over ``W``."""
    w = weight_den(components)
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
                pl.lit(w, pl.Int64).alias("weight"),
                pl.when(pl.col("kind") == "artificial").then(pl.col(art)).alias("art"),
            )
        )
    adjusted = components.join(
        rows.filter(pl.col("kind") == "adjusted").select("__row"), on="__row", how="semi"
    )
    return pl.concat([*base, adjusted.select(list(COMPONENT_COLUMNS)[:-1])])
