"""Matchpoint scoring of validated table results, under each event's profile (Law 78A, 12C2).

On each board of a field, North-South results are compared with each other
(:mod:`pipelines.laws.matchpoints`); East-West receive ``top - NS`` on a
balanced board. The field is the board's section, or, for an event session scored across
the field (``compare`` = ``field``: the organiser's choice, Law 78A), the board's results in
every section of the session together (:func:`section_and_board_ids`). Per board:

* ``n`` = played results (a passed-out board is a played result scoring 0);
* ``N`` = results expected: the event's ``expected_results`` if given, else the
  largest number of results (played, artificial or not played) on any board of
  the field (the session's section, or all its sections scored across the field);
* a board with ``n < N`` is factored to ``N``: Neuberg or linearly, as the
  profile says for a board merely short of results (``factoring_missing``) and
  for one where a table-level artificial score replaced a result
  (``factoring_adjusted``);
* a table-level artificial score (Law 12C2) is a percentage of the *full*
  top ``2(N-1)``, takes no part in the other tables' comparisons, and need not
  balance (Av+/Av+ is legal). Variable averages (``+ = -``) take the profile's
  fixed percentages until the session-percentage rule (12C2(c)) is applied;
* ``NP`` (not played) earns nothing and counts as a missing result.

Exact values are kept as integers ``ns_mp_num / mp_den`` and ``ew_mp_num /
mp_den``; ``ns_mp``/``ew_mp`` are the figures that count in totals under the
profile (exact, or the displayed rounding for programs that sum what they
show); ``*_display`` are the figures shown on the traveller.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from pipelines import profiles
from pipelines.laws.exact import column, column_codes, dense_ids, group_ids, pack
from pipelines.laws.rounding import round_expr, shown
from pipelines.profiles import ProfileSet

#: A board of a session: its event, session, section, the round whose deal it is
#: (``deal_round``, :func:`deal_round_expr`; 0 when every round plays the same deals) and
#: its number.
BOARD = ["event_id", "session", "section", "deal_round", "board"]
SECTION = ["event_id", "session", "section"]


def compared_section(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with each row's ``section`` replaced by the field its board is compared in:
    the row's section, or ``""`` (the whole session) where its event session is scored at
    matchpoints across the field (``compare`` = ``field``, Law 78A; IMP forms compare within
    the section). ``df`` itself when no row is."""
    if "compare" not in df.columns or not (df["compare"] == "field").any():
        return df
    across = pl.col("compare") == "field"
    if "scoring" in df.columns:
        across = across & (pl.col("scoring").fill_null("matchpoints") == "matchpoints")
    return df.with_columns(
        pl.when(across).then(pl.lit("", pl.Utf8)).otherwise(pl.col("section")).alias("section")
    )


def deal_round_expr(redealt_profiles: list[str]) -> pl.Expr:
    """The round whose deal a result's board is: a board is identified by its number, and
    also by its round where every round plays its own deals numbered 1..N — a team match
    (its board is event, session, round, board: Law 86's "board of a match"), or pairs and
    individuals under a profile with ``boards.redealt_per_round`` when the round is given.
    0 elsewhere (every round plays the session's one set of deals). Needs ``form``,
    ``profile`` and ``round``."""
    per_round = (pl.col("form") == "teams") | pl.col("profile").is_in(redealt_profiles)
    return (
        pl.when(per_round & pl.col("round").is_not_null())
        .then(pl.col("round"))
        .otherwise(0)
        .cast(pl.Int32)
        .alias("deal_round")
    )


def redealt_profiles(names: list[str], *, profs: ProfileSet | None = None) -> list[str]:
    """Those of the profiles ``names`` whose boards are re-dealt per round."""
    profs = ProfileSet.ensure(profs)
    return [n for n in names if profs[n].redealt_per_round]


