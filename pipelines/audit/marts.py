"""The audit marts as a pure function of the rulings, appeals, events and boards played.

:func:`build_marts` computes the four marts the warehouse keeps (:mod:`pipelines.tables`
documents their columns) from frames, so that the nightly asset, the reports and the tests
(many generated seasons, no warehouse) compute them the same way:

* ``penalty_stats``: procedural (Law 90, by category B1-B8 from the law cited) and
  disciplinary (Law 91) penalties: counts, warnings, matchpoints and percentage points
  deducted, per 1,000 boards played; by period (season = calendar year, and month) and by
  dimension: all, event, event type (form/scoring), level, club, director, law cited.
* ``appeal_stats``: appeals lodged and the **Board-Appeal Ratio** (appeals per 1,000 boards
  played, the European Bridge League's measure), outcomes (Laws 92, 93; scoring-rules.md
  section 9), deposits retained, appeals without merit, median hours from the ruling to the
  decision; by the same periods and dimensions (an appeal counts in the period and slice of
  the ruling it is against).
* ``director_audit``: per period, comparison stratum and director, the volume (sessions and
  boards directed, from the events' ``director``; rulings, the mix of kinds, appeals
  against, mean size of adjustments in % of a top) and, one row per **rate**, the funnel of
  :mod:`pipelines.audit.funnel` and the shrunken rate of :mod:`pipelines.audit.shrinkage`
  over the directors of the stratum. Rates (each ``x`` out of ``n``):

  - ``rulings_per_board``: rulings the director gave at sessions he directed / table
    results (boards played) of those sessions;
  - ``adjustment_rate``: calls on a board ending in an adjusted score (assigned, weighted,
    artificial; Law 12C; an IMP award at teams, Law 86B1) / the director's judgement calls on
    a board (those and the rulings that let the score stand);
  - ``procedural_penalty_rate``: procedural penalties (Law 90, warnings included) / the
    director's rulings other than score corrections;
  - ``overturn_rate``: appeals decided ``changed`` or ``changed_one_side`` / appeals decided
    (upheld, changed, changed for one side, referred back; withdrawn and pending ones are not
    decisions).

  **Controls**: directors are compared only within a stratum of the ``controls`` columns of
  the event (default event level, form and scoring: a congress director is compared with
  congress directors, a teams director with teams directors); the ``controls`` column says
  which were applied. No rank is computed.
* ``ruling_discrepancies``: pairs of rulings by different directors with materially
  different outcomes: on the same board of the same event session, one adjusts and the other
  lets the score stand, or both adjust by amounts more than :data:`SIZE_THRESHOLD` % of a
  top (:data:`SIZE_THRESHOLD_IMPS` IMPs at IMP forms) apart; or, within an event, on the
  same law (first citation) on other boards, one adjusts and the other lets the score stand
  (comparable facts). Both rulings side by side.

Inputs (Polars frames; extra columns are ignored):

* ``events``: ``event_id, session, form, scoring, level, club, director``;
* ``boards``: ``event_id, session, session_date, boards_played`` (table results);
* ``rulings``: the warehouse ``rulings`` table (``ruling_id, event_id, session,
  session_date, board, table, ns_pair, ew_pair, director, ruled_at, laws, kind, offending,
  ns_result, ew_result, penalty, note``);
* ``appeals``: the warehouse ``appeals`` table (``appeal_id, ruling_id, decided_at,
  outcome, deposit_retained, without_merit, pending``);
* ``sizes`` (optional): per ``ruling_id`` the ``adjustment_pct`` (mean change of the table's
  sides, in % of the board's top, matchpoints) or ``adjustment_imps`` (IMP forms), and what a
  penalty deducted: ``deducted_mp`` / ``deducted_pct``, ``deducted_imps``, ``deducted_vps``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from pipelines.audit.funnel import funnel
from pipelines.audit.shrinkage import shrink
from pipelines.laws.vocabulary import (
    DECIDED,
    JUDGEMENT,
    JUDGEMENT_ADJUSTING,
    OUTCOMES,
    OVERTURNED,
    PENALTY_KINDS,
    RULING_KINDS,
    RulingKind,
)
from pipelines.tables import polars_schema

#: What the directors are compared within (columns of the event).
CONTROLS: tuple[str, ...] = ("level", "form", "scoring")
#: The rates audited, in the order shown.
MEASURES: tuple[str, ...] = (
    "rulings_per_board",
    "adjustment_rate",
    "procedural_penalty_rate",
    "overturn_rate",
)
MEASURE_LABELS: dict[str, str] = {
    "rulings_per_board": "Rulings per board played at the sessions directed",
    "adjustment_rate": "Adjusted scores per judgement call on a board",
    "procedural_penalty_rate": "Procedural penalties per ruling",
    "overturn_rate": "Rulings changed on appeal per appeal decided",
}
#: What ``director_audit`` says of a director, the same on each of his measures' rows.
DIRECTOR_FIGURES: tuple[str, ...] = (
    "sessions_directed",
    "boards_directed",
    "rulings",
    "rulings_per_1000_boards",
    *RULING_KINDS,
    "appeals_against",
    "appeals_decided",
    "mean_adjustment_pct",
    "mean_adjustment_imps",
)
_AUDIT_SCHEMA = polars_schema("director_audit")
#: The funnel and shrinkage statistics of a measure and their types (``director_audit``'s
#: columns after ``n``).
FUNNEL_STATS: dict[str, pl.DataType] = dict(
    list(_AUDIT_SCHEMA.items())[list(_AUDIT_SCHEMA).index("n") + 1 :]
)
#: Dimensions of penalty_stats and appeal_stats.
DIMENSIONS: tuple[str, ...] = ("all", "event", "event_type", "level", "club", "director", "law")
#: Two adjustments of the same board differ materially when their sizes (in % of a top) are
#: more than this apart.
SIZE_THRESHOLD = 20.0
#: The same at IMP forms, in IMPs.
SIZE_THRESHOLD_IMPS = 3.0
#: Columns of the optional ``sizes`` input.
SIZE_COLUMNS: tuple[str, ...] = (
    "adjustment_pct",
    "adjustment_imps",
    "deducted_mp",
    "deducted_pct",
    "deducted_imps",
    "deducted_vps",
)
#: A ruling whose director is not named.
NO_DIRECTOR = "(not named)"


@dataclass(frozen=True)
class AuditInputs:
    """The frames the marts are computed from (see the module docstring)."""

    events: pl.DataFrame
    boards: pl.DataFrame
    rulings: pl.DataFrame
    appeals: pl.DataFrame
    sizes: pl.DataFrame | None = None


@dataclass(frozen=True)
class Marts:
    """The four marts."""

    penalty_stats: pl.DataFrame
    appeal_stats: pl.DataFrame
    director_audit: pl.DataFrame
    ruling_discrepancies: pl.DataFrame

    def tables(self) -> dict[str, pl.DataFrame]:
        """The marts by table name."""
        return {
            "penalty_stats": self.penalty_stats,
            "appeal_stats": self.appeal_stats,
            "director_audit": self.director_audit,
            "ruling_discrepancies": self.ruling_discrepancies,
        }


# ------------------------------------------------------------------------------ preparation


def _text_date(col: str) -> pl.Expr:
    c = pl.col(col)
    return c.cast(pl.Utf8).str.slice(0, 10).alias(col)


def _sessions(inputs: AuditInputs) -> pl.DataFrame:
    """One row per event session with its boards played, date and controls."""
    ev = inputs.events.select(
        "event_id",
        pl.col("session").cast(pl.Int64),
        *(pl.col(c).cast(pl.Utf8) for c in ("form", "scoring", "level", "club", "director")),
    )
    boards = inputs.boards.select(
        "event_id",
        pl.col("session").cast(pl.Int64),
        _text_date("session_date"),
        pl.col("boards_played").cast(pl.Int64),
    )
    return boards.join(ev, on=["event_id", "session"], how="left").with_columns(
        pl.col("form").fill_null("pairs"),
        pl.col("scoring").fill_null("matchpoints"),
        pl.col("level").fill_null("club"),
        pl.col("club").fill_null(pl.col("event_id").str.extract(r"^([^-_ ]+)", 1)),
    )


def _with_controls(df: pl.DataFrame, controls: Sequence[str]) -> pl.DataFrame:
    """Adds ``event_type`` (form/scoring), ``stratum`` and ``controls``."""
    stratum = (
        pl.concat_str([pl.col(c).fill_null("?") for c in controls], separator=" · ")
        if controls
        else pl.lit("all")
    )
    return df.with_columns(
        pl.format("{}/{}", "form", "scoring").alias("event_type"),
        stratum.alias("stratum"),
        pl.lit(", ".join(controls) if controls else "none").alias("controls"),
    )


def _periods(df: pl.DataFrame, window: str | None, months: bool) -> pl.DataFrame:
    """``df`` with ``period_kind`` and ``period``: the window, or the season (calendar year)
    and, when ``months``, a second copy by month."""
    if window is not None:
        return df.with_columns(
            pl.lit("window").alias("period_kind"), pl.lit(window).alias("period")
        )
    parts = [
        df.with_columns(
            pl.lit("season").alias("period_kind"),
            pl.col("session_date").str.slice(0, 4).alias("period"),
        )
    ]
    if months:
        parts.append(
            df.with_columns(
                pl.lit("month").alias("period_kind"),
                pl.col("session_date").str.slice(0, 7).alias("period"),
            )
        )
    return pl.concat(parts)


def _rulings(inputs: AuditInputs) -> pl.DataFrame:
    """The rulings with their session's controls (from ``events``, so a session without
    scored boards still has them), first law cited and sizes."""
    r = inputs.rulings
    cols = {
        "ruling_id": pl.Utf8,
        "event_id": pl.Utf8,
        "session": pl.Int64,
        "session_date": pl.Utf8,
        "board": pl.Int64,
        "deal_round": pl.Int64,  # a board is also its round where rounds are re-dealt
        "table": pl.Utf8,
        "ns_pair": pl.Utf8,
        "ew_pair": pl.Utf8,
        "director": pl.Utf8,
        "laws": pl.Utf8,
        "kind": pl.Utf8,
        "offending": pl.Utf8,
        "ns_result": pl.Utf8,
        "ew_result": pl.Utf8,
        "penalty": pl.Utf8,
        "note": pl.Utf8,
        "late": pl.Boolean,
        "supersedes": pl.Utf8,
    }
    out = r.select(
        *(
            (_text_date(c) if c == "session_date" else pl.col(c).cast(t))
            if c in r.columns
            else pl.lit(None, t).alias(c)
            for c, t in cols.items()
        ),
        (pl.col("ruled_at").cast(pl.Datetime("us")) if "ruled_at" in r.columns else pl.lit(None))
        .cast(pl.Datetime("us"))
        .alias("ruled_at"),
    ).with_columns(
        pl.col("director").fill_null(NO_DIRECTOR),
        pl.col("laws").str.split(";").list.first().str.strip_chars().alias("law"),
        pl.col("deal_round").fill_null(0),
    )
    attrs = inputs.events.select(
        "event_id",
        pl.col("session").cast(pl.Int64),
        *(pl.col(c).cast(pl.Utf8) for c in ("form", "scoring", "level", "club")),
        pl.col("director").cast(pl.Utf8).alias("session_director"),
    ).unique(["event_id", "session"], keep="first", maintain_order=True)
    out = out.join(attrs, on=["event_id", "session"], how="left").with_columns(
        pl.col("form").fill_null("pairs"),
        pl.col("scoring").fill_null("matchpoints"),
        pl.col("level").fill_null("club"),
        pl.col("club").fill_null(pl.col("event_id").str.extract(r"^([^-_ ]+)", 1)),
    )
    sizes = inputs.sizes
    if sizes is None or sizes.height == 0:
        sizes = pl.DataFrame(
            schema={"ruling_id": pl.Utf8, **dict.fromkeys(SIZE_COLUMNS, pl.Float64)}
        )
    return out.join(
        sizes.select(
            pl.col("ruling_id").cast(pl.Utf8),
            *(
                pl.col(c).cast(pl.Float64)
                if c in sizes.columns
                else pl.lit(None, pl.Float64).alias(c)
                for c in SIZE_COLUMNS
            ),
        ),
        on="ruling_id",
        how="left",
    )


def _appeals(inputs: AuditInputs, rulings: pl.DataFrame) -> pl.DataFrame:
    """The appeals with the ruling they are against (its slice, law and time)."""
    a = inputs.appeals
    base = a.select(
        pl.col("appeal_id").cast(pl.Utf8),
        pl.col("ruling_id").cast(pl.Utf8),
        pl.col("outcome").cast(pl.Utf8),
        pl.col("decided_at").cast(pl.Datetime("us")),
        pl.col("deposit_retained").cast(pl.Boolean).fill_null(False),
        pl.col("without_merit").cast(pl.Boolean).fill_null(False),
        pl.col("pending").cast(pl.Boolean).fill_null(False)
        if "pending" in a.columns
        else pl.col("outcome").is_null().alias("pending"),
        # an appeal the Laws do not allow (late, Law 92B; against discipline, 93B3) is counted
        # as lodged but decides nothing
        (
            pl.col("late").cast(pl.Boolean).fill_null(False)
            if "late" in a.columns
            else pl.lit(False)
        ).alias("late"),
        (
            pl.col("applies").cast(pl.Boolean).fill_null(True)
            if "applies" in a.columns
            else pl.lit(True)
        ).alias("admissible"),
    )
    return base.join(
        rulings.drop("outcome", strict=False), on="ruling_id", how="inner"
    ).with_columns(
        ((pl.col("decided_at") - pl.col("ruled_at")).dt.total_minutes() / 60.0).alias("__hours")
    )


def _dimension_frames(
    df: pl.DataFrame,
    director_col: str,
    keep: Sequence[str],
    dimensions: Sequence[str] = DIMENSIONS,
) -> pl.DataFrame:
    """``df`` once per dimension of ``dimensions`` (:data:`DIMENSIONS`): its period
    (``period_kind``, ``period``), ``dimension``, ``value`` and the columns ``keep`` that the
    statistics aggregate — each copy carries no other column (a ruling's notes and results
    are not copied fourteen times to be counted)."""
    values = {
        "all": pl.lit("all"),
        "event": pl.col("event_id"),
        "event_type": pl.col("event_type"),
        "level": pl.col("level"),
        "club": pl.col("club"),
        "director": pl.col(director_col),
        "law": pl.col("laws") if "laws" in df.columns else pl.lit(None, pl.Utf8),
    }
    return pl.concat(
        [
            df.select(
                "period_kind",
                "period",
                pl.lit(d).alias("dimension"),
                v.cast(pl.Utf8).alias("value"),
                *keep,
            )
            for d, v in values.items()
            if d in dimensions
        ]
    )


def _boards_by_dimension(
    sessions: pl.DataFrame, window: str | None, dimensions: Sequence[str] = DIMENSIONS
) -> pl.DataFrame:
    """Boards played per period, dimension and value (for ``law``: the period's total)."""
    s = _periods(sessions, window, months=True)
    per = (
        _dimension_frames(s, "director", ["boards_played"], dimensions)
        .filter(pl.col("dimension") != "law")
        .group_by("period_kind", "period", "dimension", "value")
        .agg(pl.col("boards_played").sum())
    )
    return per.filter(pl.col("value").is_not_null())


# ----------------------------------------------------------------------------- penalty_stats

#: What ``penalty_stats`` counts of a penalty (its copies per dimension carry these alone).
_PENALTY_COUNTED = (
    "penalty_kind",
    "category",
    "__warning",
    "__sanction",
    "late",
    "deducted_mp",
    "deducted_pct",
    "deducted_imps",
    "deducted_vps",
)


def _penalty_stats(rul: pl.DataFrame, sessions: pl.DataFrame, window: str | None) -> pl.DataFrame:
    boards = _boards_by_dimension(sessions, window)
    totals = boards.filter(pl.col("dimension") == "all").select(
        "period_kind", "period", pl.col("boards_played").alias("__total")
    )
    pen = rul.filter(pl.col("kind").is_in(list(PENALTY_KINDS))).with_columns(
        pl.when(pl.col("kind") == RulingKind.PROCEDURAL_PENALTY)
        .then(pl.lit("procedural"))
        .otherwise(pl.lit("disciplinary"))
        .alias("penalty_kind"),
        pl.coalesce(pl.col("law").str.extract(r"^9[01]([A-Z][0-9]*)", 1), pl.lit("other")).alias(
            "category"
        ),
        (pl.col("penalty").str.to_lowercase() == "warning").fill_null(False).alias("__warning"),
        pl.col("penalty")
        .str.to_lowercase()
        .is_in(["suspended", "disqualified"])
        .fill_null(False)
        .alias("__sanction"),
    )
    pen = _dimension_frames(
        _periods(pen, window, months=True),
        "director",
        _PENALTY_COUNTED,
    )
    pen = pl.concat([pen, pen.with_columns(pl.lit("all").alias("category"))])
    keys = ["period_kind", "period", "dimension", "value", "penalty_kind", "category"]
    agg = pen.group_by(keys).agg(
        pl.len().alias("penalties"),
        pl.col("__warning").sum().alias("warnings"),
        pl.col("__sanction").sum().alias("sanctions"),
        pl.col("late").fill_null(False).sum().alias("late"),
        pl.col("deducted_mp").fill_null(0.0).sum().alias("matchpoints_deducted"),
        pl.col("deducted_pct").fill_null(0.0).sum().alias("percentage_points_deducted"),
        pl.col("deducted_imps").fill_null(0.0).sum().alias("imps_deducted"),
        pl.col("deducted_vps").fill_null(0.0).sum().alias("vps_deducted"),
    )
    # every slice with boards has its two 'all' rows, zeros included; a row of a category (or
    # of a slice without boards, an assistant's) is a share of its slice's penalties, and its
    # rate is per 1,000 boards of the same slice
    slices = ["period_kind", "period", "dimension", "value"]
    frame = boards.select(*slices).join(
        pl.DataFrame({"penalty_kind": ["procedural", "disciplinary"], "category": ["all", "all"]}),
        how="cross",
    )
    frame = pl.concat([frame, agg.select(keys)]).unique(keys, maintain_order=True)
    out = (
        frame.join(boards, on=slices, how="left")
        .join(agg, on=keys, how="left")
        .join(totals, on=["period_kind", "period"], how="left")
        .with_columns(
            pl.when(pl.col("dimension") == "law")
            .then(pl.col("__total"))
            .otherwise(pl.col("boards_played"))
            .alias("boards_played")
        )
        .with_columns(
            *(
                pl.col(c).fill_null(0).cast(pl.Int64)
                for c in ("penalties", "warnings", "sanctions", "late", "boards_played")
            ),
            *(
                pl.col(c).fill_null(0.0)
                for c in (
                    "matchpoints_deducted",
                    "percentage_points_deducted",
                    "imps_deducted",
                    "vps_deducted",
                )
            ),
        )
        .with_columns(
            pl.when(pl.col("boards_played") > 0)
            .then(pl.col("penalties") * 1000.0 / pl.col("boards_played"))
            .alias("per_1000_boards")
        )
    )
    return out.select(
        *keys,
        "penalties",
        "warnings",
        "sanctions",
        "late",
        "matchpoints_deducted",
        "percentage_points_deducted",
        "imps_deducted",
        "vps_deducted",
        "boards_played",
        "per_1000_boards",
    ).sort(keys)


# ------------------------------------------------------------------------------ appeal_stats

#: What ``appeal_stats`` counts of an appeal (its copies per dimension carry these alone).
_APPEAL_COUNTED = (
    "outcome",
    "pending",
    "admissible",
    "late",
    "deposit_retained",
    "without_merit",
    "__hours",
)


def _appeal_stats(
    app: pl.DataFrame,
    rul: pl.DataFrame,
    sessions: pl.DataFrame,
    window: str | None,
    dimensions: Sequence[str] = DIMENSIONS,
) -> pl.DataFrame:
    """``appeal_stats`` (see the module docstring), for the ``dimensions`` given: each row
    is counted from its own period's and slice's rows, so the rows of some dimensions are
    those of every dimension's mart."""
    boards = _boards_by_dimension(sessions, window, dimensions)
    totals = boards.filter(pl.col("dimension") == "all").select(
        "period_kind", "period", pl.col("boards_played").alias("__total")
    )
    keys = ["period_kind", "period", "dimension", "value"]
    a = _dimension_frames(
        _periods(_with_controls(app, ()), window, months=True),
        "director",
        _APPEAL_COUNTED,
        dimensions,
    )
    admissible = pl.col("admissible")
    decided = pl.col("outcome").is_in(list(DECIDED)) & ~pl.col("pending") & admissible
    agg = a.group_by(keys).agg(
        pl.len().alias("appeals"),
        pl.col("pending").sum().alias("pending"),
        decided.sum().alias("decided"),
        *((pl.col("outcome").eq(o) & admissible).sum().alias(o) for o in OUTCOMES),
        (pl.col("outcome").is_in(list(OVERTURNED)) & admissible).sum().alias("overturned"),
        pl.col("late").sum().alias("late"),
        (~admissible).sum().alias("not_allowed"),
        pl.col("deposit_retained").sum().alias("deposits_retained"),
        pl.col("without_merit").sum().alias("without_merit"),
        pl.col("__hours").filter(decided).median().alias("median_hours_to_decision"),
    )
    r = _dimension_frames(
        _periods(_with_controls(rul, ()), window, months=True), "director", ["late"], dimensions
    )
    rulings = r.group_by(keys).agg(
        pl.len().alias("rulings"), pl.col("late").fill_null(False).sum().alias("late_rulings")
    )
    # a slice is shown when boards were played in it, or appeals were lodged against its
    # rulings, or (but by law cited) rulings were given in it: an assistant who directs no
    # session still has his rulings and the appeals against them
    frame = pl.concat(
        [
            boards.select(*keys),
            agg.select(keys),
            rulings.filter(pl.col("dimension") != "law").select(keys),
        ]
    ).unique()
    counts = ["appeals", "pending", "decided", *OUTCOMES, "overturned", "late", "not_allowed"]
    counts += ["deposits_retained", "without_merit", "rulings", "late_rulings"]
    out = (
        frame.join(boards, on=keys, how="left")
        .join(agg, on=keys, how="left")
        .join(rulings, on=keys, how="left")
        .join(totals, on=["period_kind", "period"], how="left")
        .with_columns(
            pl.when(pl.col("dimension") == "law")
            .then(pl.col("__total"))
            .otherwise(pl.col("boards_played"))
            .fill_null(0)
            .cast(pl.Int64)
            .alias("boards_played"),
            *(pl.col(c).fill_null(0).cast(pl.Int64) for c in counts),
        )
        .with_columns(
            pl.when(pl.col("boards_played") > 0)
            .then(pl.col("appeals") * 1000.0 / pl.col("boards_played"))
            .alias("board_appeal_ratio"),
            pl.when(pl.col("decided") > 0)
            .then(pl.col("overturned") / pl.col("decided"))
            .alias("overturn_rate"),
        )
    )
    return out.select(
        *keys,
        "appeals",
        "pending",
        "decided",
        *OUTCOMES,
        "overturned",
        "overturn_rate",
        "late",
        "not_allowed",
        "deposits_retained",
        "without_merit",
        "median_hours_to_decision",
        "rulings",
        "late_rulings",
        "boards_played",
        "board_appeal_ratio",
    ).sort(keys)


# ---------------------------------------------------------------------------- director_audit


def _director_audit(
    rul: pl.DataFrame,
    app: pl.DataFrame,
    sessions: pl.DataFrame,
    window: str | None,
    controls: Sequence[str],
) -> pl.DataFrame:
    keys = ["period_kind", "period", "stratum", "controls", "director"]
    s = _periods(_with_controls(sessions, controls), window, months=False).filter(
        pl.col("director").is_not_null()
    )
    directed = s.group_by(keys).agg(
        pl.len().alias("sessions_directed"),
        pl.col("boards_played").sum().alias("boards_directed"),
    )
    # the rulings of rulings_per_board are those at the sessions counted in its boards: a
    # session with no boards played on record (its date held back) counts in neither
    counted = sessions.select("event_id", "session", pl.lit(True).alias("__counted")).unique()
    r = (
        _periods(_with_controls(rul, controls), window, months=False)
        .join(counted, on=["event_id", "session"], how="left")
        .with_columns(
            (
                (pl.col("director") == pl.col("session_director"))
                & pl.col("__counted").fill_null(False)
            )
            .fill_null(False)
            .alias("__own_session")
        )
    )
    kinds = r.group_by(keys).agg(
        pl.len().alias("rulings"),
        *((pl.col("kind") == k).sum().alias(k) for k in RULING_KINDS),
        pl.col("__own_session").sum().alias("rulings_at_sessions_directed"),
        pl.col("kind").is_in(list(JUDGEMENT)).sum().alias("judgement_calls"),
        pl.col("kind").is_in(list(JUDGEMENT_ADJUSTING)).sum().alias("adjusted"),
        (pl.col("kind") != RulingKind.SCORE_CORRECTION).sum().alias("rulings_not_corrections"),
        pl.col("adjustment_pct")
        .filter(pl.col("kind").is_in(list(JUDGEMENT_ADJUSTING)))
        .abs()
        .mean()
        .alias("mean_adjustment_pct"),
        pl.col("adjustment_imps")
        .filter(pl.col("kind").is_in(list(JUDGEMENT_ADJUSTING)))
        .abs()
        .mean()
        .alias("mean_adjustment_imps"),
    )
    a = _periods(_with_controls(app, controls), window, months=False)
    decided = pl.col("outcome").is_in(list(DECIDED)) & ~pl.col("pending") & pl.col("admissible")
    appeals = a.group_by(keys).agg(
        pl.len().alias("appeals_against"),
        decided.sum().alias("appeals_decided"),
        (pl.col("outcome").is_in(list(OVERTURNED)) & pl.col("admissible"))
        .sum()
        .alias("overturned"),
    )
    counts = [
        "sessions_directed",
        "boards_directed",
        "rulings",
        *RULING_KINDS,
        "rulings_at_sessions_directed",
        "judgement_calls",
        "adjusted",
        "rulings_not_corrections",
        "appeals_against",
        "appeals_decided",
        "overturned",
    ]
    wide = (
        directed.join(kinds, on=keys, how="full", coalesce=True)
        .join(appeals, on=keys, how="full", coalesce=True)
        .with_columns(*(pl.col(c).fill_null(0).cast(pl.Int64) for c in counts))
        .with_columns(
            pl.when(pl.col("boards_directed") > 0)
            .then(pl.col("rulings_at_sessions_directed") * 1000.0 / pl.col("boards_directed"))
            .alias("rulings_per_1000_boards")
        )
    )
    xn = {
        "rulings_per_board": ("rulings_at_sessions_directed", "boards_directed"),
        "adjustment_rate": ("adjusted", "judgement_calls"),
        "procedural_penalty_rate": ("procedural_penalty", "rulings_not_corrections"),
        "overturn_rate": ("overturned", "appeals_decided"),
    }
    long = pl.concat(
        [
            wide.with_columns(
                pl.lit(m).alias("measure"),
                pl.col(x).alias("x"),
                pl.col(n).alias("n"),
            )
            for m, (x, n) in xn.items()
        ]
    ).sort([*keys[:4], "measure", "director"])
    stats = _funnel_stats(long)
    out = long.join(stats, on=[*keys, "measure"], how="left")
    order = {m: i for i, m in enumerate(MEASURES)}
    return (
        out.with_columns(
            pl.col("measure").replace_strict(order, return_dtype=pl.Int32).alias("__m")
        )
        .sort([*keys[:4], "__m", "director"])
        .drop("__m")
        .select(*keys, *DIRECTOR_FIGURES, "measure", "x", "n", *FUNNEL_STATS)
    )


def _funnel_stats(long: pl.DataFrame) -> pl.DataFrame:
    """Funnel and shrinkage per (period, stratum, measure) over the directors with ``n > 0``
    (a small loop over the groups; the statistics are vectorised over directors)."""
    keys = ["period_kind", "period", "stratum", "controls", "director", "measure"]
    parts: list[pl.DataFrame] = []
    groups = long.filter(pl.col("n") > 0).partition_by(
        ["period_kind", "period", "stratum", "controls", "measure"], maintain_order=True
    )
    for g in groups:
        x, n = g["x"].to_numpy(), g["n"].to_numpy()
        f, s = funnel(x, n), shrink(x, n)
        parts.append(
            g.select(keys).with_columns(
                pl.Series("rate", x / n, dtype=pl.Float64),
                pl.lit(f.target).alias("target"),
                pl.Series("lower95", f.lower95),
                pl.Series("upper95", f.upper95),
                pl.Series("lower998", f.lower998),
                pl.Series("upper998", f.upper998),
                pl.lit(f.phi).alias("phi"),
                pl.lit(f.over_dispersed).alias("over_dispersed"),
                pl.Series("lower95_widened", f.lower95_widened),
                pl.Series("upper95_widened", f.upper95_widened),
                pl.Series("lower998_widened", f.lower998_widened),
                pl.Series("upper998_widened", f.upper998_widened),
                pl.Series("shrunk_rate", np.asarray(s.rate, dtype=float)),
                pl.Series("shrunk_lower", np.asarray(s.lower, dtype=float)),
                pl.Series("shrunk_upper", np.asarray(s.upper, dtype=float)),
                pl.Series("flagged", f.flagged, dtype=pl.Boolean),
                pl.Series("flag_direction", f.direction, dtype=pl.Utf8),
            )
        )
    if parts:
        return pl.concat(parts)
    return pl.DataFrame(schema={**{k: pl.Utf8 for k in keys}, **FUNNEL_STATS})


# ----------------------------------------------------------------------- ruling_discrepancies

_SIDE = (
    "ruling_id",
    "director",
    "session",
    "session_date",
    "board",
    "table",
    "ns_pair",
    "ew_pair",
    "kind",
    "laws",
    "offending",
    "ns_result",
    "ew_result",
    "adjustment_pct",
    "adjustment_imps",
    "note",
)


def _size_text(side: str) -> pl.Expr:
    """An adjustment's size as text: ``12.5 % of a top`` or ``3.0 IMPs``."""
    pct, imps = pl.col(f"{side}_adjustment_pct"), pl.col(f"{side}_adjustment_imps")
    return (
        pl.when(pct.is_not_null())
        .then(pl.format("{} % of a top", pct.round(1)))
        .otherwise(pl.format("{} IMPs", imps.round(1)))
    )


def _chains(rul: pl.DataFrame) -> pl.Expr:
    """Each ruling's chain: the first ruling of the rulings that superseded one another at
    its table and board (``supersedes``: the later names the earlier), itself when it
    neither supersedes nor is superseded. A ruling and the one that replaced it are one
    table's call corrected, not two directors ruling a board differently."""
    named = rul.filter(pl.col("supersedes").is_not_null()).select("ruling_id", "supersedes")
    earlier = dict(named.iter_rows())
    roots: dict[str, str] = {}
    for ruling in earlier:
        seen, r = {ruling}, earlier[ruling]
        while r in earlier and r not in seen:  # a cycle cannot be logged; stop if one were
            seen.add(r)
            r = earlier[r]
        roots[ruling] = r
    return (
        pl.col("ruling_id")
        .replace_strict(roots, default=pl.col("ruling_id"), return_dtype=pl.Utf8)
        .alias("chain")
    )


def _discrepancies(rul: pl.DataFrame, threshold: float, threshold_imps: float) -> pl.DataFrame:
    """Pairs of rulings by two directors that decide the same kind of case differently (the
    README's ``ruling_discrepancies``); never a ruling and one that superseded it, directly
    or through others (:func:`_chains`)."""
    on_board = rul.filter(
        pl.col("board").is_not_null() & pl.col("kind").is_in(list(JUDGEMENT))
    ).with_columns(_chains(rul))
    deal = ["deal_round", "chain"]
    adj = on_board.filter(pl.col("kind").is_in(list(JUDGEMENT_ADJUSTING))).select(
        "event_id", "law", *(pl.col(c).alias(f"a_{c}") for c in (*_SIDE, *deal))
    )
    stands = on_board.filter(pl.col("kind") == RulingKind.SCORE_STANDS).select(
        "event_id", "law", *(pl.col(c).alias(f"b_{c}") for c in (*_SIDE, *deal))
    )
    different = (pl.col("a_director") != pl.col("b_director")) & (
        pl.col("a_chain") != pl.col("b_chain")
    )
    # the same board: same session, number and (where each round has its own deals) round
    same_board = (
        (pl.col("a_session") == pl.col("b_session"))
        & (pl.col("a_board") == pl.col("b_board"))
        & (pl.col("a_deal_round") == pl.col("b_deal_round"))
    )
    cross = adj.join(stands, on="event_id", how="inner", suffix="_b").filter(different)
    board_cases = cross.filter(same_board).with_columns(
        pl.lit("same_board").alias("case_type"),
        pl.format(
            "board {} of session {}: {} adjusted ({}), {} let the score stand",
            "a_board",
            "a_session",
            "a_director",
            "a_kind",
            "b_director",
        ).alias("reason"),
        pl.col("law").alias("law"),
    )
    law_cases = cross.filter(~same_board & (pl.col("law") == pl.col("law_b"))).with_columns(
        pl.lit("same_law").alias("case_type"),
        pl.format(
            "Law {} in the same event: {} adjusted ({}), {} let the score stand",
            "law",
            "a_director",
            "a_kind",
            "b_director",
        ).alias("reason"),
    )
    both = adj.join(
        adj.select("event_id", *(pl.col(f"a_{c}").alias(f"b_{c}") for c in (*_SIDE, *deal))),
        on="event_id",
        how="inner",
    ).filter(
        different
        & same_board
        & (pl.col("a_ruling_id") < pl.col("b_ruling_id"))
        & (
            ((pl.col("a_adjustment_pct") - pl.col("b_adjustment_pct")).abs() > threshold)
            | ((pl.col("a_adjustment_imps") - pl.col("b_adjustment_imps")).abs() > threshold_imps)
        )
    )
    size_cases = both.with_columns(
        pl.lit("adjustment_size").alias("case_type"),
        pl.format(
            "board {} of session {}: adjustments of {} and {} by {} and {}",
            "a_board",
            "a_session",
            _size_text("a"),
            _size_text("b"),
            "a_director",
            "b_director",
        ).alias("reason"),
    )
    cols = [
        "case_type",
        "event_id",
        "law",
        "reason",
        *(f"a_{c}" for c in _SIDE),
        *(f"b_{c}" for c in _SIDE),
    ]
    parts = [p.select(cols) for p in (board_cases, size_cases, law_cases)]
    order = {"same_board": 0, "adjustment_size": 1, "same_law": 2}
    out = pl.concat(parts, how="vertical_relaxed")
    return (
        out.with_columns(
            pl.col("case_type").replace_strict(order, return_dtype=pl.Int32).alias("__c")
        )
        .sort("__c", "event_id", "a_ruling_id", "b_ruling_id")
        .drop("__c")
    )


# ------------------------------------------------------------------------------------- entry


def build_marts(
    inputs: AuditInputs,
    window: str | None = None,
    controls: Sequence[str] = CONTROLS,
    threshold: float = SIZE_THRESHOLD,
    threshold_imps: float = SIZE_THRESHOLD_IMPS,
) -> Marts:
    """The four marts of ``inputs`` (see the module docstring). ``window``: one period with
    this label instead of seasons and months (the reports' ``--from``/``--to``)."""
    sessions = _with_controls(_sessions(inputs), ())
    rul = _rulings(inputs)
    app = _appeals(inputs, rul)
    return Marts(
        penalty_stats=_penalty_stats(_with_controls(rul, ()), sessions, window),
        appeal_stats=_appeal_stats(app, rul, sessions, window),
        director_audit=_director_audit(rul, app, sessions, window, tuple(controls)),
        ruling_discrepancies=_discrepancies(rul, threshold, threshold_imps),
    )


def monthly_appeals(inputs: AuditInputs) -> pl.DataFrame:
    """The rows of the ``appeal_stats`` mart of ``inputs`` by month over every slice
    (``period_kind`` ``month``, ``dimension`` ``all``), sorted by month, as
    :func:`build_marts` makes them: the transparency report's trend. Only those rows are
    computed (not every dimension's, to keep one)."""
    sessions = _with_controls(_sessions(inputs), ())
    rul = _rulings(inputs)
    out = _appeal_stats(_appeals(inputs, rul), rul, sessions, None, dimensions=("all",))
    return out.filter(pl.col("period_kind") == "month")


def key_figures(marts: Marts) -> dict[str, object]:
    """Key figures of the marts (over their seasons, or their window), for the Dagster UI and
    the command line: directors, rulings, appeals, Board-Appeal Ratio, penalties, directors
    flagged, discrepancy cases."""
    d = marts.director_audit
    whole = pl.col("period_kind").is_in(["season", "window"])
    a = marts.appeal_stats.filter((pl.col("dimension") == "all") & whole)
    p = marts.penalty_stats.filter(
        (pl.col("dimension") == "all") & (pl.col("category") == "all") & whole
    )
    boards = int(a["boards_played"].sum()) if a.height else 0
    appeals = int(a["appeals"].sum()) if a.height else 0
    one = d.filter(pl.col("measure") == MEASURES[0])
    return {
        "directors": one["director"].n_unique() if d.height else 0,
        "rulings": int(one["rulings"].sum()) if d.height else 0,
        "appeals": appeals,
        "board_appeal_ratio": round(appeals * 1000 / boards, 3) if boards else 0.0,
        "penalties": int(p["penalties"].sum()) if p.height else 0,
        "directors_flagged": d.filter(pl.col("flagged").fill_null(False))["director"].n_unique()
        if d.height
        else 0,
        "discrepancies": marts.ruling_discrepancies.height,
    }
