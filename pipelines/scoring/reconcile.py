"""A second opinion on every club file: the exporting program's official figures against ours.

A file that a scoring program already scored carries its figures (Compscore's USEBIO: each
traveller line's matchpoints or Butler / cross-IMPs and each pair's ``TOTAL_SCORE``,
``PERCENTAGE``, ``PLACE``; Magic Contest's PBN: ``ScoreTable`` and ``TotalScoreTable``;
RealBridge's PBN: ``ScoreIMP``). :func:`reconcile` compares every such figure with Traveller's
as published (after the profile's display rounding, ``display.*`` and ``imps.imp_decimals``)
and lists, one row per figure not reproduced, both values and a reason a scorer understands.

The reasons are general rules, tried in this order; none names a file or a program:

Traveller lines (``what`` = ``line`` at matchpoints, ``imps`` at IMP forms):

* ``ruling_after_export`` — a ruling of the director's log changed the result after the
  program exported it (Traveller's line carries the adjustment);
* ``artificial_not_on_top`` — the program's figures for an artificial score do not share
  the board's top as the profile's percentages do (Law 12C2(a): 60/50/40 % of the top);
* ``average_over_played_score`` — the program gave exactly average (half the top each) to a
  line that shows a played score: an average entered without the score being changed;
* ``other_result_count`` — matchpoints: the program scored the board with another number of
  results than Traveller has: on every played line of the board (of its section) the NS and
  EW figures add up to one sum, not Traveller's top, and that sum is the top of a whole
  number of results on the profile's scale (``2(n-1)``, or ``n-1`` at 1 per result beaten) —
  a result removed or a pair withdrawn after the program scored, or a late result it never
  saw (an artificial score on the board follows when it is the same share of the program's
  top); tried before ``split_score``, which is one table's ruling, not every line's
  (:func:`other_result_count`);
* ``split_score`` — the program's NS and EW figures add up to more than the board's top: a
  split (non-balancing) adjusted score (Law 12C1(e)) scored NS and EW apart, which the
  file's single score cannot show;
* ``swapped`` — the program's figures are Traveller's NS and EW figures exchanged, while
  equal scores earn equal matchpoints (Law 78A);
* ``across_sections`` — matchpoints: the program compared the board across every section of
  the session (one field): on every line of the board, in every section, its NS and EW
  figures add up to one top, that of the board's results in all sections together, where
  Traveller compares the board within each section (the comparison field is the organiser's
  choice, Law 78A); the session's totals, percentages and places differ with them;
* ``within_sections`` — the other way round: the event compares its boards across the field
  (``compare`` = ``field``) while the program compared each within its section: on every
  line the NS and EW figures add up to the top of its own section's results
  (:func:`within_sections`);
* ``no_other_table`` — teams: the match board has no comparable result at the other table,
  so Traveller scores it by ``imps.missing_board`` and the program's figure has nothing to
  be compared with;
* ``datum_rounding`` — Butler: the program's IMPs are those against the datum rounded to the
  next ten the other way (a trimmed mean ending in an exact 5: ``imps.datum_rounding``);
* ``display_rounding`` — the official figure is Traveller's shown to the program's fewer
  decimals (within half a unit of its last place): the profile shows more (``display.*``);
* ``follows_line`` — another line of the board differs for one of the reasons above, and the
  board's other results were factored around it;
* ``fraction_on_plain_board`` — matchpoints: a line still unexplained whose official
  figures share the board's top but are fractions of the scale's unit (2/1: whole
  matchpoints) where Traveller's, scoring the board by plain comparison, are whole: the
  program scored a weighted score (Law 12C1(c)) or a fouled board (Law 87) — or compared
  against one — that the file's single score per table cannot describe;
* ``unknown`` — none of these: a figure edited by hand, or a rule Traveller does not know.

Totals, percentages and places (``what`` = ``total`` | ``percentage`` | ``place``):

* ``across_sections`` — a session whose boards the program compared across its sections (as
  above): its totals differ for that reason (not taken for running totals);
* ``within_sections`` — a session scored across the field whose boards the program compared
  within each section (as above);
* ``other_result_count`` — a session with boards the program scored with another number of
  results (as above): a contestant who played one of them, or missed boards of the session,
  has a total the program computed on results the file no longer has (or without one it
  has), which cannot be reproduced from the file; given that reason only where the
  program's own total and percentage agree with each other on its top (the median of its
  totals over their percentages), else ``unknown`` (a total changed by hand). A percentage
  that differs alone, on the program's top, has the reason too;
* ``running_totals`` — the official totals cover sessions not in this file (the total over
  the percentage implies a top larger than the session's — than the program's, where it
  scored boards with more results than Traveller has: the top grows by the difference of
  the boards' tops): compared with the event's standings instead, and not comparable where
  those differ;
* ``total_on_boards_played`` / ``total_scaled`` — a contestant who missed boards: the
  program's total is its matchpoints on the boards it played where Traveller's is scaled to
  the full session, or the other way round (``totals.sitout``);
* ``totals_before_adjustment`` — the contestant played a board whose official lines differ
  from ours or carry an artificial score: the program's totals do not follow the traveller
  as exported (the adjusted score was entered after the totals were computed);
* ``tie_shared`` — a place the program shares among contestants with equal totals where
  Traveller broke the tie as the profile says (``ranking.tiebreak``, ``imps.team_tiebreak``):
  the contestant's place is the best of its tied set. Magic Contest breaks ties in an
  event's ranking, not in the ranking of one session of a longer event (its
  ``SessionRank``, with ``SessionRankTie``);
* ``display_rounding`` as above, for a total or a percentage;
* ``follows_total`` — a percentage or place that follows from a total which differs (the
  contestant's own, or for a place another's in the same ranking);
* ``unknown`` as above.

A summary row per file counts the figures compared, reproduced, differing (explained and
unexplained) and not comparable, and says whether the file's sessions are held under the
profile's ``reconciliation.on_difference`` (``action``): ``provisional`` or ``held`` for a
file with a difference other than ``ruling_after_export`` (an adjusted score Traveller
knows about) under ``provisional`` / ``hold``, else ``published``.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

import polars as pl

from pipelines import profiles
from pipelines.profiles import ProfileSet
from pipelines.tables import table

#: The columns of the ``reconciliation`` table and of its per-file summary
#: ``reconciliation_files`` (the registry's, :mod:`pipelines.tables`).
RECONCILIATION_COLUMNS: tuple[str, ...] = tuple(table("reconciliation").names)
SUMMARY_COLUMNS: tuple[str, ...] = tuple(table("reconciliation_files").names)

EXPLANATIONS: dict[str, str] = {
    "ruling_after_export": "adjusted score entered after export (a ruling of the director's "
    "log changed this result)",
    "artificial_not_on_top": "the program's artificial score does not share the board's top "
    "as 60/50/40 % of it (Law 12C2(a))",
    "average_over_played_score": "the program gave average to a played score: an average "
    "entered without the score being changed",
    "split_score": "the program gave a split (non-balancing) adjusted score, NS and EW scored "
    "apart (Law 12C1(e)), more than the board's top between them; the file shows one score",
    "swapped": "the program's NS and EW figures are exchanged; equal scores earn equal "
    "matchpoints (Law 78A)",
    "datum_rounding": "program rounds the datum's exact half the other way (profile "
    "imps.datum_rounding)",
    "across_sections": "the program compared the board across every section of the session "
    "(one field); Traveller compares it within its section (Law 78A: the field is the "
    "organiser's choice): the matchpoints, totals, percentages and places differ (compare = "
    "field in the event's events.csv row scores it across the field)",
    "within_sections": "the program compared the board within its section, where the event "
    "compares it across every section of the session (events.csv compare = field; Law 78A: "
    "the field is the organiser's choice): the matchpoints, totals, percentages and places "
    "differ",
    "no_other_table": "the match board has no result at the other table: Traveller gives each "
    "team the profile's imps.missing_board (Law 86); the program's figure has no comparison",
    "display_rounding": "the same figure: the program shows fewer decimals than the profile "
    "(display.mp_decimals, total_decimals, percentage_decimals, imps.imp_decimals)",
    "follows_line": "follows from another line of this board that differs: the board's other "
    "results were factored around it",
    "running_totals": "official totals cover sessions not in this file (event running totals)",
    "total_on_boards_played": "the program's total is the matchpoints on the boards played; "
    "Traveller scales it to the full session (profile totals.sitout)",
    "total_scaled": "the program scales the total to the full session; Traveller counts the "
    "boards played (profile totals.sitout)",
    "totals_before_adjustment": "the program's totals were computed before an adjusted score "
    "on a board this contestant played was entered",
    "follows_total": "follows from a total that differs",
    "tie_shared": "the program shares this place among contestants with equal totals; "
    "Traveller breaks the tie as the profile says (ranking.tiebreak; imps.team_tiebreak at "
    "teams) — Magic Contest does so in an event's ranking, not in the ranking of one session "
    "of a longer event",
    "other_result_count": "the program scored the board with another number of results than "
    "Traveller has (every line on the top of that number): a result removed, a pair withdrawn "
    "or a late result added since the program scored it",
    "fraction_on_plain_board": "the program's matchpoints are fractions on a board Traveller "
    "scores by plain comparison: a weighted score (Law 12C1(c)) or a fouled board (Law 87) "
    "the file cannot describe",
    "unknown": "hand-edited figure or a rule Traveller does not know — unexplained",
}

KNOWN_ADJUSTMENT = {"ruling_after_export"}
_EPS = 1e-9


def empty() -> pl.DataFrame:
    """An empty reconciliation frame."""
    return pl.DataFrame({c: pl.Series([], dtype=pl.Utf8) for c in RECONCILIATION_COLUMNS})


def empty_summary() -> pl.DataFrame:
    """An empty per-file summary."""
    types = {c: pl.Int64 for c in SUMMARY_COLUMNS} | {
        c: pl.Utf8 for c in ("file", "event_id", "profile", "on_difference")
    }
    types["running_totals"] = pl.Boolean
    types["action"] = pl.Utf8
    return pl.DataFrame(schema=types)


def round_as_shown(x: float, decimals: int) -> float:
    """``x`` to ``decimals`` places, exact halves to even (how a figure is compared)."""
    q = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(x)).quantize(q, rounding=ROUND_HALF_EVEN))


def _num(v: Any) -> float | None:
    try:
        return None if v is None or str(v).strip() in ("", "-") else float(str(v).strip())
    except ValueError:
        return None


def _same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) < 1e-6


def _fmt(ns: Any, ew: Any) -> str:
    def one(v: Any) -> str:
        return "-" if v is None else f"{float(v):g}"

    return f"{one(ns)}/{one(ew)}"


def _line_reason(r: dict, imp: bool, butler_alt: dict | None) -> str:
    """The reason for one differing traveller line (see the module docstring)."""
    on, oe = r["source_ns_mp"], r["source_ew_mp"]
    tn, te = r["__ns"], r["__ew"]
    top = r.get("top_display")
    if r.get("adjustment") is not None:
        return "ruling_after_export"
    if r.get("missing_result"):
        return "no_other_table"
    if not imp and r["kind"] == "artificial" and on is not None and oe is not None and top:
        if not _same(on + oe, top) and not (_same(tn, on) or _same(te, oe)):
            return "artificial_not_on_top"
    if not imp and r["kind"] == "played" and top and _same(on, top / 2) and _same(oe, top / 2):
        return "average_over_played_score"
    if not imp and top and on is not None and oe is not None and on + oe > top + 1e-6:
        return "split_score"
    if _same(on, te) and _same(oe, tn):
        return "swapped"
    if butler_alt is not None and _same(on, butler_alt["ns"]) and _same(oe, butler_alt["ew"]):
        return "datum_rounding"
    if _coarser(on, tn) and _coarser(oe, te):
        return "display_rounding"
    return "unknown"


def _fraction_on_plain_board(r: dict, profs: ProfileSet) -> bool:
    """Matchpoints: the official figures share the top (a balanced score) and are not whole
    units of the profile's scale, while Traveller's are (a board compared plainly)."""
    on, oe, tn, te = r["source_ns_mp"], r["source_ew_mp"], r["__ns"], r["__ew"]
    top = r.get("top_display")
    if r["__imp"] or None in (on, oe, tn, te) or not top or not _same(on + oe, top):
        return False
    unit = 1 / profs[r.get("profile")].unit_den

    def whole(v: float) -> bool:
        return abs(v / unit - round(v / unit)) < 1e-6

    return whole(tn) and whole(te) and not (whole(on) and whole(oe))


def _decimals(v: float) -> int:
    """The fewest decimals (0..4) that show ``v`` exactly."""
    return next((d for d in range(5) if abs(round(v, d) - v) < 1e-9), 5)


def _coarser(official: float | None, ours: float | None, shown: int | None = None) -> bool:
    """``official`` is ``ours`` shown to the program's fewer decimals (``shown``, else as
    few as ``official`` needs): within half a unit of its last place, and ``ours`` needs
    more decimals than that."""
    if official is None or ours is None:
        return official is None and ours is None
    d = _decimals(official) if shown is None else shown
    return _decimals(ours) > d and abs(official - ours) <= 0.5 * 10**-d + 1e-9


def _butler_alternative(r: dict) -> dict | None:
    """Butler IMPs against the datum one ten up or down (the other rounding of a half)."""
    from pipelines.laws.imps import imps

    if (
        r.get("scoring") != "butler"
        or r["kind"] != "played"
        or r.get("datum") is None
        or r.get("ns_score") is None
        or r.get("source_ns_mp") is None
    ):
        return None
    for d in (r["datum"] + 10, r["datum"] - 10):
        v = imps(int(r["ns_score"]) - int(d))
        if _same(r["source_ns_mp"], float(v)):
            return {"ns": float(v), "ew": float(-v)}
    return None


def across_sections(lines: pl.DataFrame) -> set[tuple]:
    """The boards (``file, event_id, session, deal_round, board``) a program scored across
    every section of the session, at matchpoints: the board is in two sections or more, and
    on every one of its lines with official figures the NS and EW figures add up to one
    top, that of the played results of all its sections compared together — each section's
    top per result beaten (``top_display`` over its results less one) times all the
    sections' played results less one — and larger than each section's own top."""
    if not lines.height or "n_results" not in lines.columns:
        return set()
    key = ["file", "event_id", "session", "deal_round", "board"]
    mp = lines.filter(
        ~pl.col("__imp")
        & pl.col("source_ns_mp").is_not_null()
        & pl.col("source_ew_mp").is_not_null()
    )
    if not mp.height:
        return set()
    official = pl.col("source_ns_mp") + pl.col("source_ew_mp")
    played = mp.filter(pl.col("kind") == "played")
    sections = played.group_by(*key, "section").agg(
        pl.len().alias("__n"),
        (pl.col("top_display") / (pl.col("n_results") - 1)).first().alias("__unit"),
        pl.col("top_display").max().alias("__top"),
    )
    fields = sections.group_by(key).agg(
        pl.col("__n").sum().alias("__all"),
        pl.len().alias("__sections"),
        pl.col("__unit").min().alias("__lo"),
        pl.col("__unit").max().alias("__hi"),
        pl.col("__top").max().alias("__top"),
    )
    sums = (
        mp.filter(pl.col("kind") == "played")
        .group_by(key)
        .agg(official.min().alias("__min"), official.max().alias("__max"))
    )
    found = (
        fields.join(sums, on=key, how="inner", nulls_equal=True)
        .filter(
            (pl.col("__sections") >= 2)
            & ((pl.col("__hi") - pl.col("__lo")).abs() < 1e-9)
            & ((pl.col("__max") - pl.col("__min")).abs() < 1e-6)
            & ((pl.col("__min") - pl.col("__lo") * (pl.col("__all") - 1)).abs() < 1e-6)
            & (pl.col("__min") > pl.col("__top") + 1e-6)
        )
        .select(key)
    )
    return {tuple(r) for r in found.iter_rows()}


def within_sections(lines: pl.DataFrame) -> set[tuple]:
    """The boards (``file, event_id, session, deal_round, board``) of a session scored across
    the field (``compare`` = ``field``) that the program compared within each section, at
    matchpoints: the board is in two sections or more, and on every one of its lines with
    official figures the NS and EW figures add up to the top of its own section's played
    results — Traveller's top per result beaten (``top_display`` over the field's results
    less one) times its section's results less one — smaller than Traveller's field top."""
    if not lines.height or "n_results" not in lines.columns or "compare" not in lines.columns:
        return set()
    key = ["file", "event_id", "session", "deal_round", "board"]
    mp = lines.filter(
        ~pl.col("__imp")
        & (pl.col("compare") == "field")
        & (pl.col("kind") == "played")
        & (pl.col("n_results") > 1)
        & pl.col("source_ns_mp").is_not_null()
        & pl.col("source_ew_mp").is_not_null()
    )
    if not mp.height:
        return set()
    unit = pl.col("top_display") / (pl.col("n_results") - 1)
    own_top = unit * (pl.len().over(*key, "section") - 1)
    off = (pl.col("source_ns_mp") + pl.col("source_ew_mp") - own_top).abs()
    found = (
        mp.with_columns(off.alias("__off"), (own_top < pl.col("top_display") - 1e-6).alias("__lt"))
        .group_by(key)
        .agg(
            pl.col("section").n_unique().alias("__sections"),
            pl.col("__off").max().alias("__off"),
            pl.col("__lt").all().alias("__lt"),
        )
        .filter((pl.col("__sections") >= 2) & (pl.col("__off") < 1e-6) & pl.col("__lt"))
        .select(key)
    )
    return {tuple(r) for r in found.iter_rows()}


def other_result_count(lines: pl.DataFrame, profs: ProfileSet | None = None) -> dict[tuple, dict]:
    """The boards (``file, event_id, session, section, deal_round, board``) the program
    scored with another number of results than Traveller has, at matchpoints: on every
    played line of the board with official figures (two lines or more) the NS and EW
    figures add up to one sum, not Traveller's top for the board, and that sum is the top
    of a whole number of results on the profile's scale (``2(n-1)`` at 2 per result beaten,
    ``n-1`` at 1) — a result removed (or a pair withdrawn) after the program scored, or a
    late result it never saw. A split score is one table's ruling: one line above the top,
    not every line on another top.

    Not taken for another count: a sum that is Traveller's top on the other scale (the
    program uses the other scale), and, on a board short of its movement's results, the
    program showing the board factored to the results expected (fractions on their top)
    where Traveller shows it unfactored, or the other way round (whole units on the top of
    the results played).

    Each board maps to ``{"sum", "top", "program", "traveller"}``: the program's sum, our
    top, and the numbers of results the two tops stand for."""
    profs = ProfileSet.ensure(profs)
    if not lines.height or "top_display" not in lines.columns:
        return {}
    key = ["file", "event_id", "session", "section", "deal_round", "board"]
    official = pl.col("source_ns_mp") + pl.col("source_ew_mp")
    played = lines.filter(
        ~pl.col("__imp")
        & (pl.col("kind") == "played")
        & pl.col("source_ns_mp").is_not_null()
        & pl.col("source_ew_mp").is_not_null()
        & pl.col("top_display").is_not_null()
    )
    if not played.height:
        return {}
    extra = [c for c in ("n_results", "expected") if c in played.columns]
    boards = (
        played.group_by(key)
        .agg(
            pl.len().alias("__lines"),
            official.min().alias("__min"),
            official.max().alias("__max"),
            pl.col("top_display").min().alias("__tlo"),
            pl.col("top_display").max().alias("__top"),
            pl.col("profile").first().alias("__profile"),
            pl.col("source_ns_mp").alias("__ns_figures"),
            pl.col("source_ew_mp").alias("__ew_figures"),
            pl.col("__ns").alias("__ns_ours"),
            pl.col("__ew").alias("__ew_ours"),
            *(pl.col(c).first().alias(f"__{c}") for c in extra),
        )
        .filter(
            (pl.col("__lines") >= 2)
            & ((pl.col("__max") - pl.col("__min")).abs() < 1e-6)
            & ((pl.col("__top") - pl.col("__tlo")).abs() < 1e-6)
            & ((pl.col("__min") - pl.col("__top")).abs() > 1e-6)
        )
    )
    found: dict[tuple, dict] = {}
    for r in boards.iter_rows(named=True):
        u = profs[r["__profile"]].unit_den
        total, top = r["__min"], r["__top"]
        program, ours = total * u / 2 + 1, top * u / 2 + 1  # the results each top stands for
        if abs(program - round(program)) > 1e-6 or round(program) < 2:
            continue
        if abs(total - (top / 2 if u == 1 else top * 2)) < 1e-6:
            continue  # Traveller's top on the other scale
        if r["__lines"] > round(program) + 1e-6:
            continue  # more tables have the program's figures than results it scored
        n, expected = r.get("__n_results"), r.get("__expected")
        if (n is None or abs(ours - n) < 1e-6) and not _recounted_figures(r, program - ours, u):
            continue  # not these results' figures with results removed or added
        if n is not None and expected is not None and n != expected:
            figures = r["__ns_figures"] + r["__ew_figures"]
            whole = all(abs(v * u - round(v * u)) < 1e-6 for v in figures)
            shown_raw = abs(ours - n) < 1e-6
            if shown_raw and abs(program - expected) < 1e-6 and not whole:
                continue  # the program shows the short board factored, Traveller does not
            if not shown_raw and abs(program - n) < 1e-6 and whole:
                continue  # the program shows the short board unfactored, Traveller factors it
        found[tuple(r[k] for k in key)] = {
            "sum": total,
            "top": top,
            "program": round(program),
            "traveller": round(ours),
        }
    return found


def _recounted_figures(r: dict, k: float, u: int) -> bool:
    """Whether the program's figures of a board's lines (``r``: :func:`other_result_count`'s
    aggregate) are Traveller's with ``k`` results more (``k`` < 0: fewer): each result
    removed gives every line's NS and EW between 0 and a whole result beaten (``2/u``),
    each result added takes as much from them. Figures no count of results explains (the
    program's matchpoints reversed, every line given the same) are not another count."""
    lo, hi = (0.0, k * 2 / u) if k > 0 else (k * 2 / u, 0.0)
    pairs = zip(r["__ns_figures"] + r["__ew_figures"], r["__ns_ours"] + r["__ew_ours"], strict=True)
    return all(
        o is not None and t is not None and lo - 1e-6 <= o - t <= hi + 1e-6 for o, t in pairs
    )


#: A board of one section: the key of :func:`other_result_count`.
_BOARD = ("file", "event_id", "session", "section", "deal_round", "board")


def _on_program_top(r: dict, info: dict, profs: ProfileSet) -> bool:
    """A line of a board the program scored with another number of results: a played one,
    or an artificial score that is the same share of the program's top as ours is of our
    top (within the profile's shown decimals)."""
    if r["kind"] == "played":
        return True
    on, oe, tn, te = r["source_ns_mp"], r["source_ew_mp"], r["__ns"], r["__ew"]
    if r["kind"] != "artificial" or None in (on, oe, tn, te) or not info["top"]:
        return False
    scale = info["sum"] / info["top"]
    slack = 10 ** -profs[r.get("profile")].mp_decimals * max(scale, 1) + 1e-6
    return abs(on - tn * scale) <= slack and abs(oe - te * scale) <= slack


def _other_count_words(info: dict) -> str:
    """The explanation of a line of a board scored with another number of results."""
    p, t = info["program"], info["traveller"]
    more = "removed (or a pair withdrawn)" if p > t else "added (a late result)"
    return (
        f"the program scored this board with {p} results (a top of {info['sum']:g}), "
        f"Traveller has {t} (a top of {info['top']:g}): a result {more} since the program "
        "scored it (every line is on that top; a split score is one table's)"
    )


def compare_lines(
    scored: pl.DataFrame, *, profs: ProfileSet | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each traveller line with official figures: ``(compared, differing)``.

    ``compared`` has one row per line (file, event, board, pairs); ``differing`` the rows of
    :data:`RECONCILIATION_COLUMNS` for the lines not reproduced as shown."""
    profs = ProfileSet.ensure(profs)
    if scored.height == 0 or "source_ns_mp" not in scored.columns:
        return scored.clear(), empty()
    x = scored.filter(pl.col("source_ns_mp").is_not_null() | pl.col("source_ew_mp").is_not_null())
    if x.height == 0:
        return x, empty()
    x = (
        x.with_columns(
            pl.lit(None, pl.Float64).alias(c)
            for c in ("ns_imps_display", "ew_imps_display", "datum", "top_display", "ns_score")
            if c not in x.columns
        )
        .with_columns(pl.lit(None, pl.Utf8).alias(c) for c in ("adjustment",) if c not in x.columns)
        .with_columns(
            pl.lit(None, pl.Boolean).alias(c) for c in ("missing_result",) if c not in x.columns
        )
    )
    imp = pl.col("scoring").is_in(["butler", "cross_imps", "imps"])
    x = x.with_columns(
        pl.when(imp)
        .then(pl.col("ns_imps_display"))
        .otherwise(pl.col("ns_mp_display"))
        .alias("__ns"),
        pl.when(imp)
        .then(pl.col("ew_imps_display"))
        .otherwise(pl.col("ew_mp_display"))
        .alias("__ew"),
        imp.alias("__imp"),
    )
    ok = lambda o, t: (o.is_null()) | ((o - t).abs() < 1e-6)  # noqa: E731
    x = x.with_columns(
        (
            ok(pl.col("source_ns_mp"), pl.col("__ns")) & ok(pl.col("source_ew_mp"), pl.col("__ew"))
        ).alias("__ok")
    )
    bad = x.filter(~pl.col("__ok"))
    across = across_sections(x)
    within = within_sections(x)
    recount = other_result_count(x, profs)
    board_key = ("file", "event_id", "session", "deal_round", "board")
    rows: list[dict] = []
    for r in bad.iter_rows(named=True):
        if tuple(r.get(k) for k in board_key) in across:
            rows.append({**r, "__code": "across_sections"})
            continue
        if tuple(r.get(k) for k in board_key) in within:
            rows.append({**r, "__code": "within_sections"})
            continue
        info = recount.get(tuple(r.get(k) for k in _BOARD))
        if info is not None and r.get("adjustment") is None and _on_program_top(r, info, profs):
            rows.append({**r, "__code": "other_result_count", "__why": _other_count_words(info)})
            continue
        alt = _butler_alternative(r)
        code = _line_reason(r, r["__imp"], alt)
        rows.append({**r, "__code": code})
    # a board with a line explained by a program's own entry: its other lines follow from it
    cause = {
        (r["file"], r["event_id"], r["session"], r["section"], r["deal_round"], r["board"])
        for r in rows
        if r["__code"]
        in ("average_over_played_score", "artificial_not_on_top", "swapped", "split_score")
    }
    out = []
    for r in rows:
        key = (r["file"], r["event_id"], r["session"], r["section"], r["deal_round"], r["board"])
        code = r["__code"]
        if code == "unknown" and key in cause:
            code = "follows_line"
        elif code == "unknown" and _fraction_on_plain_board(r, profs):
            code = "fraction_on_plain_board"
        out.append(
            {
                "file": r["file"],
                "location": r["location"],
                "event_id": r["event_id"],
                "session": str(r["session"]),
                "section": r["section"],
                "board": str(r["board"]),
                "contestant": f"{r['ns_pair']}-{r['ew_pair']}",
                "direction": None,
                "what": "imps" if r["__imp"] else "line",
                "official": _fmt(r["source_ns_mp"], r["source_ew_mp"]),
                "traveller": _fmt(r["__ns"], r["__ew"]),
                "code": code,
                "explanation": r.get("__why") or EXPLANATIONS[code],
            }
        )
    frame = pl.DataFrame(out, schema=dict.fromkeys(RECONCILIATION_COLUMNS, pl.Utf8))
    return x, frame if out else empty()


def compare_standings(
    official: pl.DataFrame,
    sessions: pl.DataFrame,
    events: pl.DataFrame,
    scored: pl.DataFrame,
    line_diffs: pl.DataFrame,
    *,
    profs: ProfileSet | None = None,
) -> tuple[list[dict], dict[str, dict[str, int]], set[tuple[str, str]]]:
    """Official totals, percentages and places against the newest session standings (or the
    event's standings where the file carries running totals).

    Returns the difference rows, per-file counts ``{file: {compared, not_comparable}}`` and the
    (file, event) pairs recognised as running totals."""
    profs = ProfileSet.ensure(profs)
    rows: list[dict] = []
    counts: dict[str, dict[str, int]] = {}
    running: set[tuple[str, str]] = set()
    if official.height == 0:
        return rows, counts, running
    # the sessions whose boards the program compared in another field than Traveller (across
    # its sections, or within them): their totals too, for the same reason
    across = (
        {
            (f, e, str(n)): code
            for f, e, n, code in line_diffs.filter(
                pl.col("code").is_in(["across_sections", "within_sections"])
            )
            .select("file", "event_id", "session", "code")
            .iter_rows()
        }
        if line_diffs.height
        else {}
    )
    # the sessions with boards the program scored with another number of results: how much
    # larger (or smaller) the program's top is, and the contestants who played those boards
    scale, reached = _recounted(scored, line_diffs)
    # boards each contestant played on which the official lines differ or a score is artificial
    touched: dict[tuple[str, str], set[str]] = {}
    if scored.height:
        marked = scored.filter(pl.col("kind") != "played").select(
            "file", "session", "section", "board"
        )
        if line_diffs.height:
            marked = pl.concat(
                [
                    marked.with_columns(
                        pl.col("session").cast(pl.Utf8), pl.col("board").cast(pl.Utf8)
                    ),
                    line_diffs.select("file", "session", "section", "board"),
                ]
            )
        else:
            marked = marked.with_columns(
                pl.col("session").cast(pl.Utf8), pl.col("board").cast(pl.Utf8)
            )
        boards = {tuple(r) for r in marked.unique().iter_rows()}
        for r in scored.select(
            "file", "session", "section", "board", "ns_pair", "ew_pair"
        ).iter_rows():
            f, s, sec, b, ns, ew = r
            if (f, str(s), sec, str(b)) in boards:
                for c in (ns, ew):
                    touched.setdefault((f, c), set()).add(str(b))
    for file, off in official.group_by("file", maintain_order=True):
        file = file[0]
        c = counts.setdefault(file, {"compared": 0, "not_comparable": 0})
        if "figures" not in off.columns:
            off = off.with_columns(pl.lit(None, pl.Utf8).alias("figures"))
        for (event_id, session, figures), o in off.group_by(
            "event_id", "session", "figures", maintain_order=True
        ):
            ours = sessions.filter(
                (pl.col("event_id") == event_id) & (pl.col("session").cast(pl.Utf8) == str(session))
            )
            ev = events.filter(pl.col("event_id") == event_id)
            prof = profs[ours["profile"][0] if ours.height else None]
            mine = _join(o, ours)
            whole_field = (file, event_id, str(session)) in across
            sections = scale.get((file, event_id, str(session)))
            recount = sections is not None
            program_top = _program_top(mine) if recount else None
            # a session's own figures (beside running totals) are the session's, never running
            is_running = (
                figures != "session"
                and not whole_field
                and _is_running(mine, max((sections or {1: 1.0}).values()))
            )
            if is_running:
                running.add((file, event_id))
                mine = _join(o, ev)
                scope_words = " (the event's standings)"
                if not all(
                    r["__ours"] is not None
                    and _same(_num(r["total"]), r["__ours"]["score_display"])
                    for r in mine
                ):
                    # the event's standings in the warehouse do not cover those sessions
                    c["not_comparable"] += sum(
                        v is not None
                        for r in mine
                        for v in (r["total"], r["percentage"], r["place"])
                    )
                    continue
            else:
                scope_words = ""
            group_bad: set[str] = set()
            pending: list[dict] = []
            shared = _shared_places(mine)
            for r in mine:
                if r["__ours"] is None:
                    c["not_comparable"] += sum(
                        v is not None for v in (r["total"], r["percentage"], r["place"])
                    )
                    continue
                t = r["__ours"]
                bad_total = recounted = False
                for what, ov, tv in (
                    ("total", _num(r["total"]), t["score_display"]),
                    ("percentage", _num(r["percentage"]), t["percentage_display"]),
                    ("place", _num(r["place"]), t["rank"]),
                ):
                    if ov is None:
                        continue
                    if tv is None:
                        c["not_comparable"] += 1
                        continue
                    c["compared"] += 1
                    if _same(ov, float(tv)):
                        continue
                    if is_running:
                        c["compared"] -= 1
                        c["not_comparable"] += 1
                        continue
                    code = "unknown"
                    shown = len(str(r[what]).strip().partition(".")[2])
                    if what != "place" and _coarser(ov, float(tv), shown):
                        code = "display_rounding"
                    elif what == "total":
                        bad_total = True
                        if whole_field:
                            code = across[(file, event_id, str(session))]
                        elif recount and ((file, r["contestant"]) in reached or _missed(t)):
                            # the program's total counts its results on those boards: not
                            # reproducible from the file, but its own total and percentage
                            # must agree on its top (else the total was changed by hand)
                            code = "other_result_count" if _on_top(r, program_top) else "unknown"
                        else:
                            code = _total_reason(
                                r, t, ov, prof, touched.get((file, r["contestant"]))
                            )
                    elif (
                        what == "percentage"
                        and recount
                        and _num(r["total"]) is not None
                        and _on_top(r, program_top)
                    ):
                        # the program's percentage is over its own top
                        code = "other_result_count"
                        recounted = True
                    elif what == "place" and t.get("tiebreak"):
                        # a tie Traveller broke: the program shares the tied set's best place
                        if ov == shared.get(_tie_key(t)):
                            code = "tie_shared"
                    pending.append(
                        {
                            "file": file,
                            "location": r["location"],
                            "event_id": event_id,
                            "session": str(session),
                            "section": r["section"],
                            "board": None,
                            "contestant": r["contestant"],
                            "direction": r["direction"],
                            "what": what,
                            "official": str(r[what]).strip(),
                            "traveller": f"{float(tv):g}" + scope_words,
                            "code": code,
                            "__bad_total": bad_total,
                        }
                    )
                if bad_total or recounted:
                    group_bad.add(r["contestant"])
            for p in pending:
                if p["code"] in ("display_rounding", "tie_shared"):
                    pass
                elif p["what"] == "percentage" and p["__bad_total"]:
                    p["code"] = "follows_total"
                elif p["what"] == "place" and group_bad:
                    p["code"] = "follows_total"
                elif p["what"] == "percentage" and p["code"] == "other_result_count":
                    pass
                elif p["what"] == "percentage" and not p["__bad_total"]:
                    # no total in the file (percentage only): a sit-out or an adjustment;
                    # not where the program's percentage is off its own top (changed by hand)
                    if touched.get((file, p["contestant"])) and not recount:
                        p["code"] = "totals_before_adjustment"
                p.pop("__bad_total")
                p["explanation"] = (
                    _OTHER_COUNT_TOTAL
                    if p["code"] == "other_result_count"
                    else EXPLANATIONS[p["code"]]
                )
                rows.append(p)
    return rows, counts, running


def _tie_key(t: dict) -> tuple:
    """A standing's ranking group and exact result as shown: contestants tied on it share a
    place unless a tiebreak separates them."""
    return (t["section"], t.get("direction"), t["score_display"], t["percentage_display"])


def _shared_places(mine: list[dict]) -> dict[tuple, int]:
    """The best place of each set of our contestants tied on their result (:func:`_tie_key`),
    that is the place the set shares where no tiebreak separates them."""
    best: dict[tuple, int] = {}
    for r in mine:
        if (t := r["__ours"]) is not None and t["rank"] is not None:
            k = _tie_key(t)
            best[k] = min(best.get(k, t["rank"]), int(t["rank"]))
    return best


def _join(off: pl.DataFrame, ours: pl.DataFrame) -> list[dict]:
    """Each official row with its contestant's standing (direction where ours has one)."""
    idx: dict[tuple, dict] = {}
    for r in ours.iter_rows(named=True):
        idx[(str(r["section"]), str(r["contestant"]), r["direction"])] = r
        idx.setdefault((str(r["section"]), str(r["contestant"]), "*"), r)
    out = []
    for r in off.iter_rows(named=True):
        sec = str(r["section"]) if r["section"] is not None else None
        cands = [s for s in {str(k[0]) for k in idx}] if sec is None else [sec]
        hit = None
        for s in cands:
            hit = idx.get((s, str(r["contestant"]), r["direction"])) or idx.get(
                (s, str(r["contestant"]), None)
            )
            if hit is None and r["direction"] is not None:
                hit = idx.get((s, str(r["contestant"]), "*"))
                if hit is not None and hit["direction"] is not None:
                    hit = None
            if hit:
                break
        out.append({**r, "__ours": hit})
    return out


def _is_running(mine: list[dict], scale: float = 1.0) -> bool:
    """The official totals are event running totals: a total above the session's top, or a
    total over its percentage implying a top larger than the session's (a session's total
    cannot exceed its top). ``scale``: the program's top over ours where it scored boards
    with more results than Traveller has (:func:`_recounted`): a larger top for that reason
    is not another session's."""
    tops = [r["__ours"]["top"] for r in mine if r["__ours"] and r["__ours"].get("top")]
    top = max(tops) * max(scale, 1.0) if tops else None
    for r in mine:
        t, p, ours = _num(r["total"]), _num(r["percentage"]), r["__ours"]
        if t is None or ours is None:
            continue
        if top and t > top * (1 + 1e-6):
            return True
        if top and p and p > 0 and t / (p / 100) > top * 1.05:
            return True
    return False


#: The explanation of a total or percentage of a session whose boards the program scored
#: with another number of results.
_OTHER_COUNT_TOTAL = (
    "the program's total counts the results it had on boards this contestant played, another "
    "number than Traveller has (see those boards' lines): it cannot be reproduced from this "
    "file; the program's total and percentage agree with each other on its top"
)


def _recounted(
    scored: pl.DataFrame, line_diffs: pl.DataFrame
) -> tuple[dict[tuple, dict[Any, float]], set[tuple[str, str]]]:
    """The sessions (``file, event_id, session``) with boards the program scored with another
    number of results (``other_result_count`` lines): per section, the program's top over
    ours — ``1 + sum(program's top - ours on those boards) / sum(our counted tops)`` — and the
    (file, contestant) pairs that played one of those boards."""
    if not line_diffs.height or not scored.height or "top_display" not in scored.columns:
        return {}, set()
    key = ["file", "event_id", "session", "section", "board"]
    marked = (
        line_diffs.filter(pl.col("code") == "other_result_count")
        .select(*key)
        .unique()
        .with_columns(pl.lit(True).alias("__marked"))
    )
    if not marked.height:
        return {}, set()
    lines = scored.with_columns(
        pl.col("session").cast(pl.Utf8), pl.col("board").cast(pl.Utf8)
    ).join(marked, on=key, how="left", nulls_equal=True)
    counted = "top" if "top" in lines.columns else "top_display"
    official = pl.col("source_ns_mp") + pl.col("source_ew_mp")
    boards = (
        lines.filter(pl.col("kind") == "played")
        .group_by(*key, "deal_round")
        .agg(
            pl.col("__marked").any().alias("__marked"),
            pl.col(counted).max().alias("__counted"),
            pl.col("top_display").max().alias("__shown"),
            official.median().alias("__program"),
        )
        .with_columns(
            pl.when(pl.col("__marked"))
            .then(pl.col("__program") - pl.col("__shown"))
            .otherwise(0.0)
            .alias("__shift")
        )
    )
    per = (
        boards.group_by("file", "event_id", "session", "section")
        .agg(
            pl.col("__marked").any().alias("__any"),
            pl.col("__shift").sum().alias("__shift"),
            pl.col("__counted").sum().alias("__counted"),
        )
        .filter(pl.col("__any") & (pl.col("__counted") > 0))
    )
    scale: dict[tuple, dict[Any, float]] = {}
    for f, e, n, sec, _, shift, tops in per.iter_rows():
        scale.setdefault((f, e, n), {})[sec] = 1 + shift / tops
    played = lines.filter(pl.col("__marked").fill_null(False))
    reached = {
        (f, str(c))
        for f, ns, ew in played.select("file", "ns_pair", "ew_pair").iter_rows()
        for c in (ns, ew)
    }
    return scale, reached


def _missed(t: dict) -> bool:
    """The contestant of standing ``t`` missed boards of its session (a board it played,
    with a result removed since, may be among them)."""
    full, boards = t.get("__full"), t.get("boards")
    return bool(full and boards and boards < full)


def _program_top(mine: list[dict]) -> float | None:
    """The top the program's percentages are over: the median of its totals over their
    percentages (a whole number when within a thousandth of one, as tops are)."""
    implied = sorted(
        t / (p / 100)
        for r in mine
        if (t := _num(r["total"])) is not None and (p := _num(r["percentage"])) and p > 0
    )
    if not implied:
        return None
    mid = len(implied) // 2
    top = implied[mid] if len(implied) % 2 else (implied[mid - 1] + implied[mid]) / 2
    return float(round(top)) if abs(top - round(top)) <= top * 1e-3 else top


def _on_top(r: dict, top: float | None) -> bool:
    """The program's total and percentage agree with each other on its top ``top`` (the
    percentage as shown, within one unit of its last decimal); true where the file gives
    no percentage or total to check."""
    t, p = _num(r["total"]), _num(r["percentage"])
    if t is None or p is None or top is None:
        return True
    d = len(str(r["percentage"]).strip().partition(".")[2])
    return abs(round_as_shown(t / top * 100, d) - p) <= 10**-d + 1e-9


def _total_reason(
    r: dict, t: dict, official: float, prof: profiles.Profile, touched: set[str] | None
) -> str:
    """Why a contestant's official total differs (see the module docstring)."""
    full, boards = t.get("__full"), t.get("boards")
    score = t["score"]
    if full and boards and boards < full and t.get("unit") == "MP":
        d = prof.total_decimals
        if prof.sitout == "scale_to_full" and _same(
            official, round_as_shown(score * boards / full, d)
        ):
            return "total_on_boards_played"
        if prof.sitout == "none" and _same(official, round_as_shown(score * full / boards, d)):
            return "total_scaled"
    # the program computed total and percentage together on another traveller: both differ
    pct, ours_pct = _num(r["percentage"]), t.get("percentage_display")
    consistent = pct is None or ours_pct is None or not _same(pct, ours_pct)
    top = t.get("top")
    if pct is not None and top:
        # or the program's own total and percentage agree with each other (the percentage as
        # shown, i.e. rounded to its decimals)
        d = len(str(r["percentage"]).strip().partition(".")[2])
        consistent = consistent or _same(round_as_shown(official / top * 100, d), pct)
    if touched and consistent:
        return "totals_before_adjustment"
    return "unknown"


def reconcile(
    scored: pl.DataFrame,
    standings: pl.DataFrame,
    source_standings: pl.DataFrame,
    files: list[str] | None = None,
    *,
    profs: ProfileSet | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every official figure of every file against Traveller's: ``(differences, summary)``.

    ``scored``: the newest scored results (with the program's ``source_ns_mp``/``source_ew_mp``);
    ``standings``: the standings (session and event scope, newest versions);
    ``source_standings``: the program's totals, percentages and places as read;
    ``profs``: the profiles, each loaded once for the whole comparison.
    """
    profs = ProfileSet.ensure(profs)
    newest = standings.filter(pl.col("status") != "superseded") if standings.height else standings
    sessions = newest.filter(pl.col("scope") == "session") if newest.height else newest
    events = newest.filter(pl.col("scope") == "event") if newest.height else newest
    if sessions.height:
        # the boards the fullest contestant of each ranking group played (standings'
        # ``scale_to_full``): the direction's in a Mitchell, the section's in a Howell
        group = ["event_id", "session", "section", "direction"]
        full = sessions.group_by(group).agg(pl.col("boards").max().alias("__full"))
        sessions = sessions.join(full, on=group, how="left", nulls_equal=True)
    compared, line_rows = compare_lines(scored, profs=profs)
    st_rows, counts, running = compare_standings(
        source_standings, sessions, events, scored, line_rows, profs=profs
    )
    diffs = pl.concat(
        [line_rows, pl.DataFrame(st_rows, schema=dict.fromkeys(RECONCILIATION_COLUMNS, pl.Utf8))]
    )
    summary = []
    names = set(compared["file"].to_list()) if compared.height else set()
    names |= set(source_standings["file"].to_list()) if source_standings.height else set()
    for f in sorted(names):
        lines = compared.filter(pl.col("file") == f) if compared.height else compared
        d = diffs.filter(pl.col("file") == f)
        c = counts.get(f, {"compared": 0, "not_comparable": 0})
        n = lines.height + c["compared"]
        ev = (
            lines["event_id"][0]
            if lines.height
            else source_standings.filter(pl.col("file") == f)["event_id"][0]
        )
        prof_name = lines["profile"][0] if lines.height and "profile" in lines.columns else None
        if prof_name is None and sessions.height:
            p = sessions.filter(pl.col("event_id") == ev)["profile"]
            prof_name = p[0] if p.len() else None
        prof = profs[prof_name]
        holding = d.filter(~pl.col("code").is_in(list(KNOWN_ADJUSTMENT))).height > 0
        summary.append(
            {
                "file": f,
                "event_id": ev,
                "profile": prof.name,
                "compared": n,
                "reproduced": n - d.height,
                "differing": d.height,
                "unexplained": d.filter(pl.col("code") == "unknown").height,
                "not_comparable": c["not_comparable"],
                "running_totals": any(k[0] == f for k in running),
                "on_difference": prof.on_difference,
                "action": {"report": "published", "provisional": "provisional", "hold": "held"}[
                    prof.on_difference
                ]
                if holding
                else "published",
            }
        )
    return diffs, pl.DataFrame(
        summary, schema=empty_summary().schema
    ) if summary else empty_summary()