#: Columns added by scoring, after the validated columns.
SCORED_COLUMNS: dict[str, pl.DataType] = {
    "ns_score": pl.Int64,
    "n_results": pl.Int32,
    "expected": pl.Int32,
    "factoring": pl.Utf8,
    "top": pl.Float64,
    "ns_mp_num": pl.Int64,
    "ew_mp_num": pl.Int64,
    "mp_den": pl.Int64,
    "ns_mp": pl.Float64,
    "ew_mp": pl.Float64,
    "ns_pct": pl.Float64,
    "ew_pct": pl.Float64,
    "ns_mp_display": pl.Float64,
    "ew_mp_display": pl.Float64,
    "top_display": pl.Float64,
}


def score_results(validated: pl.DataFrame, *, profs: ProfileSet | None = None) -> pl.DataFrame:
    """Score every validated result; returns the validated columns plus :data:`SCORED_COLUMNS`.

    Rows keep their order. Events are scored under their own profile.
    """
    profs = ProfileSet.ensure(profs)
    if validated.height == 0:
        return validated.with_columns(
            *(pl.lit(None, dtype=t).alias(c) for c, t in SCORED_COLUMNS.items())
        )
    names = validated.select(pl.col("profile").unique()).to_series().to_list()
    if len(names) == 1:
        return score_with_profile(validated, profs[names[0]])
    # Several profiles: score the columns scoring reads, profile by profile, then put the
    # new columns back in row order beside the validated ones.
    narrow = validated.select(
        *(c for c in _READS if c in validated.columns), "profile"
    ).with_row_index("__order")
    parts = [
        score_with_profile(narrow.filter(pl.col("profile") == name), profs[name])
        for name in sorted(names)
    ]
    added = [c for c in parts[0].columns if c not in narrow.columns]
    scored = pl.concat([p.select("__order", *added) for p in parts]).sort("__order")
    return validated.hstack(scored.drop("__order"))


#: The validated columns scoring reads.
_READS = [*BOARD, "kind", "computed_score", "expected_results", "ns_art", "ew_art", "compare"]


def _art_pct(code: pl.Expr, prof: profiles.Profile) -> pl.Expr:
    """Percentage of an artificial-score side code (``60 50 40`` or ``+ = -``)."""
    return (
        pl.when(code == "+")
        .then(prof.average_plus)
        .when(code == "=")
        .then(prof.average)
        .when(code == "-")
        .then(prof.average_minus)
        .otherwise(code.cast(pl.Int64, strict=False))
        .cast(pl.Int64)
    )


def score_with_profile(df: pl.DataFrame, prof: profiles.Profile) -> pl.DataFrame:
    """Score rows that all belong to events under ``prof`` (vectorised over boards).

    The integer figures (results per board, matchpoints, factored numerators
    and denominators) are computed on integer arrays by board id
    (:func:`board_figures`); the figures shown and the floats are then derived
    from them by the rounding rules of :mod:`pipelines.laws.rounding`.
    """
    u = prof.unit_den
    kind = column(df, "kind")
    played = (kind == "played").fill_null(False).to_numpy()
    art = (kind == "artificial").fill_null(False).to_numpy()
    n, has_art, big_n, m, m_ok = board_figures(df, played, art)
    # Factoring of the board: none when no result is missing, else as the profile says.
    methods = ("none", "neuberg", "linear")
    method = np.zeros(len(n), dtype=np.int8)
    short = np.flatnonzero(n < big_n)
    method[short] = np.where(
        has_art[short],
        methods.index(prof.factoring_adjusted),
        methods.index(prof.factoring_missing),
    )
    # What the traveller shows: the exact figure, or (Compscore) the unfactored one on a
    # board merely short of results.
    raw_rows = (
        short[played[short] & ~has_art[short]]
        if (prof.traveller_factoring == "adjusted_boards_only")
        else short[:0]
    )
    raw_m, raw_ok = m[raw_rows], m_ok[raw_rows]
    del has_art
    # Exact NS matchpoints on the 2/1 scale as num/den (the 1/0.5 scale halves them below):
    # none: M/1; Neuberg: (M*N + N - n)/n; linear: M*(N-1)/(n-1), or (N-1)/1 alone on a board.
    num = m  # factored in place, on the rows of short boards only
    num_ok = m_ok
    den = np.ones(len(n), dtype=np.int64)
    for code in (1, 2):
        rows = short[method[short] == code]
        if not len(rows):
            continue
        nn, bn, mm = n[rows], big_n[rows], m[rows]
        if code == 1:
            num[rows] = mm * bn + bn - nn
            den[rows] = nn
        else:
            single = nn == 1
            num[rows] = np.where(single, bn - 1, mm * (bn - 1))
            den[rows] = np.where(single, 1, nn - 1)
            num_ok[rows[single]] = True
    top2 = big_n - 1
    top2 *= 2
    # EW = top - NS on a played board. A table-level artificial score is a percentage of
    # the full top 2(N-1), over 100, for each side.
    ew_num = top2 * den
    ew_num -= num
    ns_num = num
    valid = played & num_ok
    ns_valid, ew_valid = valid, valid.copy()
    arts = np.flatnonzero(art)
    if len(arts):
        ns_pct, ew_pct = _art_percentages(df, arts, prof)
        for pct, out, ok in ((ns_pct, ns_num, ns_valid), (ew_pct, ew_num, ew_valid)):
            out[arts] = pct.fill_null(0).to_numpy() * top2[arts]
            ok[arts] = pct.is_not_null().to_numpy()
    mp_den = den
    mp_den[arts] = 100
    mp_den *= u
    columns = [
        _series("ns_mp_num", ns_num, ns_valid),
        _series("ew_mp_num", ew_num, ew_valid),
        _series("mp_den", mp_den, played | art),
        pl.Series("__top2", top2, dtype=pl.Int64),
    ]
    del ns_num, ew_num, mp_den, num, den, valid, ns_valid, ew_valid
    top = (pl.col("__top2") / u).cast(pl.Float64)
    shown_ns, shown_ew = pl.col("ns_mp_num"), pl.col("ew_mp_num")
    shown_den, top_shown = pl.col("mp_den"), top
    if len(raw_rows):
        raw = np.zeros(len(n), dtype=bool)
        raw[raw_rows] = True
        m = np.zeros(len(n), dtype=np.int64)
        m[raw_rows] = raw_m
        m_ok = np.zeros(len(n), dtype=bool)
        m_ok[raw_rows] = raw_ok
        columns += [
            pl.Series("__raw", raw),
            _series("__m", m, m_ok),
            pl.Series("__n", n, dtype=pl.Int64),
        ]
        rn, m_col, nn = pl.col("__raw"), pl.col("__m"), pl.col("__n")
        shown_ns = pl.when(rn).then(m_col).otherwise(shown_ns)
        shown_ew = pl.when(rn).then(2 * (nn - 1) - m_col).otherwise(shown_ew)
        shown_den = pl.when(rn).then(u).otherwise(shown_den)
        top_shown = pl.when(rn).then(2 * (nn - 1) / u).otherwise(top_shown)

    figures = (
        pl.DataFrame(columns)
        .lazy()
        .select(
            "ns_mp_num",
            "ew_mp_num",
            "mp_den",
            top.alias("top"),
            *counted_and_shown(prof, top, shown_ns, shown_ew, shown_den, top_shown),
        )
        .with_columns(*percentages())
        .collect()
    )
    del columns
    out = df.with_columns(
        pl.when(pl.col("kind") == "played").then(pl.col("computed_score")).alias("ns_score"),
        pl.Series("factoring", methods, dtype=pl.Utf8).gather(pl.Series(method)),
        *figures,
        pl.Series("n_results", n, dtype=pl.Int32),
        pl.Series("expected", big_n, dtype=pl.Int32),
    )
    return out.with_columns(*(pl.col(c).cast(t) for c, t in SCORED_COLUMNS.items()))


def counted_and_shown(
    prof: profiles.Profile,
    top: pl.Expr,
    shown_ns: pl.Expr | None = None,
    shown_ew: pl.Expr | None = None,
    shown_den: pl.Expr | None = None,
    top_shown: pl.Expr | None = None,
) -> list[pl.Expr]:
    """From the exact ``ns_mp_num/mp_den`` and ``ew_mp_num/mp_den``: the matchpoints that
    count (exact, or rounded as shown when the profile sums what it shows) and the ones shown
    on the traveller (rounded per profile, half-way cases towards ``top_shown / 2`` where the
    profile rounds towards the average). ``shown_*`` default to the exact figures."""
    shown_ns = pl.col("ns_mp_num") if shown_ns is None else shown_ns
    shown_ew = pl.col("ew_mp_num") if shown_ew is None else shown_ew
    shown_den = pl.col("mp_den") if shown_den is None else shown_den
    top_shown = top if top_shown is None else top_shown

    def rnd(a: pl.Expr, b: pl.Expr, avg: pl.Expr) -> pl.Expr:
        return shown(round_expr(a, b, prof.mp_decimals, prof.mp_rounding, avg), prof.mp_decimals)

    if prof.count == "displayed":
        counted_ns = rnd(pl.col("ns_mp_num"), pl.col("mp_den"), top / 2)
        counted_ew = rnd(pl.col("ew_mp_num"), pl.col("mp_den"), top / 2)
    else:
        counted_ns = pl.col("ns_mp_num") / pl.col("mp_den")
        counted_ew = pl.col("ew_mp_num") / pl.col("mp_den")
    return [
        rnd(shown_ns, shown_den, top_shown / 2).alias("ns_mp_display"),
        rnd(shown_ew, shown_den, top_shown / 2).alias("ew_mp_display"),
        top_shown.cast(pl.Float64).alias("top_display"),
        counted_ns.alias("ns_mp"),
        counted_ew.alias("ew_mp"),
    ]


def percentages() -> list[pl.Expr]:
    """Each side's matchpoints as a percentage of the top; a board with a single result
    (top 0) compares with nothing: 50 %."""
    return [
        pl.when(pl.col("top") > 0)
        .then(100 * pl.col(f"{s}_mp") / pl.col("top"))
        .when(pl.col(f"{s}_mp").is_not_null())
        .then(50.0)
        .alias(f"{s}_pct")
        for s in ("ns", "ew")
    ]


def _series(name: str, values: np.ndarray, valid: np.ndarray) -> pl.Series:
    """An ``Int64`` series of ``values``, null where ``valid`` is false."""
    s = pl.Series(name, values, dtype=pl.Int64)
    if not valid.all():
        s = s.scatter(np.flatnonzero(~valid), None)
    return s


def _art_percentages(
    df: pl.DataFrame, rows: np.ndarray, prof: profiles.Profile
) -> tuple[pl.Series, pl.Series]:
    """NS and EW percentages (:func:`_art_pct`) of the artificial scores at ``rows``."""
    pcts = df.select("ns_art", "ew_art")[rows].select(
        _art_pct(pl.col("ns_art"), prof).alias("ns"), _art_pct(pl.col("ew_art"), prof).alias("ew")
    )
    return pcts["ns"], pcts["ew"]


def section_and_board_ids(
    df: pl.DataFrame, *, compared: bool = False
) -> tuple[np.ndarray, int, np.ndarray, int]:
    """Dense integer ids of each row's section (:data:`SECTION`) and board (:data:`BOARD`).

    Returns ``(section, n_sections, board, n_boards)``; rows share an id exactly
    when they agree on the key columns (see :func:`~pipelines.laws.exact.group_ids`).
    ``compared``: the field the board is compared in stands for the section
    (:func:`compared_section`): one id for every section of a session scored across the field.
    """
    if compared:
        df = compared_section(df)
    packed = pack([column_codes(column(df, c)) for c in SECTION])
    if packed is None:
        section, n_sections = group_ids(df, SECTION)
    else:
        section, n_sections = dense_ids(packed[0], overwrite=True)
    del packed
    packed = pack(
        [
            (section, n_sections),
            column_codes(column(df, "deal_round")),
            column_codes(column(df, "board")),
        ]
    )
    if packed is None:
        board, n_boards = group_ids(df, BOARD)
    else:
        board, n_boards = dense_ids(packed[0], overwrite=True)
    return section, n_sections, board, n_boards


def board_figures(
    df: pl.DataFrame, played: np.ndarray, art: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row, the figures of its board and field that matchpointing needs (the field: its
    section, or every section of a session scored across the field, :func:`compared_section`).

    Returns integer arrays ``(n, has_art, N, M, M_ok)``:

    * ``n``: played results on the board (a pass-out is a played result);
    * ``has_art``: whether a table-level artificial score is on the board;
    * ``N``: results expected: ``expected_results`` if larger, else the largest
      number of rows (results of any kind) on any board of the section;
    * ``M``: the NS matchpoints on the 2/1 scale among the board's played
      results, ``2 x (results below) + (equal results other than itself)``;
      ``M_ok`` is false for a result that is not played (or has no score).

    Boards and sections are integer ids; ``M`` comes from one sort of the
    played results by (board, score): within a run of equal scores every result
    has the same number of results below it (the run's start minus the board's).
    """
    n = df.height
    section, n_sections, board, n_boards = section_and_board_ids(df, compared=True)
    rows = np.bincount(board, minlength=n_boards)
    section_of_board = np.zeros(n_boards, dtype=section.dtype)
    section_of_board[board] = section
    most = np.zeros(n_sections, dtype=np.int64)
    np.maximum.at(most, section_of_board, rows)
    del rows, section_of_board
    big_n = most[section]
    del section
    if df.select(pl.col("expected_results").null_count()).item() < n:
        expected = column(df, "expected_results").cast(pl.Int64).fill_null(0).to_numpy()
        np.maximum(big_n, expected, out=big_n)
    n_played = np.bincount(board[played], minlength=n_boards)
    has_art = np.zeros(n_boards, dtype=bool)
    has_art[board[art]] = True

    score = column(df, "computed_score").cast(pl.Int64)
    scored = played & score.is_not_null().to_numpy()
    idx = np.flatnonzero(scored)
    mp = np.zeros(n, dtype=np.int64)
    if len(idx):
        s = score.fill_null(0).to_numpy()[idx]
        del score
        lo, span = int(s.min()), int(s.max()) - int(s.min()) + 1
        g = board[idx]
        if n_boards * span < 2**62:
            packed = g.astype(np.int64)
            packed *= span
            packed += s
            packed -= lo
            del s
            order = np.argsort(packed)
            packed = packed[order]
            same = packed[1:] == packed[:-1]
            del packed
        else:
            order = np.lexsort((s, g))
            same = (g[order][1:] == g[order][:-1]) & (s[order][1:] == s[order][:-1])
            del s
        g = g[order]
        new_board = np.empty(len(g), dtype=bool)
        new_board[0] = True
        np.not_equal(g[1:], g[:-1], out=new_board[1:])
        del g
        new_value = np.empty(len(order), dtype=bool)
        new_value[0] = True
        np.logical_not(same, out=new_value[1:])
        del same
        pos = np.arange(len(order), dtype=board.dtype)
        board_start = np.where(new_board, pos, 0)
        np.maximum.accumulate(board_start, out=board_start)
        del new_board
        value_start = np.where(new_value, pos, 0)
        np.maximum.accumulate(value_start, out=value_start)
        del pos
        value_id = np.cumsum(new_value, dtype=board.dtype)
        del new_value
        value_id -= 1
        equal = np.bincount(value_id)
        # M = 2 x (results below) + (equal results) - 1, results below = run start - board start
        value_start -= board_start
        del board_start
        below = value_start.astype(np.int64)
        del value_start
        below *= 2
        below += equal[value_id]
        below -= 1
        del equal, value_id
        mp[idx[order]] = below
    return n_played[board], has_art[board], big_n, mp, scored
